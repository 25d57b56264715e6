//===- EmuKernelAbi.h - The emu ABI as the compiler builds it ---*- C++ -*-===//
//
// What sift-lower-target-kernels-for-host (LowerTargetKernelsForHost.cpp)
// and its access checks (EmuAccessChecks.cpp) share: runtime/emu/EmuAbi.h's
// context layout, flags and warp kinds as the LLVM dialect sees them, the
// reads and callback calls of the context, and the access instrumentation.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include "llvm/ADT/StringMap.h"

#include <optional>

namespace sift::emuabi {

using namespace mlir;

/// SiftEmuContext's fields, in order (EmuAbi.h).
enum ContextField : int32_t {
  kThreadId = 0,
  kBlockId = 1,
  kBlockDim = 2,
  kGridDim = 3,
  kWorkgroupMemory = 4,
  kBarrier = 5,
  kOutOfBounds = 6,
  kDevice = 7,
  kAccess = 8,
  kWarp = 9,
  kBufferBytes = 10,
  kWarpSize = 11,
  kLaneId = 12,
};

/// EmuAbi.h's access flags and warp kinds.
constexpr int32_t kAccessWrite = 1;
constexpr int32_t kAccessWorkgroup = 2;
constexpr int32_t kAccessAtomic = 4;
constexpr int32_t kAccessReadsOld = 8;
constexpr int32_t kWarpSync = 0;
constexpr int32_t kWarpBallot = 1;

constexpr unsigned kWorkgroupSpace = 3;
/// The byte a thread's private memory holds before the kernel writes it
/// (the runtime's workgroup memory holds 0xA5, its global memory 0x5A).
constexpr int64_t kPrivateFill = 0xA5;
constexpr unsigned kPrivateSpace = 5;

inline LLVM::LLVMStructType contextType(MLIRContext *context) {
  Type u32 = IntegerType::get(context, 32);
  Type u32x3 = LLVM::LLVMArrayType::get(u32, 3);
  Type ptr = LLVM::LLVMPointerType::get(context);
  return LLVM::LLVMStructType::getLiteral(context,
                                          {u32x3, u32x3, u32x3, u32x3, ptr, ptr,
                                           ptr, ptr, ptr, ptr, ptr, u32, u32});
}

/// Reads of the context within one kernel, built at the builder's place.
struct Context {
  Value pointer;

  Value field(OpBuilder &b, Location loc, int32_t field,
              std::optional<int32_t> element = std::nullopt) const {
    SmallVector<LLVM::GEPArg> indices{0, field};
    if (element)
      indices.push_back(*element);
    return LLVM::GEPOp::create(b, loc,
                               LLVM::LLVMPointerType::get(b.getContext()),
                               contextType(b.getContext()), pointer, indices);
  }
  Value u32(OpBuilder &b, Location loc, int32_t f,
            std::optional<int32_t> element = std::nullopt) const {
    return LLVM::LoadOp::create(b, loc, b.getI32Type(),
                                field(b, loc, f, element));
  }
  Value ptr(OpBuilder &b, Location loc, int32_t f) const {
    return LLVM::LoadOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext()), field(b, loc, f));
  }
  /// Calls the callback in field `f` with the context and `args`.
  Value call(OpBuilder &b, Location loc, int32_t f, Type result,
             ValueRange args) const {
    SmallVector<Type> types{pointer.getType()};
    llvm::append_range(types, args.getTypes());
    SmallVector<Value> operands{ptr(b, loc, f), pointer};
    llvm::append_range(operands, args);
    auto call = LLVM::CallOp::create(
        b, loc, LLVM::LLVMFunctionType::get(result, types), operands);
    return call.getNumResults() ? call.getResult() : Value();
  }
};

inline Value constant(OpBuilder &b, Location loc, Type type, int64_t value) {
  return LLVM::ConstantOp::create(b, loc, type, value);
}

/// Bounds checks and access reports for every load, store and atomic of
/// `kernel` (whose entry block loads its parameters, `c` its context), and
/// poison in every alloca of a known size. `workgroupGlobals`: the
/// module's address-space-3 globals by name.
void instrumentAccesses(LLVM::LLVMFuncOp kernel, const Context &c,
                        const llvm::StringMap<LLVM::GlobalOp> &workgroupGlobals,
                        const DataLayout &layout);

} // namespace sift::emuabi
