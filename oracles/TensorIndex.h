//===- oracles/TensorIndex.h - Row-major index arithmetic -----------------===//
//
// The few index computations the reference and the comparators need over
// dense row-major tensors of any rank (sift uses 1 to 4): strides, flat <->
// multi-index, and lanes, the 1-D slices along one dimension that sort and
// top-k work on. Dimensions of size 0 are legal everywhere: they simply give
// no elements or no lanes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sift::oracle {

/// Row-major strides, in elements, of a tensor of `shape`.
inline std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;)
    strides[i - 1] = strides[i] * shape[i];
  return strides;
}

/// The multi-index of element `flatIndex` of a row-major tensor of `shape`.
inline std::vector<int64_t> unflattenIndex(int64_t flatIndex,
                                           const std::vector<int64_t> &shape) {
  std::vector<int64_t> index(shape.size(), 0);
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] == 0)
      return index;
    index[i] = flatIndex % shape[i];
    flatIndex /= shape[i];
  }
  return index;
}

/// The lanes along `dimension` of a row-major tensor: `outer` lanes groups
/// (the product of the sizes before `dimension`) times `inner` lanes (the
/// product of the sizes after it), each of `length` elements `inner` apart.
/// A tensor that has the same sizes except along `dimension` (such as a top-k
/// result) has the same lanes, in the same order, with its own length.
struct LaneLayout {
  int64_t outer = 1;  ///< product of the sizes before `dimension`
  int64_t length = 1; ///< size along `dimension`
  int64_t inner = 1;  ///< product of the sizes after `dimension`: the stride

  LaneLayout(const std::vector<int64_t> &shape, int64_t dimension) {
    for (int64_t i = 0; i < static_cast<int64_t>(shape.size()); ++i) {
      if (i < dimension)
        outer *= shape[i];
      else if (i == dimension)
        length = shape[i];
      else
        inner *= shape[i];
    }
  }

  /// Number of lanes.
  int64_t count() const { return outer * inner; }

  /// Flat index of element 0 of lane (`o`, `i`) in a tensor whose size along
  /// the dimension is `laneLength`; element j is at `laneBase + j * inner`.
  int64_t base(int64_t o, int64_t i, int64_t laneLength) const {
    return o * laneLength * inner + i;
  }
};

/// Calls `fn(inputBase, outputBase, stride)` for every lane along `dimension`
/// of `shape`: element j of the lane is at `inputBase + j * stride` in the
/// tensor itself and at `outputBase + j * stride` in a tensor of the same
/// shape except `outputLength` along `dimension`. No call when any size other
/// than `dimension`'s is 0; calls with empty lanes when only that one is.
template <typename Fn>
void forEachLane(const std::vector<int64_t> &shape, int64_t dimension,
                 int64_t outputLength, Fn &&fn) {
  LaneLayout layout(shape, dimension);
  for (int64_t o = 0; o < layout.outer; ++o)
    for (int64_t i = 0; i < layout.inner; ++i)
      fn(layout.base(o, i, layout.length), layout.base(o, i, outputLength),
         layout.inner);
}

} // namespace sift::oracle
