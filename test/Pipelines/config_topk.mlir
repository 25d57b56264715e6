// RUN: sift-opt %s --sift-select-lowering-strategy=pipeline=distribute -split-input-file | FileCheck %s
// RUN: not sift-opt %s --sift-select-lowering-strategy=pipeline=gpu 2>&1 | FileCheck %s --check-prefix=BAD
// Seed 15 draws register_select for @drawn (among workgroup_row, merge_rows,
// radix_sort, radix_onesweep and radix_select): any power-of-two chunk and
// threads.
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=distribute random-seed=15" -split-input-file | FileCheck %s --check-prefix=DRAWN
// Seed 12 draws register_select too (a chunk of 256), and the warp stream
// makes it warp_select: the same chunk, two warps at least.
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=distribute random-seed=12" -split-input-file | FileCheck %s --check-prefix=WARP
// Strategy selection for sift.topk: the domain skips the selected dimension.

// CHECK-LABEL: func.func @rows
// Rows of 50: a workgroup of 32 threads per row (the padded row / 2).
// CHECK: sift.topk dimension(1) k(3) largest {sift.lowering_config = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [32, 1, 1], algorithm = workgroup_row>, sift.pipeline = #sift.pipeline<distribute>}
// BAD: unknown pipeline 'gpu'; valid: cpu, tileandfuse, distribute
func.func @rows(%x: tensor<20x50xf32>) -> (tensor<20x3xf32>, tensor<20x3xi64>) {
  %v0 = tensor.empty() : tensor<20x3xf32>
  %i0 = tensor.empty() : tensor<20x3xi64>
  %v, %i = sift.topk dimension(1) k(3) largest ins(%x : tensor<20x50xf32>) outs(%v0, %i0 : tensor<20x3xf32>, tensor<20x3xi64>) -> tensor<20x3xf32>, tensor<20x3xi64>
  return %v, %i : tensor<20x3xf32>, tensor<20x3xi64>
}

// -----

// Selecting along dimension 0 of a 3-D input: domain [6, 2].
// CHECK-LABEL: func.func @first_dim
// CHECK: sift.topk dimension(0) k(0) smallest {sift.lowering_config = #sift.lowering_config<workgroup_tile = [8, 2], thread_tile = [1, 1], workgroup_size = [2, 8, 1], algorithm = row_per_thread>
func.func @first_dim(%x: tensor<9x6x2xi64>) -> tensor<0x6x2xi64> {
  %v0 = tensor.empty() : tensor<0x6x2xi64>
  %i0 = tensor.empty() : tensor<0x6x2xi64>
  %v, %i = sift.topk dimension(0) k(0) smallest ins(%x : tensor<9x6x2xi64>) outs(%v0, %i0 : tensor<0x6x2xi64>, tensor<0x6x2xi64>) -> tensor<0x6x2xi64>, tensor<0x6x2xi64>
  return %i : tensor<0x6x2xi64>
}

// -----

// Long rows, small k (2 or more), keys of at most 32 bits: warp_select,
// chunks of 4096 (the row is too short to give 512 workgroups), 128 threads
// (32 elements each: fewer than 512 workgroups).
// CHECK-LABEL: func.func @long_small_k
// CHECK: sift.topk dimension(1) k(8) largest {sift.lowering_config = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [128, 1, 1], algorithm = warp_select, row_tile = 4096>
func.func @long_small_k(%x: tensor<1x100000xf32>) -> (tensor<1x8xf32>, tensor<1x8xi64>) {
  %v0 = tensor.empty() : tensor<1x8xf32>
  %i0 = tensor.empty() : tensor<1x8xi64>
  %v, %i = sift.topk dimension(1) k(8) largest ins(%x : tensor<1x100000xf32>) outs(%v0, %i0 : tensor<1x8xf32>, tensor<1x8xi64>) -> tensor<1x8xf32>, tensor<1x8xi64>
  return %v, %i : tensor<1x8xf32>, tensor<1x8xi64>
}

// -----

// Many rows of 4096: one chunk a row, 600 workgroups of 64 threads (64
// elements each); k = 32 is past
// register_select's default k's (16: a thread's insertions grow with k),
// radix_select's, and with 600 rows its one-launch form: a workgroup of
// 1024 threads a row (row_tile = the row).
// CHECK-LABEL: func.func @many_rows
// CHECK: sift.topk dimension(1) k(4) smallest {sift.lowering_config = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [64, 1, 1], algorithm = warp_select, row_tile = 4096>
// CHECK: sift.topk dimension(1) k(32) smallest {sift.lowering_config = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [1024, 1, 1], algorithm = radix_select, row_tile = 4096>
func.func @many_rows(%x: tensor<600x4096xi32>) -> (tensor<600x4xi32>, tensor<600x32xi64>) {
  %v0 = tensor.empty() : tensor<600x4xi32>
  %i0 = tensor.empty() : tensor<600x4xi64>
  %v, %i = sift.topk dimension(1) k(4) smallest ins(%x : tensor<600x4096xi32>) outs(%v0, %i0 : tensor<600x4xi32>, tensor<600x4xi64>) -> tensor<600x4xi32>, tensor<600x4xi64>
  %w0 = tensor.empty() : tensor<600x32xi32>
  %j0 = tensor.empty() : tensor<600x32xi64>
  %w, %j = sift.topk dimension(1) k(32) smallest ins(%x : tensor<600x4096xi32>) outs(%w0, %j0 : tensor<600x32xi32>, tensor<600x32xi64>) -> tensor<600x32xi32>, tensor<600x32xi64>
  return %v, %j : tensor<600x4xi32>, tensor<600x32xi64>
}

