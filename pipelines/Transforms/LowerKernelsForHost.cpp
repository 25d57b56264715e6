//===- LowerKernelsForHost.cpp - GPU kernels as host functions ------------===//
//
// The emu device's half in the compiler (issue 24): every kernel of a
// gpu.module, still target-independent (gpu ops, memrefs, cf) but already
// shaped by the target's config, becomes an LLVM function for the host with
// the ABI of runtime/emu/EmuAbi.h, `void kernel(SiftEmuContext *, void **)`:
//
//   - its buffer parameters come from the second argument, one bare pointer
//     a binding, as statically shaped memref descriptors;
//   - workgroup attributions are slices of the context's workgroup memory,
//     each at a 16-byte aligned offset; the total is exported as the global
//     `<kernel>_workgroup_bytes` (i64) for the runtime to allocate;
//   - private attributions are stack slots (the fiber's stack);
//   - gpu.thread_id, block_id, block_dim and grid_dim read the context;
//   - gpu.barrier calls the context's barrier callback with the barrier's
//     number in the kernel (its site, for barrier-divergence messages);
//   - every load, store and atomic of a statically shaped memref is checked
//     first (a branch around a call of a stub that becomes the context's
//     out-of-bounds callback); out of bounds, it goes to element 0;
//   - every load and store of global or workgroup memory (not atomics, not
//     private memory) then tells the context's access callback its site,
//     address and whether it writes, for the race and uninitialized-read
//     checks; but not the loads of a buffer the kernel only loads from (a
//     race needs a write: a dispatch binds distinct buffers, which the emu
//     device checks), since such reports were most of an input-heavy
//     kernel's time.
//
// Everything else goes down the usual LLVM conversions (arith, math, cf,
// memref, index) with every GPU memory space mapped to the host's.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "sift-lower-kernels-for-host"

namespace sift {
#define GEN_PASS_DEF_LOWERKERNELSFORHOST
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

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
};

/// The access callback's flags (EmuAbi.h).
constexpr int32_t kAccessWrite = 1;
constexpr int32_t kAccessWorkgroup = 2;

/// The function the bounds checks call before the conversion; the
/// conversion makes each call one of the context's out-of-bounds callback.
constexpr llvm::StringLiteral kOutOfBoundsStub = "__sift_emu_out_of_bounds";
/// The same for the access reports.
constexpr llvm::StringLiteral kAccessStub = "__sift_emu_access";

/// The attribute that numbers a kernel's barriers before the conversion.
constexpr llvm::StringLiteral kSiteAttr = "sift.barrier_site";

LLVM::LLVMStructType contextType(MLIRContext *context) {
  Type u32x3 = LLVM::LLVMArrayType::get(IntegerType::get(context, 32), 3);
  Type ptr = LLVM::LLVMPointerType::get(context);
  return LLVM::LLVMStructType::getLiteral(
      context, {u32x3, u32x3, u32x3, u32x3, ptr, ptr, ptr, ptr, ptr});
}

/// The context: the first argument of the llvm.func around `op`.
Value contextOf(Operation *op) {
  auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
  return func.getArgument(0);
}

/// A pointer to field `field` (element `element` of an array field) of the
/// context.
Value fieldAddress(OpBuilder &b, Location loc, Value context, int32_t field,
                   std::optional<int32_t> element = std::nullopt) {
  SmallVector<LLVM::GEPArg> indices{0, field};
  if (element)
    indices.push_back(*element);
  return LLVM::GEPOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()),
                             contextType(b.getContext()), context, indices);
}

int64_t memrefBytes(MemRefType type) {
  return type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
}

