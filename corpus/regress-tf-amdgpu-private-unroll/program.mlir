module {
  func.func @main(%arg0: tensor<4x37x4xf16>, %arg1: tensor<4x4x37xi64>, %arg2: tensor<4x37xf32>) -> (tensor<0x3xi64>, tensor<1xi32>) {
    %e0 = tensor.empty() : tensor<4x4x37xf32>
    %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : tensor<4x4x37xi64>) outs(%e0 : tensor<4x4x37xf32>) {
    ^bb0(%x0_0: i64, %o0: f32):
      %t0_0 = arith.sitofp %x0_0 : i64 to f32
      linalg.yield %t0_0 : f32
    } -> tensor<4x4x37xf32>
    %e1_0 = tensor.empty() : tensor<4x28xf32>
    %e1_1 = tensor.empty() : tensor<4x28xi64>
    %v4, %v5 = sift.topk dimension(1) k(28) largest ins(%arg2 : tensor<4x37xf32>) outs(%e1_0, %e1_1 : tensor<4x28xf32>, tensor<4x28xi64>) -> tensor<4x28xf32>, tensor<4x28xi64>
    %e2 = tensor.empty() : tensor<4x28x4xf16>
    %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v5 : tensor<4x28xi64>) outs(%e2 : tensor<4x28x4xf16>) {
    ^bb0(%x2_0: i64, %o2: f16):
      %t2_a = arith.index_cast %x2_0 : i64 to index
      %t2_0 = linalg.index 0 : index
      %t2_2 = linalg.index 2 : index
      %t2_e = tensor.extract %arg0[%t2_0, %t2_a, %t2_2] : tensor<4x37x4xf16>
      linalg.yield %t2_e : f16
    } -> tensor<4x28x4xf16>
    %e3 = tensor.empty() : tensor<4x4x28xf32>
    %v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v5 : tensor<4x28xi64>) outs(%e3 : tensor<4x4x28xf32>) {
    ^bb0(%x3_0: i64, %o3: f32):
      %t3_a = arith.index_cast %x3_0 : i64 to index
      %t3_0 = linalg.index 0 : index
      %t3_1 = linalg.index 1 : index
      %t3_e = tensor.extract %v2[%t3_0, %t3_1, %t3_a] : tensor<4x4x37xf32>
      linalg.yield %t3_e : f32
    } -> tensor<4x4x28xf32>
    %e4_0 = tensor.empty() : tensor<112x3xi64>
    %e4_1 = tensor.empty() : tensor<1xi64>
    %v8, %v9 = sift.nms max_output_boxes_per_class(7) iou_threshold(0x3D22C9BC) ins(%v6, %v7 : tensor<4x28x4xf16>, tensor<4x4x28xf32>) outs(%e4_0, %e4_1 : tensor<112x3xi64>, tensor<1xi64>) -> tensor<112x3xi64>, tensor<1xi64>
    %v10 = tensor.extract_slice %v8[0, 0] [0, 3] [1, 1] : tensor<112x3xi64> to tensor<0x3xi64>
    %e6 = tensor.empty() : tensor<1xi64>
    %v11 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v9 : tensor<1xi64>) outs(%e6 : tensor<1xi64>) {
    ^bb0(%x6_0: i64, %o6: i64):
      %t6_0 = arith.constant -8589934591 : i64
      %t6_1 = arith.addi %x6_0, %t6_0 : i64
      linalg.yield %t6_1 : i64
    } -> tensor<1xi64>
    %e7 = tensor.empty() : tensor<1xi32>
    %v12 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v11 : tensor<1xi64>) outs(%e7 : tensor<1xi32>) {
    ^bb0(%x7_0: i64, %o7: i32):
      %t7_0 = arith.trunci %x7_0 : i64 to i32
      linalg.yield %t7_0 : i32
    } -> tensor<1xi32>
    return %v10, %v12 : tensor<0x3xi64>, tensor<1xi32>
  }
}
