// RUN: sift-opt %s -sift-test-tile="tile-sizes=2,2" -split-input-file | FileCheck %s
// TilingInterface: the iteration domain skips the sorted/selected dimension,
// so tiles hold whole rows.

// CHECK-LABEL: func.func @tile_sort
func.func @tile_sort(%a: tensor<8x16x4xf32>, %b: tensor<8x16x4xi64>) -> (tensor<8x16x4xf32>, tensor<8x16x4xi64>) {
  // CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args
  // CHECK: scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args
  // CHECK: %[[SA:.+]] = tensor.extract_slice %{{.+}}[%[[I]], 0, %[[J]]] [2, 16, 2] [1, 1, 1] : tensor<8x16x4xf32> to tensor<2x16x2xf32>
  // CHECK: %[[SB:.+]] = tensor.extract_slice %{{.+}}[%[[I]], 0, %[[J]]] [2, 16, 2] [1, 1, 1] : tensor<8x16x4xi64> to tensor<2x16x2xi64>
  // CHECK: %[[T:.+]]:2 = sift.sort dimension(1) ascending outs(%[[SA]], %[[SB]] : tensor<2x16x2xf32>, tensor<2x16x2xi64>)
  // CHECK: tensor.insert_slice %[[T]]#0 into %{{.+}}[%[[I]], 0, %[[J]]] [2, 16, 2]
  // CHECK: tensor.insert_slice %[[T]]#1 into %{{.+}}[%[[I]], 0, %[[J]]] [2, 16, 2]
  %r:2 = sift.sort dimension(1) ascending outs(%a, %b : tensor<8x16x4xf32>, tensor<8x16x4xi64>) -> tensor<8x16x4xf32>, tensor<8x16x4xi64>
  return %r#0, %r#1 : tensor<8x16x4xf32>, tensor<8x16x4xi64>
}

// -----

// CHECK-LABEL: func.func @tile_topk
func.func @tile_topk(%x: tensor<6x10xf32>) -> (tensor<6x3xf32>, tensor<6x3xi64>) {
  %v0 = tensor.empty() : tensor<6x3xf32>
  %i0 = tensor.empty() : tensor<6x3xi64>
  // CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args
  // CHECK: %[[IN:.+]] = tensor.extract_slice %{{.+}}[%[[I]], 0] [2, 10] [1, 1] : tensor<6x10xf32> to tensor<2x10xf32>
  // CHECK: %[[V:.+]] = tensor.extract_slice %{{.+}}[%[[I]], 0] [2, 3] [1, 1] : tensor<6x3xf32> to tensor<2x3xf32>
  // CHECK: %[[X:.+]] = tensor.extract_slice %{{.+}}[%[[I]], 0] [2, 3] [1, 1] : tensor<6x3xi64> to tensor<2x3xi64>
  // CHECK: sift.topk dimension(1) k(3) largest ins(%[[IN]] : tensor<2x10xf32>) outs(%[[V]], %[[X]] : tensor<2x3xf32>, tensor<2x3xi64>)
  %v, %i = sift.topk dimension(1) k(3) largest ins(%x : tensor<6x10xf32>) outs(%v0, %i0 : tensor<6x3xf32>, tensor<6x3xi64>) -> tensor<6x3xf32>, tensor<6x3xi64>
  return %v, %i : tensor<6x3xf32>, tensor<6x3xi64>
}

// -----

// A comparator region is carried into the tile.
// CHECK-LABEL: func.func @tile_sort_comparator
func.func @tile_sort_comparator(%a: tensor<4x8xi32>) -> tensor<4x8xi32> {
  // CHECK: scf.for
  // CHECK: sift.sort dimension(1) outs(%{{.+}} : tensor<2x8xi32>) {
  // CHECK: arith.cmpi sgt
  %r = sift.sort dimension(1) outs(%a : tensor<4x8xi32>) {
  ^bb0(%l: i32, %r: i32):
    %c = arith.cmpi sgt, %l, %r : i32
    sift.yield %c : i1
  } -> tensor<4x8xi32>
  return %r : tensor<4x8xi32>
}
