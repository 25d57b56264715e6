//===- oracles/static/BinaryChecks.h - Checks of final GPU code -----------===//
//
// Static oracles over the compiler's final device code, for the verdicts
// `malloc-in-kernel`, `unresolved-symbol` and `misaligned-access` (DESIGN.md,
// "Oracles and verdicts"). An in-kernel `memref.alloc` lowers to a call to
// `malloc`, even in workgroup memory, and the GPU toolchains accept it: PTX
// that calls `malloc` loads and runs (each thread gets its own buffer), and
// an AMDGPU HSACO links with `malloc` undefined. So the final artifacts are
// read here:
//
//   - PTX text: `.extern .func` declarations and `call` targets that no
//     `.func`/`.entry` of the module defines, named by the function that calls
//     them;
//   - device LLVM IR text: `declare`d functions and `external` globals that
//     are neither intrinsics nor resolved by a linked vendor device library;
//   - ELF64 (HSACO): undefined symbols of `.symtab` and `.dynsym`.
//
// Allocation symbols (`malloc`, `free`, C++ `operator new`/`delete`, MLIR's
// generic allocation functions...) give `MallocInKernel`, whether or not
// something would resolve them; every other external gives
// `UnresolvedSymbol`.
//
// PTX is also checked for vector accesses below their variable's alignment
// (`MisalignedAccess`). A workgroup attribution without an explicit
// alignment is printed `.shared .align 4 .b8 buf[76];` (its element's), while
// LLVM's load/store vectorizer assumed 16 bytes and emitted
// `st.shared.v4.b32 [buf], {...}`: the kernel faults with
// CUDA_ERROR_MISALIGNED_ADDRESS (fault `wg-unaligned`). PTX wants every
// access naturally aligned, so for each `.shared`/`.local` variable (module
// level, or inside a body where NVPTX puts "demoted" shared variables) of
// alignment A (`.align A`, else its element's size), each
// `ld`/`st`/`atom`/`red` of that state space of S bytes (`.vN` times the
// type's width) at `[var+off]`, or at `[%r+off]` with %r holding var's
// address plus a constant, needs A >= S and off % S == 0. A register is
// followed when one instruction of the function defines it and that is
// `mov %r, var` (`var+c`), `mov %r, %q` or `add %r, %q, c`, %q followed the
// same way: NVPTX's `mov.b64 %rd1, buf;` and its local depot's
// `mov.b64 %SPL, __local_depot0; add.u64 %rd1, %SPL, 16;`. What it cannot
// read (`.extern .shared` arrays, whose start is the launch's; addresses
// computed from other values; registers defined twice) gives no finding. Pure C++ (no LLVM, no MLIR): the ELF reader is this
// file's own and never reads outside the bytes it is given.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "oracles/Verdict.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sift::rt {
struct Executable;
} // namespace sift::rt

namespace sift::oracle {

/// One external reference, or one misaligned access, found in device code.
struct StaticFinding {
  /// MallocInKernel, UnresolvedSymbol or MisalignedAccess.
  Verdict verdict = Verdict::UnresolvedSymbol;
  /// The external's name, e.g. "malloc", or the misaligned variable's.
  std::string symbol;
  /// The kernel or function that references it, or "module" when only a
  /// declaration (or an ELF symbol) names it.
  std::string where;
  /// One line, e.g. "PTX kernel main_kernel calls malloc".
  std::string message;

