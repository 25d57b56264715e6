module {
  func.func @main(%arg0: tensor<4xf64>) -> (tensor<4xf16>) {
    %e0 = tensor.empty() : tensor<4xf16>
    %v1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg0 : tensor<4xf64>) outs(%e0 : tensor<4xf16>) {
    ^bb0(%x0_0: f64, %o0: f16):
      %t0_0 = arith.truncf %x0_0 : f64 to f16
      linalg.yield %t0_0 : f16
    } -> tensor<4xf16>
    return %v1 : tensor<4xf16>
  }
}
