module {
  func.func @main(%arg0: tensor<1x1x4xf16>, %arg1: tensor<1x8x1xf16>) -> (tensor<8x3xi32>, tensor<1xi64>) {
    %e0_0 = tensor.empty() : tensor<8x3xi64>
    %e0_1 = tensor.empty() : tensor<1xi64>
    %v2, %v3 = sift.nms max_output_boxes_per_class(1) iou_threshold(0x3F0E38E4) score_threshold(0xBF000000) ins(%arg0, %arg1 : tensor<1x1x4xf16>, tensor<1x8x1xf16>) outs(%e0_0, %e0_1 : tensor<8x3xi64>, tensor<1xi64>) -> tensor<8x3xi64>, tensor<1xi64>
    %e1 = tensor.empty() : tensor<8x3xi64>
    %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v2 : tensor<8x3xi64>) outs(%e1 : tensor<8x3xi64>) {
    ^bb0(%x1_0: i64, %o1: i64):
      %t1_0 = arith.constant 256 : i64
      %t1_1 = arith.addi %x1_0, %t1_0 : i64
      linalg.yield %t1_1 : i64
    } -> tensor<8x3xi64>
    %e2 = tensor.empty() : tensor<8x3xi64>
    %v5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v4, %v4 : tensor<8x3xi64>, tensor<8x3xi64>) outs(%e2 : tensor<8x3xi64>) {
    ^bb0(%x2_0: i64, %x2_1: i64, %o2: i64):
      %t2_0 = arith.minsi %x2_0, %x2_1 : i64
      linalg.yield %t2_0 : i64
    } -> tensor<8x3xi64>
    %e3 = tensor.empty() : tensor<8x3xi32>
    %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v5 : tensor<8x3xi64>) outs(%e3 : tensor<8x3xi32>) {
    ^bb0(%x3_0: i64, %o3: i32):
      %t3_0 = arith.trunci %x3_0 : i64 to i32
      linalg.yield %t3_0 : i32
    } -> tensor<8x3xi32>
    %e4 = tensor.empty() : tensor<1xi64>
    %v7 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v3, %v3 : tensor<1xi64>, tensor<1xi64>) outs(%e4 : tensor<1xi64>) {
    ^bb0(%x4_0: i64, %x4_1: i64, %o4: i64):
      %t4_0 = arith.muli %x4_0, %x4_1 : i64
      linalg.yield %t4_0 : i64
    } -> tensor<1xi64>
    return %v6, %v7 : tensor<8x3xi32>, tensor<1xi64>
  }
}
