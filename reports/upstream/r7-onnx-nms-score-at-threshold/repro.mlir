module {
  func.func @main(%arg0: !torch.vtensor<[?,?,?],f32>, %arg1: !torch.vtensor<[?,?,1],f32>, %arg2: !torch.vtensor<[?,1],f32>) -> (!torch.vtensor<[1,3],si64>, !torch.vtensor<[1],si64>) attributes {torch.onnx_meta.ir_version = 10 : si64, torch.onnx_meta.opset_version = 21 : si64, torch.onnx_meta.producer_name = "sift", torch.onnx_meta.producer_version = ""} {
    %in0 = torch_c.to_builtin_tensor %arg0 : !torch.vtensor<[?,?,?],f32> -> tensor<?x?x?xf32>
    %in1 = torch_c.to_builtin_tensor %arg1 : !torch.vtensor<[?,?,1],f32> -> tensor<?x?x1xf32>
    %in2 = torch_c.to_builtin_tensor %arg2 : !torch.vtensor<[?,1],f32> -> tensor<?x1xf32>
    %to0_0 = torch_c.from_builtin_tensor %in2 : tensor<?x1xf32> -> !torch.vtensor<[?,1],f32>
    %k0 = torch.operator "onnx.Constant"() {torch.onnx.value = dense<1> : tensor<1xsi64>} : () -> !torch.vtensor<[1],si64>
    %top0:2 = torch.operator "onnx.TopK"(%to0_0, %k0) {torch.onnx.axis = 1 : si64, torch.onnx.largest = 1 : si64, torch.onnx.sorted = 1 : si64} : (!torch.vtensor<[?,1],f32>, !torch.vtensor<[1],si64>) -> (!torch.vtensor<[?,1],f32>, !torch.vtensor<[?,1],si64>)
    %v3 = torch_c.to_builtin_tensor %top0#0 : !torch.vtensor<[?,1],f32> -> tensor<?x1xf32>
    %v4 = torch_c.to_builtin_tensor %top0#1 : !torch.vtensor<[?,1],si64> -> tensor<?x1xi64>
    %e1 = tensor.empty() : tensor<1x1x4xf32>
    %v5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v4 : tensor<?x1xi64>) outs(%e1 : tensor<1x1x4xf32>) {
    ^bb0(%x1_0: i64, %o1: f32):
      %t1_a = arith.index_cast %x1_0 : i64 to index
      %t1_0 = linalg.index 0 : index
      %t1_2 = linalg.index 2 : index
      %t1_e = tensor.extract %in0[%t1_0, %t1_a, %t1_2] : tensor<?x?x?xf32>
      linalg.yield %t1_e : f32
    } -> tensor<1x1x4xf32>
    %e2 = tensor.empty() : tensor<1x1x1xf32>
    %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v4 : tensor<?x1xi64>) outs(%e2 : tensor<1x1x1xf32>) {
    ^bb0(%x2_0: i64, %o2: f32):
      %t2_a = arith.index_cast %x2_0 : i64 to index
      %t2_0 = linalg.index 0 : index
      %t2_1 = linalg.index 1 : index
      %t2_e = tensor.extract %in1[%t2_0, %t2_1, %t2_a] : tensor<?x?x1xf32>
      linalg.yield %t2_e : f32
    } -> tensor<1x1x1xf32>
    %to3_0 = torch_c.from_builtin_tensor %v5 : tensor<1x1x4xf32> -> !torch.vtensor<[1,1,4],f32>
    %to3_1 = torch_c.from_builtin_tensor %v6 : tensor<1x1x1xf32> -> !torch.vtensor<[1,1,1],f32>
    %iou3 = torch.operator "onnx.Constant"() {torch.onnx.value = dense<0x3DA3D70A> : tensor<1xf32>} : () -> !torch.vtensor<[1],f32>
    %mo3 = torch.operator "onnx.Constant"() {torch.onnx.value = dense<1> : tensor<1xsi64>} : () -> !torch.vtensor<[1],si64>
    %st3 = torch.operator "onnx.Constant"() {torch.onnx.value = dense<0x00000000> : tensor<1xf32>} : () -> !torch.vtensor<[1],f32>
    %nms3 = torch.operator "onnx.NonMaxSuppression"(%to3_0, %to3_1, %mo3, %iou3, %st3) {torch.onnx.center_point_box = 1 : si64} : (!torch.vtensor<[1,1,4],f32>, !torch.vtensor<[1,1,1],f32>, !torch.vtensor<[1],si64>, !torch.vtensor<[1],f32>, !torch.vtensor<[1],f32>) -> !torch.vtensor<[?,3],si64>
    %rows3 = torch_c.to_builtin_tensor %nms3 : !torch.vtensor<[?,3],si64> -> tensor<?x3xi64>
    %zero3 = arith.constant 0 : index
    %n3 = tensor.dim %rows3, %zero3 : tensor<?x3xi64>
    %cap3 = arith.constant 1 : index
    %high3 = arith.subi %cap3, %n3 : index
    %fill3 = arith.constant -1 : i64
    %pad3 = tensor.pad %rows3 low[0, 0] high[%high3, 0] {
    ^bb0(%pi3: index, %pj3: index):
      tensor.yield %fill3 : i64
    } : tensor<?x3xi64> to tensor<?x3xi64>
    %v7 = tensor.cast %pad3 : tensor<?x3xi64> to tensor<1x3xi64>
    %n643 = arith.index_cast %n3 : index to i64
    %v8 = tensor.from_elements %n643 : tensor<1xi64>
    %ret0 = torch_c.from_builtin_tensor %v7 : tensor<1x3xi64> -> !torch.vtensor<[1,3],si64>
    %ret1 = torch_c.from_builtin_tensor %v8 : tensor<1xi64> -> !torch.vtensor<[1],si64>
    return %ret0, %ret1 : !torch.vtensor<[1,3],si64>, !torch.vtensor<[1],si64>
  }
}
