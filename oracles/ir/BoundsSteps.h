//===- oracles/ir/BoundsSteps.h - The steps of the bounds check -*- C++ -*-===//
//
// Internal to the out-of-bounds check; included from nowhere else. What the
// driver (Bounds.cpp, whose file comment describes the steps) uses of each
// of the three steps an index goes through:
//
//   1. Intervals (BoundsIntervals.cpp): ranges of index values, narrowed by
//      the enclosing guards.
//   2. A bound (BoundsConstraints.cpp): the constraint set of an access,
//      built with MLIR's ValueBoundsConstraintSet.
//   3. A witness: the evaluation of index computations on concrete ids and
//      iterations (BoundsEvaluator.cpp), and the search for an execution
//      that reaches an access with an index out of range
//      (BoundsWitness.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "oracles/ir/BoundsContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ExtensibleRTTI.h"

#include <array>
#include <cstdint>
#include <optional>

namespace sift::oracle::bounds {

//===----------------------------------------------------------------------===//
// Step 1: intervals (BoundsIntervals.cpp)
//===----------------------------------------------------------------------===//

/// A closed range of values.
struct Range {
  int64_t lo, hi;
};

/// What an enclosing guard says of a value at every execution of an access
/// under it: `value` is in [lo, hi].
struct GuardFact {
  mlir::Value value;
  Range range;
};

/// Interval bounds of index values: a sound, cheap first look that proves
/// most accesses in bounds before a constraint set is built. Ranges are
/// memoized per kernel (they do not depend on the access); the guards of an
/// access narrow the ranges of its indices (GuardFact).
class Intervals {
public:
  explicit Intervals(const KernelInfo &info) : info_(info) {}

  std::optional<Range> of(mlir::Value value, unsigned depth = 0);

  /// The range of one index of an access under guards that say `facts`.
  std::optional<Range> ofIndex(const Index &index,
                               llvm::ArrayRef<GuardFact> facts);

  /// Adds to `facts` what holds where `cond` is `holds`: comparisons of
  /// index values with values of known range, in conjunctions (or failed
  /// disjunctions).
  void assume(mlir::Value cond, bool holds,
              llvm::SmallVectorImpl<GuardFact> &facts, unsigned depth = 0);

  /// The range of `expr` on operands of ranges `operands` (the first
  /// `numDims` of them dimensions).
  std::optional<Range> ofExpr(mlir::AffineExpr expr,
                              llvm::ArrayRef<Range> operands, unsigned numDims);

private:
  static constexpr unsigned kMaxIntervalDepth = 32;

  std::optional<Range> ofMap(mlir::AffineMap map, mlir::ValueRange operands,
                             unsigned depth, bool min, bool max);
  std::optional<Range> idRange(unsigned id,
                               std::optional<llvm::APInt> upperBound);
  std::optional<Range> inductionVariable(mlir::Operation *loop,
                                         mlir::BlockArgument iv,
                                         unsigned depth);
  std::optional<Range> compute(mlir::Value value, unsigned depth);

