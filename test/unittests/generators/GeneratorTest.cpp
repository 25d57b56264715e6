//===- test/unittests/generators/GeneratorTest.cpp - Determinism, validity ===//
//
// The same seed gives byte-identical MLIR and identical inputs; different
// seeds differ; every generated program over thousands of seeds passes
// validate(), keeps within the policy's limits and is well defined (float
// constants exact in f16, slices in bounds, no op the model forbids).
//
//===----------------------------------------------------------------------===//
#include "generators/Half.h"
#include "generators/InputGenerator.h"
#include "generators/MlirEmitter.h"
#include "generators/ProgramGenerator.h"
#include "generators/ShapeGenerator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace sift;
using namespace sift::gen;

TEST(Generator, SameSeedSameTextAndInputs) {
  Policy policy;
  for (uint64_t index = 0; index < 50; ++index) {
    uint64_t seed = caseSeed(1234, index);
    Program a = generateProgram(policy, seed);
    Program b = generateProgram(policy, seed);
    ASSERT_EQ(emitMlir(a), emitMlir(b)) << "seed " << seed;
    std::vector<HostTensor> inA = generateInputs(a, InputMode::Mixed, seed);
    std::vector<HostTensor> inB = generateInputs(b, InputMode::Mixed, seed);
    ASSERT_EQ(inA.size(), a.inputs.size());
    ASSERT_EQ(inA, inB) << "seed " << seed;
  }
}

TEST(Generator, DifferentSeedsDiffer) {
  Policy policy;
  std::set<std::string> texts;
  for (uint64_t seed = 0; seed < 100; ++seed)
    texts.insert(emitMlir(generateProgram(policy, seed)));
  EXPECT_GE(texts.size(), 95u);
  // Inputs differ across seeds for one program too.
  auto hasData = [](const Program &p) {
    return !p.inputs.empty() &&
           p.values[static_cast<size_t>(p.inputs[0])].numElements() > 1;
  };
  Program p = generateProgram(policy, 5);
  for (uint64_t s = 0; s < 100 && !hasData(p); ++s)
    p = generateProgram(policy, s);
  ASSERT_TRUE(hasData(p));
  bool differs = false;
  for (uint64_t s = 1; s < 10; ++s)
    differs |= generateInputs(p, InputMode::Uniform, s) !=
               generateInputs(p, InputMode::Uniform, 0);
  EXPECT_TRUE(differs);
}

TEST(Generator, ProgramAndInputStreamsAreIndependent) {
  // The data of a case depends on the seed, not on the program's draws:
  // two policies giving different programs with the same input types get the
  // same first input tensor.
  TensorType type{ElementType::F32, {16}};
  Rng a = Rng(77).fork(kInputStream), b = Rng(77).fork(kInputStream);
  EXPECT_EQ(generateInput(type, InputMode::Special, a),
            generateInput(type, InputMode::Special, b));
}

