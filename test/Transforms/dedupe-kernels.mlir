// RUN: sift-opt %s --sift-dedupe-kernels | FileCheck %s
// sift-dedupe-kernels: kernel modules whose contents are the same (the
// module's name and locations aside) become the first of them; their
// launches move to it, whatever buffers they pass. A module that differs in
// one constant stays.

// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @shift::@main_kernel {{.*}} args(%[[A:.+]] : memref<16xi32>, %[[B:.+]] : memref<16xi32>)
// CHECK-NEXT: gpu.launch_func @other::@main_kernel
// CHECK-NEXT: gpu.launch_func @shift::@main_kernel {{.*}} args(%[[B]] : memref<16xi32>, %[[A]] : memref<16xi32>)
// CHECK-NEXT: gpu.launch_func @shift::@main_kernel {{.*}} args(%[[A]] : memref<16xi32>, %[[B]] : memref<16xi32>)
// CHECK: gpu.module @shift
// CHECK: gpu.module @other
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  func.func @main(%a: memref<16xi32>, %b: memref<16xi32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @shift::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<16xi32>, %b : memref<16xi32>)
    gpu.launch_func @other::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<16xi32>, %b : memref<16xi32>)
    gpu.launch_func @same::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%b : memref<16xi32>, %a : memref<16xi32>)
    gpu.launch_func @again::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<16xi32>, %b : memref<16xi32>)
    return
  }
  gpu.module @shift {
    gpu.func @main_kernel(%from: memref<16xi32>, %to: memref<16xi32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %from[%t] : memref<16xi32>
      %c8 = arith.constant 8 : i32
      %s = arith.shrui %v, %c8 : i32
      memref.store %s, %to[%t] : memref<16xi32>
      gpu.return
    }
  }
  // Shifts by 16, not 8: another kernel.
  gpu.module @other {
    gpu.func @main_kernel(%from: memref<16xi32>, %to: memref<16xi32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %from[%t] : memref<16xi32>
      %c16 = arith.constant 16 : i32
      %s = arith.shrui %v, %c16 : i32
      memref.store %s, %to[%t] : memref<16xi32>
      gpu.return
    }
  }
  gpu.module @same {
    gpu.func @main_kernel(%in: memref<16xi32>, %out: memref<16xi32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %in[%t] : memref<16xi32> loc("elsewhere.mlir":3:4)
      %c8 = arith.constant 8 : i32
      %s = arith.shrui %v, %c8 : i32
      memref.store %s, %out[%t] : memref<16xi32>
      gpu.return
    }
  }
  gpu.module @again {
    gpu.func @main_kernel(%from: memref<16xi32>, %to: memref<16xi32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %from[%t] : memref<16xi32>
      %c8 = arith.constant 8 : i32
      %s = arith.shrui %v, %c8 : i32
      memref.store %s, %to[%t] : memref<16xi32>
      gpu.return
    }
  }
}
