// RUN: sift-opt %s --sift-select-lowering-strategy=pipeline=distribute -split-input-file | FileCheck %s
// RUN: sift-opt %s --sift-select-lowering-strategy=pipeline=cpu -split-input-file | FileCheck %s --check-prefix=CPU
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=distribute random-seed=7" -split-input-file | FileCheck %s --check-prefix=RANDOM
// RUN: sift-opt %s --sift-select-lowering-strategy=pipeline=tileandfuse -split-input-file | FileCheck %s --check-prefix=TF
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=distribute max-workgroup-memory=131072" -split-input-file | FileCheck %s --check-prefix=BIG
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=distribute max-workgroup-memory=24576" -split-input-file | FileCheck %s --check-prefix=SMALL
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=distribute random-seed=13" -split-input-file | FileCheck %s --check-prefix=RANDOM13
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=distribute random-seed=3" -split-input-file | FileCheck %s --check-prefix=RANDOM3
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=distribute random-seed=2" -split-input-file | FileCheck %s --check-prefix=RANDOM2
// Strategy selection for sift.sort: the domain is every dimension but the
// sorted one, the innermost domain dimension on x. Short rows (under 16)
// get a thread each; in distribute, longer rows that fit workgroup memory
// get a workgroup each (workgroup_row), larger ones fall back to a thread
// per row in global memory; in tileandfuse, rows that fit 512 bytes are
// staged in private memory (private_row).

// CHECK-LABEL: func.func @rows
// CHECK: sift.sort dimension(1) ascending {sift.lowering_config = #sift.lowering_config<workgroup_tile = [64], thread_tile = [1], workgroup_size = [64, 1, 1], algorithm = row_per_thread>, sift.pipeline = #sift.pipeline<distribute>}
// CPU-LABEL: func.func @rows
// CPU: sift.sort dimension(1) ascending {sift.pipeline = #sift.pipeline<cpu>}
// TF-LABEL: func.func @rows
// TF: #sift.lowering_config<workgroup_tile = [64], thread_tile = [1], workgroup_size = [64, 1, 1], algorithm = private_row>
// RANDOM-LABEL: func.func @rows
// RANDOM: sift.lowering_config = #sift.lowering_config<workgroup_tile = [{{[0-9]+}}], thread_tile = [{{[0-9]+}}], workgroup_size = [{{[0-9]+}}, 1, 1], algorithm = {{row_per_thread|workgroup_row|merge_rows}}{{(, row_tile = [0-9]+)?}}>
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

// Rank 1: an empty domain. 4096 x f16 and the padded i32 indices take 24 KiB
// of workgroup memory: 512 threads (8 composites each, up to 512) sort the
// row together. Too large for private memory, so tileandfuse gives the row
// the same cooperative algorithm (the op is not tiled).
// CHECK-LABEL: func.func @rank1
// CHECK: #sift.lowering_config<workgroup_tile = [], thread_tile = [], workgroup_size = [512, 1, 1], algorithm = workgroup_row>
// TF-LABEL: func.func @rank1
// TF: #sift.lowering_config<workgroup_tile = [], thread_tile = [], workgroup_size = [512, 1, 1], algorithm = workgroup_row>
func.func @rank1(%a: tensor<4096xf16>) -> tensor<4096xf16> {
  %r = sift.sort dimension(0) ascending outs(%a : tensor<4096xf16>) -> tensor<4096xf16>
  return %r : tensor<4096xf16>
}

// -----

// Keys of at most 32 bits in a named order sort as composites, 8 a thread
// (1024 slots: 128 threads), at least a warp where the row has 64 slots
// (128 slots: 32 threads, 4 each); a comparator region keeps a thread per
// compare-exchange.
// CHECK-LABEL: func.func @composite_threads
// CHECK: workgroup_size = [128, 1, 1], algorithm = workgroup_row>
// CHECK: workgroup_size = [32, 1, 1], algorithm = workgroup_row>
// CHECK: workgroup_size = [64, 1, 1], algorithm = workgroup_row>
func.func @composite_threads(%a: tensor<4x1024xf32>, %b: tensor<8x128xi32>, %c: tensor<8x128xi32>) -> (tensor<4x1024xf32>, tensor<8x128xi32>, tensor<8x128xi32>) {
  %r = sift.sort dimension(1) descending outs(%a : tensor<4x1024xf32>) -> tensor<4x1024xf32>
  %s = sift.sort dimension(1) ascending outs(%b : tensor<8x128xi32>) -> tensor<8x128xi32>
  %t = sift.sort dimension(1) outs(%c : tensor<8x128xi32>) {
  ^bb0(%x: i32, %y: i32):
    %lt = arith.cmpi slt, %x, %y : i32
    sift.yield %lt : i1
  } -> tensor<8x128xi32>
  return %r, %s, %t : tensor<4x1024xf32>, tensor<8x128xi32>, tensor<8x128xi32>
}

