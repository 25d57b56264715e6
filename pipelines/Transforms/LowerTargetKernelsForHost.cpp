//===- LowerTargetKernelsForHost.cpp - The GPU's kernels on the host ------===//
//
// The emu device's half in the compiler since issue 45: it runs the kernels
// the GPU back end gets, not a copy lowered before the GPU tail. Input: a
// gpu.module after convert-gpu-to-nvvm or convert-gpu-to-rocdl (LLVM
// dialect, the target's ops, kernels with bare-pointer parameters,
// workgroup memory as address-space-3 globals). Every kernel becomes
// `void kernel(SiftEmuContext *, void **)` (runtime/emu/EmuAbi.h) in
// place: a new entry block loads the parameters from the second argument
// and branches to the old one.
//
//   - thread, block and grid ids and sizes, the lane id and the warp size
//     (NVVM's special registers, ROCDL's workitem and workgroup ops,
//     mbcnt) read the context;
//   - barriers (nvvm.barrier0, nvvm.barrier, rocdl.barrier,
//     rocdl.s.barrier) call its barrier callback with their number;
//   - a grid wait (nvvm.griddepcontrol wait) calls the warp callback with
//     kSiftEmuGridWait, and `<kernel>_grid_wait` says the kernel has one
//     (the runtime then reports a global access before it as a race);
//     the launch request goes;
//   - warp syncs (nvvm.bar.warp.sync, ROCDL's `fence syncscope
//     ("wavefront")`), ballots (nvvm.vote.sync ballot, rocdl.ballot of
//     i32 or i64: a wave64's i32 ballot keeps the low half, as the
//     hardware's) and shuffles of 32 bits (nvvm.shfl.sync of any kind,
//     with its clamp and segment mask; rocdl.ds_bpermute) call its warp
//     callback with their number; the runtime gathers the lanes, 32 or 64
//     (`<kernel>_warp_size`);
//   - workgroup globals are slices of the context's workgroup memory, at
//     aligned offsets (the total in `<kernel>_workgroup_bytes`);
//   - an access whose pointer comes from a parameter, a workgroup global or
//     an alloca is checked against that allocation's bytes (a parameter's
//     from the context); out of bounds, it goes to the allocation's start
//     and the out-of-bounds callback gets its number, element and size. A
//     pointer of unknown origin (through a select or a block argument) is
//     not checked;
//   - loads, stores and atomics of global and workgroup memory go to the
//     access callback (the race and uninitialized-read checks; atomics,
//     and loads and stores with an ordering, flagged as atomic: two never
//     race), except the loads of a parameter the kernel never writes (no
//     race without a write: the emu device binds distinct buffers);
//   - libdevice's `__nv_<f>` and OCML's `__ocml_<f>_f32/_f64/_f16` become
//     libm's `<f>`, `<f>f` (f16 through f32);
//   - every alloca of a known size is filled with 0xA5 where it is made, so
//     that a read of private memory before a write finds poison, not what
//     the fiber's stack held;
//   - every pointer is the host's (address space 0), other fences go, and
//     the kernels lose their target attributes and calling convention.
//
// A target op the emu device does not model (a vote other than a ballot,
// a shuffle's validity result, a named barrier's parts) fails the pass with its
// name: an unmodelled op must not pass as a no-op.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Transforms/EmuKernelAbi.h"
#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include "llvm/ADT/StringMap.h"

#define DEBUG_TYPE "sift-lower-target-kernels-for-host"

