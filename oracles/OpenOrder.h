//===- oracles/OpenOrder.h - Ties a policy leaves open ----------*- C++ -*-===//
//
// What ComparisonPolicy.cpp takes from OpenOrder.cpp: which sorts and
// top-ks leave an order open on these inputs, the comparison of their
// direct results without the order of their tied elements, and the read of
// one element's bits. Internal to the oracles library.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "oracles/ComparisonPolicy.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace sift::oracle::detail {

/// The bits of element `flat` of `t`.
uint64_t bitsAt(const HostTensor &t, int64_t flat);

/// Which ops leave an order open on these inputs, from the intermediate
/// values.
std::vector<bool> openOps(const ComparisonPolicy &policy,
                          const gen::Program &program,
                          const std::vector<HostTensor> &values);

/// Compares output `o`, a direct result of open op `op`, without the order
/// of its tied elements.
std::optional<Mismatch>
compareOpen(const ComparisonPolicy &policy, const gen::Program &program,
            const gen::Op &op, int o, uint64_t ulps,
            const std::vector<HostTensor> &values,
            const std::vector<HostTensor> &expectedOutputs,
            const std::vector<HostTensor> &actual);

} // namespace sift::oracle::detail
