#!/usr/bin/env python3
"""PyTorch's sort, top-k and torchvision's NMS on sift's benchmark inputs.

    torch_bench.py INPUTS_DIR OUT.json [--runs=N] [--warmup=W]

INPUTS_DIR is what `sift-run --write-bench-inputs=DIR` wrote (one folder
per benchmark program, input<i>.npy and the reference's expected<i>.npy).
Each op's result is first checked against the reference under PyTorch's
documented semantics (values equal as keys, NaN to NaN, -0 to +0; top-k
indices that point at those values, distinct, since torch.topk promises no
order among ties; NMS: the kept boxes in order): a wrong baseline gets the
label "mismatch: ..." (the bench table never takes it as a baseline) and
is timed all the same. Each program is timed with CUDA events around the
op alone (inputs already on the device), --warmup untimed runs first, and
written as Google Benchmark JSON named "<benchmark>/torch/cuda", like
sift-run --bench's entries: each repetition, then the median and the
spread (max - min). The programs are read from
their folder names: topk-RxC-kK (largest k along the last dimension),
sort-RxC (ascending along the last dimension), argsort-RxC (descending
with the indices, as top-p sampling sorts), each with an optional -bf16
(bf16 keys: '<V2' .npy files, torch.bfloat16 on the device), nms-N (IoU 0.5, corner boxes
made x1 < x2, y1 < y2 first, outside the timing), nms-head-BxCxN (a
detection head: sigmoid of the logits, score threshold 0.5, IoU 0.5, at most
100 boxes a class; timed twice: "torch" is torchvision's batched_nms over
every (image, class) at once, "torch-per-class" a loop of torchvision's nms
over the (image, class) pairs; the cap of 100 a class is applied after the
timing, when checking), detect-BxCxN (a production head: the top 1,000
boxes of an image by objectness, their boxes and class scores gathered,
then batched_nms over the candidates scoring over 0.05, IoU 0.5; eager:
its nonzero has a data-dependent shape, which a CUDA graph cannot hold). A top-k or sort is timed twice: "torch-eager" calls
the op (Python and the dispatcher inside the events), "torch-graph" replays
it from a CUDA graph captured once (the launch alone, as a serving stack
runs it). Every implementation's result is checked on its first run and
again after its last timed run.
"""
import os
import re
import sys

import numpy as np
import torch

from bench_common import (check, is_bf16, parse_args, timed_entries,
                          write_json)


def timed(fn, runs, warmup):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return times


def graphed(fn):
    """fn captured in a CUDA graph: (replay, the outputs each replay writes)."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = fn()
    return graph.replay, out


def npy_cuda(path):
    """A .npy as a CUDA tensor of its own type (bf16 as torch.bfloat16)."""
    a = np.load(path)
    if is_bf16(a):
        return torch.from_numpy(a.view(np.int16).copy()).view(torch.bfloat16).cuda()
    return torch.from_numpy(a).cuda()


def host(t):
    """A result tensor as NumPy (bf16 widened exactly to f32)."""
    return (t.float() if t.dtype == torch.bfloat16 else t).cpu().numpy()


def on_host(result):
    """A result (a tensor or a tuple of them) as NumPy, for check()."""
    if isinstance(result, tuple):
        return tuple(host(t) for t in result)
    return host(result)


def xyxy_of(boxes):
    """sift's boxes [..., 4] as [y1, x1, y2, x2] with any two diagonal
    corners, made torchvision's [x1, y1, x2, y2] with x1 <= x2, y1 <= y2."""
    y = torch.stack([boxes[..., 0], boxes[..., 2]])
    x = torch.stack([boxes[..., 1], boxes[..., 3]])
    return torch.stack([x.min(0).values, y.min(0).values,
                        x.max(0).values, y.max(0).values], dim=-1).contiguous()


def head_ops(boxes, logits):
    """A detection head's NMS, twice: (implementation, function) pairs. Each
    function returns the kept (image, class, box) in score order."""
    import torchvision
    classes = logits.shape[1]
    xyxy = xyxy_of(boxes)

    def candidates():
        scores = torch.sigmoid(logits)
        b, c, n = (scores > 0.5).nonzero(as_tuple=True)
        return b, c, n, scores[b, c, n]

    def batched():
        b, c, n, s = candidates()
        kept = torchvision.ops.batched_nms(xyxy[b, n], s, b * classes + c, 0.5)
        return b[kept], c[kept], n[kept]

    def per_class():
        scores = torch.sigmoid(logits)
        out = ([], [], [])
        for b in range(logits.shape[0]):
            for c in range(classes):
                n = (scores[b, c] > 0.5).nonzero(as_tuple=True)[0]
                kept = n[torchvision.ops.nms(xyxy[b, n], scores[b, c, n], 0.5)]
                out[0].append(torch.full_like(kept, b))
                out[1].append(torch.full_like(kept, c))
                out[2].append(kept)
        return tuple(torch.cat(part) for part in out)

    return [("torch", batched), ("torch-per-class", per_class)]


