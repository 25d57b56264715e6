module {
  func.func @main(%arg0: !torch.vtensor<[2,2],f32>) -> (!torch.vtensor<[2,2],si64>, !torch.vtensor<[2,2],si64>) {
    %in0 = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[2,2],f32> -> tensor<2x2xf32>
    %to0_0 = torch_c.from_builtin_tensor %in0 : tensor<2x2xf32> -> !torch.vtensor<[2,2],f32>
    %k0 = torch.constant.int 2
    %dim0 = torch.constant.int 1
    %largest0 = torch.constant.bool true
    %sorted0 = torch.constant.bool true
    %tv0, %ti0 = torch.aten.topk %to0_0, %k0, %dim0, %largest0, %sorted0 : !torch.vtensor<[2,2],f32>, !torch.int, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[2,2],f32>, !torch.vtensor<[2,2],si64>
    %v1 = torch_c.to_builtin_tensor %tv0 : !torch.vtensor<[2,2],f32> -> tensor<2x2xf32>
    %v2 = torch_c.to_builtin_tensor %ti0 : !torch.vtensor<[2,2],si64> -> tensor<2x2xi64>
    %to1_0 = torch_c.from_builtin_tensor %in0 : tensor<2x2xf32> -> !torch.vtensor<[2,2],f32>
    %k1 = torch.constant.int 2
    %dim1 = torch.constant.int 1
    %largest1 = torch.constant.bool false
    %sorted1 = torch.constant.bool true
    %tv1, %ti1 = torch.aten.topk %to1_0, %k1, %dim1, %largest1, %sorted1 : !torch.vtensor<[2,2],f32>, !torch.int, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[2,2],f32>, !torch.vtensor<[2,2],si64>
    %v3 = torch_c.to_builtin_tensor %tv1 : !torch.vtensor<[2,2],f32> -> tensor<2x2xf32>
    %v4 = torch_c.to_builtin_tensor %ti1 : !torch.vtensor<[2,2],si64> -> tensor<2x2xi64>
    %ret0 = torch_c.from_builtin_tensor %v2 : tensor<2x2xi64> -> !torch.vtensor<[2,2],si64>
    %ret1 = torch_c.from_builtin_tensor %v4 : tensor<2x2xi64> -> !torch.vtensor<[2,2],si64>
    return %ret0, %ret1 : !torch.vtensor<[2,2],si64>, !torch.vtensor<[2,2],si64>
  }
}
