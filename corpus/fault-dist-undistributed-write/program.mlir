module {
  func.func @main(%arg0: tensor<4xf16>, %arg1: tensor<4xf64>) -> (tensor<4xf16>, tensor<4xf64>) {
    %s0:2 = sift.sort dimension(0) outs(%arg0, %arg1 : tensor<4xf16>, tensor<4xf64>) {
    ^bb0(%lhs0: f16, %rhs0: f16):
      %t0_0 = arith.cmpf ord, %lhs0, %lhs0 : f16
      %t0_1 = arith.cmpf uno, %rhs0, %rhs0 : f16
      %t0_2 = arith.andi %t0_0, %t0_1 : i1
      %t0_3 = arith.cmpf olt, %lhs0, %rhs0 : f16
      %t0_4 = arith.ori %t0_2, %t0_3 : i1
      sift.yield %t0_4 : i1
    } -> tensor<4xf16>, tensor<4xf64>
    return %s0#0, %s0#1 : tensor<4xf16>, tensor<4xf64>
  }
}
