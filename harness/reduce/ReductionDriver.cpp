//===- harness/reduce/ReductionDriver.cpp - Which edit, in what order -----===//
//
// The reducer's driver: the candidate edits of a case, coarse first
// (chunks halve, delta-debugging style), each tried only when it makes the
// case smaller and was not found dull before; an interesting one is kept
// and the candidates are rebuilt from it, until none is.
//
//===----------------------------------------------------------------------===//

#include "harness/reduce/Reducer.h"

#include "generators/MlirEmitter.h"

#include <algorithm>
#include <set>

namespace sift::harness {

using gen::Op;
using gen::OpKind;
using gen::Program;
using gen::TensorType;

namespace {

/// A candidate edit, built lazily from the current case.
struct Candidate {
  std::string what;
  std::function<std::optional<ReductionCase>(const ReductionCase &)> build;
};

/// Subsets to try removing from `n` items, delta-debugging style: halves,
/// then quarters, ..., then single items.
std::vector<std::vector<size_t>> chunks(size_t n) {
  std::vector<std::vector<size_t>> out;
  for (size_t size = std::max<size_t>(n / 2, 1);; size /= 2) {
    for (size_t start = 0; start < n; start += size) {
      std::vector<size_t> chunk;
      for (size_t i = start; i < std::min(n, start + size); ++i)
        chunk.push_back(i);
      out.push_back(std::move(chunk));
    }
    if (size == 1)
      break;
  }
  return out;
}

std::string plural(size_t n, const char *what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

/// Fewer outputs, or an output returned one op earlier (the op's operand).
void addOutputEdits(const Program &p, std::vector<Candidate> &out) {
  if (p.outputs.size() > 1)
    for (const std::vector<size_t> &chunk : chunks(p.outputs.size())) {
      std::vector<int> keep;
      for (size_t i = 0; i < p.outputs.size(); ++i)
        if (std::find(chunk.begin(), chunk.end(), i) == chunk.end())
          keep.push_back(p.outputs[i]);
      out.push_back({"drop " + plural(chunk.size(), "output"),
                     [keep](const ReductionCase &c) {
                       return keepOutputs(c, keep);
                     }});
    }
  for (size_t i = 0; i < p.outputs.size(); ++i)
    for (const Op &op : p.ops)
      if (op.kind != OpKind::Sort && op.kind != OpKind::TopK &&
          op.kind != OpKind::Nms && op.results[0] == p.outputs[i])
        for (int operand : op.operands) {
          std::vector<int> outputs = p.outputs;
          outputs[i] = operand;
          out.push_back({"return the operand of an output's " +
                             std::string(gen::toString(op.kind)),
                         [outputs](const ReductionCase &c) {
                           return keepOutputs(c, outputs);
                         }});
        }
}

/// Fewer ops: results replaced by inputs (producers first in each chunk),
/// elementwise ops bypassed, sort operands dropped.
void addOpEdits(const Program &p, std::vector<Candidate> &out) {
  std::vector<int> results;
  for (const Op &op : p.ops)
    if (op.kind == OpKind::Elementwise || op.kind == OpKind::Iota ||
        op.kind == OpKind::Slice || op.kind == OpKind::Gather)
      results.push_back(op.results[0]);
  for (const std::vector<size_t> &chunk : chunks(results.size())) {
    std::vector<int> cut;
    for (size_t i : chunk)
      cut.push_back(results[i]);
    out.push_back({"cut " + plural(cut.size(), "value"),
                   [cut](const ReductionCase &c) { return cutValues(c, cut); }});
  }
  for (const Op &op : p.ops)
    if (op.kind == OpKind::Elementwise)
      for (int operand : op.operands) {
        int result = op.results[0];
        out.push_back({"bypass an elementwise " +
                           std::string(gen::toString(op.ew)),
                       [result, operand](const ReductionCase &c) {
                         return bypassValue(c, result, operand);
                       }});
      }
  for (size_t i = 0; i < p.ops.size(); ++i)
    if (p.ops[i].kind == OpKind::Sort)
      for (size_t j = p.ops[i].operands.size(); j-- > 1;)
        out.push_back({"drop a sort operand", [i, j](const ReductionCase &c) {
                         return dropSortOperand(c, i, j);
                       }});
}

/// Smaller shapes (each extent, largest first, to small sizes first) and
/// smaller k.
void addSizeEdits(const Program &p, std::vector<Candidate> &out) {
  std::set<int64_t> extents;
  for (const TensorType &t : p.values)
    for (int64_t d : t.shape)
      if (d > 1)
        extents.insert(d);
  for (auto it = extents.rbegin(); it != extents.rend(); ++it) {
    int64_t e = *it;
    for (int64_t to : std::set<int64_t>{1, 2, 3, 4, 5, 6, 7, 8, e / 4, e / 2,
                                        e - 2, e - 1})
      if (to >= 1 && to < e)
        out.push_back({"shrink extent " + std::to_string(e) + " to " +
                           std::to_string(to),
                       [e, to](const ReductionCase &c) {
                         return shrinkExtent(c, e, to);
                       }});
  }
  for (size_t i = 0; i < p.ops.size(); ++i)
    if (p.ops[i].kind == OpKind::TopK) {
      int64_t k = p.ops[i].k;
      for (int64_t to : std::set<int64_t>{0, 1, k / 2, k - 1})
        if (to >= 0 && to < k)
          out.push_back({"k " + std::to_string(k) + " to " + std::to_string(to),
                         [i, to](const ReductionCase &c) {
                           return setTopK(c, i, to);
                         }});
    }
}

/// Every edit worth trying on `c`, coarse ones first: outputs, ops, sizes,
/// then plainer element types and simpler data.
std::vector<Candidate> candidates(const ReductionCase &c) {
  std::vector<Candidate> out;
  addOutputEdits(c.program, out);
  addOpEdits(c.program, out);
  addSizeEdits(c.program, out);
  for (auto [from, to] : {std::pair{ElementType::F64, ElementType::F32},
                          {ElementType::F16, ElementType::F32},
                          {ElementType::BF16, ElementType::F32},
                          {ElementType::I64, ElementType::I32}})
    out.push_back({std::string(toString(from)) + " to " +
                       std::string(toString(to)),
                   [from, to](const ReductionCase &c) {
                     return retype(c, from, to);
                   }});
  for (size_t i = 0; i < c.inputs.size(); ++i)
    out.push_back({"zero input " + std::to_string(i),
                   [i](const ReductionCase &c) { return zeroInput(c, i); }});
  return out;
}

} // namespace

ReductionCase reduce(ReductionCase start, const InterestingFn &interesting,
                     const AcceptedFn &onAccepted, ReductionStats &stats) {
  ReductionCase current = std::move(start);
  // Candidates already tested and found dull (the same program text and
  // data can come back in a later round).
  std::set<std::string> dull;
  auto key = [](const ReductionCase &c) {
    std::string text = gen::emitMlir(c.program);
    for (const HostTensor &t : c.inputs)
      text.append(reinterpret_cast<const char *>(t.data.data()), t.data.size());
    return text;
  };
  // Each accepted edit lowers caseSize, so this ends; each round rebuilds
  // the candidates from the case the last edit left.
  for (bool progress = true; progress;) {
    progress = false;
    CaseSize size = caseSize(current);
    for (const Candidate &candidate : candidates(current)) {
      std::optional<ReductionCase> next = candidate.build(current);
      if (!next || !(caseSize(*next) < size))
        continue;
      std::string nextKey = key(*next);
      if (dull.count(nextKey))
        continue;
      ++stats.tests;
      if (!interesting(*next)) {
        dull.insert(std::move(nextKey));
        continue;
      }
      ++stats.accepted;
      current = std::move(*next);
      if (onAccepted)
        onAccepted(candidate.what, current);
      progress = true;
      break;
    }
  }
  return current;
}

} // namespace sift::harness