/// gpu.func (a kernel) -> llvm.func @name(ptr context, ptr buffers).
struct KernelToHostFunction : ConvertOpToLLVMPattern<gpu::GPUFuncOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  /// Maps `func`'s workgroup attributions to 16-byte aligned slices of the
  /// workgroup memory the context points to, and its private attributions
  /// to stack slots, as signature inputs from `argument` on. Returns the
  /// workgroup memory's bytes.
  FailureOr<int64_t>
  mapAttributions(gpu::GPUFuncOp func, ConversionPatternRewriter &rewriter,
                  Value hostContext,
                  TypeConverter::SignatureConversion &signature,
                  unsigned &argument) const {
    Location loc = func.getLoc();
    Type ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
    const LLVMTypeConverter &converter = *getTypeConverter();
    auto descriptor = [&](Value memory, Type type) -> Value {
      return MemRefDescriptor::fromStaticShape(rewriter, loc, converter,
                                               cast<MemRefType>(type), memory);
    };
    // Workgroup attributions: 16-byte aligned slices of the workgroup's
    // memory.
    int64_t offset = 0;
    Value base;
    if (!func.getWorkgroupAttributions().empty())
      base = LLVM::LoadOp::create(
          rewriter, loc, ptr,
          fieldAddress(rewriter, loc, hostContext, kWorkgroupMemory));
    for (BlockArgument attribution : func.getWorkgroupAttributions()) {
      auto type = cast<MemRefType>(attribution.getType());
      if (!type.hasStaticShape())
        return rewriter.notifyMatchFailure(func, "a dynamic attribution");
      Value memory =
          LLVM::GEPOp::create(rewriter, loc, ptr, rewriter.getI8Type(), base,
                              ArrayRef<LLVM::GEPArg>{int32_t(offset)});
      signature.remapInput(argument++, descriptor(memory, type));
      offset += (memrefBytes(type) + 15) / 16 * 16;
    }
    // Private attributions: stack slots.
    for (BlockArgument attribution : func.getPrivateAttributions()) {
      auto type = cast<MemRefType>(attribution.getType());
      if (!type.hasStaticShape())
        return rewriter.notifyMatchFailure(func, "a dynamic attribution");
      Value size = LLVM::ConstantOp::create(
          rewriter, loc, rewriter.getI64Type(), memrefBytes(type));
      Value memory = LLVM::AllocaOp::create(rewriter, loc, ptr,
                                            rewriter.getI8Type(), size, 16);
      signature.remapInput(argument++, descriptor(memory, type));
    }
    return offset;
  }

  LogicalResult
  matchAndRewrite(gpu::GPUFuncOp func, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!func.isKernel())
      return rewriter.notifyMatchFailure(func, "not a kernel");
    Location loc = func.getLoc();
    MLIRContext *context = rewriter.getContext();
    Type ptr = LLVM::LLVMPointerType::get(context);
    auto host = LLVM::LLVMFuncOp::create(
        rewriter, loc, func.getName(),
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context),
                                    {ptr, ptr}));
    // Still a kernel for the host function's gpu.launch_func.
    host->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                  rewriter.getUnitAttr());
    Block *entry = host.addEntryBlock(rewriter);
    rewriter.setInsertionPointToStart(entry);
    Value hostContext = host.getArgument(0);
    Value buffers = host.getArgument(1);
    const LLVMTypeConverter &converter = *getTypeConverter();
    Block &body = func.getBody().front();
    TypeConverter::SignatureConversion signature(body.getNumArguments());
    unsigned argument = 0;
    auto descriptor = [&](Value memory, Type type) -> Value {
      return MemRefDescriptor::fromStaticShape(rewriter, loc, converter,
                                               cast<MemRefType>(type), memory);
    };
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
      if (!isa<MemRefType>(type) || !cast<MemRefType>(type).hasStaticShape())
        return rewriter.notifyMatchFailure(
            func, "a kernel parameter that is not a static memref");
      Value slot = LLVM::GEPOp::create(rewriter, loc, ptr, ptr, buffers,
                                       ArrayRef<LLVM::GEPArg>{int32_t(i)});
      Value memory = LLVM::LoadOp::create(rewriter, loc, ptr, slot);
      signature.remapInput(argument++, descriptor(memory, type));
    }
    FailureOr<int64_t> workgroupBytes =
        mapAttributions(func, rewriter, hostContext, signature, argument);
    if (failed(workgroupBytes))
      return failure();
    int64_t offset = *workgroupBytes;
    // The workgroup memory the runtime allocates for this kernel.
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(host);
      LLVM::GlobalOp::create(rewriter, loc, rewriter.getI64Type(),
                             /*isConstant=*/true, LLVM::Linkage::External,
                             (func.getName() + "_workgroup_bytes").str(),
                             rewriter.getI64IntegerAttr(offset));
    }
    Block *converted =
        rewriter.applySignatureConversion(&body, signature, &converter);
    rewriter.inlineRegionBefore(func.getBody(), host.getBody(),
                                host.getBody().end());
    LLVM::BrOp::create(rewriter, loc, ValueRange{}, converted);
    rewriter.eraseOp(func);
    return success();
  }
};

