//===- test/unittests/generators/CoverageTest.cpp - What the spec demands -===//
//
// Over a few thousand seeds of the default policy, the generators must reach
// every case the spec asks for: every key type, 1/2/3 sort operands, every
// order and comparator, ranks 1-4, a sort dimension that is not the last,
// work-dimension sizes 0, 1 and prime, k = 0 and k = n, largest and smallest,
// top-k values-only / indices-only / both, unused sort results, argsort iotas,
// slices, sigmoids, and every elementwise kind; and nms programs (whose own
// coverage NmsGeneratorTest.cpp checks).
//
//===----------------------------------------------------------------------===//
#include "generators/CoverageTags.h"
#include "generators/OpDescriptors.h"
#include "generators/ProgramGenerator.h"
#include "generators/ShapeGenerator.h"

#include <algorithm>
#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace sift;
using namespace sift::gen;

namespace {

bool isUsed(const Program &p, int id) {
  for (const Op &op : p.ops)
    for (int operand : op.operands)
      if (operand == id)
        return true;
  for (int out : p.outputs)
    if (out == id)
      return true;
  return false;
}

struct Coverage {
  std::set<ElementType> sortKeyTypes, topkTypes;
  std::set<size_t> sortOperandCounts;
  std::set<SortOrder> orders;
  std::set<std::pair<ComparatorKind, bool>> comparators; // (kind, float key)
  std::set<int64_t> ranks;
  std::set<EwKind> ewKinds;
  int sortDimNotLast = 0, topkDimNotLast = 0;
  int size0 = 0, size1 = 0, sizePrime = 0, sizeLarge = 0;
  int k0 = 0, kN = 0, kMid = 0, largest = 0, smallest = 0;
  int topkBoth = 0, topkValuesOnly = 0, topkIndicesOnly = 0;
  int sortDropped = 0, iotaPayload = 0, slices = 0, sigmoidBeforeTopk = 0;
  int sigmoids = 0, reusedOperand = 0, nms = 0;
};

Coverage collect(uint64_t campaign, uint64_t count) {
  Policy policy;
  Coverage c;
  for (uint64_t i = 0; i < count; ++i) {
    Program p = generateProgram(policy, caseSeed(campaign, i));
    std::map<int, const Op *> definer;
    for (const Op &op : p.ops)
      for (int r : op.results)
        definer[r] = &op;
    for (const Op &op : p.ops) {
      switch (op.kind) {
      case OpKind::Elementwise:
        c.ewKinds.insert(op.ew);
        c.sigmoids += op.ew == EwKind::Sigmoid;
        break;
      case OpKind::Slice: ++c.slices; break;
      case OpKind::Iota: break;
      case OpKind::Nms: ++c.nms; break; // NmsGeneratorTest.cpp covers it
      case OpKind::Gather: break;       // NmsGeneratorTest.cpp covers it
      case OpKind::Sort:
      case OpKind::TopK: {
        const TensorType &in = p.values[static_cast<size_t>(op.operands[0])];
        int64_t n = in.shape[static_cast<size_t>(op.dimension)];
        c.ranks.insert(in.rank());
        c.size0 += n == 0;
        c.size1 += n == 1;
        c.sizePrime += isPrime(n);
        c.sizeLarge += n >= 1000;
        bool notLast = op.dimension != in.rank() - 1;
        if (op.kind == OpKind::Sort) {
          c.sortDimNotLast += notLast;
          c.sortKeyTypes.insert(in.elementType);
          c.sortOperandCounts.insert(op.operands.size());
          c.orders.insert(op.order);
          if (op.order == SortOrder::Comparator)
            c.comparators.insert({op.comparator, isFloat(in.elementType)});
          bool allUsed = true;
          for (int r : op.results)
            allUsed &= isUsed(p, r);
          c.sortDropped += !allUsed;
          for (size_t i = 1; i < op.operands.size(); ++i) {
            auto it = definer.find(op.operands[i]);
            if (it != definer.end() && it->second->kind == OpKind::Iota &&
                it->second->dimension == op.dimension)
              ++c.iotaPayload;
          }
          // A sort operand also read by another op (needs a copy when
          // sorting in place).
          for (int operand : op.operands)
            for (const Op &other : p.ops)
              if (&other != &op)
                for (int x : other.operands)
                  c.reusedOperand += x == operand;
        } else {
          c.topkDimNotLast += notLast;
          c.topkTypes.insert(in.elementType);
          c.k0 += op.k == 0 && n > 0;
          c.kN += op.k == n && n > 1;
          c.kMid += op.k > 1 && op.k < n;
          c.largest += op.largest;
          c.smallest += !op.largest;
          bool values = isUsed(p, op.results[0]);
          bool indices = isUsed(p, op.results[1]);
          c.topkBoth += values && indices;
          c.topkValuesOnly += values && !indices;
          c.topkIndicesOnly += !values && indices;
          auto it = definer.find(op.operands[0]);
          c.sigmoidBeforeTopk += it != definer.end() &&
                                 it->second->kind == OpKind::Elementwise &&
                                 it->second->ew == EwKind::Sigmoid;
        }
        break;
      }
      }
    }
  }
  return c;
}

} // namespace

