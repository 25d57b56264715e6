module {
  func.func @main(%arg0: tensor<5x4x2048xi64>, %arg1: tensor<5x4x2048xi64>) -> (tensor<1x4x53xi64>) {
    %e0 = tensor.empty() : tensor<5x4x2048xi64>
    %v1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e0 : tensor<5x4x2048xi64>) {
    ^bb0(%o0: i64):
      %t0_0 = linalg.index 2 : index
      %t0_1 = arith.index_cast %t0_0 : index to i64
      linalg.yield %t0_1 : i64
    } -> tensor<5x4x2048xi64>
    %e1 = tensor.empty() : tensor<5x4x2048xi64>
    %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %v1 : tensor<5x4x2048xi64>, tensor<5x4x2048xi64>) outs(%e1 : tensor<5x4x2048xi64>) {
    ^bb0(%x1_0: i64, %x1_1: i64, %o1: i64):
      %t1_0 = arith.minsi %x1_0, %x1_1 : i64
      linalg.yield %t1_0 : i64
    } -> tensor<5x4x2048xi64>
    %e2 = tensor.empty() : tensor<5x4x2048xi64>
    %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v2, %arg1 : tensor<5x4x2048xi64>, tensor<5x4x2048xi64>) outs(%e2 : tensor<5x4x2048xi64>) {
    ^bb0(%x2_0: i64, %x2_1: i64, %o2: i64):
      %t2_0 = arith.subi %x2_0, %x2_1 : i64
      linalg.yield %t2_0 : i64
    } -> tensor<5x4x2048xi64>
    %v5 = sift.sort dimension(2) descending outs(%v4 : tensor<5x4x2048xi64>) -> tensor<5x4x2048xi64>
    %v6 = tensor.extract_slice %v5[3, 0, 668] [1, 4, 53] [1, 1, 1] : tensor<5x4x2048xi64> to tensor<1x4x53xi64>
    return %v6 : tensor<1x4x53xi64>
  }
}
