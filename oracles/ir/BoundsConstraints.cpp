//===- BoundsConstraints.cpp - Bounds step 2: a bound from constraints ----===//
//
// Step 2 of the out-of-bounds check (Bounds.cpp): AccessConstraints
// (BoundsSteps.h), a ValueBoundsConstraintSet over the backward slices of an
// access's indices. The arith/affine/scf ops of the slices come in through
// their ValueBoundsOpInterface models; the stop condition here bounds what
// those models do not know or bound loosely (thread and block ids, loop
// induction variables, selects, min and max), and the conditions of the
// enclosing `scf.if`s are added as constraints.
//
//===----------------------------------------------------------------------===//

#include "oracles/ir/BoundsSteps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Matchers.h"

#include <algorithm>
#include <limits>
#include <utility>

using namespace mlir;
using presburger::BoundType;

namespace sift::oracle::bounds {

namespace {

/// Values one constraint set may visit before it stops adding constraints
/// (the rest of the slice is then unconstrained: a looser bound, never a
/// wrong one).
constexpr unsigned kMaxSliceValues = 160;

/// The constant result of a one-result constant map.
std::optional<int64_t> constantOf(AffineMap map) {
  if (map.getNumResults() != 1)
    return std::nullopt;
  if (auto constant = dyn_cast<AffineConstantExpr>(map.getResult(0)))
    return constant.getValue();
  return std::nullopt;
}

} // namespace

char AccessConstraints::ID = 0;

AccessConstraints::AccessConstraints(MLIRContext *ctx, const KernelInfo &info,
                                     unsigned &visited)
    : RTTIExtends(
          ctx,
          [this](Value value, std::optional<int64_t> dim,
                 ValueBoundsConstraintSet &) { return stopAt(value, dim); }),
      info_(info), visited_(visited) {}

int64_t AccessConstraints::addIndex(AffineMap map, ValueRange operands) {
  ValueDimList list;
  for (Value operand : operands)
    list.emplace_back(operand, std::nullopt);
  return populateConstraints(map, list);
}

void AccessConstraints::assume(Value cond, bool holds, unsigned depth) {
  Operation *def = cond.getDefiningOp();
  if (!def || depth > 8)
    return;
  if (isa<arith::AndIOp>(def)) {
    if (holds) {
      assume(def->getOperand(0), true, depth + 1);
      assume(def->getOperand(1), true, depth + 1);
    }
    return;
  }
  if (isa<arith::OrIOp>(def)) {
    if (!holds) {
      assume(def->getOperand(0), false, depth + 1);
      assume(def->getOperand(1), false, depth + 1);
    }
    return;
  }
  if (isa<arith::XOrIOp>(def)) {
    for (unsigned i = 0; i < 2; ++i)
      if (matchPattern(def->getOperand(i), m_One()))
        assume(def->getOperand(1 - i), !holds, depth + 1);
    return;
  }
  if (auto cmp = dyn_cast<arith::CmpIOp>(def)) {
    if (!cmp.getLhs().getType().isIndex())
      return;
    compare(holds ? cmp.getPredicate()
                  : arith::invertPredicate(cmp.getPredicate()),
            cmp.getLhs(), cmp.getRhs());
  }
}

std::optional<int64_t> AccessConstraints::constantBound(BoundType type,
                                                        int64_t pos) const {
  std::optional<llvm::DynamicAPInt> bound = cstr.getConstantBound(type, pos);
  if (!bound || *bound > std::numeric_limits<int64_t>::max() ||
      *bound < std::numeric_limits<int64_t>::min())
    return std::nullopt;
  return static_cast<int64_t>(*bound);
}

/// `lhs pred rhs` as constraints. Unsigned comparisons count only where
/// the smaller side is provably non-negative: then they are the signed
/// ones.
void AccessConstraints::compare(arith::CmpIPredicate pred, Value lhs,
                                Value rhs) {
  using P = arith::CmpIPredicate;
  AffineExpr l = getExpr(lhs);
  AffineExpr r = getExpr(rhs);
  processWorklist();
  switch (pred) {
  case P::slt: bound(lhs) < r; return;
  case P::sle: bound(lhs) <= r; return;
  case P::sgt: bound(lhs) > r; return;
  case P::sge: bound(lhs) >= r; return;
  case P::eq: bound(lhs) == r; return;
  case P::ne: return;
  case P::ult:
  case P::ule:
    if (!nonNegative(rhs))
      return;
    bound(lhs) >= 0;
    if (pred == P::ult)
      bound(lhs) < r;
    else
      bound(lhs) <= r;
    return;
  case P::ugt:
  case P::uge:
    if (!nonNegative(lhs))
      return;
    bound(rhs) >= 0;
    if (pred == P::ugt)
      bound(rhs) < l;
    else
      bound(rhs) <= l;
    return;
  }
}

bool AccessConstraints::nonNegative(Value value) {
  std::optional<int64_t> lower = constantBound(BoundType::LB, getPos(value));
  return lower && *lower >= 0;
}

/// The stop condition: counts the values visited, and bounds itself what
/// ValueBoundsOpInterface models do not (or not tightly enough).
bool AccessConstraints::stopAt(Value value, std::optional<int64_t> dim) {
  if (++visited_ > kMaxSliceValues)
    return true;
  if (dim)
    return false;
  if (!value.getType().isIndex())
    return true;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (!arg.getOwner()->isEntryBlock() || !owner)
      return true;
    if (auto launch = dyn_cast<gpu::LaunchOp>(owner)) {
      constrainLaunchArgument(launch, arg);
      return true;
    }
    if (isa<scf::ForOp, scf::ParallelOp, scf::ForallOp, affine::AffineForOp>(
            owner) &&
        llvm::is_contained(inductionVariables(owner), value)) {
      constrainInductionVariable(owner, arg);
      return true;
    }
    return false;
  }
  Operation *def = value.getDefiningOp();
  if (isa_and_nonnull<gpu::GPUDialect>(def->getDialect())) {
    constrainGpuOp(def);
    return true;
  }
  if (auto select = dyn_cast<arith::SelectOp>(def)) {
    constrainSelect(select);
    return true;
  }
  if (isa<arith::MinSIOp, arith::MaxSIOp, affine::AffineMinOp,
          affine::AffineMaxOp>(def)) {
    constrainMinMax(def);
    return true;
  }
  return false;
}

