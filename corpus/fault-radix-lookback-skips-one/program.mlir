module {
  func.func @main(%arg0: tensor<39x1xi64>) -> (tensor<1x1xi64>) {
    %e0_0 = tensor.empty() : tensor<1x1xi64>
    %e0_1 = tensor.empty() : tensor<1x1xi64>
    %v1, %v2 = sift.topk dimension(0) k(1) smallest ins(%arg0 : tensor<39x1xi64>) outs(%e0_0, %e0_1 : tensor<1x1xi64>, tensor<1x1xi64>) -> tensor<1x1xi64>, tensor<1x1xi64>
    return %v1 : tensor<1x1xi64>
  }
}
