module {
  func.func @main(%arg0: tensor<3x1x0x3xf32>) -> (tensor<3x1x0x3xf32>, tensor<3x1x0x3xi64>) {
    %e0_0 = tensor.empty() : tensor<3x1x0x3xf32>
    %e0_1 = tensor.empty() : tensor<3x1x0x3xi64>
    %v1, %v2 = sift.topk dimension(2) k(0) smallest ins(%arg0 : tensor<3x1x0x3xf32>) outs(%e0_0, %e0_1 : tensor<3x1x0x3xf32>, tensor<3x1x0x3xi64>) -> tensor<3x1x0x3xf32>, tensor<3x1x0x3xi64>
    return %v1, %v2 : tensor<3x1x0x3xf32>, tensor<3x1x0x3xi64>
  }
}