/// The closed constant bound (LB when `lower`) of `value`, or of each
/// result of `map` on `value`s, assuming `cond` is `holds`, in a nested
/// set: uncorrelated with this one's columns, so only for constants.
std::optional<int64_t> AccessConstraints::nestedBound(AffineMap map,
                                                      ValueRange operands,
                                                      bool lower, Value cond,
                                                      bool holds) {
  AccessConstraints nested(builder.getContext(), info_, visited_);
  int64_t column = nested.addIndex(map, operands);
  if (cond)
    nested.assume(cond, holds);
  return nested.constantBound(lower ? BoundType::LB : BoundType::UB, column);
}

/// The min (`lower`) or max of the constant bounds of `values` (or of the
/// results of `map` on them), all of which must be bounded.
std::optional<int64_t>
AccessConstraints::outerBound(ValueRange values, AffineMap map, bool lower) {
  MLIRContext *ctx = builder.getContext();
  SmallVector<std::pair<AffineMap, SmallVector<Value>>> terms;
  if (map) {
    for (unsigned i = 0; i < map.getNumResults(); ++i)
      terms.push_back({map.getSubMap({i}), llvm::to_vector(values)});
  } else {
    for (Value value : values)
      terms.push_back({symbolMap(ctx), {value}});
  }
  std::optional<int64_t> result;
  for (auto &[termMap, operands] : terms) {
    std::optional<int64_t> b = nestedBound(termMap, operands, lower);
    if (!b)
      return std::nullopt;
    result = !result ? *b
             : lower ? std::min(*result, *b)
                     : std::max(*result, *b);
  }
  return result;
}

/// `select %c, %t, %f`: between the bounds of %t where %c holds and of %f
/// where it does not (`select %i < 16, %i, 15` is at most 15).
void AccessConstraints::constrainSelect(arith::SelectOp select) {
  Value cond = select.getCondition();
  if (!cond.getType().isInteger(1))
    return;
  MLIRContext *ctx = builder.getContext();
  Value value = select.getResult();
  for (bool lower : {false, true}) {
    std::optional<int64_t> t =
        nestedBound(symbolMap(ctx), select.getTrueValue(), lower, cond, true);
    std::optional<int64_t> f =
        nestedBound(symbolMap(ctx), select.getFalseValue(), lower, cond, false);
    if (!t || !f)
      continue;
    if (lower)
      bound(value) >= std::min(*t, *f);
    else
      bound(value) <= std::max(*t, *f);
  }
}

