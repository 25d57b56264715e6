#!/usr/bin/env python3
"""JAX/XLA's top-k and sort (jax.jit) on sift's benchmark inputs.

    jax_bench.py INPUTS_DIR OUT.json [--runs=N] [--warmup=W]

INPUTS_DIR is what `sift-run --write-bench-inputs=DIR` wrote. The programs
are read from their folder names, as torch_bench.py reads them: topk-RxC-kK
(jax.lax.top_k: largest k along the last dimension, sorted), sort-RxC
(jnp.sort along the last dimension, keys only), argsort-RxC (jax.lax.top_k
of the whole row: descending, with the indices, in one sort), each with an
optional -bf16 (jnp.bfloat16 keys). NMS has no XLA op and is left out.

JAX offers no CUDA events, so XLA is timed twice, without Python in
either measure:
- "<benchmark>/jax/cuda": each call timed on the device by XLA's profiler
  (CUPTI). The calls run one at a time under jax.profiler.trace, 2 ms
  apart, and a call's time is its first kernel's start to its last
  kernel's end on the GPU's streams (the gaps between its kernels
  included, as CUDA events around a launch see them). Only where the
  trace holds GPU work.
- "<benchmark>/jax-burst/...": the jitted op called N times back to back
  (SIFT_JAX_BURST, default 50), then 2N times; a repetition is the
  difference of the two wall times over N. Launches queue up, so there
  are no launch gaps, but it cancels Python only while the device is
  slower than JAX's dispatch, which is measured too (a jitted one-float
  op): a benchmark under twice it is printed as an upper bound. (XLA
  shares a call repeated inside one jitted function, even with an
  optimization barrier between the calls, so the calls are separate.)
The table takes the faster of the two. --warmup untimed calls come first;
each call runs on the same input, as warm in L2 as sift's. The first and
last timed calls' results are checked.
"""
import glob
import os
import re
import shutil
import sys
import tempfile
import time

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.profiler import ProfileData  # noqa: E402

from bench_common import (check, is_bf16, parse_args, timed_entries,  # noqa: E402
                          write_json)


def load(path):
    """A .npy on the device, of its own type (bf16 as jnp.bfloat16)."""
    a = np.load(path)
    if is_bf16(a):
        a = a.view(jnp.bfloat16)
    return jax.device_put(a)


def on_host(result):
    """A result (an array or a tuple of them) as NumPy, bf16 widened to f32."""
    if isinstance(result, (tuple, list)):
        return tuple(on_host(r) for r in result)
    a = np.asarray(result)
    return a.astype(np.float32) if a.dtype == jnp.bfloat16 else a


def op_of(name):
    """The op of a benchmark, as a function of its input, or None."""
    if m := re.fullmatch(r"topk-(\d+)x(\d+)-k(\d+)(-bf16)?", name):
        k = int(m.group(3))
        return lambda x: jax.lax.top_k(x, k)
    if re.fullmatch(r"sort-(\d+)x(\d+)(-bf16)?", name):
        return lambda x: jnp.sort(x, axis=-1)
    if re.fullmatch(r"argsort-(\d+)x(\d+)(-bf16)?", name):
        return lambda x: jax.lax.top_k(x, x.shape[-1])
    return None


def wall(fn, x, calls):
    """(seconds, results) of `calls` calls dispatched back to back, waited
    for together at the end."""
    start = time.perf_counter()
    results = [fn(x) for _ in range(calls)]
    jax.block_until_ready(results)
    return time.perf_counter() - start, results


def timed(op, x, calls, runs, warmup):
    """Per-call milliseconds of `runs` repetitions, and the results of the
    first and last repetition's longer burst."""
    fn = jax.jit(op)
    for _ in range(max(warmup, 1)):
        wall(fn, x, 2 * calls)
    ms, first, last = [], None, None
    for _ in range(runs):
        a, _ = wall(fn, x, calls)
        b, results = wall(fn, x, 2 * calls)
        ms.append(max(b - a, 0.0) * 1000 / calls)
        first = first or results
        last = results
    return ms, first, last


