// RUN: for s in $(seq 0 59); do sift-opt %s --sift-select-lowering-strategy="pipeline=tileandfuse random-seed=$s"; done > %t
// RUN: python3 %S/Inputs/config_bounds.py %t 1024 1024 | FileCheck %s
// Random configs that a campaign's kernels can afford (its 99th percentile
// must stay under 5 ms on the H200; seed 1403 drew kernels of 8 to 73 ms):
// - an elementwise op's thread gets at most 1,024 points (32,768 points on
//   4 threads a workgroup took 19 ms): a larger draw is spread over more
//   threads or workgroups;
// - a split_select of k > 64 takes chunks of cooperative parts (2,048
//   elements or more), never chunks a thread walks keeping its k best
//   (k = 81 to 231 in chunks of 512 took 8 to 73 ms).
// config_bounds.py prints each config's points a thread and each split's
// k and chunk.

// Over the 60 seeds: no elementwise thread over 1,024 points, some at it
// (the draws that were spread), and splits of k = 100 drawn, every one
// into chunks of 2048 or more.
// CHECK-NOT: over
// CHECK-NOT: split k 100 {{.*}}thread-walked
// CHECK: elementwise points 1024{{$}}
// CHECK-NOT: over
// CHECK-NOT: split k 100 {{.*}}thread-walked
// CHECK: split k 100 chunk {{2048|4096}}{{$}}
// CHECK-NOT: over
// CHECK-NOT: split k 100 {{.*}}thread-walked
func.func @large_k(%x: tensor<64x64x1024xf32>, %y: tensor<8x8192xf32>) -> (tensor<64x64x1024xf32>, tensor<8x100xf32>, tensor<8x100xi64>) {
  %e = tensor.empty() : tensor<64x64x1024xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<64x64x1024xf32>) outs(%e : tensor<64x64x1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<64x64x1024xf32>
  %v0 = tensor.empty() : tensor<8x100xf32>
  %i0 = tensor.empty() : tensor<8x100xi64>
  %v, %i = sift.topk dimension(1) k(100) largest ins(%y : tensor<8x8192xf32>) outs(%v0, %i0 : tensor<8x100xf32>, tensor<8x100xi64>) -> tensor<8x100xf32>, tensor<8x100xi64>
  return %z, %v, %i : tensor<64x64x1024xf32>, tensor<8x100xf32>, tensor<8x100xi64>
}
