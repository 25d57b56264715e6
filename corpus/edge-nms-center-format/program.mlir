module {
  func.func @main(%arg0: tensor<2x5x4xf16>, %arg1: tensor<2x1x5xf32>) -> (tensor<10x3xi64>, tensor<1xi64>) {
    %e0_0 = tensor.empty() : tensor<10x3xi64>
    %e0_1 = tensor.empty() : tensor<1xi64>
    %v2, %v3 = sift.nms max_output_boxes_per_class(5) iou_threshold(0x3E800000) center_point_box(1) ins(%arg0, %arg1 : tensor<2x5x4xf16>, tensor<2x1x5xf32>) outs(%e0_0, %e0_1 : tensor<10x3xi64>, tensor<1xi64>) -> tensor<10x3xi64>, tensor<1xi64>
    return %v2, %v3 : tensor<10x3xi64>, tensor<1xi64>
  }
}
