module {
  func.func @main(%arg0: tensor<45x254xf64>, %arg1: tensor<45x254xf16>, %arg2: tensor<45x254xi64>) -> (tensor<45x254xf64>, tensor<45x254xf16>, tensor<45x254xi64>) {
    %s0:3 = sift.sort dimension(1) ascending outs(%arg0, %arg1, %arg2 : tensor<45x254xf64>, tensor<45x254xf16>, tensor<45x254xi64>) -> tensor<45x254xf64>, tensor<45x254xf16>, tensor<45x254xi64>
    return %s0#0, %s0#1, %s0#2 : tensor<45x254xf64>, tensor<45x254xf16>, tensor<45x254xi64>
  }
}