// -----

// 2 x 4096 x 8 bytes + 16 KiB of indices = 80 KiB: over 48 KiB, and the
// order is a named one, so a radix sort ranked by warp match (radix_match)
// of tiles of 2048 f64 keys, 8 a thread (its ranking is unrolled over a
// thread's keys in each pass: 64-bit keys take eight passes, so half the
// keys of 32-bit ones): one (key, slot) array of 27 KiB (its lanes rank
// their keys from registers), the eight warps' digit counts (8 KiB), the
// scan's partials and 256 digit starts and bases fit 48 KiB (4096 would
// not); a larger budget takes the workgroup algorithm.
// CHECK-LABEL: func.func @too_large
// CHECK: #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [256, 1, 1], algorithm = radix_match, row_tile = 2048>
// BIG-LABEL: func.func @too_large
// BIG: #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [512, 1, 1], algorithm = workgroup_row>
func.func @too_large(%a: tensor<2x4096xf64>, %b: tensor<2x4096xi64>) -> (tensor<2x4096xf64>, tensor<2x4096xi64>) {
  %r:2 = sift.sort dimension(1) ascending outs(%a, %b : tensor<2x4096xf64>, tensor<2x4096xi64>) -> tensor<2x4096xf64>, tensor<2x4096xi64>
  return %r#0, %r#1 : tensor<2x4096xf64>, tensor<2x4096xi64>
}

// -----

// One row of 2^20: a radix sort ranked by warp match in tiles of 4096 f32
// keys, 256 threads (28 KiB of workgroup memory: one array of keys alone,
// no row positions, and eight warps' digit counts). A 24 KiB budget halves
// the tile.
// CHECK-LABEL: func.func @huge_row
// CHECK: #sift.lowering_config<workgroup_tile = [], thread_tile = [], workgroup_size = [256, 1, 1], algorithm = radix_match, row_tile = 4096>
// SMALL-LABEL: func.func @huge_row
// SMALL: workgroup_size = [128, 1, 1], algorithm = radix_match, row_tile = 2048>
// Random configs draw radix_sort (or radix_onesweep) with any tile that
// keeps a row within 1024 tiles (here from 1024) and at least a thread per
// 64 keys, and merge_rows; three in four of the radix sorts (a stream of
// their own) rank by warp match, in whole warps with at most 16 keys a
// thread, at least 64 threads (a wave of gfx942) where those fit.
// RANDOM13-LABEL: func.func @huge_row
// RANDOM13: workgroup_size = [128, 1, 1], algorithm = radix_match, row_tile = 1024>
// RANDOM13-LABEL: func.func @long_comparator
// RANDOM3-LABEL: func.func @huge_row
// RANDOM3: algorithm = merge_rows, row_tile = {{[0-9]+}}>
// RANDOM3-LABEL: func.func @long_comparator
// RANDOM2-LABEL: func.func @huge_row
// RANDOM2: workgroup_size = [512, 1, 1], algorithm = radix_match, row_tile = 4096>
// RANDOM2-LABEL: func.func @long_comparator
func.func @huge_row(%a: tensor<1048576xf32>) -> tensor<1048576xf32> {
  %r = sift.sort dimension(0) descending outs(%a : tensor<1048576xf32>) -> tensor<1048576xf32>
  return %r : tensor<1048576xf32>
}

// -----

// A comparator region is opaque to a radix sort: tiles sorted and merged.
// CHECK-LABEL: func.func @long_comparator
// CHECK: #sift.lowering_config<workgroup_tile = [], thread_tile = [], workgroup_size = [1024, 1, 1], algorithm = merge_rows, row_tile = 4096>
func.func @long_comparator(%a: tensor<16384xf32>) -> tensor<16384xf32> {
  %r = sift.sort dimension(0) outs(%a : tensor<16384xf32>) {
  ^bb0(%x: f32, %y: f32):
    %lt = arith.cmpf ogt, %x, %y : f32
    sift.yield %lt : i1
  } -> tensor<16384xf32>
  return %r : tensor<16384xf32>
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
