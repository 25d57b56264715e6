//===- generators/ProgramBuilder.h - Shared machinery of the generators ---===//
//
// The family generators (SortGenerator, TopkGenerator, NmsGenerator) describe
// only their
// main op; everything around it is built here: typed `add*` helpers that
// append one op to the Program and return its result ids, and the random
// builders for what surrounds the main op: trees of elementwise producers
// ending in function inputs, reused values or iotas; chains of elementwise
// consumers; slices; and the choice of outputs. Every choice is drawn from
// the Policy's weights over the OpDescriptors table, so the result is
// type-correct by construction. One builder builds one program.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/Policy.h"
#include "generators/ProgramModel.h"
#include "generators/Rng.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace sift::gen {

/// Builds one Program, op by op, with random helpers driven by a Policy.
class ProgramBuilder {
public:
  ProgramBuilder(const Policy &policy, Rng &rng);

  /// The program built so far.
  const Program &program() const { return prog; }
  /// Moves the finished program out; the builder is spent.
  Program take() { return std::move(prog); }

  //===--------------------------------------------------------------------===//
  // One op each; operands must exist and fit (checked by validate()).
  //===--------------------------------------------------------------------===//

  /// A new function argument of `type`.
  int addInput(const TensorType &type);
  /// An elementwise op over `operands`, producing `resultType` elements.
  int addElementwise(EwKind kind, std::vector<int> operands,
                     ElementType resultType, double constant = 0.0,
                     int64_t intConstant = 0);
  /// An iota of `type` along `dimension`.
  int addIota(const TensorType &type, int64_t dimension);
  /// A sift.sort over `operands` (key first); returns one result per operand.
  std::vector<int> addSort(std::vector<int> operands, int64_t dimension,
                           SortOrder order, ComparatorKind comparator);
  /// A sift.topk; returns (values, indices).
  std::pair<int, int> addTopK(int input, int64_t dimension, int64_t k,
                              bool largest);
  /// A sift.nms over boxes [B, N, 4] and scores [B, C, N]; returns
  /// (selected [B * C * max(maxOutputBoxesPerClass, 0), 3] i64, count [1]
  /// i64).
  std::pair<int, int> addNms(int boxes, int scores,
                             int64_t maxOutputBoxesPerClass, float iouThreshold,
                             std::optional<float> scoreThreshold,
                             bool centerPointBox);
  /// A tensor.extract_slice of `source`.
  int addSlice(int source, std::vector<int64_t> offsets,
               std::vector<int64_t> sizes, std::vector<int64_t> strides);
  /// A gather of `source` along `axis` (>= 1) by `indices` [B, K] i64; the
  /// caller guarantees the indices are in range (a top-k's over that axis).
  int addGather(int source, int indices, int64_t axis);
  /// Returns `value` from @main (once; repeated calls are ignored).
  void addOutput(int value);
  /// Marks `value` as one that must stay unused (a dropped sort or top-k
  /// result): no later random choice picks it as an operand or output.
  void keepUnused(int value);

  //===--------------------------------------------------------------------===//
  // Random building blocks.
  //===--------------------------------------------------------------------===//

  /// An element type drawn from `weights` (indexed by ElementType).
  /// A type drawn by `weights` (bf16 left out unless the policy allows it
  /// or nothing else has weight).
  ElementType pickType(const ElementTypeWeights &weights);
  /// `types` without bf16 unless the policy allows it.
  std::vector<ElementType> allowed(std::vector<ElementType> types) const;
  /// A float constant exact in f16 (hence in every float type).
  double pickFloatConstant();
  /// An integer constant that fits in `type`.
  int64_t pickIntConstant(ElementType type);

  /// A value of exactly `type`: a tree of elementwise producers (within the
  /// policy's producer budget and depth) over leaves; `avoid` lists values the
  /// result must differ from (for distinct sort operands). With `exactOnly`,
  /// the tree holds no inexact op (see EwDescriptor::exact).
  int produce(const TensorType &type, const std::vector<int> &avoid = {},
              bool exactOnly = false);
  /// A leaf of `type`: a reused value, an iota (integer types) or a new input.
  int leaf(const TensorType &type, const std::vector<int> &avoid = {});
  /// A random chain of elementwise consumers after `value` (possibly empty);
  /// returns the last value of the chain.
  int consume(int value);
  /// With the policy's slice chance, a random in-bounds slice of `value`;
  /// otherwise (or when `value` has a zero dimension) `value` itself.
  int maybeSlice(int value);
  /// A random in-bounds slice of `value`, which must have no zero dimension.
  /// It always cuts at least one dimension (an identity slice would only be
  /// folded away); a dimension of size 1 is cut to size 0.
  int randomSlice(int value);
  /// With the policy's chance, also returns the result of one elementwise,
  /// iota or slice op (never a sort, top-k or nms result, which may have to
  /// stay unused).
  void maybeAddExtraOutput();

private:
  /// Weights of the elementwise kinds that accept `operand` and can give
  /// `result` (any result when `result` is empty), by EwKind index.
  std::vector<unsigned> ewWeightsFor(std::optional<ElementType> operand,
                                     std::optional<ElementType> result,
                                     bool exactOnly = false) const;
  /// Existing values of exactly `type`, not in `avoid` nor kept unused.
  std::vector<int> valuesOfType(const TensorType &type,
                                const std::vector<int> &avoid) const;
  int produceAt(const TensorType &type, int64_t depth,
                const std::vector<int> &avoid, bool exactOnly);

  const Policy &policy;
  Rng &rng;
  Program prog;
  int64_t producersLeft;
  std::vector<int> unused;
};

} // namespace sift::gen
