//===- CoverageTags.h - What a generated program exercises ------*- C++ -*-===//
//
// The features of a program a campaign's report counts to show what the
// generator covered: the families of its ops, their key element types, key
// sizes and k, as "axis=value" tags (one per op and axis; a program with
// two sorts of f32 counts family=sort twice). Buckets keep the tags few.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/ProgramModel.h"

#include <string>
#include <vector>

namespace sift::gen {

/// The coverage tags of `program`: "family=sort", "type=f32",
/// "size=257-4096" (elements of the key; NMS: of its scores), "k=2-8"
/// (top-k only), in op order.
std::vector<std::string> coverageTags(const Program &program);

/// The size bucket of `elements`: "0", "1-16", "17-256", "257-4096",
/// "4097-65536", ">65536".
std::string sizeBucket(int64_t elements);

/// The k bucket: "0", "1", "2-8", "9-64", ">64".
std::string kBucket(int64_t k);

} // namespace sift::gen
