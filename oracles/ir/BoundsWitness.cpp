//===- BoundsWitness.cpp - Bounds step 3: a witness -----------------------===//
//
// The search half of step 3 of the out-of-bounds check (Bounds.cpp):
// searchWitness (BoundsSteps.h) runs an access's address computation, with
// the Evaluator of BoundsEvaluator.cpp, on concrete thread ids, block ids and
// iterations of the enclosing loops (corners first, then everything, within
// a step budget), the enclosing `scf.if`/`affine.if` conditions evaluated
// exactly: only an execution that reaches the access with an index out of
// range is a witness, and the furthest such index is kept.
//
//===----------------------------------------------------------------------===//

#include "oracles/ir/BoundsSteps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IntegerSet.h"

#include <algorithm>

using namespace mlir;

namespace sift::oracle::bounds {

namespace {

/// Points (assignments of ids and iterations) one witness search may visit.
constexpr int64_t kMaxWitnessSteps = 1 << 14;

/// Searches executions of an access for indices out of range: the points
/// of the kernel's ids and of the enclosing loops' iterations at which the
/// enclosing guards hold.
class WitnessSearch {
public:
  WitnessSearch(const KernelInfo &info, ArrayRef<Scope> scopes,
                ArrayRef<Index> indices, SmallVectorImpl<Excursion> &excursions)
      : info_(info), scopes_(scopes), indices_(indices),
        excursions_(excursions), evaluator_(info) {}

  /// Runs the search; false when the access's indices or guards cannot be
  /// evaluated.
  bool run() {
    if (!plan())
      return false;
    // Corners first (every id and iteration at its first or last value),
    // then all points in an order that starts from both ends.
    cornersOnly_ = true;
    search(0);
    if (!done() && !exhausted()) {
      cornersOnly_ = false;
      search(0);
    }
    return true;
  }

private:
  struct Level {
    enum Kind { Id, Iv, Guard } kind;
    unsigned id = 0; ///< Id: which.
    const Scope *scope = nullptr;
    Value iv;         ///< Iv: the induction variable.
    bool used = true; ///< Iv: read by an index, a guard or a loop bound.
    std::optional<LoopBounds> bounds;
  };

  bool plan() {
    DenseSet<Value> ivs;
    for (const Scope &scope : scopes_)
      if (scope.kind == Scope::Loop)
        for (Value iv : inductionVariables(scope.op))
          ivs.insert(iv);
    std::array<bool, kNumIds> ids{};
    SmallVector<Value> roots;
    for (const Index &index : indices_)
      roots.append(index.operands.begin(), index.operands.end());
    SmallVector<Level> scopeLevels;
    for (const Scope &scope : scopes_) {
      if (scope.kind == Scope::Loop) {
        for (Value iv : inductionVariables(scope.op)) {
          std::optional<LoopBounds> bounds =
              loopBounds(scope.op, cast<BlockArgument>(iv));
          if (!bounds)
            return false;
          roots.append(bounds->lowerOperands);
          roots.append(bounds->upperOperands);
          if (auto step = dyn_cast<Value>(bounds->step))
            roots.push_back(step);
          Level level;
          level.kind = Level::Iv;
          level.scope = &scope;
          level.iv = iv;
          level.bounds = std::move(bounds);
          scopeLevels.push_back(std::move(level));
        }
      } else {
        if (scope.kind == Scope::If)
          roots.push_back(cast<scf::IfOp>(scope.op).getCondition());
        else
          llvm::append_range(roots,
                             cast<affine::AffineIfOp>(scope.op).getOperands());
        Level level;
        level.kind = Level::Guard;
        level.scope = &scope;
        scopeLevels.push_back(std::move(level));
      }
    }
    for (Value root : roots)
      if (!evaluator_.scan(root, ivs, ids))
        return false;
    for (unsigned id = 0; id < kNumIds; ++id) {
      if (!ids[id])
        continue;
      Level level;
      level.kind = Level::Id;
      level.id = id;
      levels_.push_back(level);
    }
    for (Level &level : scopeLevels)
      if (level.kind == Level::Iv)
        level.used = evaluator_.reads(level.iv);
    levels_.append(scopeLevels.begin(), scopeLevels.end());
    return true;
  }

  bool exhausted() const { return steps_ > kMaxWitnessSteps; }

  /// Every excursion witnessed as far as step 1 allows.
  bool done() const {
    return llvm::all_of(excursions_, [](const Excursion &e) {
      return e.witnessed && *e.witnessed == e.bound;
    });
  }

  /// The value of a loop bound (max of lower, min of upper results).
  std::optional<int64_t> loopBound(AffineMap map, ArrayRef<Value> operands,
                                   bool lower) {
    SmallVector<int64_t> values;
    for (Value operand : operands) {
      std::optional<int64_t> v = evaluator_.value(operand);
      if (!v)
        return std::nullopt;
      values.push_back(*v);
    }
    ArrayRef<int64_t> all(values);
    std::optional<int64_t> best;
    for (AffineExpr result : map.getResults()) {
      std::optional<int64_t> v =
          evaluateAffineOn(result, all, map.getNumDims());
      if (!v)
        return std::nullopt;
      if (!best || (lower ? *v > *best : *v < *best))
        best = v;
    }
    return best;
  }

