//===- IrChecks.cpp - In-kernel allocations and workgroup memory ----------===//
//
// The allocation and workgroup-memory oracles of IrChecks.h, the budget per
// target and checkAll. The undistributed-write oracle, with its thread
// dependence analysis, is in UndistributedWrites.cpp.
//
//===----------------------------------------------------------------------===//

#include "oracles/ir/IrChecks.h"

#include "oracles/ir/Kernels.h"
#include "oracles/static/BinaryChecks.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace sift::oracle::detail;

namespace sift::oracle {

namespace {

/// The bytes of a statically shaped memref; nullopt for dynamic shapes or
/// element types the layout cannot size.
std::optional<int64_t> memrefBytes(const DataLayout &layout, Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.hasStaticShape())
    return std::nullopt;
  Type element = memref.getElementType();
  if (!element.isIntOrIndexOrFloat() && !isa<VectorType, ComplexType>(element))
    return std::nullopt;
  return memref.getNumElements() *
         static_cast<int64_t>(layout.getTypeSize(element).getFixedValue());
}

/// The callee symbol of a call, or "".
StringRef calleeName(CallOpInterface call) {
  if (auto symbol =
          llvm::dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee()))
    return symbol.getLeafReference().getValue();
  return "";
}

/// `mappedLoop`: the kernel is a mapped loop not yet outlined, where an
/// alloc with no memory space still waits for the pipeline's memory-space
/// policy; only an alloc whose space was chosen (and is wrong) is a finding
/// there.
void checkAllocationsIn(const Kernel &kernel, std::vector<IrFinding> &out,
                        bool mappedLoop = false) {
  auto report = [&](Verdict verdict, Operation *op, std::string message) {
    out.push_back({verdict, kernel.name, std::move(message), op->getLoc()});
  };
  kernel.body->walk([&](Operation *op) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      // A workgroup alloc is the pipelines' request for shared memory,
      // which the GPU tail turns into an attribution; if it does not, the
      // lowering's call to malloc is the finding.
      MemoryKind kind = memoryKindOf(alloc.getType());
      if (kind == MemoryKind::Workgroup ||
          (mappedLoop && kind == MemoryKind::Default))
        return;
      report(Verdict::MallocInKernel, op,
             "memref.alloc of " + printType(alloc.getType()) +
                 " lowers to a call to malloc: one heap buffer per thread");
    } else if (auto realloc = dyn_cast<memref::ReallocOp>(op)) {
      report(Verdict::MallocInKernel, op,
             "memref.realloc to " + printType(realloc.getType()) +
                 " lowers to calls to malloc and free");
    } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      report(Verdict::MallocInKernel, op,
             "memref.dealloc of " + printType(dealloc.getMemref().getType()) +
                 " lowers to a call to free");
    } else if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
      MemoryKind kind = memoryKindOf(alloca.getType());
      if (kind != MemoryKind::Workgroup && kind != MemoryKind::Private)
        report(Verdict::WrongAddressSpace, op,
               "memref.alloca of " + printType(alloca.getType()) + " in " +
                   describeMemorySpace(alloca.getType().getMemorySpace()) +
                   ": an in-kernel allocation belongs in workgroup or "
                   "private memory");
    } else if (auto call = dyn_cast<CallOpInterface>(op)) {
      StringRef callee = calleeName(call);
      if (!callee.empty() && isAllocationSymbol(callee))
        report(Verdict::MallocInKernel, op,
               op->getName().getStringRef().str() + " @" + callee.str() +
                   ": device code calls an allocation function");
    } else if (auto address = dyn_cast<LLVM::AddressOfOp>(op)) {
      if (isAllocationSymbol(address.getGlobalName()))
        report(Verdict::MallocInKernel, op,
               "llvm.mlir.addressof @" + address.getGlobalName().str() +
                   ": device code takes the address of an allocation "
                   "function");
    }
  });
}

