//===- ExtractGpuPlan.cpp - The dispatch plan of a GPU program ------------===//
//
// Reads the host function left after kernel outlining and turns it into the
// `sift.dispatch_plan` attribute the compiler copies into the artifact:
// buffers (arguments, then static temporaries) and dispatches (one per
// gpu.launch_func). The host side of a sift GPU program must be exactly
// what a plan can express; anything else is an error, never a silent skip.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/DenseSet.h"

#define DEBUG_TYPE "sift-extract-gpu-plan"

namespace sift {
#define GEN_PASS_DEF_EXTRACTGPUPLAN
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

/// The plan of one host function, op by op: its buffers (the arguments
/// recorded before bufferization, then the static temporaries) and its
/// dispatches; the launches without work are kept aside to be erased.
struct PlanBuilder {
  PlanBuilder(Builder &b, ArrayAttr argBuffers, func::FuncOp func)
      : b(b), buffers(argBuffers.begin(), argBuffers.end()) {
    for (BlockArgument arg : func.getArguments())
      bufferOf[arg] = arg.getArgNumber();
  }

  /// A temporary buffer: static shape, identity layout, default space.
  LogicalResult addTemporary(memref::AllocOp alloc) {
    MemRefType type = alloc.getType();
    if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
        type.getMemorySpace())
      return alloc.emitError("the dispatch plan needs temporaries with a "
                             "static shape, identity layout and default "
                             "memory space, found ")
             << type;
    bufferOf[alloc.getResult()] = buffers.size();
    buffers.push_back(b.getDictionaryAttr({
        b.getNamedAttr("element", TypeAttr::get(type.getElementType())),
        b.getNamedAttr("shape", b.getDenseI64ArrayAttr(type.getShape())),
        b.getNamedAttr("role", b.getStringAttr("temporary")),
        b.getNamedAttr("index", b.getI64IntegerAttr(temporaries++)),
    }));
    return success();
  }

  /// A dispatch: constant sizes within every sift GPU target's limits,
  /// whole buffers as its operands; one without work is set aside.
  LogicalResult addLaunch(gpu::LaunchFuncOp launch) {
    SmallVector<int64_t> grid, block;
    if (failed(constantSizes(launch.getGridSizeOperandValues(), launch, "grid",
                             grid)) ||
        failed(constantSizes(launch.getBlockSizeOperandValues(), launch,
                             "block", block)) ||
        failed(withinLimits(launch, grid, block)))
      return failure();
    SmallVector<int64_t> bindings;
    for (auto [i, operand] : llvm::enumerate(launch.getKernelOperands())) {
      auto it = bufferOf.find(operand);
      if (it == bufferOf.end())
        return launch.emitError("kernel operand #")
               << i << " (" << operand.getType()
               << ") is not a whole buffer; the dispatch plan cannot "
                  "express it";
      bindings.push_back(it->second);
    }
    if (llvm::is_contained(grid, 0) || llvm::is_contained(block, 0)) {
      empty.push_back(launch); // No work.
      return success();
    }
    dispatches.push_back(b.getDictionaryAttr({
        b.getNamedAttr("executable", launch.getKernelModuleName()),
        b.getNamedAttr("symbol", launch.getKernelName()),
        b.getNamedAttr("grid", b.getDenseI64ArrayAttr(grid)),
        b.getNamedAttr("block", b.getDenseI64ArrayAttr(block)),
        b.getNamedAttr("bindings", b.getDenseI64ArrayAttr(bindings)),
    }));
    return success();
  }

  static LogicalResult constantSizes(gpu::KernelDim3 dims,
                                     gpu::LaunchFuncOp launch, StringRef what,
                                     SmallVector<int64_t> &sizes) {
    for (Value v : {dims.x, dims.y, dims.z}) {
      std::optional<int64_t> size = getConstantIntValue(v);
      if (!size)
        return launch.emitError("the ")
               << what << " size of this launch is not a constant";
      sizes.push_back(*size);
    }
    return success();
  }

