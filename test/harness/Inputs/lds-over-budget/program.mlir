module {
  func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>) {
    %v1 = sift.sort dimension(0) ascending outs(%arg0 : tensor<4xf32>) -> tensor<4xf32>
    return %v1 : tensor<4xf32>
  }
}
