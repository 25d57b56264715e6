//===- BoundsIntervals.cpp - Bounds step 1: intervals ---------------------===//
//
// Step 1 of the out-of-bounds check (Bounds.cpp): Intervals (BoundsSteps.h),
// the closed range of an index value from the ranges of what it is computed
// from (thread and block ids from the kernel's known sizes, loop induction
// variables from their bounds and steps), and the facts the comparisons of
// the enclosing `scf.if`s state of the index itself or of the same
// computation done again (sameValue).
//
//===----------------------------------------------------------------------===//

#include "oracles/ir/BoundsSteps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>

using namespace mlir;

namespace sift::oracle::bounds {

namespace {

std::optional<Range> addRanges(Range a, Range b) {
  Range r;
  if (llvm::AddOverflow(a.lo, b.lo, r.lo) ||
      llvm::AddOverflow(a.hi, b.hi, r.hi))
    return std::nullopt;
  return r;
}

std::optional<Range> mulRanges(Range a, Range b) {
  int64_t products[4];
  if (llvm::MulOverflow(a.lo, b.lo, products[0]) ||
      llvm::MulOverflow(a.lo, b.hi, products[1]) ||
      llvm::MulOverflow(a.hi, b.lo, products[2]) ||
      llvm::MulOverflow(a.hi, b.hi, products[3]))
    return std::nullopt;
  return Range{*std::min_element(products, products + 4),
               *std::max_element(products, products + 4)};
}

/// `a` divided by a range of positive divisors, rounding down (up when
/// `ceil`): monotone in `a`, so the ends come from the ends.
std::optional<Range> divideRange(Range a, Range b, bool ceil) {
  if (b.lo <= 0)
    return std::nullopt;
  auto div = [&](int64_t x, int64_t y) {
    return ceil ? ceilDiv(x, y) : floorDiv(x, y);
  };
  std::optional<int64_t> lo1 = div(a.lo, b.lo), lo2 = div(a.lo, b.hi);
  std::optional<int64_t> hi1 = div(a.hi, b.lo), hi2 = div(a.hi, b.hi);
  if (!lo1 || !lo2 || !hi1 || !hi2)
    return std::nullopt;
  return Range{std::min(*lo1, *lo2), std::max(*hi1, *hi2)};
}

/// The remainder of a non-negative range by a range of positive divisors.
std::optional<Range> remainderRange(Range a, Range b) {
  if (a.lo < 0 || b.lo <= 0)
    return std::nullopt;
  if (b.lo == b.hi && a.hi - a.lo < b.lo && a.lo % b.lo <= a.hi % b.lo)
    return Range{a.lo % b.lo, a.hi % b.lo};
  return Range{0, std::min(a.hi, b.hi - 1)};
}

/// The same value: `a` itself, or a pure op of the same kind on the same
/// operands (the pipelines compute an index and the value its guard
/// compares separately: `%i = addi %t, %o` and `%g = addi %t, %o`).
bool sameValue(Value a, Value b) {
  if (a == b)
    return true;
  Operation *x = a.getDefiningOp(), *y = b.getDefiningOp();
  return x && y && x->getNumRegions() == 0 && isPure(x) &&
         cast<OpResult>(a).getResultNumber() ==
             cast<OpResult>(b).getResultNumber() &&
         OperationEquivalence::isEquivalentTo(
             x, y, OperationEquivalence::exactValueMatch, nullptr,
             OperationEquivalence::IgnoreLocations);
}

} // namespace

std::optional<Range> Intervals::of(Value value, unsigned depth) {
  auto it = memo_.find(value);
  if (it != memo_.end())
    return it->second;
  std::optional<Range> range =
      depth > kMaxIntervalDepth ? std::nullopt : compute(value, depth);
  memo_[value] = range;
  return range;
}

std::optional<Range> Intervals::ofIndex(const Index &index,
                                        ArrayRef<GuardFact> facts) {
  SmallVector<Range> ranges;
  for (Value operand : index.operands) {
    Range range =
        of(operand).value_or(Range{std::numeric_limits<int64_t>::min(),
                                   std::numeric_limits<int64_t>::max()});
    for (const GuardFact &fact : facts) {
      if (!sameValue(fact.value, operand))
        continue;
      range.lo = std::max(range.lo, fact.range.lo);
      range.hi = std::min(range.hi, fact.range.hi);
    }
    if (range.lo == std::numeric_limits<int64_t>::min() ||
        range.hi == std::numeric_limits<int64_t>::max())
      return std::nullopt;
    ranges.push_back(range);
  }
  return ofExpr(index.map.getResult(0), ranges, index.map.getNumDims());
}

void Intervals::assume(Value cond, bool holds,
                       SmallVectorImpl<GuardFact> &facts, unsigned depth) {
  Operation *def = cond.getDefiningOp();
  if (!def || depth > 8)
    return;
  if (isa<arith::AndIOp, arith::OrIOp>(def)) {
    if (holds == isa<arith::AndIOp>(def)) {
      assume(def->getOperand(0), holds, facts, depth + 1);
      assume(def->getOperand(1), holds, facts, depth + 1);
    }
    return;
  }
  if (isa<arith::XOrIOp>(def)) {
    for (unsigned i = 0; i < 2; ++i)
      if (matchPattern(def->getOperand(i), m_One()))
        assume(def->getOperand(1 - i), !holds, facts, depth + 1);
    return;
  }
  auto cmp = dyn_cast<arith::CmpIOp>(def);
  if (!cmp || !cmp.getLhs().getType().isIndex())
    return;
  using P = arith::CmpIPredicate;
  P pred =
      holds ? cmp.getPredicate() : arith::invertPredicate(cmp.getPredicate());
  Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
  // As lhs < rhs or lhs <= rhs.
  if (pred == P::sgt || pred == P::sge || pred == P::ugt || pred == P::uge) {
    std::swap(lhs, rhs);
    pred = pred == P::sgt   ? P::slt
           : pred == P::sge ? P::sle
           : pred == P::ugt ? P::ult
                            : P::ule;
  }
  std::optional<Range> l = of(lhs), r = of(rhs);
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  switch (pred) {
  case P::eq:
    if (r)
      facts.push_back({lhs, *r});
    if (l)
      facts.push_back({rhs, *l});
    return;
  case P::slt:
  case P::sle: {
    int64_t strict = pred == P::slt ? 1 : 0;
    if (r && r->hi != kMin)
      facts.push_back({lhs, Range{kMin, r->hi - strict}});
    if (l && l->lo != kMax)
      facts.push_back({rhs, Range{l->lo + strict, kMax}});
    return;
  }
  case P::ult:
  case P::ule:
    // Unsigned: lhs is non-negative when rhs is.
    if (r && r->lo >= 0)
      facts.push_back({lhs, Range{0, r->hi - (pred == P::ult ? 1 : 0)}});
    return;
  default: return;
  }
}

std::optional<Range>
Intervals::ofExpr(AffineExpr expr, ArrayRef<Range> operands, unsigned numDims) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return Range{constant.getValue(), constant.getValue()};
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dim.getPosition() < numDims
               ? std::optional<Range>(operands[dim.getPosition()])
               : std::nullopt;
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return numDims + symbol.getPosition() < operands.size()
               ? std::optional<Range>(operands[numDims + symbol.getPosition()])
               : std::nullopt;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return std::nullopt;
  std::optional<Range> a = ofExpr(binary.getLHS(), operands, numDims);
  std::optional<Range> b = ofExpr(binary.getRHS(), operands, numDims);
  if (!a || !b)
    return std::nullopt;
  switch (expr.getKind()) {
  case AffineExprKind::Add: return addRanges(*a, *b);
  case AffineExprKind::Mul: return mulRanges(*a, *b);
  case AffineExprKind::FloorDiv: return divideRange(*a, *b, false);
  case AffineExprKind::CeilDiv: return divideRange(*a, *b, true);
  case AffineExprKind::Mod:
    if (b->lo <= 0)
      return std::nullopt;
    if (a->lo >= 0)
      return remainderRange(*a, *b);
    return Range{0, b->hi - 1};
  default: return std::nullopt;
  }
}

