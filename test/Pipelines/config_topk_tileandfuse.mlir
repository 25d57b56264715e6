// RUN: sift-opt %s --sift-select-lowering-strategy=pipeline=tileandfuse -split-input-file | FileCheck %s
// Seed 17 draws split_select for @long_small_k (among workgroup_row, radix_sort,
// merge_rows and radix_select).
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=tileandfuse random-seed=17" -split-input-file | FileCheck %s --check-prefix=RANDOM
// tileandfuse's top-k: private memory first, warp_select (k >= 2) for long rows
// of 32-bit keys (as distribute), split_select for 64-bit keys and k <= 16
// along the last dimension (chunks of at least 8k and 256), distribute's
// radix_select for larger k (split into cooperative parts where the rows
// alone make too few workgroups), and a split's per-chunk top-k a thread's
// (short chunks) or a cooperative one's (long).

// A row of 100 f32 with k = 4 fits a thread's 512 bytes: private_row.
// CHECK-LABEL: func.func @short
// CHECK: algorithm = private_row>
func.func @short(%x: tensor<16x100xf32>) -> (tensor<16x4xf32>, tensor<16x4xi64>) {
  %v0 = tensor.empty() : tensor<16x4xf32>
  %i0 = tensor.empty() : tensor<16x4xi64>
  %v, %i = sift.topk dimension(1) k(4) largest ins(%x : tensor<16x100xf32>) outs(%v0, %i0 : tensor<16x4xf32>, tensor<16x4xi64>) -> tensor<16x4xf32>, tensor<16x4xi64>
  return %v, %i : tensor<16x4xf32>, tensor<16x4xi64>
}

// -----

// Rows of 4096, k = 8: a workgroup's registers (a thread's private walk
// and split_select were 4.7x and 6.4x as slow on the H200).
// CHECK-LABEL: func.func @long_small_k
// CHECK: algorithm = warp_select, row_tile = 4096>
// RANDOM-LABEL: func.func @long_small_k
// Seed 17's split takes chunks of 2048 there, from the split's own stream:
// parts that strategy selection gives a cooperative algorithm.
// RANDOM: algorithm = split_select, row_tile = 2048>
func.func @long_small_k(%x: tensor<8x4096xf32>) -> (tensor<8x8xf32>, tensor<8x8xi64>) {
  %v0 = tensor.empty() : tensor<8x8xf32>
  %i0 = tensor.empty() : tensor<8x8xi64>
  %v, %i = sift.topk dimension(1) k(8) largest ins(%x : tensor<8x4096xf32>) outs(%v0, %i0 : tensor<8x8xf32>, tensor<8x8xi64>) -> tensor<8x8xf32>, tensor<8x8xi64>
  return %v, %i : tensor<8x8xf32>, tensor<8x8xi64>
}

// -----

// 64-bit keys, which register_select does not take: split in chunks of
// 256 (8k = 64, at least 256).
// CHECK-LABEL: func.func @long_small_k_f64
// CHECK: algorithm = split_select, row_tile = 256>
func.func @long_small_k_f64(%x: tensor<8x4096xf64>) -> (tensor<8x8xf64>, tensor<8x8xi64>) {
  %v0 = tensor.empty() : tensor<8x8xf64>
  %i0 = tensor.empty() : tensor<8x8xi64>
  %v, %i = sift.topk dimension(1) k(8) largest ins(%x : tensor<8x4096xf64>) outs(%v0, %i0 : tensor<8x8xf64>, tensor<8x8xi64>) -> tensor<8x8xf64>, tensor<8x8xi64>
  return %v, %i : tensor<8x8xf64>, tensor<8x8xi64>
}

// -----

// A row of 4001 f64, which no chunk divides: split_select only when drawn
// (a remainder's split; seed 17 draws chunks of 512: 7 whole ones and 417
// elements more), radix_select by default.
// CHECK-LABEL: func.func @odd_row_f64
// CHECK: algorithm = radix_select
// RANDOM-LABEL: func.func @odd_row_f64
// RANDOM: algorithm = split_select, row_tile = 512>
func.func @odd_row_f64(%x: tensor<8x4001xf64>) -> (tensor<8x8xf64>, tensor<8x8xi64>) {
  %v0 = tensor.empty() : tensor<8x8xf64>
  %i0 = tensor.empty() : tensor<8x8xi64>
  %v, %i = sift.topk dimension(1) k(8) largest ins(%x : tensor<8x4001xf64>) outs(%v0, %i0 : tensor<8x8xf64>, tensor<8x8xi64>) -> tensor<8x8xf64>, tensor<8x8xi64>
  return %v, %i : tensor<8x8xf64>, tensor<8x8xi64>
}

// -----

// k = 64 on rows of 65536: radix_select (a split's later levels insert
// sorted runs of 64, 18x PyTorch on the H100), in its one-launch form (a
// workgroup of 1024 threads a row) but 64 rows fill half an H200: split in
// two cooperative parts a row (128 workgroups), see @long_part.
// CHECK-LABEL: func.func @long_large_k
// CHECK: algorithm = split_select, row_tile = 32768>
func.func @long_large_k(%x: tensor<64x65536xf32>) -> (tensor<64x64xf32>, tensor<64x64xi64>) {
  %v0 = tensor.empty() : tensor<64x64xf32>
  %i0 = tensor.empty() : tensor<64x64xi64>
  %v, %i = sift.topk dimension(1) k(64) largest ins(%x : tensor<64x65536xf32>) outs(%v0, %i0 : tensor<64x64xf32>, tensor<64x64xi64>) -> tensor<64x64xf32>, tensor<64x64xi64>
  return %v, %i : tensor<64x64xf32>, tensor<64x64xi64>
}

