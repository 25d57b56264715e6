//===- harness/nightly/Nightly.h - `harness nightly` ------------*- C++ -*-===//
//
// One night of fuzzing in one folder, resumable: the phases, their state
// (nightly.json) and the comparison with the previous night. See
// Nightly.cpp for the order of work and NightlyPlan.h for the schedule.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/commands/Commands.h"
#include "harness/nightly/NightlyDb.h"
#include "harness/nightly/NightlyPlan.h"

#include <nlohmann/json_fwd.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sift::harness {

class StopSignals;
struct BenchTable;

class Night {
public:
  explicit Night(const NightlyOptions &options);
  ~Night();
  /// The night from its phase in nightly.json (or the start) to its exit
  /// code: 0 nothing new, 1 new signatures, 3 a corpus regression, 2 bad
  /// usage, 128 + N when signal N stopped it (run it again to go on).
  int run();

private:
  /// The folder a signature's reduced case goes to: "sig-" and a hash.
  static std::string reducedName(const std::string &signature);
  struct State {
    uint64_t seed = 0;
    std::string started;
    /// Seconds spent by earlier processes of this night.
    double spent = 0;
    std::string phase = "replay";
    /// The slot in progress (or next).
    uint64_t slot = 0;
  };

  Status prepare();
  Status loadState();
  Status saveState();
  std::string statePath() const;
  std::vector<std::pair<std::string, std::string>> key() const;
  std::string keyDifferences(const nlohmann::json &stored) const;
  double spent() const;

  std::vector<NightCell> cells();
  FuzzOptions slotOptions(const NightCell &cell, uint64_t slot,
                          double seconds) const;
  Status replayCorpus();
  /// The time limit of a replayed case (none: replay's default).
  std::optional<double> replayTimeout() const;
  bool judgingTimeLeft(const StopSignals &stop) const;
  Result<std::optional<int>> fuzzSlots();
  Status reduceNew(StopSignals &stop);
  int reduceChild(const std::string &folder, const std::string &out,
                  double seconds, StopSignals &stop);
  Result<std::map<std::string, NightSignature>> previousSignatures();
  /// Tonight's signatures, each with the known root causes it is of.
  Result<std::vector<NightSignature>> tonightSignatures();
  std::pair<int, std::string> replayTimes(const std::string &folder,
                                          int times);
  void judgeTonight(std::vector<NightSignature> &tonight,
                    const std::map<std::string, NightSignature> &before,
                    StopSignals &stop);
  std::vector<NightSignature>
  judgeMissing(const std::vector<NightSignature> &tonight,
               const std::map<std::string, NightSignature> &before,
               StopSignals &stop);
  void judgeSlowKernel(NightSignature &sig) const;
  Status recordBench();
  Status compare(StopSignals &stop);
  Status recordCells();
  int summarize();

  const NightlyOptions &options_;
  State state_;
  bool resumed_ = false;
  int lockFd_ = -1;
  std::unique_ptr<NightDb> db_, previous_;
  /// Tonight's GPU bench table (--bench), when given.
  std::unique_ptr<BenchTable> bench_;
  std::chrono::steady_clock::time_point start_;
};

} // namespace sift::harness
