#!/usr/bin/env python3
"""Checks public NonMaxSuppression implementations against sift.nms (SEMANTICS.md).

Hand-made cases, one or more per suppression rule, run through:
  ref        onnx.reference.ReferenceEvaluator on a one-node NonMaxSuppression model
  ort-cpu    onnxruntime InferenceSession, CPUExecutionProvider
  ort-cuda   onnxruntime InferenceSession, CUDAExecutionProvider only (CPU fallback disabled)
  tv-cpu     torchvision.ops.nms on CPU tensors
  tv-cuda    torchvision.ops.nms on CUDA tensors
  tvb-cpu    torchvision.ops.batched_nms on CPU (one call per batch, classes as idxs)
  tvb-cuda   torchvision.ops.batched_nms on CUDA
and compared with `spec`, a small numpy model of SEMANTICS.md `sift.nms` written below.

torchvision adaptation (torchvision has no batch, class, score threshold, max_out or
center format): per batch and class the boxes are turned into [x1, y1, x2, y2] by swapping
the coordinate pairs of [y1, x1, y2, x2] (no min/max: flipped boxes stay flipped), or by
torchvision.ops.box_convert('cxcywh' -> 'xyxy') for center_point_box = 1; a score threshold
is applied before the call (strict >) and max_out by cutting the kept list (nms returns
its picks in selection order, so this equals stopping early). The iou_threshold goes in as
the Python float equal to the f32 threshold. Cases whose rule is the score threshold or
max_out itself are not run on torchvision (the wrapper, not torchvision, would decide them).

Each framework import is optional. Usage:
  python3 scripts/nms-frameworks.py [--out results.json] [--case NAME ...] [--list]
Needs numpy; onnx, onnxruntime, torch, torchvision as available. No network.
"""
import argparse
import json
import math
import struct
import sys

import numpy as np

F32 = np.float32


def f32_bits(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


NAN = float("nan")
NEG_NAN = f32_bits(0xFFC00000)  # a NaN with the sign bit set
INF = float("inf")


# --------------------------------------------------------------------------------------
# The numpy model of SEMANTICS.md sift.nms
# --------------------------------------------------------------------------------------

def spec_corners(box, center_point_box):
    """(xmin, ymin, xmax, ymax) in f32."""
    if center_point_box == 0:
        y1, x1, y2, x2 = (F32(v) for v in box)
        return min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)
    # [x_center, y_center, width, height]: corners at center -/+ half size, in f32.
    # SEMANTICS does not say to min/max these; a negative size gives flipped corners.
    xc, yc, w, h = (F32(v) for v in box)
    hw = F32(w / F32(2))
    hh = F32(h / F32(2))
    return F32(xc - hw), F32(yc - hh), F32(xc + hw), F32(yc + hh)


def spec_iou(a, b):
    """IoU in f32: intersection / (area_a + area_b - intersection); 0 when the
    intersection (either side), an area or the union is <= 0."""
    ax0, ay0, ax1, ay1 = a
    bx0, by0, bx1, by1 = b
    iw = F32(min(ax1, bx1) - max(ax0, bx0))
    ih = F32(min(ay1, by1) - max(ay0, by0))
    # Per-side test: a product of two negative sides must not count as an overlap.
    if not (iw > 0 and ih > 0):
        return F32(0)
    inter = F32(iw * ih)
    area_a = F32(F32(ax1 - ax0) * F32(ay1 - ay0))
    area_b = F32(F32(bx1 - bx0) * F32(by1 - by0))
    if inter <= 0 or area_a <= 0 or area_b <= 0:
        return F32(0)
    union = F32(F32(area_a + area_b) - inter)
    if union <= 0:
        return F32(0)
    return F32(inter / union)


