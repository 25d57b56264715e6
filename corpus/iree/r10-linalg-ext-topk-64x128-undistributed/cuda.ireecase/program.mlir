module {
  func.func @main(%arg0: tensor<64x128xf32>) -> (tensor<64x8xf32>, tensor<64x8xi64>) {
    %ei0 = tensor.empty() : tensor<64x128xi32>
    %iota0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ei0 : tensor<64x128xi32>) {
    ^bb0(%o0: i32):
      %x0 = linalg.index 1 : index
      %y0 = arith.index_cast %x0 : index to i32
      linalg.yield %y0 : i32
    } -> tensor<64x128xi32>
    %c0_0 = arith.constant 0xFF800000 : f32
    %c0_1 = arith.constant -1 : i32
    %e0_0 = tensor.empty() : tensor<64x8xf32>
    %e0_1 = tensor.empty() : tensor<64x8xi32>
    %f0_0 = linalg.fill ins(%c0_0 : f32) outs(%e0_0 : tensor<64x8xf32>) -> tensor<64x8xf32>
    %f0_1 = linalg.fill ins(%c0_1 : i32) outs(%e0_1 : tensor<64x8xi32>) -> tensor<64x8xi32>
    %v1, %raw0 = iree_linalg_ext.topk dimension(1) ins(%arg0, %iota0 : tensor<64x128xf32>, tensor<64x128xi32>) outs(%f0_0, %f0_1 : tensor<64x8xf32>, tensor<64x8xi32>) {
    ^bb0(%lhs0: f32, %rhs0: f32):
      %t0_0 = arith.cmpf uno, %lhs0, %lhs0 : f32
      %t0_1 = arith.cmpf ord, %rhs0, %rhs0 : f32
      %t0_2 = arith.andi %t0_0, %t0_1 : i1
      %t0_3 = arith.cmpf ogt, %lhs0, %rhs0 : f32
      %t0_4 = arith.ori %t0_2, %t0_3 : i1
      iree_linalg_ext.yield %t0_4 : i1
    } -> tensor<64x8xf32>, tensor<64x8xi32>
    %ew0 = tensor.empty() : tensor<64x8xi64>
    %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%raw0 : tensor<64x8xi32>) outs(%ew0 : tensor<64x8xi64>) {
    ^bb0(%n0: i32, %w0: i64):
      %z0 = arith.extsi %n0 : i32 to i64
      linalg.yield %z0 : i64
    } -> tensor<64x8xi64>
    return %v1, %v2 : tensor<64x8xf32>, tensor<64x8xi64>
  }
}
