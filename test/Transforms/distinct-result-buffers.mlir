// RUN: sift-opt %s -split-input-file -sift-distinct-result-buffers | FileCheck %s
// RUN: sift-opt %s -split-input-file -sift-distinct-result-buffers "-buffer-results-to-out-params=hoist-static-allocs=1 modify-public-functions=1" | FileCheck %s --check-prefix=OUT

// One allocation returned twice (two outputs of no elements fold to one):
// the second result gets its own allocation and a copy, so that
// buffer-results-to-out-params hoists each into its out-param (it crashed
// on the second result of an erased allocation).
// CHECK-LABEL: func.func @twice
// CHECK: %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x0xi64>
// CHECK: %[[B:.*]] = memref.alloc() : memref<4x0xi64>
// CHECK: memref.copy %[[A]], %[[B]]
// CHECK: return %[[A]], %[[B]]
// OUT-LABEL: func.func @twice(%arg0: memref<4x0xi64>, %arg1: memref<4x0xi64>)
// OUT: memref.copy %arg0, %arg1
// OUT-NOT: memref.alloc
func.func @twice() -> (memref<4x0xi64>, memref<4x0xi64>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<4x0xi64>
  return %a, %a : memref<4x0xi64>, memref<4x0xi64>
}

// -----

// Distinct results stay as they are.
// CHECK-LABEL: func.func @distinct
// CHECK-NOT: memref.copy
// CHECK: return %arg0, %arg1
func.func @distinct(%a: memref<8xf32>, %b: memref<8xf32>) -> (memref<8xf32>, memref<8xf32>) {
  return %a, %b : memref<8xf32>, memref<8xf32>
}