def spec_nms(boxes, scores, max_out, iou_thr, score_thr, center_point_box):
    """Returns (rows, capacity, count) per SEMANTICS.md: the fixed-capacity output is
    `rows` then capacity - count rows of -1 (built only when small, see padded())."""
    nb, nbox = boxes.shape[0], boxes.shape[1]
    nc = scores.shape[1]
    m = 0 if max_out is None else max(int(max_out), 0)
    thr = F32(0 if iou_thr is None else iou_thr)
    rows = []
    with np.errstate(all="ignore"):
        for b in range(nb):
            corners = [spec_corners(boxes[b, i], center_point_box) for i in range(nbox)]
            for c in range(nc):
                s = scores[b, c]
                cand = [i for i in range(nbox)
                        if score_thr is None or s[i] > F32(score_thr)]
                # descending, NaN largest, ties (-0.0 == +0.0 included) to the lower index
                cand.sort(key=lambda i: (0 if math.isnan(s[i]) else 1,
                                         0.0 if math.isnan(s[i]) else -float(s[i]), i))
                sel = []
                for i in cand:
                    if len(sel) >= m:
                        break
                    if any(spec_iou(corners[i], corners[j]) > thr for j in sel):
                        continue
                    sel.append(i)
                rows += [[b, c, i] for i in sel]
    return rows, nb * nc * m, len(rows)


def padded(rows, capacity, limit=4096):
    """The `selected [B*C*max_out, 3]` output, or None when larger than limit rows."""
    return rows + [[-1, -1, -1]] * (capacity - len(rows)) if capacity <= limit else None


# --------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------

def plain_iou_f32(box_a, box_b, cpb=0):
    with np.errstate(all="ignore"):
        return spec_iou(spec_corners(box_a, cpb), spec_corners(box_b, cpb))


def rnd32(q):
    """Fraction -> nearest float32 (ties to even), for exact fma and exact IoU values."""
    from fractions import Fraction
    if q == 0:
        return F32(0)
    sign, a = (-1 if q < 0 else 1), abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    e = max(e, -126)
    m = a / Fraction(2) ** (e - 23)
    n, r = divmod(m.numerator, m.denominator)
    if 2 * r > m.denominator or (2 * r == m.denominator and n % 2):
        n += 1
    return F32(sign * float(n * Fraction(2) ** (e - 23)))


def iou_variants(box_a, box_b, cpb=0):
    """IoU of two boxes computed the spec way and in ways other kernels may use."""
    from fractions import Fraction as Q
    a, b = spec_corners(box_a, cpb), spec_corners(box_b, cpb)
    iw = F32(min(a[2], b[2]) - max(a[0], b[0]))
    ih = F32(min(a[3], b[3]) - max(a[1], b[1]))
    dxa, dya = F32(a[2] - a[0]), F32(a[3] - a[1])
    dxb, dyb = F32(b[2] - b[0]), F32(b[3] - b[1])
    i, sa, sb = F32(iw * ih), F32(dxa * dya), F32(dxb * dyb)
    fma = lambda x, y, z: rnd32(Q(float(x)) * Q(float(y)) + Q(float(z)))  # noqa: E731
    v = {"spec f32 i/((a+b)-i)": F32(i / F32(F32(sa + sb) - i)),
         "f32 i/(a+(b-i))": F32(i / F32(sa + F32(sb - i))),
         "f32 union fma(wa,ha,b)-i": F32(i / F32(fma(dxa, dya, sb) - i)),
         "f32 union fma(wb,hb,a)-i": F32(i / F32(fma(dxb, dyb, sa) - i)),
         "f32 union fma(-wi,hi,a+b)": F32(i / fma(-iw, ih, F32(sa + sb))),
         "f64 from f32 sides": float(iw) * float(ih) /
                               (float(dxa) * float(dya) + float(dxb) * float(dyb) - float(iw) * float(ih))}
    if cpb == 1:
        wa, wb = F32(F32(box_a[2]) * F32(box_a[3])), F32(F32(box_b[2]) * F32(box_b[3]))
        v["f32 areas w*h"] = F32(i / F32(F32(wa + wb) - i))
    return v


def case(name, rule, desc, boxes, scores, max_out=10, iou=0.5, score_thr=None, cpb=0,
         tv="run", tv_iou=None, spec_defined=True, note=""):
    b = np.array(boxes, dtype=F32)
    s = np.array(scores, dtype=F32)
    if b.ndim == 2:
        b = b[None]
    if s.ndim == 1:
        s = s[None, None]
    if b.size == 0:
        b = b.reshape(1, 0, 4)
    return dict(name=name, rule=rule, desc=desc, boxes=b, scores=s, max_out=max_out,
                iou=iou, score_thr=score_thr, cpb=cpb, tv=tv, tv_iou=tv_iou,
                spec_defined=spec_defined, note=note)


def disjoint(n, size=1.0, gap=2.0):
    return [[0.0, k * gap, size, k * gap + size] for k in range(n)]


