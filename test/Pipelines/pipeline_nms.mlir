// RUN: sift-opt %s --sift-distribute-pipeline="target=nvptx" | FileCheck %s --check-prefixes=CHECK,NVVM
// RUN: sift-opt %s --sift-distribute-pipeline="target=amdgpu toolkit=%sift_obj/amdgpu-toolkit" | FileCheck %s --check-prefixes=CHECK,ROCDL
// RUN: sift-opt %s --sift-tileandfuse-pipeline="target=nvptx" | FileCheck %s --check-prefixes=CHECK,NVVM
// RUN: sift-opt %s --sift-tileandfuse-pipeline="target=amdgpu toolkit=%sift_obj/amdgpu-toolkit" | FileCheck %s --check-prefixes=CHECK,ROCDL
// RUN: sift-opt %s --sift-distribute-pipeline="target=nvptx" -mlir-print-ir-after=sift-workgroup-rows 2>&1 >/dev/null | FileCheck %s --check-prefix=COOP
// RUN: sift-opt %s --sift-tileandfuse-pipeline="target=nvptx" -mlir-print-ir-after=sift-workgroup-rows 2>&1 >/dev/null | FileCheck %s --check-prefix=TF
// sift.nms through both GPU pipelines to PTX and HSACO. distribute: the
// score sort is a workgroup per (batch, class); the selection is
// mask_blocks: a mask dispatch (the 6 x 37 x 1 words on the host, each
// mask workgroup staging a column's boxes in workgroup memory) and a walk
// dispatch (the removed set in workgroup memory). tileandfuse: a (batch,
// class) per thread (max_out 4 of 37 candidates is a short walk), nothing
// on a kernel's heap.

// COOP: memref.alloc() : memref<6x37x1xi64>
// COOP: gpu.launch
// COOP: memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
// COOP: gpu.barrier
// COOP: gpu.launch
// COOP: memref.alloc() : memref<1xi64, #gpu.address_space<workgroup>>
// COOP: gpu.barrier
// TF-NOT: memref<6x37x1xi64>
// TF-NOT: gpu.barrier
// TF: scf.forall

// CHECK: sift.dispatch_plan
// CHECK: func.func @main(
// CHECK-NOT: sift.nms
// CHECK: gpu.launch_func
// CHECK: return
// NVVM: gpu.binary @{{.+}} [#gpu.object<#nvvm.target<chip = "sm_90">
// ROCDL: gpu.binary @{{.+}} [#gpu.object<#rocdl.target<chip = "gfx942">
func.func @main(%boxes: tensor<2x37x4xf32>, %scores: tensor<2x3x37xf16>)
    -> (tensor<24x3xi64>, tensor<1xi64>) {
  %s0 = tensor.empty() : tensor<24x3xi64>
  %c0 = tensor.empty() : tensor<1xi64>
  %sel, %count = sift.nms max_output_boxes_per_class(4) iou_threshold(0x3F000000) score_threshold(0x3E800000) ins(%boxes, %scores : tensor<2x37x4xf32>, tensor<2x3x37xf16>) outs(%s0, %c0 : tensor<24x3xi64>, tensor<1xi64>) -> tensor<24x3xi64>, tensor<1xi64>
  return %sel, %count : tensor<24x3xi64>, tensor<1xi64>
}
