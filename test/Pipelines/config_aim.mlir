// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=distribute random-seed=1" -split-input-file | FileCheck %s
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=distribute random-seed=2" -split-input-file | FileCheck %s
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=distribute random-seed=3" -split-input-file | FileCheck %s
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=distribute random-seed=4" -split-input-file | FileCheck %s
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=distribute random-seed=5" -split-input-file | FileCheck %s
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=distribute random-seed=6" -split-input-file | FileCheck %s
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=distribute random-seed=7" -split-input-file | FileCheck %s
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=distribute random-seed=8" -split-input-file | FileCheck %s
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=distribute random-seed=9" -split-input-file | FileCheck %s
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=distribute random-seed=10" -split-input-file | FileCheck %s
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=distribute random-seed=11" -split-input-file | FileCheck %s
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=distribute random-seed=12" -split-input-file | FileCheck %s
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=tileandfuse random-seed=1" -split-input-file | FileCheck %s --check-prefix=TF
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=tileandfuse random-seed=2" -split-input-file | FileCheck %s --check-prefix=TF
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=tileandfuse random-seed=3" -split-input-file | FileCheck %s --check-prefix=TF
// RUN: sift-opt %s --sift-select-lowering-strategy="pipeline=tileandfuse random-seed=4" -split-input-file | FileCheck %s --check-prefix=TF
// The aim of random configs (Strategy/AimedAlgorithm.cpp), seed by seed:
// a top-k a select fits takes one whatever the main stream drew (here
// workgroup_row, merge_rows and the radix sorts fit too); a random
// radix_match takes 64 threads or more where they fit (a wave of gfx942),
// whether the main stream or the aim chose it; a random register_select
// takes 4 threads or more where its chunk has 4 elements (never one); in
// tileandfuse a top-k along the last dimension whose chunks divide the row
// takes a select too; so does a k = 1 top-k in distribute.

// CHECK-LABEL: func.func @topk_takes_a_select
// CHECK: {{workgroup_size = \[([2-9]|[1-9][0-9]+), 1, 1\], algorithm = register_select|algorithm = warp_select|algorithm = radix_select}}
// TF-LABEL: func.func @topk_takes_a_select
// TF: algorithm = {{split_select|register_select|warp_select|radix_select}}
func.func @topk_takes_a_select(%a: tensor<4x1024xf32>, %v: tensor<4x8xf32>, %i: tensor<4x8xi64>) -> (tensor<4x8xf32>, tensor<4x8xi64>) {
  %r:2 = sift.topk dimension(1) k(8) largest ins(%a : tensor<4x1024xf32>) outs(%v, %i : tensor<4x8xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>, tensor<4x8xi64>
  return %r#0, %r#1 : tensor<4x8xf32>, tensor<4x8xi64>
}

// -----

// CHECK-LABEL: func.func @match_fills_a_wave
// CHECK-NOT: workgroup_size = [{{1|2|4|8|16|32}}, 1, 1], algorithm = radix_match
func.func @match_fills_a_wave(%a: tensor<4x4096xf32>) -> tensor<4x4096xf32> {
  %r = sift.sort dimension(1) ascending outs(%a : tensor<4x4096xf32>) -> tensor<4x4096xf32>
  return %r : tensor<4x4096xf32>
}

// -----

// A k = 1 top-k where split_select does not fit (all of distribute's) that
// drew a sort's algorithm takes register_select where its keys fit: every
// seed's draw is a select.
// CHECK-LABEL: func.func @argmax_takes_a_select
// CHECK: algorithm = {{register_select|radix_select}}
func.func @argmax_takes_a_select(%a: tensor<4x1024xf32>, %v: tensor<4x1xf32>, %i: tensor<4x1xi64>) -> (tensor<4x1xf32>, tensor<4x1xi64>) {
  %r:2 = sift.topk dimension(1) k(1) largest ins(%a : tensor<4x1024xf32>) outs(%v, %i : tensor<4x1xf32>, tensor<4x1xi64>) -> tensor<4x1xf32>, tensor<4x1xi64>
  return %r#0, %r#1 : tensor<4x1xf32>, tensor<4x1xi64>
}

// -----

// A sort of a prime row of 32 to 128 keys that drew a radix or merge
// algorithm takes a thread's walk; a drawn workgroup_row takes radix_match
// three times in four, as a row of any length (distribute's seed 10). A
// row of 60 keys draws radix_sort, radix_onesweep, radix_match or
// merge_rows in 12 of these 16 runs.
// CHECK-LABEL: func.func @prime_row_walks
// CHECK: algorithm = {{row_per_thread|workgroup_row|radix_match}}
// TF-LABEL: func.func @prime_row_walks
// TF: algorithm = {{row_per_thread|private_row}}
func.func @prime_row_walks(%a: tensor<4x61xf32>) -> tensor<4x61xf32> {
  %r = sift.sort dimension(1) ascending outs(%a : tensor<4x61xf32>) -> tensor<4x61xf32>
  return %r : tensor<4x61xf32>
}
