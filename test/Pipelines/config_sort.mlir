// RUN: sift-opt %s --sift-select-lowering-strategy=pipeline=distribute -split-input-file | FileCheck %s
// RUN: sift-opt %s --sift-select-lowering-strategy=pipeline=cpu -split-input-file | FileCheck %s --check-prefix=CPU
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=distribute random-seed=7" -split-input-file | FileCheck %s --check-prefix=RANDOM
// Strategy selection for sift.sort: the domain is every dimension but the
// sorted one, one row per thread, the innermost domain dimension on x.

// CHECK-LABEL: func.func @rows
// CHECK: sift.sort dimension(1) ascending {sift.lowering_config = #sift.lowering_config<workgroup_tile = [64], thread_tile = [1], workgroup_size = [64, 1, 1], algorithm = row_per_thread>, sift.pipeline = #sift.pipeline<distribute>}
// CPU-LABEL: func.func @rows
// CPU: sift.sort dimension(1) ascending {sift.pipeline = #sift.pipeline<cpu>}
// RANDOM-LABEL: func.func @rows
// RANDOM: sift.lowering_config = #sift.lowering_config<workgroup_tile = [{{[0-9]+}}], thread_tile = [{{[0-9]+}}], workgroup_size = [{{[0-9]+}}, 1, 1], algorithm = row_per_thread>
func.func @rows(%a: tensor<100x8xf32>) -> tensor<100x8xf32> {
  %r = sift.sort dimension(1) ascending outs(%a : tensor<100x8xf32>) -> tensor<100x8xf32>
  return %r : tensor<100x8xf32>
}

// -----

// Sorting the outer dimension of a rank-3 tensor: the domain is [5, 3];
// x takes the innermost domain dimension (3, rounded up to 4 threads), y
// the next with the threads left (64 / 4 = 16 >= 5, rounded up to 8).
// CHECK-LABEL: func.func @outer_dim
// CHECK: sift.sort dimension(0) descending {sift.lowering_config = #sift.lowering_config<workgroup_tile = [8, 4], thread_tile = [1, 1], workgroup_size = [4, 8, 1], algorithm = row_per_thread>
func.func @outer_dim(%a: tensor<7x5x3xi32>) -> tensor<7x5x3xi32> {
  %r = sift.sort dimension(0) descending outs(%a : tensor<7x5x3xi32>) -> tensor<7x5x3xi32>
  return %r : tensor<7x5x3xi32>
}

// -----

// Rank 1: an empty domain, one row on one thread.
// CHECK-LABEL: func.func @rank1
// CHECK: #sift.lowering_config<workgroup_tile = [], thread_tile = [], workgroup_size = [1, 1, 1], algorithm = row_per_thread>
func.func @rank1(%a: tensor<4096xf16>) -> tensor<4096xf16> {
  %r = sift.sort dimension(0) ascending outs(%a : tensor<4096xf16>) -> tensor<4096xf16>
  return %r : tensor<4096xf16>
}

// -----

// An existing config is kept.
// CHECK-LABEL: func.func @kept
// CHECK: workgroup_tile = [2], thread_tile = [2], workgroup_size = [1, 1, 1]
func.func @kept(%a: tensor<10x8xf32>) -> tensor<10x8xf32> {
  %r = sift.sort dimension(1) ascending {sift.lowering_config = #sift.lowering_config<workgroup_tile = [2], thread_tile = [2], workgroup_size = [1, 1, 1], algorithm = row_per_thread>} outs(%a : tensor<10x8xf32>) -> tensor<10x8xf32>
  return %r : tensor<10x8xf32>
}

// -----

// Elementwise producers get a config too: up to 256 threads.
// CHECK-LABEL: func.func @producer
// CHECK: linalg.generic
// CHECK-SAME: sift.lowering_config = #sift.lowering_config<workgroup_tile = [2, 128], thread_tile = [1, 1], workgroup_size = [128, 2, 1], algorithm = elementwise>
func.func @producer(%a: tensor<9x100xf32>) -> tensor<9x100xf32> {
  %e = tensor.empty() : tensor<9x100xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<9x100xf32>) outs(%e : tensor<9x100xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<9x100xf32>
  return %n : tensor<9x100xf32>
}
