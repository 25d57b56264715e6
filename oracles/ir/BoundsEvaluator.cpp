//===- BoundsEvaluator.cpp - Bounds step 3: evaluating indices ------------===//
//
// The evaluation half of step 3 of the out-of-bounds check (Bounds.cpp):
// Evaluability, whether an index can be computed on concrete thread ids,
// block ids and iterations at all, and Evaluator, which computes it there
// (arith ops at their bit width, affine maps, gpu id ops), both declared in
// BoundsSteps.h. BoundsWitness.cpp chooses the points.
//
//===----------------------------------------------------------------------===//

#include "oracles/ir/BoundsSteps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>

using namespace mlir;

namespace sift::oracle::bounds {

namespace {

/// Nesting of the expressions the witness search evaluates.
constexpr unsigned kMaxDepth = 64;

unsigned widthOf(Type type) {
  if (type.isIndex())
    return 64;
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth() <= 64 ? integer.getWidth() : 0;
  return 0;
}

/// `value`'s low `width` bits, sign-extended: how values are held here.
int64_t signExtend(uint64_t value, unsigned width) {
  if (width >= 64)
    return static_cast<int64_t>(value);
  uint64_t mask = (uint64_t(1) << width) - 1;
  value &= mask;
  if (value >> (width - 1))
    value |= ~mask;
  return static_cast<int64_t>(value);
}

uint64_t zeroExtend(int64_t value, unsigned width) {
  if (width >= 64)
    return static_cast<uint64_t>(value);
  return static_cast<uint64_t>(value) & ((uint64_t(1) << width) - 1);
}

/// The ops whose results the evaluator computes.
bool isEvaluable(Operation *op) {
  return isa<arith::ConstantOp, arith::AddIOp, arith::SubIOp, arith::MulIOp,
             arith::DivSIOp, arith::DivUIOp, arith::CeilDivSIOp,
             arith::CeilDivUIOp, arith::FloorDivSIOp, arith::RemSIOp,
             arith::RemUIOp, arith::MinSIOp, arith::MinUIOp, arith::MaxSIOp,
             arith::MaxUIOp, arith::AndIOp, arith::OrIOp, arith::XOrIOp,
             arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp, arith::CmpIOp,
             arith::SelectOp, arith::IndexCastOp, arith::IndexCastUIOp,
             arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
             affine::AffineApplyOp, affine::AffineMinOp, affine::AffineMaxOp,
             gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp,
             gpu::GlobalIdOp>(op) &&
         op->getNumResults() == 1 && widthOf(op->getResult(0).getType()) != 0;
}

} // namespace

std::optional<int64_t> evaluateAffineOn(AffineExpr expr,
                                        ArrayRef<int64_t> operands,
                                        unsigned numDims) {
  return evaluateAffine(expr, operands.take_front(numDims),
                        operands.drop_front(numDims));
}

bool Evaluability::of(Value value, unsigned depth) {
  auto it = memo_.find(value);
  if (it != memo_.end())
    return it->second;
  bool result = depth <= kMaxDepth && compute(value, depth);
  memo_[value] = result;
  return result;
}

bool Evaluability::compute(Value value, unsigned depth) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (!arg.getOwner()->isEntryBlock() || !owner)
      return false;
    if (auto launch = dyn_cast<gpu::LaunchOp>(owner)) {
      std::optional<LaunchArgument> what = launchArgument(launch, arg);
      return what && info_.extent(what->id);
    }
    return llvm::is_contained(inductionVariables(owner), value) &&
           loopBounds(owner, arg);
  }
  Operation *def = value.getDefiningOp();
  if (!isEvaluable(def))
    return false;
  if (auto tid = dyn_cast<gpu::ThreadIdOp>(def))
    return info_.extent(kThreadX + dimensionIndex(tid.getDimension()))
        .has_value();
  if (auto bid = dyn_cast<gpu::BlockIdOp>(def))
    return info_.extent(kBlockX + dimensionIndex(bid.getDimension()))
        .has_value();
  if (auto dim = dyn_cast<gpu::BlockDimOp>(def))
    return info_.extent(kThreadX + dimensionIndex(dim.getDimension()))
        .has_value();
  if (auto dim = dyn_cast<gpu::GridDimOp>(def))
    return info_.extent(kBlockX + dimensionIndex(dim.getDimension()))
        .has_value();
  if (auto gid = dyn_cast<gpu::GlobalIdOp>(def)) {
    unsigned d = dimensionIndex(gid.getDimension());
    return info_.extent(kThreadX + d) && info_.extent(kBlockX + d);
  }
  return llvm::all_of(def->getOperands(),
                      [&](Value operand) { return of(operand, depth + 1); });
}