  /// What every sift GPU target can launch: CUDA's limits (AMD's are
  /// wider except for z, which sift keeps at CUDA's 64).
  static LogicalResult withinLimits(gpu::LaunchFuncOp launch,
                                    ArrayRef<int64_t> grid,
                                    ArrayRef<int64_t> block) {
    if (block[0] > 1024 || block[1] > 1024 || block[2] > 64 ||
        block[0] * block[1] * block[2] > 1024)
      return launch.emitError("block size [")
             << block[0] << ", " << block[1] << ", " << block[2]
             << "] is over the GPU limits (x, y <= 1024, z <= 64, 1024 "
                "threads)";
    if (grid[0] > 2147483647 || grid[1] > 65535 || grid[2] > 65535)
      return launch.emitError("grid size [")
             << grid[0] << ", " << grid[1] << ", " << grid[2]
             << "] is over the GPU limits (x < 2^31, y, z <= 65535)";
    return success();
  }

  DictionaryAttr plan() {
    return b.getDictionaryAttr({
        b.getNamedAttr("buffers", b.getArrayAttr(buffers)),
        b.getNamedAttr("dispatches", b.getArrayAttr(dispatches)),
    });
  }

  Builder &b;
  SmallVector<Attribute> buffers;
  DenseMap<Value, int64_t> bufferOf;
  SmallVector<Attribute> dispatches;
  SmallVector<gpu::LaunchFuncOp> empty;
  int64_t temporaries = 0;
};

struct ExtractGpuPlanPass final
    : sift::impl::ExtractGpuPlanBase<ExtractGpuPlanPass> {
  using ExtractGpuPlanBase::ExtractGpuPlanBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    auto recorded = module->getAttrOfType<DictionaryAttr>("sift.dispatch_plan");
    auto argBuffers = recorded ? recorded.getAs<ArrayAttr>("buffers") : nullptr;
    if (!func || !argBuffers) {
      module.emitError("sift-extract-gpu-plan needs the entry @")
          << entry << " and the buffers sift-record-dispatch-plan recorded";
      return signalPassFailure();
    }
    if (argBuffers.size() != func.getNumArguments()) {
      func.emitError("the plan recorded ")
          << argBuffers.size() << " buffers but the bufferized entry has "
          << func.getNumArguments() << " arguments";
      return signalPassFailure();
    }
    Builder b(&getContext());
    PlanBuilder plan(b, argBuffers, func);
    for (Operation &op : func.getBody().front()) {
      if (isa<arith::ConstantOp, memref::DeallocOp, func::ReturnOp>(op))
        continue;
      LogicalResult added = success();
      if (auto alloc = dyn_cast<memref::AllocOp>(op))
        added = plan.addTemporary(alloc);
      else if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op))
        added = plan.addLaunch(launch);
      else
        added = op.emitError("host op '")
                << op.getName() << "' cannot be expressed in the dispatch plan";
      if (failed(added))
        return signalPassFailure();
    }
    // Launches without work go, and so do kernels no launch uses any more
    // (a kernel over a 0-sized buffer would not even lower).
    for (gpu::LaunchFuncOp launch : plan.empty)
      launch.erase();
    // (A module may hold several kernels: sift-merge-kernel-modules.)
    llvm::DenseSet<std::pair<StringAttr, StringAttr>> launched;
    module.walk([&](gpu::LaunchFuncOp launch) {
      launched.insert({launch.getKernelModuleName(), launch.getKernelName()});
    });
    for (auto kernels :
         llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>())) {
      for (auto kernel :
           llvm::make_early_inc_range(kernels.getOps<gpu::GPUFuncOp>()))
        if (kernel.isKernel() &&
            !launched.contains({kernels.getNameAttr(), kernel.getNameAttr()}))
          kernel.erase();
      if (kernels.getOps<gpu::GPUFuncOp>().empty())
        kernels.erase();
    }
    module->setAttr("sift.dispatch_plan", plan.plan());
  }
};

} // namespace
