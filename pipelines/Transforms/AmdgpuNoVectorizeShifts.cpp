//===- AmdgpuNoVectorizeShifts.cpp - Around an LLVM 22 AMDGPU crash -------===//
//
// LLVM 22's AMDGPU backend crashes selecting a vector `lshr` by a variable
// amount of sift's float key order bits (Passes.td has the details), which
// the vectorizers make from two scalar digits of a radix sort pass whose
// number its kernel loads. Such kernels go without the vectorizers:
// `noimplicitfloat` turns off the loop, SLP and load/store vectorizers for a
// function. Only kernels with a right shift by a non-constant amount are
// touched.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"

#define DEBUG_TYPE "sift-amdgpu-no-vectorize-shifts"

namespace sift {
#define GEN_PASS_DEF_AMDGPUNOVECTORIZESHIFTS
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kNoImplicitFloat = "noimplicitfloat";

struct AmdgpuNoVectorizeShiftsPass final
    : sift::impl::AmdgpuNoVectorizeShiftsBase<AmdgpuNoVectorizeShiftsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      bool variable = func.walk([](LLVM::LShrOp shift) {
                            return matchPattern(shift.getRhs(), m_Constant())
                                       ? WalkResult::advance()
                                       : WalkResult::interrupt();
                          })
                          .wasInterrupted();
      if (!variable)
        continue;
      SmallVector<Attribute> passthrough;
      if (ArrayAttr existing = func.getPassthroughAttr())
        passthrough.assign(existing.begin(), existing.end());
      auto attr = StringAttr::get(&getContext(), kNoImplicitFloat);
      if (llvm::is_contained(passthrough, attr))
        continue;
      passthrough.push_back(attr);
      func.setPassthroughAttr(ArrayAttr::get(&getContext(), passthrough));
    }
  }
};

} // namespace
