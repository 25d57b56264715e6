// RUN: sift-opt %s --sift-decompose-nms --split-input-file | FileCheck %s
// RUN: sift-opt %s --sift-decompose-nms="inject-iou-ge inject-unnormalized-corners inject-score-threshold-ge inject-sort-global-temp" --split-input-file | FileCheck %s --check-prefix=FAULTS
// RUN: sift-opt %s --sift-decompose-nms=inject-sort-global-temp --split-input-file | FileCheck %s --check-prefix=SORTONLY
// RUN: sift-opt %s --sift-lower-to-loops --canonicalize --split-input-file | FileCheck %s --check-prefix=LOWER
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
  // CHECK-NOT: sift.inject
  // Faults are recorded on the op they concern: the score sort, the
  // per-class selection.
  // FAULTS-LABEL: func.func @nms
  // FAULTS: sift.sort dimension(2) descending {sift.inject = ["nms-sort-global-temp"]}
  // FAULTS: sift.nms_per_class max_output_boxes_per_class(4) iou_threshold(2.500000e-01) score_threshold(1.000000e-01) center_point_box(1) {sift.inject = ["nms-iou-ge", "nms-unnormalized-corners", "nms-score-threshold-ge"]} ins(
  // SORTONLY-LABEL: func.func @nms
  // SORTONLY: sift.sort dimension(2) descending {sift.inject = ["nms-sort-global-temp"]}
  // SORTONLY: sift.nms_per_class
  // SORTONLY-NOT: sift.inject
  // SORTONLY-SAME: ins(
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

// -----

// The scalar implementation honours the faults recorded on
// sift.nms_per_class: the score threshold, the IoU rule and the corners.
// Clean: `score > threshold`, `IoU > threshold`, corners by min/max.
// LOWER-LABEL: func.func @per_class_clean
// LOWER: %[[SCORE:.+]] = memref.load %{{.+}} : memref<1x1x4xf32>
// LOWER: arith.cmpf ogt, %[[SCORE]], %{{.+}} : f32
// LOWER: %[[Y1:.+]] = memref.load %{{.+}} : memref<1x4x4xf32>
// LOWER: memref.load
// LOWER: %[[Y2:.+]] = memref.load %{{.+}} : memref<1x4x4xf32>
// LOWER: memref.load
// LOWER: arith.minimumf %[[Y1]], %[[Y2]] : f32
// LOWER: %[[IOU:.+]] = arith.select
// LOWER: arith.cmpf ogt, %[[IOU]], %{{.+}} : f32
// LOWER-NOT: arith.cmpf oge
func.func @per_class_clean(%boxes: memref<1x4x4xf32>, %scores: memref<1x1x4xf32>, %order: memref<1x1x4xi64>, %slots: memref<1x1x2xi64>, %counts: memref<1x1xi64>) {
  sift.nms_per_class max_output_boxes_per_class(2) iou_threshold(0.5) score_threshold(0.25) ins(%boxes, %scores, %order : memref<1x4x4xf32>, memref<1x1x4xf32>, memref<1x1x4xi64>) outs(%slots, %counts : memref<1x1x2xi64>, memref<1x1xi64>)
  return
}

// -----

// nms-score-threshold-ge: `score >= threshold`; the IoU rule stays strict.
// LOWER-LABEL: func.func @per_class_score_ge
// LOWER: %[[SCORE:.+]] = memref.load %{{.+}} : memref<1x1x4xf32>
// LOWER: arith.cmpf oge, %[[SCORE]], %{{.+}} : f32
// LOWER: %[[IOU:.+]] = arith.select
// LOWER: arith.cmpf ogt, %[[IOU]], %{{.+}} : f32
func.func @per_class_score_ge(%boxes: memref<1x4x4xf32>, %scores: memref<1x1x4xf32>, %order: memref<1x1x4xi64>, %slots: memref<1x1x2xi64>, %counts: memref<1x1xi64>) {
  sift.nms_per_class max_output_boxes_per_class(2) iou_threshold(0.5) score_threshold(0.25) {sift.inject = ["nms-score-threshold-ge"]} ins(%boxes, %scores, %order : memref<1x4x4xf32>, memref<1x1x4xf32>, memref<1x1x4xi64>) outs(%slots, %counts : memref<1x1x2xi64>, memref<1x1xi64>)
  return
}