// -----

// 128 rows make 128 workgroups of the one-launch radix_select: no split.
// CHECK-LABEL: func.func @many_long_rows
// CHECK: workgroup_size = [1024, 1, 1], algorithm = radix_select, row_tile = 65536>
func.func @many_long_rows(%x: tensor<128x65536xf32>) -> (tensor<128x64xf32>, tensor<128x64xi64>) {
  %v0 = tensor.empty() : tensor<128x64xf32>
  %i0 = tensor.empty() : tensor<128x64xi64>
  %v, %i = sift.topk dimension(1) k(64) largest ins(%x : tensor<128x65536xf32>) outs(%v0, %i0 : tensor<128x64xf32>, tensor<128x64xi64>) -> tensor<128x64xf32>, tensor<128x64xi64>
  return %v, %i : tensor<128x64xf32>, tensor<128x64xi64>
}

// -----

// 16 rows of 2^18, k = 50: the fewest parts that make 128 workgroups, eight
// of 32768 a row; [64, 151936] k50 (a sampling top-k): two of 75968.
// CHECK-LABEL: func.func @few_long_rows
// CHECK: algorithm = split_select, row_tile = 32768>
// CHECK-LABEL: func.func @sampling_k50
// CHECK: algorithm = split_select, row_tile = 75968>
func.func @few_long_rows(%x: tensor<16x262144xbf16>) -> (tensor<16x50xbf16>, tensor<16x50xi64>) {
  %v0 = tensor.empty() : tensor<16x50xbf16>
  %i0 = tensor.empty() : tensor<16x50xi64>
  %v, %i = sift.topk dimension(1) k(50) largest ins(%x : tensor<16x262144xbf16>) outs(%v0, %i0 : tensor<16x50xbf16>, tensor<16x50xi64>) -> tensor<16x50xbf16>, tensor<16x50xi64>
  return %v, %i : tensor<16x50xbf16>, tensor<16x50xi64>
}
func.func @sampling_k50(%x: tensor<64x151936xf32>) -> (tensor<64x50xf32>, tensor<64x50xi64>) {
  %v0 = tensor.empty() : tensor<64x50xf32>
  %i0 = tensor.empty() : tensor<64x50xi64>
  %v, %i = sift.topk dimension(1) k(50) largest ins(%x : tensor<64x151936xf32>) outs(%v0, %i0 : tensor<64x50xf32>, tensor<64x50xi64>) -> tensor<64x50xf32>, tensor<64x50xi64>
  return %v, %i : tensor<64x50xf32>, tensor<64x50xi64>
}

// -----

// A split's per-chunk top-k of long chunks (sift.split_long_part) is a top-k
// like any but for a split of its own: the one-launch radix_select by
// default, and never split_select when drawn (sift-split-topk has run).
// CHECK-LABEL: func.func @long_part
// CHECK: workgroup_size = [1024, 1, 1], algorithm = radix_select, row_tile = 131072>
// RANDOM-LABEL: func.func @long_part
// RANDOM-NOT: split_select
// RANDOM: return
func.func @long_part(%x: tensor<64x2x75968xf32>) -> (tensor<64x2x50xf32>, tensor<64x2x50xi64>) {
  %v0 = tensor.empty() : tensor<64x2x50xf32>
  %i0 = tensor.empty() : tensor<64x2x50xi64>
  %v, %i = sift.topk dimension(2) k(50) largest {sift.split_long_part} ins(%x : tensor<64x2x75968xf32>) outs(%v0, %i0 : tensor<64x2x50xf32>, tensor<64x2x50xi64>) -> tensor<64x2x50xf32>, tensor<64x2x50xi64>
  return %v, %i : tensor<64x2x50xf32>, tensor<64x2x50xi64>
}

// -----

// A split's per-chunk top-k (k = 8: its 96 bytes of kept values and
// indices fit private memory) stays a thread's, in default and random
// configs alike.
// CHECK-LABEL: func.func @part
// CHECK: algorithm = private_row>
// RANDOM-LABEL: func.func @part
// RANDOM: algorithm = {{private_row|row_per_thread}}>
func.func @part(%x: tensor<8x16x256xf32>) -> (tensor<8x16x8xf32>, tensor<8x16x8xi64>) {
  %v0 = tensor.empty() : tensor<8x16x8xf32>
  %i0 = tensor.empty() : tensor<8x16x8xi64>
  %v, %i = sift.topk dimension(2) k(8) largest {sift.split_part} ins(%x : tensor<8x16x256xf32>) outs(%v0, %i0 : tensor<8x16x8xf32>, tensor<8x16x8xi64>) -> tensor<8x16x8xf32>, tensor<8x16x8xi64>
  return %v, %i : tensor<8x16x8xf32>, tensor<8x16x8xi64>
}
