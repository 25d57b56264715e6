import numpy as np, onnx, onnxruntime as ort
from onnx import helper as h, TensorProto as T, numpy_helper as nh
# a * b = [2048, 2049]; 2049 is not an f16 (rounds to even: 2048), so the f16 products tie and TopK must return [0, 1]
a = np.array([1, 3], np.float16); b = np.array([2048, 683], np.float16)
for outs in (['v', 'i'], ['i']):
    g = h.make_graph([h.make_node('Mul', ['a', 'b'], ['p']),
                      h.make_node('TopK', ['p', 'k'], ['v', 'i'], axis=0, largest=1, sorted=1)], 'g',
        [h.make_tensor_value_info(n, T.FLOAT16, [2]) for n in 'ab'],
        [h.make_tensor_value_info(n, T.FLOAT16 if n == 'v' else T.INT64, [2]) for n in outs],
        [nh.from_array(np.array([2], np.int64), 'k')])
    m = h.make_model(g, opset_imports=[h.make_opsetid('', 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    so = ort.SessionOptions(); so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    print('outputs', outs, ort.InferenceSession(m.SerializeToString(), so, providers=['CPUExecutionProvider']).run(None, {'a': a, 'b': b}))
