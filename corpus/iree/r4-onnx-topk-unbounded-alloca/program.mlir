module {
  func.func @main(%arg0: !torch.vtensor<[?],si32>) -> (!torch.vtensor<[?],si32>) attributes {torch.onnx_meta.ir_version = 10 : si64, torch.onnx_meta.opset_version = 21 : si64, torch.onnx_meta.producer_name = "sift", torch.onnx_meta.producer_version = ""} {
    %in0 = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[?],si32> -> tensor<?xi32>
    %to0_0 = torch_c.from_builtin_tensor %in0 : tensor<?xi32> -> !torch.vtensor<[?],si32>
    %mask0 = torch.operator "onnx.Constant"() {torch.onnx.value = dense<255> : tensor<1xsi32>} : () -> !torch.vtensor<[1],si32>
    %low0 = torch.operator "onnx.BitwiseAnd"(%to0_0, %mask0) : (!torch.vtensor<[?],si32>, !torch.vtensor<[1],si32>) -> !torch.vtensor<[?],si32>
    %k0 = torch.operator "onnx.Shape"(%to0_0) {torch.onnx.end = 1 : si64, torch.onnx.start = 0 : si64} : (!torch.vtensor<[?],si32>) -> !torch.vtensor<[1],si64>
    %top0:2 = torch.operator "onnx.TopK"(%low0, %k0) {torch.onnx.axis = 0 : si64, torch.onnx.largest = 0 : si64, torch.onnx.sorted = 1 : si64} : (!torch.vtensor<[?],si32>, !torch.vtensor<[1],si64>) -> (!torch.vtensor<[?],si32>, !torch.vtensor<[?],si64>)
    %sg0_0 = torch.operator "onnx.GatherElements"(%to0_0, %top0#1) {torch.onnx.axis = 0 : si64} : (!torch.vtensor<[?],si32>, !torch.vtensor<[?],si64>) -> !torch.vtensor<[?],si32>
    %v0 = torch_c.to_builtin_tensor %sg0_0 : !torch.vtensor<[?],si32> -> tensor<?xi32>
    %ret0 = torch_c.from_builtin_tensor %v0 : tensor<?xi32> -> !torch.vtensor<[?],si32>
    return %ret0 : !torch.vtensor<[?],si32>
  }
}
