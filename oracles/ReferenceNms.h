//===- oracles/ReferenceNms.h - The reference of sift.nms -----------------===//
//
// Greedy non-maximum suppression exactly as the description of `sift.nms`
// (pipelines/Dialect/SiftOps.td) and the comments on `gen::Op` define it, for the reference evaluator
// (`oracles/Reference.h`). Every box and score is read as f32 (f16 widened
// exactly) and every IoU step is one f32 operation, in this order:
//
//   corners, center_point_box = 0, box [y1, x1, y2, x2]:
//     ymin = min(y1, y2)   xmin = min(x1, x2)
//     ymax = max(y1, y2)   xmax = max(x1, x2)
//   corners, center_point_box = 1, box [xc, yc, w, h]:
//     xmin = xc - w / 2    xmax = xc + w / 2
//     ymin = yc - h / 2    ymax = yc + h / 2
//     (`w / 2` is exact but for f32 denormals and equals `w * 0.5f` bit for
//     bit; no min/max here: a negative size gives ymin > ymax or xmin > xmax)
//   area  = (ymax - ymin) * (xmax - xmin)               (per box)
//   dy    = max(0, min(ymaxA, ymaxB) - max(yminA, yminB))
//   dx    = max(0, min(xmaxA, xmaxB) - max(xminA, xminB))
//   inter = dy * dx
//   union = (areaA + areaB) - inter
//   IoU   = 0 when inter <= 0, areaA <= 0, areaB <= 0 or union <= 0;
//           else inter / union
//
// Every formula is symmetric in A and B, so it does not matter which box is
// the candidate. `min` and `max` propagate NaN (as IEEE 754-2019 `minimum`
// and `maximum`): a box with a NaN coordinate gets a NaN IoU with every box,
// which is never > the threshold, so it never suppresses and is never
// suppressed; infinities follow IEEE arithmetic through the same formulas.
// A box is suppressed when IoU > iou_threshold (strict); a NaN IoU never is.
//
// The library is built with -ffp-contract=off (no fused multiply-add) and
// requires FLT_EVAL_METHOD == 0 (no wider intermediates), so the host
// computes these f32 values bit for bit as a GPU in f32 does.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/ProgramModel.h"
#include "support/HostTensor.h"
#include "support/Result.h"

namespace sift::oracle {

/// One box as f32 corners, after the box format is applied.
struct NmsBox {
  float ymin = 0, xmin = 0, ymax = 0, xmax = 0;
};

/// The corners of the box `coords` (four f32 values in the op's order):
/// `[y1, x1, y2, x2]` normalized by min/max per axis, or, when
/// `centerPointBox`, `[x_center, y_center, width, height]` as center -/+
/// `size / 2`, without normalization. Formulas in the file comment.
NmsBox nmsCorners(const float coords[4], bool centerPointBox);

/// The f32 area `(ymax - ymin) * (xmax - xmin)` of a box.
float nmsArea(const NmsBox &box);

/// The f32 intersection over union of two boxes, evaluated in the order of
/// the file comment; 0 when the intersection, either area or the union is
/// <= 0 (degenerate boxes), NaN when a coordinate is NaN.
float nmsIoU(const NmsBox &a, const NmsBox &b);

/// While one lives, on its thread, every f32 step of `nmsCorners`,
/// `nmsArea` and `nmsIoU` flushes a denormal result to zero of its sign,
/// as code running with flush-to-zero does (XLA's CPU code, IREE's): the
/// reference of a system whose policy says `denormals = flushed`
/// (evaluateFlushingDenormals). Its inputs are flushed before (DAZ) by the
/// caller where the policy reads denormals as zero.
class NmsFlushScope {
public:
  explicit NmsFlushScope(bool flush);
  ~NmsFlushScope();
  NmsFlushScope(const NmsFlushScope &) = delete;
  NmsFlushScope &operator=(const NmsFlushScope &) = delete;

private:
  bool previous_;
};

/// The two results of `sift.nms`.
struct NmsResults {
  HostTensor selected; ///< i64 [B * C * max(maxOut, 0), 3], -1 past count
  HostTensor count;    ///< i64 [1]: the number of valid rows of `selected`
};

/// Evaluates `sift.nms` with the attributes of `op` (maxOutputBoxesPerClass,
/// iouThreshold, scoreThreshold, centerPointBox) on `boxes` (f16 or f32,
/// [B, N, 4]) and `scores` (f16 or f32, [B, C, N]).
///
/// Per batch b and class c, the candidates are the boxes n with
/// `scores[b, c, n] > scoreThreshold` in f32 (every box, NaN included, when
/// there is no threshold), visited by descending score (NaN largest, -0.0
/// equal to +0.0, ties to the lower n). A candidate is selected unless its
/// `nmsIoU` with a box already selected for (b, c) is > iouThreshold; the
/// class stops after max(maxOutputBoxesPerClass, 0) selections. `selected`
/// holds the rows (b, c, n) in batch, class, selection order without gaps,
/// then rows of -1.
///
/// Fails with a message, never crashes, when the tensors' types, shapes or
/// byte sizes do not fit, when iouThreshold is outside [0, 1], when the score
/// threshold is NaN, or when the output would have more than 2^40 rows.
Result<NmsResults> referenceNms(const gen::Op &op, const HostTensor &boxes,
                                const HostTensor &scores);

} // namespace sift::oracle
