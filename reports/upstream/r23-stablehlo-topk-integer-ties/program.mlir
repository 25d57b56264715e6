module {
  func.func @main(%arg0: tensor<4x1x88xf32>, %arg1: tensor<4x88xf32>, %arg2: tensor<4x88x4xf32>) -> (tensor<4x3xi64>, tensor<1xi64>, tensor<4x1x88xf32>) {
    %t0 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<4x88xf32>} : () -> tensor<4x88xf32>
    %t1 = "stablehlo.compare"(%arg1, %t0) {comparison_direction = #stablehlo<comparison_direction EQ>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<4x88xf32>, tensor<4x88xf32>) -> tensor<4x88xi1>
    %t2 = "stablehlo.select"(%t1, %t0, %arg1) : (tensor<4x88xi1>, tensor<4x88xf32>, tensor<4x88xf32>) -> tensor<4x88xf32>
    %t3 = "stablehlo.compare"(%t2, %t2) {comparison_direction = #stablehlo<comparison_direction NE>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<4x88xf32>, tensor<4x88xf32>) -> tensor<4x88xi1>
    %t4 = "stablehlo.constant"() {value = dense<0x7FC00000> : tensor<4x88xf32>} : () -> tensor<4x88xf32>
    %t5 = "stablehlo.select"(%t3, %t4, %t2) : (tensor<4x88xi1>, tensor<4x88xf32>, tensor<4x88xf32>) -> tensor<4x88xf32>
    %t6 = "stablehlo.bitcast_convert"(%t5) : (tensor<4x88xf32>) -> tensor<4x88xi32>
    %t7 = "stablehlo.constant"() {value = dense<0> : tensor<4x88xi32>} : () -> tensor<4x88xi32>
    %t8 = "stablehlo.compare"(%t6, %t7) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type SIGNED>} : (tensor<4x88xi32>, tensor<4x88xi32>) -> tensor<4x88xi1>
    %t9 = "stablehlo.constant"() {value = dense<2147483647> : tensor<4x88xi32>} : () -> tensor<4x88xi32>
    %t10 = "stablehlo.xor"(%t6, %t9) : (tensor<4x88xi32>, tensor<4x88xi32>) -> tensor<4x88xi32>
    %t11 = "stablehlo.select"(%t8, %t10, %t6) : (tensor<4x88xi1>, tensor<4x88xi32>, tensor<4x88xi32>) -> tensor<4x88xi32>
    %t12:2 = chlo.top_k(%t11, k = 88, is_stable = true) : tensor<4x88xi32> -> (tensor<4x88xi32>, tensor<4x88xi32>)
    %t13 = "stablehlo.convert"(%t12#1) : (tensor<4x88xi32>) -> tensor<4x88xi64>
    %t14 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4x88xi64>
    %t15 = "stablehlo.reshape"(%t14) : (tensor<4x88xi64>) -> tensor<4x88x1xi64>
    %t16 = "stablehlo.reshape"(%t13) : (tensor<4x88xi64>) -> tensor<4x88x1xi64>
    %t17 = "stablehlo.concatenate"(%t15, %t16) {dimension = 2 : i64} : (tensor<4x88x1xi64>, tensor<4x88x1xi64>) -> tensor<4x88x2xi64>
    %t18 = "stablehlo.gather"(%arg1, %t17) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>} : (tensor<4x88xf32>, tensor<4x88x2xi64>) -> tensor<4x88xf32>
    %t19 = "stablehlo.broadcast_in_dim"(%t13) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<4x88xi64>) -> tensor<4x1x88xi64>
    %t20 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4x1x88xi64>
    %t21 = "stablehlo.reshape"(%t20) : (tensor<4x1x88xi64>) -> tensor<4x1x88x1xi64>
    %t22 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<4x1x88xi64>
    %t23 = "stablehlo.reshape"(%t22) : (tensor<4x1x88xi64>) -> tensor<4x1x88x1xi64>
    %t24 = "stablehlo.reshape"(%t19) : (tensor<4x1x88xi64>) -> tensor<4x1x88x1xi64>
    %t25 = "stablehlo.concatenate"(%t21, %t23, %t24) {dimension = 3 : i64} : (tensor<4x1x88x1xi64>, tensor<4x1x88x1xi64>, tensor<4x1x88x1xi64>) -> tensor<4x1x88x3xi64>
    %t26 = "stablehlo.gather"(%arg0, %t25) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1, 2], start_index_map = [0, 1, 2], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>} : (tensor<4x1x88xf32>, tensor<4x1x88x3xi64>) -> tensor<4x1x88xf32>
    %t27 = "stablehlo.slice"(%arg2) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 4, 88, 1>, strides = array<i64: 1, 1, 1>} : (tensor<4x88x4xf32>) -> tensor<4x88x1xf32>
    %t28 = "stablehlo.reshape"(%t27) : (tensor<4x88x1xf32>) -> tensor<4x88xf32>
    %t29 = "stablehlo.slice"(%arg2) {start_indices = array<i64: 0, 0, 1>, limit_indices = array<i64: 4, 88, 2>, strides = array<i64: 1, 1, 1>} : (tensor<4x88x4xf32>) -> tensor<4x88x1xf32>
    %t30 = "stablehlo.reshape"(%t29) : (tensor<4x88x1xf32>) -> tensor<4x88xf32>
    %t31 = "stablehlo.slice"(%arg2) {start_indices = array<i64: 0, 0, 2>, limit_indices = array<i64: 4, 88, 3>, strides = array<i64: 1, 1, 1>} : (tensor<4x88x4xf32>) -> tensor<4x88x1xf32>
    %t32 = "stablehlo.reshape"(%t31) : (tensor<4x88x1xf32>) -> tensor<4x88xf32>
    %t33 = "stablehlo.slice"(%arg2) {start_indices = array<i64: 0, 0, 3>, limit_indices = array<i64: 4, 88, 4>, strides = array<i64: 1, 1, 1>} : (tensor<4x88x4xf32>) -> tensor<4x88x1xf32>
    %t34 = "stablehlo.reshape"(%t33) : (tensor<4x88x1xf32>) -> tensor<4x88xf32>
    %t35 = "stablehlo.constant"() {value = dense<0x40000000> : tensor<4x88xf32>} : () -> tensor<4x88xf32>
    %t36 = "stablehlo.divide"(%t32, %t35) : (tensor<4x88xf32>, tensor<4x88xf32>) -> tensor<4x88xf32>
    %t37 = "stablehlo.divide"(%t34, %t35) : (tensor<4x88xf32>, tensor<4x88xf32>) -> tensor<4x88xf32>
    %t38 = "stablehlo.subtract"(%t28, %t36) : (tensor<4x88xf32>, tensor<4x88xf32>) -> tensor<4x88xf32>
    %t39 = "stablehlo.add"(%t28, %t36) : (tensor<4x88xf32>, tensor<4x88xf32>) -> tensor<4x88xf32>
    %t40 = "stablehlo.subtract"(%t30, %t37) : (tensor<4x88xf32>, tensor<4x88xf32>) -> tensor<4x88xf32>
    %t41 = "stablehlo.add"(%t30, %t37) : (tensor<4x88xf32>, tensor<4x88xf32>) -> tensor<4x88xf32>
    %t42 = "stablehlo.subtract"(%t41, %t40) : (tensor<4x88xf32>, tensor<4x88xf32>) -> tensor<4x88xf32>
    %t43 = "stablehlo.subtract"(%t39, %t38) : (tensor<4x88xf32>, tensor<4x88xf32>) -> tensor<4x88xf32>
    %t44 = "stablehlo.multiply"(%t42, %t43) : (tensor<4x88xf32>, tensor<4x88xf32>) -> tensor<4x88xf32>
    %t45 = "stablehlo.reshape"(%t40) : (tensor<4x88xf32>) -> tensor<4x88x1xf32>
    %t46 = "stablehlo.reshape"(%t38) : (tensor<4x88xf32>) -> tensor<4x88x1xf32>
    %t47 = "stablehlo.reshape"(%t41) : (tensor<4x88xf32>) -> tensor<4x88x1xf32>
    %t48 = "stablehlo.reshape"(%t39) : (tensor<4x88xf32>) -> tensor<4x88x1xf32>
    %t49 = "stablehlo.reshape"(%t44) : (tensor<4x88xf32>) -> tensor<4x88x1xf32>
    %t50 = "stablehlo.concatenate"(%t45, %t46, %t47, %t48, %t49) {dimension = 2 : i64} : (tensor<4x88x1xf32>, tensor<4x88x1xf32>, tensor<4x88x1xf32>, tensor<4x88x1xf32>, tensor<4x88x1xf32>) -> tensor<4x88x5xf32>
    %t56 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<4x1x88xi64>
    %t51:2 = "stablehlo.sort"(%t26, %t56) ({
    ^bb0(%t52: tensor<f32>, %t53: tensor<f32>, %t54: tensor<i64>, %t55: tensor<i64>):
      %t57 = "stablehlo.compare"(%t52, %t52) {comparison_direction = #stablehlo<comparison_direction NE>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %t58 = "stablehlo.compare"(%t53, %t53) {comparison_direction = #stablehlo<comparison_direction NE>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %t59 = "stablehlo.not"(%t58) : (tensor<i1>) -> tensor<i1>
      %t60 = "stablehlo.and"(%t57, %t59) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %t61 = "stablehlo.compare"(%t52, %t53) {comparison_direction = #stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %t62 = "stablehlo.or"(%t60, %t61) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %t63 = "stablehlo.compare"(%t53, %t53) {comparison_direction = #stablehlo<comparison_direction NE>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %t64 = "stablehlo.compare"(%t52, %t52) {comparison_direction = #stablehlo<comparison_direction NE>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %t65 = "stablehlo.not"(%t64) : (tensor<i1>) -> tensor<i1>
      %t66 = "stablehlo.and"(%t63, %t65) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %t67 = "stablehlo.compare"(%t53, %t52) {comparison_direction = #stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %t68 = "stablehlo.or"(%t66, %t67) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %t69 = "stablehlo.not"(%t68) : (tensor<i1>) -> tensor<i1>
      %t70 = "stablehlo.compare"(%t54, %t55) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type SIGNED>} : (tensor<i64>, tensor<i64>) -> tensor<i1>
      %t71 = "stablehlo.and"(%t69, %t70) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %t72 = "stablehlo.or"(%t62, %t71) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%t72) : (tensor<i1>) -> ()
    }) {dimension = 2 : i64, is_stable = true} : (tensor<4x1x88xf32>, tensor<4x1x88xi64>) -> (tensor<4x1x88xf32>, tensor<4x1x88xi64>)
    %t73 = "stablehlo.constant"() {value = dense<true> : tensor<4x1x88xi1>} : () -> tensor<4x1x88xi1>
    %t74 = "stablehlo.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
    %t75 = "stablehlo.constant"() {value = dense<false> : tensor<4x1x88xi1>} : () -> tensor<4x1x88xi1>
    %t76 = "stablehlo.constant"() {value = dense<0> : tensor<4x1xi64>} : () -> tensor<4x1xi64>
    %t77 = "stablehlo.constant"() {value = dense<-1> : tensor<4x1x1xi64>} : () -> tensor<4x1x1xi64>
    %t78:7 = "stablehlo.while"(%t74, %t75, %t76, %t77, %t51#1, %t73, %t50) ({
    ^bb0(%t79: tensor<i64>, %t80: tensor<4x1x88xi1>, %t81: tensor<4x1xi64>, %t82: tensor<4x1x1xi64>, %t83: tensor<4x1x88xi64>, %t84: tensor<4x1x88xi1>, %t85: tensor<4x88x5xf32>):
      %t86 = "stablehlo.constant"() {value = dense<88> : tensor<i64>} : () -> tensor<i64>
      %t87 = "stablehlo.compare"(%t79, %t86) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type SIGNED>} : (tensor<i64>, tensor<i64>) -> tensor<i1>
      "stablehlo.return"(%t87) : (tensor<i1>) -> ()
    }, {
    ^bb0(%t88: tensor<i64>, %t89: tensor<4x1x88xi1>, %t90: tensor<4x1xi64>, %t91: tensor<4x1x1xi64>, %t92: tensor<4x1x88xi64>, %t93: tensor<4x1x88xi1>, %t94: tensor<4x88x5xf32>):
      %t95 = "stablehlo.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
      %t96 = "stablehlo.dynamic_slice"(%t92, %t95, %t95, %t88) {slice_sizes = array<i64: 4, 1, 1>} : (tensor<4x1x88xi64>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<4x1x1xi64>
      %t97 = "stablehlo.reshape"(%t96) : (tensor<4x1x1xi64>) -> tensor<4x1xi64>
      %t98 = "stablehlo.dynamic_slice"(%t93, %t95, %t95, %t88) {slice_sizes = array<i64: 4, 1, 1>} : (tensor<4x1x88xi1>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<4x1x1xi1>
      %t99 = "stablehlo.reshape"(%t98) : (tensor<4x1x1xi1>) -> tensor<4x1xi1>
      %t100 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4x1xi64>
      %t101 = "stablehlo.reshape"(%t100) : (tensor<4x1xi64>) -> tensor<4x1x1xi64>
      %t102 = "stablehlo.reshape"(%t97) : (tensor<4x1xi64>) -> tensor<4x1x1xi64>
      %t103 = "stablehlo.concatenate"(%t101, %t102) {dimension = 2 : i64} : (tensor<4x1x1xi64>, tensor<4x1x1xi64>) -> tensor<4x1x2xi64>
      %t104 = "stablehlo.gather"(%t94, %t103) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 5>} : (tensor<4x88x5xf32>, tensor<4x1x2xi64>) -> tensor<4x1x5xf32>
      %t105 = "stablehlo.slice"(%t104) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 4, 1, 1>, strides = array<i64: 1, 1, 1>} : (tensor<4x1x5xf32>) -> tensor<4x1x1xf32>
      %t106 = "stablehlo.reshape"(%t105) : (tensor<4x1x1xf32>) -> tensor<4x1xf32>
      %t107 = "stablehlo.broadcast_in_dim"(%t106) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<4x1xf32>) -> tensor<4x1x88xf32>
      %t108 = "stablehlo.slice"(%t94) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 4, 88, 1>, strides = array<i64: 1, 1, 1>} : (tensor<4x88x5xf32>) -> tensor<4x88x1xf32>
      %t109 = "stablehlo.reshape"(%t108) : (tensor<4x88x1xf32>) -> tensor<4x88xf32>
      %t110 = "stablehlo.broadcast_in_dim"(%t109) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<4x88xf32>) -> tensor<4x1x88xf32>
      %t111 = "stablehlo.slice"(%t104) {start_indices = array<i64: 0, 0, 1>, limit_indices = array<i64: 4, 1, 2>, strides = array<i64: 1, 1, 1>} : (tensor<4x1x5xf32>) -> tensor<4x1x1xf32>
      %t112 = "stablehlo.reshape"(%t111) : (tensor<4x1x1xf32>) -> tensor<4x1xf32>
      %t113 = "stablehlo.broadcast_in_dim"(%t112) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<4x1xf32>) -> tensor<4x1x88xf32>
      %t114 = "stablehlo.slice"(%t94) {start_indices = array<i64: 0, 0, 1>, limit_indices = array<i64: 4, 88, 2>, strides = array<i64: 1, 1, 1>} : (tensor<4x88x5xf32>) -> tensor<4x88x1xf32>
      %t115 = "stablehlo.reshape"(%t114) : (tensor<4x88x1xf32>) -> tensor<4x88xf32>
      %t116 = "stablehlo.broadcast_in_dim"(%t115) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<4x88xf32>) -> tensor<4x1x88xf32>
      %t117 = "stablehlo.slice"(%t104) {start_indices = array<i64: 0, 0, 2>, limit_indices = array<i64: 4, 1, 3>, strides = array<i64: 1, 1, 1>} : (tensor<4x1x5xf32>) -> tensor<4x1x1xf32>
      %t118 = "stablehlo.reshape"(%t117) : (tensor<4x1x1xf32>) -> tensor<4x1xf32>
      %t119 = "stablehlo.broadcast_in_dim"(%t118) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<4x1xf32>) -> tensor<4x1x88xf32>
      %t120 = "stablehlo.slice"(%t94) {start_indices = array<i64: 0, 0, 2>, limit_indices = array<i64: 4, 88, 3>, strides = array<i64: 1, 1, 1>} : (tensor<4x88x5xf32>) -> tensor<4x88x1xf32>
      %t121 = "stablehlo.reshape"(%t120) : (tensor<4x88x1xf32>) -> tensor<4x88xf32>
      %t122 = "stablehlo.broadcast_in_dim"(%t121) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<4x88xf32>) -> tensor<4x1x88xf32>
      %t123 = "stablehlo.slice"(%t104) {start_indices = array<i64: 0, 0, 3>, limit_indices = array<i64: 4, 1, 4>, strides = array<i64: 1, 1, 1>} : (tensor<4x1x5xf32>) -> tensor<4x1x1xf32>
      %t124 = "stablehlo.reshape"(%t123) : (tensor<4x1x1xf32>) -> tensor<4x1xf32>
      %t125 = "stablehlo.broadcast_in_dim"(%t124) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<4x1xf32>) -> tensor<4x1x88xf32>
      %t126 = "stablehlo.slice"(%t94) {start_indices = array<i64: 0, 0, 3>, limit_indices = array<i64: 4, 88, 4>, strides = array<i64: 1, 1, 1>} : (tensor<4x88x5xf32>) -> tensor<4x88x1xf32>
      %t127 = "stablehlo.reshape"(%t126) : (tensor<4x88x1xf32>) -> tensor<4x88xf32>
      %t128 = "stablehlo.broadcast_in_dim"(%t127) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<4x88xf32>) -> tensor<4x1x88xf32>
      %t129 = "stablehlo.slice"(%t104) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 4, 1, 5>, strides = array<i64: 1, 1, 1>} : (tensor<4x1x5xf32>) -> tensor<4x1x1xf32>
      %t130 = "stablehlo.reshape"(%t129) : (tensor<4x1x1xf32>) -> tensor<4x1xf32>
      %t131 = "stablehlo.broadcast_in_dim"(%t130) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<4x1xf32>) -> tensor<4x1x88xf32>
      %t132 = "stablehlo.slice"(%t94) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 4, 88, 5>, strides = array<i64: 1, 1, 1>} : (tensor<4x88x5xf32>) -> tensor<4x88x1xf32>
      %t133 = "stablehlo.reshape"(%t132) : (tensor<4x88x1xf32>) -> tensor<4x88xf32>
      %t134 = "stablehlo.broadcast_in_dim"(%t133) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<4x88xf32>) -> tensor<4x1x88xf32>
      %t135 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<4x1x88xf32>} : () -> tensor<4x1x88xf32>
      %t136 = "stablehlo.minimum"(%t119, %t122) : (tensor<4x1x88xf32>, tensor<4x1x88xf32>) -> tensor<4x1x88xf32>
      %t137 = "stablehlo.maximum"(%t107, %t110) : (tensor<4x1x88xf32>, tensor<4x1x88xf32>) -> tensor<4x1x88xf32>
      %t138 = "stablehlo.subtract"(%t136, %t137) : (tensor<4x1x88xf32>, tensor<4x1x88xf32>) -> tensor<4x1x88xf32>
      %t139 = "stablehlo.maximum"(%t135, %t138) : (tensor<4x1x88xf32>, tensor<4x1x88xf32>) -> tensor<4x1x88xf32>
      %t140 = "stablehlo.minimum"(%t125, %t128) : (tensor<4x1x88xf32>, tensor<4x1x88xf32>) -> tensor<4x1x88xf32>
      %t141 = "stablehlo.maximum"(%t113, %t116) : (tensor<4x1x88xf32>, tensor<4x1x88xf32>) -> tensor<4x1x88xf32>
      %t142 = "stablehlo.subtract"(%t140, %t141) : (tensor<4x1x88xf32>, tensor<4x1x88xf32>) -> tensor<4x1x88xf32>
      %t143 = "stablehlo.maximum"(%t135, %t142) : (tensor<4x1x88xf32>, tensor<4x1x88xf32>) -> tensor<4x1x88xf32>
      %t144 = "stablehlo.multiply"(%t139, %t143) : (tensor<4x1x88xf32>, tensor<4x1x88xf32>) -> tensor<4x1x88xf32>
      %t145 = "stablehlo.add"(%t131, %t134) : (tensor<4x1x88xf32>, tensor<4x1x88xf32>) -> tensor<4x1x88xf32>
      %t146 = "stablehlo.subtract"(%t145, %t144) : (tensor<4x1x88xf32>, tensor<4x1x88xf32>) -> tensor<4x1x88xf32>
      %t147 = "stablehlo.compare"(%t144, %t135) {comparison_direction = #stablehlo<comparison_direction LE>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<4x1x88xf32>, tensor<4x1x88xf32>) -> tensor<4x1x88xi1>
      %t148 = "stablehlo.compare"(%t131, %t135) {comparison_direction = #stablehlo<comparison_direction LE>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<4x1x88xf32>, tensor<4x1x88xf32>) -> tensor<4x1x88xi1>
      %t149 = "stablehlo.or"(%t147, %t148) : (tensor<4x1x88xi1>, tensor<4x1x88xi1>) -> tensor<4x1x88xi1>
      %t150 = "stablehlo.compare"(%t134, %t135) {comparison_direction = #stablehlo<comparison_direction LE>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<4x1x88xf32>, tensor<4x1x88xf32>) -> tensor<4x1x88xi1>
      %t151 = "stablehlo.or"(%t149, %t150) : (tensor<4x1x88xi1>, tensor<4x1x88xi1>) -> tensor<4x1x88xi1>
      %t152 = "stablehlo.compare"(%t146, %t135) {comparison_direction = #stablehlo<comparison_direction LE>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<4x1x88xf32>, tensor<4x1x88xf32>) -> tensor<4x1x88xi1>
      %t153 = "stablehlo.or"(%t151, %t152) : (tensor<4x1x88xi1>, tensor<4x1x88xi1>) -> tensor<4x1x88xi1>
      %t154 = "stablehlo.divide"(%t144, %t146) : (tensor<4x1x88xf32>, tensor<4x1x88xf32>) -> tensor<4x1x88xf32>
      %t155 = "stablehlo.select"(%t153, %t135, %t154) : (tensor<4x1x88xi1>, tensor<4x1x88xf32>, tensor<4x1x88xf32>) -> tensor<4x1x88xf32>
      %t156 = "stablehlo.constant"() {value = dense<0x3F000000> : tensor<4x1x88xf32>} : () -> tensor<4x1x88xf32>
      %t157 = "stablehlo.compare"(%t155, %t156) {comparison_direction = #stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<4x1x88xf32>, tensor<4x1x88xf32>) -> tensor<4x1x88xi1>
      %t158 = "stablehlo.and"(%t89, %t157) : (tensor<4x1x88xi1>, tensor<4x1x88xi1>) -> tensor<4x1x88xi1>
      %t159 = "stablehlo.constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
      %t160 = "stablehlo.reduce"(%t158, %t159) ({
      ^bb0(%t161: tensor<i1>, %t162: tensor<i1>):
        %t163 = "stablehlo.or"(%t161, %t162) : (tensor<i1>, tensor<i1>) -> tensor<i1>
        "stablehlo.return"(%t163) : (tensor<i1>) -> ()
      }) {dimensions = array<i64: 2>} : (tensor<4x1x88xi1>, tensor<i1>) -> tensor<4x1xi1>
      %t164 = "stablehlo.constant"() {value = dense<1> : tensor<4x1xi64>} : () -> tensor<4x1xi64>
      %t165 = "stablehlo.compare"(%t90, %t164) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type SIGNED>} : (tensor<4x1xi64>, tensor<4x1xi64>) -> tensor<4x1xi1>
      %t166 = "stablehlo.not"(%t160) : (tensor<4x1xi1>) -> tensor<4x1xi1>
      %t167 = "stablehlo.and"(%t99, %t166) : (tensor<4x1xi1>, tensor<4x1xi1>) -> tensor<4x1xi1>
      %t168 = "stablehlo.and"(%t167, %t165) : (tensor<4x1xi1>, tensor<4x1xi1>) -> tensor<4x1xi1>
      %t169 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<4x1x88xi64>
      %t170 = "stablehlo.broadcast_in_dim"(%t97) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<4x1xi64>) -> tensor<4x1x88xi64>
      %t171 = "stablehlo.compare"(%t169, %t170) {comparison_direction = #stablehlo<comparison_direction EQ>, compare_type = #stablehlo<comparison_type SIGNED>} : (tensor<4x1x88xi64>, tensor<4x1x88xi64>) -> tensor<4x1x88xi1>
      %t172 = "stablehlo.broadcast_in_dim"(%t168) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<4x1xi1>) -> tensor<4x1x88xi1>
      %t173 = "stablehlo.and"(%t171, %t172) : (tensor<4x1x88xi1>, tensor<4x1x88xi1>) -> tensor<4x1x88xi1>
      %t174 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<4x1x1xi64>
      %t175 = "stablehlo.broadcast_in_dim"(%t90) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<4x1xi64>) -> tensor<4x1x1xi64>
      %t176 = "stablehlo.compare"(%t174, %t175) {comparison_direction = #stablehlo<comparison_direction EQ>, compare_type = #stablehlo<comparison_type SIGNED>} : (tensor<4x1x1xi64>, tensor<4x1x1xi64>) -> tensor<4x1x1xi1>
      %t177 = "stablehlo.broadcast_in_dim"(%t168) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<4x1xi1>) -> tensor<4x1x1xi1>
      %t178 = "stablehlo.and"(%t176, %t177) : (tensor<4x1x1xi1>, tensor<4x1x1xi1>) -> tensor<4x1x1xi1>
      %t179 = "stablehlo.broadcast_in_dim"(%t97) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<4x1xi64>) -> tensor<4x1x1xi64>
      %t180 = "stablehlo.select"(%t178, %t179, %t91) : (tensor<4x1x1xi1>, tensor<4x1x1xi64>, tensor<4x1x1xi64>) -> tensor<4x1x1xi64>
      %t181 = "stablehlo.convert"(%t168) : (tensor<4x1xi1>) -> tensor<4x1xi64>
      %t182 = "stablehlo.add"(%t90, %t181) : (tensor<4x1xi64>, tensor<4x1xi64>) -> tensor<4x1xi64>
      %t183 = "stablehlo.constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
      %t184 = "stablehlo.add"(%t88, %t183) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      %t185 = "stablehlo.or"(%t89, %t173) : (tensor<4x1x88xi1>, tensor<4x1x88xi1>) -> tensor<4x1x88xi1>
      "stablehlo.return"(%t184, %t185, %t182, %t180, %t92, %t93, %t94) : (tensor<i64>, tensor<4x1x88xi1>, tensor<4x1xi64>, tensor<4x1x1xi64>, tensor<4x1x88xi64>, tensor<4x1x88xi1>, tensor<4x88x5xf32>) -> ()
    }) : (tensor<i64>, tensor<4x1x88xi1>, tensor<4x1xi64>, tensor<4x1x1xi64>, tensor<4x1x88xi64>, tensor<4x1x88xi1>, tensor<4x88x5xf32>) -> (tensor<i64>, tensor<4x1x88xi1>, tensor<4x1xi64>, tensor<4x1x1xi64>, tensor<4x1x88xi64>, tensor<4x1x88xi1>, tensor<4x88x5xf32>)
    %t186 = "stablehlo.reshape"(%t78#2) : (tensor<4x1xi64>) -> tensor<4xi64>
    %t187 = "stablehlo.reshape"(%t78#3) : (tensor<4x1x1xi64>) -> tensor<4x1xi64>
    %t188 = "stablehlo.constant"() {value = dense<-1> : tensor<4x3xi64>} : () -> tensor<4x3xi64>
    %t189 = "stablehlo.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
    %t190:5 = "stablehlo.while"(%t189, %t188, %t189, %t186, %t187) ({
    ^bb0(%t191: tensor<i64>, %t192: tensor<4x3xi64>, %t193: tensor<i64>, %t194: tensor<4xi64>, %t195: tensor<4x1xi64>):
      %t196 = "stablehlo.constant"() {value = dense<4> : tensor<i64>} : () -> tensor<i64>
      %t197 = "stablehlo.compare"(%t191, %t196) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type SIGNED>} : (tensor<i64>, tensor<i64>) -> tensor<i1>
      "stablehlo.return"(%t197) : (tensor<i1>) -> ()
    }, {
    ^bb0(%t198: tensor<i64>, %t199: tensor<4x3xi64>, %t200: tensor<i64>, %t201: tensor<4xi64>, %t202: tensor<4x1xi64>):
      %t203 = "stablehlo.dynamic_slice"(%t202, %t198, %t189) {slice_sizes = array<i64: 1, 1>} : (tensor<4x1xi64>, tensor<i64>, tensor<i64>) -> tensor<1x1xi64>
      %t204 = "stablehlo.reshape"(%t203) : (tensor<1x1xi64>) -> tensor<1x1xi64>
      %t205 = "stablehlo.constant"() {value = dense<-1> : tensor<1x1xi64>} : () -> tensor<1x1xi64>
      %t206 = "stablehlo.compare"(%t204, %t205) {comparison_direction = #stablehlo<comparison_direction NE>, compare_type = #stablehlo<comparison_type SIGNED>} : (tensor<1x1xi64>, tensor<1x1xi64>) -> tensor<1x1xi1>
      %t207 = "stablehlo.constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
      %t208 = "stablehlo.constant"() {value = dense<-1> : tensor<1x1xi64>} : () -> tensor<1x1xi64>
      %t209 = "stablehlo.divide"(%t198, %t207) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      %t210 = "stablehlo.broadcast_in_dim"(%t209) {broadcast_dimensions = array<i64>} : (tensor<i64>) -> tensor<1x1xi64>
      %t211 = "stablehlo.select"(%t206, %t210, %t208) : (tensor<1x1xi1>, tensor<1x1xi64>, tensor<1x1xi64>) -> tensor<1x1xi64>
      %t212 = "stablehlo.remainder"(%t198, %t207) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      %t213 = "stablehlo.broadcast_in_dim"(%t212) {broadcast_dimensions = array<i64>} : (tensor<i64>) -> tensor<1x1xi64>
      %t214 = "stablehlo.select"(%t206, %t213, %t208) : (tensor<1x1xi1>, tensor<1x1xi64>, tensor<1x1xi64>) -> tensor<1x1xi64>
      %t215 = "stablehlo.concatenate"(%t211, %t214, %t204) {dimension = 1 : i64} : (tensor<1x1xi64>, tensor<1x1xi64>, tensor<1x1xi64>) -> tensor<1x3xi64>
      %t216 = "stablehlo.dynamic_update_slice"(%t199, %t215, %t200, %t189) : (tensor<4x3xi64>, tensor<1x3xi64>, tensor<i64>, tensor<i64>) -> tensor<4x3xi64>
      %t217 = "stablehlo.dynamic_slice"(%t201, %t198) {slice_sizes = array<i64: 1>} : (tensor<4xi64>, tensor<i64>) -> tensor<1xi64>
      %t218 = "stablehlo.reshape"(%t217) : (tensor<1xi64>) -> tensor<i64>
      %t219 = "stablehlo.constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
      %t220 = "stablehlo.add"(%t198, %t219) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      %t221 = "stablehlo.add"(%t200, %t218) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%t220, %t216, %t221, %t201, %t202) : (tensor<i64>, tensor<4x3xi64>, tensor<i64>, tensor<4xi64>, tensor<4x1xi64>) -> ()
    }) : (tensor<i64>, tensor<4x3xi64>, tensor<i64>, tensor<4xi64>, tensor<4x1xi64>) -> (tensor<i64>, tensor<4x3xi64>, tensor<i64>, tensor<4xi64>, tensor<4x1xi64>)
    %t222 = "stablehlo.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
    %t223 = "stablehlo.reduce"(%t78#2, %t222) ({
    ^bb0(%t224: tensor<i64>, %t225: tensor<i64>):
      %t226 = "stablehlo.add"(%t224, %t225) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%t226) : (tensor<i64>) -> ()
    }) {dimensions = array<i64: 0, 1>} : (tensor<4x1xi64>, tensor<i64>) -> tensor<i64>
    %t227 = "stablehlo.reshape"(%t223) : (tensor<i64>) -> tensor<1xi64>
    return %t190#1, %t227, %t26 : tensor<4x3xi64>, tensor<1xi64>, tensor<4x1x88xf32>
  }
}
