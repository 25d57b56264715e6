// RUN: sift-opt %s --sift-tileandfuse-pipeline="target=nvptx" | FileCheck %s --check-prefixes=CHECK,NVVM
// RUN: sift-opt %s --sift-tileandfuse-pipeline="target=amdgpu toolkit=%sift_obj/amdgpu-toolkit" | FileCheck %s --check-prefixes=CHECK,ROCDL
// split_select through the whole tileandfuse pipeline for both targets,
// chosen by default for a top-k of 64-bit keys in rows longer than private
// memory (32-bit keys take register_select): rows of 4096 in chunks of 256 (16 a row keep 128 candidates), a thread per chunk
// with its k best in private memory, a workgroup per row for the
// candidates, and the gather of the indices: three kernels, the candidates
// in plan buffers, none calling malloc.
// CHECK: sift.dispatch_plan
// CHECK-SAME: role = "temporary", shape = array<i64: 8, 16, 8>
// CHECK-NOT: malloc
// One kernel module (sift-merge-kernel-modules) of three kernels.
// NVVM: gpu.binary @main_kernel  [#gpu.object<#nvvm.target<chip = "sm_90">
// NVVM-COUNT-3: .visible .entry main_kernel
// NVVM-NOT: .visible .entry
// ROCDL: gpu.binary @main_kernel  [#gpu.object<#rocdl.target<chip = "gfx942">
// CHECK-NOT: gpu.binary
func.func @main(%x: tensor<8x4096xf64>) -> (tensor<8x8xf64>, tensor<8x8xi64>) {
  %v = tensor.empty() : tensor<8x8xf64>
  %i = tensor.empty() : tensor<8x8xi64>
  %r:2 = sift.topk dimension(1) k(8) largest ins(%x : tensor<8x4096xf64>) outs(%v, %i : tensor<8x8xf64>, tensor<8x8xi64>) -> tensor<8x8xf64>, tensor<8x8xi64>
  return %r#0, %r#1 : tensor<8x8xf64>, tensor<8x8xi64>
}
