//===- runtime/emu/EmuDevice.h - GPU kernels run on the host ----*- C++ -*-===//
//
// The emu device runs an artifact's emu kernels (an emu-so executable: the
// GPU pipeline's kernels lowered for the host, EmuAbi.h) in place of its PTX
// or HSACO. Buffers are host memory, as on the cpu device, but filled with
// emu::kGlobalFill, not zeros, until written (a GPU's are not zeroed); a
// dispatch runs its workgroups a few at once, interleaved at global
// atomics, started in an order drawn from the device's seed and the
// dispatch's number, each workgroup's threads as fibers (Dispatch.h). What
// the kernels' checks report (out-of-bounds, barrier-divergence, hang, ...)
// fails the dispatch with a message that starts with the check's name and
// names the kernel.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/cpu/CpuDevice.h"
#include "runtime/emu/Workgroup.h"

#include <cstdint>
#include <memory>

namespace sift::rt {

/// Runs GPU kernels lowered for the host, on fibers, with checks.
class EmuDevice final : public CpuDevice {
public:
  explicit EmuDevice(uint64_t seed = 0) : seed_(seed) {}

  DeviceKind kind() const override { return DeviceKind::Emu; }
  std::string name() const override { return "emu"; }

  /// A buffer of host memory holding emu::kGlobalFill in every byte.
  Result<std::unique_ptr<Buffer>> allocate(const PlanBuffer &desc) override;
  Result<std::unique_ptr<Buffer>>
  allocateAsync(const PlanBuffer &desc) override;

  /// Accepts only emu-so executables; every entry needs its
  /// `<entry>_workgroup_bytes` global.
  Result<std::unique_ptr<LoadedExecutable>>
  load(const Executable &executable) override;
  /// Runs the dispatch to its end (synchronously); the workgroups' and the
  /// threads' orders come from the seed and the dispatches run since it
  /// was set.
  Status dispatch(LoadedExecutable &executable, const Dispatch &dispatch,
                  const std::vector<Buffer *> &bindings) override;

  /// Starts the orders afresh from `seed` (a run of a case: its seed and
  /// the run's number, so that a second run sees other orders).
  /// `checkAccesses` false leaves out the race and uninitialized-read
  /// checks (a repeated run, which is there for the other order: the checks
  /// look at every interval between barriers whatever the order, so they
  /// would find again what the first run found, at about half the run's
  /// time); the bounds and barrier checks stay.
  void reseed(uint64_t seed, bool checkAccesses = true) {
    seed_ = seed;
    dispatches_ = 0;
    checkAccesses_ = checkAccesses;
  }

private:
  emu::WorkgroupScheduler scheduler_;
  uint64_t seed_;
  uint64_t dispatches_ = 0;
  bool checkAccesses_ = true;
};

} // namespace sift::rt
