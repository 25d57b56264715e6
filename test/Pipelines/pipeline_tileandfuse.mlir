// RUN: sift-opt %s --sift-select-lowering-strategy=pipeline=tileandfuse --sift-tile-and-fuse --canonicalize | FileCheck %s --check-prefix=TILE
// RUN: sift-opt %s --sift-tileandfuse-pipeline="target=nvptx" | FileCheck %s --check-prefixes=CHECK,NVVM
// RUN: sift-opt %s --sift-tileandfuse-pipeline="target=amdgpu toolkit=%sift_obj/amdgpu-toolkit" | FileCheck %s --check-prefixes=CHECK,ROCDL
// tileandfuse: every consumer is tiled into a workgroup forall and a thread
// forall (one row or element per thread), with elementwise producers of its
// inputs fused into both; a sort works on a fresh copy of its outs (so
// bufferization never copies a tile inside a workgroup loop), which keeps
// the producer of its outs as a kernel of its own. Bufferization comes after
// tiling.

// TILE-LABEL: func.func @main
// TILE: scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (4, 8) step (4, 8)
// TILE:   scf.forall (%{{.+}}, %{{.+}}) in (4, 8)
// TILE:     linalg.generic
// TILE:       arith.mulf
// TILE:   } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// TILE: } {mapping = [#gpu.block<y>, #gpu.block<x>]}
// TILE: %[[FRESH:.+]] = bufferization.alloc_tensor() copy(
// TILE: scf.forall (%{{.+}}) = (0) to (4) step (4) shared_outs(%{{.+}} = %[[FRESH]])
// TILE:   scf.forall (%{{.+}}) in (4) shared_outs(
// TILE:     sift.sort dimension(1) descending
// TILE-SAME: tensor<1x8xf32>
// TILE:   } {mapping = [#gpu.thread<x>]}
// TILE: } {mapping = [#gpu.block<x>]}
// TILE: scf.forall
// TILE:   scf.forall
// TILE:     sift.topk dimension(1) k(3) smallest
// TILE:   } {mapping = [#gpu.thread<x>]}
// TILE: } {mapping = [#gpu.block<x>]}

// The host: kernels on whole buffers; the plan holds them.
// CHECK: sift.dispatch_plan
// CHECK: func.func @main(
// CHECK-NOT: linalg.
// CHECK-NOT: sift.sort
// CHECK: gpu.launch_func
// CHECK: return
// NVVM: gpu.binary @{{.+}} [#gpu.object<#nvvm.target<chip = "sm_90">
// ROCDL: gpu.binary @{{.+}} [#gpu.object<#rocdl.target<chip = "gfx942">
func.func @main(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x3xi64>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %s = sift.sort dimension(1) descending outs(%y : tensor<4x8xf32>) -> tensor<4x8xf32>
  %v0 = tensor.empty() : tensor<4x3xf32>
  %i0 = tensor.empty() : tensor<4x3xi64>
  %v, %i = sift.topk dimension(1) k(3) smallest ins(%x : tensor<4x8xf32>) outs(%v0, %i0 : tensor<4x3xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>, tensor<4x3xi64>
  return %s, %i : tensor<4x8xf32>, tensor<4x3xi64>
}