std::optional<Range> Intervals::ofMap(AffineMap map, ValueRange operands,
                                      unsigned depth, bool min, bool max) {
  SmallVector<Range> ranges;
  for (Value operand : operands) {
    std::optional<Range> r = of(operand, depth + 1);
    if (!r)
      return std::nullopt;
    ranges.push_back(*r);
  }
  std::optional<Range> result;
  for (AffineExpr expr : map.getResults()) {
    std::optional<Range> r = ofExpr(expr, ranges, map.getNumDims());
    if (!r)
      return std::nullopt;
    if (!result)
      result = r;
    else if (min)
      result = Range{std::min(result->lo, r->lo), std::min(result->hi, r->hi)};
    else if (max)
      result = Range{std::max(result->lo, r->lo), std::max(result->hi, r->hi)};
    else
      return std::nullopt;
  }
  return result;
}

std::optional<Range> Intervals::idRange(unsigned id,
                                        std::optional<APInt> upperBound) {
  std::optional<int64_t> extent = info_.extent(id);
  if (!extent && upperBound)
    extent = upperBound->getSExtValue();
  if (!extent || *extent <= 0)
    return std::nullopt;
  return Range{0, *extent - 1};
}

std::optional<Range> Intervals::inductionVariable(Operation *loop,
                                                  BlockArgument iv,
                                                  unsigned depth) {
  std::optional<LoopBounds> bounds = loopBounds(loop, iv);
  if (!bounds)
    return std::nullopt;
  std::optional<Range> lb =
      ofMap(bounds->lower, bounds->lowerOperands, depth, false, true);
  std::optional<Range> ub =
      ofMap(bounds->upper, bounds->upperOperands, depth, true, false);
  if (!lb || !ub)
    return std::nullopt;
  Range range{lb->lo, ub->hi - 1};
  std::optional<int64_t> step = getConstantIntValue(bounds->step);
  if (lb->lo == lb->hi && ub->lo == ub->hi && step && *step > 0 &&
      range.lo <= range.hi) {
    int64_t stride = *step;
    range.hi = range.lo + (range.hi - range.lo) / stride * stride;
  }
  return range;
}

