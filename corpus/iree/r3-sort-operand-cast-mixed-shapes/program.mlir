module {
  func.func @main(%arg0: tensor<?x?x?xf32>, %arg1: tensor<?x?x?xi32>, %arg2: tensor<16x1x?xf32>) -> (tensor<?x?x?xf32>, tensor<?x?x?xf32>) {
    %cast0_2 = tensor.cast %arg2 : tensor<16x1x?xf32> to tensor<?x?x?xf32>
    %s0:3 = iree_linalg_ext.sort dimension(1) outs(%arg0, %arg1, %cast0_2 : tensor<?x?x?xf32>, tensor<?x?x?xi32>, tensor<?x?x?xf32>) {
    ^bb0(%lhs0: f32, %rhs0: f32, %a0_1: i32, %b0_1: i32, %a0_2: f32, %b0_2: f32):
      %t0_0 = arith.cmpf ord, %lhs0, %lhs0 : f32
      %t0_1 = arith.cmpf uno, %rhs0, %rhs0 : f32
      %t0_2 = arith.andi %t0_0, %t0_1 : i1
      %t0_3 = arith.cmpf olt, %lhs0, %rhs0 : f32
      %t0_4 = arith.ori %t0_2, %t0_3 : i1
      iree_linalg_ext.yield %t0_4 : i1
    } -> tensor<?x?x?xf32>, tensor<?x?x?xi32>, tensor<?x?x?xf32>
    return %s0#0, %s0#2 : tensor<?x?x?xf32>, tensor<?x?x?xf32>
  }
}
