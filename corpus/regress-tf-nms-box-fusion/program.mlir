module {
  func.func @main(%arg0: tensor<1x2512x4xf32>, %arg1: tensor<1x8x2512xf32>) -> (tensor<20136x3xi64>, tensor<1xi64>) {
    %e0 = tensor.empty() : tensor<1x2512x4xf32>
    %v1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x2512x4xf32>) outs(%e0 : tensor<1x2512x4xf32>) {
    ^bb0(%x0_0: f32, %o0: f32):
      %t0_0 = math.absf %x0_0 : f32
      linalg.yield %t0_0 : f32
    } -> tensor<1x2512x4xf32>
    %e1 = tensor.empty() : tensor<1x2512x4xf32>
    %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v1 : tensor<1x2512x4xf32>) outs(%e1 : tensor<1x2512x4xf32>) {
    ^bb0(%x1_0: f32, %o1: f32):
      %t1_0 = math.absf %x1_0 : f32
      linalg.yield %t1_0 : f32
    } -> tensor<1x2512x4xf32>
    %e2_0 = tensor.empty() : tensor<20136x3xi64>
    %e2_1 = tensor.empty() : tensor<1xi64>
    %v4, %v5 = sift.nms max_output_boxes_per_class(2517) iou_threshold(0x3E3A2E8C) score_threshold(0x3EF3D989) center_point_box(1) ins(%v2, %arg1 : tensor<1x2512x4xf32>, tensor<1x8x2512xf32>) outs(%e2_0, %e2_1 : tensor<20136x3xi64>, tensor<1xi64>) -> tensor<20136x3xi64>, tensor<1xi64>
    return %v4, %v5 : tensor<20136x3xi64>, tensor<1xi64>
  }
}