/// gpu.thread_id and friends: a u32 of the context, widened to index.
template <typename IdOp, int32_t Field>
struct IdFromContext : ConvertOpToLLVMPattern<IdOp> {
  using ConvertOpToLLVMPattern<IdOp>::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(IdOp op, typename IdOp::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int32_t dimension = static_cast<int32_t>(op.getDimension());
    Value address =
        fieldAddress(rewriter, loc, contextOf(op), Field, dimension);
    Value u32 =
        LLVM::LoadOp::create(rewriter, loc, rewriter.getI32Type(), address);
    Type index = this->getTypeConverter()->convertType(op.getType());
    rewriter.replaceOpWithNewOp<LLVM::ZExtOp>(op, index, u32);
    return success();
  }
};

/// Calls the context's callback in field `field` with the context and
/// `args` (void result), where `op` was.
void callContext(ConversionPatternRewriter &rewriter, Operation *op,
                 int32_t field, ValueRange args) {
  Location loc = op->getLoc();
  MLIRContext *context = rewriter.getContext();
  Type ptr = LLVM::LLVMPointerType::get(context);
  Value hostContext = contextOf(op);
  Value callback = LLVM::LoadOp::create(
      rewriter, loc, ptr, fieldAddress(rewriter, loc, hostContext, field));
  SmallVector<Type> types{ptr};
  llvm::append_range(types, args.getTypes());
  SmallVector<Value> operands{callback, hostContext};
  llvm::append_range(operands, args);
  LLVM::CallOp::create(
      rewriter, loc,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context), types),
      operands);
}

/// gpu.barrier: the context's barrier callback with the barrier's site.
struct BarrierToCallback : ConvertOpToLLVMPattern<gpu::BarrierOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(gpu::BarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto site = op->getAttrOfType<IntegerAttr>(kSiteAttr);
    Value siteValue = LLVM::ConstantOp::create(
        rewriter, op.getLoc(), rewriter.getI32Type(), site ? site.getInt() : 0);
    callContext(rewriter, op, kBarrier, siteValue);
    rewriter.eraseOp(op);
    return success();
  }
};

/// The checks' stub calls: the context's out-of-bounds and access
/// callbacks.
struct StubToCallback : ConvertOpToLLVMPattern<func::CallOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(func::CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getCallee() != kOutOfBoundsStub && op.getCallee() != kAccessStub)
      return failure();
    callContext(rewriter, op,
                op.getCallee() == kOutOfBoundsStub ? kOutOfBounds : kAccess,
                adaptor.getOperands());
    rewriter.eraseOp(op);
    return success();
  }
};

struct DropStub : ConvertOpToLLVMPattern<func::FuncOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(func::FuncOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getName() != kOutOfBoundsStub && op.getName() != kAccessStub)
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// Guards every memref.load, store and atomic_rmw of a statically shaped
/// memref in `func`: when an index is out of its dimension the access goes
/// to element 0 instead and the stub is called with the access's number,
/// the row-major element it asked for and the memref's size.
/// Where a memref's memory is, for the access reports.
enum class Space { Global, Workgroup, Private };

Space spaceOf(MemRefType type) {
  auto space =
      dyn_cast_if_present<gpu::AddressSpaceAttr>(type.getMemorySpace());
  if (!space)
    return Space::Global;
  switch (space.getValue()) {
  case gpu::AddressSpace::Workgroup: return Space::Workgroup;
  case gpu::AddressSpace::Private: return Space::Private;
  case gpu::AddressSpace::Global: return Space::Global;
  }
  return Space::Global;
}

/// The host address of `memref[indices]` as an i64. Offset and strides
/// are static where the layout says so (extract_strided_metadata would fold
/// them into constants the conversion then leaves behind).
Value addressOf(OpBuilder &b, Location loc, Value memref, ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  bool known = succeeded(type.getStridesAndOffset(strides, offset)) &&
               !ShapedType::isDynamic(offset) &&
               llvm::none_of(strides, ShapedType::isDynamic);
  Value element;
  SmallVector<Value> strideValues;
  if (known) {
    element = arith::ConstantIndexOp::create(b, loc, offset);
    for (int64_t stride : strides)
      strideValues.push_back(arith::ConstantIndexOp::create(b, loc, stride));
  } else {
    auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
    element = metadata.getOffset();
    llvm::append_range(strideValues, metadata.getStrides());
  }
  for (auto [index, stride] : llvm::zip(indices, strideValues))
    element = arith::AddIOp::create(
        b, loc, element, arith::MulIOp::create(b, loc, index, stride));
  int64_t bytes = type.getElementType().isIntOrFloat()
                      ? (type.getElementTypeBitWidth() + 7) / 8
                      : 8;
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value address = arith::AddIOp::create(
      b, loc, base,
      arith::MulIOp::create(b, loc, element,
                            arith::ConstantIndexOp::create(b, loc, bytes)));
  return arith::IndexCastUIOp::create(b, loc, b.getI64Type(), address);
}