bool Evaluator::scan(Value value, const DenseSet<Value> &ivs,
                     std::array<bool, kNumIds> &ids) {
  SmallVector<std::pair<Value, unsigned>> worklist = {{value, 0}};
  while (!worklist.empty()) {
    auto [next, depth] = worklist.pop_back_val();
    if (depth > kMaxDepth)
      return false;
    if (!scanned_.insert(next).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(next)) {
      if (ivs.contains(arg))
        continue;
      if (!info_.launch)
        return false;
      std::optional<LaunchArgument> what = launchArgument(info_.launch, arg);
      if (!what || !info_.extent(what->id))
        return false;
      if (!what->isSize)
        ids[what->id] = true;
      continue;
    }
    Operation *def = next.getDefiningOp();
    if (!isEvaluable(def))
      return false;
    if (std::optional<unsigned> id = idOf(def)) {
      // Ids and sizes need the size; a global id, both ids' sizes.
      SmallVector<unsigned, 2> needed;
      if (*id < 2 * kNumIds)
        needed.push_back(*id % kNumIds);
      else
        needed = {kThreadX + *id - 2 * kNumIds, kBlockX + *id - 2 * kNumIds};
      for (unsigned need : needed) {
        if (!info_.extent(need))
          return false;
        if (*id < kNumIds || *id >= 2 * kNumIds)
          ids[need] = true;
      }
      continue;
    }
    for (Value operand : def->getOperands())
      worklist.push_back({operand, depth + 1});
  }
  return true;
}

/// For gpu id ops: the id (< kNumIds), the size of the id's dimension
/// (kNumIds + id), or a global id (2 * kNumIds + d).
std::optional<unsigned> Evaluator::idOf(Operation *op) {
  if (auto tid = dyn_cast<gpu::ThreadIdOp>(op))
    return kThreadX + dimensionIndex(tid.getDimension());
  if (auto bid = dyn_cast<gpu::BlockIdOp>(op))
    return kBlockX + dimensionIndex(bid.getDimension());
  if (auto dim = dyn_cast<gpu::BlockDimOp>(op))
    return kNumIds + kThreadX + dimensionIndex(dim.getDimension());
  if (auto dim = dyn_cast<gpu::GridDimOp>(op))
    return kNumIds + kBlockX + dimensionIndex(dim.getDimension());
  if (auto gid = dyn_cast<gpu::GlobalIdOp>(op))
    return 2 * kNumIds + dimensionIndex(gid.getDimension());
  return std::nullopt;
}

std::optional<int64_t> Evaluator::value(Value value, unsigned depth) {
  if (depth > kMaxDepth)
    return std::nullopt;
  auto cached = cache_.find(value);
  if (cached != cache_.end())
    return cached->second;
  std::optional<int64_t> result = compute(value, depth);
  if (result)
    cache_[value] = *result;
  return result;
}

namespace {

/// An affine.apply, min or max on its operands' values.
std::optional<int64_t> foldAffine(Operation *def, ArrayRef<int64_t> all) {
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    AffineMap map = apply.getAffineMap();
    return evaluateAffineOn(map.getResult(0), all, map.getNumDims());
  }
  bool min = isa<affine::AffineMinOp>(def);
  AffineMap map = min ? cast<affine::AffineMinOp>(def).getMap()
                      : cast<affine::AffineMaxOp>(def).getMap();
  std::optional<int64_t> best;
  for (AffineExpr result : map.getResults()) {
    std::optional<int64_t> v = evaluateAffineOn(result, all, map.getNumDims());
    if (!v)
      return std::nullopt;
    if (!best || (min ? *v < *best : *v > *best))
      best = v;
  }
  return best;
}

/// arith.cmpi `predicate` on a and b (operands of `width` bits): -1 (i1
/// true) or 0.
int64_t compareInts(arith::CmpIPredicate predicate, int64_t a, int64_t b,
                    unsigned width) {
  uint64_t ca = zeroExtend(a, width), cb = zeroExtend(b, width);
  bool result = false;
  switch (predicate) {
  case arith::CmpIPredicate::eq: result = a == b; break;
  case arith::CmpIPredicate::ne: result = a != b; break;
  case arith::CmpIPredicate::slt: result = a < b; break;
  case arith::CmpIPredicate::sle: result = a <= b; break;
  case arith::CmpIPredicate::sgt: result = a > b; break;
  case arith::CmpIPredicate::sge: result = a >= b; break;
  case arith::CmpIPredicate::ult: result = ca < cb; break;
  case arith::CmpIPredicate::ule: result = ca <= cb; break;
  case arith::CmpIPredicate::ugt: result = ca > cb; break;
  case arith::CmpIPredicate::uge: result = ca >= cb; break;
  }
  return result ? -1 : 0;
}

