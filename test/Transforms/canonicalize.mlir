// RUN: sift-opt %s -canonicalize -split-input-file | FileCheck %s
// sift.sort drops the operands whose results are unused, keeping the key.

// CHECK-LABEL: func.func @drop_unused_payload
// CHECK-SAME: (%[[K:.+]]: tensor<8xf32>, %[[A:.+]]: tensor<8xi64>, %[[B:.+]]: tensor<8xi32>)
func.func @drop_unused_payload(%k: tensor<8xf32>, %a: tensor<8xi64>, %b: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  // CHECK: %[[R:.+]]:2 = sift.sort dimension(0) ascending outs(%[[K]], %[[B]] : tensor<8xf32>, tensor<8xi32>)
  %r:3 = sift.sort dimension(0) ascending outs(%k, %a, %b : tensor<8xf32>, tensor<8xi64>, tensor<8xi32>) -> tensor<8xf32>, tensor<8xi64>, tensor<8xi32>
  // CHECK: return %[[R]]#0, %[[R]]#1
  return %r#0, %r#2 : tensor<8xf32>, tensor<8xi32>
}

// -----

// The key decides the order: it stays even when only a payload is used.
// CHECK-LABEL: func.func @keep_unused_key
// CHECK-SAME: (%[[K:.+]]: tensor<8xf32>, %[[A:.+]]: tensor<8xi64>)
func.func @keep_unused_key(%k: tensor<8xf32>, %a: tensor<8xi64>) -> tensor<8xi64> {
  // CHECK: %[[R:.+]]:2 = sift.sort dimension(0) descending outs(%[[K]], %[[A]] : tensor<8xf32>, tensor<8xi64>)
  %r:2 = sift.sort dimension(0) descending outs(%k, %a : tensor<8xf32>, tensor<8xi64>) -> tensor<8xf32>, tensor<8xi64>
  // CHECK: return %[[R]]#1
  return %r#1 : tensor<8xi64>
}

// -----

// The comparator moves to the new op.
// CHECK-LABEL: func.func @keep_comparator
func.func @keep_comparator(%k: tensor<8xi32>, %a: tensor<8xi64>) -> tensor<8xi32> {
  // CHECK: %[[R:.+]] = sift.sort dimension(0) outs(%{{.+}} : tensor<8xi32>) {
  // CHECK: arith.cmpi sgt
  // CHECK: } -> tensor<8xi32>
  %r:2 = sift.sort dimension(0) outs(%k, %a : tensor<8xi32>, tensor<8xi64>) {
  ^bb0(%l: i32, %r: i32):
    %c = arith.cmpi sgt, %l, %r : i32
    sift.yield %c : i1
  } -> tensor<8xi32>, tensor<8xi64>
  // CHECK: return %[[R]]
  return %r#0 : tensor<8xi32>
}

// -----

// A tensor sort with no used result is dead.
// CHECK-LABEL: func.func @dead_sort
func.func @dead_sort(%k: tensor<8xf32>) {
  // CHECK-NOT: sift.sort
  %r = sift.sort dimension(0) ascending outs(%k : tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

// On memrefs nothing is dropped: the op writes its operands.
// CHECK-LABEL: func.func @memref_untouched
func.func @memref_untouched(%k: memref<8xf32>, %a: memref<8xi64>) {
  // CHECK: sift.sort dimension(0) ascending outs(%{{.+}}, %{{.+}} : memref<8xf32>, memref<8xi64>)
  sift.sort dimension(0) ascending outs(%k, %a : memref<8xf32>, memref<8xi64>)
  return
}

// -----

// A tensor.cast to a less static type folds into the sort (sift's own
// pattern, so a named-order sort is never cloned through upstream's
// mlir::clone with its empty region); the result is cast back.
// CHECK-LABEL: func.func @fold_cast
// CHECK-SAME: (%[[K:.+]]: tensor<4x8xf32>)
func.func @fold_cast(%k: tensor<4x8xf32>) -> tensor<?x8xf32> {
  // CHECK: %[[S:.+]] = sift.sort dimension(1) ascending outs(%[[K]] : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: %[[C:.+]] = tensor.cast %[[S]] : tensor<4x8xf32> to tensor<?x8xf32>
  // CHECK: return %[[C]]
  %c = tensor.cast %k : tensor<4x8xf32> to tensor<?x8xf32>
  %r = sift.sort dimension(1) ascending outs(%c : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
