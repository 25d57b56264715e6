module {
  func.func @main(%arg0: tensor<15x15xf32>, %arg1: tensor<15x15xf32>) -> (tensor<15x15xf32>, tensor<15x15xi64>) {
    %e0 = tensor.empty() : tensor<15x15xf32>
    %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<15x15xf32>, tensor<15x15xf32>) outs(%e0 : tensor<15x15xf32>) {
    ^bb0(%x0_0: f32, %x0_1: f32, %o0: f32):
      %t0_0 = arith.maximumf %x0_0, %x0_1 : f32
      linalg.yield %t0_0 : f32
    } -> tensor<15x15xf32>
    %ei1 = tensor.empty() : tensor<15x15xi32>
    %iota1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ei1 : tensor<15x15xi32>) {
    ^bb0(%o1: i32):
      %x1 = linalg.index 0 : index
      %y1 = arith.index_cast %x1 : index to i32
      linalg.yield %y1 : i32
    } -> tensor<15x15xi32>
    %c1_0 = arith.constant 0x7FC00000 : f32
    %c1_1 = arith.constant -1 : i32
    %e1_0 = tensor.empty() : tensor<15x15xf32>
    %e1_1 = tensor.empty() : tensor<15x15xi32>
    %f1_0 = linalg.fill ins(%c1_0 : f32) outs(%e1_0 : tensor<15x15xf32>) -> tensor<15x15xf32>
    %f1_1 = linalg.fill ins(%c1_1 : i32) outs(%e1_1 : tensor<15x15xi32>) -> tensor<15x15xi32>
    %v3, %raw1 = iree_linalg_ext.topk dimension(0) ins(%v2, %iota1 : tensor<15x15xf32>, tensor<15x15xi32>) outs(%f1_0, %f1_1 : tensor<15x15xf32>, tensor<15x15xi32>) {
    ^bb0(%lhs1: f32, %rhs1: f32):
      %t1_0 = arith.cmpf ord, %lhs1, %lhs1 : f32
      %t1_1 = arith.cmpf uno, %rhs1, %rhs1 : f32
      %t1_2 = arith.andi %t1_0, %t1_1 : i1
      %t1_3 = arith.cmpf olt, %lhs1, %rhs1 : f32
      %t1_4 = arith.ori %t1_2, %t1_3 : i1
      iree_linalg_ext.yield %t1_4 : i1
    } -> tensor<15x15xf32>, tensor<15x15xi32>
    %ew1 = tensor.empty() : tensor<15x15xi64>
    %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%raw1 : tensor<15x15xi32>) outs(%ew1 : tensor<15x15xi64>) {
    ^bb0(%n1: i32, %w1: i64):
      %z1 = arith.extsi %n1 : i32 to i64
      linalg.yield %z1 : i64
    } -> tensor<15x15xi64>
    %e2 = tensor.empty() : tensor<15x15xf32>
    %v5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v3 : tensor<15x15xf32>) outs(%e2 : tensor<15x15xf32>) {
    ^bb0(%x2_0: f32, %o2: f32):
      %t2_0 = arith.negf %x2_0 : f32
      linalg.yield %t2_0 : f32
    } -> tensor<15x15xf32>
    %e3 = tensor.empty() : tensor<15x15xf32>
    %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v5 : tensor<15x15xf32>) outs(%e3 : tensor<15x15xf32>) {
    ^bb0(%x3_0: f32, %o3: f32):
      %t3_0 = arith.constant 0xBFC00000 : f32
      %t3_1 = arith.mulf %x3_0, %t3_0 : f32
      linalg.yield %t3_1 : f32
    } -> tensor<15x15xf32>
    return %v6, %v4 : tensor<15x15xf32>, tensor<15x15xi64>
  }
}
