# ONNX Runtime 1.32.0, CPU: Cast double -> float16 rounds twice (through float).
# 1 + 2^-11 + 2^-40 lies above the midpoint of the f16 neighbours 1.0 and 1 + 2^-10, so the
# nearest f16 is 1 + 2^-10 (0x3C01); rounding first to f32 lands exactly on the midpoint,
# which then rounds to even: 1.0 (0x3C00). Likewise 2^-25 + 2^-60 (just above half the
# smallest f16 denormal): nearest 0x0001, through f32 0x0000.
import numpy as np, onnx, onnxruntime as ort
from onnx import helper as h, TensorProto as T
g = h.make_graph([h.make_node('Cast', ['x'], ['y'], to=T.FLOAT16)], 'g',
                 [h.make_tensor_value_info('x', T.DOUBLE, [2])], [h.make_tensor_value_info('y', T.FLOAT16, [2])])
m = h.make_model(g, opset_imports=[h.make_opsetid('', 17)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
x = np.array([1 + 2**-11 + 2**-40, 2**-25 + 2**-60])
y = ort.InferenceSession(m.SerializeToString(), providers=['CPUExecutionProvider']).run(None, {'x': x})[0]
print('ORT        ', [hex(v) for v in y.view(np.uint16)])
print('numpy (RNE)', [hex(v) for v in x.astype(np.float16).view(np.uint16)])
