module {
  func.func @main(%arg0: tensor<11x0x1xf16>) -> (tensor<11x0x1xf16>, tensor<11x0x1xi64>) {
    %e0_0 = tensor.empty() : tensor<11x0x1xf16>
    %e0_1 = tensor.empty() : tensor<11x0x1xi64>
    %v1, %v2 = sift.topk dimension(0) k(11) smallest ins(%arg0 : tensor<11x0x1xf16>) outs(%e0_0, %e0_1 : tensor<11x0x1xf16>, tensor<11x0x1xi64>) -> tensor<11x0x1xf16>, tensor<11x0x1xi64>
    return %v1, %v2 : tensor<11x0x1xf16>, tensor<11x0x1xi64>
  }
}
