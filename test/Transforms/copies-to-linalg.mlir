// RUN: sift-opt %s --sift-copies-to-linalg | FileCheck %s
// No artifact links MLIR's runtime library, so no copy may become a call of
// `memrefCopy` (what a copy between non-contiguous views lowers to): every
// memref.copy, nested or not, contiguous or strided, is rewritten as a
// linalg.copy with the same source and target, which lowers to loops.
// Other memory operations are untouched.

// CHECK-LABEL: func.func @contiguous
// CHECK-SAME: (%[[A:.+]]: memref<8xf32>, %[[B:.+]]: memref<8xf32>)
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%[[A]] : memref<8xf32>) outs(%[[B]] : memref<8xf32>)
func.func @contiguous(%a: memref<8xf32>, %b: memref<8xf32>) {
  memref.copy %a, %b : memref<8xf32> to memref<8xf32>
  return
}

// The strided source keeps its layout: the copy reads every second column.
// CHECK-LABEL: func.func @strided
// CHECK: %[[S:.+]] = memref.subview
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%[[S]] : memref<4x4xf32, strided<[8, 2]>>) outs(%{{.+}} : memref<4x4xf32>)
func.func @strided(%a: memref<4x8xf32>, %b: memref<4x4xf32>) {
  %s = memref.subview %a[0, 0] [4, 4] [1, 2] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 2]>>
  memref.copy %s, %b : memref<4x4xf32, strided<[8, 2]>> to memref<4x4xf32>
  return
}

// CHECK-LABEL: func.func @nested
// CHECK: scf.for
// CHECK-NEXT: linalg.copy ins(%{{.+}} : memref<8xi32>) outs(%{{.+}} : memref<8xi32>)
// CHECK-NOT: memref.copy
func.func @nested(%a: memref<8xi32>, %b: memref<8xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    memref.copy %a, %b : memref<8xi32> to memref<8xi32>
  }
  return
}

// The walk reaches nested symbol tables too (a kernel in a gpu.module), and
// a copy between memory spaces keeps both types.
// CHECK-LABEL: gpu.func @kernel
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%{{.+}} : memref<8xf32>) outs(%{{.+}} : memref<8xf32, #gpu.address_space<private>>)
// CHECK-NEXT: gpu.return
gpu.module @kernels {
  gpu.func @kernel(%a: memref<8xf32>, %b: memref<8xf32, #gpu.address_space<private>>) kernel {
    memref.copy %a, %b : memref<8xf32> to memref<8xf32, #gpu.address_space<private>>
    gpu.return
  }
}

// CHECK-LABEL: func.func @other
// CHECK-NOT: linalg.copy
// CHECK: memref.load
func.func @other(%a: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<8xf32>
  return %v : f32
}
