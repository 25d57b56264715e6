module {
  func.func @main(%arg0: tensor<16xi32>) -> (tensor<16xi32>) {
    %v1 = sift.sort dimension(0) ascending outs(%arg0 : tensor<16xi32>) -> tensor<16xi32>
    return %v1 : tensor<16xi32>
  }
}
