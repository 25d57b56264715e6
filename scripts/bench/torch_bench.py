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
timing, when checking). A top-k or sort is timed twice: "torch-eager" calls
the op (Python and the dispatcher inside the events), "torch-graph" replays
it from a CUDA graph captured once (the launch alone, as a serving stack
runs it). Every implementation's result is checked on its first run and
again after its last timed run.
"""
import json
import os
import re
import socket
import sys
import time

import numpy as np
import torch


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


def is_bf16(a):
    """bf16 arrives as two opaque bytes ('<V2', ml_dtypes' spelling)."""
    return a.dtype.kind == "V" and a.dtype.itemsize == 2


def npy(path):
    """A .npy as NumPy; bf16 widened exactly to f32 (its top half)."""
    a = np.load(path)
    if is_bf16(a):
        return (a.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    return a


def npy_cuda(path):
    """A .npy as a CUDA tensor of its own type (bf16 as torch.bfloat16)."""
    a = np.load(path)
    if is_bf16(a):
        return torch.from_numpy(a.view(np.int16).copy()).view(torch.bfloat16).cuda()
    return torch.from_numpy(a).cuda()


def host(t):
    """A result tensor as NumPy (bf16 widened exactly to f32)."""
    return (t.float() if t.dtype == torch.bfloat16 else t).cpu().numpy()


def same_keys(a, b):
    """Equal as sort keys: NaN to NaN, -0 to +0."""
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))


def check(name, folder, result):
    """'pass', or 'mismatch: what differs' against the reference."""
    expected = lambda i: npy(os.path.join(folder, f"expected{i}.npy"))
    if not os.path.exists(os.path.join(folder, "expected0.npy")):
        return "pass"  # inputs written before the reference was: unchecked
    if name.startswith("topk-") or name.startswith("argsort-"):
        # An argsort is checked as a top-k of the whole row (torch.sort
        # promises no order among ties either).
        values, indices = host(result[0]), result[1].cpu().numpy()
        if not same_keys(values, expected(0)):
            return "mismatch: top-k values differ from the reference"
        x = npy(os.path.join(folder, "input0.npy"))
        if not same_keys(np.take_along_axis(x, indices, axis=-1), values):
            return "mismatch: top-k indices do not point at their values"
        if any(len(set(row)) != len(row) for row in indices.tolist()):
            return "mismatch: a top-k row repeats an index"
        return "pass"
    if name.startswith("sort-"):
        values = host(result[0] if isinstance(result, tuple) else result)
        return "pass" if same_keys(values, expected(0)) else \
            "mismatch: sorted values differ from the reference"
    if name.startswith("nms-head-"):
        count = int(expected(1).reshape(-1)[0])
        want = expected(0)[:count].tolist()
        images, classes, boxes = (t.cpu().numpy().tolist() for t in result)
        groups = {}
        for b, c, n in zip(images, classes, boxes):  # score order per group
            kept = groups.setdefault((b, c), [])
            if len(kept) < HEAD_MAX_OUT:
                kept.append([b, c, n])
        got = [row for key in sorted(groups) for row in groups[key]]
        if got != want:
            first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b),
                         min(len(got), len(want)))
            return f"mismatch: kept {len(got)} boxes, the reference {count} " \
                   f"(first difference at {first})"
        return "pass"
    if name.startswith("nms-"):
        count = int(expected(1).reshape(-1)[0])
        want = expected(0)[:count, 2].tolist()
        got = result.cpu().numpy().tolist()
        if got != want:
            return f"mismatch: kept {len(got)} boxes, the reference {count} " \
                   f"(first difference at {next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))})"
        return "pass"
    return "pass"


HEAD_MAX_OUT = 100


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


def entry(name, ms, index=None, aggregate=None, repetitions=0, label="pass"):
    e = {"name": name + (f"_{aggregate}" if aggregate else ""), "run_name": name,
         "run_type": "aggregate" if aggregate else "iteration",
         "repetitions": repetitions, "threads": 1, "iterations": 1,
         "real_time": ms, "cpu_time": ms, "time_unit": "ms", "label": label}
    if aggregate:
        e["aggregate_name"] = aggregate
    else:
        e["repetition_index"] = index
    return e


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    inputs, out = sys.argv[1], sys.argv[2]
    runs, warmup = 20, 5
    for arg in sys.argv[3:]:
        if arg.startswith("--runs="):
            runs = int(arg[7:])
        elif arg.startswith("--warmup="):
            warmup = int(arg[9:])
        else:
            sys.exit(f"torch_bench.py: unknown argument {arg}")
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
            label = check(name, folder, fn())
            ms = timed(fn, runs, warmup)
            # The last timed run checked too (a graph that captured stale
            # buffers, state kept between runs).
            if label == "pass" and len(op) > 2:
                torch.cuda.synchronize()
                last = check(name, folder, op[2]())
                if last != "pass":
                    label = last + " (the last timed run; the first matched)"
            full = f"{name}/{impl}/cuda"
            benchmarks += [entry(full, t, i, repetitions=runs, label=label)
                           for i, t in enumerate(ms)]
            benchmarks.append(entry(full, float(np.median(ms)), aggregate="median",
                                    repetitions=runs, label=label))
            benchmarks.append(entry(full, max(ms) - min(ms), aggregate="spread",
                                    repetitions=runs, label=label))
            print(f"{full}: median {np.median(ms):.3f} ms of {runs} ({label})",
                  flush=True)
    context = {"date": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()),
               "host_name": socket.gethostname(), "executable": "torch_bench.py",
               "device": torch.cuda.get_device_name(0),
               "torch": torch.__version__, "library_build_type": "release"}
    tmp = out + ".partial"
    with open(tmp, "w") as f:
        json.dump({"context": context, "benchmarks": benchmarks}, f, indent=1)
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
