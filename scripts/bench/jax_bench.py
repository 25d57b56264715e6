#!/usr/bin/env python3
"""JAX/XLA's top-k and sort (jax.jit) on sift's benchmark inputs.

    jax_bench.py INPUTS_DIR OUT.json [--runs=N] [--warmup=W]

INPUTS_DIR is what `sift-run --write-bench-inputs=DIR` wrote. The programs
are read from their folder names, as torch_bench.py reads them: topk-RxC-kK
(jax.lax.top_k: largest k along the last dimension, sorted), sort-RxC
(jnp.sort along the last dimension, keys only), argsort-RxC (jax.lax.top_k
of the whole row: descending, with the indices, in one sort), each with an
optional -bf16 (jnp.bfloat16 keys). NMS has no XLA op and is left out.

JAX offers no CUDA events, and XLA shares a call repeated in one jitted
function (an optimization barrier between the calls did not stop it), so
the jitted op is called N times back to back (SIFT_JAX_BURST, default 50),
JAX dispatching ahead while the device works, then 2N times; a
repetition's time is the difference of the two bursts' wall times over N,
which cancels the start, the final wait and Python, as long as the device
is slower than the dispatch. The dispatch of a jitted op that does almost
nothing is measured too: a benchmark under twice that is printed as an
upper bound. --warmup untimed bursts come first; each call runs on the
same input, as warm in L2 as sift's. Every run's results are checked: the
first and last call of the long burst, in the first and the last
repetition. Entries are named "<benchmark>/jax/cuda", as sift-run --bench
names its own.
"""
import os
import re
import sys
import time

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

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
        ms, first, last = timed(op, x, calls, runs, warmup)
        floor = floor if floor is not None else dispatch_ms(calls)
        if np.median(ms) < 2 * floor:
            print(f"{name}: {np.median(ms):.4f} ms a call is under twice "
                  f"JAX's dispatch ({floor:.4f} ms): an upper bound", flush=True)
        label = "pass"
        for results, which in ((first, "first"), (last, "last")):
            for call in (results[0], results[-1]):
                verdict = check(name, folder, on_host(call))
                if verdict != "pass" and label == "pass":
                    label = f"{verdict} (the {which} repetition)"
        platform = next(iter(x.devices())).platform
        target = "cuda" if platform == "gpu" else platform
        benchmarks += timed_entries(f"{name}/jax/{target}", ms, label)
    write_json(out, benchmarks, "jax_bench.py", jax.devices()[0].device_kind,
               jax=jax.__version__)


if __name__ == "__main__":
    main()
