//===- test/unittests/generators/EdgeAimTest.cpp - Aims at the edges ------===//
//
// The generators' aims at the GPU algorithms' edges: aimed top-k programs
// work along the innermost dimension at whole and partial tiles with an
// edge k, and most take a second top-k; half the sorts work at such sizes;
// aimed NMS programs take small or
// block-edge N, room in max_out and an IoU threshold below 1; cluster-grid
// boxes overlap above the threshold within their clusters; without an
// aim, the programs are what they were; the rows a top-k reads get
// outliers on the side it keeps, and only they change.
//
//===----------------------------------------------------------------------===//
#include "generators/InputGenerator.h"
#include "generators/NmsGenerator.h"
#include "generators/ProgramGenerator.h"
#include "support/HostTensor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

using namespace sift;
using namespace sift::gen;

namespace {

/// m * 2^j + d for 2^j in 16..1024, m in 1..4, d in -1..1: its d, or
/// nullopt when `n` is no edge size.
std::optional<int64_t> edgeOffset(int64_t n) {
  for (int64_t tile = 16; tile <= 1024; tile *= 2)
    for (int64_t m = 1; m <= 4; ++m)
      for (int64_t d = -1; d <= 1; ++d)
        if (m * tile + d == n)
          return d;
  return std::nullopt;
}

std::vector<const Op *> topks(const Program &p) {
  std::vector<const Op *> ops;
  for (const Op &op : p.ops)
    if (op.kind == OpKind::TopK)
      ops.push_back(&op);
  return ops;
}

const Op *nmsOf(const Program &p) {
  for (const Op &op : p.ops)
    if (op.kind == OpKind::Nms)
      return &op;
  return nullptr;
}

} // namespace

TEST(TopkEdgeAim, AimedProgramsWorkAtTheEdges) {
  Policy policy;
  policy.familyWeights = {0, 1, 0};
  int aimed = 0, seconds = 0, bf16 = 0;
  std::set<int64_t> offsets;
  const int kSeeds = 600;
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    Program p = generateProgram(policy, seed);
    std::vector<const Op *> ops = topks(p);
    ASSERT_GE(ops.size(), 1u);
    ASSERT_LE(ops.size(), 2u) << "seed " << seed;
    const Op &first = *ops[0];
    const TensorType &in = p.values[static_cast<size_t>(first.operands[0])];
    const int64_t n = in.shape[static_cast<size_t>(first.dimension)];
    std::optional<int64_t> d = edgeOffset(n);
    if (first.dimension + 1 == in.rank() && d && first.k >= 1 &&
        first.k <= std::min<int64_t>(256, n)) {
      ++aimed;
      offsets.insert(*d);
      bf16 += in.elementType == ElementType::BF16;
    }
    if (ops.size() == 2) {
      // The second: the same input and dimension, the other direction, an
      // edge k, both results returned.
      const Op &second = *ops[1];
      ++seconds;
      EXPECT_EQ(second.operands[0], first.operands[0]);
      EXPECT_EQ(second.dimension, first.dimension);
      EXPECT_NE(second.largest, first.largest);
      EXPECT_GE(second.k, 1);
      EXPECT_LE(second.k, std::min<int64_t>(256, n));
      for (int r : second.results)
        EXPECT_NE(std::find(p.outputs.begin(), p.outputs.end(), r),
                  p.outputs.end());
    }
  }
  // edgeChance 0.7, secondTopkChance 0.9 of those.
  EXPECT_GE(aimed, kSeeds * 6 / 10);
  EXPECT_GE(seconds, kSeeds * 55 / 100);
  EXPECT_LE(seconds, kSeeds * 72 / 100);
  EXPECT_EQ(offsets, (std::set<int64_t>{-1, 0, 1}));
  EXPECT_GE(bf16, aimed / 10);
}

TEST(TopkEdgeAim, WithoutTheAimTheProgramsAreThoseOfBefore) {
  // An aimed program overrides the main stream's draws and never skips
  // one: with no aim, no program has a second top-k, and a seed whose
  // aimed program kept the main draw's shape, k and type is otherwise the
  // same program.
  Policy aimedPolicy;
  aimedPolicy.familyWeights = {0, 1, 0};
  Policy plain = aimedPolicy;
  plain.topk.edgeChance = 0;
  int same = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    Program p = generateProgram(plain, seed);
    ASSERT_EQ(topks(p).size(), 1u);
    Program a = generateProgram(aimedPolicy, seed);
    same += a.values == p.values && a.ops.size() == p.ops.size();
  }
  // The 30 % that are not aimed at least.
  EXPECT_GE(same, 60);
}

