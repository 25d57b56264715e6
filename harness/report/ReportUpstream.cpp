//===- harness/report/ReportUpstream.cpp - IREE's known root causes -------===//
//
// The report's upstream section: every root cause of corpus/iree/known.json
// with its upstream issue and state, what the databases found of it (the
// signatures tagged with it), its corpus cases and, from `harness bisect
// --json`'s file, the IREE release each case started to fail in.
//
//===----------------------------------------------------------------------===//

#include "harness/report/ReportData.h"
#include "harness/report/ReportWriters.h"
#include "harness/store/KnownCauses.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

namespace sift::harness {

namespace {

/// bisect.json: [{"case": NAME, "summary": TEXT, ...}] -> NAME -> TEXT.
Result<std::map<std::string, std::string>> readBisect(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    return makeError(path + ": cannot read the bisection");
  nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
  if (json.is_discarded() || !json.is_array())
    return makeError(path + ": not a list of bisected cases (harness bisect "
                            "--json)");
  std::map<std::string, std::string> out;
  for (const nlohmann::json &entry : json) {
    if (!entry.is_object() || !entry.contains("case") ||
        !entry["case"].is_string() || !entry.contains("summary") ||
        !entry["summary"].is_string())
      return makeError(path + ": an entry without \"case\" and \"summary\"");
    out[entry["case"].get<std::string>()] = entry["summary"].get<std::string>();
  }
  return out;
}

} // namespace

Status addRootCauses(ReportData &data, const std::string &knownPath,
                     const std::string &bisectPath) {
  Result<KnownCauses> known = KnownCauses::load(knownPath);
  if (!known.ok())
    return known.error();
  std::map<std::string, std::string> bisect;
  if (!bisectPath.empty()) {
    auto read = readBisect(bisectPath);
    if (!read.ok())
      return read.error();
    bisect = std::move(*read);
    data.bisectFile = bisectPath;
  }
  data.knownFile = knownPath;
  data.rootCauses.clear();
  for (const KnownCauses::Cause &cause : known->causes()) {
    ReportRootCause r;
    r.id = cause.id;
    r.summary = cause.summary;
    r.upstream = cause.upstream;
    r.state = cause.state;
    r.seenOn = cause.seenOn;
    r.cases = cause.cases;
    for (const std::string &name : cause.cases)
      if (auto it = bisect.find(name); it != bisect.end())
        r.bisect.emplace_back(name, it->second);
    for (const ReportSignature &s : data.signatures) {
      // "R4|R13": tagged with every one of them.
      std::set<std::string> tags;
      for (size_t at = 0; at <= s.knownCauses.size();) {
        size_t bar = s.knownCauses.find('|', at);
        if (bar == std::string::npos)
          bar = s.knownCauses.size();
        tags.insert(s.knownCauses.substr(at, bar - at));
        at = bar + 1;
      }
      if (tags.count(r.id)) {
        ++r.signatures;
        r.findings += s.count;
      }
    }
    data.rootCauses.push_back(std::move(r));
  }
  return Status::success();
}

std::string upstreamSection(const ReportData &data) {
  if (data.rootCauses.empty())
    return "";
  std::vector<std::vector<TableCell>> rows;
  for (const ReportRootCause &r : data.rootCauses) {
    std::string bisected;
    for (const auto &[name, summary] : r.bisect)
      bisected += (bisected.empty() ? "" : "; ") + name + ": " + summary;
    std::string cases;
    for (const std::string &name : r.cases)
      cases += (cases.empty() ? "" : ", ") + name;
    rows.push_back({{r.id, "", r.id.size() > 1 ? r.id.substr(1) : r.id, ""},
                    {r.summary, "", "", ""},
                    {r.upstream, "", "", ""},
                    {r.state, "", "", ""},
                    {std::to_string(r.signatures) + " (" +
                         std::to_string(r.findings) + " findings)",
                     "", std::to_string(r.findings), "num"},
                    {cases.empty() ? "none yet" : cases, "", "", ""},
                    {bisected.empty() ? "-" : bisected, "", "", ""}});
  }
  return "<h2 id=\"upstream\">Upstream: IREE's known root causes</h2><p>"
         "Each root cause of <code>" +
         htmlEscaped(data.knownFile) +
         "</code>, its upstream issue and state, the signatures these "
         "databases tagged with it, its corpus cases and, per case, the "
         "first IREE release it fails in" +
         (data.bisectFile.empty()
              ? std::string(" (no bisection given)")
              : " (<code>" + htmlEscaped(data.bisectFile) + "</code>)") +
         ".</p>" +
         renderTable("table-upstream",
                     {"root cause", "summary", "upstream", "state",
                      "signatures here", "corpus cases", "bisection"},
                     rows);
}

} // namespace sift::harness
