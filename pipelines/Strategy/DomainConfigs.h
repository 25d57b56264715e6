//===- DomainConfigs.h - Tiles and threads of a domain ------*- C++ -*-===//
//-*-===//
//
// What sift-select-lowering-strategy builds every config from: the seeded
// generator of random configs, and the default and random tiles and
// threads of an op's static iteration domain (DomainConfigs.cpp). The
// choice of algorithm stays in SelectLoweringStrategy.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Dialect/SiftDialect.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace sift {

/// A small deterministic generator (splitmix64) for random configs.
struct ConfigRng {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n).
  int64_t below(int64_t n) { return static_cast<int64_t>(next() % n); }
};

/// Workgroups a grid may have along y and z (CUDA's limit; x has 2^31 - 1).
inline constexpr int64_t kMaxGridYZ = 65535;

/// The default: the innermost dimension of `domain` gets up to
/// `maxThreads` threads (its size rounded up to a power of two), the next
/// ones what is left; one point a thread.
LoweringConfigAttr defaultConfig(mlir::MLIRContext *context,
                                 llvm::ArrayRef<int64_t> domain,
                                 int64_t maxThreads, Algorithm algorithm);

/// A random valid config: powers of two per innermost dimension within the
/// 1024-thread limit, workgroup tiles along y and z that keep the grid
/// within kMaxGridYZ, and a random per-thread tile dividing each, with at
/// most `maxPerThread` domain points per thread (a thread's tile of a sift
/// op is that many rows, each a per-thread temporary in tileandfuse). A
/// draw of more than `spreadAbove` points a thread is then spread over more
/// threads or workgroups, with no further draw (kRandomElementwisePoints).
LoweringConfigAttr randomConfig(mlir::MLIRContext *context,
                                llvm::ArrayRef<int64_t> domain,
                                Algorithm algorithm, ConfigRng &rng,
                                int64_t maxPerThread = INT64_MAX,
                                int64_t spreadAbove = INT64_MAX);

/// The most points a random elementwise config gives one thread: on the
/// H200 a campaign's tileandfuse and distribute kernels of 32,768 points a
/// thread (4 threads a workgroup) took 19 ms (seed 1403, case 220), over
/// the 5 ms a campaign's 99th percentile may take.
inline constexpr int64_t kRandomElementwisePoints = 1024;

} // namespace sift
