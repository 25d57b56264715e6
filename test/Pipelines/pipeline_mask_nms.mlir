// RUN: sift-opt %s --sift-distribute-pipeline="target=nvptx" | FileCheck %s --check-prefixes=CHECK,NVVM
// RUN: sift-opt %s --sift-distribute-pipeline="target=amdgpu toolkit=%sift_obj/amdgpu-toolkit" | FileCheck %s --check-prefixes=CHECK,ROCDL
// RUN: sift-opt %s --sift-tileandfuse-pipeline="target=nvptx" | FileCheck %s --check-prefixes=CHECK,NVVM
// RUN: sift-opt %s --sift-tileandfuse-pipeline="target=amdgpu toolkit=%sift_obj/amdgpu-toolkit" | FileCheck %s --check-prefixes=CHECK,ROCDL
// RUN: sift-opt %s --sift-distribute-pipeline="target=nvptx" -mlir-print-ir-after=sift-select-lowering-strategy 2>&1 >/dev/null | FileCheck %s --check-prefix=DCONFIG
// RUN: sift-opt %s --sift-tileandfuse-pipeline="target=nvptx" -mlir-print-ir-after=sift-select-lowering-strategy 2>&1 >/dev/null | FileCheck %s --check-prefix=TCONFIG
// An NMS whose walk is long for one thread (300 candidates, max_out 300)
// takes a blocked mask in both GPU pipelines (distribute mask_blocks,
// tileandfuse its own thread tiles, mask_tiles), to PTX for sm_90 and HSACO
// for gfx942: the plan holds the mask, the mask and walk kernels are among
// the dispatches, and no kernel allocates.

// DCONFIG: sift.nms_per_class
// DCONFIG-SAME: algorithm = mask_blocks, row_tile = 8
// TCONFIG: sift.nms_per_class
// TCONFIG-SAME: algorithm = mask_tiles, row_tile = 4

// CHECK: sift.dispatch_plan
// CHECK: func.func @main(
// CHECK-NOT: sift.nms
// CHECK: memref.alloc() {{.*}}: memref<4x300x5xi64>
// CHECK: gpu.launch_func
// CHECK: return
// NVVM: gpu.binary @{{.+}} [#gpu.object<#nvvm.target<chip = "sm_90">
// ROCDL: gpu.binary @{{.+}} [#gpu.object<#rocdl.target<chip = "gfx942">
// CHECK-NOT: malloc
func.func @main(%boxes: tensor<2x300x4xf32>, %scores: tensor<2x2x300xf32>)
    -> (tensor<1200x3xi64>, tensor<1xi64>) {
  %s0 = tensor.empty() : tensor<1200x3xi64>
  %c0 = tensor.empty() : tensor<1xi64>
  %sel, %count = sift.nms max_output_boxes_per_class(300) iou_threshold(0x3F000000) ins(%boxes, %scores : tensor<2x300x4xf32>, tensor<2x2x300xf32>) outs(%s0, %c0 : tensor<1200x3xi64>, tensor<1xi64>) -> tensor<1200x3xi64>, tensor<1xi64>
  return %sel, %count : tensor<1200x3xi64>, tensor<1xi64>
}
