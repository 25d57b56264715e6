# ONNX Runtime 1.32.0, CPU: NonMaxSuppression without score_threshold, NaN scores.
# Boxes 0, 1, 2 are the same box, box 3 is apart. sift (NaN largest, ties to the lower
# index) visits 1 (NaN), 3 (NaN), 0 (-1), 2 (-inf): selects 1 and 3. ORT's priority queue
# compares `score < rhs.score || (score == rhs.score && index > rhs.index)`, which is no
# strict weak order once a NaN is in it. The ONNX operator page says nothing about NaN.
import numpy as np, onnx, onnxruntime as ort
from onnx import helper as h, TensorProto as T, numpy_helper as nh
g = h.make_graph([h.make_node('NonMaxSuppression', ['b', 's', 'mo', 'iou'], ['o'])], 'g',
    [h.make_tensor_value_info('b', T.FLOAT, [1, 4, 4]), h.make_tensor_value_info('s', T.FLOAT, [1, 1, 4])],
    [h.make_tensor_value_info('o', T.INT64, [None, 3])],
    [nh.from_array(np.array([10], np.int64), 'mo'), nh.from_array(np.array([0.5], np.float32), 'iou')])
m = h.make_model(g, opset_imports=[h.make_opsetid('', 17)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
boxes = np.array([[[0, 0, 1, 1], [0, 0, 1, 1], [0, 0, 1, 1], [5, 5, 6, 6]]], np.float32)
scores = np.array([[[-1, np.nan, -np.inf, np.nan]]], np.float32)
print(ort.InferenceSession(m.SerializeToString(), providers=['CPUExecutionProvider']).run(None, {'b': boxes, 's': scores})[0].tolist())
