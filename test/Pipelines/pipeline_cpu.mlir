// RUN: sift-opt %s --sift-cpu-pipeline -split-input-file | FileCheck %s
// The cpu pipeline ends in the LLVM dialect with the host ABI entry, the
// recorded plan, and no call into an MLIR runtime library.

// CHECK: module attributes {sift.dispatch_plan = {buffers = [
// CHECK-SAME: {element = f32, index = 0 : i64, role = "input", shape = array<i64: 4, 8>}
// CHECK-SAME: {element = f32, index = 0 : i64, role = "output", shape = array<i64: 4, 8>}
// CHECK-SAME: {element = i64, index = 1 : i64, role = "output", shape = array<i64: 4, 3>}
// CHECK-SAME: dispatches = [{bindings = array<i64: 0, 1, 2>, symbol = "sift_dispatch_0"}]
// CHECK-NOT: memrefCopy
// CHECK: llvm.func internal @main(
// CHECK: llvm.func @sift_dispatch_0(%[[B:.+]]: !llvm.ptr)
// CHECK:   %[[P0:.+]] = llvm.getelementptr %[[B]][0]
// CHECK:   llvm.load %[[P0]] : !llvm.ptr -> !llvm.ptr
// CHECK:   %[[P2:.+]] = llvm.getelementptr %[[B]][2]
// CHECK:   llvm.call @main(
// CHECK:   llvm.return
func.func @main(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x3xi64>) {
  %s = sift.sort dimension(1) descending outs(%x : tensor<4x8xf32>) -> tensor<4x8xf32>
  %v0 = tensor.empty() : tensor<4x3xf32>
  %i0 = tensor.empty() : tensor<4x3xi64>
  %v, %i = sift.topk dimension(1) k(3) smallest ins(%x : tensor<4x8xf32>) outs(%v0, %i0 : tensor<4x3xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>, tensor<4x3xi64>
  return %s, %i : tensor<4x8xf32>, tensor<4x3xi64>
}

// -----

// Zero-sized dimensions and strided slices (copies that would call
// memrefCopy) lower too.
// CHECK: module attributes {sift.dispatch_plan = {buffers = [{element = i32, index = 0 : i64, role = "input", shape = array<i64: 0, 5>}
// CHECK-NOT: memrefCopy
// CHECK: llvm.func @sift_dispatch_0
func.func @main(%x: tensor<0x5xi32>, %y: tensor<6x9xf64>) -> (tensor<0x5xi32>, tensor<3x3xf64>) {
  %s = sift.sort dimension(0) ascending outs(%x : tensor<0x5xi32>) -> tensor<0x5xi32>
  %t = sift.sort dimension(1) ascending outs(%y : tensor<6x9xf64>) -> tensor<6x9xf64>
  %sl = tensor.extract_slice %t[1, 0] [3, 3] [2, 3] : tensor<6x9xf64> to tensor<3x3xf64>
  return %s, %sl : tensor<0x5xi32>, tensor<3x3xf64>
}
