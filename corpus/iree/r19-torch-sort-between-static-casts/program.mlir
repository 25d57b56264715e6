module {
  func.func @main(%arg0: !torch.vtensor<[?,?,1],si32>, %arg1: !torch.vtensor<[?,1,1],si32>, %arg2: !torch.vtensor<[?,1,1],si32>, %arg3: !torch.vtensor<[?,1,?],si32>, %arg4: !torch.vtensor<[4,?,?],si32>) -> (!torch.vtensor<[?,?,?],si32>) {
    %in0 = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[?,?,1],si32> -> tensor<?x?x1xi32>
    %in1 = torch_c.to_builtin_tensor %arg1 : !torch.vtensor<[?,1,1],si32> -> tensor<?x1x1xi32>
    %in2 = torch_c.to_builtin_tensor %arg2 : !torch.vtensor<[?,1,1],si32> -> tensor<?x1x1xi32>
    %in3 = torch_c.to_builtin_tensor %arg3 : !torch.vtensor<[?,1,?],si32> -> tensor<?x1x?xi32>
    %in4 = torch_c.to_builtin_tensor %arg4 : !torch.vtensor<[4,?,?],si32> -> tensor<4x?x?xi32>
    %e0_c0 = arith.constant 0 : index
    %e0_d0 = tensor.dim %in0, %e0_c0 : tensor<?x?x1xi32>
    %e0_c1 = arith.constant 1 : index
    %e0_d1 = tensor.dim %in0, %e0_c1 : tensor<?x?x1xi32>
    %e0 = tensor.empty(%e0_d0, %e0_d1) : tensor<?x?x1xi32>
    %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%in0, %in1 : tensor<?x?x1xi32>, tensor<?x1x1xi32>) outs(%e0 : tensor<?x?x1xi32>) {
    ^bb0(%x0_0: i32, %x0_1: i32, %o0: i32):
      %t0_0 = arith.xori %x0_0, %x0_1 : i32
      linalg.yield %t0_0 : i32
    } -> tensor<?x?x1xi32>
    %e1_c0 = arith.constant 0 : index
    %e1_d0 = tensor.dim %in2, %e1_c0 : tensor<?x1x1xi32>
    %e1_c2 = arith.constant 2 : index
    %e1_d2 = tensor.dim %in3, %e1_c2 : tensor<?x1x?xi32>
    %e1 = tensor.empty(%e1_d0, %e1_d2) : tensor<?x1x?xi32>
    %v5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%in2, %in3 : tensor<?x1x1xi32>, tensor<?x1x?xi32>) outs(%e1 : tensor<?x1x?xi32>) {
    ^bb0(%x1_0: i32, %x1_1: i32, %o1: i32):
      %t1_0 = arith.maxsi %x1_0, %x1_1 : i32
      linalg.yield %t1_0 : i32
    } -> tensor<?x1x?xi32>
    %e2_c0 = arith.constant 0 : index
    %e2_d0 = tensor.dim %v2, %e2_c0 : tensor<?x?x1xi32>
    %e2_c1 = arith.constant 1 : index
    %e2_d1 = tensor.dim %v2, %e2_c1 : tensor<?x?x1xi32>
    %e2_c2 = arith.constant 2 : index
    %e2_d2 = tensor.dim %v5, %e2_c2 : tensor<?x1x?xi32>
    %e2 = tensor.empty(%e2_d0, %e2_d1, %e2_d2) : tensor<?x?x?xi32>
    %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v2, %v5 : tensor<?x?x1xi32>, tensor<?x1x?xi32>) outs(%e2 : tensor<?x?x?xi32>) {
    ^bb0(%x2_0: i32, %x2_1: i32, %o2: i32):
      %t2_0 = arith.subi %x2_0, %x2_1 : i32
      linalg.yield %t2_0 : i32
    } -> tensor<?x?x?xi32>
    %to3_0 = torch_c.from_builtin_tensor %v6 : tensor<?x?x?xi32> -> !torch.vtensor<[?,?,?],si32>
    %dim3 = torch.constant.int 0
    %desc3 = torch.constant.bool false
    %sv3, %si3 = torch.aten.sort %to3_0, %dim3, %desc3 : !torch.vtensor<[?,?,?],si32>, !torch.int, !torch.bool -> !torch.vtensor<[?,?,?],si32>, !torch.vtensor<[?,?,?],si64>
    %sparse3 = torch.constant.bool false
    %v7 = torch_c.to_builtin_tensor %sv3 : !torch.vtensor<[?,?,?],si32> -> tensor<?x?x?xi32>
    %e4_c0 = arith.constant 0 : index
    %e4_d0 = tensor.dim %v7, %e4_c0 : tensor<?x?x?xi32>
    %e4_c1 = arith.constant 1 : index
    %e4_d1 = tensor.dim %in4, %e4_c1 : tensor<4x?x?xi32>
    %e4_c2 = arith.constant 2 : index
    %e4_d2 = tensor.dim %in4, %e4_c2 : tensor<4x?x?xi32>
    %e4 = tensor.empty(%e4_d0, %e4_d1, %e4_d2) : tensor<?x?x?xi32>
    %v9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%in4, %v7 : tensor<4x?x?xi32>, tensor<?x?x?xi32>) outs(%e4 : tensor<?x?x?xi32>) {
    ^bb0(%x4_0: i32, %x4_1: i32, %o4: i32):
      %t4_0 = arith.minsi %x4_0, %x4_1 : i32
      linalg.yield %t4_0 : i32
    } -> tensor<?x?x?xi32>
    %ret0 = torch_c.from_builtin_tensor %v9 : tensor<?x?x?xi32> -> !torch.vtensor<[?,?,?],si32>
    return %ret0 : !torch.vtensor<[?,?,?],si32>
  }
}
