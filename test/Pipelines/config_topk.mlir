// RUN: sift-opt %s --sift-select-lowering-strategy=pipeline=distribute -split-input-file | FileCheck %s
// RUN: not sift-opt %s --sift-select-lowering-strategy=pipeline=gpu 2>&1 | FileCheck %s --check-prefix=BAD
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
