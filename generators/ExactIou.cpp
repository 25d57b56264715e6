//===- generators/ExactIou.cpp - Box pairs whose f32 IoU is known exactly -===//
//
// The table of every small-integer box pair, sorted by IoU, built once.
//
//===----------------------------------------------------------------------===//
#include "generators/ExactIou.h"

#include <algorithm>
#include <tuple>

namespace sift::gen {

namespace {

struct Entry {
  float iou;
  IntBoxPair pair;
};

bool entryLess(const Entry &a, const Entry &b) {
  auto key = [](const Entry &e) {
    return std::make_tuple(e.iou, e.pair.h1, e.pair.w1, e.pair.h2, e.pair.w2,
                           e.pair.ih, e.pair.iw);
  };
  return key(a) < key(b);
}

/// Every pair with sides up to kMaxExactIouSide, sorted by (IoU, sides).
/// IoUs are positive (the intersection is at least 1 x 1), never NaN.
const std::vector<Entry> &table() {
  static const std::vector<Entry> entries = [] {
    std::vector<Entry> all;
    const int32_t m = kMaxExactIouSide;
    for (int32_t h1 = 1; h1 <= m; ++h1)
      for (int32_t w1 = 1; w1 <= m; ++w1)
        for (int32_t h2 = 1; h2 <= m; ++h2)
          for (int32_t w2 = 1; w2 <= m; ++w2)
            for (int32_t ih = 1; ih <= std::min(h1, h2); ++ih)
              for (int32_t iw = 1; iw <= std::min(w1, w2); ++iw) {
                IntBoxPair p{h1, w1, h2, w2, ih, iw};
                all.push_back({iouOf(p), p});
              }
    std::sort(all.begin(), all.end(), entryLess);
    return all;
  }();
  return entries;
}

} // namespace

float iouOf(const IntBoxPair &p) {
  const int32_t inter = p.ih * p.iw;
  const int32_t uni = p.h1 * p.w1 + p.h2 * p.w2 - inter;
  return static_cast<float>(inter) / static_cast<float>(uni);
}

std::array<std::array<int32_t, 4>, 2> cornersOf(const IntBoxPair &p) {
  const int32_t y = p.h1 - p.ih, x = p.w1 - p.iw;
  return {{{0, 0, p.h1, p.w1}, {y, x, y + p.h2, x + p.w2}}};
}

IntBoxPair randomIntBoxPair(Rng &rng) {
  IntBoxPair p;
  p.h1 = static_cast<int32_t>(rng.uniform(1, kMaxExactIouSide));
  p.w1 = static_cast<int32_t>(rng.uniform(1, kMaxExactIouSide));
  p.h2 = static_cast<int32_t>(rng.uniform(1, kMaxExactIouSide));
  p.w2 = static_cast<int32_t>(rng.uniform(1, kMaxExactIouSide));
  p.ih = static_cast<int32_t>(rng.uniform(1, std::min(p.h1, p.h2)));
  p.iw = static_cast<int32_t>(rng.uniform(1, std::min(p.w1, p.w2)));
  return p;
}

std::vector<IntBoxPair> pairsNearIou(float threshold) {
  const std::vector<Entry> &entries = table();
  auto byIou = [](const Entry &e, float v) { return e.iou < v; };
  auto first =
      std::lower_bound(entries.begin(), entries.end(), threshold, byIou);
  std::vector<IntBoxPair> pairs;
  auto collect = [&](std::vector<Entry>::const_iterator it) {
    const float v = it->iou;
    for (auto j = it; j != entries.end() && j->iou == v; ++j)
      pairs.push_back(j->pair);
  };
  if (first != entries.end() && first->iou == threshold) {
    collect(first);
    return pairs;
  }
  if (first != entries.begin()) {
    // The first entry of the largest IoU below the threshold.
    const float below = std::prev(first)->iou;
    collect(std::lower_bound(entries.begin(), first, below, byIou));
  }
  if (first != entries.end())
    collect(first);
  return pairs;
}

} // namespace sift::gen
