//===- BenchPrograms.h - The fixed programs `harness bench` times -*- C++
//-*-===//
//
// Model-sized programs, one op each, that every pipeline of every system is
// timed on beside the vendors' libraries (CUB, PyTorch): top-k of
// [1024, 1024] k = 8, [4096, 4096] k = 8, [64, 65536] k = 64, [1, 1M] k = 8
// (largest, along the last dimension, values and indices); sort of
// [1024, 1024], [16384, 128], [1, 1M] (f32 ascending along the last
// dimension, values); NMS of 1000, 5000 and 20000 boxes (one batch, one
// class, corner boxes, IoU 0.5, no score threshold, every box may be kept);
// detection heads: 4 images x 80 classes x 1000 boxes and 1 x 80 x 20000
// (a sigmoid over the logits, score threshold 0.5, IoU 0.5, at most 100 a
// class); and two detection heads as production code runs them:
// detect-8x80x8400 and detect-1x80x25200 (images x classes x boxes; the
// top 1,000 boxes of an image by objectness, then NMS per class with score
// threshold 0.05, IoU 0.5, at most 100 a class).
// Today's shapes (MoE routing, sampling, beam search, the argsort behind
// top-p) are also timed with bf16 keys ("...-bf16"). Inputs are drawn from
// each program's fixed seed in `uniform` mode, so the GPU host regenerates
// them instead of carrying them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/Policy.h"
#include "generators/ProgramModel.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sift::gen {

struct BenchProgram {
  /// "topk-1024x1024-k8", "sort-1x1048576", "nms-5000",
  /// "nms-head-4x80x1000".
  std::string name;
  Family family = Family::Sort;
  Program program;
  uint64_t seed = 0;
  InputMode inputs = InputMode::Uniform;
  /// Bytes a kernel must at least read and write (inputs once, outputs
  /// once): the bandwidth floor's numerator.
  uint64_t bytesMoved = 0;
};

/// Every benchmark program, in a fixed order.
std::vector<BenchProgram> benchPrograms();

/// The benchmark named `name`, or nullopt: one of benchPrograms(), or
/// any other shape spelled the same way ("topk-RxC-kK", "sort-RxC",
/// "argsort-RxC", each with an optional "-bf16", "nms-N", "nms-head-BxCxN",
/// "detect-BxCxN";
/// at most 2^24 elements, k at most C), whose
/// seed comes from its
/// sizes, so both hosts make the same inputs from the name alone.
std::optional<BenchProgram> findBenchProgram(const std::string &name);

/// True for the names of benchPrograms().
bool isFixedBench(const std::string &name);

/// The shapes a slow kernel is reduced through, largest first: each rung
/// has about a quarter of the elements of the one before (the longer
/// dimension divided by 4; NMS: a quarter of the boxes), down to 4096
/// elements (16 boxes); k stays, and a row keeps 4k elements at least.
/// The smallest rung on which a kernel is still slow is its reduced case.
std::vector<BenchProgram> benchLadder(const BenchProgram &bench);

} // namespace sift::gen
