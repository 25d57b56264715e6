//===- oracles/ir/IrChecks.h - Static oracles over MLIR modules -*- C++ -*-===//
//
// Static oracles that read the IR between pipeline stages, for the verdicts
// `malloc-in-kernel`, `wrong-address-space`, `smem-overflow`,
// `undistributed-write` and `out-of-bounds` (Bounds.cpp; DESIGN.md, "Oracles
// and verdicts"). They run on any
// module of any stage: `gpu.launch` bodies before outlining, `gpu.func`s
// after it, `llvm.func`s of a `gpu.module` after the NVVM/ROCDL lowering;
// StageChecks.h runs them after every pass to name the pass that introduced
// a finding. The binary-level twins (PTX, device LLVM IR, HSACO symbols) are
// in oracles/static/BinaryChecks.h.
//
// A *kernel* here is a `gpu.launch` body, or a function (`gpu.func`,
// `llvm.func`, `func.func`) of a `gpu.module`, kernel entry or device
// function. It is named `MODULE::FUNC` (`main_kernel_0::main_kernel`, the
// dispatch plan's executable and symbol) or `FUNC/gpu.launch#I` (the I-th
// launch of FUNC, in walk order).
//
// Every check takes either the module or any operation under it (a function,
// a `gpu.module`): only the kernels inside `root` are read, nothing outside
// it, so a check of one `gpu.module` can run while other threads transform
// its siblings. None modifies the IR.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Targets.h"
#include "oracles/Verdict.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sift::oracle {

/// One finding of an IR check.
struct IrFinding {
  /// MallocInKernel, WrongAddressSpace, SmemOverflow or UndistributedWrite.
  Verdict verdict;
  /// The kernel that holds the offending op: "main_kernel_0::main_kernel" or
  /// "main/gpu.launch#0" (see the file comment).
  std::string kernel;
  /// One line naming the op, the memory and what is wrong; no SSA names and
  /// no kernel name, e.g. "memref.alloc of memref<16xf32> lowers to a call to
  /// malloc: one heap buffer per thread".
  std::string message;
  /// The offending op (for `smem-overflow`: the kernel).
  mlir::Location loc;
};

/// In-kernel allocations:
///   - `memref.alloca` whose memory space is neither workgroup nor private
///     (`#gpu.address_space<workgroup|private>`, or the integers 3 and 5 of
///     the NVVM/ROCDL numbering): `WrongAddressSpace`;
///   - `memref.alloc`/`memref.realloc`/`memref.dealloc`, in any memory space
///     (upstream lowers them to `malloc`/`free`, even in workgroup memory):
///     `MallocInKernel`, and never also `WrongAddressSpace`;
///   - a call (`llvm.call`, `func.call`, any CallOpInterface) or an
///     `llvm.mlir.addressof` of an allocation function (`malloc`, `free`...,
///     see isAllocationSymbol): `MallocInKernel`.
/// Device functions count as kernels here: what they allocate, their
/// callers do.
std::vector<IrFinding> checkKernelAllocations(mlir::Operation *root);
std::vector<IrFinding> checkKernelAllocations(mlir::ModuleOp module);

/// Workgroup memory per kernel: the bytes of its workgroup attributions
/// (`gpu.func`), of its `memref.alloca`/`alloc` in workgroup memory and of the
/// `memref.global`s / `llvm.mlir.global`s in workgroup memory (address space
/// 3) that it names, each global once. Over `budgetBytes`: one
/// `SmemOverflow` per kernel, at the kernel's location. Sizes come from the
/// data layout; allocations of dynamic size and dynamic shared memory
/// (launch operands, `extern` LDS) are not counted.
std::vector<IrFinding> checkWorkgroupMemory(mlir::Operation *root,
                                            int64_t budgetBytes);
std::vector<IrFinding> checkWorkgroupMemory(mlir::ModuleOp module,
                                            int64_t budgetBytes);

/// The private memory (bytes per thread) sift lets a kernel take, on every
/// target: half of an AMD GPU's 128 KiB of scratch per lane (the backend
/// refuses stack frames past 131056 bytes), leaving the other half to
/// spills; NVIDIA allows 512 KiB of local memory per thread, but local
/// memory that large is a performance cliff, never what a pipeline meant.
inline constexpr int64_t kPrivateMemoryBudget = 64 * 1024;

/// Private memory per kernel: the bytes of its private attributions
/// (`gpu.func`), of its `memref.alloca`s in private memory and of its
/// `llvm.alloca`s of constant size. Over kPrivateMemoryBudget: one
/// `SmemOverflow` per kernel ("private memory of N bytes per thread ..."),
/// at the kernel's location. checkAll includes it.
std::vector<IrFinding> checkPrivateMemory(mlir::Operation *root);

