#!/usr/bin/env python3
"""Writes sift's hand-made corpus edge cases: case.json (program model) and
input<i>.npy for each, into the folder given (default corpus/). Complete them
with `harness replay --rewrite FOLDER...`, which adds program.mlir, the
expected outputs and the observed verdict. Standard library only."""
import json
import math
import os
import struct
import sys

NAN = float("nan")
DESCR = {"f32": ("<f4", "f"), "f16": ("<f2", "e"), "f64": ("<f8", "d"),
         "i32": ("<i4", "i"), "i64": ("<i8", "q")}


def write_npy(path, dtype, shape, values):
    descr, fmt = DESCR[dtype]
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims)
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * pad + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        for v in values:
            f.write(struct.pack("<" + fmt, v))


def neg_nan(dtype):
    """A NaN with its sign bit set."""
    bits = {"f32": (0xFFC00000, "I", "f"), "f64": (0xFFF8000000000000, "Q", "d"),
            "f16": (0xFE00, "H", "e")}[dtype]
    return struct.unpack("<" + bits[2], struct.pack("<" + bits[1], bits[0]))[0]


def case(folder, name, program, inputs, note):
    path = os.path.join(folder, name)
    os.makedirs(path, exist_ok=True)
    info = {"format": 1, "seed": 1, "pipeline": "cpu", "target": "host", "chip": "",
            "faults": [], "random_config": False, "inputs": "mixed", "verdict": "pass",
            "note": note, "program": program}
    with open(os.path.join(path, "case.json"), "w") as f:
        json.dump(info, f, indent=2, sort_keys=True)
        f.write("\n")
    for i, (dtype, shape, values) in enumerate(inputs):
        write_npy(os.path.join(path, "input%d.npy" % i), dtype, shape, values)


def value(dtype, *shape):
    return {"type": dtype, "shape": list(shape)}


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "corpus"
    specials = [3.5, -0.0, 0.0, 1.0, 3.5, -2.0, math.inf, -math.inf, 1e-40, -1e-40, 7.0]

    # A sort along a prime length (127) with an i64 payload: ties, +-0,
    # +-inf and denormals in every row.
    n = 127
    keys = [specials[(r * 5 + c * 3) % len(specials)] * (1 + (c % 4)) for r in range(2) for c in range(n)]
    case(folder, "edge-sort-prime-size", {
        "values": [value("f32", 2, n), value("i64", 2, n), value("f32", 2, n), value("i64", 2, n)],
        "inputs": [0, 1],
        "ops": [{"kind": "sort", "operands": [0, 1], "results": [2, 3], "dimension": 1,
                 "order": "ascending", "comparator": "less"}],
        "outputs": [2, 3]},
        [("f32", [2, n], keys), ("i64", [2, n], list(range(2 * n)))],
        "a stable sort of a prime length (127) with ties, +-0, +-inf, denormals")

    # A comparator region (|a| < |b|, NaN last) with NaNs of both signs.
    row = [2.0, -2.0, NAN, 0.5, -0.0, neg_nan("f32"), 0.0, -7.0, 7.0, 1.0, -1.0, NAN, 3.0]
    case(folder, "edge-sort-comparator", {
        "values": [value("f32", 3, 13), value("i32", 3, 13), value("f32", 3, 13), value("i32", 3, 13)],
        "inputs": [0, 1],
        "ops": [{"kind": "sort", "operands": [0, 1], "results": [2, 3], "dimension": 1,
                 "order": "comparator", "comparator": "less_abs"}],
        "outputs": [2, 3]},
        [("f32", [3, 13], row + row[::-1] + row[3:] + row[:3]), ("i32", [3, 13], list(range(39)))],
        "a sort by a comparator region (less_abs): equal magnitudes keep their order, NaNs last")

    # top-k with k = n along a non-innermost dimension, both results used.
    vals = [((i * 7) % 5) - 2.0 for i in range(9 * 4)]
    case(folder, "edge-topk-k-equals-n", {
        "values": [value("f16", 9, 4), value("f16", 9, 4), value("i64", 9, 4)],
        "inputs": [0],
        "ops": [{"kind": "topk", "operands": [0], "results": [1, 2], "dimension": 0, "k": 9,
                 "largest": True}],
        "outputs": [1, 2]},
        [("f16", [9, 4], vals)],
        "top-k with k = n = 9 along dimension 0, ties everywhere")

    # Rows that are all NaN (of both signs), next to a half-NaN row and a
    # plain one: a sort with a payload and a top-k.
    rows = [[5.0, -1.0, 3.0, 3.0, 0.0, -0.0, 2.0, 9.0],
            [NAN] * 8,
            [NAN, 1.0, neg_nan("f32"), -4.0, NAN, 2.0, 2.0, neg_nan("f32")],
            [neg_nan("f32"), NAN] * 4]
    flat = [v for r in rows for v in r]
    case(folder, "edge-sort-all-nan-rows", {
        "values": [value("f32", 4, 8), value("i64", 4, 8), value("f32", 4, 8), value("i64", 4, 8)],
        "inputs": [0, 1],
        "ops": [{"kind": "sort", "operands": [0, 1], "results": [2, 3], "dimension": 1,
                 "order": "descending", "comparator": "less"}],
        "outputs": [2, 3]},
        [("f32", [4, 8], flat), ("i64", [4, 8], list(range(32)))],
        "a descending sort of rows that are all NaN (both signs) beside mixed rows")
    case(folder, "edge-topk-all-nan-rows", {
        "values": [value("f32", 4, 8), value("f32", 4, 3), value("i64", 4, 3)],
        "inputs": [0],
        "ops": [{"kind": "topk", "operands": [0], "results": [1, 2], "dimension": 1, "k": 3,
                 "largest": True}],
        "outputs": [1, 2]},
        [("f32", [4, 8], flat)],
        "the 3 largest of rows that are all NaN (both signs) beside mixed rows")


if __name__ == "__main__":
    main()
