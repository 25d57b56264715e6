module {
  func.func @main(%arg0: tensor<2xi32>) -> (tensor<2xi32>) {
    %v1 = sift.sort dimension(0) ascending outs(%arg0 : tensor<2xi32>) -> tensor<2xi32>
    return %v1 : tensor<2xi32>
  }
}
