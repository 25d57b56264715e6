#!/usr/bin/env python3
"""CuPy's sort on sift's benchmark inputs.

    cupy_bench.py INPUTS_DIR OUT.json [--runs=N] [--warmup=W]

INPUTS_DIR is what `sift-run --write-bench-inputs=DIR` wrote. CuPy has a
keys-only sort (cupy.sort along the last dimension) and no top-k or
descending argsort with values, so it is timed on the sort-RxC benchmarks
alone, f32 (CuPy has no bfloat16). Each is timed with CUDA events twice:
"cupy-eager" calls cupy.sort (Python inside the events), "cupy-graph"
replays it from a CUDA graph captured once (the launch alone). Every
implementation's result is checked on its first run and after its last
timed run. Entries are named "<benchmark>/cupy-.../cuda", as sift-run
--bench names its own.
"""
import os
import re
import sys

import cupy
import numpy as np

from bench_common import check, parse_args, timed_entries, write_json


def timed(fn, runs, warmup, stream):
    for _ in range(warmup):
        fn()
    stream.synchronize()
    ms = []
    for _ in range(runs):
        start, end = cupy.cuda.Event(), cupy.cuda.Event()
        start.record(stream)
        fn()
        end.record(stream)
        end.synchronize()
        ms.append(cupy.cuda.get_elapsed_time(start, end))
    return ms


def implementations(x, stream):
    """(name, run, result of the last run) of cupy.sort: eager, and from a
    CUDA graph when CuPy can capture it."""
    last = {}

    def eager():
        last["eager"] = cupy.sort(x, axis=-1)

    found = [("cupy-eager", eager, lambda: last["eager"])]
    try:
        for _ in range(3):  # the memory pool holds what the capture needs
            cupy.sort(x, axis=-1)
        stream.synchronize()
        stream.begin_capture()
        out = cupy.sort(x, axis=-1)
        graph = stream.end_capture()
        found.append(("cupy-graph", lambda: graph.launch(stream), lambda: out))
    except Exception as error:  # noqa: BLE001 - CuPy raises several kinds
        print(f"cupy_bench.py: no CUDA graph of cupy.sort: {error}", flush=True)
    return found


def main():
    inputs, out, runs, warmup = parse_args(__doc__)
    if cupy.cuda.runtime.getDeviceCount() == 0:
        sys.exit("cupy_bench.py: no CUDA device")
    stream = cupy.cuda.Stream(non_blocking=True)
    benchmarks = []
    with stream:
        for name in sorted(os.listdir(inputs)):
            if not re.fullmatch(r"sort-(\d+)x(\d+)", name):
                continue
            folder = os.path.join(inputs, name)
            x = cupy.asarray(np.load(os.path.join(folder, "input0.npy")))
            for impl, run, result in implementations(x, stream):
                run()
                stream.synchronize()
                label = check(name, folder, cupy.asnumpy(result()))
                ms = timed(run, runs, warmup, stream)
                stream.synchronize()
                if label == "pass":
                    again = check(name, folder, cupy.asnumpy(result()))
                    if again != "pass":
                        label = again + " (the last timed run; the first matched)"
                benchmarks += timed_entries(f"{name}/{impl}/cuda", ms, label)
    props = cupy.cuda.runtime.getDeviceProperties(0)
    write_json(out, benchmarks, "cupy_bench.py", props["name"].decode(),
               cupy=cupy.__version__)


if __name__ == "__main__":
    main()
