module {
  func.func @main(%arg0: tensor<257xf64>) -> (tensor<1xi64>, tensor<1xf64>, tensor<1xi64>) {
    %e0_0 = tensor.empty() : tensor<1xf64>
    %e0_1 = tensor.empty() : tensor<1xi64>
    %v1, %v2 = sift.topk dimension(0) k(1) largest ins(%arg0 : tensor<257xf64>) outs(%e0_0, %e0_1 : tensor<1xf64>, tensor<1xi64>) -> tensor<1xf64>, tensor<1xi64>
    %e1_0 = tensor.empty() : tensor<1xf64>
    %e1_1 = tensor.empty() : tensor<1xi64>
    %v3, %v4 = sift.topk dimension(0) k(1) smallest ins(%arg0 : tensor<257xf64>) outs(%e1_0, %e1_1 : tensor<1xf64>, tensor<1xi64>) -> tensor<1xf64>, tensor<1xi64>
    return %v2, %v3, %v4 : tensor<1xi64>, tensor<1xf64>, tensor<1xi64>
  }
}
