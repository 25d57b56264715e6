//===- StageChecks.cpp - IR checks after every pass -----------------------===//
//
// StageCheckInstrumentation: checkAll and checkOutOfBounds after each pass,
// scoped to the op the pass ran on, and the first pass after which each
// finding appeared.
//
//===----------------------------------------------------------------------===//

#include "oracles/ir/StageChecks.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <tuple>

using namespace mlir;

namespace sift::oracle {

namespace {

/// The pass adaptors that run nested pipelines: their passes report
/// themselves, the adaptor would only repeat them.
bool isAdaptor(Pass *pass) {
  return pass->getArgument().empty() &&
         pass->getName().contains("OpToOpPassAdaptor");
}

std::string passName(Pass *pass) {
  StringRef argument = pass->getArgument();
  return (argument.empty() ? pass->getName() : argument).str();
}

/// The message with every run of digits collapsed to "N".
std::string normalize(const std::string &message) {
  std::string out;
  out.reserve(message.size());
  for (size_t i = 0; i < message.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(message[i]))) {
      out += message[i];
      continue;
    }
    out += 'N';
    while (i + 1 < message.size() &&
           std::isdigit(static_cast<unsigned char>(message[i + 1])))
      ++i;
  }
  return out;
}

/// What makes a finding the same from one stage to the next (file comment).
std::string keyOf(const IrFinding &finding) {
  std::string key(toString(finding.verdict));
  key += '|';
  if (isa<UnknownLoc>(finding.loc)) {
    key += finding.kernel;
  } else {
    llvm::raw_string_ostream os(key);
    finding.loc.print(os);
  }
  key += '|';
  key += normalize(finding.message);
  return key;
}

} // namespace

StageCheckInstrumentation::StageCheckInstrumentation(int64_t budgetBytes)
    : budgetBytes_(budgetBytes) {}

StageCheckInstrumentation::~StageCheckInstrumentation() = default;

void StageCheckInstrumentation::checkInput(Operation *root) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    sawFirstPass_ = true;
  }
  check(root, "input", -1);
}

void StageCheckInstrumentation::runBeforePass(Pass *pass, Operation *op) {
  if (isAdaptor(pass))
    return;
  bool first;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const Pass *key = pass->getThreadingSiblingOrThis();
    ordinals_.try_emplace(key, static_cast<int>(ordinals_.size()));
    first = !sawFirstPass_;
    sawFirstPass_ = true;
  }
  // Only a top-level op can be checked whole here: nested ops may have
  // siblings that other threads are transforming.
  if (first && !op->getParentOp())
    check(op, "input", -1);
}

void StageCheckInstrumentation::runAfterPass(Pass *pass, Operation *op) {
  if (isAdaptor(pass))
    return;
  int ordinal;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = ordinals_.find(pass->getThreadingSiblingOrThis());
    ordinal =
        it == ordinals_.end() ? static_cast<int>(ordinals_.size()) : it->second;
  }
  check(op, passName(pass), ordinal);
}

void StageCheckInstrumentation::check(Operation *root, const std::string &pass,
                                      int ordinal) {
  auto start = std::chrono::steady_clock::now();
  std::vector<IrFinding> found = checkAll(root, budgetBytes_);
  std::vector<IrFinding> outOfBounds = checkOutOfBounds(root);
  found.insert(found.end(), std::make_move_iterator(outOfBounds.begin()),
               std::make_move_iterator(outOfBounds.end()));
  std::vector<std::string> keys;
  keys.reserve(found.size());
  for (const IrFinding &finding : found)
    keys.push_back(keyOf(finding));
  auto elapsed = std::chrono::steady_clock::now() - start;

  std::lock_guard<std::mutex> lock(mutex_);
  ++checks_;
  time_ += std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed);
  for (size_t i = 0; i < found.size(); ++i) {
    if (!seen_.try_emplace(keys[i], entries_.size()).second)
      continue;
    entries_.push_back(
        {StageFinding{std::move(found[i]), pass}, ordinal, std::move(keys[i])});
  }
}

std::vector<StageFinding> StageCheckInstrumentation::findings() const {
  std::vector<const Entry *> order;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const Entry &entry : entries_)
      order.push_back(&entry);
  }
  std::stable_sort(
      order.begin(), order.end(), [](const Entry *a, const Entry *b) {
        return std::tie(a->ordinal, a->finding.finding.kernel, a->key) <
               std::tie(b->ordinal, b->finding.finding.kernel, b->key);
      });
  std::vector<StageFinding> out;
  out.reserve(order.size());
  for (const Entry *entry : order)
    out.push_back(entry->finding);
  return out;
}

size_t StageCheckInstrumentation::checksRun() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return checks_;
}

std::chrono::nanoseconds StageCheckInstrumentation::checkTime() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return time_;
}

StageCheckInstrumentation &addStageChecks(PassManager &pm,
                                          int64_t budgetBytes) {
  auto instrumentation =
      std::make_unique<StageCheckInstrumentation>(budgetBytes);
  StageCheckInstrumentation &result = *instrumentation;
  pm.addInstrumentation(std::move(instrumentation));
  return result;
}

namespace {

/// Forwards to a StageCheckInstrumentation the caller owns.
class ForwardStageChecks final : public PassInstrumentation {
public:
  ForwardStageChecks(StageCheckInstrumentation &target,
                     StageFindingAnnouncer announce)
      : target_(target), announce_(std::move(announce)) {}
  void runBeforePass(Pass *pass, Operation *op) override {
    target_.runBeforePass(pass, op);
  }
  void runAfterPass(Pass *pass, Operation *op) override {
    target_.runAfterPass(pass, op);
    if (announced_ || !announce_)
      return;
    std::vector<StageFinding> findings = target_.findings();
    if (findings.empty())
      return;
    announced_ = true;
    announce_(findings.front());
  }

private:
  StageCheckInstrumentation &target_;
  StageFindingAnnouncer announce_;
  bool announced_ = false;
};

} // namespace

void forwardStageChecks(PassManager &pm, StageCheckInstrumentation &checks,
                        StageFindingAnnouncer announce) {
  pm.addInstrumentation(
      std::make_unique<ForwardStageChecks>(checks, std::move(announce)));
}

} // namespace sift::oracle
