# ONNX Runtime 1.32.0, CPU: the Expand of a constant [2, 1] to shape [2, 0], as a graph output
# through Identity. ONNX Expand ("Two corresponding dimensions must have the same value, or one
# of them is equal to 1") gives [2, 0]; with graph optimizations ORT returns [2, 1].
import numpy as np, onnx, onnxruntime as ort
from onnx import helper as h, TensorProto as T, numpy_helper as nh
def model(identity):
    nodes = [h.make_node('Range', ['s', 'l', 'd'], ['r']),
             h.make_node('Reshape', ['r', 'rs'], ['x']),
             h.make_node('Expand', ['x', 'shape'], ['e' if identity else 'y'])]
    if identity:
        nodes.append(h.make_node('Identity', ['e'], ['y']))
    g = h.make_graph(nodes, 'g', [], [h.make_tensor_value_info('y', T.INT64, [2, 0])],
        [nh.from_array(np.array(0, np.int64), 's'), nh.from_array(np.array(2, np.int64), 'l'),
         nh.from_array(np.array(1, np.int64), 'd'), nh.from_array(np.array([2, 1], np.int64), 'rs'),
         nh.from_array(np.array([2, 0], np.int64), 'shape')])
    m = h.make_model(g, opset_imports=[h.make_opsetid('', 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m
for identity in (False, True):
    for level in ('ORT_DISABLE_ALL', 'ORT_ENABLE_BASIC', 'ORT_ENABLE_ALL'):
        o = ort.SessionOptions(); o.log_severity_level = 3
        o.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
        y = ort.InferenceSession(model(identity).SerializeToString(), o, providers=['CPUExecutionProvider']).run(None, {})[0]
        print('identity' if identity else 'direct  ', level, y.shape)
