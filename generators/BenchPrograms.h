//===- BenchPrograms.h - The fixed programs `harness bench` times -*- C++ -*-===//
//
// Model-sized programs, one op each, that every pipeline of every system is
// timed on beside the vendors' libraries (CUB, PyTorch): top-k of
// [1024, 1024] k = 8, [4096, 4096] k = 8, [64, 65536] k = 64, [1, 1M] k = 8
// (largest, along the last dimension, values and indices); sort of
// [1024, 1024], [16384, 128], [1, 1M] (f32 ascending along the last
// dimension, values); NMS of 1000, 5000 and 20000 boxes (one batch, one
// class, corner boxes, IoU 0.5, no score threshold, every box may be kept).
// Inputs are f32, drawn from each program's fixed seed in `uniform` mode, so
// the GPU host regenerates them instead of carrying them.
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
  /// "topk-1024x1024-k8", "sort-1x1048576", "nms-5000".
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

/// The benchmark named `name`, or nullopt.
std::optional<BenchProgram> findBenchProgram(const std::string &name);

} // namespace sift::gen