def build_cases():
    cs = []
    unit = [0.0, 0.0, 1.0, 1.0]

    # (1) IoU comparison
    thr7 = F32(F32(0.25) / F32(1.75))  # f32 IoU of the two boxes below (ONNX's own boundary test)
    cs.append(case("iou_eq_thr", 1, "IoU == iou_threshold in f32: kept (strict >)",
                   [unit, [0.5, 0.5, 1.5, 1.5]], [0.9, 0.8], iou=thr7))
    cs.append(case("iou_above_thr", 1, "IoU one ulp above iou_threshold: suppressed",
                   [unit, [0.5, 0.5, 1.5, 1.5]], [0.9, 0.8],
                   iou=np.nextafter(thr7, F32(0))))
    cs.append(case("iou_thr1_identical", 1, "identical boxes, iou_threshold 1: IoU 1 is not > 1, both kept",
                   [unit, unit], [0.9, 0.8], iou=1.0))
    cs.append(case("iou_thr0_touching", 1, "boxes sharing an edge, iou_threshold 0: no overlap, both kept",
                   [unit, [0.0, 1.0, 1.0, 2.0]], [0.9, 0.8], iou=0.0))
    cs.append(case("iou_thr0_overlap", 1, "tiny overlap, iou_threshold 0: suppressed",
                   [unit, [0.0, 0.99, 1.0, 2.0]], [0.9, 0.8], iou=0.0))
    cs.append(case("iou_third_double", 1,
                   "IoU = f32(1/3) and threshold f32(1/3): kept; torchvision gets the double 1/3",
                   [unit, [0.0, 0.5, 1.0, 1.5]], [0.9, 0.8], iou=F32(1.0 / 3.0), tv_iou=1.0 / 3.0,
                   note="torchvision's CPU kernel compares the f32 IoU, widened, with the double "
                        "threshold (0.3333333433 > 0.3333333333 suppresses); its CUDA kernel takes "
                        "the threshold as float and keeps both"))
    cs.append(case("iou_missing", 1, "iou_threshold input absent (ONNX default 0)",
                   [unit, [0.0, 0.9, 1.0, 2.0], [0.0, 5.0, 1.0, 6.0]], [0.9, 0.8, 0.7], iou=None,
                   tv="skip: wrapper would choose the default", spec_defined=False,
                   note="SEMANTICS lists iou_threshold without a default; ONNX says default 0"))

    # (2) score threshold
    cs.append(case("score_eq_thr", 2, "score == score_threshold: not a candidate (strict >)",
                   disjoint(3), [0.5, 0.4, 0.3], score_thr=0.4,
                   tv="skip: no score threshold in torchvision"))
    cs.append(case("score_thr_zero_signed", 2,
                   "threshold 0: -0.0 and +0.0 are out, the smallest denormal is in",
                   disjoint(3), [-0.0, 0.0, f32_bits(1)], score_thr=0.0,
                   tv="skip: no score threshold in torchvision",
                   note="a flush-to-zero compare would drop the denormal"))

    # (3) ties
    cs.append(case("tie_identical3", 3, "3 identical boxes, equal scores: lowest index wins",
                   [unit] * 3, [0.9] * 3))
    cs.append(case("tie_disjoint_order", 3, "disjoint boxes, repeated scores: (score desc, index asc)",
                   disjoint(5), [0.5, 0.7, 0.5, 0.7, 0.5]))
    cs.append(case("tie_signed_zero", 3, "identical boxes with scores -0.0, +0.0: equal keys, index 0 wins",
                   [unit, unit], [-0.0, 0.0]))
    cs.append(case("tie_identical20", 3, "20 identical boxes, equal scores (small-sort path on GPUs)",
                   [unit] * 20, [0.5] * 20))
    cs.append(case("tie_identical40", 3, "40 identical boxes, equal scores",
                   [unit] * 40, [0.5] * 40))
    cs.append(case("tie_disjoint300", 3, "300 disjoint boxes, equal scores: order 0..299",
                   disjoint(300), [0.25] * 300, max_out=300))

    # (4) NaN scores
    cs.append(case("nan_top_identical", 4, "identical boxes, NaN score: NaN ranks first and wins",
                   [unit] * 3, [0.9, NAN, 0.8]))
    cs.append(case("nan_order_disjoint", 4, "disjoint boxes with NaN and +inf: order NaN, inf, 0.9, 0.8",
                   disjoint(4), [0.9, NAN, 0.8, INF]))
    cs.append(case("nan_negative", 4, "negative-sign NaN ranks first too",
                   disjoint(3), [0.9, NEG_NAN, 0.8]))
    cs.append(case("nan_two_tie", 4, "identical boxes, two NaNs: lower NaN index wins",
                   [unit] * 3, [0.5, NAN, NAN]))
    cs.append(case("nan_score_thr_disjoint", 4, "NaN with a score threshold: not a candidate",
                   disjoint(3), [NAN, 0.9, 0.8], score_thr=0.5,
                   tv="skip: no score threshold in torchvision"))
    cs.append(case("nan_score_thr_identical", 4, "identical boxes, NaN + threshold 0: the 0.9 box wins",
                   [unit, unit], [NAN, 0.9], score_thr=0.0,
                   tv="skip: no score threshold in torchvision"))

    # (5) flipped corners
    cs.append(case("flip_both_axes", 5, "second box is the first with both corners swapped: suppressed",
                   [unit, [1.0, 1.0, 0.0, 0.0]], [0.9, 0.8]))
    cs.append(case("flip_one_axis", 5, "second box flipped in x only: suppressed",
                   [unit, [0.0, 1.0, 1.0, 0.0]], [0.9, 0.8]))
    cs.append(case("flip_onnx_test", 5, "ONNX backend test nonmaxsuppression_flipped_coordinates",
                   [[1.0, 1.0, 0.0, 0.0], [0.0, 0.1, 1.0, 1.1], [0.0, 0.9, 1.0, -0.1],
                    [0.0, 10.0, 1.0, 11.0], [1.0, 10.1, 0.0, 11.1], [1.0, 101.0, 0.0, 100.0]],
                   [0.9, 0.75, 0.6, 0.95, 0.5, 0.3], max_out=3, score_thr=0.0))

    # (6) degenerate boxes
    cs.append(case("degen_points", 6, "two identical zero-size boxes: never suppress",
                   [[0.5, 0.5, 0.5, 0.5]] * 2, [0.9, 0.8]))
    cs.append(case("degen_lines", 6, "two identical zero-height boxes: never suppress",
                   [[0.0, 0.0, 0.0, 1.0]] * 2, [0.9, 0.8]))
    cs.append(case("degen_inside_thr0", 6, "zero-area line inside a box, iou_threshold 0: both kept",
                   [unit, [0.5, 0.0, 0.5, 1.0]], [0.9, 0.8], iou=0.0))
    cs.append(case("degen_first_thr0", 6, "zero-area box selected first, iou_threshold 0: both kept",
                   [[0.5, 0.0, 0.5, 1.0], unit], [0.9, 0.8], iou=0.0))
    cs.append(case("degen_overflow", 6, "identical 3e19-size boxes: areas inf, IoU NaN, not suppressed",
                   [[0.0, 0.0, 3e19, 3e19]] * 2, [0.9, 0.8],
                   note="literal reading of SEMANTICS: union inf+inf-inf = NaN passes the <= 0 "
                        "test, IoU inf/NaN = NaN, NaN > t is false"))
    cs.append(case("degen_nan_coord", 6, "NaN coordinate (SEMANTICS does not define it)",
                   [unit, [NAN, 0.0, 1.0, 1.0], unit], [0.9, 0.8, 0.7], spec_defined=False))

    # (7) center_point_box
    cs.append(case("center_onnx_test", 7, "ONNX backend test nonmaxsuppression_center_point_box_format",
                   [[0.5, 0.5, 1.0, 1.0], [0.5, 0.6, 1.0, 1.0], [0.5, 0.4, 1.0, 1.0],
                    [0.5, 10.5, 1.0, 1.0], [0.5, 10.6, 1.0, 1.0], [0.5, 100.5, 1.0, 1.0]],
                   [0.9, 0.75, 0.6, 0.95, 0.5, 0.3], max_out=3, score_thr=0.0, cpb=1))
    ca = [96.74359893798828, 68.30648040771484, 12.357120513916016, 6.430324554443359]
    cb = [95.81936645507812, 68.37287902832031, 14.704377174377441, 8.083707809448242]
    cs.append(case("center_area_wh", 7,
                   "center boxes whose corner-difference area != w*h in f32; threshold = spec IoU",
                   [ca, cb], [0.9, 0.8], cpb=1, iou=plain_iou_f32(ca, cb, 1),
                   note="an area taken as w*h gives a larger IoU and suppresses (onnxruntime's CPU "
                        "kernel did at one time: BoxInfo with area_ = w*h)"))
    cs.append(case("center_far", 7,
                   "centers at 1e8 (f32 spacing 8): corners round, corner width 16 != w = 12",
                   [[1e8, 0.5, 12.0, 1.0], [1e8 + 8, 0.5, 12.0, 1.0]], [0.9, 0.8], cpb=1, iou=0.4,
                   note="spec IoU from f32 corners is 8/24; from w*h (or corners in f64) it is "
                        "8/16 and suppresses"))
    cs.append(case("center_negative_size", 7, "center box with negative width/height (SEMANTICS: no min/max)",
                   [[0.5, 0.5, 1.0, 1.0], [0.5, 0.5, -1.0, -1.0]], [0.9, 0.8], cpb=1,
                   note="SEMANTICS takes min/max only for center_point_box = 0; read literally the "
                        "second box has flipped corners and never overlaps"))

    # (8) max_output_boxes_per_class
    cs.append(case("max_out_zero", 8, "max_out 0: nothing", disjoint(3), [0.9, 0.8, 0.7], max_out=0,
                   tv="skip: max_out is the wrapper's"))
    cs.append(case("max_out_negative", 8, "max_out -1: treated as 0", disjoint(3), [0.9, 0.8, 0.7],
                   max_out=-1, tv="skip: max_out is the wrapper's"))
    cs.append(case("max_out_missing", 8, "max_out input absent: default 0, nothing", disjoint(3),
                   [0.9, 0.8, 0.7], max_out=None, tv="skip: max_out is the wrapper's"))
    cs.append(case("max_out_1_two_classes", 8, "max_out 1 with 2 classes: one row per class",
                   disjoint(3), [[[0.7, 0.9, 0.8], [0.9, 0.1, 0.95]]], max_out=1,
                   tv="skip: max_out is the wrapper's"))
    cs.append(case("max_out_huge", 8, "max_out 2^40 (> int32) with 3 boxes: all selected",
                   disjoint(3), [0.9, 0.8, 0.7], max_out=2 ** 40, tv="skip: max_out is the wrapper's"))
    cs.append(case("empty_boxes", 8, "N = 0 boxes: empty output", [], np.zeros((1, 1, 0)), max_out=3))

    # (9) IoU precision and formula order
    pa = [5.118216037750244, 9.504636764526367, 7.059812068939209, 19.491130828857422]
    pb = [4.365541934967041, 9.197942733764648, 6.307137966156006, 19.48443603515625]
    cs.append(case("prec_f64_reassoc", 9,
                   "f32 IoU == threshold (kept); exact/f64 IoU and a+(b-i) in f32 are larger",
                   [pa, pb], [0.9, 0.8], iou=plain_iou_f32(pa, pb),
                   note="an implementation in f64, or one reassociating the union, suppresses"))
    qa = [0.1983414590358734, 0.8185799717903137, 2.862877130508423, 5.465081691741943]
    qb = [0.05130160599946976, 2.356666088104248, 2.7158374786376953, 7.303167819976807]
    cs.append(case("prec_fma", 9,
                   "f32 IoU == threshold (kept); union as fma(w_a, h_a, area_b) - i or "
                   "fma(w_b, h_b, area_a) - i is smaller",
                   [qa, qb], [0.9, 0.8], iou=plain_iou_f32(qa, qb),
                   note="a kernel that contracts an area product into the union sum suppresses"))

    cs.append(case("prec_class_offset", 9,
                   "the prec_f64_reassoc boxes in 2 classes: spec keeps both boxes in each class",
                   [pa, pb], [[[0.9, 0.8], [0.9, 0.8]]], iou=plain_iou_f32(pa, pb),
                   note="batched_nms's coordinate trick shifts class 1 by (max + 1) in f32; the "
                        "shifted corners round and the IoU rises above the threshold"))

    # (10) output order and shape
    sc = [[[0.3, 0.9, 0.6], [0.8, 0.2, 0.9]], [[0.1, 0.2, 0.3], [0.9, 0.9, 0.1]]]
    cs.append(case("order_batch_class", 10, "B=2, C=2: batch-major, then class, then selection order",
                   [disjoint(3), disjoint(3)], sc, max_out=2))
    return cs


