module {
  func.func @main(%arg0: tensor<41xf16>, %arg1: tensor<41xf16>, %arg2: tensor<41xi32>) -> (tensor<41xf16>) {
    %e0 = tensor.empty() : tensor<41xf16>
    %v2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg0, %arg1 : tensor<41xf16>, tensor<41xf16>) outs(%e0 : tensor<41xf16>) {
    ^bb0(%x0_0: f16, %x0_1: f16, %o0: f16):
      %t0_0 = arith.subf %x0_0, %x0_1 : f16
      linalg.yield %t0_0 : f16
    } -> tensor<41xf16>
    %s1:2 = sift.sort dimension(0) outs(%v2, %arg2 : tensor<41xf16>, tensor<41xi32>) {
    ^bb0(%lhs1: f16, %rhs1: f16):
      %t1_0 = arith.cmpf ord, %lhs1, %lhs1 : f16
      %t1_1 = arith.cmpf uno, %rhs1, %rhs1 : f16
      %t1_2 = arith.andi %t1_0, %t1_1 : i1
      %t1_3 = arith.cmpf olt, %lhs1, %rhs1 : f16
      %t1_4 = arith.ori %t1_2, %t1_3 : i1
      sift.yield %t1_4 : i1
    } -> tensor<41xf16>, tensor<41xi32>
    %e2 = tensor.empty() : tensor<41xf16>
    %v6 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s1#0, %s1#0 : tensor<41xf16>, tensor<41xf16>) outs(%e2 : tensor<41xf16>) {
    ^bb0(%x2_0: f16, %x2_1: f16, %o2: f16):
      %t2_0 = arith.addf %x2_0, %x2_1 : f16
      linalg.yield %t2_0 : f16
    } -> tensor<41xf16>
    %e3 = tensor.empty() : tensor<41xf16>
    %v7 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v6 : tensor<41xf16>) outs(%e3 : tensor<41xf16>) {
    ^bb0(%x3_0: f16, %o3: f16):
      %t3_0 = arith.constant 0xC200 : f16
      %t3_1 = arith.mulf %x3_0, %t3_0 : f16
      linalg.yield %t3_1 : f16
    } -> tensor<41xf16>
    %e4 = tensor.empty() : tensor<41xf16>
    %v8 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg0, %v7 : tensor<41xf16>, tensor<41xf16>) outs(%e4 : tensor<41xf16>) {
    ^bb0(%x4_0: f16, %x4_1: f16, %o4: f16):
      %t4_0 = arith.addf %x4_0, %x4_1 : f16
      linalg.yield %t4_0 : f16
    } -> tensor<41xf16>
    return %v8 : tensor<41xf16>
  }
}
