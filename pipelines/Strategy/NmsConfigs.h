//===- NmsConfigs.h - Lowering configs of sift.nms_per_class -*- C++ -*-===//
//
// The strategy's choice for an NMS per class (NmsConfigs.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Strategy/DomainConfigs.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace sift {

/// NMS per class: both GPU pipelines build a blocked suppression mask
/// over the GPU and walk it a workgroup per (batch, class) (mask_blocks)
/// when the mask fits (tileandfuse only when a thread's walk, N
/// candidates against up to max_out kept, is long); distribute may also
/// give each (batch, class) a workgroup that builds its mask and walks it
/// alone (workgroup_row); otherwise one (batch, class) per thread, its
/// selection in place. `maxWorkgroupMemory`: the chip's budget in bytes;
/// `random`: draw among what fits (--random-config) from `rng`, the draw
/// then aimed at the masks' edges from `aim` when given (NmsConfigs.cpp).
LoweringConfigAttr nmsConfig(NmsPerClassOp nms, Pipeline kind,
                             llvm::ArrayRef<int64_t> domain,
                             int64_t maxWorkgroupMemory, bool random,
                             ConfigRng &rng, ConfigRng *aim = nullptr);

} // namespace sift
