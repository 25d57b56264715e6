// RUN: sift-opt %s --sift-merge-kernel-modules -split-input-file | FileCheck %s
// Every kernel moves into the first kernel module, renamed where its name
// is taken there, and every launch names its kernel's new place; a program
// with one kernel module is left as it is.

// CHECK-LABEL: module @three attributes {gpu.container_module}
// CHECK: func.func @main(%[[A:.+]]: memref<4xf32>, %[[B:.+]]: memref<8xi32>)
// CHECK: gpu.launch_func @first::@main_kernel {{.+}} args(%[[A]] : memref<4xf32>)
// CHECK: gpu.launch_func @first::@[[SECOND:main_kernel_[0-9]+]] {{.+}} args(%[[B]] : memref<8xi32>)
// CHECK: gpu.launch_func @first::@scan {{.+}} args(%[[B]] : memref<8xi32>)
// CHECK: gpu.launch_func @first::@[[SECOND]] {{.+}} args(%[[B]] : memref<8xi32>)
// CHECK: gpu.module @first {
// CHECK: gpu.func @main_kernel(%{{.+}}: memref<4xf32>) kernel
// CHECK: gpu.func @[[SECOND]](%{{.+}}: memref<8xi32>) kernel
// CHECK: arith.constant 7 : i32
// CHECK: gpu.func @scan(%{{.+}}: memref<8xi32>) kernel
// CHECK-NOT: gpu.module
module @three attributes {gpu.container_module} {
  func.func @main(%a: memref<4xf32>, %b: memref<8xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @first::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @second::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<8xi32>)
    gpu.launch_func @third::@scan blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<8xi32>)
    gpu.launch_func @second::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<8xi32>)
    return
  }
  gpu.module @first {
    gpu.func @main_kernel(%x: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %f = arith.constant 1.0 : f32
      memref.store %f, %x[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @second {
    gpu.func @main_kernel(%x: memref<8xi32>) kernel {
      %c0 = arith.constant 0 : index
      %v = arith.constant 7 : i32
      memref.store %v, %x[%c0] : memref<8xi32>
      gpu.return
    }
  }
  gpu.module @third {
    gpu.func @scan(%x: memref<8xi32>) kernel {
      gpu.return
    }
  }
}

// -----

// CHECK-LABEL: module @one
// CHECK: gpu.launch_func @only::@main_kernel
// CHECK: gpu.module @only
module @one attributes {gpu.container_module} {
  func.func @main(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @only::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  gpu.module @only {
    gpu.func @main_kernel(%x: memref<4xf32>) kernel {
      gpu.return
    }
  }
}
