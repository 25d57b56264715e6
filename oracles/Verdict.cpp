//===- oracles/Verdict.cpp - Verdict names --------------------------------===//
//
// The one mapping between `Verdict` and its stable names.
//
//===----------------------------------------------------------------------===//
#include "oracles/Verdict.h"

#include "support/Process.h"

#include <string>

namespace sift::oracle {

std::string_view toString(Verdict verdict) {
  switch (verdict) {
  case Verdict::Pass:
    return "pass";
  case Verdict::GenInvalid:
    return "gen-invalid";
  case Verdict::CompileError:
    return "compile-error";
  case Verdict::CompileCrash:
    return "compile-crash";
  case Verdict::CompileTimeout:
    return "compile-timeout";
  case Verdict::MallocInKernel:
    return "malloc-in-kernel";
  case Verdict::UnresolvedSymbol:
    return "unresolved-symbol";
  case Verdict::WrongAddressSpace:
    return "wrong-address-space";
  case Verdict::SmemOverflow:
    return "smem-overflow";
  case Verdict::UndistributedWrite:
    return "undistributed-write";
  case Verdict::MisalignedAccess:
    return "misaligned-access";
  case Verdict::OutOfBounds:
    return "out-of-bounds";
  case Verdict::RuntimeError:
    return "runtime-error";
  case Verdict::RunTimeout:
    return "run-timeout";
  case Verdict::Mismatch:
    return "mismatch";
  case Verdict::Nondeterministic:
    return "nondeterministic";
  case Verdict::MemcheckError:
    return "memcheck-error";
  case Verdict::SlowKernel:
    return "slow-kernel";
  case Verdict::BarrierDivergence: return "barrier-divergence";
  case Verdict::DataRace: return "data-race";
  case Verdict::UninitializedRead: return "uninitialized-read";
  case Verdict::Hang: return "hang";
  case Verdict::Unsupported: return "unsupported";
  }
  return "?";
}

std::optional<Verdict> parseVerdict(std::string_view name) {
  for (Verdict verdict : kAllVerdicts)
    if (toString(verdict) == name)
      return verdict;
  return std::nullopt;
}

std::optional<Verdict> emuCheckVerdict(std::string_view message) {
  // Unsupported: the emu device's own limit (a dispatch whose checks it
  // cannot hold), never a finding.
  for (Verdict verdict : {Verdict::OutOfBounds, Verdict::BarrierDivergence,
                          Verdict::DataRace, Verdict::UninitializedRead,
                          Verdict::Hang, Verdict::Unsupported}) {
    std::string prefix = std::string(toString(verdict)) + ": ";
    size_t at = message.find(prefix);
    // At the start or after a "dispatch N: " context.
    if (at != std::string_view::npos &&
        (at == 0 || message.substr(at - 2, 2) == ": "))
      return verdict;
  }
  return std::nullopt;
}

namespace {
bool timedOut(std::string_view message) {
  return message.substr(0, kRunTimedOutPrefix.size()) == kRunTimedOutPrefix;
}
} // namespace

Verdict runFailureVerdict(std::string_view message, bool emu) {
  if (timedOut(message))
    return Verdict::RunTimeout;
  if (message.substr(0, kUnsupportedPrefix.size()) == kUnsupportedPrefix)
    return Verdict::Unsupported;
  if (emu)
    if (std::optional<Verdict> check = emuCheckVerdict(message))
      return *check;
  return Verdict::RuntimeError;
}

std::string_view runFailureDetail(std::string_view message) {
  if (timedOut(message))
    message.remove_prefix(kRunTimedOutPrefix.size());
  return message;
}

bool isFinding(Verdict verdict) {
  switch (verdict) {
  case Verdict::Pass:
  case Verdict::Unsupported:
    return false;
  case Verdict::GenInvalid:
  case Verdict::CompileError:
  case Verdict::CompileCrash:
  case Verdict::CompileTimeout:
  case Verdict::MallocInKernel:
  case Verdict::UnresolvedSymbol:
  case Verdict::WrongAddressSpace:
  case Verdict::SmemOverflow:
  case Verdict::UndistributedWrite:
  case Verdict::RuntimeError:
  case Verdict::RunTimeout:
  case Verdict::Mismatch:
  case Verdict::Nondeterministic:
  case Verdict::MisalignedAccess:
  case Verdict::OutOfBounds:
  case Verdict::MemcheckError:
  case Verdict::SlowKernel:
  case Verdict::BarrierDivergence:
  case Verdict::DataRace:
  case Verdict::UninitializedRead:
  case Verdict::Hang: return true;
  }
  return true;
}

} // namespace sift::oracle
