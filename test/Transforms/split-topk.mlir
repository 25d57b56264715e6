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
// CHECK: %[[AT:.*]] = arith.index_cast %[[POS]] : i64 to index
// CHECK-DAG: %[[K:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[CHUNK:.*]] = arith.constant 64 : i64
// CHECK: %[[ROW:.*]] = linalg.index 0 : index
// CHECK: %[[IN:.*]] = tensor.extract %[[WITHIN]][%[[ROW]], %[[AT]]] : tensor<4x64xi64>
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


// A row the chunks do not divide: 1000 = 15 x 64 + 40. The whole chunks
// are a slice of the row, their 60 candidates and the remainder's 40
// elements make a row of 100, split again into one chunk and 36 more
// (4 + 36 = 40 candidates, a top-k of 40 last). A remainder's candidate p
// is input element 960 + (p - 60); under the fault, p - 60.
// CHECK-LABEL: func.func @uneven
// CHECK: %[[WHOLE:.*]] = tensor.extract_slice %[[X:.*]][0, 0] [4, 960] [1, 1] : tensor<4x1000xf32> to tensor<4x960xf32>
// CHECK: tensor.expand_shape %[[WHOLE]] {{\[}}[0], [1, 2]] output_shape [4, 15, 64]
// CHECK: %[[PART:.*]]:2 = sift.topk dimension(2) k(4) largest {sift.split_part}
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[PART]]#0 {{.*}} into tensor<4x60xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<4x100xf32>)
// CHECK: %[[P:.*]] = linalg.index 1 : index
// CHECK: %[[FIRST:.*]] = arith.cmpi ult, %[[P]], %c60 : index
// CHECK: %[[AT:.*]] = arith.minui %[[P]], %c59 : index
// CHECK: %[[SHIFTED:.*]] = arith.addi %[[P]], %c900 : index
// CHECK: %[[REST:.*]] = arith.select %[[FIRST]], %c960, %[[SHIFTED]] : index
// CHECK: %[[A:.*]] = tensor.extract %[[FLAT]][%{{.*}}, %[[AT]]] : tensor<4x60xf32>
// CHECK: %[[B:.*]] = tensor.extract %[[X]][%{{.*}}, %[[REST]]] : tensor<4x1000xf32>
// CHECK: %[[V:.*]] = arith.select %[[FIRST]], %[[A]], %[[B]] : f32
// CHECK: linalg.yield %[[V]] : f32
// CHECK: sift.topk dimension(2) k(4) largest {sift.split_part} ins(%{{.*}} : tensor<4x1x64xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<4x40xf32>)
// CHECK: %[[LAST:.*]]:2 = sift.topk dimension(1) k(4) largest ins(%{{.*}} : tensor<4x40xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[LAST]]#1 : tensor<4x4xi64>)
// CHECK: %[[INDEX:.*]] = linalg.generic
// CHECK: %[[CAND_I:.*]] = arith.cmpi ult, %{{.*}}, %c60_i64 : i64
// CHECK: %[[IN_CHUNK:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK: %[[WITHIN:.*]] = arith.subi %{{.*}}, %c60_i64 : i64
// CHECK: %[[IN_REST:.*]] = arith.addi %[[WITHIN]], %c960_i64 : i64
// CHECK: %[[I:.*]] = arith.select %[[CAND_I]], %[[IN_CHUNK]], %[[IN_REST]] : i64
// CHECK: linalg.yield %[[I]] : i64
// CHECK: return %[[LAST]]#0, %[[INDEX]]
// FAULT-LABEL: func.func @uneven
// FAULT: %[[INDEX:.*]] = linalg.generic
// FAULT: %[[WITHIN:.*]] = tensor.extract %{{.*}} : tensor<4x60xi64>
// FAULT: %[[REST:.*]] = arith.subi %{{.*}}, %c60_i64 : i64
// FAULT: %[[I:.*]] = arith.select %{{.*}}, %[[WITHIN]], %[[REST]] : i64
// FAULT: linalg.yield %[[I]] : i64
func.func @uneven(%x: tensor<4x1000xf32>) -> (tensor<4x4xf32>, tensor<4x4xi64>) {
  %v = tensor.empty() : tensor<4x4xf32>
  %i = tensor.empty() : tensor<4x4xi64>
  %r:2 = sift.topk dimension(1) k(4) largest {sift.lowering_config = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [1, 1, 1], algorithm = split_select, row_tile = 64>} ins(%x : tensor<4x1000xf32>) outs(%v, %i : tensor<4x4xf32>, tensor<4x4xi64>) -> tensor<4x4xf32>, tensor<4x4xi64>
  return %r#0, %r#1 : tensor<4x4xf32>, tensor<4x4xi64>
}