// -----

// Beyond register_select: k over 32, or 64-bit keys, take radix_select.
// CHECK-LABEL: func.func @radix_instead
// CHECK: sift.topk dimension(1) k(33) largest {sift.lowering_config = #sift.lowering_config<{{.+}}algorithm = radix_select
// CHECK: sift.topk dimension(1) k(8) largest {sift.lowering_config = #sift.lowering_config<{{.+}}algorithm = radix_select
func.func @radix_instead(%x: tensor<4x5000xf32>, %y: tensor<4x5000xf64>) -> (tensor<4x33xi64>, tensor<4x8xi64>) {
  %v0 = tensor.empty() : tensor<4x33xf32>
  %i0 = tensor.empty() : tensor<4x33xi64>
  %v, %i = sift.topk dimension(1) k(33) largest ins(%x : tensor<4x5000xf32>) outs(%v0, %i0 : tensor<4x33xf32>, tensor<4x33xi64>) -> tensor<4x33xf32>, tensor<4x33xi64>
  %w0 = tensor.empty() : tensor<4x8xf64>
  %j0 = tensor.empty() : tensor<4x8xi64>
  %w, %j = sift.topk dimension(1) k(8) largest ins(%y : tensor<4x5000xf64>) outs(%w0, %j0 : tensor<4x8xf64>, tensor<4x8xi64>) -> tensor<4x8xf64>, tensor<4x8xi64>
  return %i, %j : tensor<4x33xi64>, tensor<4x8xi64>
}

// -----

// CHECK-LABEL: func.func @drawn
// CHECK: workgroup_size = [128, 1, 1], algorithm = warp_select, row_tile = 4096>
// DRAWN-LABEL: func.func @drawn
// DRAWN: workgroup_size = [256, 1, 1], algorithm = register_select, row_tile = 512>
// WARP-LABEL: func.func @drawn
// WARP: workgroup_size = [64, 1, 1], algorithm = warp_select, row_tile = 256>
func.func @drawn(%x: tensor<2x3000xf32>) -> (tensor<2x8xf32>, tensor<2x8xi64>) {
  %v0 = tensor.empty() : tensor<2x8xf32>
  %i0 = tensor.empty() : tensor<2x8xi64>
  %v, %i = sift.topk dimension(1) k(8) largest ins(%x : tensor<2x3000xf32>) outs(%v0, %i0 : tensor<2x8xf32>, tensor<2x8xi64>) -> tensor<2x8xf32>, tensor<2x8xi64>
  return %v, %i : tensor<2x8xf32>, tensor<2x8xi64>
}

// -----

// radix_select's multi-launch form, workgroups of 256 threads on chunks of
// the row, for fewer than 16 rows (8 rows of 65536 here: the chunks fill
// the GPU) and for rows longer than 2^18; from 16 rows of at most 2^18, a
// workgroup of 1024 threads a row in one launch.
// CHECK-LABEL: func.func @few_long_rows
// CHECK: workgroup_size = [256, 1, 1], algorithm = radix_select, row_tile = 1024>
// CHECK: workgroup_size = [1024, 1, 1], algorithm = radix_select, row_tile = 65536>
// CHECK: workgroup_size = [256, 1, 1], algorithm = radix_select, row_tile = 4096>
func.func @few_long_rows(%x: tensor<8x65536xf32>, %y: tensor<16x65536xf32>, %z: tensor<16x524288xf32>) -> (tensor<8x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>) {
  %v0 = tensor.empty() : tensor<8x64xf32>
  %i0 = tensor.empty() : tensor<8x64xi64>
  %v, %i = sift.topk dimension(1) k(64) largest ins(%x : tensor<8x65536xf32>) outs(%v0, %i0 : tensor<8x64xf32>, tensor<8x64xi64>) -> tensor<8x64xf32>, tensor<8x64xi64>
  %w0 = tensor.empty() : tensor<16x64xf32>
  %j0 = tensor.empty() : tensor<16x64xi64>
  %w, %j = sift.topk dimension(1) k(64) largest ins(%y : tensor<16x65536xf32>) outs(%w0, %j0 : tensor<16x64xf32>, tensor<16x64xi64>) -> tensor<16x64xf32>, tensor<16x64xi64>
  %u0 = tensor.empty() : tensor<16x64xf32>
  %l0 = tensor.empty() : tensor<16x64xi64>
  %u, %l = sift.topk dimension(1) k(64) largest ins(%z : tensor<16x524288xf32>) outs(%u0, %l0 : tensor<16x64xf32>, tensor<16x64xi64>) -> tensor<16x64xf32>, tensor<16x64xi64>
  return %v, %w, %u : tensor<8x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>
}
