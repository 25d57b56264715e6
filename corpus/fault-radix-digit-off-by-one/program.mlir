module {
  func.func @main(%arg0: tensor<1x2xf16>) -> (tensor<1x2xf16>) {
    %e0_0 = tensor.empty() : tensor<1x2xf16>
    %e0_1 = tensor.empty() : tensor<1x2xi64>
    %v1, %v2 = sift.topk dimension(1) k(2) smallest ins(%arg0 : tensor<1x2xf16>) outs(%e0_0, %e0_1 : tensor<1x2xf16>, tensor<1x2xi64>) -> tensor<1x2xf16>, tensor<1x2xi64>
    return %v1 : tensor<1x2xf16>
  }
}