/// A binary arith op of `width` bits on a and b, wrapping as the hardware
/// does; nullopt for a division by zero, an overflowing signed division, a
/// shift past the width (poison) or an op it does not know.
std::optional<int64_t> foldBinary(Operation *def, int64_t a, int64_t b,
                                  unsigned width) {
  uint64_t ua = zeroExtend(a, width), ub = zeroExtend(b, width);
  auto wrap = [&](uint64_t v) { return signExtend(v, width); };
  int64_t minimum = signExtend(uint64_t(1) << (width - 1), width);
  if (isa<arith::AddIOp>(def))
    return wrap(ua + ub);
  if (isa<arith::SubIOp>(def))
    return wrap(ua - ub);
  if (isa<arith::MulIOp>(def))
    return wrap(ua * ub);
  if (isa<arith::DivSIOp, arith::RemSIOp>(def)) {
    if (b == 0 || (a == minimum && b == -1))
      return std::nullopt;
    return isa<arith::DivSIOp>(def) ? a / b : a % b;
  }
  if (isa<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp>(def)) {
    if (ub == 0)
      return std::nullopt;
    if (isa<arith::DivUIOp>(def))
      return wrap(ua / ub);
    if (isa<arith::RemUIOp>(def))
      return wrap(ua % ub);
    return wrap(ua / ub + (ua % ub != 0 ? 1 : 0));
  }
  if (isa<arith::CeilDivSIOp, arith::FloorDivSIOp>(def)) {
    if (a == minimum && b == -1)
      return std::nullopt;
    return isa<arith::CeilDivSIOp>(def) ? ceilDiv(a, b) : floorDiv(a, b);
  }
  if (isa<arith::MinSIOp>(def))
    return std::min(a, b);
  if (isa<arith::MaxSIOp>(def))
    return std::max(a, b);
  if (isa<arith::MinUIOp>(def))
    return wrap(std::min(ua, ub));
  if (isa<arith::MaxUIOp>(def))
    return wrap(std::max(ua, ub));
  if (isa<arith::AndIOp>(def))
    return wrap(ua & ub);
  if (isa<arith::OrIOp>(def))
    return wrap(ua | ub);
  if (isa<arith::XOrIOp>(def))
    return wrap(ua ^ ub);
  if (isa<arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp>(def)) {
    if (ub >= width)
      return std::nullopt; // poison
    if (isa<arith::ShLIOp>(def))
      return wrap(ua << ub);
    if (isa<arith::ShRUIOp>(def))
      return wrap(ua >> ub);
    return a >> ub;
  }
  return std::nullopt;
}

} // namespace

std::optional<int64_t> Evaluator::argumentValue(BlockArgument arg) {
  auto iv = ivs.find(arg);
  if (iv != ivs.end())
    return iv->second;
  if (!info_.launch)
    return std::nullopt;
  std::optional<LaunchArgument> what = launchArgument(info_.launch, arg);
  if (!what)
    return std::nullopt;
  return what->isSize ? info_.extent(what->id)
                      : std::optional<int64_t>(ids[what->id]);
}

std::optional<int64_t> Evaluator::idValue(unsigned id) {
  if (id < kNumIds)
    return ids[id];
  if (id < 2 * kNumIds)
    return info_.extent(id - kNumIds);
  unsigned d = id - 2 * kNumIds;
  std::optional<int64_t> threads = info_.extent(kThreadX + d);
  if (!threads)
    return std::nullopt;
  return ids[kBlockX + d] * *threads + ids[kThreadX + d];
}

std::optional<int64_t> Evaluator::compute(Value value, unsigned depth) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return argumentValue(arg);
  Operation *def = value.getDefiningOp();
  if (!isEvaluable(def))
    return std::nullopt;
  unsigned width = widthOf(value.getType());
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant.getBitWidth() > 64 ? std::nullopt
                                       : std::optional<int64_t>(signExtend(
                                             constant.getZExtValue(), width));
  if (std::optional<unsigned> id = idOf(def))
    return idValue(*id);
  SmallVector<int64_t, 4> operands;
  for (Value operand : def->getOperands()) {
    std::optional<int64_t> v = this->value(operand, depth + 1);
    if (!v)
      return std::nullopt;
    operands.push_back(*v);
  }
  if (isa<affine::AffineApplyOp, affine::AffineMinOp, affine::AffineMaxOp>(
          def))
    return foldAffine(def, operands);
  if (auto select = dyn_cast<arith::SelectOp>(def)) {
    if (!select.getCondition().getType().isInteger(1))
      return std::nullopt;
    return operands[0] != 0 ? operands[1] : operands[2];
  }
  unsigned operandWidth = widthOf(def->getOperand(0).getType());
  if (operandWidth == 0)
    return std::nullopt;
  if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(def))
    return signExtend(static_cast<uint64_t>(operands[0]), width);
  if (isa<arith::IndexCastUIOp, arith::ExtUIOp>(def))
    return signExtend(zeroExtend(operands[0], operandWidth), width);
  if (auto cmp = dyn_cast<arith::CmpIOp>(def))
    return compareInts(cmp.getPredicate(), operands[0], operands[1],
                       operandWidth);
  return foldBinary(def, operands[0], operands[1], width);
}

} // namespace sift::oracle::bounds
