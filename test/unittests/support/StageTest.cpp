//===- StageTest.cpp - The step that decided a verdict ---------------------===//
//
// A stage's text round-trips (with and without a pass or device), unknown
// steps do not parse, and only compile, static and serialize count as
// decided by the compile.
//
//===----------------------------------------------------------------------===//

#include "support/Stage.h"

#include <gtest/gtest.h>

using namespace sift;

TEST(Stage, TextRoundTrips) {
  for (const char *text : {"", "generate", "compile", "compile:sift-lower-to-loops",
                           "static:convert-parallel-loops-to-gpu", "serialize",
                           "run:cuda", "compare"}) {
    std::optional<Stage> stage = Stage::parse(text);
    ASSERT_TRUE(stage.has_value()) << text;
    EXPECT_EQ(stage->text(), text);
  }
  EXPECT_EQ(Stage::parse("static:a-pass")->where, "a-pass");
  EXPECT_EQ(Stage::parse("run:hip")->step, Step::Run);
  EXPECT_FALSE(Stage::parse("compiled").has_value());
  EXPECT_FALSE(Stage::parse(":pass").has_value());
}

TEST(Stage, DecidedByTheCompile) {
  EXPECT_TRUE(Stage(Step::Compile, "p").byCompile());
  EXPECT_TRUE(Stage(Step::Static).byCompile());
  EXPECT_TRUE(Stage(Step::Serialize).byCompile());
  for (Step step : {Step::None, Step::Generate, Step::Parse, Step::Reference,
                    Step::Run, Step::Compare})
    EXPECT_FALSE(Stage(step).byCompile()) << toString(step);
}