namespace sift {
#define GEN_PASS_DEF_LOWERTARGETKERNELSFORHOST
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;
using namespace sift::emuabi;

namespace {

class LowerTargetKernelsForHostPass final
    : public sift::impl::LowerTargetKernelsForHostBase<
          LowerTargetKernelsForHostPass> {
public:
  using LowerTargetKernelsForHostBase::LowerTargetKernelsForHostBase;

  void runOnOperation() override;

private:
  unsigned lanes(gpu::GPUModuleOp module) const;
  LogicalResult lowerKernel(LLVM::LLVMFuncOp kernel);
  Context newEntry(LLVM::LLVMFuncOp kernel);
  int64_t placeWorkgroupGlobals(LLVM::LLVMFuncOp kernel, const Context &c);
  LogicalResult lowerTargetOps(LLVM::LLVMFuncOp kernel, const Context &c);
  LogicalResult lowerTargetOp(Operation *op, const Context &c,
                              int32_t &barriers, int32_t &warpOps);
  LogicalResult lowerWarpOp(Operation *op, const Context &c, int32_t &warpOps);
  LogicalResult lowerShuffle(Operation *op, const Context &c,
                             int32_t &warpOps);
  void lowerMbcnt(Operation *op, const Context &c);
  LogicalResult lowerMathCalls(gpu::GPUModuleOp module);
  void toHostPointers(gpu::GPUModuleOp module);

  llvm::StringMap<LLVM::GlobalOp> workgroupGlobals_;
  std::optional<DataLayout> layout_;
  unsigned lanes_ = 32;
};

unsigned LowerTargetKernelsForHostPass::lanes(gpu::GPUModuleOp module) const {
  if (warpSize != 0)
    return warpSize;
  if (ArrayAttr targets = module.getTargetsAttr())
    for (Attribute target : targets)
      if (auto rocdl = dyn_cast<ROCDL::ROCDLTargetAttr>(target))
        return rocdl.getChip().starts_with("gfx9") ? 64 : 32;
  return 32;
}

void LowerTargetKernelsForHostPass::runOnOperation() {
  gpu::GPUModuleOp module = getOperation();
  layout_.emplace(DataLayout::closest(module));
  lanes_ = lanes(module);
  if (lanes_ != 32 && lanes_ != 64) {
    module.emitError("sift-lower-target-kernels-for-host: warps of ")
        << lanes_ << " lanes (32 or 64 are emulated)";
    return signalPassFailure();
  }
  workgroupGlobals_.clear();
  for (auto global : module.getOps<LLVM::GlobalOp>())
    if (global.getAddrSpace() == kWorkgroupSpace)
      workgroupGlobals_[global.getSymName()] = global;
  SmallVector<LLVM::LLVMFuncOp> kernels;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    if (func.isExternal())
      continue;
    if (!func->hasAttr(gpu::GPUDialect::getKernelFuncAttrName())) {
      func.emitError("sift-lower-target-kernels-for-host: a device function "
                     "other than a kernel (the emu device runs kernels only)");
      return signalPassFailure();
    }
    kernels.push_back(func);
  }
  for (LLVM::LLVMFuncOp kernel : kernels)
    if (failed(lowerKernel(kernel)))
      return signalPassFailure();
  for (auto &entry : workgroupGlobals_)
    entry.second.erase();
  workgroupGlobals_.clear();
  if (failed(lowerMathCalls(module)))
    return signalPassFailure();
  toHostPointers(module);
}

LogicalResult
LowerTargetKernelsForHostPass::lowerKernel(LLVM::LLVMFuncOp kernel) {
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes()))
    if (!isa<LLVM::LLVMPointerType>(type))
      return kernel.emitError("sift-lower-target-kernels-for-host: kernel "
                              "parameter ")
             << i << " is " << type
             << ", not a pointer (the emu device binds buffers only)";
  bool waitsForGrid = false;
  kernel.walk([&](NVVM::GriddepcontrolOp op) {
    waitsForGrid |= op.getKind() == NVVM::GridDepActionKind::wait;
  });
  Context c = newEntry(kernel);
  sift::emuabi::instrumentAccesses(kernel, c, workgroupGlobals_, *layout_);
  int64_t workgroupBytes = placeWorkgroupGlobals(kernel, c);
  if (failed(lowerTargetOps(kernel, c)))
    return failure();
  // What the runtime reads beside the kernel.
  OpBuilder b(kernel);
  Location loc = kernel.getLoc();
  LLVM::GlobalOp::create(b, loc, b.getI64Type(), /*isConstant=*/true,
                         LLVM::Linkage::External,
                         (kernel.getName() + "_workgroup_bytes").str(),
                         b.getI64IntegerAttr(workgroupBytes));
  LLVM::GlobalOp::create(
      b, loc, b.getI32Type(), /*isConstant=*/true, LLVM::Linkage::External,
      (kernel.getName() + "_warp_size").str(), b.getI32IntegerAttr(lanes_));
  LLVM::GlobalOp::create(b, loc, b.getI32Type(), /*isConstant=*/true,
                         LLVM::Linkage::External,
                         (kernel.getName() + "_grid_wait").str(),
                         b.getI32IntegerAttr(waitsForGrid ? 1 : 0));
  // A host function now: no target attributes, the C calling convention.
  for (NamedAttribute attr : llvm::to_vector(kernel->getDiscardableAttrs()))
    if (attr.getName().strref().starts_with("nvvm.") ||
        attr.getName().strref().starts_with("rocdl."))
      kernel->removeAttr(attr.getName());
  kernel.setCConv(LLVM::CConv::C);
  kernel.setLinkage(LLVM::Linkage::External);
  return success();
}

