//===- Kernels.cpp - Kernels, memory spaces, launch constants -------------===//
//
// The shared half of the IR checks: which ops are kernels and what they are
// called, how a memref memory space reads (upstream GPU attributes or the
// NVVM/ROCDL integers), and the constant value of a launch operand computed
// by arith ops and affine.apply, evaluated here without folding (the checks
// run between passes and must not touch the IR).
//
//===----------------------------------------------------------------------===//

#include "oracles/ir/Kernels.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

using namespace mlir;

namespace sift::oracle::detail {

namespace {

/// The symbol name of an op, or "?".
std::string symbolName(Operation *op) {
  if (auto name =
          op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
    return name.str();
  return "?";
}

/// The known block size of a function of a gpu.module.
std::optional<std::array<int64_t, 3>> functionBlockSize(Operation *fn) {
  std::optional<ArrayRef<int32_t>> sizes;
  if (auto func = dyn_cast<gpu::GPUFuncOp>(fn))
    sizes = func.getKnownBlockSize();
  else if (auto attr =
               fn->getAttrOfType<DenseI32ArrayAttr>("gpu.known_block_size"))
    sizes = attr.asArrayRef();
  if (!sizes || sizes->size() != 3)
    return std::nullopt;
  return std::array<int64_t, 3>{(*sizes)[0], (*sizes)[1], (*sizes)[2]};
}

bool isEntryFunction(Operation *fn) {
  if (auto func = dyn_cast<gpu::GPUFuncOp>(fn))
    return func.isKernel();
  return fn->hasAttr("gpu.kernel") || fn->hasAttr("nvvm.kernel") ||
         fn->hasAttr("rocdl.kernel");
}

void addFunction(Operation *op, gpu::GPUModuleOp module,
                 SmallVectorImpl<Kernel> &kernels) {
  auto fn = dyn_cast<FunctionOpInterface>(op);
  if (!fn || fn.isExternal() || fn.getFunctionBody().empty())
    return;
  Kernel kernel;
  kernel.op = op;
  kernel.body = &fn.getFunctionBody();
  kernel.name = module.getName().str() + "::" + symbolName(op);
  kernel.isEntry = isEntryFunction(op);
  kernel.blockSize = functionBlockSize(op);
  kernels.push_back(std::move(kernel));
}

std::optional<int64_t> evaluate(Value value, unsigned depth);

std::optional<int64_t> evaluateAffineApply(affine::AffineApplyOp apply,
                                           unsigned depth) {
  AffineMap map = apply.getAffineMap();
  if (map.getNumResults() != 1)
    return std::nullopt;
  SmallVector<int64_t> values;
  for (Value operand : apply.getMapOperands()) {
    std::optional<int64_t> v = evaluate(operand, depth + 1);
    if (!v)
      return std::nullopt;
    values.push_back(*v);
  }
  ArrayRef<int64_t> all(values);
  return evaluateAffine(map.getResult(0), all.take_front(map.getNumDims()),
                      all.drop_front(map.getNumDims()));
}

std::optional<int64_t> evaluate(Value value, unsigned depth) {
  if (depth > 16 || !value)
    return std::nullopt;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  Operation *def = value.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def))
    return evaluateAffineApply(apply, depth);
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp, arith::TruncIOp>(def))
    return evaluate(def->getOperand(0), depth + 1);
  if (def->getNumOperands() != 2)
    return std::nullopt;
  std::optional<int64_t> a = evaluate(def->getOperand(0), depth + 1);
  if (!a)
    return std::nullopt;
  std::optional<int64_t> b = evaluate(def->getOperand(1), depth + 1);
  if (!b)
    return std::nullopt;
  if (isa<arith::AddIOp>(def))
    return *a + *b;
  if (isa<arith::SubIOp>(def))
    return *a - *b;
  if (isa<arith::MulIOp>(def))
    return *a * *b;
  if (isa<arith::DivSIOp, arith::DivUIOp>(def))
    return *b == 0 ? std::nullopt : std::optional<int64_t>(*a / *b);
  if (isa<arith::CeilDivSIOp, arith::CeilDivUIOp>(def))
    return ceilDiv(*a, *b);
  if (isa<arith::FloorDivSIOp>(def))
    return floorDiv(*a, *b);
  if (isa<arith::RemSIOp, arith::RemUIOp>(def))
    return *b == 0 ? std::nullopt : std::optional<int64_t>(*a % *b);
  if (isa<arith::MinSIOp, arith::MinUIOp>(def))
    return std::min(*a, *b);
  if (isa<arith::MaxSIOp, arith::MaxUIOp>(def))
    return std::max(*a, *b);
  return std::nullopt;
}

} // namespace

