module {
  func.func @main(%arg0: tensor<1x251x4xf32>, %arg1: tensor<1x5x251xf32>) -> (tensor<1xi64>) {
    %e0_0 = tensor.empty() : tensor<5115x3xi64>
    %e0_1 = tensor.empty() : tensor<1xi64>
    %v2, %v3 = sift.nms max_output_boxes_per_class(1023) iou_threshold(0x3DDD67C9) score_threshold(0x3F400000) ins(%arg0, %arg1 : tensor<1x251x4xf32>, tensor<1x5x251xf32>) outs(%e0_0, %e0_1 : tensor<5115x3xi64>, tensor<1xi64>) -> tensor<5115x3xi64>, tensor<1xi64>
    return %v3 : tensor<1xi64>
  }
}