/// A new entry block (context, buffers) that loads the parameters and
/// branches to the old entry with them.
Context LowerTargetKernelsForHostPass::newEntry(LLVM::LLVMFuncOp kernel) {
  MLIRContext *context = kernel.getContext();
  Type ptr = LLVM::LLVMPointerType::get(context);
  Location loc = kernel.getLoc();
  Block *old = &kernel.getBody().front();
  OpBuilder b(context);
  Block *entry = b.createBlock(old, {ptr, ptr}, {loc, loc});
  Value buffers = entry->getArgument(1);
  SmallVector<Value> parameters;
  for (unsigned i = 0; i < old->getNumArguments(); ++i) {
    Value slot = LLVM::GEPOp::create(b, loc, ptr, ptr, buffers,
                                     ArrayRef<LLVM::GEPArg>{int32_t(i)});
    parameters.push_back(LLVM::LoadOp::create(b, loc, ptr, slot));
  }
  LLVM::BrOp::create(b, loc, parameters, old);
  kernel.setFunctionType(LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(context), {ptr, ptr}));
  kernel.removeArgAttrsAttr();
  kernel.removeResAttrsAttr();
  return Context{entry->getArgument(0)};
}

/// Gives each workgroup global the kernel takes the address of a slice of
/// the context's workgroup memory; returns the bytes.
int64_t
LowerTargetKernelsForHostPass::placeWorkgroupGlobals(LLVM::LLVMFuncOp kernel,
                                                     const Context &c) {
  llvm::StringMap<int64_t> offsets;
  int64_t total = 0;
  SmallVector<LLVM::AddressOfOp> addresses;
  kernel.walk([&](LLVM::AddressOfOp address) {
    if (workgroupGlobals_.count(address.getGlobalName()))
      addresses.push_back(address);
  });
  for (LLVM::AddressOfOp address : addresses) {
    LLVM::GlobalOp global = workgroupGlobals_[address.getGlobalName()];
    auto [it, added] = offsets.try_emplace(global.getSymName(), 0);
    if (added) {
      int64_t align = std::max<int64_t>(16, global.getAlignment().value_or(16));
      total = (total + align - 1) / align * align;
      it->second = total;
      total +=
          int64_t(layout_->getTypeSize(global.getGlobalType()).getFixedValue());
    }
    OpBuilder b(address);
    Location loc = address.getLoc();
    Value memory = c.ptr(b, loc, kWorkgroupMemory);
    Value slice =
        LLVM::GEPOp::create(b, loc, memory.getType(), b.getI8Type(), memory,
                            ArrayRef<LLVM::GEPArg>{int32_t(it->second)});
    address.getResult().replaceAllUsesWith(slice);
    address.erase();
  }
  return (total + 15) / 16 * 16;
}

