module {
  func.func @main(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xi64>) -> (tensor<4x8xf32>, tensor<4x8xi64>) {
    %s0:2 = sift.sort dimension(1) descending outs(%arg0, %arg1 : tensor<4x8xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>, tensor<4x8xi64>
    return %s0#0, %s0#1 : tensor<4x8xf32>, tensor<4x8xi64>
  }
}