void checkWorkgroupMemoryIn(const Kernel &kernel, int64_t budgetBytes,
                            std::vector<IrFinding> &out) {
  DataLayout layout = DataLayout::closest(kernel.op);
  int64_t bytes = 0;
  int64_t buffers = 0;
  auto add = [&](std::optional<int64_t> size) {
    if (!size)
      return;
    bytes += *size;
    ++buffers;
  };
  if (auto func = dyn_cast<gpu::GPUFuncOp>(kernel.op))
    for (BlockArgument attribution : func.getWorkgroupAttributions())
      add(memrefBytes(layout, attribution.getType()));
  llvm::SmallPtrSet<Operation *, 4> globals;
  kernel.body->walk([&](Operation *op) {
    if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
      Type type = op->getResult(0).getType();
      if (memoryKindOf(type) == MemoryKind::Workgroup)
        add(memrefBytes(layout, type));
    } else if (auto getGlobal = dyn_cast<memref::GetGlobalOp>(op)) {
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          op, getGlobal.getNameAttr());
      if (global && memoryKindOf(global.getType()) == MemoryKind::Workgroup &&
          globals.insert(global).second)
        add(memrefBytes(layout, global.getType()));
    } else if (auto address = dyn_cast<LLVM::AddressOfOp>(op)) {
      auto global = SymbolTable::lookupNearestSymbolFrom<LLVM::GlobalOp>(
          op, address.getGlobalNameAttr());
      if (global && global.getAddrSpace() == 3 && globals.insert(global).second)
        add(static_cast<int64_t>(
            layout.getTypeSize(global.getGlobalType()).getFixedValue()));
    }
  });
  if (bytes <= budgetBytes)
    return;
  out.push_back({Verdict::SmemOverflow, kernel.name,
                 "workgroup memory of " + std::to_string(bytes) + " bytes in " +
                     std::to_string(buffers) +
                     " buffers is over the budget of " +
                     std::to_string(budgetBytes) + " bytes",
                 kernel.op->getLoc()});
}

void checkPrivateMemoryIn(const Kernel &kernel, std::vector<IrFinding> &out) {
  DataLayout layout = DataLayout::closest(kernel.op);
  int64_t bytes = 0;
  int64_t buffers = 0;
  auto add = [&](std::optional<int64_t> size) {
    if (!size)
      return;
    bytes += *size;
    ++buffers;
  };
  if (auto func = dyn_cast<gpu::GPUFuncOp>(kernel.op))
    for (BlockArgument attribution : func.getPrivateAttributions())
      add(memrefBytes(layout, attribution.getType()));
  kernel.body->walk([&](Operation *op) {
    if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
      if (memoryKindOf(alloca.getType()) == MemoryKind::Private)
        add(memrefBytes(layout, alloca.getType()));
    } else if (auto alloca = dyn_cast<LLVM::AllocaOp>(op)) {
      auto count = alloca.getArraySize().getDefiningOp<LLVM::ConstantOp>();
      auto value =
          count ? dyn_cast<IntegerAttr>(count.getValue()) : IntegerAttr();
      if (value)
        add(value.getInt() * static_cast<int64_t>(
                                 layout.getTypeSize(alloca.getElemType())
                                     .getFixedValue()));
    }
  });
  if (bytes <= kPrivateMemoryBudget)
    return;
  out.push_back({Verdict::SmemOverflow, kernel.name,
                 "private memory of " + std::to_string(bytes) +
                     " bytes per thread in " + std::to_string(buffers) +
                     " buffers is over the budget of " +
                     std::to_string(kPrivateMemoryBudget) + " bytes",
                 kernel.op->getLoc()});
}

} // namespace

std::vector<IrFinding> checkPrivateMemory(Operation *root) {
  std::vector<IrFinding> out;
  for (const Kernel &kernel : collectKernels(root))
    checkPrivateMemoryIn(kernel, out);
  return out;
}

std::vector<IrFinding> checkKernelAllocations(Operation *root) {
  std::vector<IrFinding> out;
  for (const Kernel &kernel : collectKernels(root))
    checkAllocationsIn(kernel, out);
  for (const Kernel &loop : collectMappedLoops(root))
    checkAllocationsIn(loop, out, /*mappedLoop=*/true);
  return out;
}

std::vector<IrFinding> checkKernelAllocations(ModuleOp module) {
  return checkKernelAllocations(module.getOperation());
}

std::vector<IrFinding> checkWorkgroupMemory(Operation *root,
                                            int64_t budgetBytes) {
  std::vector<IrFinding> out;
  for (const Kernel &kernel : collectKernels(root))
    checkWorkgroupMemoryIn(kernel, budgetBytes, out);
  return out;
}

std::vector<IrFinding> checkWorkgroupMemory(ModuleOp module,
                                            int64_t budgetBytes) {
  return checkWorkgroupMemory(module.getOperation(), budgetBytes);
}

std::vector<IrFinding> checkAll(Operation *root, int64_t budgetBytes) {
  std::vector<IrFinding> out;
  llvm::SmallVector<Kernel> kernels = collectKernels(root);
  for (const Kernel &kernel : kernels)
    checkAllocationsIn(kernel, out);
  for (const Kernel &loop : collectMappedLoops(root))
    checkAllocationsIn(loop, out, /*mappedLoop=*/true);
  for (const Kernel &kernel : kernels)
    checkWorkgroupMemoryIn(kernel, budgetBytes, out);
  for (const Kernel &kernel : kernels)
    checkPrivateMemoryIn(kernel, out);
  for (const Kernel &kernel : kernels)
    checkUndistributedWritesIn(kernel, out);
  return out;
}

std::vector<IrFinding> checkAll(ModuleOp module, int64_t budgetBytes) {
  return checkAll(module.getOperation(), budgetBytes);
}

} // namespace sift::oracle