/// The workgroup memory budget of a target or chip: support/Targets.h's
/// table of chips.
using ::sift::workgroupMemoryBudget;

/// Writes that several threads of a workgroup make to the same location: in
/// a kernel entry (`gpu.func` with `kernel`, or a `gpu.launch` body) whose
/// block size is known and has more than one thread (`known_block_size`, or
/// constant `gpu.launch` block operands), an op that writes a memref
/// (`memref.store`, `vector.store`, `vector.transfer_write`, `memref.copy`,
/// a `linalg` op's memref outs, any MemoryEffectOpInterface write; atomics
/// excepted) in global or workgroup memory (not private: not an alloca, not
/// a private attribution, not a per-thread `memref.alloc`), whose address
/// (the memref and, for stores, the indices) does not depend on the thread id
/// along every block dimension of more than one thread, unless single-thread
/// guards pin the remaining dimensions (`tid.x == c` in an enclosing `scf.if`
/// or on a `cf.cond_br` edge into a block that dominates the write):
/// `UndistributedWrite`. So `out[bid]` in a block of 64 threads is one, and
/// so is `out[tid.x]` in a block of 8x4 threads (the 4 threads along y race).
///
/// Thread dependence is a forward propagation over SSA def-use to a fixed
/// point of the dimensions each value depends on: seeds are
/// `gpu.thread_id`/`gpu.global_id` (their dimension), the `gpu.launch`
/// thread ids, induction variables of `scf.parallel` mapped to threads and of
/// `scf.forall` mapped to threads, NVVM/ROCDL thread ids; `gpu.lane_id` and
/// lane or linear mappings count as every dimension. An op's results depend
/// on what its operands depend on; a loop's induction variable on its bounds
/// and step; loop-carried values and results on their init and yielded
/// values and on the trip count; block arguments of every block reachable
/// from a branch on a thread-dependent condition, on that condition.
///
/// Limitations (each errs towards no finding):
///   - an address that depends on a thread id but maps several threads to one
///     location (`buf[tid / 64]`, `buf[lane_id]` with more than one warp) is
///     not reported;
///   - writes through ops that are not MemoryEffectOpInterface (calls to
///     device functions) and writes after the LLVM lowering (`llvm.store`)
///     are not read;
///   - unknown region ops are treated coarsely: a thread-dependent operand or
///     yielded value makes all their results and region arguments dependent.
std::vector<IrFinding> checkUndistributedWrites(mlir::Operation *root);
std::vector<IrFinding> checkUndistributedWrites(mlir::ModuleOp module);

/// All of the above, in the order: allocations, workgroup memory, private
/// memory, undistributed writes.
std::vector<IrFinding> checkAll(mlir::Operation *root, int64_t budgetBytes);
std::vector<IrFinding> checkAll(mlir::ModuleOp module, int64_t budgetBytes);

//===----------------------------------------------------------------------===//
// Out-of-bounds accesses (Bounds.cpp)
//===----------------------------------------------------------------------===//

/// Loads and stores that leave their memref: in every kernel entry (and
/// mapped loop, see collectMappedLoops in Kernels.h), a `memref.load`,
/// `memref.store`, `memref.atomic_rmw`, `vector.load`, `vector.store`,
/// `affine.load` or `affine.store` that, on some thread and some iteration
/// of its enclosing loops at which its enclosing `scf.if`/`affine.if` guards
/// hold, has an index below 0 or past the end of a static dimension (for
/// vectors: the last element along the vector's dimensions):
/// `OutOfBounds`, at most one per kernel, at the access, e.g.
/// "memref.store index 0 of memref<16xf32> can reach 31 (size 16)" (the
/// memref dimension, counted from 0, and the furthest index found).
///
/// Each index is bounded by intervals, then, where they leave a doubt, with
/// MLIR's ValueBoundsConstraintSet (thread and block ids from the kernel's
/// known sizes, induction variables from their loops, the conditions of the
/// enclosing `scf.if`s as constraints); a bound outside the dimension is
/// then confirmed by evaluating the access on concrete ids and iterations,
/// corners first, within a step budget. Never a guess: what the evaluation
/// cannot follow is not reported (indices or guards that depend on loaded
/// values, kernel arguments or loop-carried values; accesses under
/// unstructured control flow, `scf.while` or unknown region ops; ids of
/// unknown extent; device functions; `vector.transfer_*` and masked ops,
/// which are in bounds by construction). The whole check stops after 250 ms.
std::vector<IrFinding> checkOutOfBounds(mlir::Operation *root);
std::vector<IrFinding> checkOutOfBounds(mlir::ModuleOp module);

} // namespace sift::oracle
