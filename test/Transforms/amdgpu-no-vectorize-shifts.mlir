// RUN: sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-amdgpu-no-vectorize-shifts))" | FileCheck %s
// sift-amdgpu-no-vectorize-shifts: an AMDGPU kernel with a right shift by a
// variable amount gets noimplicitfloat (no vectorizers: LLVM 22 crashes
// selecting the vector shifts they make); a constant shift leaves a kernel
// as it was, and passthrough attributes it had stay.

// CHECK-LABEL: llvm.func @variable
// CHECK-SAME: passthrough = ["nounwind", "noimplicitfloat"]
// CHECK-LABEL: llvm.func @constant
// CHECK-NOT: noimplicitfloat
// CHECK: llvm.return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @variable(%x: i32, %s: i32) -> i32 attributes {passthrough = ["nounwind"]} {
      %r = llvm.lshr %x, %s : i32
      llvm.return %r : i32
    }
    llvm.func @constant(%x: i32) -> i32 {
      %c = llvm.mlir.constant(8 : i32) : i32
      %r = llvm.lshr %x, %c : i32
      llvm.return %r : i32
    }
  }
}