/// The memrefs of `func`'s buffer arguments that the kernel only loads
/// from (through views), with those views. Any other use (a store, an
/// atomic, a pointer taken out) makes a buffer written.
llvm::DenseSet<Value> readOnlyMemrefs(gpu::GPUFuncOp func) {
  llvm::DenseSet<Value> readOnly;
  // The kernel's parameters, not its attributions (block arguments too),
  // and only global memory.
  unsigned parameters = func.getFunctionType().getNumInputs();
  for (BlockArgument argument : func.getArguments().take_front(parameters)) {
    auto type = dyn_cast<MemRefType>(argument.getType());
    if (!type || spaceOf(type) != Space::Global)
      continue;
    SmallVector<Value> derived{argument}, work{argument};
    bool onlyLoaded = true;
    while (!work.empty() && onlyLoaded) {
      Value value = work.pop_back_val();
      for (Operation *user : value.getUsers()) {
        if (isa<memref::LoadOp, memref::DimOp>(user))
          continue;
        if (isa<memref::SubViewOp, memref::ReinterpretCastOp, memref::CastOp,
                memref::CollapseShapeOp, memref::ExpandShapeOp,
                memref::MemorySpaceCastOp>(user)) {
          derived.push_back(user->getResult(0));
          work.push_back(user->getResult(0));
          continue;
        }
        onlyLoaded = false;
        break;
      }
    }
    if (onlyLoaded)
      readOnly.insert(derived.begin(), derived.end());
  }
  return readOnly;
}

void checkBounds(gpu::GPUFuncOp func, func::FuncOp stub,
                 func::FuncOp accessStub) {
  llvm::DenseSet<Value> readOnly = readOnlyMemrefs(func);
  SmallVector<Operation *> accesses;
  func.walk([&](Operation *op) {
    if (isa<memref::LoadOp, memref::StoreOp, memref::AtomicRMWOp>(op))
      accesses.push_back(op);
  });
  IRRewriter b(func.getContext());
  int64_t site = 0;
  for (Operation *op : accesses) {
    ++site;
    Value memref;
    std::optional<MutableOperandRange> indexOperands;
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      memref = load.getMemRef();
      indexOperands = load.getIndicesMutable();
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      memref = store.getMemRef();
      indexOperands = store.getIndicesMutable();
    } else {
      auto rmw = cast<memref::AtomicRMWOp>(op);
      memref = rmw.getMemref();
      indexOperands = rmw.getIndicesMutable();
    }
    MutableOperandRange &indices = *indexOperands;
    auto type = cast<MemRefType>(memref.getType());
    if (!type.hasStaticShape() || type.getRank() == 0)
      continue;
    Location loc = op->getLoc();
    b.setInsertionPoint(op);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value ok = arith::ConstantIntOp::create(b, loc, 1, 1);
    Value linear = zero;
    SmallVector<Value> safe;
    for (auto [dim, index] : llvm::enumerate(indices)) {
      Value size = arith::ConstantIndexOp::create(b, loc, type.getDimSize(dim));
      Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           index.get(), size);
      ok = arith::AndIOp::create(b, loc, ok, inside);
      linear = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, linear, size), index.get());
    }
    for (OpOperand &index : indices)
      safe.push_back(arith::SelectOp::create(b, loc, ok, index.get(), zero));
    for (auto [index, value] : llvm::zip(indices, safe))
      index.set(value);
    // if (!ok) stub(site, linear, size)
    Block *before = op->getBlock();
    Block *after = b.splitBlock(before, op->getIterator());
    Block *report = b.createBlock(after);
    b.setInsertionPointToEnd(before);
    cf::CondBranchOp::create(b, loc, ok, after, ValueRange{}, report,
                             ValueRange{});
    b.setInsertionPointToEnd(report);
    Value siteValue = arith::ConstantIntOp::create(b, loc, site, 32);
    Value wide = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), linear);
    Value elements =
        arith::ConstantIntOp::create(b, loc, type.getNumElements(), 64);
    func::CallOp::create(b, loc, stub, ValueRange{siteValue, wide, elements});
    cf::BranchOp::create(b, loc, after);
    // The access report (atomics are ordered; private memory is a thread's
    // own).
    Space space = spaceOf(type);
    if (isa<memref::AtomicRMWOp>(op) || space == Space::Private ||
        readOnly.contains(memref))
      continue;
    b.setInsertionPoint(op);
    int32_t flags = (isa<memref::StoreOp>(op) ? kAccessWrite : 0) |
                    (space == Space::Workgroup ? kAccessWorkgroup : 0);
    func::CallOp::create(
        b, loc, accessStub,
        ValueRange{arith::ConstantIntOp::create(b, loc, site, 32),
                   addressOf(b, loc, memref, safe),
                   arith::ConstantIntOp::create(b, loc, flags, 32)});
  }
}