  bool operator==(const StaticFinding &other) const;
  bool operator!=(const StaticFinding &other) const {
    return !(*this == other);
  }
};

/// True for heap allocation and deallocation functions: `malloc`, `free`,
/// `calloc`, `realloc`, `aligned_alloc`, `posix_memalign`, `memalign`,
/// `valloc`, `__malloc`, `__free`, `__nv_malloc`, `__nv_free`, Itanium C++
/// `operator new`/`new[]`/`delete`/`delete[]` (`_Znw*`, `_Zna*`, `_Zdl*`,
/// `_Zda*`), MLIR's generic `_mlir_memref_to_llvm_{alloc,aligned_alloc,free}`
/// and ROCm's device heap `__ockl_dm_alloc`/`__ockl_dm_dealloc`.
bool isAllocationSymbol(std::string_view name);

/// CUDA system calls that ptxas and the driver resolve in any PTX module:
/// `vprintf` and `__assertfail`. (`malloc` and `free` are system calls too,
/// but they are findings of their own.)
bool isCudaSystemCall(std::string_view name);

/// Checks PTX text. Reports, for each function that calls an external (a
/// `call` target no `.func`/`.entry` of the module defines), one finding per
/// symbol with `where` naming that `.entry` or `.func` (the message lists the
/// kernels that reach a `.func`); and one finding with `where` "module" for
/// each `.extern .func` nobody calls and each `.extern .global`/`.const`
/// variable. `.extern .shared` (dynamic shared memory), indirect calls through
/// registers and CUDA system calls are not findings. Comments, string
/// literals, `.file`/`.loc` lines and `.section` blocks (debug info) are
/// skipped. Then, per function in module order, one `MisalignedAccess`
/// finding per variable accessed below its alignment (the header comment
/// says which), with `where` the function, `symbol` the variable and a
/// message such as "PTX kernel main_kernel: st.shared.v4.b32 (16 bytes) at
/// __wg_main_kernel_0+0, declared .align 4". Never fails: text it cannot
/// parse yields no finding for it.
std::vector<StaticFinding> checkPtx(std::string_view ptx);

/// Checks the text of an LLVM IR module for the device. Every `declare`d
/// function and every `external` global other than:
///   - LLVM intrinsics (`@llvm.*`);
///   - `external addrspace(3)` globals (dynamic shared memory / LDS);
///   - libdevice's `@__nv_*` when `libdeviceLinked`;
///   - ROCm device libraries' `@__ocml_*`, `@__ockl_*`, `@__oclc_*` when
///     `rocmDeviceLibsLinked`;
///   - CUDA system calls when the module's target triple is `nvptx*`;
/// is a finding, one per function (`define`) that references it, or one with
/// `where` "module" when no function does. Allocation symbols are always
/// findings, linked libraries or not.
std::vector<StaticFinding> checkLlvmIr(std::string_view llvmIrText,
                                       bool libdeviceLinked = false,
                                       bool rocmDeviceLibsLinked = false);

/// Reads an ELF64 little-endian image and reports each undefined symbol
/// (`st_shndx == SHN_UNDEF`, non-empty name) of its SHT_SYMTAB and SHT_DYNSYM
/// sections once, with `where` "module". On malformed input (bad magic, not
/// ELF64 LSB, a header, section or name outside the image, a symbol table
/// whose string table is not SHT_STRTAB...) returns no findings and sets
/// `error` to what was wrong; `error` is cleared on success. Never reads
/// outside [data, data + size).
std::vector<StaticFinding>
checkElfUndefinedSymbols(const uint8_t *data, size_t size, std::string &error);

/// The ELF machine number of AMDGPU code objects.
inline constexpr uint16_t kElfMachineAmdgpu = 224;

/// checkElfUndefinedSymbols for an AMDGPU code object: also an error when
/// `e_machine` is not EM_AMDGPU.
std::vector<StaticFinding> checkHsaco(const uint8_t *data, size_t size,
                                      std::string &error);

/// Checks one executable by its format: PTX as text (trailing NULs ignored),
/// HSACO as ELF, host shared objects not at all (host code may call libc).
/// `error` is set (and cleared otherwise) when the binary cannot be read.
std::vector<StaticFinding> checkExecutable(const rt::Executable &executable,
                                           std::string &error);

/// checkExecutable that reports an unreadable binary as a finding: verdict
/// `RuntimeError` (the loader would reject it), `where` "module", the reader's
/// error as the message.
std::vector<StaticFinding> checkExecutable(const rt::Executable &executable);

} // namespace sift::oracle
