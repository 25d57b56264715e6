# ONNX Runtime 1.32.0, CPU: Where(c, x, y) with x = -0.0 where c is true.
import numpy as np, onnx, onnxruntime as ort
from onnx import helper as h, TensorProto as T
for dt, npt in [(T.FLOAT, np.float32), (T.DOUBLE, np.float64), (T.FLOAT16, np.float16), (T.INT32, np.int32)]:
    n = 8
    g = h.make_graph([h.make_node('Where', ['c', 'x', 'y'], ['z'])], 'g',
        [h.make_tensor_value_info('c', T.BOOL, [n]), h.make_tensor_value_info('x', dt, [n]), h.make_tensor_value_info('y', dt, [n])],
        [h.make_tensor_value_info('z', dt, [n])])
    m = h.make_model(g, opset_imports=[h.make_opsetid('', 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    c = np.array([True, False] * 4)
    x = np.array([-0.0, 1, -0.0, 1, -0.0, 1, 5, 1], npt) if npt != np.int32 else np.array([-5, 1, -7, 1, 0, 1, 5, 1], npt)
    y = np.array([3, -0.0, 2, -0.0, 7, 7, 7, 7], npt) if npt != np.int32 else np.array([3, -1, 2, -2, 7, 7, 7, 7], npt)
    z = ort.InferenceSession(m.SerializeToString(), providers=['CPUExecutionProvider']).run(None, {'c': c, 'x': x, 'y': y})[0]
    want = np.where(c, x, y)
    print(npt.__name__, 'ORT', z, 'signbit' if npt != np.int32 else '', np.signbit(z).astype(int) if npt != np.int32 else '', ' numpy.where', want, np.signbit(want).astype(int) if npt != np.int32 else '')
