//===- PrivateRow.cpp - A thread's row in its private memory --------------===//
//
// The `private_row` algorithm of tileandfuse (PrivateRow.h has its phases
// and limits): inside the loop nest of sift-lower-to-loops, the row at a
// point of the op's domain is copied into per-thread buffers in private
// memory (a split's per-chunk top-k reads its chunk in place instead), a
// rank-1 copy of the op runs its scalar implementation there, and the
// results are copied back. Fault nms-sort-global-temp (IREE #20505),
// recorded on the NMS's score sort by sift-decompose-nms, leaves that
// sort's buffers in the default (global) space: a memref.alloc per thread,
// which the kernel lowering makes malloc.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Kernels/PrivateRow/PrivateRow.h"

#include "pipelines/Dialect/InjectedFaults.h"
#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Kernels/SplitTopk/SplitTopk.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/TilingInterface.h"

using namespace mlir;

namespace {

/// The element of the row at `ivs` at `position` along `dim`.
SmallVector<Value> rowAt(ValueRange ivs, int64_t dim, Value position) {
  SmallVector<Value> indices(ivs.begin(), ivs.end());
  indices.insert(indices.begin() + dim, position);
  return indices;
}

/// Builds `for (e = 0; e < count; ++e) to[toAt(e)] = from[fromAt(e)]`.
void copyRow(OpBuilder &b, Location loc, int64_t count, Value from,
             function_ref<SmallVector<Value>(Value)> fromAt, Value to,
             function_ref<SmallVector<Value>(Value)> toAt) {
  if (count == 0)
    return;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  scf::ForOp::create(b, loc, zero, arith::ConstantIndexOp::create(b, loc, count),
                     one, ValueRange{},
                     [&](OpBuilder &b, Location loc, Value e, ValueRange) {
                       Value v = memref::LoadOp::create(b, loc, from, fromAt(e));
                       memref::StoreOp::create(b, loc, v, to, toAt(e));
                       scf::YieldOp::create(b, loc);
                     });
}

} // namespace

LogicalResult sift::emitPrivateRow(OpBuilder &b, Location loc, Operation *op,
                                   ValueRange ivs) {
  bool global = sift::hasInjectedFault(op, sift::Fault::NmsSortGlobalTemp);
  auto privateSpace = gpu::AddressSpaceAttr::get(
      b.getContext(), gpu::GPUDialect::getPrivateAddressSpace());
  auto privateBuffer = [&](Value operand, int64_t size) -> Value {
    Type element = cast<MemRefType>(operand.getType()).getElementType();
    if (global)
      return memref::AllocOp::create(b, loc, MemRefType::get({size}, element));
    auto type = MemRefType::get({size}, element, MemRefLayoutAttrInterface(),
                                privateSpace);
    return memref::AllocaOp::create(b, loc, type);
  };
  auto self = [](Value e) { return SmallVector<Value>{e}; };
  int64_t dim;
  SmallVector<Value> copiedIn, copiedOut, rowBuffers;
  SmallVector<int64_t> counts;
  if (auto sort = dyn_cast<sift::SortOp>(op)) {
    dim = sort.getDimension();
    int64_t n = sort.getKeyType().getDimSize(dim);
    for (Value operand : sort.getOutputs()) {
      copiedIn.push_back(operand);
      copiedOut.push_back(operand);
      rowBuffers.push_back(privateBuffer(operand, n));
      counts.push_back(n);
    }
  } else {
    auto topk = cast<sift::TopkOp>(op);
    dim = topk.getDimension();
    int64_t n = topk.getInputType().getDimSize(dim);
    int64_t k = static_cast<int64_t>(topk.getK());
    if (op->hasAttr(sift::kSplitPartAttr)) {
      // A split's chunk is read once, in order: the thread walks it where
      // it is (a rank-1 view) and keeps only its k best in private memory.
      auto type = cast<MemRefType>(topk.getInput().getType());
      SmallVector<OpFoldResult> offsets, sizes, strides;
      for (int64_t d = 0, i = 0; d < type.getRank(); ++d) {
        offsets.push_back(d == dim ? OpFoldResult(b.getIndexAttr(0))
                                   : OpFoldResult(ivs[i++]));
        sizes.push_back(b.getIndexAttr(d == dim ? n : 1));
        strides.push_back(b.getIndexAttr(1));
      }
      auto rowType = memref::SubViewOp::inferRankReducedResultType(
          {n}, type, offsets, sizes, strides);
      rowBuffers.push_back(memref::SubViewOp::create(
          b, loc, cast<MemRefType>(rowType), topk.getInput(), offsets, sizes,
          strides));
    } else {
      copiedIn.push_back(topk.getInput());
      rowBuffers.push_back(privateBuffer(topk.getInput(), n));
    }
    counts = {n, k, k};
    for (Value out : {topk.getValuesInit(), topk.getIndicesInit()}) {
      copiedOut.push_back(out);
      rowBuffers.push_back(privateBuffer(out, topk.getK()));
    }
  }
  auto inRow = [&](Value e) { return rowAt(ivs, dim, e); };
  for (auto [i, operand] : llvm::enumerate(copiedIn))
    copyRow(b, loc, counts[i], operand, inRow, rowBuffers[i], self);
  Operation *rowOp = sift::cloneWithOperands(b, op, TypeRange{}, rowBuffers);
  if (auto sort = dyn_cast<sift::SortOp>(rowOp))
    sort.setDimension(0);
  else
    cast<sift::TopkOp>(rowOp).setDimension(0);
  LogicalResult status = cast<TilingInterface>(rowOp)
                             .generateScalarImplementation(b, loc, ValueRange{});
  rowOp->erase();
  size_t firstOut = rowBuffers.size() - copiedOut.size();
  for (auto [i, operand] : llvm::enumerate(copiedOut))
    copyRow(b, loc, counts[firstOut + i], rowBuffers[firstOut + i], self,
            operand, inRow);
  return status;
}