LogicalResult
LowerTargetKernelsForHostPass::lowerTargetOps(LLVM::LLVMFuncOp kernel,
                                              const Context &c) {
  SmallVector<Operation *> ops;
  kernel.walk([&](Operation *op) {
    StringRef dialect = op->getName().getDialectNamespace();
    if (dialect == "nvvm" || dialect == "rocdl" || isa<LLVM::FenceOp>(op))
      ops.push_back(op);
  });
  int32_t barriers = 0, warpOps = 0;
  for (Operation *op : ops)
    if (failed(lowerTargetOp(op, c, barriers, warpOps)))
      return failure();
  return success();
}

/// The context field and dimension an id or size op reads.
std::optional<std::pair<int32_t, int32_t>> idField(StringRef name) {
  static const llvm::StringMap<std::pair<int32_t, int32_t>> table = [] {
    llvm::StringMap<std::pair<int32_t, int32_t>> t;
    const char *dims[] = {"x", "y", "z"};
    for (int32_t d = 0; d < 3; ++d) {
      std::string x = dims[d];
      t["nvvm.read.ptx.sreg.tid." + x] = {kThreadId, d};
      t["nvvm.read.ptx.sreg.ctaid." + x] = {kBlockId, d};
      t["nvvm.read.ptx.sreg.ntid." + x] = {kBlockDim, d};
      t["nvvm.read.ptx.sreg.nctaid." + x] = {kGridDim, d};
      t["rocdl.workitem.id." + x] = {kThreadId, d};
      t["rocdl.workgroup.id." + x] = {kBlockId, d};
      t["rocdl.workgroup.dim." + x] = {kBlockDim, d};
      t["rocdl.grid.dim." + x] = {kGridDim, d};
    }
    t["nvvm.read.ptx.sreg.laneid"] = {kLaneId, -1};
    t["nvvm.read.ptx.sreg.warpsize"] = {kWarpSize, -1};
    t["rocdl.wavefrontsize"] = {kWarpSize, -1};
    return t;
  }();
  auto it = table.find(name);
  if (it == table.end())
    return std::nullopt;
  return it->second;
}

/// A u32 result as the op's type (i32, or i64 for a ROCDL dim).
Value asType(OpBuilder &b, Location loc, Value u32, Type type) {
  if (type == u32.getType())
    return u32;
  return LLVM::ZExtOp::create(b, loc, type, u32);
}

LogicalResult LowerTargetKernelsForHostPass::lowerTargetOp(Operation *op,
                                                           const Context &c,
                                                           int32_t &barriers,
                                                           int32_t &warpOps) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  StringRef name = op->getName().getStringRef();
  Type i32 = b.getI32Type();
  Type none = LLVM::LLVMVoidType::get(b.getContext());
  if (auto field = idField(name)) {
    std::optional<int32_t> element;
    if (field->second >= 0)
      element = field->second;
    Value value = c.u32(b, loc, field->first, element);
    op->getResult(0).replaceAllUsesWith(
        asType(b, loc, value, op->getResult(0).getType()));
    op->erase();
    return success();
  }
  if (name == "nvvm.barrier0" || name == "nvvm.barrier" ||
      name == "rocdl.barrier" || name == "rocdl.s.barrier") {
    c.call(b, loc, kBarrier, none, {constant(b, loc, i32, ++barriers)});
    op->erase();
    return success();
  }
  if (isa<LLVM::FenceOp>(op) || name == "nvvm.bar.warp.sync" ||
      name == "nvvm.vote.sync" || name == "rocdl.ballot")
    return lowerWarpOp(op, c, warpOps);
  if (name == "nvvm.shfl.sync" || name == "rocdl.ds_bpermute")
    return lowerShuffle(op, c, warpOps);
  if (name == "rocdl.mbcnt.lo" || name == "rocdl.mbcnt.hi") {
    lowerMbcnt(op, c);
    return success();
  }
  if (auto grid = dyn_cast<NVVM::GriddepcontrolOp>(op)) {
    // The launch request has nothing to ask on the emu device, whose
    // dispatches run one after another; the wait marks the thread as past
    // it (the runtime's grid-wait check).
    if (grid.getKind() == NVVM::GridDepActionKind::wait)
      c.call(b, loc, kWarp, b.getI64Type(),
             {constant(b, loc, i32, 0), constant(b, loc, i32, kGridWait),
              constant(b, loc, b.getI64Type(), 0)});
    op->erase();
    return success();
  }
  return op->emitError("sift-lower-target-kernels-for-host: the emu device "
                       "does not model ")
         << name;
}

