// RUN: sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-drop-unused-libdevice))" | FileCheck %s
// sift-drop-unused-libdevice: a kernel module that calls libdevice (an
// `__nv_` declaration) keeps the link; one that does not loses it, and
// every other field of its #nvvm.target stays.

// CHECK-LABEL: gpu.module @math
// CHECK-SAME: #nvvm.target<O = 3, chip = "sm_90", flags = {fast}, link = ["/x/libdevice.10.bc"]>
// CHECK-LABEL: gpu.module @plain
// CHECK-SAME: [#nvvm.target<O = 3, chip = "sm_90", flags = {fast}>]
// CHECK-LABEL: gpu.module @untargeted
// CHECK-NOT: #nvvm
module attributes {gpu.container_module} {
  gpu.module @math [#nvvm.target<O = 3, chip = "sm_90", flags = {fast}, link = ["/x/libdevice.10.bc"]>] {
    llvm.func @__nv_expf(f32) -> f32
    llvm.func @k(%x: f32) -> f32 {
      %r = llvm.call @__nv_expf(%x) : (f32) -> f32
      llvm.return %r : f32
    }
  }
  gpu.module @plain [#nvvm.target<O = 3, chip = "sm_90", flags = {fast}, link = ["/x/libdevice.10.bc"]>] {
    llvm.func @k(%x: f32) -> f32 {
      llvm.return %x : f32
    }
  }
  gpu.module @untargeted {
    llvm.func @k(%x: f32) -> f32 {
      llvm.return %x : f32
    }
  }
}
