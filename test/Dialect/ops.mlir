// RUN: sift-opt %s | sift-opt | FileCheck %s
// Round trip of every form of sift.sort and sift.topk.

// CHECK-LABEL: func.func @sort_named
func.func @sort_named(%a: tensor<4x8xf32>, %b: tensor<4x8xi64>) -> (tensor<4x8xf32>, tensor<4x8xi64>) {
  // CHECK: %[[R:.+]]:2 = sift.sort dimension(1) ascending outs(%{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>, tensor<4x8xi64>
  %r:2 = sift.sort dimension(1) ascending outs(%a, %b : tensor<4x8xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>, tensor<4x8xi64>
  // CHECK: return %[[R]]#0, %[[R]]#1
  return %r#0, %r#1 : tensor<4x8xf32>, tensor<4x8xi64>
}

// CHECK-LABEL: func.func @sort_descending_first_dim
func.func @sort_descending_first_dim(%a: tensor<5x3x2xi32>) -> tensor<5x3x2xi32> {
  // CHECK: sift.sort dimension(0) descending outs(%{{.+}} : tensor<5x3x2xi32>) -> tensor<5x3x2xi32>
  %r = sift.sort dimension(0) descending outs(%a : tensor<5x3x2xi32>) -> tensor<5x3x2xi32>
  return %r : tensor<5x3x2xi32>
}

// CHECK-LABEL: func.func @sort_comparator
func.func @sort_comparator(%a: tensor<16xf16>) -> tensor<16xf16> {
  // CHECK: sift.sort dimension(0) outs(%{{.+}} : tensor<16xf16>) {
  // CHECK: ^bb0(%[[L:.+]]: f16, %[[R:.+]]: f16):
  // CHECK:   %[[C:.+]] = arith.cmpf ogt, %[[L]], %[[R]] : f16
  // CHECK:   sift.yield %[[C]] : i1
  // CHECK: } -> tensor<16xf16>
  %r = sift.sort dimension(0) outs(%a : tensor<16xf16>) {
  ^bb0(%lhs: f16, %rhs: f16):
    %c = arith.cmpf ogt, %lhs, %rhs : f16
    sift.yield %c : i1
  } -> tensor<16xf16>
  return %r : tensor<16xf16>
}

// CHECK-LABEL: func.func @sort_memref
func.func @sort_memref(%a: memref<0x7xf64>) {
  // CHECK: sift.sort dimension(1) ascending outs(%{{.+}} : memref<0x7xf64>)
  // CHECK-NOT: ->
  sift.sort dimension(1) ascending outs(%a : memref<0x7xf64>)
  return
}

// CHECK-LABEL: func.func @topk_largest
func.func @topk_largest(%x: tensor<4x8xf32>) -> (tensor<4x3xf32>, tensor<4x3xi64>) {
  %v0 = tensor.empty() : tensor<4x3xf32>
  %i0 = tensor.empty() : tensor<4x3xi64>
  // CHECK: %{{.+}}:2 = sift.topk dimension(1) k(3) largest ins(%{{.+}} : tensor<4x8xf32>) outs(%{{.+}}, %{{.+}} : tensor<4x3xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>, tensor<4x3xi64>
  %v, %i = sift.topk dimension(1) k(3) largest ins(%x : tensor<4x8xf32>) outs(%v0, %i0 : tensor<4x3xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>, tensor<4x3xi64>
  return %v, %i : tensor<4x3xf32>, tensor<4x3xi64>
}

// CHECK-LABEL: func.func @topk_smallest_k0
func.func @topk_smallest_k0(%x: tensor<3x4xi64>, %v0: tensor<0x4xi64>, %i0: tensor<0x4xi64>) -> tensor<0x4xi64> {
  // CHECK: sift.topk dimension(0) k(0) smallest ins
  %v, %i = sift.topk dimension(0) k(0) smallest ins(%x : tensor<3x4xi64>) outs(%v0, %i0 : tensor<0x4xi64>, tensor<0x4xi64>) -> tensor<0x4xi64>, tensor<0x4xi64>
  return %i : tensor<0x4xi64>
}

// CHECK-LABEL: func.func @topk_memref
func.func @topk_memref(%x: memref<9xf32>, %v: memref<9xf32>, %i: memref<9xi64>) {
  // CHECK: sift.topk dimension(0) k(9) largest ins(%{{.+}} : memref<9xf32>) outs(%{{.+}}, %{{.+}} : memref<9xf32>, memref<9xi64>)
  sift.topk dimension(0) k(9) largest ins(%x : memref<9xf32>) outs(%v, %i : memref<9xf32>, memref<9xi64>)
  return
}

// CHECK-LABEL: func.func @nms_defaults
func.func @nms_defaults(%b: tensor<2x6x4xf32>, %s: tensor<2x3x6xf16>, %o: tensor<12x3xi64>, %c: tensor<1xi64>) -> (tensor<12x3xi64>, tensor<1xi64>) {
  // CHECK: sift.nms max_output_boxes_per_class(2) iou_threshold(5.000000e-01) ins(%{{.+}}, %{{.+}} : tensor<2x6x4xf32>, tensor<2x3x6xf16>) outs(%{{.+}}, %{{.+}} : tensor<12x3xi64>, tensor<1xi64>) -> tensor<12x3xi64>, tensor<1xi64>
  %r:2 = sift.nms max_output_boxes_per_class(2) iou_threshold(0.5) ins(%b, %s : tensor<2x6x4xf32>, tensor<2x3x6xf16>) outs(%o, %c : tensor<12x3xi64>, tensor<1xi64>) -> tensor<12x3xi64>, tensor<1xi64>
  return %r#0, %r#1 : tensor<12x3xi64>, tensor<1xi64>
}

// An exact f32 threshold written as hex bits keeps its bits; center format;
// a negative max_out selects nothing.
// CHECK-LABEL: func.func @nms_all_attributes
func.func @nms_all_attributes(%b: memref<1x5x4xf16>, %s: memref<1x1x5xf32>, %o: memref<0x3xi64>, %c: memref<1xi64>) {
  // CHECK: sift.nms max_output_boxes_per_class(-1) iou_threshold(0.333333343) score_threshold(-2.500000e-01) center_point_box(1) ins(%{{.+}}, %{{.+}} : memref<1x5x4xf16>, memref<1x1x5xf32>) outs(%{{.+}}, %{{.+}} : memref<0x3xi64>, memref<1xi64>)
  sift.nms max_output_boxes_per_class(-1) iou_threshold(0x3EAAAAAB) score_threshold(-0.25) center_point_box(1) ins(%b, %s : memref<1x5x4xf16>, memref<1x1x5xf32>) outs(%o, %c : memref<0x3xi64>, memref<1xi64>)
  return
}

// CHECK-LABEL: func.func @nms_per_class
func.func @nms_per_class(%b: tensor<1x6x4xf32>, %s: tensor<1x2x6xf32>, %o: tensor<1x2x6xi64>, %sl: tensor<1x2x3xi64>, %n: tensor<1x2xi64>) -> (tensor<1x2x3xi64>, tensor<1x2xi64>) {
  // CHECK: sift.nms_per_class max_output_boxes_per_class(3) iou_threshold(0.000000e+00) score_threshold(1.000000e-01) ins(%{{.+}}, %{{.+}}, %{{.+}} : tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<1x2x6xi64>) outs(%{{.+}}, %{{.+}} : tensor<1x2x3xi64>, tensor<1x2xi64>) -> tensor<1x2x3xi64>, tensor<1x2xi64>
  %r:2 = sift.nms_per_class max_output_boxes_per_class(3) iou_threshold(0.0) score_threshold(0.1) ins(%b, %s, %o : tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<1x2x6xi64>) outs(%sl, %n : tensor<1x2x3xi64>, tensor<1x2xi64>) -> tensor<1x2x3xi64>, tensor<1x2xi64>
  return %r#0, %r#1 : tensor<1x2x3xi64>, tensor<1x2xi64>
}