/// A warp sync (NVVM's bar.warp.sync, ROCDL's wavefront fence) or ballot
/// (nvvm.vote.sync ballot, rocdl.ballot): the context's warp callback with
/// its number `++warpOps`. Other fences go.
LogicalResult LowerTargetKernelsForHostPass::lowerWarpOp(Operation *op,
                                                         const Context &c,
                                                         int32_t &warpOps) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  StringRef name = op->getName().getStringRef();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto warp = [&](int32_t kind, Value vote) {
    return c.call(b, loc, kWarp, i64,
                  {constant(b, loc, i32, ++warpOps),
                   constant(b, loc, i32, kind),
                   vote ? LLVM::ZExtOp::create(b, loc, i64, vote).getResult()
                        : constant(b, loc, i64, 0)});
  };
  auto truncated = [&](Value mask, Type type) -> Value {
    return type == i64 ? mask : LLVM::TruncOp::create(b, loc, type, mask);
  };
  if (auto fence = dyn_cast<LLVM::FenceOp>(op)) {
    // ROCDL's warp sync; other fences order nothing among fibers.
    if (fence.getSyncscope() == "wavefront")
      warp(kWarpSync, Value());
    op->erase();
    return success();
  }
  if (name == "nvvm.bar.warp.sync") {
    warp(kWarpSync, Value());
    op->erase();
    return success();
  }
  if (name == "nvvm.vote.sync" || name == "rocdl.ballot") {
    auto vote = dyn_cast<NVVM::VoteSyncOp>(op);
    if (vote && vote.getKind() != NVVM::VoteSyncKind::ballot)
      return op->emitError("sift-lower-target-kernels-for-host: the emu "
                           "device models a vote's ballot only, not ")
             << *op;
    Value predicate = op->getOperand(op->getNumOperands() - 1);
    Type type = op->getResult(0).getType();
    op->getResult(0).replaceAllUsesWith(
        truncated(warp(kWarpBallot, predicate), type));
    op->erase();
    return success();
  }
  return op->emitError("sift-lower-target-kernels-for-host: the emu device "
                       "does not model ")
         << name;
}

