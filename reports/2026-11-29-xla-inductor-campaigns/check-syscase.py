#!/usr/bin/env python3
"""A hand check of an exported PyTorch case (NAME.syscase/, written by
`harness --pipeline=inductor --export-artifacts`): runs its program.py with
systems/runners/inductor_run.py under several (device, backend) pairs and
prints, for each output, whether it equals the reference's expected<i>.npy
bit for bit, and where it first differs. A difference that eager PyTorch
shares is PyTorch's semantics (or the program's), not inductor's
compilation.

    check-syscase.py [--pairs=cuda:inductor,cuda:eager,cpu:eager] DIR...
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile

import numpy as np

RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "..", "..", "systems", "runners", "inductor_run.py")


def first_difference(expected, actual):
    if expected.shape != actual.shape:
        return f"shape {actual.shape}, expected {expected.shape}"
    if expected.dtype != actual.dtype:
        return f"dtype {actual.dtype}, expected {expected.dtype}"
    e = expected.reshape(-1).view(f"u{expected.dtype.itemsize}")
    a = actual.reshape(-1).view(f"u{actual.dtype.itemsize}")
    differ = np.nonzero(e != a)[0]
    if differ.size == 0:
        return None
    i = differ[0]
    where = np.unravel_index(i, expected.shape)
    return (f"{differ.size} of {e.size} differ; first at {list(where)}: "
            f"expected {expected.reshape(-1)[i]!r}, got {actual.reshape(-1)[i]!r}")


def check(case, device, backend):
    with tempfile.TemporaryDirectory() as work:
        inputs = os.path.join(work, "inputs")
        outputs = os.path.join(work, "outputs")
        os.makedirs(inputs)
        for path in sorted(glob.glob(os.path.join(case, "input*.npy"))):
            i = int(os.path.basename(path)[len("input"):-len(".npy")])
            np.save(os.path.join(inputs, f"input_{i}.npy"), np.load(path))
        run = subprocess.run(
            [sys.executable, RUNNER, "--program", os.path.join(case, "program.py"),
             "--inputs", inputs, "--outputs", outputs, "--device", device,
             f"--backend={backend}", "--emulate-precision-casts=true"],
            capture_output=True, text=True)
        if run.returncode != 0:
            tail = "\n    ".join(run.stderr.strip().splitlines()[-6:])
            return [f"exit {run.returncode}:\n    {tail}"]
        lines = []
        for path in sorted(glob.glob(os.path.join(case, "expected*.npy"))):
            i = int(os.path.basename(path)[len("expected"):-len(".npy")])
            got = np.load(os.path.join(outputs, f"output_{i}.npy"))
            diff = first_difference(np.load(path), got)
            lines.append(f"output {i}: " + ("same" if diff is None else diff))
        return lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", default="cuda:inductor,cuda:eager,cpu:eager")
    parser.add_argument("cases", nargs="+")
    args = parser.parse_args()
    for case in args.cases:
        print(f"== {os.path.basename(case.rstrip('/'))}", flush=True)
        for pair in args.pairs.split(","):
            device, backend = pair.split(":")
            for line in check(case, device, backend):
                print(f"  {device} {backend}: {line}", flush=True)


if __name__ == "__main__":
    main()