# --------------------------------------------------------------------------------------
# Frameworks
# --------------------------------------------------------------------------------------

class Skip(Exception):
    pass


def rows_of(arr):
    a = np.asarray(arr)
    return [[int(v) for v in r] for r in a.reshape(-1, 3)] if a.size else []


def onnx_model(c):
    import onnx
    from onnx import TensorProto, helper
    ins = [helper.make_tensor_value_info("boxes", TensorProto.FLOAT, list(c["boxes"].shape)),
           helper.make_tensor_value_info("scores", TensorProto.FLOAT, list(c["scores"].shape))]
    names = ["boxes", "scores"]
    for nm, key, ty in (("max_output_boxes_per_class", "max_out", TensorProto.INT64),
                        ("iou_threshold", "iou", TensorProto.FLOAT),
                        ("score_threshold", "score_thr", TensorProto.FLOAT)):
        if c[key] is None:
            names.append("")
        else:
            names.append(nm)
            ins.append(helper.make_tensor_value_info(nm, ty, [1]))
    while names[-1] == "":
        names.pop()
    attrs = {"center_point_box": c["cpb"]} if c["cpb"] else {}
    node = helper.make_node("NonMaxSuppression", names, ["selected_indices"], **attrs)
    out = helper.make_tensor_value_info("selected_indices", TensorProto.INT64, ["K", 3])
    graph = helper.make_graph([node], "nms", ins, [out])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def onnx_feeds(c):
    f = {"boxes": c["boxes"], "scores": c["scores"]}
    if c["max_out"] is not None:
        f["max_output_boxes_per_class"] = np.array([c["max_out"]], dtype=np.int64)
    if c["iou"] is not None:
        f["iou_threshold"] = np.array([c["iou"]], dtype=F32)
    if c["score_thr"] is not None:
        f["score_threshold"] = np.array([c["score_thr"]], dtype=F32)
    return f


