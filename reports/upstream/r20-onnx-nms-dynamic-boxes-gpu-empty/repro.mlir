module {
  func.func @main(%arg0: !torch.vtensor<[?,?,4],f16>, %arg1: !torch.vtensor<[1,1,1],f16>) -> (!torch.vtensor<[0,3],si64>, !torch.vtensor<[1],si64>) attributes {torch.onnx_meta.ir_version = 10 : si64, torch.onnx_meta.opset_version = 21 : si64, torch.onnx_meta.producer_name = "sift", torch.onnx_meta.producer_version = ""} {
    %in0 = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[?,?,4],f16> -> tensor<?x?x4xf16>
    %in1 = torch_c.to_builtin_tensor %arg1 : !torch.vtensor<[1,1,1],f16> -> tensor<1x1x1xf16>
    %to0_0 = torch_c.from_builtin_tensor %in0 : tensor<?x?x4xf16> -> !torch.vtensor<[?,?,4],f16>
    %to0_1 = torch_c.from_builtin_tensor %in1 : tensor<1x1x1xf16> -> !torch.vtensor<[1,1,1],f16>
    %wb0 = torch.operator "onnx.Cast"(%to0_0) {torch.onnx.to = 1 : si64} : (!torch.vtensor<[?,?,4],f16>) -> !torch.vtensor<[?,?,4],f32>
    %ws0 = torch.operator "onnx.Cast"(%to0_1) {torch.onnx.to = 1 : si64} : (!torch.vtensor<[1,1,1],f16>) -> !torch.vtensor<[1,1,1],f32>
    %iou0 = torch.operator "onnx.Constant"() {torch.onnx.value = dense<0x00000000> : tensor<1xf32>} : () -> !torch.vtensor<[1],f32>
    %mo0 = torch.operator "onnx.Constant"() {torch.onnx.value = dense<0> : tensor<1xsi64>} : () -> !torch.vtensor<[1],si64>
    %nms0 = torch.operator "onnx.NonMaxSuppression"(%wb0, %ws0, %mo0, %iou0) {torch.onnx.center_point_box = 0 : si64} : (!torch.vtensor<[?,?,4],f32>, !torch.vtensor<[1,1,1],f32>, !torch.vtensor<[1],si64>, !torch.vtensor<[1],f32>) -> !torch.vtensor<[?,3],si64>
    %rows0 = torch_c.to_builtin_tensor %nms0 : !torch.vtensor<[?,3],si64> -> tensor<?x3xi64>
    %zero0 = arith.constant 0 : index
    %n0 = tensor.dim %rows0, %zero0 : tensor<?x3xi64>
    %cap0 = arith.constant 0 : index
    %high0 = arith.subi %cap0, %n0 : index
    %fill0 = arith.constant -1 : i64
    %pad0 = tensor.pad %rows0 low[0, 0] high[%high0, 0] {
    ^bb0(%pi0: index, %pj0: index):
      tensor.yield %fill0 : i64
    } : tensor<?x3xi64> to tensor<?x3xi64>
    %v2 = tensor.cast %pad0 : tensor<?x3xi64> to tensor<0x3xi64>
    %n640 = arith.index_cast %n0 : index to i64
    %v3 = tensor.from_elements %n640 : tensor<1xi64>
    %ret0 = torch_c.from_builtin_tensor %v2 : tensor<0x3xi64> -> !torch.vtensor<[0,3],si64>
    %ret1 = torch_c.from_builtin_tensor %v3 : tensor<1xi64> -> !torch.vtensor<[1],si64>
    return %ret0, %ret1 : !torch.vtensor<[0,3],si64>, !torch.vtensor<[1],si64>
  }
}
