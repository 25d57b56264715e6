func.func @main(%x: tensor<2x5xf64>) -> tensor<2x3xi32> {
  %v, %i = chlo.top_k(%x, k = 3) : tensor<2x5xf64> -> (tensor<2x3xf64>, tensor<2x3xi32>)
  return %i : tensor<2x3xi32>
}