def make_reference():
    import onnx  # noqa: F401
    from onnx.reference import ReferenceEvaluator

    def run(c):
        with np.errstate(all="ignore"):
            return rows_of(ReferenceEvaluator(onnx_model(c)).run(None, onnx_feeds(c))[0])
    return run


def make_ort(provider):
    import onnx  # noqa: F401  (builds the model)
    import onnxruntime as ort
    if provider not in ort.get_available_providers():
        raise RuntimeError(f"{provider} not in onnxruntime.get_available_providers() "
                           f"{ort.get_available_providers()}")

    def run(c):
        so = ort.SessionOptions()
        so.log_severity_level = 3
        if provider != "CPUExecutionProvider":
            so.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
        sess = ort.InferenceSession(onnx_model(c).SerializeToString(), so, providers=[provider])
        if sess.get_providers()[0] != provider:
            raise RuntimeError(f"session runs on {sess.get_providers()}")
        return rows_of(sess.run(None, onnx_feeds(c))[0])
    return run


def make_tv(device, batched):
    import torch
    import torchvision  # noqa: F401  (loads the compiled ops)
    from torchvision.ops import batched_nms, box_convert, nms
    if device == "cuda" and not torch.cuda.is_available():
        raise RuntimeError("torch.cuda.is_available() is False")
    _ = torch.ops.torchvision.nms  # raises if the compiled ops are missing

    def run(c):
        if c["tv"] != "run":
            raise Skip(c["tv"])
        iou = c["tv_iou"] if c["tv_iou"] is not None else float(F32(c["iou"]))
        m = max(int(c["max_out"]), 0)
        rows = []
        nb, n = c["boxes"].shape[0], c["boxes"].shape[1]
        nc = c["scores"].shape[1]
        for b in range(nb):
            bx = torch.from_numpy(c["boxes"][b].copy()).to(device)
            if c["cpb"] == 0:
                bx = bx[:, [1, 0, 3, 2]].contiguous()
            else:
                bx = box_convert(bx, "cxcywh", "xyxy").contiguous()
            idx = []
            for cl in range(nc):
                s = c["scores"][b, cl]
                if c["score_thr"] is None:
                    idx.append(list(range(n)))
                else:
                    idx.append([i for i in range(n) if s[i] > F32(c["score_thr"])])
            if not batched:
                for cl in range(nc):
                    ii = torch.tensor(idx[cl], dtype=torch.int64, device=device)
                    st = torch.from_numpy(c["scores"][b, cl].copy()).to(device)
                    keep = nms(bx.index_select(0, ii), st.index_select(0, ii), iou).cpu().tolist()
                    rows += [[b, cl, idx[cl][k]] for k in keep[:m]]
            else:
                flat = [(cl, i) for cl in range(nc) for i in idx[cl]]
                ii = torch.tensor([i for _, i in flat], dtype=torch.int64, device=device)
                cls = torch.tensor([cl for cl, _ in flat], dtype=torch.int64, device=device)
                st = torch.tensor(np.array([c["scores"][b, cl, i] for cl, i in flat], dtype=F32),
                                  device=device)
                keep = batched_nms(bx.index_select(0, ii), st, cls, iou).cpu().tolist()
                for cl in range(nc):  # regroup: batched_nms sorts all classes by score
                    kk = [flat[k][1] for k in keep if flat[k][0] == cl]
                    rows += [[b, cl, i] for i in kk[:m]]
        return rows
    return run


