module {
  func.func @main(%arg0: tensor<1x5xf32>, %arg1: tensor<1x5xf32>) -> (tensor<1x5xf32>, tensor<1x5xf32>) {
    %e0 = tensor.empty() : tensor<1x5xf32>
    %v1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<1x5xf32>) outs(%e0 : tensor<1x5xf32>) {
    ^bb0(%x0_0: f32, %o0: f32):
      %t0_0 = math.absf %x0_0 : f32
      linalg.yield %t0_0 : f32
    } -> tensor<1x5xf32>
    %e1 = tensor.empty() : tensor<1x5xi64>
    %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e1 : tensor<1x5xi64>) {
    ^bb0(%o1: i64):
      %t1_0 = linalg.index 1 : index
      %t1_1 = arith.index_cast %t1_0 : index to i64
      linalg.yield %t1_1 : i64
    } -> tensor<1x5xi64>
    %s2:3 = sift.sort dimension(1) descending outs(%v1, %v2, %arg1 : tensor<1x5xf32>, tensor<1x5xi64>, tensor<1x5xf32>) -> tensor<1x5xf32>, tensor<1x5xi64>, tensor<1x5xf32>
    %e3 = tensor.empty() : tensor<1x5xf32>
    %v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s2#2, %v1 : tensor<1x5xf32>, tensor<1x5xf32>) outs(%e3 : tensor<1x5xf32>) {
    ^bb0(%x3_0: f32, %x3_1: f32, %o3: f32):
      %t3_0 = arith.addf %x3_0, %x3_1 : f32
      linalg.yield %t3_0 : f32
    } -> tensor<1x5xf32>
    return %s2#0, %v7 : tensor<1x5xf32>, tensor<1x5xf32>
  }
}