SmallVector<Kernel> collectKernels(Operation *root) {
  SmallVector<Kernel> kernels;
  // A function of a gpu.module (a pass anchored on it): only itself.
  if (auto module = dyn_cast_or_null<gpu::GPUModuleOp>(root->getParentOp())) {
    addFunction(root, module, kernels);
    return kernels;
  }
  llvm::DenseMap<Operation *, unsigned> launchesPerFunction;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
    if (auto module = dyn_cast<gpu::GPUModuleOp>(op)) {
      for (Operation &fn : module.getBody()->getOperations())
        addFunction(&fn, module, kernels);
      return WalkResult::skip();
    }
    auto launch = dyn_cast<gpu::LaunchOp>(op);
    if (!launch)
      return WalkResult::advance();
    Operation *fn = launch->getParentOfType<FunctionOpInterface>();
    unsigned index = launchesPerFunction[fn]++;
    Kernel kernel;
    kernel.op = op;
    kernel.body = &launch.getBody();
    kernel.name = (fn ? symbolName(fn) + "/" : std::string()) + "gpu.launch#" +
                  std::to_string(index);
    kernel.isEntry = true;
    std::optional<int64_t> x = evaluate(launch.getBlockSizeX(), 0);
    std::optional<int64_t> y = evaluate(launch.getBlockSizeY(), 0);
    std::optional<int64_t> z = evaluate(launch.getBlockSizeZ(), 0);
    if (x && y && z)
      kernel.blockSize = std::array<int64_t, 3>{*x, *y, *z};
    if (!kernel.body->empty())
      kernels.push_back(std::move(kernel));
    return WalkResult::skip();
  });
  return kernels;
}

SmallVector<Kernel> collectMappedLoops(Operation *root) {
  SmallVector<Kernel> loops;
  llvm::DenseMap<Operation *, unsigned> loopsPerFunction;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
    if (isa<gpu::GPUModuleOp, gpu::LaunchOp>(op))
      return WalkResult::skip();
    bool mapped = false;
    if (auto forall = dyn_cast<scf::ForallOp>(op))
      mapped = forall.getMapping().has_value() &&
               llvm::any_of(*forall.getMapping(), [](Attribute attr) {
                 return isa<gpu::GPUBlockMappingAttr,
                            gpu::GPUThreadMappingAttr>(attr);
               });
    else if (isa<scf::ParallelOp>(op))
      mapped = op->hasAttr(gpu::getMappingAttrName());
    if (!mapped)
      return WalkResult::advance();
    Operation *fn = op->getParentOfType<FunctionOpInterface>();
    unsigned index = loopsPerFunction[fn]++;
    Kernel kernel;
    kernel.op = op;
    kernel.body = &op->getRegion(0);
    kernel.name = (fn ? symbolName(fn) + "/" : std::string()) +
                  op->getName().getStringRef().str() + "#" +
                  std::to_string(index);
    kernel.isEntry = true;
    if (!kernel.body->empty())
      loops.push_back(std::move(kernel));
    return WalkResult::skip();
  });
  return loops;
}

MemoryKind memoryKind(Attribute memorySpace) {
  if (!memorySpace)
    return MemoryKind::Default;
  if (auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(memorySpace)) {
    switch (gpuSpace.getValue()) {
    case gpu::AddressSpace::Global: return MemoryKind::Global;
    case gpu::AddressSpace::Workgroup: return MemoryKind::Workgroup;
    case gpu::AddressSpace::Private: return MemoryKind::Private;
    }
    return MemoryKind::Other;
  }
  if (auto integer = dyn_cast<IntegerAttr>(memorySpace)) {
    switch (integer.getInt()) {
    case 0: return MemoryKind::Default;
    case 1: return MemoryKind::Global;
    case 3: return MemoryKind::Workgroup;
    case 5: return MemoryKind::Private;
    default: return MemoryKind::Other;
    }
  }
  return MemoryKind::Other;
}

MemoryKind memoryKindOf(Type type) {
  if (auto memref = dyn_cast<BaseMemRefType>(type))
    return memoryKind(memref.getMemorySpace());
  return MemoryKind::Other;
}

std::string describeMemorySpace(Attribute memorySpace) {
  if (!memorySpace)
    return "the default memory space";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "memory space " << memorySpace;
  return text;
}

std::optional<int64_t> evaluateConstant(Value value) {
  return evaluate(value, 0);
}

std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

std::optional<int64_t> floorDiv(int64_t a, int64_t b) {
  if (b == 0 || (a == std::numeric_limits<int64_t>::min() && b == -1))
    return std::nullopt;
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

std::optional<int64_t> ceilDiv(int64_t a, int64_t b) {
  if (b == 0 || (a == std::numeric_limits<int64_t>::min() && b == -1))
    return std::nullopt;
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

std::optional<int64_t> evaluateAffine(AffineExpr expr, ArrayRef<int64_t> dims,
                                      ArrayRef<int64_t> symbols) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue();
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dim.getPosition() < dims.size()
               ? std::optional<int64_t>(dims[dim.getPosition()])
               : std::nullopt;
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return symbol.getPosition() < symbols.size()
               ? std::optional<int64_t>(symbols[symbol.getPosition()])
               : std::nullopt;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return std::nullopt;
  std::optional<int64_t> a = evaluateAffine(binary.getLHS(), dims, symbols);
  std::optional<int64_t> b = evaluateAffine(binary.getRHS(), dims, symbols);
  if (!a || !b)
    return std::nullopt;
  int64_t result;
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    if (llvm::AddOverflow(*a, *b, result))
      return std::nullopt;
    return result;
  case AffineExprKind::Mul:
    if (llvm::MulOverflow(*a, *b, result))
      return std::nullopt;
    return result;
  case AffineExprKind::FloorDiv: return floorDiv(*a, *b);
  case AffineExprKind::CeilDiv: return ceilDiv(*a, *b);
  case AffineExprKind::Mod: {
    if (*b <= 0)
      return std::nullopt;
    int64_t r = *a % *b;
    return r < 0 ? r + *b : r;
  }
  default: return std::nullopt;
  }
}

} // namespace sift::oracle::detail
