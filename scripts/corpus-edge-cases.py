#!/usr/bin/env python3
"""Writes sift's hand-made corpus edge cases: case.json (program model) and
input<i>.npy for each, into the folder given (default corpus/). Complete them
with `harness replay --rewrite FOLDER...`, which adds program.mlir, the
expected outputs and the observed verdict. The edge-nms-* cases pin NMS edge
cases (no boxes, max_out = 0, identical boxes, an IoU at the threshold, NaN
scores, the center format, every score below the threshold). Standard
library only."""
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

    nms_cases(folder)


def nms_program(batches, classes, n, max_out, iou, score_threshold=None, center=False,
                box_type="f32", score_type="f32"):
    """One sift.nms over input boxes [B, N, 4] and scores [B, C, N], both
    results returned. Thresholds must be exact in f32 (the model stores f32)."""
    rows = batches * classes * max(max_out, 0)
    return {
        "values": [value(box_type, batches, n, 4), value(score_type, batches, classes, n),
                   value("i64", rows, 3), value("i64", 1)],
        "inputs": [0, 1],
        "ops": [{"kind": "nms", "operands": [0, 1], "results": [2, 3],
                 "max_output_boxes_per_class": max_out, "iou_threshold": iou,
                 "score_threshold": score_threshold, "center_point_box": center}],
        "outputs": [2, 3]}


def nms_cases(folder):
    """NMS edge cases (ONNX NonMaxSuppression as sift.nms describes it)."""
    # N = 0: no candidates; every row -1, a count of 0.
    case(folder, "edge-nms-no-boxes", nms_program(2, 3, 0, 4, 0.5, 0.0),
         [("f32", [2, 0, 4], []), ("f32", [2, 3, 0], [])],
         "NMS over N = 0 boxes: selected all -1, count 0")

    # max_output_boxes_per_class = 0: no rows at all, a count of 0.
    boxes = [0, 0, 1, 1, 0, 0, 1, 1, 5, 5, 6, 6]
    case(folder, "edge-nms-max-out-zero", nms_program(1, 2, 3, 0, 0.5),
         [("f32", [1, 3, 4], boxes), ("f32", [1, 2, 3], [0.9, 0.8, 0.7, 0.1, 0.2, 0.3])],
         "NMS with max_output_boxes_per_class = 0: selected has no rows, count 0")

    # Every box the same (IoU 1 > 0.5): one box per class, the best score,
    # ties to the lower index (class 1 ties everywhere: box 0).
    n = 6
    same = [2.0, 3.0, 10.0, 7.5] * n
    case(folder, "edge-nms-identical-boxes", nms_program(1, 3, n, 4, 0.5),
         [("f32", [1, n, 4], same),
          ("f32", [1, 3, n], [0.1, 0.9, 0.3, 0.9, 0.2, 0.0] + [0.5] * n +
                             [-1.0, -2.0, -3.0, -4.0, -5.0, -0.5])],
         "NMS over identical boxes: one per class, ties to the lower box index")

    # IoU exactly at the threshold never suppresses (strict >). Pairs of
    # integer boxes: [0,0,3,3] and [0,1,3,4] (IoU 6/12 = 0.5), [10,10,12,12]
    # and [10,11,12,13] flipped (IoU 2/6 = 1/3, below), [20,20,24,24] and
    # [20,22,24,26] (IoU 8/24, below), [30,30,32,32] and the same box by its
    # other corners (IoU 1, above).
    boxes = [0, 0, 3, 3, 0, 1, 3, 4,
             12, 12, 10, 10, 10, 13, 12, 11,
             20, 20, 24, 24, 20, 22, 24, 26,
             30, 30, 32, 32, 32, 32, 30, 30]
    scores = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2,
              0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
    case(folder, "edge-nms-iou-at-threshold", nms_program(1, 2, 8, 8, 0.5),
         [("f32", [1, 8, 4], boxes), ("f32", [1, 2, 8], scores)],
         "NMS where an IoU equals the threshold (0.5): both boxes kept; flipped corners")
    case(folder, "edge-nms-iou-at-threshold-third", nms_program(1, 2, 8, 8, 1.0 / 3.0),
         [("f32", [1, 8, 4], boxes), ("f32", [1, 2, 8], scores)],
         "NMS with the threshold at f32(1/3), the IoU of the flipped pair: both kept")

    # NaN scores without a threshold: NaN counts as the largest (visited
    # first, ties to the lower index); with a threshold NaN is never above it.
    nan = NAN
    boxes = [0, 0, 2, 2, 0, 1, 2, 3, 5, 5, 7, 7, 5, 5, 7, 7, 10, 10, 11, 11]
    scores = [0.5, nan, 0.9, neg_nan("f32"), 0.1,
              nan, nan, nan, nan, nan,
              -1.0, 2.0, nan, 2.0, math.inf]
    case(folder, "edge-nms-nan-scores", nms_program(1, 3, 5, 5, 0.3),
         [("f32", [1, 5, 4], boxes), ("f32", [1, 3, 5], scores)],
         "NMS with NaN scores (both signs) and no threshold: NaN visited first")
    case(folder, "edge-nms-nan-scores-threshold", nms_program(1, 3, 5, 5, 0.3, -2.0),
         [("f32", [1, 5, 4], boxes), ("f32", [1, 3, 5], scores)],
         "NMS with NaN scores and a score threshold: NaN is never above it")

    # center_point_box = 1: [x_center, y_center, width, height]; f16 boxes.
    # Boxes 0 and 1 overlap by half (IoU 1/3), box 2 equals box 0, box 3 is
    # elsewhere, box 4 has a negative width (no min/max: area < 0, IoU 0).
    boxes = [2, 2, 4, 4, 4, 2, 4, 4, 2, 2, 4, 4, 20, 20, 2, 2, 2, 2, -4, 4]
    case(folder, "edge-nms-center-format", nms_program(2, 1, 5, 5, 0.25, None, True, "f16"),
         [("f16", [2, 5, 4], boxes + boxes[4:] + boxes[:4]),
          ("f32", [2, 1, 5], [0.9, 0.8, 0.7, 0.6, 0.5, 0.1, 0.2, 0.3, 0.4, 0.5])],
         "NMS in center format (center_point_box = 1), f16 boxes, a negative width")

    # Every score at or below the threshold (equal is not above): nothing.
    case(folder, "edge-nms-all-below-threshold", nms_program(2, 2, 3, 3, 0.5, 0.25),
         [("f32", [2, 3, 4], [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5] * 2),
          ("f32", [2, 2, 3], [0.25, 0.25, 0.25, 0.1, -1.0, 0.25,
                              -math.inf, 0.0, 0.24999999, 0.25, 0.125, -0.0])],
         "NMS where every score is <= the score threshold (0.25): no box selected")


if __name__ == "__main__":
    main()
