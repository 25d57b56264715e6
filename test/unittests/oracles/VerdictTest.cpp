//===- test/unittests/oracles/VerdictTest.cpp - Verdict names -------------===//
//
// The stable verdict names round-trip, are unique, and match the list in
// DESIGN.md; every verdict but `pass` is a finding; a failed run's message
// decides between run-timeout, an emu check and runtime-error.
//
//===----------------------------------------------------------------------===//
#include "oracles/Verdict.h"

#include "support/Process.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace sift::oracle {
namespace {

TEST(VerdictTest, NamesRoundTrip) {
  std::set<std::string> names;
  for (Verdict verdict : kAllVerdicts) {
    std::string_view name = toString(verdict);
    EXPECT_NE(name, "?");
    names.insert(std::string(name));
    std::optional<Verdict> parsed = parseVerdict(name);
    ASSERT_TRUE(parsed.has_value()) << name;
    EXPECT_EQ(*parsed, verdict) << name;
  }
  EXPECT_EQ(names.size(), std::size(kAllVerdicts));
}

TEST(VerdictTest, StableNames) {
  const char *expected[] = {"pass",
                            "gen-invalid",
                            "compile-error",
                            "compile-crash",
                            "compile-timeout",
                            "malloc-in-kernel",
                            "unresolved-symbol",
                            "wrong-address-space",
                            "smem-overflow",
                            "undistributed-write",
                            "misaligned-access",
                            "out-of-bounds",
                            "runtime-error",
                            "run-timeout",
                            "mismatch",
                            "nondeterministic",
                            "memcheck-error",
                            "slow-kernel",
                            "barrier-divergence",
                            "data-race",
                            "uninitialized-read",
                            "hang",
                            "unsupported"};
  ASSERT_EQ(std::size(expected), std::size(kAllVerdicts));
  for (size_t i = 0; i < std::size(expected); ++i)
    EXPECT_EQ(toString(kAllVerdicts[i]), expected[i]);
  EXPECT_EQ(toString(Verdict::MallocInKernel), "malloc-in-kernel");
  EXPECT_EQ(toString(Verdict::Nondeterministic), "nondeterministic");
}

TEST(VerdictTest, UnknownNamesDoNotParse) {
  EXPECT_FALSE(parseVerdict("").has_value());
  EXPECT_FALSE(parseVerdict("Pass").has_value());
  EXPECT_FALSE(parseVerdict("mismatch ").has_value());
  EXPECT_FALSE(parseVerdict("gen_invalid").has_value());
}

TEST(VerdictTest, EverythingButPassAndUnsupportedIsAFinding) {
  EXPECT_FALSE(isFinding(Verdict::Pass));
  // A system's own word that it does not implement a program is counted,
  // never a finding.
  EXPECT_FALSE(isFinding(Verdict::Unsupported));
  EXPECT_TRUE(isFinding(Verdict::GenInvalid));
  for (Verdict verdict : kAllVerdicts)
    EXPECT_EQ(isFinding(verdict),
              verdict != Verdict::Pass && verdict != Verdict::Unsupported)
        << toString(verdict);
}

TEST(VerdictTest, AnUnsupportedRunIsUnsupported) {
  std::string message =
      std::string(kUnsupportedPrefix) + "exit code 3 (not implemented)";
  EXPECT_EQ(runFailureVerdict(message, false), Verdict::Unsupported);
  // Only at the start.
  EXPECT_EQ(runFailureVerdict("xla: unsupported: sort", false),
            Verdict::RuntimeError);
}

TEST(VerdictTest, TheEmuDevicesOwnLimitIsUnsupported) {
  // A dispatch whose access checks the emu device cannot hold (a plan of
  // large buffers): its limit, not the kernel's; a GPU's run would not say
  // this, so only the emu device's message counts.
  std::string message = "dispatch 7: unsupported: the emu device cannot "
                        "hold the access checks of a dispatch over 96 MiB "
                        "of buffers (out of memory for their shadow state)";
  EXPECT_EQ(runFailureVerdict(message, true), Verdict::Unsupported);
  EXPECT_EQ(runFailureVerdict(message, false), Verdict::RuntimeError);
  EXPECT_FALSE(isFinding(runFailureVerdict(message, true)));
}

TEST(VerdictTest, AFailedRunsMessageDecidesItsVerdict) {
  // iree-run-module stopped by its own limit (IreeRun.cpp's message): a
  // run-timeout on any device, not a runtime error (a replay with a case
  // timeout above that limit called a slow NMS a runtime-error).
  std::string stopped = std::string(kRunTimedOutPrefix) +
                        "iree-run-module did not finish in 120 s";
  EXPECT_EQ(runFailureVerdict(stopped, false), Verdict::RunTimeout);
  EXPECT_EQ(runFailureVerdict(stopped, true), Verdict::RunTimeout);
  EXPECT_EQ(runFailureDetail(stopped),
            "iree-run-module did not finish in 120 s");
  EXPECT_EQ(runFailureDetail("data-race: thread 3"), "data-race: thread 3");
  // Only at the start: a tool's output that mentions it is not one.
  EXPECT_EQ(runFailureVerdict("iree-run-module: run-timeout: no", false),
            Verdict::RuntimeError);
  // The emu device's checks count on the emu device only.
  EXPECT_EQ(runFailureVerdict("dispatch 2: data-race: thread 3", true),
            Verdict::DataRace);
  EXPECT_EQ(runFailureVerdict("dispatch 2: data-race: thread 3", false),
            Verdict::RuntimeError);
  EXPECT_EQ(runFailureVerdict("CUDA error: an illegal memory access", true),
            Verdict::RuntimeError);
}

} // namespace
} // namespace sift::oracle
