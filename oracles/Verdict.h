//===- oracles/Verdict.h - The outcome of one fuzzing case ----------------===//
//
// Every case the harness runs ends in exactly one verdict: it passed, or it
// exposed a finding of one class. The stable names ("pass", "malloc-in-kernel",
// ...) are what the findings DB, the corpus, CSV rows and exit codes use, so
// they never change; the enum is for code, the names are for storage.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string_view>

namespace sift::oracle {

/// The outcome of one case, from generation through compilation to the run.
enum class Verdict {
  Pass,               ///< Every oracle agreed.
  GenInvalid,         ///< The generator built an ill-defined program (its bug).
  CompileError,       ///< The compiler rejected a valid program.
  CompileCrash,       ///< The compiler died (signal, abort).
  CompileTimeout,     ///< The compiler ran past its time limit.
  MallocInKernel,     ///< Device code calls malloc/free.
  UnresolvedSymbol,   ///< Device code references any other unresolved symbol.
  WrongAddressSpace,  ///< An in-kernel allocation outside workgroup/private.
  SmemOverflow,       ///< Workgroup memory over the target's budget.
  UndistributedWrite, ///< A write to shared memory outside thread-mapped loops.
  MisalignedAccess,   ///< Device code accesses memory below its alignment.
  OutOfBounds,        ///< A load/store index can leave its buffer's shape.
  RuntimeError,       ///< Loading or running failed (launch error, GPU fault).
  RunTimeout,         ///< The run exceeded its time limit.
  Mismatch,           ///< Outputs differ from the reference.
  Nondeterministic,   ///< Two runs of the same artifact differ.
  MemcheckError,      ///< compute-sanitizer reported an invalid access.
  SlowKernel, ///< Slower than a set multiple of the best vendor baseline.
  /// The emu device saw threads of a workgroup reach different barriers,
  /// or some leave the kernel while others wait at one.
  BarrierDivergence,
  /// The emu device saw two threads of a workgroup touch one element
  /// between two barriers, or two workgroups of a dispatch touch one global
  /// element, one of them writing.
  DataRace,
  /// The emu device saw a thread read workgroup memory its workgroup had
  /// not written.
  UninitializedRead,
  /// The emu device saw the workgroups it ran at once only spin (atomic
  /// loads, no write, no barrier, no thread leaving) for so long that
  /// none could end: a wait for something no running thread will do.
  Hang,
  /// The system documents that it does not implement the program (a
  /// limit it raises on purpose, or a form its exchange format cannot
  /// express): counted, never a finding, never a pass.
  Unsupported,
};

/// Every verdict, in enum order.
inline constexpr Verdict kAllVerdicts[] = {
    Verdict::Pass,
    Verdict::GenInvalid,
    Verdict::CompileError,
    Verdict::CompileCrash,
    Verdict::CompileTimeout,
    Verdict::MallocInKernel,
    Verdict::UnresolvedSymbol,
    Verdict::WrongAddressSpace,
    Verdict::SmemOverflow,
    Verdict::UndistributedWrite,
    Verdict::MisalignedAccess,
    Verdict::OutOfBounds,
    Verdict::RuntimeError,
    Verdict::RunTimeout,
    Verdict::Mismatch,
    Verdict::Nondeterministic,
    Verdict::MemcheckError,
    Verdict::SlowKernel,
    Verdict::BarrierDivergence,
    Verdict::DataRace,
    Verdict::UninitializedRead,
    Verdict::Hang,
    Verdict::Unsupported,
};

/// The stable name: "pass", "gen-invalid", "compile-error", ...
std::string_view toString(Verdict verdict);

/// Parses a stable name; nullopt when it names no verdict.
std::optional<Verdict> parseVerdict(std::string_view name);

/// The emu device's check that failed a run, from the run's error message
/// (its checks start their reports with their verdict's name:
/// "out-of-bounds: ...", "barrier-divergence: ...", "data-race: ...",
/// "uninitialized-read: ...", "hang: ..."), or its own limit ("unsupported: ...", a
/// dispatch whose checks it cannot hold: not a finding); nullopt for any
/// other runtime error.
std::optional<Verdict> emuCheckVerdict(std::string_view message);

/// The verdict of a failed run from its error message: run-timeout when it
/// starts with kRunTimedOutPrefix (support/Process.h), unsupported when it
/// starts with kUnsupportedPrefix, an emu check's
/// verdict (`emu`: the run was on the emu device), else runtime-error.
Verdict runFailureVerdict(std::string_view message, bool emu);

/// The message without kRunTimedOutPrefix (the verdict says it).
std::string_view runFailureDetail(std::string_view message);

/// True for every verdict except `Pass` and `Unsupported`. `GenInvalid` counts: it is a bug in
/// the generator rather than the compiler, but it is still reported.
bool isFinding(Verdict verdict);

} // namespace sift::oracle
