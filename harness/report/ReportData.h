//===- harness/report/ReportData.h - What a report shows --------*- C++ -*-===//
//
// The data of `harness report`, read from one or more findings databases
// (each a night, or any campaign's database): verdicts per run over nights,
// throughput per step, what the generator covered, the signatures with
// their status, size, repro and detection time, and the corpus replay.
// The HTML, CSV and JSON writers render this one model.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sift::harness {

/// One database: a night, or a campaign's database.
struct ReportNight {
  /// Its folder's name ("2026-11-27"; with the folder above when two
  /// nights share a name: "2026-11-27/shard-0"), or the database's file
  /// name when it is not a findings.db.
  std::string label;
  std::string db;      ///< the database's path
  std::string started; ///< UTC
  double seconds = 0;  ///< campaign time (sum over its campaigns)
  int64_t cases = 0;
  /// Runs that reached each step: generated, compiled, ran, compared.
  std::map<std::string, int64_t> steps;
  /// Verdict counts per run ("cpu/host", "iree-tileandfuse/nvptx").
  std::map<std::string, std::map<std::string, int64_t>> verdicts;
  /// Coverage tags ("family=sort") and their counts.
  std::map<std::string, int64_t> coverage;
  /// The corpus replay of a nightly: case, recorded, observed, changed.
  struct Replay {
    std::string name, folder, recorded, observed, error;
    bool changed = false;
  };
  std::vector<Replay> replay;
  bool nightly = false;
  /// What ran: the nightly's command, or its campaigns' (distinct).
  std::string options;
};

/// One signature over every database given.
struct ReportSignature {
  std::string text, verdict;
  /// new, open, fixed, flaky, known (the latest night that judged it), or
  /// "seen" for a database without a nightly.
  std::string status;
  std::string firstSeen, lastSeen;
  int64_t count = 0;
  /// Pipeline/target runs it was found in.
  std::string runs;
  /// Where its case's GPU runs executed (case.json's "device"; "" for
  /// static verdicts): each of `runs` then says " on <device>".
  std::string device;
  int64_t reducedSize = -1;
  std::string reducedDir, caseDir, repro, note;
  /// Seconds from its night's (campaign's) start to its first finding.
  double detectionSeconds = -1;
  /// Its count in each night, in the order of ReportData::nights.
  std::vector<int64_t> perNight;
  /// The known root causes it is tagged with (table known_causes: "R5",
  /// "R4|R13"); "" for a new bug.
  std::string knownCauses;
  /// The faults planted in the compiler when its case was found (--inject:
  /// case.json's "faults", "crash-on-prime,..."); "" for a real finding.
  std::string planted;
};

/// One of IREE's known root causes (corpus/iree/known.json) for the
/// report's upstream section, with what these databases found of it and
/// when its cases started to fail across IREE's releases (bisect.json,
/// `harness bisect --json`).
struct ReportRootCause {
  std::string id, summary, upstream, state, seenOn;
  std::vector<std::string> cases;
  /// Signatures tagged with it in these databases, and their findings.
  int64_t signatures = 0, findings = 0;
  /// Per case of it that was bisected: the bisection's summary ("first
  /// fails in 3.2.0, passed in 3.1.0").
  std::vector<std::pair<std::string, std::string>> bisect;
};

struct ReportData {
  std::string generated; ///< UTC, when the report was made
  std::vector<ReportNight> nights;
  std::vector<ReportSignature> signatures;
  /// IREE's known root causes (empty without a known.json); the files read.
  std::vector<ReportRootCause> rootCauses;
  std::string knownFile, bisectFile;

  nlohmann::json toJson() const;
};

/// Reads every database, ordered by the start of their nights (oldest
/// first, whatever the order given); an error names the database that
/// cannot be read.
Result<ReportData> readReportData(const std::vector<std::string> &databases);

/// Fills data.rootCauses from `knownPath` (known.json) and, when not "",
/// `bisectPath` (`harness bisect --json`'s file), counting the signatures
/// of `data` tagged with each; an error names the file and what is wrong.
Status addRootCauses(ReportData &data, const std::string &knownPath,
                     const std::string &bisectPath);

/// "cpu/host" -> {"sift", "cpu", "host"}; IREE's pipelines are "iree".
std::vector<std::string> splitRunName(const std::string &run);

} // namespace sift::harness
