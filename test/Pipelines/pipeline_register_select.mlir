// RUN: sift-opt %s --sift-distribute-pipeline="target=nvptx" | FileCheck %s --check-prefixes=CHECK,NVVM
// RUN: sift-opt %s --sift-distribute-pipeline="target=amdgpu toolkit=%sift_obj/amdgpu-toolkit" | FileCheck %s --check-prefixes=CHECK,ROCDL
// register_select through the whole distribute pipeline for both targets:
// a top-k of rows of 5000 in chunks of 2048 (a select kernel and a merge
// kernel over the candidates, a plan buffer the runtime allocates) and one
// of rows of 700 in one chunk (one kernel), none calling malloc.
// CHECK: sift.dispatch_plan
// CHECK-SAME: role = "temporary", shape = array<i64: 4, 48>
// CHECK-NOT: malloc
// One kernel module (sift-merge-kernel-modules) of three kernels.
// NVVM: gpu.binary @main_kernel  [#gpu.object<#nvvm.target<chip = "sm_90">
// NVVM-COUNT-3: .visible .entry main_kernel
// NVVM-NOT: .visible .entry
// ROCDL: gpu.binary @main_kernel  [#gpu.object<#rocdl.target<chip = "gfx942">
// CHECK-NOT: gpu.binary
// CHECK-NOT: malloc
func.func @main(%a: tensor<4x5000xf32>, %b: tensor<3x700xi16>) -> (tensor<4x16xf32>, tensor<4x16xi64>, tensor<3x5xi16>, tensor<3x5xi64>) {
  %v = tensor.empty() : tensor<4x16xf32>
  %i = tensor.empty() : tensor<4x16xi64>
  %t:2 = sift.topk dimension(1) k(16) largest {sift.lowering_config = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [128, 1, 1], algorithm = register_select, row_tile = 2048>} ins(%a : tensor<4x5000xf32>) outs(%v, %i : tensor<4x16xf32>, tensor<4x16xi64>) -> tensor<4x16xf32>, tensor<4x16xi64>
  %w = tensor.empty() : tensor<3x5xi16>
  %j = tensor.empty() : tensor<3x5xi64>
  %u:2 = sift.topk dimension(1) k(5) smallest {sift.lowering_config = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [64, 1, 1], algorithm = register_select, row_tile = 1024>} ins(%b : tensor<3x700xi16>) outs(%w, %j : tensor<3x5xi16>, tensor<3x5xi64>) -> tensor<3x5xi16>, tensor<3x5xi64>
  return %t#0, %t#1, %u#0, %u#1 : tensor<4x16xf32>, tensor<4x16xi64>, tensor<3x5xi16>, tensor<3x5xi64>
}