  const KernelInfo &info_;
  llvm::DenseMap<mlir::Value, std::optional<Range>> memo_;
};

//===----------------------------------------------------------------------===//
// Step 2: bounds through ValueBoundsConstraintSet (BoundsConstraints.cpp)
//===----------------------------------------------------------------------===//

/// The constraints of one access: its indices as columns, their backward
/// slices, the enclosing guards.
class AccessConstraints
    : public llvm::RTTIExtends<AccessConstraints,
                               mlir::ValueBoundsConstraintSet> {
public:
  static char ID;

  /// `visited` counts the values this set and the sets it nests visit.
  AccessConstraints(mlir::MLIRContext *ctx, const KernelInfo &info,
                    unsigned &visited);

  /// Adds a column for `map`'s (single) result on `operands` and the
  /// constraints of their slices; returns the column.
  int64_t addIndex(mlir::AffineMap map, mlir::ValueRange operands);

  /// Adds what holds where `cond` is `holds` (conjunctions of index
  /// comparisons; disjunctions when they fail; `xor true`).
  void assume(mlir::Value cond, bool holds, unsigned depth = 0);

  /// The closed constant bound of column `pos`, if it fits in 64 bits.
  std::optional<int64_t> constantBound(mlir::presburger::BoundType type,
                                       int64_t pos) const;

private:
  void compare(mlir::arith::CmpIPredicate pred, mlir::Value lhs,
               mlir::Value rhs);
  bool nonNegative(mlir::Value value);
  bool stopAt(mlir::Value value, std::optional<int64_t> dim);
  std::optional<int64_t> nestedBound(mlir::AffineMap map,
                                     mlir::ValueRange operands, bool lower,
                                     mlir::Value cond = mlir::Value(),
                                     bool holds = true);
  std::optional<int64_t> outerBound(mlir::ValueRange values,
                                    mlir::AffineMap map, bool lower);
  void constrainSelect(mlir::arith::SelectOp select);
  void constrainMinMax(mlir::Operation *op);
  void canonicalize(unsigned id, mlir::Value value);
  void constrainLaunchArgument(mlir::gpu::LaunchOp launch,
                               mlir::BlockArgument arg);
  void constrainId(mlir::Value value, unsigned id,
                   std::optional<llvm::APInt> upperBound);
  void constrainGpuOp(mlir::Operation *op);
  mlir::AffineExpr boundExpr(mlir::AffineExpr result,
                             llvm::ArrayRef<mlir::Value> operands,
                             unsigned numDims);
  void constrainInductionVariable(mlir::Operation *loop,
                                  mlir::BlockArgument iv);

  const KernelInfo &info_;
  unsigned &visited_;
  std::array<mlir::Value, kNumIds> ids_;
};

//===----------------------------------------------------------------------===//
// Step 3: a witness, by evaluation (BoundsEvaluator.cpp, BoundsWitness.cpp)
//===----------------------------------------------------------------------===//

/// Whether values can be evaluated on a point (constants, known ids, loop
/// induction variables and the ops isEvaluable in BoundsEvaluator.cpp
/// lists): what step 2 needs of an index. Memoized per kernel.
class Evaluability {
public:
  explicit Evaluability(const KernelInfo &info) : info_(info) {}

  bool of(mlir::Value value, unsigned depth = 0);

private:
  bool compute(mlir::Value value, unsigned depth);

  const KernelInfo &info_;
  llvm::DenseMap<mlir::Value, bool> memo_;
};

/// Evaluates index computations on one point: values for the thread and
/// block ids and for the induction variables of the enclosing loops.
class Evaluator {
public:
  explicit Evaluator(const KernelInfo &info) : info_(info) {}

  /// Whether `value` can be evaluated from constants, the ids and `ivs`;
  /// sets the ids it reads in `ids`.
  bool scan(mlir::Value value, const llvm::DenseSet<mlir::Value> &ivs,
            std::array<bool, kNumIds> &ids);

  /// Whether a scan reached `value`.
  bool reads(mlir::Value value) const { return scanned_.contains(value); }

  /// Starts a new point.
  void reset() { cache_.clear(); }

  std::optional<int64_t> value(mlir::Value value, unsigned depth = 0);

  std::array<int64_t, kNumIds> ids{};
  llvm::DenseMap<mlir::Value, int64_t> ivs;

private:
  static std::optional<unsigned> idOf(mlir::Operation *op);

  std::optional<int64_t> compute(mlir::Value value, unsigned depth);

  /// A block argument: a loop's variable at this point, or a launch's id
  /// or size.
  std::optional<int64_t> argumentValue(mlir::BlockArgument arg);

  /// GPU id `id` (idOf's numbering): a thread or block id, a size, or a
  /// global id.
  std::optional<int64_t> idValue(unsigned id);

  const KernelInfo &info_;
  llvm::DenseSet<mlir::Value> scanned_;
  llvm::DenseMap<mlir::Value, int64_t> cache_;
};

/// `expr` on `operands`, the first `numDims` of them dimensions; nullopt on
/// overflow or division by zero.
std::optional<int64_t> evaluateAffineOn(mlir::AffineExpr expr,
                                        llvm::ArrayRef<int64_t> operands,
                                        unsigned numDims);

/// What an access does out of range along one index.
struct Excursion {
  bool over;     ///< Past the end (else before the start).
  int64_t bound; ///< Step 2's bound: nothing beyond it can be witnessed.
  std::optional<int64_t> witnessed; ///< The furthest index witnessed.
};

/// Searches executions of an access (under `scopes`) for its `indices` out
/// of range, each along its `excursions` entry, and sets the furthest index
/// witnessed; false when the indices or guards cannot be evaluated.
bool searchWitness(const KernelInfo &info, llvm::ArrayRef<Scope> scopes,
                   llvm::ArrayRef<Index> indices,
                   llvm::SmallVectorImpl<Excursion> &excursions);

} // namespace sift::oracle::bounds