TEST(Generator, EveryProgramIsValidAndWithinLimits) {
  Policy policy;
  for (uint64_t index = 0; index < 2000; ++index) {
    uint64_t seed = caseSeed(42, index);
    Program p = generateProgram(policy, seed);
    ASSERT_EQ(validate(p), "") << "seed " << seed << "\n" << emitMlir(p);
    ASSERT_FALSE(p.outputs.empty());
    int mainOps = 0;
    std::set<int> topkInputs; // an aimed program's second top-k: same input
    for (const Op &op : p.ops) {
      if (op.kind == OpKind::TopK)
        topkInputs.insert(op.operands[0]);
      if (op.kind == OpKind::Nms) {
        ++mainOps;
        const TensorType &boxes = p.values[static_cast<size_t>(op.operands[0])];
        const TensorType &scores =
            p.values[static_cast<size_t>(op.operands[1])];
        EXPECT_GE(boxes.shape[0], 1);
        EXPECT_LE(boxes.shape[0], policy.nms.maxBatches);
        EXPECT_GE(scores.shape[1], 1);
        EXPECT_LE(scores.shape[1], policy.nms.maxClasses);
        EXPECT_LE(boxes.shape[1], policy.nms.maxBoxes);
        EXPECT_GE(op.iouThreshold, 0.0f);
        EXPECT_LE(op.iouThreshold, 1.0f);
      }
      // A top-k whose indices gather is the nms family's pre-filter (sized
      // by NmsPolicy, checked by NmsGeneratorTest.cpp), not a main op.
      bool prefilter =
          op.kind == OpKind::TopK &&
          std::any_of(p.ops.begin(), p.ops.end(), [&](const Op &other) {
            return other.kind == OpKind::Gather &&
                   other.operands[1] == op.results[1];
          });
      if ((op.kind == OpKind::Sort || op.kind == OpKind::TopK) && !prefilter) {
        ++mainOps;
        const TensorType &in = p.values[static_cast<size_t>(op.operands[0])];
        EXPECT_GE(in.rank(), 1);
        EXPECT_LE(in.rank(), policy.shapes.maxRank);
        EXPECT_LE(in.shape[static_cast<size_t>(op.dimension)],
                  policy.shapes.maxWorkDimSize);
        if (op.kind == OpKind::Sort) {
          EXPECT_LE(op.operands.size(), 3u);
          // Sort operands are distinct values.
          std::set<int> distinct(op.operands.begin(), op.operands.end());
          EXPECT_EQ(distinct.size(), op.operands.size()) << "seed " << seed;
        }
      }
      if (op.kind == OpKind::Elementwise && descriptorOf(op.ew).hasConstant &&
          isFloat(p.values[static_cast<size_t>(op.operands[0])].elementType)) {
        EXPECT_TRUE(isExactFloat(op.constant, ElementType::F16));
      }
    }
    // One main op, or an aimed top-k program's two top-k's of one input
    // (TopKPolicy::secondTopkChance).
    if (mainOps == 2 && topkInputs.size() == 1)
      mainOps = 1;
    EXPECT_EQ(mainOps, 1) << "seed " << seed;
    // Generated programs define every value (validate() tolerates orphans).
    size_t defined = p.inputs.size();
    for (const Op &op : p.ops)
      defined += op.results.size();
    EXPECT_EQ(defined, p.values.size()) << "seed " << seed;
    for (const TensorType &t : p.values)
      EXPECT_LE(t.numElements(), policy.shapes.maxElements) << "seed " << seed;
    // Outputs are distinct.
    std::set<int> outs(p.outputs.begin(), p.outputs.end());
    EXPECT_EQ(outs.size(), p.outputs.size());
  }
}

TEST(Generator, FamilyWeightsSelectFamily) {
  Policy onlyTopk;
  onlyTopk.familyWeights = {0, 1, 0};
  Policy onlySort;
  onlySort.familyWeights = {1, 0, 0};
  Policy onlyNms;
  onlyNms.familyWeights = {0, 0, 1};
  auto mainKind = [](const Program &p) {
    // An nms program may hold a pre-filter top-k before its nms.
    for (const Op &op : p.ops)
      if (op.kind == OpKind::Nms)
        return op.kind;
    for (const Op &op : p.ops)
      if (op.kind == OpKind::Sort || op.kind == OpKind::TopK ||
          op.kind == OpKind::Nms)
        return op.kind;
    return OpKind::Elementwise;
  };
  for (uint64_t seed = 0; seed < 200; ++seed) {
    ASSERT_EQ(mainKind(generateProgram(onlyTopk, seed)), OpKind::TopK);
    ASSERT_EQ(mainKind(generateProgram(onlySort, seed)), OpKind::Sort);
    ASSERT_EQ(mainKind(generateProgram(onlyNms, seed)), OpKind::Nms);
  }
  // The default policy draws all three.
  std::set<OpKind> kinds;
  for (uint64_t seed = 0; seed < 200; ++seed)
    kinds.insert(mainKind(generateProgram(Policy(), seed)));
  EXPECT_EQ(kinds, (std::set<OpKind>{OpKind::Sort, OpKind::TopK, OpKind::Nms}));
}

TEST(Generator, PolicyLimitsAreRespected) {
  Policy policy;
  policy.shapes.maxRank = 2;
  policy.shapes.maxWorkDimSize = 100;
  policy.shapes.maxElements = 500;
  policy.sort.maxOperands = 1;
  policy.maxProducers = 0;
  policy.maxConsumers = 0;
  policy.sliceChance = 0;
  policy.extraOutputChance = 0;
  policy.topk.sigmoidChance = 0;
  policy.nms.sigmoidChance = 0;
  policy.nms.selectedSliceChance = 0;
  for (uint64_t seed = 0; seed < 500; ++seed) {
    Program p = generateProgram(policy, seed);
    ASSERT_EQ(validate(p), "");
    // NMS tensors have the ranks the op defines (3, and 2 for selected);
    // maxRank applies to sort and top-k.
    bool nms = std::any_of(p.ops.begin(), p.ops.end(),
                           [](const Op &op) { return op.kind == OpKind::Nms; });
    for (const TensorType &t : p.values) {
      EXPECT_LE(t.rank(), nms ? 3 : 2);
      EXPECT_LE(t.numElements(), 500);
    }
    for (const Op &op : p.ops) {
      EXPECT_NE(op.kind, OpKind::Slice);
      EXPECT_NE(op.kind, OpKind::Elementwise);
      if (op.kind == OpKind::Sort) {
        EXPECT_EQ(op.operands.size(), 1u);
      }
    }
  }
}

