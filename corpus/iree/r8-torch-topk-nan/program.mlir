module {
  func.func @main(%arg0: !torch.vtensor<[4],f32>) -> (!torch.vtensor<[3],f32>, !torch.vtensor<[3],si64>) {
    %in0 = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[4],f32> -> tensor<4xf32>
    %to0_0 = torch_c.from_builtin_tensor %in0 : tensor<4xf32> -> !torch.vtensor<[4],f32>
    %k0 = torch.constant.int 3
    %dim0 = torch.constant.int 0
    %largest0 = torch.constant.bool false
    %sorted0 = torch.constant.bool true
    %tv0, %ti0 = torch.aten.topk %to0_0, %k0, %dim0, %largest0, %sorted0 : !torch.vtensor<[4],f32>, !torch.int, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[3],f32>, !torch.vtensor<[3],si64>
    %v1 = torch_c.to_builtin_tensor %tv0 : !torch.vtensor<[3],f32> -> tensor<3xf32>
    %v2 = torch_c.to_builtin_tensor %ti0 : !torch.vtensor<[3],si64> -> tensor<3xi64>
    %ret0 = torch_c.from_builtin_tensor %v1 : tensor<3xf32> -> !torch.vtensor<[3],f32>
    %ret1 = torch_c.from_builtin_tensor %v2 : tensor<3xi64> -> !torch.vtensor<[3],si64>
    return %ret0, %ret1 : !torch.vtensor<[3],f32>, !torch.vtensor<[3],si64>
  }
}
