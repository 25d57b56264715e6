#!/usr/bin/env python3
"""What PyTorch and ONNX (its reference evaluator, ONNX Runtime) compute for the
inputs that IREE findings hinge on, so a finding is checked against the
frameworks whose semantics the torch and onnx front ends promise.

  nan-sort    torch.sort ascending and descending of a row holding NaN
  nan-topk    torch.topk largest and smallest of a row holding NaN
  ort-topk    ONNX TopK of the same row (onnx.reference, onnxruntime CPU/CUDA)
  nms-equal   ONNX NonMaxSuppression of one box whose score equals
              score_threshold (onnx.reference, onnxruntime CPU/CUDA)

Prints one JSON object (and writes it to --out). Every framework import is
optional; CUDA runs where torch.cuda or onnxruntime's CUDA provider is there.
Usage: python3 scripts/framework-semantics.py [--out FILE]
"""
import argparse
import json

import numpy as np

ROW = np.array([3.0, 1.0, np.nan, -1.0, 5.0, np.nan, 0.5], dtype=np.float32)


def listed(a):
    return [None if np.isnan(x) else float(x) for x in np.asarray(a, dtype=np.float64).ravel()]


def torch_results(out):
    try:
        import torch
    except ImportError as e:
        out["torch"] = f"unavailable: {e}"
        return
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    res = {"version": torch.__version__}
    for dev in devices:
        x = torch.tensor(ROW, device=dev)
        r = {}
        for desc in (False, True):
            v, i = torch.sort(x, descending=desc)
            r[f"sort_desc={desc}"] = {"values": listed(v.cpu()), "indices": i.cpu().tolist()}
        for largest in (True, False):
            v, i = torch.topk(x, 3, largest=largest)
            r[f"topk3_largest={largest}"] = {"values": listed(v.cpu()), "indices": i.cpu().tolist()}
        res[dev] = r
    out["torch"] = res


def onnx_model(node, inputs, outputs):
    from onnx import helper
    g = helper.make_graph([node], "g", inputs, outputs)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)


def run_onnx(model, feeds):
    res = {}
    try:
        from onnx.reference import ReferenceEvaluator
        res["reference"] = [a.tolist() if a.dtype != np.float32 else listed(a)
                            for a in ReferenceEvaluator(model).run(None, feeds)]
    except Exception as e:  # noqa: BLE001 - report, do not stop
        res["reference"] = f"error: {e}"
    try:
        import onnxruntime as ort
        for provider in ("CPUExecutionProvider", "CUDAExecutionProvider"):
            if provider not in ort.get_available_providers():
                continue
            s = ort.InferenceSession(model.SerializeToString(), providers=[provider])
            res[provider] = [a.tolist() if a.dtype != np.float32 else listed(a)
                             for a in s.run(None, feeds)]
    except Exception as e:  # noqa: BLE001
        res["onnxruntime"] = f"error: {e}"
    return res


def onnx_results(out):
    try:
        import onnx  # noqa: F401
        from onnx import helper, TensorProto as T
    except ImportError as e:
        out["onnx"] = f"unavailable: {e}"
        return
    topk = {}
    for largest in (1, 0):
        m = onnx_model(helper.make_node("TopK", ["x", "k"], ["v", "i"], axis=0, largest=largest),
                       [helper.make_tensor_value_info("x", T.FLOAT, [7]),
                        helper.make_tensor_value_info("k", T.INT64, [1])],
                       [helper.make_tensor_value_info("v", T.FLOAT, [3]),
                        helper.make_tensor_value_info("i", T.INT64, [3])])
        topk[f"largest={largest}"] = run_onnx(m, {"x": ROW, "k": np.array([3], np.int64)})
    out["ort-topk"] = topk
    names = [("b", T.FLOAT, [1, 1, 4]), ("s", T.FLOAT, [1, 1, 1]), ("m", T.INT64, [1]),
             ("i", T.FLOAT, [1]), ("t", T.FLOAT, [1])]
    m = onnx_model(helper.make_node("NonMaxSuppression", ["b", "s", "m", "i", "t"], ["o"]),
                   [helper.make_tensor_value_info(n, t, sh) for n, t, sh in names],
                   [helper.make_tensor_value_info("o", T.INT64, [None, 3])])
    out["nms-equal"] = run_onnx(m, {"b": np.array([[[0, 0, 1, 1]]], np.float32),
                                    "s": np.array([[[0.75]]], np.float32),
                                    "m": np.array([1], np.int64),
                                    "i": np.array([0.5], np.float32),
                                    "t": np.array([0.75], np.float32)})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out")
    args = parser.parse_args()
    out = {"row": listed(ROW)}
    torch_results(out)
    onnx_results(out)
    text = json.dumps(out, indent=1)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
