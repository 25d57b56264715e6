//===- harness/sut/SystemUnderTest.cpp - A compiler sift tests ------------===//

#include "harness/sut/SystemUnderTest.h"

namespace sift::harness {

SystemUnderTest::~SystemUnderTest() = default;

bool SystemUnderTest::runsOn(const rt::Device &device,
                             TargetKind target) const {
  switch (device.kind()) {
  case rt::DeviceKind::Cpu: return target == TargetKind::Host;
  case rt::DeviceKind::Cuda: return target == TargetKind::Nvptx;
  case rt::DeviceKind::Hip: return target == TargetKind::Amdgpu;
  // The emu device runs the kernels of either GPU target on the host.
  case rt::DeviceKind::Emu: return target != TargetKind::Host;
  }
  return false;
}

} // namespace sift::harness