std::optional<Range> Intervals::compute(Value value, unsigned depth) {
  if (!value.getType().isIndex())
    return std::nullopt;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (!arg.getOwner()->isEntryBlock() || !owner)
      return std::nullopt;
    if (auto launch = dyn_cast<gpu::LaunchOp>(owner)) {
      std::optional<LaunchArgument> what = launchArgument(launch, arg);
      if (!what)
        return std::nullopt;
      std::optional<Range> extent = of(what->extent, depth + 1);
      if (!extent || extent->lo <= 0)
        return std::nullopt;
      return what->isSize ? *extent : Range{0, extent->hi - 1};
    }
    if (llvm::is_contained(inductionVariables(owner), value))
      return inductionVariable(owner, arg, depth);
    return std::nullopt;
  }
  Operation *def = value.getDefiningOp();
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return Range{constant.getSExtValue(), constant.getSExtValue()};
  if (auto tid = dyn_cast<gpu::ThreadIdOp>(def))
    return idRange(kThreadX + dimensionIndex(tid.getDimension()),
                   tid.getUpperBound());
  if (auto bid = dyn_cast<gpu::BlockIdOp>(def))
    return idRange(kBlockX + dimensionIndex(bid.getDimension()),
                   bid.getUpperBound());
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def))
    return ofMap(apply.getAffineMap(), apply.getMapOperands(), depth, false,
                 false);
  if (auto min = dyn_cast<affine::AffineMinOp>(def))
    return ofMap(min.getMap(), min.getOperands(), depth, true, false);
  if (auto max = dyn_cast<affine::AffineMaxOp>(def))
    return ofMap(max.getMap(), max.getOperands(), depth, false, true);
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivSIOp,
           arith::DivUIOp, arith::FloorDivSIOp, arith::CeilDivSIOp,
           arith::RemSIOp, arith::RemUIOp, arith::MinSIOp, arith::MaxSIOp,
           arith::SelectOp>(def))
    return std::nullopt;
  if (auto select = dyn_cast<arith::SelectOp>(def)) {
    std::optional<Range> t = of(select.getTrueValue(), depth + 1);
    std::optional<Range> f =
        t ? of(select.getFalseValue(), depth + 1) : std::nullopt;
    if (!t || !f)
      return std::nullopt;
    return Range{std::min(t->lo, f->lo), std::max(t->hi, f->hi)};
  }
  std::optional<Range> a = of(def->getOperand(0), depth + 1);
  std::optional<Range> b = a ? of(def->getOperand(1), depth + 1) : std::nullopt;
  if (!a || !b)
    return std::nullopt;
  if (isa<arith::AddIOp>(def))
    return addRanges(*a, *b);
  if (isa<arith::SubIOp>(def)) {
    if (b->lo == std::numeric_limits<int64_t>::min())
      return std::nullopt;
    return addRanges(*a, Range{-b->hi, -b->lo});
  }
  if (isa<arith::MulIOp>(def))
    return mulRanges(*a, *b);
  if (isa<arith::MinSIOp>(def))
    return Range{std::min(a->lo, b->lo), std::min(a->hi, b->hi)};
  if (isa<arith::MaxSIOp>(def))
    return Range{std::max(a->lo, b->lo), std::max(a->hi, b->hi)};
  if (isa<arith::DivSIOp, arith::DivUIOp, arith::FloorDivSIOp>(def)) {
    // Truncation and floor agree on non-negative dividends.
    if (!isa<arith::FloorDivSIOp>(def) && a->lo < 0)
      return std::nullopt;
    return divideRange(*a, *b, false);
  }
  if (isa<arith::CeilDivSIOp>(def))
    return divideRange(*a, *b, true);
  return remainderRange(*a, *b); // remsi, remui
}

} // namespace sift::oracle::bounds
