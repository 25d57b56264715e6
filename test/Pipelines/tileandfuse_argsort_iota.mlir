// RUN: sift-opt %s --sift-select-lowering-strategy=pipeline=tileandfuse --sift-tile-and-fuse -split-input-file | FileCheck %s --check-prefix=TILE
// RUN: sift-opt %s --sift-tileandfuse-pipeline="target=nvptx" -split-input-file | FileCheck %s
// An argsort in tileandfuse: the iota payload of a radix sort is not tiled,
// so that the sort folds it after bufferization (foldIotasIntoRow): no
// fill kernel, and the last scatter writes the positions it carries. The
// iota of a short row's sort (workgroup_row, a workgroup a row, which
// stages its operands) is tiled as any elementwise op.

// TILE-LABEL: func.func @main(%{{.+}}: tensor<64x40000xf32>)
// TILE-NOT: scf.forall
// TILE: linalg.index 1
// TILE: sift.sort dimension(1) descending {{.*}}algorithm = radix_match
// The plan: two ping-pong keys and slots, no copy of the payload aside;
// 12 launches (four count, scan and scatter), only the last of which
// takes the payload (it writes it).
// CHECK-LABEL: func.func @main(%{{.+}}: memref<64x40000xf32>
// CHECK-SAME: %[[IDX:[a-z0-9]+]]: memref<64x40000xi64>)
// CHECK-NOT: memref.alloc() : memref<64x40000xi64>
// CHECK-COUNT-11: gpu.launch_func {{.*}}blocks
// CHECK-NOT: %[[IDX]]
// CHECK: gpu.launch_func {{.*}}%[[IDX]] : memref<64x40000xi64>
// CHECK-NEXT: return
func.func @main(%x: tensor<64x40000xf32>) -> (tensor<64x40000xf32>, tensor<64x40000xi64>) {
  %e = tensor.empty() : tensor<64x40000xi64>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<64x40000xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<64x40000xi64>
  %s:2 = sift.sort dimension(1) descending outs(%x, %p : tensor<64x40000xf32>, tensor<64x40000xi64>) -> tensor<64x40000xf32>, tensor<64x40000xi64>
  return %s#0, %s#1 : tensor<64x40000xf32>, tensor<64x40000xi64>
}

// -----

// TILE-LABEL: func.func @main(%{{.+}}: tensor<64x1000xf32>)
// TILE: scf.forall
// TILE: linalg.index
// TILE: sift.sort dimension(1) descending {{.*}}algorithm = workgroup_row
func.func @main(%x: tensor<64x1000xf32>) -> (tensor<64x1000xf32>, tensor<64x1000xi64>) {
  %e = tensor.empty() : tensor<64x1000xi64>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<64x1000xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<64x1000xi64>
  %s:2 = sift.sort dimension(1) descending outs(%x, %p : tensor<64x1000xf32>, tensor<64x1000xi64>) -> tensor<64x1000xf32>, tensor<64x1000xi64>
  return %s#0, %s#1 : tensor<64x1000xf32>, tensor<64x1000xi64>
}
