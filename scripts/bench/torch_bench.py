#!/usr/bin/env python3
"""PyTorch's sort, top-k and torchvision's NMS on sift's benchmark inputs.

    torch_bench.py INPUTS_DIR OUT.json [--runs=N] [--warmup=W]

INPUTS_DIR is what `sift-run --write-bench-inputs=DIR` wrote (one folder
per benchmark program, input<i>.npy). Each program is timed with CUDA
events around the op alone (inputs already on the device), --warmup
untimed runs first, and written as Google Benchmark JSON named
"<benchmark>/torch/cuda", like sift-run --bench's entries: each repetition,
then the median and the spread (max - min). The programs are read from
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


def entry(name, ms, index=None, aggregate=None, repetitions=0):
    e = {"name": name + (f"_{aggregate}" if aggregate else ""), "run_name": name,
         "run_type": "aggregate" if aggregate else "iteration",
         "repetitions": repetitions, "threads": 1, "iterations": 1,
         "real_time": ms, "cpu_time": ms, "time_unit": "ms", "label": "pass"}
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
        fn = op_of(name, os.path.join(inputs, name))
        if fn is None:
            continue
        ms = timed(fn, runs, warmup)
        full = f"{name}/torch/cuda"
        benchmarks += [entry(full, t, i, repetitions=runs) for i, t in enumerate(ms)]
        benchmarks.append(entry(full, float(np.median(ms)), aggregate="median", repetitions=runs))
        benchmarks.append(entry(full, max(ms) - min(ms), aggregate="spread", repetitions=runs))
        print(f"{full}: median {np.median(ms):.3f} ms of {runs}", flush=True)
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
