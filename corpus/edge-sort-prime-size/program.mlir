module {
  func.func @main(%arg0: tensor<2x127xf32>, %arg1: tensor<2x127xi64>) -> (tensor<2x127xf32>, tensor<2x127xi64>) {
    %s0:2 = sift.sort dimension(1) ascending outs(%arg0, %arg1 : tensor<2x127xf32>, tensor<2x127xi64>) -> tensor<2x127xf32>, tensor<2x127xi64>
    return %s0#0, %s0#1 : tensor<2x127xf32>, tensor<2x127xi64>
  }
}
