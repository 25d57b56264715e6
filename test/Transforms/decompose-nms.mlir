// RUN: sift-opt %s --sift-decompose-nms --split-input-file | FileCheck %s
// sift.nms becomes an iota, a stable descending sort of the scores carrying
// the iota, sift.nms_per_class over the sorted rows, and the two compaction
// generics (selected rows, total count).

// CHECK-LABEL: func.func @nms
// CHECK-SAME: (%[[BOXES:.+]]: tensor<2x6x4xf32>, %[[SCORES:.+]]: tensor<2x3x6xf16>)
func.func @nms(%boxes: tensor<2x6x4xf32>, %scores: tensor<2x3x6xf16>) -> (tensor<24x3xi64>, tensor<1xi64>) {
  %e0 = tensor.empty() : tensor<24x3xi64>
  %e1 = tensor.empty() : tensor<1xi64>
  // CHECK: %[[IOTA:.+]] = linalg.generic
  // CHECK-SAME: outs(%{{.+}} : tensor<2x3x6xi64>)
  // CHECK: linalg.index 2
  // CHECK: %[[SORTED:.+]]:2 = sift.sort dimension(2) descending outs(%[[SCORES]], %[[IOTA]] : tensor<2x3x6xf16>, tensor<2x3x6xi64>)
  // CHECK: %[[SEL:.+]]:2 = sift.nms_per_class max_output_boxes_per_class(4) iou_threshold(2.500000e-01) score_threshold(1.000000e-01) center_point_box(1) ins(%[[BOXES]], %[[SORTED]]#0, %[[SORTED]]#1 : tensor<2x6x4xf32>, tensor<2x3x6xf16>, tensor<2x3x6xi64>) outs(%{{.+}}, %{{.+}} : tensor<2x3x4xi64>, tensor<2x3xi64>)
  // CHECK: %[[ROWS:.+]] = linalg.generic
  // CHECK-SAME: outs(%{{.+}} : tensor<24x3xi64>)
  // CHECK: scf.for
  // CHECK: tensor.extract %[[SEL]]#1
  // CHECK: tensor.extract %[[SEL]]#0
  // CHECK: %[[COUNT:.+]] = linalg.generic
  // CHECK-SAME: outs(%{{.+}} : tensor<1xi64>)
  // CHECK: tensor.extract %[[SEL]]#1
  // CHECK: return %[[ROWS]], %[[COUNT]]
  // CHECK-NOT: sift.nms max_output
  %s, %c = sift.nms max_output_boxes_per_class(4) iou_threshold(0.25) score_threshold(0.1) center_point_box(1) ins(%boxes, %scores : tensor<2x6x4xf32>, tensor<2x3x6xf16>) outs(%e0, %e1 : tensor<24x3xi64>, tensor<1xi64>) -> tensor<24x3xi64>, tensor<1xi64>
  return %s, %c : tensor<24x3xi64>, tensor<1xi64>
}

// -----

// No box can be selected (N = 0): rows of -1 and a count of 0, no sort.
// CHECK-LABEL: func.func @no_boxes
func.func @no_boxes(%boxes: tensor<1x0x4xf32>, %scores: tensor<1x2x0xf32>) -> (tensor<6x3xi64>, tensor<1xi64>) {
  %e0 = tensor.empty() : tensor<6x3xi64>
  %e1 = tensor.empty() : tensor<1xi64>
  // CHECK-NOT: sift.sort
  // CHECK-NOT: sift.nms_per_class
  // CHECK: %[[ROWS:.+]] = linalg.generic
  // CHECK: arith.constant -1 : i64
  // CHECK: %[[COUNT:.+]] = linalg.generic
  // CHECK: arith.constant 0 : i64
  // CHECK: return %[[ROWS]], %[[COUNT]]
  %s, %c = sift.nms max_output_boxes_per_class(3) iou_threshold(0.5) ins(%boxes, %scores : tensor<1x0x4xf32>, tensor<1x2x0xf32>) outs(%e0, %e1 : tensor<6x3xi64>, tensor<1xi64>) -> tensor<6x3xi64>, tensor<1xi64>
  return %s, %c : tensor<6x3xi64>, tensor<1xi64>
}
