module {
  func.func @main(%arg0: tensor<2x1x1xf32>) -> (tensor<2x1x1xf32>) {
    %e0 = tensor.empty() : tensor<2x1x1xf32>
    %v0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x1x1xf32>) outs(%e0 : tensor<2x1x1xf32>) {
    ^bb0(%x0_0: f32, %o0: f32):
      %t0_0 = arith.negf %x0_0 : f32
      %t0_1 = math.exp %t0_0 : f32
      %t0_2 = arith.constant 0x3F800000 : f32
      %t0_3 = arith.addf %t0_2, %t0_1 : f32
      %t0_4 = arith.divf %t0_2, %t0_3 : f32
      linalg.yield %t0_4 : f32
    } -> tensor<2x1x1xf32>
    %e1_0 = tensor.empty() : tensor<2x1x1xf32>
    %e1_1 = tensor.empty() : tensor<2x1x1xi64>
    %v1, %v2 = sift.topk dimension(2) k(1) smallest ins(%v0 : tensor<2x1x1xf32>) outs(%e1_0, %e1_1 : tensor<2x1x1xf32>, tensor<2x1x1xi64>) -> tensor<2x1x1xf32>, tensor<2x1x1xi64>
    return %v1 : tensor<2x1x1xf32>
  }
}
