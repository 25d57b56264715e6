//===- FuzzInputTest.cpp - libFuzzer bytes to a case ----------------------===//
//
// The fuzz target's reading of bytes: the same bytes give the same program
// text and data; the empty input is a program too; over many random byte
// strings nearly all are valid programs the reference evaluates, both
// families and every key type occur, and no two-byte change leaves a
// rejected input crashing the reader.
//
//===----------------------------------------------------------------------===//

#include "generators/MlirEmitter.h"
#include "harness/case/FuzzInput.h"
#include "oracles/Reference.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

using namespace sift;
using namespace sift::harness;

TEST(FuzzInput, SameBytesSameCase) {
  std::vector<uint8_t> bytes = {3, 141, 59, 26, 53, 58, 97, 93, 23, 84, 62};
  auto a = fuzzCaseFromBytes(bytes.data(), bytes.size());
  auto b = fuzzCaseFromBytes(bytes.data(), bytes.size());
  ASSERT_TRUE(a && b);
  EXPECT_EQ(gen::emitMlir(a->program), gen::emitMlir(b->program));
  EXPECT_EQ(a->inputs, b->inputs);
  auto empty = fuzzCaseFromBytes(nullptr, 0);
  ASSERT_TRUE(empty);
  EXPECT_EQ(gen::validate(empty->program), "");
}

TEST(FuzzInput, RandomBytesAreMostlyPrograms) {
  std::mt19937 rng(2026);
  int valid = 0;
  std::set<std::string> kinds;
  std::set<ElementType> keyTypes;
  const int total = 1000;
  for (int i = 0; i < total; ++i) {
    std::vector<uint8_t> bytes(rng() % 64);
    for (uint8_t &b : bytes)
      b = static_cast<uint8_t>(rng());
    auto c = fuzzCaseFromBytes(bytes.data(), bytes.size());
    if (!c)
      continue;
    ++valid;
    ASSERT_EQ(gen::validate(c->program), "");
    auto outputs = oracle::evaluate(c->program, c->inputs);
    ASSERT_TRUE(outputs.ok()) << outputs.message() << "\n"
                              << gen::emitMlir(c->program);
    for (const gen::Op &op : c->program.ops)
      if (op.kind == gen::OpKind::Sort || op.kind == gen::OpKind::TopK) {
        kinds.insert(std::string(gen::toString(op.kind)));
        keyTypes.insert(c->program.values[op.operands[0]].elementType);
      }
  }
  EXPECT_GE(valid, total * 9 / 10);
  EXPECT_EQ(kinds.size(), 2u);
  EXPECT_EQ(keyTypes.size(), 6u);
}