/// arith.minsi, affine.min (maxsi, max): below (above) each operand or
/// result, and above (below) the least (greatest) of their constant
/// bounds.
void AccessConstraints::constrainMinMax(Operation *op) {
  bool isMin = isa<arith::MinSIOp, affine::AffineMinOp>(op);
  AffineMap map;
  if (auto min = dyn_cast<affine::AffineMinOp>(op))
    map = min.getMap();
  else if (auto max = dyn_cast<affine::AffineMaxOp>(op))
    map = max.getMap();
  else
    map = AffineMap::get(0, 2,
                         {getAffineSymbolExpr(0, op->getContext()),
                          getAffineSymbolExpr(1, op->getContext())},
                         op->getContext());
  SmallVector<Value> operands = llvm::to_vector(op->getOperands());
  Value value = op->getResult(0);
  for (AffineExpr result : map.getResults()) {
    AffineExpr expr = boundExpr(result, operands, map.getNumDims());
    if (isMin)
      bound(value) <= expr;
    else
      bound(value) >= expr;
  }
  std::optional<int64_t> side = outerBound(operands, map, isMin);
  if (side && isMin)
    bound(value) >= *side;
  else if (side)
    bound(value) <= *side;
}

/// Ties every value of thread or block id `id` to one column.
void AccessConstraints::canonicalize(unsigned id, Value value) {
  Value &first = ids_[id];
  if (!first) {
    first = value;
    return;
  }
  bound(value) == getExpr(first);
}

void AccessConstraints::constrainLaunchArgument(gpu::LaunchOp launch,
                                                BlockArgument arg) {
  std::optional<LaunchArgument> what = launchArgument(launch, arg);
  if (!what)
    return;
  AffineExpr extent = getExpr(what->extent);
  if (what->isSize) {
    bound(arg) == extent;
    return;
  }
  bound(arg) >= 0;
  bound(arg) < extent;
  canonicalize(what->id, arg);
}

void AccessConstraints::constrainId(Value value, unsigned id,
                                    std::optional<APInt> upperBound) {
  std::optional<int64_t> extent = info_.extent(id);
  if (!extent && upperBound)
    extent = upperBound->getSExtValue();
  if (extent) {
    bound(value) >= 0;
    bound(value) < *extent;
  }
  canonicalize(id, value);
}

void AccessConstraints::constrainGpuOp(Operation *op) {
  Value value = op->getResult(0);
  if (auto tid = dyn_cast<gpu::ThreadIdOp>(op))
    return constrainId(value, kThreadX + dimensionIndex(tid.getDimension()),
                       tid.getUpperBound());
  if (auto bid = dyn_cast<gpu::BlockIdOp>(op))
    return constrainId(value, kBlockX + dimensionIndex(bid.getDimension()),
                       bid.getUpperBound());
  if (auto dim = dyn_cast<gpu::BlockDimOp>(op)) {
    if (auto extent =
            info_.extent(kThreadX + dimensionIndex(dim.getDimension())))
      bound(value) == *extent;
    return;
  }
  if (auto dim = dyn_cast<gpu::GridDimOp>(op)) {
    if (auto extent =
            info_.extent(kBlockX + dimensionIndex(dim.getDimension())))
      bound(value) == *extent;
    return;
  }
  if (auto gid = dyn_cast<gpu::GlobalIdOp>(op)) {
    unsigned d = dimensionIndex(gid.getDimension());
    std::optional<int64_t> threads = info_.extent(kThreadX + d);
    std::optional<int64_t> blocks = info_.extent(kBlockX + d);
    if (threads && blocks) {
      bound(value) >= 0;
      bound(value) < (*threads) * (*blocks);
    }
  }
}

AffineExpr AccessConstraints::boundExpr(AffineExpr result,
                                        ArrayRef<Value> operands,
                                        unsigned numDims) {
  SmallVector<AffineExpr> dims, symbols;
  for (auto [i, operand] : llvm::enumerate(operands))
    (i < numDims ? dims : symbols).push_back(getExpr(operand));
  return result.replaceDimsAndSymbols(dims, symbols);
}

void AccessConstraints::constrainInductionVariable(Operation *loop,
                                                   BlockArgument iv) {
  std::optional<LoopBounds> bounds = loopBounds(loop, iv);
  if (!bounds)
    return;
  for (AffineExpr lower : bounds->lower.getResults())
    bound(iv) >=
        boundExpr(lower, bounds->lowerOperands, bounds->lower.getNumDims());
  for (AffineExpr upper : bounds->upper.getResults())
    bound(iv) <
        boundExpr(upper, bounds->upperOperands, bounds->upper.getNumDims());
  // Constant bounds: the last iteration, not the upper bound minus one.
  std::optional<int64_t> lb = constantOf(bounds->lower);
  std::optional<int64_t> ub = constantOf(bounds->upper);
  std::optional<int64_t> step = getConstantIntValue(bounds->step);
  if (lb && ub && step && *step > 0 && *lb < *ub) {
    int64_t stride = *step;
    int64_t last = *lb + (*ub - 1 - *lb) / stride * stride;
    bound(iv) <= last;
  }
}

} // namespace sift::oracle::bounds
