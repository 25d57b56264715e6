//===- HandPrograms.h - Small programs built by hand for emitter tests -*- C++ -*-===//
//
// What every emitter's test needs: a tensor type in one call, a substring
// check, and the argsort program (a key and an iota sorted together), so
// each format's test spells the same program.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/ProgramModel.h"

#include <string>
#include <vector>

namespace sift::gen::hand {

inline TensorType t(ElementType e, std::vector<int64_t> shape) {
  return TensorType{e, std::move(shape)};
}

inline bool contains(const std::string &text, const std::string &needle) {
  return text.find(needle) != std::string::npos;
}

/// arg0: `key`[4x8]; op0: iota i64 dim 1; op1: sort(arg0, iota) dim 1 in
/// `order` (or by `comparator`); results: the sorted key and indices.
inline Program argsortProgram(SortOrder order, ComparatorKind comparator,
                              ElementType key = ElementType::F32) {
  Program p;
  int x = p.addValue(t(key, {4, 8}));
  p.inputs = {x};
  Op iota;
  iota.kind = OpKind::Iota;
  iota.dimension = 1;
  iota.results = {p.addValue(t(ElementType::I64, {4, 8}))};
  p.ops.push_back(iota);
  Op sort;
  sort.kind = OpKind::Sort;
  sort.dimension = 1;
  sort.order = order;
  sort.comparator = comparator;
  sort.operands = {x, iota.results[0]};
  sort.results = {p.addValue(t(key, {4, 8})),
                  p.addValue(t(ElementType::I64, {4, 8}))};
  p.ops.push_back(sort);
  p.outputs = {sort.results[0], sort.results[1]};
  return p;
}

} // namespace sift::gen::hand
