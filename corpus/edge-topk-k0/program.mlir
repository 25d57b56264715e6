module {
  func.func @main(%arg0: tensor<2x13xf16>) -> (tensor<2x0xf16>) {
    %e0_0 = tensor.empty() : tensor<2x0xf16>
    %e0_1 = tensor.empty() : tensor<2x0xi64>
    %v1, %v2 = sift.topk dimension(1) k(0) smallest ins(%arg0 : tensor<2x13xf16>) outs(%e0_0, %e0_1 : tensor<2x0xf16>, tensor<2x0xi64>) -> tensor<2x0xf16>, tensor<2x0xi64>
    return %v1 : tensor<2x0xf16>
  }
}
