// RUN: sift-opt %s --sift-distribute-pipeline="target=nvptx" | FileCheck %s --check-prefixes=CHECK,NVVM
// RUN: sift-opt %s --sift-distribute-pipeline="target=amdgpu toolkit=%sift_obj/amdgpu-toolkit" | FileCheck %s --check-prefixes=CHECK,ROCDL
// radix_sort through the whole distribute pipeline for both targets: a sort
// (its first pass reads the input, its last writes the output: no copy
// kernel) and a top-k, each four passes of count, scan and scatter kernels
// over plan buffers (the ping-pong keys and positions, the counts and the
// totals are temporaries the runtime allocates), none calling malloc. Passes
// 1 to 3 load their number from a one-element plan buffer the first count
// fills, so their counts and the middle scatters are one kernel each and
// every scan is one: 6 kernels an op instead of 12, 12 binaries for 24
// launches.
// CHECK: sift.dispatch_plan
// CHECK-SAME: role = "temporary", shape = array<i64: 2, 600>
// CHECK-SAME: role = "temporary", shape = array<i64: 1>
// CHECK-SAME: role = "temporary", shape = array<i64: 2, 768>
// CHECK-SAME: role = "temporary", shape = array<i64: 2, 256>
// CHECK-NOT: malloc
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @[[COUNT0:main_kernel]]::@main_kernel {{.*}}args(%[[P1:[a-z_0-9]+]] : memref<1xi32>, %[[P2:[a-z_0-9]+]] : memref<1xi32>, %[[P3:[a-z_0-9]+]] : memref<1xi32>
// CHECK-NEXT: gpu.launch_func @[[SCAN:main_kernel_[0-9]+]]::
// CHECK-NEXT: gpu.launch_func @[[SCATTER0:main_kernel_[0-9]+]]::
// CHECK-NEXT: gpu.launch_func @[[COUNT:main_kernel_[0-9]+]]::@main_kernel {{.*}}args(%[[P1]] : memref<1xi32>, %[[K0:[a-z_0-9]+]] : memref<2x600xf32>
// CHECK-NEXT: gpu.launch_func @[[SCAN]]::
// CHECK-NEXT: gpu.launch_func @[[SCATTER:main_kernel_[0-9]+]]::@main_kernel {{.*}}args(%[[P1]] : memref<1xi32>, %[[K0]] : memref<2x600xf32>
// CHECK-NEXT: gpu.launch_func @[[COUNT]]::@main_kernel {{.*}}args(%[[P2]] : memref<1xi32>, %[[K1:[a-z_0-9]+]] : memref<2x600xf32>
// CHECK-NEXT: gpu.launch_func @[[SCAN]]::
// CHECK-NEXT: gpu.launch_func @[[SCATTER]]::@main_kernel {{.*}}args(%[[P2]] : memref<1xi32>, %[[K1]] : memref<2x600xf32>
// CHECK-NEXT: gpu.launch_func @[[COUNT]]::@main_kernel {{.*}}args(%[[P3]] : memref<1xi32>, %[[K0]] : memref<2x600xf32>
// CHECK-NEXT: gpu.launch_func @[[SCAN]]::
// CHECK-NEXT: gpu.launch_func @[[LAST:main_kernel_[0-9]+]]::@main_kernel {{.*}}args(%[[P3]] : memref<1xi32>, %[[K0]] : memref<2x600xf32>
// CHECK-COUNT-11: gpu.binary @main_kernel
// NVVM: gpu.binary @main_kernel_22  [#gpu.object<#nvvm.target<chip = "sm_90">
// ROCDL: gpu.binary @main_kernel_22  [#gpu.object<#rocdl.target<chip = "gfx942">
// CHECK-NOT: gpu.binary
// CHECK-NOT: malloc
func.func @main(%a: tensor<2x600xf32>) -> (tensor<2x600xf32>, tensor<2x40xf32>, tensor<2x40xi64>) {
  %s = sift.sort dimension(1) descending {sift.lowering_config = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [16, 1, 1], algorithm = radix_sort, row_tile = 256>} outs(%a : tensor<2x600xf32>) -> tensor<2x600xf32>
  %v = tensor.empty() : tensor<2x40xf32>
  %i = tensor.empty() : tensor<2x40xi64>
  %t:2 = sift.topk dimension(1) k(40) largest {sift.lowering_config = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [64, 1, 1], algorithm = radix_sort, row_tile = 128>} ins(%a : tensor<2x600xf32>) outs(%v, %i : tensor<2x40xf32>, tensor<2x40xi64>) -> tensor<2x40xf32>, tensor<2x40xi64>
  return %s, %t#0, %t#1 : tensor<2x600xf32>, tensor<2x40xf32>, tensor<2x40xi64>
}