def detect_ops(boxes, scores, objectness):
    """A production detection head (detect-BxCxN): the top 1000 boxes of
    each image by objectness, their boxes and class scores gathered, then
    torchvision's batched_nms over every (image, class) of the candidates
    whose score passes 0.05 (IoU 0.5). Returns the kept (image, class,
    box) in score order, the box an index into the image's boxes."""
    import torchvision
    images, classes, n = scores.shape
    k = min(1000, n)
    xyxy = xyxy_of(boxes)

    def head():
        top = torch.topk(objectness, k, dim=1).indices            # [B, K]
        cand_boxes = torch.gather(xyxy, 1, top[..., None].expand(-1, -1, 4))
        cand_scores = torch.gather(scores, 2,
                                   top[:, None, :].expand(-1, classes, -1))
        b, c, j = (cand_scores > 0.05).nonzero(as_tuple=True)
        kept = torchvision.ops.batched_nms(cand_boxes[b, j], cand_scores[b, c, j],
                                           b * classes + c, 0.5)
        return b[kept], c[kept], top[b[kept], j[kept]]

    return [("torch", head)]


def eager_and_graph(fn):
    """The (implementation, run, result of the last run) of an op: called
    eagerly, and replayed from a CUDA graph."""
    replay, out = graphed(fn)
    last = {}

    def eager():
        last["eager"] = fn()
        return last["eager"]

    def replayed():
        replay()
        return out

    return [("torch-eager", eager, lambda: last["eager"]),
            ("torch-graph", replayed, lambda: out)]


def op_of(name, folder):
    """The function to time, or a list of (implementation, function)."""
    load = lambda i: npy_cuda(os.path.join(folder, f"input{i}.npy"))
    if re.fullmatch(r"nms-head-(\d+)x(\d+)x(\d+)", name):
        return head_ops(load(0), load(1))
    if re.fullmatch(r"detect-(\d+)x(\d+)x(\d+)", name):
        return detect_ops(load(0), load(1), load(2))
    if m := re.fullmatch(r"topk-(\d+)x(\d+)-k(\d+)(-bf16)?", name):
        x, k = load(0), int(m.group(3))
        return eager_and_graph(
            lambda: torch.topk(x, k, dim=-1, largest=True, sorted=True))
    if re.fullmatch(r"sort-(\d+)x(\d+)(-bf16)?", name):
        x = load(0)
        return eager_and_graph(lambda: torch.sort(x, dim=-1))
    if re.fullmatch(r"argsort-(\d+)x(\d+)(-bf16)?", name):
        x = load(0)
        return eager_and_graph(lambda: torch.sort(x, dim=-1, descending=True))
    if re.fullmatch(r"nms-(\d+)", name):
        import torchvision
        boxes, scores = load(0)[0], load(1)[0, 0]
        xyxy = xyxy_of(boxes)
        return lambda: torchvision.ops.nms(xyxy, scores, 0.5)
    return None


def main():
    inputs, out, runs, warmup = parse_args(__doc__)
    if not torch.cuda.is_available():
        sys.exit("torch_bench.py: no CUDA device")
    benchmarks = []
    for name in sorted(os.listdir(inputs)):
        folder = os.path.join(inputs, name)
        ops = op_of(name, folder)
        if ops is None:
            continue
        if callable(ops):
            ops = [("torch", ops)]
        for op in ops:
            impl, fn = op[0], op[1]
            label = check(name, folder, on_host(fn()))
            ms = timed(fn, runs, warmup)
            # The last timed run checked too (a graph that captured stale
            # buffers, state kept between runs).
            if label == "pass" and len(op) > 2:
                torch.cuda.synchronize()
                last = check(name, folder, on_host(op[2]()))
                if last != "pass":
                    label = last + " (the last timed run; the first matched)"
            benchmarks += timed_entries(f"{name}/{impl}/cuda", ms, label)
    write_json(out, benchmarks, "torch_bench.py", torch.cuda.get_device_name(0),
               torch=torch.__version__)


if __name__ == "__main__":
    main()
