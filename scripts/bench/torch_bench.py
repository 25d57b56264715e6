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
sort-RxC (ascending along the last dimension), nms-N (IoU 0.5, corner boxes
made x1 < x2, y1 < y2 first, outside the timing).
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


def same_keys(a, b):
    """Equal as sort keys: NaN to NaN, -0 to +0."""
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))


def check(name, folder, result):
    """'pass', or 'mismatch: what differs' against the reference."""
    expected = lambda i: np.load(os.path.join(folder, f"expected{i}.npy"))
    if not os.path.exists(os.path.join(folder, "expected0.npy")):
        return "pass"  # inputs written before the reference was: unchecked
    if name.startswith("topk-"):
        values, indices = result[0].cpu().numpy(), result[1].cpu().numpy()
        if not same_keys(values, expected(0)):
            return "mismatch: top-k values differ from the reference"
        x = np.load(os.path.join(folder, "input0.npy"))
        if not same_keys(np.take_along_axis(x, indices, axis=-1), values):
            return "mismatch: top-k indices do not point at their values"
        if any(len(set(row)) != len(row) for row in indices.tolist()):
            return "mismatch: a top-k row repeats an index"
        return "pass"
    if name.startswith("sort-"):
        values = (result[0] if isinstance(result, tuple) else result).cpu().numpy()
        return "pass" if same_keys(values, expected(0)) else \
            "mismatch: sorted values differ from the reference"
    if name.startswith("nms-"):
        count = int(expected(1).reshape(-1)[0])
        want = expected(0)[:count, 2].tolist()
        got = result.cpu().numpy().tolist()
        if got != want:
            return f"mismatch: kept {len(got)} boxes, the reference {count} " \
                   f"(first difference at {next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))})"
        return "pass"
    return "pass"


def op_of(name, folder):
    load = lambda i: torch.from_numpy(np.load(os.path.join(folder, f"input{i}.npy"))).cuda()
    if m := re.fullmatch(r"topk-(\d+)x(\d+)-k(\d+)", name):
        x, k = load(0), int(m.group(3))
        return lambda: torch.topk(x, k, dim=-1, largest=True, sorted=True)
    if re.fullmatch(r"sort-(\d+)x(\d+)", name):
        x = load(0)
        return lambda: torch.sort(x, dim=-1)
    if re.fullmatch(r"nms-(\d+)", name):
        import torchvision
        boxes, scores = load(0)[0], load(1)[0, 0]
        # sift's boxes are [y1, x1, y2, x2] with any two diagonal corners.
        y = torch.stack([boxes[:, 0], boxes[:, 2]])
        x = torch.stack([boxes[:, 1], boxes[:, 3]])
        xyxy = torch.stack([x.min(0).values, y.min(0).values,
                            x.max(0).values, y.max(0).values], dim=1).contiguous()
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
        fn = op_of(name, folder)
        if fn is None:
            continue
        label = check(name, folder, fn())
        ms = timed(fn, runs, warmup)
        full = f"{name}/torch/cuda"
        benchmarks += [entry(full, t, i, repetitions=runs, label=label)
                       for i, t in enumerate(ms)]
        benchmarks.append(entry(full, float(np.median(ms)), aggregate="median",
                                repetitions=runs, label=label))
        benchmarks.append(entry(full, max(ms) - min(ms), aggregate="spread",
                                repetitions=runs, label=label))
        print(f"{full}: median {np.median(ms):.3f} ms of {runs} ({label})", flush=True)
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