TEST(Generator, DisabledElementwiseKindsNeverAppear) {
  Policy policy;
  policy.ewWeights.fill(0);
  policy.ewWeights[static_cast<size_t>(EwKind::NegF)] = 1;
  policy.ewWeights[static_cast<size_t>(EwKind::AddI)] = 1;
  policy.topk.sigmoidChance = 0;
  policy.nms.sigmoidChance = 0;
  for (uint64_t seed = 0; seed < 500; ++seed) {
    Program p = generateProgram(policy, seed);
    ASSERT_EQ(validate(p), "");
    for (const Op &op : p.ops)
      if (op.kind == OpKind::Elementwise) {
        EXPECT_TRUE(op.ew == EwKind::NegF || op.ew == EwKind::AddI)
            << toString(op.ew);
      }
  }
}

TEST(ShapeGenerator, CapShrinksOtherDimensions) {
  std::vector<int64_t> shape = {64, 4093, 64, 3};
  capElements(shape, 1, 1 << 16);
  EXPECT_EQ(shape[1], 4093);
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  EXPECT_LE(n, 1 << 16);
  std::vector<int64_t> withZero = {0, 5000, 5000};
  capElements(withZero, 1, 10);
  EXPECT_EQ(withZero, (std::vector<int64_t>{0, 5000, 5000}));
  EXPECT_TRUE(isPrime(4093));
  EXPECT_FALSE(isPrime(4095));
  EXPECT_FALSE(isPrime(1));
}

TEST(ShapeGenerator, SizesStayInRange) {
  Rng rng(3);
  Policy policy;
  for (int i = 0; i < 3000; ++i) {
    int64_t max = rng.uniform(0, 5000);
    int64_t size = generateDimSize(policy.shapes.workDimClassWeights, max, rng);
    ASSERT_GE(size, 0);
    ASSERT_LE(size, max);
  }
}

TEST(ShapeGenerator, LargeSizesReachLongRowsInTheInnermostThree) {
  Policy large;
  large.setSizes(SizeMode::Large);
  Policy defaults;
  int beyondDefault = 0;
  for (uint64_t seed = 0; seed < 400; ++seed) {
    Rng rng(seed), again(seed);
    ShapeChoice choice = generateShape(large.shapes, rng);
    int64_t rank = static_cast<int64_t>(choice.shape.size());
    EXPECT_GE(choice.dimension, std::max<int64_t>(0, rank - 3)) << seed;
    int64_t elements = 1;
    for (int64_t d : choice.shape)
      elements *= d;
    EXPECT_LE(elements, int64_t{1} << 20) << seed;
    if (choice.shape[choice.dimension] > 4096)
      ++beyondDefault;
    ShapeChoice small = generateShape(defaults.shapes, again);
    EXPECT_LE(small.shape[small.dimension], 4096) << seed;
  }
  // The work dimension goes past the default's 4096 in a fair share.
  EXPECT_GT(beyondDefault, 20);
  // Back to default: the same limits as a fresh policy.
  large.setSizes(SizeMode::Default);
  EXPECT_EQ(large.shapes.maxWorkDimSize, defaults.shapes.maxWorkDimSize);
  EXPECT_EQ(large.shapes.maxElements, defaults.shapes.maxElements);
  EXPECT_FALSE(large.shapes.workDimInnermostThree);
}

