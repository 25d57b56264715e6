module {
  func.func @main(%arg0: tensor<14x2988xf64>, %arg1: tensor<14x2988xf64>) -> (tensor<14x406xf64>, tensor<14x406xi64>) {
    %e0 = tensor.empty() : tensor<14x2988xf64>
    %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<14x2988xf64>, tensor<14x2988xf64>) outs(%e0 : tensor<14x2988xf64>) {
    ^bb0(%x0_0: f64, %x0_1: f64, %o0: f64):
      %t0_0 = arith.maximumf %x0_0, %x0_1 : f64
      linalg.yield %t0_0 : f64
    } -> tensor<14x2988xf64>
    %e1 = tensor.empty() : tensor<14x2988xf64>
    %v3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v2 : tensor<14x2988xf64>) outs(%e1 : tensor<14x2988xf64>) {
    ^bb0(%x1_0: f64, %o1: f64):
      %t1_0 = arith.constant 0x3FE0000000000000 : f64
      %t1_1 = arith.addf %x1_0, %t1_0 : f64
      linalg.yield %t1_1 : f64
    } -> tensor<14x2988xf64>
    %e2 = tensor.empty() : tensor<14x2988xf64>
    %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v3 : tensor<14x2988xf64>) outs(%e2 : tensor<14x2988xf64>) {
    ^bb0(%x2_0: f64, %o2: f64):
      %t2_0 = arith.negf %x2_0 : f64
      linalg.yield %t2_0 : f64
    } -> tensor<14x2988xf64>
    %e3_0 = tensor.empty() : tensor<14x406xf64>
    %e3_1 = tensor.empty() : tensor<14x406xi64>
    %v5, %v6 = sift.topk dimension(1) k(406) largest ins(%v4 : tensor<14x2988xf64>) outs(%e3_0, %e3_1 : tensor<14x406xf64>, tensor<14x406xi64>) -> tensor<14x406xf64>, tensor<14x406xi64>
    return %v5, %v6 : tensor<14x406xf64>, tensor<14x406xi64>
  }
}
