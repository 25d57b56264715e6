module {
  func.func @main(%arg0: tensor<2x2x4xf32>, %arg1: tensor<2x2x2xf32>) -> (tensor<24x3xi64>) {
    %e0_0 = tensor.empty() : tensor<24x3xi64>
    %e0_1 = tensor.empty() : tensor<1xi64>
    %v2, %v3 = sift.nms max_output_boxes_per_class(6) iou_threshold(0x3D800000) center_point_box(1) ins(%arg0, %arg1 : tensor<2x2x4xf32>, tensor<2x2x2xf32>) outs(%e0_0, %e0_1 : tensor<24x3xi64>, tensor<1xi64>) -> tensor<24x3xi64>, tensor<1xi64>
    return %v2 : tensor<24x3xi64>
  }
}
