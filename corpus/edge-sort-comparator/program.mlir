module {
  func.func @main(%arg0: tensor<3x13xf32>, %arg1: tensor<3x13xi32>) -> (tensor<3x13xf32>, tensor<3x13xi32>) {
    %s0:2 = sift.sort dimension(1) outs(%arg0, %arg1 : tensor<3x13xf32>, tensor<3x13xi32>) {
    ^bb0(%lhs0: f32, %rhs0: f32):
      %t0_0 = math.absf %lhs0 : f32
      %t0_1 = math.absf %rhs0 : f32
      %t0_2 = arith.cmpf ord, %t0_0, %t0_0 : f32
      %t0_3 = arith.cmpf uno, %t0_1, %t0_1 : f32
      %t0_4 = arith.andi %t0_2, %t0_3 : i1
      %t0_5 = arith.cmpf olt, %t0_0, %t0_1 : f32
      %t0_6 = arith.ori %t0_4, %t0_5 : i1
      sift.yield %t0_6 : i1
    } -> tensor<3x13xf32>, tensor<3x13xi32>
    return %s0#0, %s0#1 : tensor<3x13xf32>, tensor<3x13xi32>
  }
}
