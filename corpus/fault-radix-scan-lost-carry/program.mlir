module {
  func.func @main(%arg0: tensor<257x1x1xf32>, %arg1: tensor<257x1x1xf32>) -> (tensor<257x1x1xf32>, tensor<257x1x1xf32>, tensor<257x1x1xf32>) {
    %e0 = tensor.empty() : tensor<257x1x1xf32>
    %v1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<257x1x1xf32>) outs(%e0 : tensor<257x1x1xf32>) {
    ^bb0(%x0_0: f32, %o0: f32):
      %t0_0 = math.absf %x0_0 : f32
      linalg.yield %t0_0 : f32
    } -> tensor<257x1x1xf32>
    %s1:2 = sift.sort dimension(0) ascending outs(%v1, %arg1 : tensor<257x1x1xf32>, tensor<257x1x1xf32>) -> tensor<257x1x1xf32>, tensor<257x1x1xf32>
    return %s1#0, %s1#1, %v1 : tensor<257x1x1xf32>, tensor<257x1x1xf32>, tensor<257x1x1xf32>
  }
}
