module {
  func.func @main(%arg0: tensor<5x1xf32>) -> (tensor<5x1xi64>) {
    %e0 = tensor.empty() : tensor<5x1xi64>
    %v1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e0 : tensor<5x1xi64>) {
    ^bb0(%o0: i64):
      %t0_0 = linalg.index 0 : index
      %t0_1 = arith.index_cast %t0_0 : index to i64
      linalg.yield %t0_1 : i64
    } -> tensor<5x1xi64>
    %s1:2 = sift.sort dimension(0) descending outs(%arg0, %v1 : tensor<5x1xf32>, tensor<5x1xi64>) -> tensor<5x1xf32>, tensor<5x1xi64>
    return %s1#1 : tensor<5x1xi64>
  }
}
