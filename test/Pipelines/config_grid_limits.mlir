// RUN: for s in 0 1 2 3 4 5 6 7 8 9; do sift-opt %s --sift-select-lowering-strategy="pipeline=distribute random-seed=$s"; done | FileCheck %s
// RUN: for s in 0 1 2 3 4 5 6 7 8 9; do sift-opt %s --sift-select-lowering-strategy="pipeline=tileandfuse random-seed=$s"; done | FileCheck %s
// Random configs keep the grid within 65,535 workgroups along y: a domain
// of 262,145 rows (found by harness --sizes=large: a y tile of 1 made a
// grid [2, 262145, 1], a compile-error in sift-extract-gpu-plan) gets y
// tiles of at least 8.

// CHECK-COUNT-10: linalg.generic {{.*}}workgroup_tile = [{{8|16|32|64|128|256|512|1024}}, {{[0-9]+}}]
func.func @tall(%x: tensor<262145x2xi32>) -> tensor<262145x2xi32> {
  %e = tensor.empty() : tensor<262145x2xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<262145x2xi32>) outs(%e : tensor<262145x2xi32>) {
  ^bb0(%a: i32, %o: i32):
    %s = arith.addi %a, %a : i32
    linalg.yield %s : i32
  } -> tensor<262145x2xi32>
  return %y : tensor<262145x2xi32>
}
