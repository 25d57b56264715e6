//===- generators/ExactIou.h - Box pairs whose f32 IoU is known exactly ---===//
//
// Two axis-aligned boxes with small integer sides have an IoU that is exact up
// to its last step: the areas, the intersection and the union are small
// integers, exact in f32 (and the coordinates are exact in f16 too), so the
// f32 IoU of sift.nms is fl32(float(inter) / float(union)), one correctly
// rounded division. The NMS generator draws iou_threshold from these values;
// the input generator places box pairs whose IoU equals the threshold bit for
// bit (or, when no pair does, the nearest IoU values on both sides), so that
// the strict `IoU > threshold` rule decides whether one suppresses the other.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/Rng.h"

#include <array>
#include <cstdint>
#include <vector>

namespace sift::gen {

/// The largest side of a box in the exact-IoU table.
inline constexpr int32_t kMaxExactIouSide = 8;

/// Two boxes by their sides (h = extent along y, w = along x) and the sides
/// of their intersection: 1 <= ih <= min(h1, h2), 1 <= iw <= min(w1, w2).
struct IntBoxPair {
  int32_t h1 = 1, w1 = 1, h2 = 1, w2 = 1, ih = 1, iw = 1;

  bool operator==(const IntBoxPair &o) const {
    return h1 == o.h1 && w1 == o.w1 && h2 == o.h2 && w2 == o.w2 && ih == o.ih &&
           iw == o.iw;
  }
};

/// fl32(float(ih * iw) / float(h1 * w1 + h2 * w2 - ih * iw)).
float iouOf(const IntBoxPair &pair);

/// The corners [y1, x1, y2, x2] (y1 < y2, x1 < x2) of the two boxes: the
/// first with its low corner at the origin, the second overlapping it by
/// exactly ih x iw at its high corner.
std::array<std::array<int32_t, 4>, 2> cornersOf(const IntBoxPair &pair);

/// A pair with every side uniform in 1..kMaxExactIouSide and the
/// intersection uniform within both.
IntBoxPair randomIntBoxPair(Rng &rng);

/// The pairs of the table (every side up to kMaxExactIouSide) whose IoU is
/// exactly `threshold` (same bits); when none is, the pairs of the largest
/// IoU below it and of the smallest above it (either may not exist). In a
/// fixed order.
std::vector<IntBoxPair> pairsNearIou(float threshold);

} // namespace sift::gen
