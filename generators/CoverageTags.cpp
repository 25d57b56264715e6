//===- CoverageTags.cpp - What a generated program exercises -------------===//

#include "generators/CoverageTags.h"

#include "support/ElementType.h"

namespace sift::gen {

std::string sizeBucket(int64_t elements) {
  if (elements <= 0)
    return "0";
  int64_t low = 1;
  for (int64_t high = 16; high <= 65536; high *= 16) {
    if (elements <= high)
      return std::to_string(low) + "-" + std::to_string(high);
    low = high + 1;
  }
  return ">65536";
}

std::string kBucket(int64_t k) {
  if (k <= 0)
    return "0";
  if (k == 1)
    return "1";
  if (k <= 8)
    return "2-8";
  if (k <= 64)
    return "9-64";
  return ">64";
}

std::vector<std::string> coverageTags(const Program &program) {
  std::vector<std::string> tags;
  for (const Op &op : program.ops) {
    const char *family = op.kind == OpKind::Sort   ? "sort"
                         : op.kind == OpKind::TopK ? "topk"
                         : op.kind == OpKind::Nms  ? "nms"
                                                   : nullptr;
    if (!family || op.operands.empty())
      continue;
    // NMS: its scores [B, C, N] (the boxes are N x 4 coordinates).
    int key = op.kind == OpKind::Nms && op.operands.size() > 1
                  ? op.operands[1]
                  : op.operands[0];
    if (key < 0 || static_cast<size_t>(key) >= program.values.size())
      continue;
    const TensorType &type = program.values[static_cast<size_t>(key)];
    tags.push_back(std::string("family=") + family);
    tags.push_back("type=" + std::string(toString(type.elementType)));
    tags.push_back("size=" + sizeBucket(type.numElements()));
    if (op.kind == OpKind::TopK)
      tags.push_back("k=" + kBucket(op.k));
  }
  return tags;
}

} // namespace sift::gen
