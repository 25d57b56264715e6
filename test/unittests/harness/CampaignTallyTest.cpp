//===- CampaignTallyTest.cpp - What a campaign has done so far -------------===//
//
// A tally counts verdicts per run and findings, survives its JSON round trip
// (what a resumed campaign reads back), and a malformed stored tally is an
// error naming what is wrong, never a silent zero.
//
//===----------------------------------------------------------------------===//

#include "harness/campaign/CampaignTally.h"

#include <gtest/gtest.h>

using namespace sift;
using namespace sift::harness;

namespace {

CaseResult resultWith(oracle::Verdict verdict, double compile, double run) {
  CaseResult result;
  result.verdict = verdict;
  result.compileSeconds = compile;
  result.runSeconds = run;
  return result;
}

} // namespace

TEST(CampaignTally, CountsAndRoundTrips) {
  CampaignTally tally;
  tally.add("cpu/host", resultWith(oracle::Verdict::Pass, 0.5, 0.25));
  tally.add("cpu/host", resultWith(oracle::Verdict::Mismatch, 0.5, 0.25));
  tally.add("distribute/nvptx",
            resultWith(oracle::Verdict::MallocInKernel, 1, 0));
  tally.cases = 2;
  tally.seconds = 3.5;
  EXPECT_EQ(tally.findings, 2);
  EXPECT_DOUBLE_EQ(tally.compileSeconds, 2.0);
  EXPECT_DOUBLE_EQ(tally.runSeconds, 0.5);
  std::map<oracle::Verdict, int64_t> verdicts = tally.verdicts();
  EXPECT_EQ(verdicts[oracle::Verdict::Pass], 1);
  EXPECT_EQ(verdicts[oracle::Verdict::Mismatch], 1);
  EXPECT_EQ(verdicts[oracle::Verdict::MallocInKernel], 1);
  EXPECT_EQ(formatVerdictCounts(verdicts),
            "pass=1 malloc-in-kernel=1 mismatch=1");

  Result<CampaignTally> back = CampaignTally::fromJson(tally.toJson().dump());
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(back->cases, 2);
  EXPECT_EQ(back->findings, 2);
  EXPECT_DOUBLE_EQ(back->seconds, 3.5);
  EXPECT_EQ(back->byRun, tally.byRun);
}

TEST(CampaignTally, StagesAndCoverageRoundTrip) {
  CampaignTally tally;
  CaseResult ran = resultWith(oracle::Verdict::Pass, 0.5, 0.25);
  ran.compiled = ran.ran = true;
  CaseResult mismatch = resultWith(oracle::Verdict::Mismatch, 0.5, 0.25);
  mismatch.compiled = mismatch.ran = true;
  mismatch.stage = Stage(Step::Compare);
  CaseResult crashed = resultWith(oracle::Verdict::RuntimeError, 0.5, 0.25);
  crashed.compiled = crashed.ran = true;
  crashed.stage = Stage(Step::Run);
  CaseResult staticOnly = resultWith(oracle::Verdict::Pass, 1, 0);
  staticOnly.compiled = true;
  for (const CaseResult &r : {ran, mismatch, crashed, staticOnly})
    tally.add("cpu/host", r);
  EXPECT_EQ(tally.stages["compiled"], 4);
  EXPECT_EQ(tally.stages["ran"], 3);
  EXPECT_EQ(tally.stages["compared"], 2);
  tally.addCoverage({"family=sort", "type=f32"});
  tally.addCoverage({"family=sort"});
  EXPECT_EQ(tally.coverage["family=sort"], 2);
  Result<CampaignTally> back = CampaignTally::fromJson(tally.toJson().dump());
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(back->stages, tally.stages);
  EXPECT_EQ(back->coverage, tally.coverage);
  EXPECT_TRUE(back->compileStages.empty());
  // Compile seconds by stage add up over the runs and survive a resume.
  CaseResult timed = resultWith(oracle::Verdict::Pass, 0.75, 0);
  timed.compileStages = {{"canonicalize", 0.25}, {"host-object", 0.5}};
  tally.add("cpu/host", timed);
  tally.add("cpu/host", timed);
  EXPECT_DOUBLE_EQ(tally.compileStages["host-object"], 1.0);
  Result<CampaignTally> timedBack =
      CampaignTally::fromJson(tally.toJson().dump());
  ASSERT_TRUE(timedBack.ok()) << timedBack.message();
  EXPECT_EQ(timedBack->compileStages, tally.compileStages);
  // A tally stored before stages and coverage were counted reads back
  // without them.
  nlohmann::json old = tally.toJson();
  old.erase("stages");
  old.erase("coverage");
  old.erase("compile_stages");
  Result<CampaignTally> older = CampaignTally::fromJson(old.dump());
  ASSERT_TRUE(older.ok()) << older.message();
  EXPECT_TRUE(older->stages.empty() && older->coverage.empty() &&
              older->compileStages.empty());
}

TEST(CampaignTally, MalformedTalliesAreErrors) {
  for (const char *text :
       {"", "[]", "{\"cases\": 1}", "{\"cases\": \"one\", \"findings\": 0, "
        "\"seconds\": 0, \"compile_seconds\": 0, \"run_seconds\": 0, "
        "\"runs_verdicts\": {}}"}) {
    Result<CampaignTally> tally = CampaignTally::fromJson(text);
    EXPECT_FALSE(tally.ok()) << text;
    if (!tally.ok())
      EXPECT_NE(tally.message().find("the stored campaign tally is malformed"),
                std::string::npos);
  }
  Result<CampaignTally> unknown = CampaignTally::fromJson(
      "{\"cases\": 1, \"findings\": 0, \"seconds\": 0, \"compile_seconds\": "
      "0, \"run_seconds\": 0, \"runs_verdicts\": {\"cpu/host\": "
      "{\"exploded\": 1}}}");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.message().find("unknown verdict 'exploded'"),
            std::string::npos);
}
