module {
  func.func @main(%arg0: tensor<4x8xf32>) -> (tensor<4x3xf32>, tensor<4x3xi64>) {
    %e0_0 = tensor.empty() : tensor<4x3xf32>
    %e0_1 = tensor.empty() : tensor<4x3xi64>
    %v1, %v2 = sift.topk dimension(1) k(3) largest ins(%arg0 : tensor<4x8xf32>) outs(%e0_0, %e0_1 : tensor<4x3xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>, tensor<4x3xi64>
    return %v1, %v2 : tensor<4x3xf32>, tensor<4x3xi64>
  }
}