FRAMEWORKS = [
    ("ref", "onnx.reference.ReferenceEvaluator", make_reference, ()),
    ("ort-cpu", "onnxruntime CPUExecutionProvider", make_ort, ("CPUExecutionProvider",)),
    ("ort-cuda", "onnxruntime CUDAExecutionProvider", make_ort, ("CUDAExecutionProvider",)),
    ("tv-cpu", "torchvision.ops.nms CPU", make_tv, ("cpu", False)),
    ("tv-cuda", "torchvision.ops.nms CUDA", make_tv, ("cuda", False)),
    ("tvb-cpu", "torchvision.ops.batched_nms CPU", make_tv, ("cpu", True)),
    ("tvb-cuda", "torchvision.ops.batched_nms CUDA", make_tv, ("cuda", True)),
]


def versions():
    v = {"python": sys.version.split()[0], "numpy": np.__version__}
    for mod in ("onnx", "onnxruntime", "torch", "torchvision"):
        try:
            v[mod] = __import__(mod).__version__
        except Exception as e:  # noqa: BLE001
            v[mod] = f"unavailable: {type(e).__name__}: {e}"
    try:
        import torch
        if torch.cuda.is_available():
            v["cuda_device"] = torch.cuda.get_device_name(0)
    except Exception:  # noqa: BLE001
        pass
    return v


