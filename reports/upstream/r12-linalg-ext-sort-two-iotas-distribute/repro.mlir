module {
  func.func @main(%arg0: tensor<1x1x2x1xf32>) -> (tensor<1x1x2x1xi32>, tensor<1x1x2x1xi32>) {
    %e0 = tensor.empty() : tensor<1x1x2x1xi32>
    %v1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e0 : tensor<1x1x2x1xi32>) {
    ^bb0(%o0: i32):
      %t0_0 = linalg.index 2 : index
      %t0_1 = arith.index_cast %t0_0 : index to i32
      linalg.yield %t0_1 : i32
    } -> tensor<1x1x2x1xi32>
    %e1 = tensor.empty() : tensor<1x1x2x1xi32>
    %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e1 : tensor<1x1x2x1xi32>) {
    ^bb0(%o1: i32):
      %t1_0 = linalg.index 2 : index
      %t1_1 = arith.index_cast %t1_0 : index to i32
      linalg.yield %t1_1 : i32
    } -> tensor<1x1x2x1xi32>
    %s2:3 = iree_linalg_ext.sort {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_codegen.lowering_config<tile_sizes = [[1, 1, 0, 1]]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<Distribute> workgroup_size = [64, 1, 1] subgroup_size = 32>>} dimension(2) outs(%arg0, %v1, %v2 : tensor<1x1x2x1xf32>, tensor<1x1x2x1xi32>, tensor<1x1x2x1xi32>) {
    ^bb0(%lhs2: f32, %rhs2: f32, %a2_1: i32, %b2_1: i32, %a2_2: i32, %b2_2: i32):
      %t2_0 = arith.cmpf uno, %lhs2, %lhs2 : f32
      %t2_1 = arith.cmpf ord, %rhs2, %rhs2 : f32
      %t2_2 = arith.andi %t2_0, %t2_1 : i1
      %t2_3 = arith.cmpf ogt, %lhs2, %rhs2 : f32
      %t2_4 = arith.ori %t2_2, %t2_3 : i1
      iree_linalg_ext.yield %t2_4 : i1
    } -> tensor<1x1x2x1xf32>, tensor<1x1x2x1xi32>, tensor<1x1x2x1xi32>
    return %s2#1, %s2#2 : tensor<1x1x2x1xi32>, tensor<1x1x2x1xi32>
  }
}
