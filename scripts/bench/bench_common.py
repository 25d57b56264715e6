"""What sift's GPU bench baselines share: reading sift-run's benchmark inputs,
checking a baseline's result against the reference, and writing Google
Benchmark JSON as sift-run --bench does.

Results are checked under the baseline's documented semantics: values equal
as keys (NaN to NaN, -0 to +0); top-k indices that point at those values,
distinct (no library promises an order among ties); NMS: the kept boxes in
order. A result is given as NumPy arrays: a top-k or argsort (values,
indices), a sort its values (or (values, indices)), an NMS its kept box
indices, a detection head (images, classes, boxes; a detect-BxCxN head's
boxes are the images' box indices, not the candidates').
"""
import json
import os
import socket
import sys
import time

import numpy as np


def is_bf16(a):
    """bf16 arrives as two opaque bytes ('<V2', ml_dtypes' spelling)."""
    return a.dtype.kind == "V" and a.dtype.itemsize == 2


def npy(path):
    """A .npy as NumPy; bf16 widened exactly to f32 (its top half)."""
    a = np.load(path)
    if is_bf16(a):
        return (a.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    return a


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
        # An argsort is checked as a top-k of the whole row (no library
        # promises an order among ties).
        values, indices = result
        if not same_keys(values, expected(0)):
            return "mismatch: top-k values differ from the reference"
        x = npy(os.path.join(folder, "input0.npy"))
        if not same_keys(np.take_along_axis(x, indices, axis=-1), values):
            return "mismatch: top-k indices do not point at their values"
        if any(len(set(row)) != len(row) for row in indices.tolist()):
            return "mismatch: a top-k row repeats an index"
        return "pass"
    if name.startswith("sort-"):
        values = result[0] if isinstance(result, tuple) else result
        return "pass" if same_keys(values, expected(0)) else \
            "mismatch: sorted values differ from the reference"
    if name.startswith("nms-head-") or name.startswith("detect-"):
        count = int(expected(1).reshape(-1)[0])
        want = expected(0)[:count].tolist()
        if name.startswith("detect-"):
            # The reference's rows name a candidate; its box is the
            # candidate's index into the image's boxes (expected2).
            boxes = expected(2)
            want = [[b, c, int(boxes[b, j])] for b, c, j in want]
        images, classes, boxes = (np.asarray(t).tolist() for t in result)
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
        got = np.asarray(result).tolist()
        if got != want:
            return f"mismatch: kept {len(got)} boxes, the reference {count} " \
                   f"(first difference at {next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))})"
        return "pass"
    return "pass"


HEAD_MAX_OUT = 100


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


def parse_args(doc):
    """(inputs folder, output path, runs, warmup) from sys.argv."""
    if len(sys.argv) < 3:
        sys.exit(doc)
    runs, warmup = 20, 5
    for arg in sys.argv[3:]:
        if arg.startswith("--runs="):
            runs = int(arg[7:])
        elif arg.startswith("--warmup="):
            warmup = int(arg[9:])
        else:
            sys.exit(f"{os.path.basename(sys.argv[0])}: unknown argument {arg}")
    return sys.argv[1], sys.argv[2], runs, warmup


def timed_entries(full, ms, label):
    """Google Benchmark entries of one implementation's timed runs: each
    repetition, then the median and the spread (max - min)."""
    runs = len(ms)
    entries = [entry(full, t, i, repetitions=runs, label=label)
               for i, t in enumerate(ms)]
    entries.append(entry(full, float(np.median(ms)), aggregate="median",
                         repetitions=runs, label=label))
    entries.append(entry(full, max(ms) - min(ms), aggregate="spread",
                         repetitions=runs, label=label))
    print(f"{full}: median {np.median(ms):.3f} ms of {runs} ({label})",
          flush=True)
    return entries


def write_json(out, benchmarks, executable, device, **versions):
    """Writes the Google Benchmark file whole (a partial file, then a rename)."""
    context = {"date": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()),
               "host_name": socket.gethostname(), "executable": executable,
               "device": device, "library_build_type": "release", **versions}
    tmp = out + ".partial"
    with open(tmp, "w") as f:
        json.dump({"context": context, "benchmarks": benchmarks}, f, indent=1)
    os.replace(tmp, out)
