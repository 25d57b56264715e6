module {
  func.func @main(%arg0: tensor<1x6x4xf32>, %arg1: tensor<1x3x6xf32>) -> (tensor<12x3xi64>, tensor<1xi64>) {
    %e0_0 = tensor.empty() : tensor<12x3xi64>
    %e0_1 = tensor.empty() : tensor<1xi64>
    %v2, %v3 = sift.nms max_output_boxes_per_class(4) iou_threshold(0x3F000000) ins(%arg0, %arg1 : tensor<1x6x4xf32>, tensor<1x3x6xf32>) outs(%e0_0, %e0_1 : tensor<12x3xi64>, tensor<1xi64>) -> tensor<12x3xi64>, tensor<1xi64>
    return %v2, %v3 : tensor<12x3xi64>, tensor<1xi64>
  }
}
