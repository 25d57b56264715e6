module {
  func.func @main(%arg0: tensor<2x256x4xf32>, %arg1: tensor<2x3x256xf32>, %arg2: tensor<2x256xf32>) -> (tensor<708x1xi64>, tensor<1xi64>) {
    %e0 = tensor.empty() : tensor<2x3x256xf32>
    %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : tensor<2x3x256xf32>) outs(%e0 : tensor<2x3x256xf32>) {
    ^bb0(%x0_0: f32, %o0: f32):
      %t0_0 = arith.negf %x0_0 : f32
      %t0_1 = math.exp %t0_0 : f32
      %t0_2 = arith.constant 0x3F800000 : f32
      %t0_3 = arith.addf %t0_2, %t0_1 : f32
      %t0_4 = arith.divf %t0_2, %t0_3 : f32
      linalg.yield %t0_4 : f32
    } -> tensor<2x3x256xf32>
    %e1_0 = tensor.empty() : tensor<2x233xf32>
    %e1_1 = tensor.empty() : tensor<2x233xi64>
    %v4, %v5 = sift.topk dimension(1) k(233) largest ins(%arg2 : tensor<2x256xf32>) outs(%e1_0, %e1_1 : tensor<2x233xf32>, tensor<2x233xi64>) -> tensor<2x233xf32>, tensor<2x233xi64>
    %e2 = tensor.empty() : tensor<2x233x4xf32>
    %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v5 : tensor<2x233xi64>) outs(%e2 : tensor<2x233x4xf32>) {
    ^bb0(%x2_0: i64, %o2: f32):
      %t2_a = arith.index_cast %x2_0 : i64 to index
      %t2_0 = linalg.index 0 : index
      %t2_2 = linalg.index 2 : index
      %t2_e = tensor.extract %arg0[%t2_0, %t2_a, %t2_2] : tensor<2x256x4xf32>
      linalg.yield %t2_e : f32
    } -> tensor<2x233x4xf32>
    %e3 = tensor.empty() : tensor<2x3x233xf32>
    %v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v5 : tensor<2x233xi64>) outs(%e3 : tensor<2x3x233xf32>) {
    ^bb0(%x3_0: i64, %o3: f32):
      %t3_a = arith.index_cast %x3_0 : i64 to index
      %t3_0 = linalg.index 0 : index
      %t3_1 = linalg.index 1 : index
      %t3_e = tensor.extract %v2[%t3_0, %t3_1, %t3_a] : tensor<2x3x256xf32>
      linalg.yield %t3_e : f32
    } -> tensor<2x3x233xf32>
    %e4_0 = tensor.empty() : tensor<708x3xi64>
    %e4_1 = tensor.empty() : tensor<1xi64>
    %v8, %v9 = sift.nms max_output_boxes_per_class(118) iou_threshold(0x3F284A0F) score_threshold(0x00000001) center_point_box(1) ins(%v6, %v7 : tensor<2x233x4xf32>, tensor<2x3x233xf32>) outs(%e4_0, %e4_1 : tensor<708x3xi64>, tensor<1xi64>) -> tensor<708x3xi64>, tensor<1xi64>
    %v10 = tensor.extract_slice %v8[0, 0] [708, 1] [1, 2] : tensor<708x3xi64> to tensor<708x1xi64>
    %e6 = tensor.empty() : tensor<708x1xi64>
    %v11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v10 : tensor<708x1xi64>) outs(%e6 : tensor<708x1xi64>) {
    ^bb0(%x6_0: i64, %o6: i64):
      %t6_0 = arith.constant 2 : i64
      %t6_1 = arith.muli %x6_0, %t6_0 : i64
      linalg.yield %t6_1 : i64
    } -> tensor<708x1xi64>
    %e7 = tensor.empty() : tensor<708x1xi64>
    %v12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v10, %v11 : tensor<708x1xi64>, tensor<708x1xi64>) outs(%e7 : tensor<708x1xi64>) {
    ^bb0(%x7_0: i64, %x7_1: i64, %o7: i64):
      %t7_0 = arith.xori %x7_0, %x7_1 : i64
      linalg.yield %t7_0 : i64
    } -> tensor<708x1xi64>
    %e8 = tensor.empty() : tensor<708x1xi64>
    %v13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v12 : tensor<708x1xi64>) outs(%e8 : tensor<708x1xi64>) {
    ^bb0(%x8_0: i64, %o8: i64):
      %t8_0 = arith.constant 255 : i64
      %t8_1 = arith.muli %x8_0, %t8_0 : i64
      linalg.yield %t8_1 : i64
    } -> tensor<708x1xi64>
    %e9 = tensor.empty() : tensor<1xi64>
    %v14 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v9, %v9 : tensor<1xi64>, tensor<1xi64>) outs(%e9 : tensor<1xi64>) {
    ^bb0(%x9_0: i64, %x9_1: i64, %o9: i64):
      %t9_0 = arith.addi %x9_0, %x9_1 : i64
      linalg.yield %t9_0 : i64
    } -> tensor<1xi64>
    return %v13, %v14 : tensor<708x1xi64>, tensor<1xi64>
  }
}
