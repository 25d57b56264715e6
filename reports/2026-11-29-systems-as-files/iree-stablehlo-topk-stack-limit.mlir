func.func @main(%x: tensor<16x3000xi64>) -> tensor<16x3xi32> {
  %v, %i = chlo.top_k(%x, k = 3) : tensor<16x3000xi64> -> (tensor<16x3xi64>, tensor<16x3xi32>)
  return %i : tensor<16x3xi32>
}
