// RUN: sift-opt %s --sift-decompose-nms --sift-select-lowering-strategy=pipeline=tileandfuse --sift-tile-and-fuse | FileCheck %s
// The fusion budget counts what a thread really holds: a producer of NMS
// boxes is fused into the per-class thread loop only when a whole batch of
// boxes fits the budget (16 KiB), however many classes share the batch.
// 1100 boxes x 16 bytes = 17600 bytes: the producer stays a kernel of its
// own (8 classes would once have counted an eighth of it, 2200 bytes).

// CHECK-LABEL: func.func @big
// CHECK: math.absf
// CHECK: sift.sort
// CHECK-NOT: math.absf
// CHECK: sift.nms_per_class
func.func @big(%boxes: tensor<1x1100x4xf32>, %scores: tensor<1x8x1100xf32>)
    -> (tensor<16x3xi64>, tensor<1xi64>) {
  %e = tensor.empty() : tensor<1x1100x4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%boxes : tensor<1x1100x4xf32>) outs(%e : tensor<1x1100x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.absf %x : f32
    linalg.yield %y : f32
  } -> tensor<1x1100x4xf32>
  %s0 = tensor.empty() : tensor<16x3xi64>
  %c0 = tensor.empty() : tensor<1xi64>
  %sel, %count = sift.nms max_output_boxes_per_class(2) iou_threshold(0x3F000000) ins(%a, %scores : tensor<1x1100x4xf32>, tensor<1x8x1100xf32>) outs(%s0, %c0 : tensor<16x3xi64>, tensor<1xi64>) -> tensor<16x3xi64>, tensor<1xi64>
  return %sel, %count : tensor<16x3xi64>, tensor<1xi64>
}

// 100 boxes (1600 bytes) fit: the producer is fused into the thread loop.
// CHECK-LABEL: func.func @small
// CHECK: sift.sort
// CHECK: math.absf
// CHECK: sift.nms_per_class
func.func @small(%boxes: tensor<1x100x4xf32>, %scores: tensor<1x8x100xf32>)
    -> (tensor<16x3xi64>, tensor<1xi64>) {
  %e = tensor.empty() : tensor<1x100x4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%boxes : tensor<1x100x4xf32>) outs(%e : tensor<1x100x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.absf %x : f32
    linalg.yield %y : f32
  } -> tensor<1x100x4xf32>
  %s0 = tensor.empty() : tensor<16x3xi64>
  %c0 = tensor.empty() : tensor<1xi64>
  %sel, %count = sift.nms max_output_boxes_per_class(2) iou_threshold(0x3F000000) ins(%a, %scores : tensor<1x100x4xf32>, tensor<1x8x100xf32>) outs(%s0, %c0 : tensor<16x3xi64>, tensor<1xi64>) -> tensor<16x3xi64>, tensor<1xi64>
  return %sel, %count : tensor<16x3xi64>, tensor<1xi64>
}
