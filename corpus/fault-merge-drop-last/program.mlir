module {
  func.func @main(%arg0: tensor<3xf32>) -> (tensor<3xf32>) {
    %v1 = sift.sort dimension(0) outs(%arg0 : tensor<3xf32>) {
    ^bb0(%lhs0: f32, %rhs0: f32):
      %t0_0 = arith.cmpf ord, %lhs0, %lhs0 : f32
      %t0_1 = arith.cmpf uno, %rhs0, %rhs0 : f32
      %t0_2 = arith.andi %t0_0, %t0_1 : i1
      %t0_3 = arith.cmpf olt, %lhs0, %rhs0 : f32
      %t0_4 = arith.ori %t0_2, %t0_3 : i1
      sift.yield %t0_4 : i1
    } -> tensor<3xf32>
    return %v1 : tensor<3xf32>
  }
}
