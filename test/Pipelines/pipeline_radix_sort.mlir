// RUN: sift-opt %s --sift-distribute-pipeline="target=nvptx" | FileCheck %s --check-prefixes=CHECK,NVVM
// RUN: sift-opt %s --sift-distribute-pipeline="target=amdgpu toolkit=%sift_obj/amdgpu-toolkit" | FileCheck %s --check-prefixes=CHECK,ROCDL
// radix_sort through the whole distribute pipeline for both targets: a sort
// (its first pass reads the input, its last writes the output: no copy
// kernel) and a top-k, each four passes of count, scan and scatter kernels
// over plan buffers (the ping-pong keys and positions, the counts and the
// totals are temporaries the runtime allocates), none calling malloc. Passes
// 1 to 3 load their number from a one-element plan buffer the first count
// fills, so their counts and the middle scatters are one kernel each and
// every scan is one: 6 kernels an op instead of 12, 12 kernels for 24
// launches, in one kernel module (sift-merge-kernel-modules).
// CHECK: sift.dispatch_plan
// CHECK-SAME: role = "temporary", shape = array<i64: 2, 600>
// CHECK-SAME: role = "temporary", shape = array<i64: 1>
// CHECK-SAME: role = "temporary", shape = array<i64: 2, 768>
// CHECK-SAME: role = "temporary", shape = array<i64: 2, 256>
// CHECK-NOT: malloc
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @main_kernel::@[[COUNT0:main_kernel]] {{.*}}args(%[[P1:[a-z_0-9]+]] : memref<1xi32>, %[[P2:[a-z_0-9]+]] : memref<1xi32>, %[[P3:[a-z_0-9]+]] : memref<1xi32>
// CHECK-NEXT: gpu.launch_func @main_kernel::@[[SCAN:main_kernel_[0-9]+]]
// CHECK-NEXT: gpu.launch_func @main_kernel::@[[SCATTER0:main_kernel_[0-9]+]]
// CHECK-NEXT: gpu.launch_func @main_kernel::@[[COUNT:main_kernel_[0-9]+]] {{.*}}args(%[[P1]] : memref<1xi32>, %[[K0:[a-z_0-9]+]] : memref<2x600xf32>
// CHECK-NEXT: gpu.launch_func @main_kernel::@[[SCAN]]
// CHECK-NEXT: gpu.launch_func @main_kernel::@[[SCATTER:main_kernel_[0-9]+]] {{.*}}args(%[[P1]] : memref<1xi32>, %[[K0]] : memref<2x600xf32>
// CHECK-NEXT: gpu.launch_func @main_kernel::@[[COUNT]] {{.*}}args(%[[P2]] : memref<1xi32>, %[[K1:[a-z_0-9]+]] : memref<2x600xf32>
// CHECK-NEXT: gpu.launch_func @main_kernel::@[[SCAN]]
// CHECK-NEXT: gpu.launch_func @main_kernel::@[[SCATTER]] {{.*}}args(%[[P2]] : memref<1xi32>, %[[K1]] : memref<2x600xf32>
// CHECK-NEXT: gpu.launch_func @main_kernel::@[[COUNT]] {{.*}}args(%[[P3]] : memref<1xi32>, %[[K0]] : memref<2x600xf32>
// CHECK-NEXT: gpu.launch_func @main_kernel::@[[SCAN]]
// CHECK-NEXT: gpu.launch_func @main_kernel::@[[LAST:main_kernel_[0-9]+]] {{.*}}args(%[[P3]] : memref<1xi32>, %[[K0]] : memref<2x600xf32>
// NVVM: gpu.binary @main_kernel  [#gpu.object<#nvvm.target<chip = "sm_90">
// NVVM-COUNT-12: .visible .entry main_kernel
// NVVM-NOT: .visible .entry
// ROCDL: gpu.binary @main_kernel  [#gpu.object<#rocdl.target<chip = "gfx942">
// CHECK-NOT: gpu.binary
// CHECK-NOT: malloc
func.func @main(%a: tensor<2x600xf32>) -> (tensor<2x600xf32>, tensor<2x40xf32>, tensor<2x40xi64>) {
  %s = sift.sort dimension(1) descending {sift.lowering_config = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [16, 1, 1], algorithm = radix_sort, row_tile = 256>} outs(%a : tensor<2x600xf32>) -> tensor<2x600xf32>
  %v = tensor.empty() : tensor<2x40xf32>
  %i = tensor.empty() : tensor<2x40xi64>
  %t:2 = sift.topk dimension(1) k(40) largest {sift.lowering_config = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [64, 1, 1], algorithm = radix_sort, row_tile = 128>} ins(%a : tensor<2x600xf32>) outs(%v, %i : tensor<2x40xf32>, tensor<2x40xi64>) -> tensor<2x40xf32>, tensor<2x40xi64>
  return %s, %t#0, %t#1 : tensor<2x600xf32>, tensor<2x40xf32>, tensor<2x40xi64>
}
