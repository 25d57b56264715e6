//===- SiftBufferization.cpp - BufferizableOpInterface for sift ops -------===//
//
// External models that let One-Shot Bufferize turn sift ops on tensors into
// the same ops on memrefs. Both are destination style: a sort
// reads and writes its outs in place; a top-k reads its input and only writes
// its outs, so the outs' old contents never need copying.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"

using namespace mlir;
using namespace mlir::bufferization;

namespace {

/// Replaces the tensor op with a copy of itself on the operands' buffers and
/// the outs' buffers as the results' replacements.
LogicalResult bufferizeInPlace(Operation *op, RewriterBase &rewriter,
                               const BufferizationOptions &options,
                               BufferizationState &state) {
  auto dps = cast<DestinationStyleOpInterface>(op);
  SmallVector<Value> buffers;
  for (Value operand : op->getOperands()) {
    FailureOr<Value> buffer = getBuffer(rewriter, operand, options, state);
    if (failed(buffer))
      return failure();
    buffers.push_back(*buffer);
  }
  rewriter.setInsertionPoint(op);
  Operation *newOp = sift::cloneWithOperands(rewriter, op, TypeRange{}, buffers);
  SmallVector<Value> replacements;
  for (OpOperand &init : dps.getDpsInitsMutable())
    replacements.push_back(newOp->getOperand(init.getOperandNumber()));
  replaceOpWithBufferizedValues(rewriter, op, replacements);
  return success();
}

struct SortOpBufferization final
    : DstBufferizableOpInterfaceExternalModel<SortOpBufferization,
                                              sift::SortOp> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    return bufferizeInPlace(op, rewriter, options, state);
  }
};

/// Ops that read their ins and only write their outs (top-k; NMS, whose
/// slots past a class's count are left as they were and never read).
template <typename OpTy>
struct WriteOnlyOutsBufferization final
    : DstBufferizableOpInterfaceExternalModel<WriteOnlyOutsBufferization<OpTy>,
                                              OpTy> {
  /// The outs are written whole and never read.
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &state) const {
    return !cast<DestinationStyleOpInterface>(op).isDpsInit(&operand);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    return bufferizeInPlace(op, rewriter, options, state);
  }
};

} // namespace

void sift::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, SiftDialect *) {
    SortOp::attachInterface<SortOpBufferization>(*context);
    TopkOp::attachInterface<WriteOnlyOutsBufferization<TopkOp>>(*context);
    NmsOp::attachInterface<WriteOnlyOutsBufferization<NmsOp>>(*context);
    NmsPerClassOp::attachInterface<WriteOnlyOutsBufferization<NmsPerClassOp>>(
        *context);
  });
}
