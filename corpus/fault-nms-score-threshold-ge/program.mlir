module {
  func.func @main(%arg0: tensor<1x1x4xf32>, %arg1: tensor<1x1x1xf32>) -> (tensor<1x3xi64>) {
    %e0_0 = tensor.empty() : tensor<1x3xi64>
    %e0_1 = tensor.empty() : tensor<1xi64>
    %v2, %v3 = sift.nms max_output_boxes_per_class(1) iou_threshold(0x3D9D89D9) score_threshold(0xBDA0A000) center_point_box(1) ins(%arg0, %arg1 : tensor<1x1x4xf32>, tensor<1x1x1xf32>) outs(%e0_0, %e0_1 : tensor<1x3xi64>, tensor<1xi64>) -> tensor<1x3xi64>, tensor<1xi64>
    return %v2 : tensor<1x3xi64>
  }
}
