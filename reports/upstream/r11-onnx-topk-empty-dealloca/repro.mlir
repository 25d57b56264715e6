module {
  func.func @main(%arg0: !torch.vtensor<[3,16,?],f32>) -> (!torch.vtensor<[2,16,?],f32>, !torch.vtensor<[2,16,?],si64>) attributes {torch.onnx_meta.ir_version = 10 : si64, torch.onnx_meta.opset_version = 21 : si64, torch.onnx_meta.producer_name = "sift", torch.onnx_meta.producer_version = ""} {
    %k = torch.operator "onnx.Constant"() {torch.onnx.value = dense<2> : tensor<1xsi64>} : () -> !torch.vtensor<[1],si64>
    %top:2 = torch.operator "onnx.TopK"(%arg0, %k) {torch.onnx.axis = 0 : si64, torch.onnx.largest = 1 : si64, torch.onnx.sorted = 1 : si64} : (!torch.vtensor<[3,16,?],f32>, !torch.vtensor<[1],si64>) -> (!torch.vtensor<[2,16,?],f32>, !torch.vtensor<[2,16,?],si64>)
    return %top#0, %top#1 : !torch.vtensor<[2,16,?],f32>, !torch.vtensor<[2,16,?],si64>
  }
}
