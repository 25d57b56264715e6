module {
  func.func @main(%arg0: tensor<3xf32>, %arg1: tensor<3xi32>) -> (tensor<3xi32>) {
    %t0:2 = "stablehlo.sort"(%arg0, %arg1) ({
    ^bb0(%t1: tensor<f32>, %t2: tensor<f32>, %t3: tensor<i32>, %t4: tensor<i32>):
      %t5 = "stablehlo.compare"(%t1, %t1) {comparison_direction = #stablehlo<comparison_direction NE>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %t6 = "stablehlo.compare"(%t2, %t2) {comparison_direction = #stablehlo<comparison_direction NE>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %t7 = "stablehlo.not"(%t5) : (tensor<i1>) -> tensor<i1>
      %t8 = "stablehlo.and"(%t7, %t6) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %t9 = "stablehlo.compare"(%t1, %t2) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %t10 = "stablehlo.or"(%t8, %t9) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%t10) : (tensor<i1>) -> ()
    }) {dimension = 0 : i64, is_stable = true} : (tensor<3xf32>, tensor<3xi32>) -> (tensor<3xf32>, tensor<3xi32>)
    return %t0#1 : tensor<3xi32>
  }
}
