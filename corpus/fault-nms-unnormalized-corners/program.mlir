module {
  func.func @main(%arg0: tensor<2x88x4xf32>, %arg1: tensor<2x4x88xf32>) -> (tensor<16x3xi64>) {
    %e0_0 = tensor.empty() : tensor<16x3xi64>
    %e0_1 = tensor.empty() : tensor<1xi64>
    %v2, %v3 = sift.nms max_output_boxes_per_class(2) iou_threshold(0x3E000000) score_threshold(0x3F374AF3) ins(%arg0, %arg1 : tensor<2x88x4xf32>, tensor<2x4x88xf32>) outs(%e0_0, %e0_1 : tensor<16x3xi64>, tensor<1xi64>) -> tensor<16x3xi64>, tensor<1xi64>
    return %v2 : tensor<16x3xi64>
  }
}