# --------------------------------------------------------------------------------------
# JSON helpers (strict JSON: non-finite floats as strings)
# --------------------------------------------------------------------------------------

def jfloat(x):
    x = float(x)
    if math.isnan(x):
        return "-nan" if math.copysign(1.0, x) < 0 else "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0 and math.copysign(1.0, x) < 0:
        return "-0.0"
    return x


def jarray(a):
    return [jarray(v) for v in a] if isinstance(a, (list, np.ndarray)) and np.ndim(a) else jfloat(a)


def brief(rows, limit=12):
    if len(rows) <= limit:
        return str(rows)
    return str(rows[:limit])[:-1] + f", ... ({len(rows)} rows)]"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="write the results as JSON here")
    ap.add_argument("--case", action="append", default=[], help="run only this case (repeatable)")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    args = ap.parse_args()

    cases = build_cases()
    if args.list:
        for c in cases:
            print(f"{c['name']:24} rule {c['rule']:2}  {c['desc']}")
        return 0
    if args.case:
        unknown = set(args.case) - {c["name"] for c in cases}
        if unknown:
            print("unknown case(s):", ", ".join(sorted(unknown)), file=sys.stderr)
            return 2
        cases = [c for c in cases if c["name"] in args.case]

    ver = versions()
    print("versions:", ", ".join(f"{k}={v}" for k, v in ver.items()))
    runners, avail = {}, {}
    for key, title, factory, fargs in FRAMEWORKS:
        try:
            runners[key] = factory(*fargs)
            avail[key] = "available"
        except Exception as e:  # noqa: BLE001
            avail[key] = f"unavailable: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        print(f"{key:9} {title:36} {avail[key]}")
    print()

    print("IoU of the precision cases (threshold = the spec value; '>' marks a suppressing variant):")
    for c in cases:
        if c["name"] in ("prec_f64_reassoc", "prec_fma", "center_area_wh"):
            thr = F32(c["iou"])
            with np.errstate(all="ignore"):
                v = iou_variants(c["boxes"][0, 0], c["boxes"][0, 1], c["cpb"])
            print(f"  {c['name']}: threshold {float(thr)!r}")
            for k, x in v.items():
                print(f"    {k:28} {float(x)!r:24} {'>' if float(x) > float(thr) else ''}")
    print()

    results = []
    for c in cases:
        rows, capacity, count = spec_nms(c["boxes"], c["scores"], c["max_out"], c["iou"],
                                      c["score_thr"], c["cpb"])
        res = {}
        for key, *_ in FRAMEWORKS:
            if key not in runners:
                res[key] = {"status": "unavailable"}
                continue
            try:
                got = runners[key](c)
            except Skip as e:
                res[key] = {"status": "n/a", "reason": str(e)}
                continue
            except Exception as e:  # noqa: BLE001
                while e.__cause__ is not None or e.__context__ is not None:  # root cause
                    e = e.__cause__ or e.__context__
                msg = f"{type(e).__name__}: {e}".strip().splitlines()
                res[key] = {"status": "error", "error": msg[0][:300] if msg else type(e).__name__}
                continue
            if not c["spec_defined"]:
                status = "info"
            else:
                status = "agree" if got == rows else "DIFFER"
            res[key] = {"status": status, "rows": got}
        results.append({
            "name": c["name"], "rule": c["rule"], "description": c["desc"], "note": c["note"],
            "inputs": {"boxes": jarray(c["boxes"]), "scores": jarray(c["scores"]),
                       "max_output_boxes_per_class": c["max_out"],
                       "iou_threshold": None if c["iou"] is None else jfloat(F32(c["iou"])),
                       "iou_threshold_torchvision": c["tv_iou"],
                       "score_threshold": None if c["score_thr"] is None else jfloat(F32(c["score_thr"])),
                       "center_point_box": c["cpb"]},
            "spec": {"defined": c["spec_defined"], "rows": rows, "count": count,
                     "capacity": capacity, "selected": padded(rows, capacity)},
            "results": res})

    keys = [k for k, *_ in FRAMEWORKS]
    short = {"agree": "ok", "DIFFER": "DIFF", "error": "err", "n/a": "n/a",
             "unavailable": "-", "info": "info"}
    head = f"{'case':24} {'rule':>4}  {'spec rows':28} " + " ".join(f"{k:>8}" for k in keys)
    print(head)
    print("-" * len(head))
    for r in results:
        spec_rows = r["spec"]["rows"]
        sr = " ".join(str(x[2]) if x[:2] == [0, 0] else "%d/%d/%d" % tuple(x) for x in spec_rows) or "[]"
        if not r["spec"]["defined"]:
            sr = "undefined"
        if len(sr) > 28:
            sr = sr[:25] + "..."
        print(f"{r['name']:24} {r['rule']:>4}  {sr:28} " +
              " ".join(f"{short[r['results'][k]['status']]:>8}" for k in keys))
    print("\n(spec rows: box indices when batch = class = 0, else batch/class/box)")

    print("\nDetails (every DIFF, err and info):")
    for r in results:
        lines = []
        for k in keys:
            e = r["results"][k]
            if e["status"] in ("DIFFER", "info"):
                lines.append(f"    {k:9} {e['status']:6} rows={brief(e['rows'])}")
            elif e["status"] == "error":
                lines.append(f"    {k:9} error  {e['error']}")
        if lines:
            print(f"  {r['name']} (rule {r['rule']}): {r['description']}")
            if r["spec"]["defined"]:
                print(f"    {'spec':9} {'':6} rows={brief(r['spec']['rows'])}")
            if r["note"]:
                print(f"    note: {r['note']}")
            print("\n".join(lines))

    summary = {k: {s: sum(1 for r in results if r["results"][k]["status"] == s)
                   for s in ("agree", "DIFFER", "error", "n/a", "info", "unavailable")}
               for k in keys}
    print("\nSummary:")
    for k in keys:
        print(f"  {k:9} " + ", ".join(f"{s}={n}" for s, n in summary[k].items() if n))

    if args.out:
        with open(args.out, "w") as f:
            json.dump({"versions": ver, "frameworks": avail, "summary": summary,
                       "cases": results}, f, indent=1, allow_nan=False)
            f.write("\n")
        print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