struct ReturnToHost : ConvertOpToLLVMPattern<gpu::ReturnOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(gpu::ReturnOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, ValueRange{});
    return success();
  }
};

class LowerKernelsForHostPass final
    : public sift::impl::LowerKernelsForHostBase<LowerKernelsForHostPass> {
public:
  using LowerKernelsForHostBase::LowerKernelsForHostBase;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    // The NVVM and ROCDL conversions expand floordivsi and the like on
    // their own; the host's arith-to-LLVM does not. Only those: the
    // arith-expand pass would also expand minimumf and maximumf into a
    // compare and a select that ignore the sign of zero (minimumf(-0, +0)
    // gives +0), where LLVM's minimum and maximum intrinsics order -0
    // below +0 as arith documents (a top-k after a minimumf picked +0 for
    // -0 on the emu device in a --random-config campaign).
    {
      RewritePatternSet expand(context);
      arith::populateCeilFloorDivExpandOpsPatterns(expand);
      if (failed(applyPatternsGreedily(module, std::move(expand))))
        return signalPassFailure();
    }
    // Bounds checks first, while accesses are still memref ops.
    OpBuilder stubBuilder(context);
    stubBuilder.setInsertionPointToStart(module.getBody());
    // (u32 site, u64, u64 or u32) -> ()
    auto declare = [&](StringRef name, unsigned lastBits) {
      Type u32 = IntegerType::get(context, 32);
      auto stub = func::FuncOp::create(
          stubBuilder, module.getLoc(), name,
          FunctionType::get(context,
                            {u32, IntegerType::get(context, 64),
                             IntegerType::get(context, lastBits)},
                            {}));
      stub.setPrivate();
      return stub;
    };
    func::FuncOp stub = declare(kOutOfBoundsStub, 64);
    func::FuncOp accessStub = declare(kAccessStub, 32);
    module.walk(
        [&](gpu::GPUFuncOp func) { checkBounds(func, stub, accessStub); });
    // Number each kernel's barriers in the order they appear.
    module.walk([&](gpu::GPUFuncOp func) {
      int64_t site = 0;
      func.walk([&](gpu::BarrierOp barrier) {
        barrier->setAttr(
            kSiteAttr, IntegerAttr::get(IntegerType::get(context, 32), ++site));
      });
    });
    LowerToLLVMOptions options(context);
    LLVMTypeConverter converter(context, options);
    populateGpuMemorySpaceAttributeConversions(
        converter, [](gpu::AddressSpace) -> unsigned { return 0; });
    RewritePatternSet patterns(context);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    index::populateIndexToLLVMConversionPatterns(converter, patterns);
    populateMathToLLVMConversionPatterns(converter, patterns);
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
    patterns.add<KernelToHostFunction, BarrierToCallback, ReturnToHost,
                 StubToCallback, DropStub,
                 IdFromContext<gpu::ThreadIdOp, kThreadId>,
                 IdFromContext<gpu::BlockIdOp, kBlockId>,
                 IdFromContext<gpu::BlockDimOp, kBlockDim>,
                 IdFromContext<gpu::GridDimOp, kGridDim>>(converter);
    LLVMConversionTarget target(*context);
    target.addLegalOp<gpu::GPUModuleOp>();
    if (failed(applyFullConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
