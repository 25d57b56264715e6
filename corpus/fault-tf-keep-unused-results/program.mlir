module {
  func.func @main(%arg0: tensor<1x1x1xf32>) -> (tensor<1x1x1xf32>) {
    %e0_0 = tensor.empty() : tensor<1x1x1xf32>
    %e0_1 = tensor.empty() : tensor<1x1x1xi64>
    %v0, %v1 = sift.topk dimension(2) k(1) smallest ins(%arg0 : tensor<1x1x1xf32>) outs(%e0_0, %e0_1 : tensor<1x1x1xf32>, tensor<1x1x1xi64>) -> tensor<1x1x1xf32>, tensor<1x1x1xi64>
    return %v0 : tensor<1x1x1xf32>
  }
}