  /// Whether the guard of `scope` lets the access run at this point.
  std::optional<bool> guardHolds(const Scope &scope) {
    bool holds;
    if (scope.kind == Scope::If) {
      std::optional<int64_t> cond =
          evaluator_.value(cast<scf::IfOp>(scope.op).getCondition());
      if (!cond)
        return std::nullopt;
      holds = *cond != 0;
    } else {
      auto ifOp = cast<affine::AffineIfOp>(scope.op);
      IntegerSet set = ifOp.getIntegerSet();
      SmallVector<int64_t> values;
      for (Value operand : ifOp.getOperands()) {
        std::optional<int64_t> v = evaluator_.value(operand);
        if (!v)
          return std::nullopt;
        values.push_back(*v);
      }
      holds = true;
      for (auto [constraint, isEq] :
           llvm::zip(set.getConstraints(), set.getEqFlags())) {
        std::optional<int64_t> v =
            evaluateAffineOn(constraint, values, set.getNumDims());
        if (!v)
          return std::nullopt;
        holds = holds && (isEq ? *v == 0 : *v >= 0);
      }
    }
    return holds == scope.thenBranch;
  }

  /// Checks the access at the current point.
  void visit() {
    for (auto [index, excursion] : llvm::zip(indices_, excursions_)) {
      SmallVector<int64_t> values;
      bool known = true;
      for (Value operand : index.operands) {
        std::optional<int64_t> v = evaluator_.value(operand);
        if (!v) {
          known = false;
          break;
        }
        values.push_back(*v);
      }
      if (!known)
        continue;
      std::optional<int64_t> v = evaluateAffineOn(
          index.map.getResult(0), values, index.map.getNumDims());
      if (!v)
        continue;
      if (excursion.over) {
        int64_t last = *v + index.extent - 1;
        if (last >= index.size &&
            (!excursion.witnessed || last > *excursion.witnessed))
          excursion.witnessed = last;
      } else if (*v < 0 &&
                 (!excursion.witnessed || *v < *excursion.witnessed)) {
        excursion.witnessed = *v;
      }
    }
  }

  /// The order in which the n values of a level are tried: both ends first.
  static int64_t nth(int64_t k, int64_t n) {
    return k % 2 == 0 ? n - 1 - k / 2 : k / 2;
  }

  void search(unsigned depth) {
    if (done() || exhausted())
      return;
    ++steps_;
    evaluator_.reset();
    if (depth == levels_.size())
      return visit();
    Level &level = levels_[depth];
    if (level.kind == Level::Guard) {
      std::optional<bool> holds = guardHolds(*level.scope);
      if (holds && *holds)
        search(depth + 1);
      return;
    }
    int64_t first = 0, step = 1, count;
    if (level.kind == Level::Id) {
      count = *info_.extent(level.id);
    } else {
      std::optional<int64_t> lb = loopBound(
          level.bounds->lower, level.bounds->lowerOperands, /*lower=*/true);
      std::optional<int64_t> ub = loopBound(
          level.bounds->upper, level.bounds->upperOperands, /*lower=*/false);
      std::optional<int64_t> s = getConstantIntValue(level.bounds->step);
      if (!s)
        s = evaluator_.value(cast<Value>(level.bounds->step));
      if (!lb || !ub || !s || *s <= 0)
        return;
      first = *lb;
      step = *s;
      count = *ub > *lb ? (*ub - *lb - 1) / *s + 1 : 0;
    }
    // An iteration nothing reads the induction variable of only needs to
    // exist.
    int64_t tries = !level.used    ? std::min<int64_t>(count, 1)
                    : cornersOnly_ ? std::min<int64_t>(count, 2)
                                   : count;
    for (int64_t k = 0; k < tries && !done() && !exhausted(); ++k) {
      int64_t value = first + nth(k, count) * step;
      if (level.kind == Level::Id)
        evaluator_.ids[level.id] = value;
      else
        evaluator_.ivs[level.iv] = value;
      evaluator_.reset();
      search(depth + 1);
    }
  }

  const KernelInfo &info_;
  ArrayRef<Scope> scopes_;
  ArrayRef<Index> indices_;
  SmallVectorImpl<Excursion> &excursions_;
  Evaluator evaluator_;
  SmallVector<Level> levels_;
  bool cornersOnly_ = true;
  int64_t steps_ = 0;
};

} // namespace

bool searchWitness(const KernelInfo &info, ArrayRef<Scope> scopes,
                   ArrayRef<Index> indices,
                   SmallVectorImpl<Excursion> &excursions) {
  WitnessSearch search(info, scopes, indices, excursions);
  return search.run();
}

} // namespace sift::oracle::bounds
