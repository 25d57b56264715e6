module {
  func.func @main(%arg0: tensor<16x34xf16>) -> (tensor<16x34xf16>) {
    %v1 = iree_linalg_ext.sort {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_codegen.lowering_config<tile_sizes = [[0, 2]]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<Distribute> workgroup_size = [256, 1, 1] subgroup_size = 32>>} dimension(0) outs(%arg0 : tensor<16x34xf16>) {
    ^bb0(%lhs0: f16, %rhs0: f16):
      %t0_0 = arith.cmpf ord, %lhs0, %lhs0 : f16
      %t0_1 = arith.cmpf uno, %rhs0, %rhs0 : f16
      %t0_2 = arith.andi %t0_0, %t0_1 : i1
      %t0_3 = arith.cmpf olt, %lhs0, %rhs0 : f16
      %t0_4 = arith.ori %t0_2, %t0_3 : i1
      iree_linalg_ext.yield %t0_4 : i1
    } -> tensor<16x34xf16>
    return %v1 : tensor<16x34xf16>
  }
}