// -----

// nms-iou-ge: suppression at `IoU >= threshold`; the score test stays strict.
// LOWER-LABEL: func.func @per_class_iou_ge
// LOWER: %[[SCORE:.+]] = memref.load %{{.+}} : memref<1x1x4xf32>
// LOWER: arith.cmpf ogt, %[[SCORE]], %{{.+}} : f32
// LOWER: %[[IOU:.+]] = arith.select
// LOWER: arith.cmpf oge, %[[IOU]], %{{.+}} : f32
func.func @per_class_iou_ge(%boxes: memref<1x4x4xf32>, %scores: memref<1x1x4xf32>, %order: memref<1x1x4xi64>, %slots: memref<1x1x2xi64>, %counts: memref<1x1xi64>) {
  sift.nms_per_class max_output_boxes_per_class(2) iou_threshold(0.5) score_threshold(0.25) {sift.inject = ["nms-iou-ge"]} ins(%boxes, %scores, %order : memref<1x4x4xf32>, memref<1x1x4xf32>, memref<1x1x4xi64>) outs(%slots, %counts : memref<1x1x2xi64>, memref<1x1xi64>)
  return
}

// -----

// nms-unnormalized-corners: [y1, x1, y2, x2] taken as [ymin, xmin, ymax,
// xmax]: the first box's height is y2 - y1 with no min/max before it.
// LOWER-LABEL: func.func @per_class_unnormalized
// LOWER: %[[Y1:.+]] = memref.load %{{.+}} : memref<1x4x4xf32>
// LOWER: memref.load
// LOWER: %[[Y2:.+]] = memref.load %{{.+}} : memref<1x4x4xf32>
// LOWER: memref.load
// LOWER-NOT: arith.minimumf
// LOWER-NOT: arith.maximumf
// LOWER: arith.subf %[[Y2]], %[[Y1]] : f32
func.func @per_class_unnormalized(%boxes: memref<1x4x4xf32>, %scores: memref<1x1x4xf32>, %order: memref<1x1x4xi64>, %slots: memref<1x1x2xi64>, %counts: memref<1x1xi64>) {
  sift.nms_per_class max_output_boxes_per_class(2) iou_threshold(0.5) score_threshold(0.25) {sift.inject = ["nms-unnormalized-corners"]} ins(%boxes, %scores, %order : memref<1x4x4xf32>, memref<1x1x4xf32>, memref<1x1x4xi64>) outs(%slots, %counts : memref<1x1x2xi64>, memref<1x1xi64>)
  return
}

// -----

// nms-sort-global-temp (IREE #20505): the private-row staging buffers of a
// sort carrying the fault stay in the default (global) space, memref.alloc,
// which a kernel lowers to malloc; without it they are private allocas.
#priv = #sift.lowering_config<workgroup_tile = [2], thread_tile = [1], workgroup_size = [2, 1, 1], algorithm = private_row>
// LOWER-LABEL: func.func @sort_global_temp
// LOWER: memref.alloca() : memref<8xf32, #gpu.address_space<private>>
// LOWER: memref.alloca() : memref<8xi64, #gpu.address_space<private>>
// LOWER: memref.alloc() : memref<8xf32>
// LOWER: memref.alloc() : memref<8xi64>
// LOWER-NOT: sift.sort
func.func @sort_global_temp(%a: memref<2x8xf32>, %i: memref<2x8xi64>, %b: memref<2x8xf32>, %j: memref<2x8xi64>) {
  sift.sort dimension(1) descending {sift.lowering_config = #priv} outs(%a, %i : memref<2x8xf32>, memref<2x8xi64>)
  sift.sort dimension(1) descending {sift.inject = ["nms-sort-global-temp"], sift.lowering_config = #priv} outs(%b, %j : memref<2x8xf32>, memref<2x8xi64>)
  return
}
