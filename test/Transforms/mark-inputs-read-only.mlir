// RUN: sift-opt %s --sift-mark-inputs-read-only | FileCheck %s
// The runtime owns the entry's input buffers: every tensor argument of a
// public function is marked `bufferization.writable = false`, so one-shot
// bufferization copies before writing instead of sorting the caller's input
// in place. Non-tensor arguments, private helpers (bufferized with their
// callers) and declarations are left alone.

// CHECK-LABEL: func.func @main
// CHECK-SAME: %{{.*}}: tensor<4xf32> {bufferization.writable = false}
// CHECK-SAME: %{{.*}}: tensor<2x3xi32> {bufferization.writable = false}
// CHECK-SAME: %{{[a-z0-9]+}}: index)
func.func @main(%a: tensor<4xf32>, %b: tensor<2x3xi32>, %n: index) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// Every public function, not only @main, and every tensor type (dynamic,
// unranked); a memref argument is a buffer already and is left alone.
// CHECK-LABEL: func.func @second
// CHECK-SAME: %{{.*}}: tensor<?xf32> {bufferization.writable = false}
// CHECK-SAME: %{{.*}}: tensor<*xi64> {bufferization.writable = false}
// CHECK-SAME: %{{[a-z0-9]+}}: memref<4xf32>)
func.func @second(%a: tensor<?xf32>, %b: tensor<*xi64>, %m: memref<4xf32>) {
  return
}

// CHECK-LABEL: func.func private @helper
// CHECK-NOT: writable
// CHECK: return
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// CHECK-LABEL: func.func private @external
// CHECK-NOT: writable
func.func private @external(%a: tensor<4xf32>) -> tensor<4xf32>