TEST(SortEdgeAim, HalfOfTheSortsWorkAtTheEdges) {
  Policy policy;
  policy.familyWeights = {1, 0, 0};
  Policy plain = policy;
  plain.sort.edgeChance = 0;
  int aimed = 0, plainAtEdges = 0;
  const int kSeeds = 600;
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    for (const Policy *p : {&policy, &plain}) {
      Program program = generateProgram(*p, seed);
      for (const Op &op : program.ops) {
        if (op.kind != OpKind::Sort)
          continue;
        const TensorType &in =
            program.values[static_cast<size_t>(op.operands[0])];
        bool edge = op.dimension + 1 == in.rank() &&
                    edgeOffset(in.shape[static_cast<size_t>(op.dimension)]);
        (p == &policy ? aimed : plainAtEdges) += edge;
      }
    }
  }
  // edgeChance 0.5, and the main draw's sizes are seldom edge sizes.
  EXPECT_GE(aimed, kSeeds * 45 / 100);
  EXPECT_LE(plainAtEdges, kSeeds * 15 / 100);
}

TEST(NmsEdgeAim, EachAimTakesItsSizes) {
  for (int aim = 0; aim < 3; ++aim) {
    Policy policy;
    policy.familyWeights = {0, 0, 1};
    policy.nms.aimWeights = {0, 0, 0};
    policy.nms.aimWeights[static_cast<size_t>(aim)] = 1;
    int iouOne = 0;
    std::set<int64_t> sizes;
    for (uint64_t seed = 0; seed < 400; ++seed) {
      Program p = generateProgram(policy, seed);
      const Op *nms = nmsOf(p);
      ASSERT_NE(nms, nullptr);
      const TensorType &scores =
          p.values[static_cast<size_t>(nms->operands[1])];
      const int64_t n = scores.shape[2];
      sizes.insert(n);
      iouOne += nms->iouThreshold >= 1.0f;
      if (aim == 0)
        continue;
      if (aim == 1) {
        EXPECT_GE(n, 16) << "seed " << seed;
        EXPECT_LE(n, 42) << "seed " << seed;
      } else {
        int64_t q = (n + 1) / 64;
        EXPECT_TRUE(q == 1 || q == 2 || q == 3 || q == 17 || q == 18)
            << "seed " << seed << ": n " << n;
        EXPECT_LE(std::abs(n - 64 * q), 1) << "seed " << seed;
      }
      // Room to keep: N, above N, or at least half of N.
      EXPECT_GE(nms->maxOutputBoxesPerClass, std::max<int64_t>(1, n / 2))
          << "seed " << seed;
      EXPECT_LT(nms->iouThreshold, 1.0f) << "seed " << seed;
    }
    if (aim == 0) {
      // The main draw: thresholds of 1 and sizes anywhere.
      EXPECT_GT(iouOne, 10);
      EXPECT_GT(sizes.size(), 100u);
    } else if (aim == 2) {
      EXPECT_TRUE(sizes.count(63) && sizes.count(64) && sizes.count(65) &&
                  sizes.count(1087) && sizes.count(1153));
    }
  }
}

TEST(NmsEdgeAim, ClusterGridClustersOverlapAboveTheThreshold) {
  Rng rng(7);
  for (bool center : {false, true})
    for (float threshold : {0.0f, 0.3f, 0.5f, 0.9f}) {
      TensorType type{ElementType::F32, {2, 150, 4}};
      HostTensor t = generateNmsBoxes(type, BoxMode::ClusterGrid, center,
                                      threshold, rng);
      struct Box {
        double y1, x1, y2, x2;
      };
      std::vector<Box> boxes;
      int flipped = 0;
      for (int64_t i = 0; i < 300; ++i) {
        double v[4];
        for (int k = 0; k < 4; ++k) {
          v[k] = elementAsDouble(t, i * 4 + k);
          ASSERT_EQ(v[k], std::floor(v[k])) << "integer coordinates";
        }
        Box b = center ? Box{v[1] - v[3] / 2, v[0] - v[2] / 2, v[1] + v[3] / 2,
                             v[0] + v[2] / 2}
                       : Box{v[0], v[1], v[2], v[3]};
        flipped += b.y1 > b.y2 || b.x1 > b.x2;
        boxes.push_back({std::min(b.y1, b.y2), std::min(b.x1, b.x2),
                         std::max(b.y1, b.y2), std::max(b.x1, b.x2)});
      }
      if (!center) {
        EXPECT_GT(flipped, 20) << threshold;
      } else {
        EXPECT_EQ(flipped, 0) << threshold;
      }
      // Within a batch, many pairs overlap above the threshold (members
      // of a cluster).
      int above = 0;
      for (int64_t b = 0; b < 2; ++b)
        for (int64_t i = 0; i < 150; ++i)
          for (int64_t j = i + 1; j < 150; ++j) {
            const Box &x = boxes[static_cast<size_t>(b * 150 + i)];
            const Box &y = boxes[static_cast<size_t>(b * 150 + j)];
            double h = std::min(x.y2, y.y2) - std::max(x.y1, y.y1);
            double w = std::min(x.x2, y.x2) - std::max(x.x1, y.x1);
            if (h <= 0 || w <= 0)
              continue;
            double inter = h * w;
            double iou = inter / ((x.y2 - x.y1) * (x.x2 - x.x1) +
                                  (y.y2 - y.y1) * (y.x2 - y.x1) - inter);
            above += iou > threshold;
          }
      EXPECT_GT(above, 100) << "threshold " << threshold;
    }
}

