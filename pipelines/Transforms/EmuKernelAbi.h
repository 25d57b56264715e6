//===- EmuKernelAbi.h - The emu ABI as the compiler builds it ---*- C++ -*-===//
//
// What sift-lower-target-kernels-for-host (LowerTargetKernelsForHost.cpp)
// and its access checks (EmuAccessChecks.cpp) share: runtime/emu/EmuAbi.h's
// context layout, flags and warp kinds as the LLVM dialect sees them, the
// reads and callback calls of the context, and the access instrumentation.
// The flags and kinds are EmuAbi.h's own; the field indices are checked
// against its struct's offsets below.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/emu/EmuAbi.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include "llvm/ADT/StringMap.h"

#include <cstddef>
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
  kGridWaited = 13,
};

/// contextType's layout on a 64-bit host: four u32x3 ids, seven pointers,
/// three u32s (padded to the pointers' alignment). Each field index must sit at
/// its EmuAbi.h offset.
constexpr size_t kPointersAt = 4 * 3 * sizeof(uint32_t);
constexpr size_t pointerFieldOffset(ContextField field) {
  return kPointersAt + (field - kWorkgroupMemory) * sizeof(void *);
}
static_assert(offsetof(SiftEmuContext, threadId) == 0 * 12 &&
                  offsetof(SiftEmuContext, blockId) == kBlockId * 12 &&
                  offsetof(SiftEmuContext, blockDim) == kBlockDim * 12 &&
                  offsetof(SiftEmuContext, gridDim) == kGridDim * 12);
static_assert(
    offsetof(SiftEmuContext, workgroupMemory) ==
        pointerFieldOffset(kWorkgroupMemory) &&
    offsetof(SiftEmuContext, barrier) == pointerFieldOffset(kBarrier) &&
    offsetof(SiftEmuContext, outOfBounds) == pointerFieldOffset(kOutOfBounds) &&
    offsetof(SiftEmuContext, device) == pointerFieldOffset(kDevice) &&
    offsetof(SiftEmuContext, access) == pointerFieldOffset(kAccess) &&
    offsetof(SiftEmuContext, warp) == pointerFieldOffset(kWarp) &&
    offsetof(SiftEmuContext, bufferBytes) == pointerFieldOffset(kBufferBytes));
static_assert(offsetof(SiftEmuContext, warpSize) ==
                      pointerFieldOffset(kWarpSize) &&
                  offsetof(SiftEmuContext, laneId) ==
                      offsetof(SiftEmuContext, warpSize) + sizeof(uint32_t) &&
                  offsetof(SiftEmuContext, gridWaited) ==
                      offsetof(SiftEmuContext, laneId) + sizeof(uint32_t) &&
                  sizeof(SiftEmuContext) ==
                      pointerFieldOffset(kWarpSize) + 4 * sizeof(uint32_t),
              "EmuAbi.h's SiftEmuContext and contextType() disagree");

/// EmuAbi.h's access flags and warp kinds, as the i32 constants the
/// kernels pass.
constexpr int32_t kAccessWrite = kSiftEmuAccessWrite;
constexpr int32_t kAccessWorkgroup = kSiftEmuAccessWorkgroup;
constexpr int32_t kAccessAtomic = kSiftEmuAccessAtomic;
constexpr int32_t kAccessReadsOld = kSiftEmuAccessReadsOld;
constexpr int32_t kWarpSync = kSiftEmuWarpSync;
constexpr int32_t kWarpBallot = kSiftEmuWarpBallot;
constexpr int32_t kWarpShuffle = kSiftEmuWarpShuffle;
constexpr int32_t kGridWait = kSiftEmuGridWait;

constexpr unsigned kWorkgroupSpace = 3;
/// The byte a thread's private memory holds before the kernel writes it
/// (the runtime's workgroup memory holds 0xA5, its global memory 0x5A).
constexpr int64_t kPrivateFill = 0xA5;
constexpr unsigned kPrivateSpace = 5;

inline LLVM::LLVMStructType contextType(MLIRContext *context) {
  Type u32 = IntegerType::get(context, 32);
  Type u32x3 = LLVM::LLVMArrayType::get(u32, 3);
  Type ptr = LLVM::LLVMPointerType::get(context);
  return LLVM::LLVMStructType::getLiteral(context, {u32x3, u32x3, u32x3, u32x3,
                                                    ptr, ptr, ptr, ptr, ptr,
                                                    ptr, ptr, u32, u32, u32});
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
