module {
  func.func @main(%arg0: tensor<1x1x2039x0xi64>, %arg1: tensor<1x1x2039x0xf16>) -> (tensor<1x1x2039x0xf64>, tensor<1x1x2039x0xf16>) {
    %s0:2 = sift.sort dimension(2) ascending outs(%arg0, %arg1 : tensor<1x1x2039x0xi64>, tensor<1x1x2039x0xf16>) -> tensor<1x1x2039x0xi64>, tensor<1x1x2039x0xf16>
    %e1 = tensor.empty() : tensor<1x1x2039x0xf64>
    %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s0#0 : tensor<1x1x2039x0xi64>) outs(%e1 : tensor<1x1x2039x0xf64>) {
    ^bb0(%x1_0: i64, %o1: f64):
      %t1_0 = arith.sitofp %x1_0 : i64 to f64
      linalg.yield %t1_0 : f64
    } -> tensor<1x1x2039x0xf64>
    return %v4, %s0#1 : tensor<1x1x2039x0xf64>, tensor<1x1x2039x0xf16>
  }
}