TEST(Coverage, DefaultPolicyReachesEverySpecCase) {
  Coverage c = collect(2024, 4000);
  EXPECT_EQ(c.sortKeyTypes.size(), 6u);
  EXPECT_EQ(c.topkTypes.size(), 6u);
  EXPECT_EQ(c.sortOperandCounts, (std::set<size_t>{1, 2, 3}));
  EXPECT_EQ(c.orders.size(), 3u);
  // less/greater for float and int keys, less_abs (float), less_low_byte (int).
  EXPECT_EQ(c.comparators.size(), 6u);
  EXPECT_TRUE(c.comparators.count({ComparatorKind::LessAbs, true}));
  EXPECT_TRUE(c.comparators.count({ComparatorKind::LessLowByte, false}));
  EXPECT_EQ(c.ranks, (std::set<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(c.ewKinds.size(), kNumEwKinds);
  EXPECT_GT(c.sortDimNotLast, 50);
  EXPECT_GT(c.topkDimNotLast, 50);
  EXPECT_GT(c.size0, 20);
  EXPECT_GT(c.size1, 20);
  EXPECT_GT(c.sizePrime, 100);
  EXPECT_GT(c.sizeLarge, 50);
  EXPECT_GT(c.k0, 20);
  EXPECT_GT(c.kN, 20);
  EXPECT_GT(c.kMid, 20);
  EXPECT_GT(c.largest, 100);
  EXPECT_GT(c.smallest, 100);
  EXPECT_GT(c.topkBoth, 100);
  EXPECT_GT(c.topkValuesOnly, 50);
  EXPECT_GT(c.topkIndicesOnly, 50);
  EXPECT_GT(c.sortDropped, 50);
  EXPECT_GT(c.iotaPayload, 100);
  EXPECT_GT(c.slices, 50);
  EXPECT_GT(c.sigmoidBeforeTopk, 50);
  EXPECT_GT(c.reusedOperand, 20);
  EXPECT_GT(c.nms, 1000);
}

TEST(CoverageTags, OnePerOpAndAxisInBuckets) {
  Program p;
  int x = p.addValue({ElementType::F16, {4, 300}});
  int v = p.addValue({ElementType::F16, {4, 9}});
  int i = p.addValue({ElementType::I64, {4, 9}});
  p.inputs = {x};
  Op topk;
  topk.kind = OpKind::TopK;
  topk.operands = {x};
  topk.results = {v, i};
  topk.dimension = 1;
  topk.k = 9;
  Op negate;
  negate.kind = OpKind::Elementwise;
  negate.ew = EwKind::NegF;
  negate.operands = {v};
  negate.results = {p.addValue({ElementType::F16, {4, 9}})};
  p.ops = {topk, negate};
  p.outputs = {negate.results[0]};
  EXPECT_EQ(coverageTags(p),
            (std::vector<std::string>{"family=topk", "type=f16",
                                      "size=257-4096", "k=9-64"}));
  EXPECT_EQ(sizeBucket(0), "0");
  EXPECT_EQ(sizeBucket(16), "1-16");
  EXPECT_EQ(sizeBucket(17), "17-256");
  EXPECT_EQ(sizeBucket(65536), "4097-65536");
  EXPECT_EQ(sizeBucket(65537), ">65536");
  EXPECT_EQ(kBucket(1), "1");
  EXPECT_EQ(kBucket(8), "2-8");
  EXPECT_EQ(kBucket(65), ">64");
}

TEST(CoverageTags, NmsCountsAsItsOwnFamily) {
  // An NMS program is family nms (it counted as topk once): its size is
  // its scores' box count.
  Program p;
  int boxes = p.addValue({ElementType::F32, {1, 300, 4}});
  int scores = p.addValue({ElementType::F32, {1, 5, 300}});
  int selected = p.addValue({ElementType::I64, {20, 3}});
  p.inputs = {boxes, scores};
  Op nms;
  nms.kind = OpKind::Nms;
  nms.operands = {boxes, scores};
  nms.results = {selected};
  p.ops = {nms};
  p.outputs = {selected};
  std::vector<std::string> tags = coverageTags(p);
  EXPECT_NE(std::find(tags.begin(), tags.end(), "family=nms"), tags.end());
  EXPECT_EQ(std::find(tags.begin(), tags.end(), "family=topk"), tags.end());
  EXPECT_NE(std::find(tags.begin(), tags.end(), "size=257-4096"), tags.end());
}