// -----

// Chunks longer than a thread walks (1024): the parts are marked
// sift.split_long_part (strategy selection gives them any algorithm but a
// split) instead of sift.split_part; [64, 151936] k50 in two chunks of
// 75968 a row. With a chunk of 1024 a part is still a thread's.
// CHECK-LABEL: func.func @long_chunks
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [64, 2, 75968]
// CHECK-NOT: sift.split_part
// CHECK: sift.topk dimension(2) k(50) largest {sift.split_long_part} ins(%{{.*}} : tensor<64x2x75968xf32>)
// CHECK: sift.topk dimension(1) k(50) largest ins(%{{.*}} : tensor<64x100xf32>)
// CHECK: arith.constant 75968 : i64
// CHECK-LABEL: func.func @thread_chunks
// CHECK: sift.topk dimension(2) k(4) largest {sift.split_part} ins(%{{.*}} : tensor<4x2x1024xf32>)
func.func @long_chunks(%x: tensor<64x151936xf32>) -> (tensor<64x50xf32>, tensor<64x50xi64>) {
  %v = tensor.empty() : tensor<64x50xf32>
  %i = tensor.empty() : tensor<64x50xi64>
  %r:2 = sift.topk dimension(1) k(50) largest {sift.lowering_config = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [1, 1, 1], algorithm = split_select, row_tile = 75968>} ins(%x : tensor<64x151936xf32>) outs(%v, %i : tensor<64x50xf32>, tensor<64x50xi64>) -> tensor<64x50xf32>, tensor<64x50xi64>
  return %r#0, %r#1 : tensor<64x50xf32>, tensor<64x50xi64>
}
func.func @thread_chunks(%x: tensor<4x2048xf32>) -> (tensor<4x4xf32>, tensor<4x4xi64>) {
  %v = tensor.empty() : tensor<4x4xf32>
  %i = tensor.empty() : tensor<4x4xi64>
  %r:2 = sift.topk dimension(1) k(4) largest {sift.lowering_config = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [1, 1, 1], algorithm = split_select, row_tile = 1024>} ins(%x : tensor<4x2048xf32>) outs(%v, %i : tensor<4x4xf32>, tensor<4x4xi64>) -> tensor<4x4xf32>, tensor<4x4xi64>
  return %r#0, %r#1 : tensor<4x4xf32>, tensor<4x4xi64>
}

// -----

// A chunk no longer than k would keep the whole row: an error naming the
// shape.
func.func @chunk_of_k(%x: tensor<4x1024xf32>) -> (tensor<4x4xf32>, tensor<4x4xi64>) {
  %v = tensor.empty() : tensor<4x4xf32>
  %i = tensor.empty() : tensor<4x4xi64>
  // expected-error @+1 {{split_select needs the last dimension, k >= 1 and a row longer than its chunks of row_tile > k elements; row 1024, dimension 1, k 4, row_tile 4}}
  %r:2 = sift.topk dimension(1) k(4) largest {sift.lowering_config = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [1, 1, 1], algorithm = split_select, row_tile = 4>} ins(%x : tensor<4x1024xf32>) outs(%v, %i : tensor<4x4xf32>, tensor<4x4xi64>) -> tensor<4x4xf32>, tensor<4x4xi64>
  return %r#0, %r#1 : tensor<4x4xf32>, tensor<4x4xi64>
}

// -----

// No rows (the campaign of seed 63, --sizes=large, found a [0, 9] top-k
// whose remainder split sliced the empty batch at offset 0, which the
// slice's verifier refused): the results are the empty destinations.
// CHECK-LABEL: func.func @no_rows
// CHECK-NOT: sift.topk
// CHECK-NOT: tensor.extract_slice
// CHECK: %[[V:.*]] = tensor.empty() : tensor<0x1xf64>
// CHECK: %[[I:.*]] = tensor.empty() : tensor<0x1xi64>
// CHECK: return %[[V]], %[[I]]
func.func @no_rows(%x: tensor<0x9xf64>) -> (tensor<0x1xf64>, tensor<0x1xi64>) {
  %v = tensor.empty() : tensor<0x1xf64>
  %i = tensor.empty() : tensor<0x1xi64>
  %r:2 = sift.topk dimension(1) k(1) smallest {sift.lowering_config = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [1, 1, 1], algorithm = split_select, row_tile = 4>} ins(%x : tensor<0x9xf64>) outs(%v, %i : tensor<0x1xf64>, tensor<0x1xi64>) -> tensor<0x1xf64>, tensor<0x1xi64>
  return %r#0, %r#1 : tensor<0x1xf64>, tensor<0x1xi64>
}
