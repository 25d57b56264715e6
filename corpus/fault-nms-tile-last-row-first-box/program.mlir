module {
  func.func @main(%arg0: tensor<2x348x4xf32>, %arg1: tensor<2x1x348xf32>) -> (tensor<1xi64>) {
    %e0_0 = tensor.empty() : tensor<796x3xi64>
    %e0_1 = tensor.empty() : tensor<1xi64>
    %v2, %v3 = sift.nms max_output_boxes_per_class(398) iou_threshold(0x3F000000) score_threshold(0x00000001) center_point_box(1) ins(%arg0, %arg1 : tensor<2x348x4xf32>, tensor<2x1x348xf32>) outs(%e0_0, %e0_1 : tensor<796x3xi64>, tensor<1xi64>) -> tensor<796x3xi64>, tensor<1xi64>
    return %v3 : tensor<1xi64>
  }
}
