module {
  func.func @main(%arg0: !torch.vtensor<[2],f32>) -> (!torch.vtensor<[2],f32>, !torch.vtensor<[2],si64>, !torch.vtensor<[1],f32>, !torch.vtensor<[1],si64>) attributes {torch.onnx_meta.ir_version = 10 : si64, torch.onnx_meta.opset_version = 21 : si64, torch.onnx_meta.producer_name = "sift", torch.onnx_meta.producer_version = ""} {
    %in0 = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[2],f32> -> tensor<2xf32>
    %to0_0 = torch_c.from_builtin_tensor %in0 : tensor<2xf32> -> !torch.vtensor<[2],f32>
    %k0 = torch.operator "onnx.Constant"() {torch.onnx.value = dense<2> : tensor<1xsi64>} : () -> !torch.vtensor<[1],si64>
    %top0:2 = torch.operator "onnx.TopK"(%to0_0, %k0) {torch.onnx.axis = 0 : si64, torch.onnx.largest = 1 : si64, torch.onnx.sorted = 1 : si64} : (!torch.vtensor<[2],f32>, !torch.vtensor<[1],si64>) -> (!torch.vtensor<[2],f32>, !torch.vtensor<[2],si64>)
    %v1 = torch_c.to_builtin_tensor %top0#0 : !torch.vtensor<[2],f32> -> tensor<2xf32>
    %v2 = torch_c.to_builtin_tensor %top0#1 : !torch.vtensor<[2],si64> -> tensor<2xi64>
    %to1_0 = torch_c.from_builtin_tensor %in0 : tensor<2xf32> -> !torch.vtensor<[2],f32>
    %k1 = torch.operator "onnx.Constant"() {torch.onnx.value = dense<1> : tensor<1xsi64>} : () -> !torch.vtensor<[1],si64>
    %top1:2 = torch.operator "onnx.TopK"(%to1_0, %k1) {torch.onnx.axis = 0 : si64, torch.onnx.largest = 0 : si64, torch.onnx.sorted = 1 : si64} : (!torch.vtensor<[2],f32>, !torch.vtensor<[1],si64>) -> (!torch.vtensor<[1],f32>, !torch.vtensor<[1],si64>)
    %v3 = torch_c.to_builtin_tensor %top1#0 : !torch.vtensor<[1],f32> -> tensor<1xf32>
    %v4 = torch_c.to_builtin_tensor %top1#1 : !torch.vtensor<[1],si64> -> tensor<1xi64>
    %ret0 = torch_c.from_builtin_tensor %v1 : tensor<2xf32> -> !torch.vtensor<[2],f32>
    %ret1 = torch_c.from_builtin_tensor %v2 : tensor<2xi64> -> !torch.vtensor<[2],si64>
    %ret2 = torch_c.from_builtin_tensor %v3 : tensor<1xf32> -> !torch.vtensor<[1],f32>
    %ret3 = torch_c.from_builtin_tensor %v4 : tensor<1xi64> -> !torch.vtensor<[1],si64>
    return %ret0, %ret1, %ret2, %ret3 : !torch.vtensor<[2],f32>, !torch.vtensor<[2],si64>, !torch.vtensor<[1],f32>, !torch.vtensor<[1],si64>
  }
}
