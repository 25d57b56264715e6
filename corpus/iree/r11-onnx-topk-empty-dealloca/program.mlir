module {
  func.func @main(%arg0: !torch.vtensor<[3,16,?],f32>, %arg1: !torch.vtensor<[3,16,?],f32>) -> (!torch.vtensor<[2,16,?],f32>, !torch.vtensor<[2,16,?],si64>) attributes {torch.onnx_meta.ir_version = 10 : si64, torch.onnx_meta.opset_version = 21 : si64, torch.onnx_meta.producer_name = "sift", torch.onnx_meta.producer_version = ""} {
    %in0 = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[3,16,?],f32> -> tensor<3x16x?xf32>
    %in1 = torch_c.to_builtin_tensor %arg1 : !torch.vtensor<[3,16,?],f32> -> tensor<3x16x?xf32>
    %e0_c2 = arith.constant 2 : index
    %e0_d2 = tensor.dim %in0, %e0_c2 : tensor<3x16x?xf32>
    %e0 = tensor.empty(%e0_d2) : tensor<3x16x?xf32>
    %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%in0, %in1 : tensor<3x16x?xf32>, tensor<3x16x?xf32>) outs(%e0 : tensor<3x16x?xf32>) {
    ^bb0(%x0_0: f32, %x0_1: f32, %o0: f32):
      %t0_0 = arith.mulf %x0_0, %x0_1 : f32
      linalg.yield %t0_0 : f32
    } -> tensor<3x16x?xf32>
    %e1_c2 = arith.constant 2 : index
    %e1_d2 = tensor.dim %v2, %e1_c2 : tensor<3x16x?xf32>
    %e1 = tensor.empty(%e1_d2) : tensor<3x16x?xf32>
    %v3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v2 : tensor<3x16x?xf32>) outs(%e1 : tensor<3x16x?xf32>) {
    ^bb0(%x1_0: f32, %o1: f32):
      %t1_0 = arith.constant 0xBFC00000 : f32
      %t1_1 = arith.mulf %x1_0, %t1_0 : f32
      linalg.yield %t1_1 : f32
    } -> tensor<3x16x?xf32>
    %to2_0 = torch_c.from_builtin_tensor %v3 : tensor<3x16x?xf32> -> !torch.vtensor<[3,16,?],f32>
    %k2 = torch.operator "onnx.Constant"() {torch.onnx.value = dense<2> : tensor<1xsi64>} : () -> !torch.vtensor<[1],si64>
    %top2:2 = torch.operator "onnx.TopK"(%to2_0, %k2) {torch.onnx.axis = 0 : si64, torch.onnx.largest = 1 : si64, torch.onnx.sorted = 1 : si64} : (!torch.vtensor<[3,16,?],f32>, !torch.vtensor<[1],si64>) -> (!torch.vtensor<[2,16,?],f32>, !torch.vtensor<[2,16,?],si64>)
    %v4 = torch_c.to_builtin_tensor %top2#0 : !torch.vtensor<[2,16,?],f32> -> tensor<2x16x?xf32>
    %v5 = torch_c.to_builtin_tensor %top2#1 : !torch.vtensor<[2,16,?],si64> -> tensor<2x16x?xi64>
    %e3_c2 = arith.constant 2 : index
    %e3_d2 = tensor.dim %v5, %e3_c2 : tensor<2x16x?xi64>
    %e3 = tensor.empty(%e3_d2) : tensor<2x16x?xi64>
    %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v5 : tensor<2x16x?xi64>) outs(%e3 : tensor<2x16x?xi64>) {
    ^bb0(%x3_0: i64, %o3: i64):
      %t3_0 = arith.constant 9223372036854775807 : i64
      %t3_1 = arith.addi %x3_0, %t3_0 : i64
      linalg.yield %t3_1 : i64
    } -> tensor<2x16x?xi64>
    %ret0 = torch_c.from_builtin_tensor %v4 : tensor<2x16x?xf32> -> !torch.vtensor<[2,16,?],f32>
    %ret1 = torch_c.from_builtin_tensor %v6 : tensor<2x16x?xi64> -> !torch.vtensor<[2,16,?],si64>
    return %ret0, %ret1 : !torch.vtensor<[2,16,?],f32>, !torch.vtensor<[2,16,?],si64>
  }
}