def device_spans(fn, x, runs):
    """(each call's device milliseconds from XLA's profiler, their results),
    the milliseconds None when the trace holds no GPU work (no CUPTI, or a
    CPU). The calls run one at a time, 2 ms apart; a call's time is its
    first kernel's start to its last kernel's end on the GPU's streams, the
    launch gaps between its kernels included, as CUDA events around a
    launch see them."""
    folder = tempfile.mkdtemp(prefix="sift-jax-trace-")
    results, spans = [], []
    try:
        with jax.profiler.trace(folder):
            for _ in range(runs):
                results.append(fn(x))
                jax.block_until_ready(results[-1])
                time.sleep(0.002)
        files = glob.glob(os.path.join(folder, "**", "*.xplane.pb"),
                          recursive=True)
        events = []
        for plane in ProfileData.from_file(files[0]).planes if files else []:
            if plane.name.startswith("/device:GPU"):
                events += [(e.start_ns, e.end_ns) for line in plane.lines
                           if line.name.startswith("Stream") for e in line.events]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    for start, end in sorted(events):
        if spans and start - spans[-1][1] < 1e6:  # the same call
            spans[-1][1] = max(spans[-1][1], end)
        else:
            spans.append([start, end])
    if len(spans) != runs:
        if events:
            print(f"jax_bench.py: the trace holds {len(spans)} calls, not {runs}",
                  flush=True)
        return None, results
    return [(end - start) / 1e6 for start, end in spans], results


def dispatch_ms(calls):
    """Per-call milliseconds of a jitted op that does almost nothing (one
    float plus one): while the device keeps up with Python, a burst costs
    this much a call."""
    fn, scalar = jax.jit(lambda v: v + 1), jnp.float32(0)
    wall(fn, scalar, 2 * calls)
    samples = []
    for _ in range(5):
        a, _ = wall(fn, scalar, calls)
        b, _ = wall(fn, scalar, 2 * calls)
        samples.append(max(b - a, 0.0) * 1000 / calls)
    return float(np.median(samples))


def label_of(name, folder, runs):
    """'pass', or the first mismatch of the (first, last) lists of calls'
    results: each list's first and last call is checked."""
    for results, which in zip(runs, ("first", "last")):
        for call in (results[0], results[-1]):
            verdict = check(name, folder, on_host(call))
            if verdict != "pass":
                return f"{verdict} (the {which} repetition)"
    return "pass"


def main():
    inputs, out, runs, warmup = parse_args(__doc__)
    # SIFT_JAX_ANY_DEVICE=1: JAX's CPU too (the tests check the runner so).
    if not any(d.platform == "gpu" for d in jax.devices()) and \
            os.environ.get("SIFT_JAX_ANY_DEVICE") != "1":
        sys.exit("jax_bench.py: JAX sees no GPU")
    calls = int(os.environ.get("SIFT_JAX_BURST", "50"))
    benchmarks = []
    floor = None
    for name in sorted(os.listdir(inputs)):
        folder = os.path.join(inputs, name)
        op = op_of(name)
        if op is None:
            continue
        x = load(os.path.join(folder, "input0.npy"))
        platform = next(iter(x.devices())).platform
        target = "cuda" if platform == "gpu" else platform
        fn = jax.jit(op)
        for _ in range(max(warmup, 1)):
            jax.block_until_ready(fn(x))
        # Both ways where the profiler sees the GPU: the table takes the
        # faster, the stronger baseline.
        ms, results = device_spans(fn, x, runs)
        if ms is not None:
            label = label_of(name, folder, (results[:1], results[-1:]))
            benchmarks += timed_entries(f"{name}/jax/{target}", ms, label)
        ms, first, last = timed(op, x, calls, runs, warmup)
        floor = floor if floor is not None else dispatch_ms(calls)
        if np.median(ms) < 2 * floor:
            print(f"{name}: {np.median(ms):.4f} ms a call is under twice "
                  f"JAX's dispatch ({floor:.4f} ms): an upper bound", flush=True)
        label = label_of(name, folder, (first, last))
        benchmarks += timed_entries(f"{name}/jax-burst/{target}", ms, label)
    write_json(out, benchmarks, "jax_bench.py", jax.devices()[0].device_kind,
               jax=jax.__version__)


if __name__ == "__main__":
    main()
