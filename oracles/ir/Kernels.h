//===- oracles/ir/Kernels.h - What the IR checks share ----------*- C++ -*-===//
//
// Internal to oracles/ir: the kernels under an op (gpu.launch bodies and the
// functions of gpu.modules, with their names and known block sizes), memory
// spaces as kinds, a small constant evaluator for launch operands that
// never folds or creates IR, and the integer arithmetic of affine maps
// (overflow-checked) that every IR check uses.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "oracles/ir/IrChecks.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"

#include "llvm/ADT/SmallVector.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sift::oracle::detail {

/// One kernel (see IrChecks.h): a gpu.launch or a function of a gpu.module.
struct Kernel {
  mlir::Operation *op = nullptr; ///< The gpu.launch or the function.
  mlir::Region *body = nullptr;  ///< Its body (never empty).
  std::string name;              ///< "MODULE::FUNC" or "FUNC/gpu.launch#I".
  /// A kernel entry: gpu.launch, gpu.func `kernel`, llvm.func with
  /// `gpu.kernel`/`nvvm.kernel`/`rocdl.kernel`. False for device functions.
  bool isEntry = false;
  /// Threads per workgroup (x, y, z) when known.
  std::optional<std::array<int64_t, 3>> blockSize;
};

/// The kernels inside `root` (or `root` itself), in walk order. Reads
/// nothing outside `root` except the names of its ancestors.
llvm::SmallVector<Kernel> collectKernels(mlir::Operation *root);

/// Kernel code before it is a kernel: the outermost scf.forall or
/// scf.parallel loops mapped to GPU blocks or threads (tileandfuse's tiles
/// after bufferization), outside any gpu.launch or gpu.module, named
/// "FUNC/scf.forall#I". Only the allocation check reads them: their thread
/// ids are loop variables, which the thread dependence analysis does not
/// seed.
llvm::SmallVector<Kernel> collectMappedLoops(mlir::Operation *root);

/// Memory spaces as the checks see them.
enum class MemoryKind {
  Default,   ///< No memory space (generic / global on the host's terms).
  Global,    ///< #gpu.address_space<global>, 1.
  Workgroup, ///< #gpu.address_space<workgroup>, 3.
  Private,   ///< #gpu.address_space<private>, 5.
  Other,     ///< Anything else (constant, an unknown integer or attribute).
};

/// The kind of a memref memory space attribute (null = Default).
MemoryKind memoryKind(mlir::Attribute memorySpace);
/// The kind of a memref type's memory space; Other for non-memref types.
MemoryKind memoryKindOf(mlir::Type type);
/// "the default memory space" or the printed attribute.
std::string describeMemorySpace(mlir::Attribute memorySpace);

/// The value of an index/integer computed from constants by arith ops and
/// affine.apply (depth-limited); nullopt otherwise.
std::optional<int64_t> evaluateConstant(mlir::Value value);

/// `a / b` rounded down (floorDiv) or up (ceilDiv); nullopt on division by
/// zero or overflow.
std::optional<int64_t> floorDiv(int64_t a, int64_t b);
std::optional<int64_t> ceilDiv(int64_t a, int64_t b);

/// `expr` on dimension values `dims` and symbol values `symbols`; nullopt on
/// overflow, division by zero or a mod by a non-positive value.
std::optional<int64_t> evaluateAffine(mlir::AffineExpr expr,
                                      llvm::ArrayRef<int64_t> dims,
                                      llvm::ArrayRef<int64_t> symbols);

/// The type's printed form.
std::string printType(mlir::Type type);

/// checkUndistributedWrites for one kernel (UndistributedWrites.cpp).
void checkUndistributedWritesIn(const Kernel &kernel,
                                std::vector<IrFinding> &out);

} // namespace sift::oracle::detail
