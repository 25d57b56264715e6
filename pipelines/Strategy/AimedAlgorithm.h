//===- AimedAlgorithm.h - Random configs aimed at algorithms' edges -*- C++
//-*-===//
//
// A random config's aim (issue 45): after the main stream drew a row's
// algorithm, a stream of its own may take the row to an algorithm whose
// edges the uniform draw rarely reaches (AimedAlgorithm.cpp says which).
// The main stream's draws (every op's algorithm and sizes, which recorded
// cases replay) are those of before the aim.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Strategy/DomainConfigs.h"
#include "pipelines/Strategy/RowConfigs.h"

#include "mlir/IR/Operation.h"

#include <cstdint>
#include <optional>

namespace sift {

/// Mixed into the seed of the aim's stream.
inline constexpr uint64_t kAimStream = 0x61696d6564ULL;

/// The aim for row `row` of `op` (a sift.sort or sift.topk), whose drawn
/// algorithm is `drawn` among the algorithms that fit, `fits`; nullopt
/// when the drawn algorithm stays. Draws from `aim` only.
std::optional<Algorithm> aimRowAlgorithm(mlir::Operation *op,
                                         const RowShape &row,
                                         llvm::ArrayRef<Algorithm> fits,
                                         Algorithm drawn, ConfigRng &aim);

} // namespace sift