/// A shuffle (nvvm.shfl.sync, rocdl.ds_bpermute of 32 bits): the lane it
/// reads, as the target computes it, and the context's warp callback with
/// its number `++warpOps`, which returns that lane's value.
///   - nvvm.shfl.sync, as PTX's shfl.sync: b = offset[4:0], c =
///     mask_and_clamp, segmask = c[12:8], maxLane = (lane & segmask) |
///     (c[4:0] & ~segmask), minLane = lane & segmask; up reads lane - b
///     when that is >= maxLane, down lane + b and bfly lane ^ b when <=
///     maxLane, idx minLane | (b & ~segmask) when <= maxLane; else its own.
///     The member mask is not modelled: the warp's every lane must come.
///   - rocdl.ds_bpermute: lane (index / 4) modulo the wave's lanes.
LogicalResult LowerTargetKernelsForHostPass::lowerShuffle(Operation *op,
                                                          const Context &c,
                                                          int32_t &warpOps) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto shfl = dyn_cast<NVVM::ShflOp>(op);
  if (shfl && shfl.getReturnValueAndIsValid())
    return op->emitError("sift-lower-target-kernels-for-host: the emu device "
                         "does not model a shuffle's validity result: ")
           << *op;
  Value value = shfl ? shfl.getVal() : op->getOperand(1);
  Type type = value.getType();
  if (!type.isInteger(32) && !type.isF32())
    return op->emitError("sift-lower-target-kernels-for-host: the emu device "
                         "models shuffles of 32 bits, not ")
           << *op;
  auto k = [&](int64_t v) { return constant(b, loc, i32, v); };
  auto andOf = [&](Value x, Value y) -> Value {
    return LLVM::AndOp::create(b, loc, x, y);
  };
  auto orOf = [&](Value x, Value y) -> Value {
    return LLVM::OrOp::create(b, loc, x, y);
  };
  Value lane = c.u32(b, loc, kLaneId);
  Value source;
  if (shfl) {
    Value by = andOf(shfl.getOffset(), k(31));
    Value clamp = shfl.getMaskAndClamp();
    Value segment = andOf(LLVM::LShrOp::create(b, loc, clamp, k(8)), k(31));
    Value notSegment = LLVM::XOrOp::create(b, loc, segment, k(-1));
    Value minLane = andOf(lane, segment);
    Value maxLane = orOf(minLane, andOf(andOf(clamp, k(31)), notSegment));
    Value j;
    LLVM::ICmpPredicate within = LLVM::ICmpPredicate::sle;
    switch (shfl.getKind()) {
    case NVVM::ShflKind::up:
      j = LLVM::SubOp::create(b, loc, lane, by);
      within = LLVM::ICmpPredicate::sge;
      break;
    case NVVM::ShflKind::down:
      j = LLVM::AddOp::create(b, loc, lane, by);
      break;
    case NVVM::ShflKind::bfly:
      j = LLVM::XOrOp::create(b, loc, lane, by);
      break;
    case NVVM::ShflKind::idx:
      j = orOf(minLane, andOf(by, notSegment));
      break;
    }
    Value ok = LLVM::ICmpOp::create(b, loc, within, j, maxLane);
    source = LLVM::SelectOp::create(b, loc, ok, j, lane);
  } else {
    source = andOf(LLVM::LShrOp::create(b, loc, op->getOperand(0), k(2)),
                   k(lanes_ - 1));
  }
  Value bits = type.isF32() ? LLVM::BitcastOp::create(b, loc, i32, value)
                                  .getResult()
                            : value;
  Value packed = orOf(
      LLVM::ZExtOp::create(b, loc, i64, bits),
      LLVM::ShlOp::create(b, loc, LLVM::ZExtOp::create(b, loc, i64, source),
                          constant(b, loc, i64, 32)));
  Value read = c.call(b, loc, kWarp, i64,
                      {k(++warpOps), k(kWarpShuffle), packed});
  Value result = LLVM::TruncOp::create(b, loc, i32, read);
  if (type.isF32())
    result = LLVM::BitcastOp::create(b, loc, type, result);
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
  return success();
}

/// rocdl.mbcnt.lo/hi (the lane id's parts): acc + the bits of `mask`
/// below this lane, in the low or high half of the wave's lanes.
void LowerTargetKernelsForHostPass::lowerMbcnt(Operation *op,
                                               const Context &c) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  StringRef name = op->getName().getStringRef();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Value lane = c.u32(b, loc, kLaneId);
  Value bit =
      name == "rocdl.mbcnt.lo"
          ? LLVM::UMinOp::create(b, loc, lane, constant(b, loc, i32, 32))
                .getResult()
          : LLVM::SubOp::create(
                b, loc,
                LLVM::UMaxOp::create(b, loc, lane, constant(b, loc, i32, 32)),
                constant(b, loc, i32, 32))
                .getResult();
  Value wideBit = LLVM::ZExtOp::create(b, loc, i64, bit);
  Value below = LLVM::SubOp::create(
      b, loc, LLVM::ShlOp::create(b, loc, constant(b, loc, i64, 1), wideBit),
      constant(b, loc, i64, 1));
  Value mask = LLVM::AndOp::create(
      b, loc, LLVM::ZExtOp::create(b, loc, i64, op->getOperand(0)), below);
  Value count = LLVM::TruncOp::create(b, loc, i32,
                                      LLVM::CtPopOp::create(b, loc, i64, mask));
  op->getResult(0).replaceAllUsesWith(
      LLVM::AddOp::create(b, loc, op->getOperand(1), count));
  op->erase();
}

