module {
  func.func @main(%arg0: tensor<2x4xf64>, %arg1: tensor<2x4xf64>) -> (tensor<2x4xf64>, tensor<2x2xf64>, tensor<2x2xi64>) {
    %e0 = tensor.empty() : tensor<2x4xf64>
    %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<2x4xf64>, tensor<2x4xf64>) outs(%e0 : tensor<2x4xf64>) {
    ^bb0(%x0_0: f64, %x0_1: f64, %o0: f64):
      %t0_0 = arith.minimumf %x0_0, %x0_1 : f64
      linalg.yield %t0_0 : f64
    } -> tensor<2x4xf64>
    %e1_0 = tensor.empty() : tensor<2x2xf64>
    %e1_1 = tensor.empty() : tensor<2x2xi64>
    %v3, %v4 = sift.topk dimension(1) k(2) largest ins(%v2 : tensor<2x4xf64>) outs(%e1_0, %e1_1 : tensor<2x2xf64>, tensor<2x2xi64>) -> tensor<2x2xf64>, tensor<2x2xi64>
    return %v2, %v3, %v4 : tensor<2x4xf64>, tensor<2x2xf64>, tensor<2x2xi64>
  }
}
