module {
  func.func @main(%arg0: tensor<0x9xf64>) -> (tensor<0x1xf64>, tensor<0x1xi64>) {
    %e0 = tensor.empty() : tensor<0x9xf64>
    %v1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg0 : tensor<0x9xf64>, tensor<0x9xf64>) outs(%e0 : tensor<0x9xf64>) {
    ^bb0(%x0_0: f64, %x0_1: f64, %o0: f64):
      %t0_0 = arith.addf %x0_0, %x0_1 : f64
      linalg.yield %t0_0 : f64
    } -> tensor<0x9xf64>
    %e1 = tensor.empty() : tensor<0x9xf64>
    %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v1 : tensor<0x9xf64>) outs(%e1 : tensor<0x9xf64>) {
    ^bb0(%x1_0: f64, %o1: f64):
      %t1_0 = math.absf %x1_0 : f64
      linalg.yield %t1_0 : f64
    } -> tensor<0x9xf64>
    %e2_0 = tensor.empty() : tensor<0x1xf64>
    %e2_1 = tensor.empty() : tensor<0x1xi64>
    %v3, %v4 = sift.topk dimension(1) k(1) smallest ins(%v2 : tensor<0x9xf64>) outs(%e2_0, %e2_1 : tensor<0x1xf64>, tensor<0x1xi64>) -> tensor<0x1xf64>, tensor<0x1xi64>
    return %v3, %v4 : tensor<0x1xf64>, tensor<0x1xi64>
  }
}