/// The host's libm name of a libdevice or OCML function, and whether it
/// takes f16 through f32; "" when it is neither.
std::pair<std::string, bool> hostMath(StringRef name) {
  if (name.consume_front("__nv_"))
    return {name.str(), false};
  if (!name.consume_front("__ocml_"))
    return {"", false};
  if (name.consume_back("_f32"))
    return {(name + "f").str(), false};
  if (name.consume_back("_f64"))
    return {name.str(), false};
  if (name.consume_back("_f16"))
    return {(name + "f").str(), true};
  return {"", false};
}

LogicalResult
LowerTargetKernelsForHostPass::lowerMathCalls(gpu::GPUModuleOp module) {
  MLIRContext *context = module.getContext();
  OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
  SymbolTable symbols(module);
  SmallVector<LLVM::CallOp> calls;
  module.walk([&](LLVM::CallOp call) {
    if (call.getCallee() && !hostMath(*call.getCallee()).first.empty())
      calls.push_back(call);
  });
  for (LLVM::CallOp call : calls) {
    auto [host, viaF32] = hostMath(*call.getCallee());
    OpBuilder b(call);
    Location loc = call.getLoc();
    SmallVector<Value> args(call.getArgOperands());
    Type result = call.getNumResults() ? call.getResult().getType()
                                       : LLVM::LLVMVoidType::get(context);
    Type f32 = Float32Type::get(context);
    if (viaF32) {
      for (Value &arg : args)
        if (arg.getType().isF16())
          arg = LLVM::FPExtOp::create(b, loc, f32, arg);
      if (result.isF16())
        result = f32;
    }
    auto declaration = symbols.lookup<LLVM::LLVMFuncOp>(host);
    SmallVector<Type> types;
    for (Value arg : args)
      types.push_back(arg.getType());
    auto type = LLVM::LLVMFunctionType::get(result, types);
    if (!declaration) {
      declaration = LLVM::LLVMFuncOp::create(top, module.getLoc(), host, type);
      symbols.insert(declaration);
    }
    if (declaration.getFunctionType() != type)
      return call.emitError("sift-lower-target-kernels-for-host: ")
             << *call.getCallee() << " becomes " << host
             << " with another type";
    auto hostCall = LLVM::CallOp::create(b, loc, declaration, args);
    if (call.getNumResults()) {
      Value value = hostCall.getResult();
      if (value.getType() != call.getResult().getType())
        value =
            LLVM::FPTruncOp::create(b, loc, call.getResult().getType(), value);
      call.getResult().replaceAllUsesWith(value);
    }
    call.erase();
  }
  // The target's declarations nobody calls now.
  for (auto func :
       llvm::make_early_inc_range(module.getOps<LLVM::LLVMFuncOp>()))
    if (func.isExternal() && !hostMath(func.getName()).first.empty() &&
        SymbolTable::symbolKnownUseEmpty(func, module))
      func.erase();
  return success();
}

/// Every pointer the host's, and the casts between spaces gone.
void LowerTargetKernelsForHostPass::toHostPointers(gpu::GPUModuleOp module) {
  MLIRContext *context = module.getContext();
  module.walk([](LLVM::AddrSpaceCastOp cast) {
    cast.getResult().replaceAllUsesWith(cast.getArg());
    cast.erase();
  });
  AttrTypeReplacer replacer;
  replacer.addReplacement(
      [context](LLVM::LLVMPointerType type) -> std::optional<Type> {
        if (type.getAddressSpace() == 0)
          return std::nullopt;
        return LLVM::LLVMPointerType::get(context);
      });
  for (Operation &op : module.getBody()->getOperations()) {
    replacer.recursivelyReplaceElementsIn(&op, /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
    if (auto global = dyn_cast<LLVM::GlobalOp>(op))
      global.setAddrSpace(0);
  }
  module.walk([](Operation *op) {
    if (auto rmw = dyn_cast<LLVM::AtomicRMWOp>(op))
      rmw.removeSyncscopeAttr();
    else if (auto cmpxchg = dyn_cast<LLVM::AtomicCmpXchgOp>(op))
      cmpxchg.removeSyncscopeAttr();
  });
}

} // namespace
