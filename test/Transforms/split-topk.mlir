// RUN: sift-opt %s -sift-split-topk -split-input-file -verify-diagnostics | FileCheck %s
// RUN: sift-opt %s -sift-split-topk=inject-lost-chunk-offset=1 -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=FAULT
// Algorithm split_select (tileandfuse): a top-k of long rows becomes a
// per-chunk top-k over a view of the row as chunks, a top-k of the
// chunks' candidates (split again while it is two or more chunks longer
// than k), and a gather that maps a candidate back to its input index.

// 4 rows of 1024 in chunks of 64, k = 4: 16 chunks a row keep 64
// candidates, one chunk: no second split.
// CHECK-LABEL: func.func @rows
// CHECK: %[[VIEW:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [4, 16, 64] : tensor<4x1024xf32> into tensor<4x16x64xf32>
// CHECK: %[[PART:.*]]:2 = sift.topk dimension(2) k(4) largest {sift.split_part} ins(%[[VIEW]] : tensor<4x16x64xf32>)
// CHECK: %[[CAND:.*]] = tensor.collapse_shape %[[PART]]#0 {{\[}}[0], [1, 2]] : tensor<4x16x4xf32> into tensor<4x64xf32>
// CHECK: %[[LAST:.*]]:2 = sift.topk dimension(1) k(4) largest ins(%[[CAND]] : tensor<4x64xf32>)
// CHECK: %[[WITHIN:.*]] = tensor.collapse_shape %[[PART]]#1 {{\[}}[0], [1, 2]] : tensor<4x16x4xi64> into tensor<4x64xi64>
// CHECK: %[[INDEX:.*]] = linalg.generic {{.*}} ins(%[[LAST]]#1 : tensor<4x4xi64>)
// CHECK: ^bb0(%[[POS:.*]]: i64, %{{.*}}: i64):
// CHECK: %[[ROW:.*]] = linalg.index 0 : index
// CHECK: %[[AT:.*]] = arith.index_cast %[[POS]] : i64 to index
// CHECK: %[[IN:.*]] = tensor.extract %[[WITHIN]][%[[ROW]], %[[AT]]] : tensor<4x64xi64>
// CHECK-DAG: %[[K:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[CHUNK:.*]] = arith.constant 64 : i64
// CHECK: %[[WHICH:.*]] = arith.divui %[[POS]], %[[K]] : i64
// CHECK: %[[START:.*]] = arith.muli %[[WHICH]], %[[CHUNK]] : i64
// CHECK: %[[SUM:.*]] = arith.addi %[[IN]], %[[START]] : i64
// CHECK: linalg.yield %[[SUM]] : i64
// CHECK: return %[[LAST]]#0, %[[INDEX]]
// FAULT-LABEL: func.func @rows
// FAULT: %[[IN:.*]] = tensor.extract
// FAULT: arith.addi
// FAULT-NEXT: linalg.yield %[[IN]] : i64
func.func @rows(%x: tensor<4x1024xf32>) -> (tensor<4x4xf32>, tensor<4x4xi64>) {
  %v = tensor.empty() : tensor<4x4xf32>
  %i = tensor.empty() : tensor<4x4xi64>
  %r:2 = sift.topk dimension(1) k(4) largest {sift.lowering_config = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [1, 1, 1], algorithm = split_select, row_tile = 64>} ins(%x : tensor<4x1024xf32>) outs(%v, %i : tensor<4x4xf32>, tensor<4x4xi64>) -> tensor<4x4xf32>, tensor<4x4xi64>
  return %r#0, %r#1 : tensor<4x4xf32>, tensor<4x4xi64>
}

// -----

// One row of 4096 in chunks of 16, k = 2, smallest: 256 chunks keep 512
// candidates (32 chunks), then 64 (4 chunks), then 8: a top-k of 8 last,
// three gathers composing the positions.
// CHECK-LABEL: func.func @levels
// CHECK: sift.topk dimension(1) k(2) smallest {sift.split_part} ins(%{{.*}} : tensor<256x16xf16>)
// CHECK: sift.topk dimension(1) k(2) smallest {sift.split_part} ins(%{{.*}} : tensor<32x16xf16>)
// CHECK: sift.topk dimension(1) k(2) smallest {sift.split_part} ins(%{{.*}} : tensor<4x16xf16>)
// CHECK: sift.topk dimension(0) k(2) smallest ins(%{{.*}} : tensor<8xf16>)
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT: sift.topk
func.func @levels(%x: tensor<4096xf16>) -> (tensor<2xf16>, tensor<2xi64>) {
  %v = tensor.empty() : tensor<2xf16>
  %i = tensor.empty() : tensor<2xi64>
  %r:2 = sift.topk dimension(0) k(2) smallest {sift.lowering_config = #sift.lowering_config<workgroup_tile = [], thread_tile = [], workgroup_size = [1, 1, 1], algorithm = split_select, row_tile = 16>} ins(%x : tensor<4096xf16>) outs(%v, %i : tensor<2xf16>, tensor<2xi64>) -> tensor<2xf16>, tensor<2xi64>
  return %r#0, %r#1 : tensor<2xf16>, tensor<2xi64>
}

// -----

// A chunk that does not divide the row is an error naming the shape.
func.func @uneven(%x: tensor<4x1000xf32>) -> (tensor<4x4xf32>, tensor<4x4xi64>) {
  %v = tensor.empty() : tensor<4x4xf32>
  %i = tensor.empty() : tensor<4x4xi64>
  // expected-error @+1 {{split_select needs the last dimension, k >= 1 and a row of at least two chunks of row_tile >= k elements; row 1000, dimension 1, k 4, row_tile 64}}
  %r:2 = sift.topk dimension(1) k(4) largest {sift.lowering_config = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [1, 1, 1], algorithm = split_select, row_tile = 64>} ins(%x : tensor<4x1000xf32>) outs(%v, %i : tensor<4x4xf32>, tensor<4x4xi64>) -> tensor<4x4xf32>, tensor<4x4xi64>
  return %r#0, %r#1 : tensor<4x4xf32>, tensor<4x4xi64>
}
