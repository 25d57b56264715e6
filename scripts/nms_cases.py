"""The hand-made NonMaxSuppression cases of scripts/nms-frameworks.py.

`spec_nms`, a small numpy model of SEMANTICS.md's `sift.nms`, and one or more
cases per suppression rule (build_cases), with the IoU variants the
precision cases print. Imported by nms-frameworks.py; no framework needed.
"""
import math
import struct

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


def iou_cases(unit):
    """Rule (1) IoU comparison."""
    cs = []
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
    return cs


def score_cases(unit):
    """Rule (2) score threshold."""
    cs = []
    cs.append(case("score_eq_thr", 2, "score == score_threshold: not a candidate (strict >)",
                   disjoint(3), [0.5, 0.4, 0.3], score_thr=0.4,
                   tv="skip: no score threshold in torchvision"))
    cs.append(case("score_thr_zero_signed", 2,
                   "threshold 0: -0.0 and +0.0 are out, the smallest denormal is in",
                   disjoint(3), [-0.0, 0.0, f32_bits(1)], score_thr=0.0,
                   tv="skip: no score threshold in torchvision",
                   note="a flush-to-zero compare would drop the denormal"))
    return cs


def tie_cases(unit):
    """Rule (3) ties."""
    cs = []
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
    return cs


def nan_cases(unit):
    """Rule (4) NaN scores."""
    cs = []
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
    return cs


def flip_cases(unit):
    """Rule (5) flipped corners."""
    cs = []
    cs.append(case("flip_both_axes", 5, "second box is the first with both corners swapped: suppressed",
                   [unit, [1.0, 1.0, 0.0, 0.0]], [0.9, 0.8]))
    cs.append(case("flip_one_axis", 5, "second box flipped in x only: suppressed",
                   [unit, [0.0, 1.0, 1.0, 0.0]], [0.9, 0.8]))
    cs.append(case("flip_onnx_test", 5, "ONNX backend test nonmaxsuppression_flipped_coordinates",
                   [[1.0, 1.0, 0.0, 0.0], [0.0, 0.1, 1.0, 1.1], [0.0, 0.9, 1.0, -0.1],
                    [0.0, 10.0, 1.0, 11.0], [1.0, 10.1, 0.0, 11.1], [1.0, 101.0, 0.0, 100.0]],
                   [0.9, 0.75, 0.6, 0.95, 0.5, 0.3], max_out=3, score_thr=0.0))
    return cs


def degenerate_cases(unit):
    """Rule (6) degenerate boxes."""
    cs = []
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
    return cs


def center_cases(unit):
    """Rule (7) center_point_box."""
    cs = []
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
    return cs


def max_out_cases(unit):
    """Rule (8) max_output_boxes_per_class."""
    cs = []
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
    return cs


def precision_cases(unit):
    """Rule (9) IoU precision and formula order."""
    cs = []
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
    return cs


def order_cases(unit):
    """Rule (10) output order and shape."""
    cs = []
    sc = [[[0.3, 0.9, 0.6], [0.8, 0.2, 0.9]], [[0.1, 0.2, 0.3], [0.9, 0.9, 0.1]]]
    cs.append(case("order_batch_class", 10, "B=2, C=2: batch-major, then class, then selection order",
                   [disjoint(3), disjoint(3)], sc, max_out=2))
    return cs


def build_cases():
    """Every case, rule by rule."""
    unit = [0.0, 0.0, 1.0, 1.0]
    return [c for make in (iou_cases, score_cases, tie_cases, nan_cases, flip_cases, degenerate_cases, center_cases, max_out_cases, precision_cases, order_cases)
            for c in make(unit)]
