# ONNX Runtime 1.32.0, CPU: Cast(f32 -> f16) feeding TopK. 1e-8 is below half the smallest
# f16 denormal (2^-25 ~ 2.98e-8), so both f16 values are +0.0: a tie, which TopK must break
# by "the element with the lower index will appear first": indices [0, 1].
import numpy as np, onnx, onnxruntime as ort
from onnx import helper as h, TensorProto as T, numpy_helper as nh
g = h.make_graph([h.make_node('Cast', ['x'], ['y'], to=T.FLOAT16),
                  h.make_node('TopK', ['y', 'k'], ['v', 'i'], axis=0, largest=1, sorted=1)], 'g',
    [h.make_tensor_value_info('x', T.FLOAT, [2])],
    [h.make_tensor_value_info('v', T.FLOAT16, [2]), h.make_tensor_value_info('i', T.INT64, [2])],
    [nh.from_array(np.array([2], np.int64), 'k')])
m = h.make_model(g, opset_imports=[h.make_opsetid('', 17)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
so = ort.SessionOptions(); so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
x = np.array([0.0, 1e-8], np.float32)
print('f16 of x:', x.astype(np.float16))
print('ORT values, indices:', ort.InferenceSession(m.SerializeToString(), so, providers=['CPUExecutionProvider']).run(None, {'x': x}))
