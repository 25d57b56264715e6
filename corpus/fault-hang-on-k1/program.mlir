module {
  func.func @main(%arg0: tensor<1xf32>) -> (tensor<1xi64>) {
    %e0_0 = tensor.empty() : tensor<1xf32>
    %e0_1 = tensor.empty() : tensor<1xi64>
    %v0, %v1 = sift.topk dimension(0) k(1) largest ins(%arg0 : tensor<1xf32>) outs(%e0_0, %e0_1 : tensor<1xf32>, tensor<1xi64>) -> tensor<1xf32>, tensor<1xi64>
    return %v1 : tensor<1xi64>
  }
}
