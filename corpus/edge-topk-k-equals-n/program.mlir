module {
  func.func @main(%arg0: tensor<9x4xf16>) -> (tensor<9x4xf16>, tensor<9x4xi64>) {
    %e0_0 = tensor.empty() : tensor<9x4xf16>
    %e0_1 = tensor.empty() : tensor<9x4xi64>
    %v1, %v2 = sift.topk dimension(0) k(9) largest ins(%arg0 : tensor<9x4xf16>) outs(%e0_0, %e0_1 : tensor<9x4xf16>, tensor<9x4xi64>) -> tensor<9x4xf16>, tensor<9x4xi64>
    return %v1, %v2 : tensor<9x4xf16>, tensor<9x4xi64>
  }
}
