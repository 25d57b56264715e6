module {
  func.func @main(%arg0: !torch.vtensor<[1,2,?],f32>) -> (!torch.vtensor<[1,2,?],f32>) {
    %in0 = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[1,2,?],f32> -> tensor<1x2x?xf32>
    %to0_0 = torch_c.from_builtin_tensor %in0 : tensor<1x2x?xf32> -> !torch.vtensor<[1,2,?],f32>
    %dim0 = torch.constant.int 2
    %desc0 = torch.constant.bool false
    %sv0, %si0 = torch.aten.sort %to0_0, %dim0, %desc0 : !torch.vtensor<[1,2,?],f32>, !torch.int, !torch.bool -> !torch.vtensor<[1,2,?],f32>, !torch.vtensor<[1,2,?],si64>
    %sparse0 = torch.constant.bool false
    %v0 = torch_c.to_builtin_tensor %sv0 : !torch.vtensor<[1,2,?],f32> -> tensor<1x2x?xf32>
    %ret0 = torch_c.from_builtin_tensor %v0 : tensor<1x2x?xf32> -> !torch.vtensor<[1,2,?],f32>
    return %ret0 : !torch.vtensor<[1,2,?],f32>
  }
}
