module {
  func.func @main(%arg0: !torch.vtensor<[?,129,1],f32>) -> (!torch.vtensor<[?,1,1],si64>) {
    %in0 = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[?,129,1],f32> -> tensor<?x129x1xf32>
    %to0_0 = torch_c.from_builtin_tensor %in0 : tensor<?x129x1xf32> -> !torch.vtensor<[?,129,1],f32>
    %k0 = torch.constant.int 1
    %dim0 = torch.constant.int 1
    %largest0 = torch.constant.bool false
    %sorted0 = torch.constant.bool true
    %tv0, %ti0 = torch.aten.topk %to0_0, %k0, %dim0, %largest0, %sorted0 : !torch.vtensor<[?,129,1],f32>, !torch.int, !torch.int, !torch.bool, !torch.bool -> !torch.vtensor<[?,1,1],f32>, !torch.vtensor<[?,1,1],si64>
    %v0 = torch_c.to_builtin_tensor %tv0 : !torch.vtensor<[?,1,1],f32> -> tensor<?x1x1xf32>
    %v1 = torch_c.to_builtin_tensor %ti0 : !torch.vtensor<[?,1,1],si64> -> tensor<?x1x1xi64>
    %ret0 = torch_c.from_builtin_tensor %v1 : tensor<?x1x1xi64> -> !torch.vtensor<[?,1,1],si64>
    return %ret0 : !torch.vtensor<[?,1,1],si64>
  }
}
