//===- oracles/ir/StageChecks.h - IR checks after every pass ----*- C++ -*-===//
//
// A pass instrumentation that runs the IR oracles of IrChecks.h after every
// pass of a pipeline and remembers, for each finding, the first pass after
// which it appeared: DESIGN.md asks that each static finding name the pass
// that introduced it.
//
// After a pass on the top-level module the whole module is checked; after a
// pass on a nested op (a `func.func`, a `gpu.module`) only that op, in the
// thread that ran the pass, so nested pipelines can run in parallel. Pass
// adaptors (the nested pipelines themselves) are skipped: their passes have
// already been seen. The first pass on the top-level module also checks the
// input: what is there before any pass is attributed to "input".
//
// A finding is the same from one stage to the next when its verdict, its
// location and its message with every digit run collapsed agree; the
// kernel's name counts only when the location is unknown. So a finding
// carried from a `gpu.launch` into the outlined `gpu.func` (locations are
// kept) is not a new one, and sizes that change do not make it new.
//
// The checks assume verified IR: keep the pass manager's verifier on (the
// default), which runs before the instrumentation sees a pass's result.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "oracles/ir/IrChecks.h"

#include "mlir/Pass/PassInstrumentation.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace mlir {
class PassManager;
} // namespace mlir

namespace sift::oracle {

/// A finding and the pass after which it first appeared.
struct StageFinding {
  IrFinding finding; ///< As found at that stage.
  /// The pass argument (`convert-gpu-to-nvvm`), its name when it has none,
  /// or "input" when the module had it before any pass ran.
  std::string pass;
};

/// Runs checkAll and checkOutOfBounds after every pass; see the file comment.
class StageCheckInstrumentation : public mlir::PassInstrumentation {
public:
  /// `budgetBytes`: the workgroup memory budget (workgroupMemoryBudget).
  explicit StageCheckInstrumentation(int64_t budgetBytes);
  ~StageCheckInstrumentation() override;

  /// Checks `root` as the pipeline's input (findings attributed to "input").
  /// Done automatically by the first pass on a top-level op; call it before
  /// running a pass manager whose first pass is nested.
  void checkInput(mlir::Operation *root);

  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override;
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override;

  /// Every finding once, by the order of the passes that introduced them
  /// (input first), then by kernel and message.
  std::vector<StageFinding> findings() const;

  /// How many checks ran, and the time they took together.
  size_t checksRun() const;
  std::chrono::nanoseconds checkTime() const;

private:
  void check(mlir::Operation *root, const std::string &pass, int ordinal);

  int64_t budgetBytes_;
  mutable std::mutex mutex_;
  bool sawFirstPass_ = false;
  llvm::DenseMap<const mlir::Pass *, int> ordinals_;
  struct Entry {
    StageFinding finding;
    int ordinal;
    std::string key;
  };
  llvm::StringMap<size_t> seen_; ///< Key -> index into entries_.
  std::vector<Entry> entries_;
  size_t checks_ = 0;
  std::chrono::nanoseconds time_{0};
};

/// Adds a StageCheckInstrumentation to `pm` and returns it; it lives as
/// long as `pm`.
StageCheckInstrumentation &addStageChecks(mlir::PassManager &pm,
                                          int64_t budgetBytes);

/// Called once, with the first finding, right after the pass that made it.
using StageFindingAnnouncer = std::function<void(const StageFinding &)>;

/// Adds to `pm` an instrumentation that forwards every pass to `checks`,
/// which the caller owns (a pass manager destroys its instrumentations, and
/// the findings must outlive it); `announce`, when given, hears the first
/// finding as soon as a pass makes it.
void forwardStageChecks(mlir::PassManager &pm,
                        StageCheckInstrumentation &checks,
                        StageFindingAnnouncer announce = nullptr);

} // namespace sift::oracle