TEST(Policy, PolicyForMatchesTheCampaignsPolicy) {
  Policy policy = policyFor("topk,nms", true, SizeMode::Large);
  EXPECT_EQ(policy.familyWeights[static_cast<size_t>(Family::Sort)], 0u);
  EXPECT_EQ(policy.familyWeights[static_cast<size_t>(Family::TopK)], 1u);
  EXPECT_EQ(policy.familyWeights[static_cast<size_t>(Family::Nms)], 1u);
  EXPECT_FALSE(policy.allowInexactKeys);
  EXPECT_EQ(policy.shapes.maxWorkDimSize, int64_t{1} << 20);
  // The same program as the harness's for that policy and seed.
  Policy harness;
  harness.familyWeights = {0, 1, 1};
  harness.allowInexactKeys = false;
  harness.setSizes(SizeMode::Large);
  for (uint64_t seed = 0; seed < 20; ++seed)
    EXPECT_EQ(emitMlir(generateProgram(policy, seed)),
              emitMlir(generateProgram(harness, seed)));
}

TEST(PolicyNames, RoundTrip) {
  for (SizeMode m : kAllSizeModes)
    EXPECT_EQ(parseSizeMode(toString(m)), m);
  EXPECT_EQ(parseSizeMode("huge"), std::nullopt);
  for (Family f : kAllFamilies)
    EXPECT_EQ(parseFamily(toString(f)), f);
  for (InputMode m : kAllInputModes)
    EXPECT_EQ(parseInputMode(toString(m)), m);
  EXPECT_EQ(toString(Family::TopK), "topk");
  EXPECT_EQ(toString(Family::Nms), "nms");
  EXPECT_EQ(parseFamily("nms"), Family::Nms);
  EXPECT_EQ(toString(InputMode::Special), "special");
  EXPECT_EQ(parseInputMode("nan-heavy"), std::nullopt);
  EXPECT_EQ(parseFamily("nonmax"), std::nullopt);
  EXPECT_EQ(Policy().familyWeights.size(), kNumFamilies);
  EXPECT_EQ(Policy().inputMode, InputMode::Mixed);
}

namespace {
/// The ops (by index) whose results flow into value `id`.
std::set<size_t> upstreamOps(const Program &p, int id) {
  std::set<size_t> ops;
  std::vector<int> work = {id};
  while (!work.empty()) {
    int v = work.back();
    work.pop_back();
    for (size_t i = 0; i < p.ops.size(); ++i)
      for (int r : p.ops[i].results)
        if (r == v && ops.insert(i).second)
          work.insert(work.end(), p.ops[i].operands.begin(),
                      p.ops[i].operands.end());
  }
  return ops;
}
} // namespace

TEST(Generator, ExactKeysKeepSigmoidAwayFromKeys) {
  Policy policy;
  policy.allowInexactKeys = false;
  policy.topk.sigmoidChance = 1.0; // ignored without inexact keys
  policy.nms.sigmoidChance = 1.0;  // the same
  int sigmoids = 0;
  for (uint64_t seed = 0; seed < 1500; ++seed) {
    Program p = generateProgram(policy, seed);
    ASSERT_EQ(validate(p), "");
    for (const Op &op : p.ops) {
      sigmoids += op.kind == OpKind::Elementwise && op.ew == EwKind::Sigmoid;
      if (op.kind != OpKind::Sort && op.kind != OpKind::TopK &&
          op.kind != OpKind::Nms)
        continue;
      // Sort keys and top-k inputs; both NMS operands.
      std::vector<int> keys = {op.operands[0]};
      if (op.kind == OpKind::Nms)
        keys.push_back(op.operands[1]);
      for (int key : keys)
        for (size_t i : upstreamOps(p, key)) {
          const Op &up = p.ops[i];
          ASSERT_FALSE(up.kind == OpKind::Elementwise &&
                       up.ew == EwKind::Sigmoid)
              << "seed " << seed;
        }
    }
  }
  // Sigmoids still appear elsewhere (payloads, consumers).
  EXPECT_GT(sigmoids, 10);
}

TEST(Generator, SlicesCutSomething) {
  Policy policy;
  policy.sliceChance = 1.0;
  int slices = 0;
  for (uint64_t seed = 0; seed < 500; ++seed) {
    Program p = generateProgram(policy, seed);
    ASSERT_EQ(validate(p), "");
    for (const Op &op : p.ops) {
      if (op.kind != OpKind::Slice)
        continue;
      ++slices;
      const TensorType &src = p.values[static_cast<size_t>(op.operands[0])];
      bool identity = true;
      for (size_t i = 0; i < src.shape.size(); ++i)
        identity &= op.offsets[i] == 0 && op.strides[i] == 1 &&
                    op.sizes[i] == src.shape[i];
      EXPECT_FALSE(identity) << "seed " << seed;
    }
  }
  EXPECT_GT(slices, 300);
}