TEST(NmsEdgeAim, MixedInputsFillMostBoxesAsAClusterGrid) {
  Policy policy;
  policy.familyWeights = {0, 0, 1};
  int boxes = 0, grid = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    Program p = generateProgram(policy, seed);
    std::vector<InputFill> fills;
    generateInputs(p, InputMode::Mixed, seed, &fills);
    for (const InputFill &fill : fills)
      if (fill.role == InputFill::Role::NmsBoxes) {
        ++boxes;
        grid += fill.boxMode == BoxMode::ClusterGrid;
      }
    // Explicit modes keep their table.
    generateInputs(p, InputMode::Special, seed, &fills);
    for (const InputFill &fill : fills)
      EXPECT_NE(fill.boxMode, BoxMode::ClusterGrid);
  }
  EXPECT_GE(grid, boxes / 2);
  EXPECT_LE(grid, boxes * 7 / 10);
}

TEST(TopkEdgeAim, MixedInputsGiveTopkRowsOutliersOnTheirSide) {
  // Against generateInput's draws for each input: an input no top-k reads
  // is unchanged (bf16 extremes aside: NmsInputsTest.cpp); in an input a
  // top-k reads, every changed element that is no bf16 extreme is an
  // outlier (at least half the largest finite magnitude, or within 2^16 of
  // an integer limit) on the side some reader keeps, at most 3 a row; and
  // many rows get them.
  const std::set<uint64_t> bf16Extremes = {0xFF80, 0xFF7F, 0xFE80, 0x7F80,
                                           0x7F7F};
  Policy policy;
  policy.familyWeights = {1, 1, 0};
  int rowsWithOutliers = 0, largeSide = 0, smallSide = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    Program p = generateProgram(policy, seed);
    Rng rng = Rng(seed).fork(kInputStream);
    std::vector<HostTensor> got = generateInputs(p, InputMode::Mixed, seed);
    for (size_t i = 0; i < p.inputs.size(); ++i) {
      HostTensor expected = generateInput(
          p.values[static_cast<size_t>(p.inputs[i])], InputMode::Mixed, rng);
      std::vector<const Op *> readers;
      for (const Op &op : p.ops)
        if (op.kind == OpKind::TopK && op.operands[0] == p.inputs[i])
          readers.push_back(&op);
      const bool bf16 = expected.type == ElementType::BF16;
      if (readers.empty()) {
        if (!bf16)
          EXPECT_EQ(got[i], expected) << "seed " << seed;
        continue;
      }
      ASSERT_EQ(got[i].shape, expected.shape);
      const auto dim = static_cast<size_t>(readers.front()->dimension);
      int64_t inner = 1;
      for (size_t d = dim + 1; d < expected.shape.size(); ++d)
        inner *= expected.shape[d];
      const int64_t n = expected.shape[dim];
      std::map<int64_t, int> perRow;
      for (int64_t e = 0; e < expected.numElements(); ++e) {
        if (elementBits(got[i], e) == elementBits(expected, e) ||
            (bf16 && bf16Extremes.count(elementBits(got[i], e))))
          continue;
        double v = elementAsDouble(got[i], e);
        bool large = v > 0;
        if (isFloat(expected.type)) {
          double limit = expected.type == ElementType::F16    ? 65504.0
                         : expected.type == ElementType::BF16 ? 0x1.fep127
                         : expected.type == ElementType::F32
                             ? double(std::numeric_limits<float>::max())
                             : std::numeric_limits<double>::max();
          EXPECT_GE(std::fabs(v), limit / 2) << "seed " << seed;
        } else {
          double limit = expected.type == ElementType::I32
                             ? double(std::numeric_limits<int32_t>::max())
                             : double(std::numeric_limits<int64_t>::max());
          EXPECT_GE(std::fabs(v), limit - 65537.0) << "seed " << seed;
        }
        EXPECT_TRUE(
            std::any_of(readers.begin(), readers.end(),
                        [&](const Op *op) { return op->largest == large; }))
            << "seed " << seed;
        (large ? largeSide : smallSide) += 1;
        int64_t row = (e / (n * inner)) * inner + e % inner;
        EXPECT_LE(++perRow[row], 3) << "seed " << seed;
      }
      rowsWithOutliers += static_cast<int>(perRow.size());
    }
  }
  EXPECT_GE(rowsWithOutliers, 100);
  EXPECT_GE(largeSide, 20);
  EXPECT_GE(smallSide, 20);
}
