#!/usr/bin/env python3
"""Checks public NonMaxSuppression implementations against sift.nms (SEMANTICS.md).

Hand-made cases, one or more per suppression rule, run through:
  ref        onnx.reference.ReferenceEvaluator on a one-node NonMaxSuppression model
  ort-cpu    onnxruntime InferenceSession, CPUExecutionProvider
  ort-cuda   onnxruntime InferenceSession, CUDAExecutionProvider only (CPU fallback disabled)
  tv-cpu     torchvision.ops.nms on CPU tensors
  tv-cuda    torchvision.ops.nms on CUDA tensors
  tvb-cpu    torchvision.ops.batched_nms on CPU (one call per batch, classes as idxs)
  tvb-cuda   torchvision.ops.batched_nms on CUDA
and compared with `spec`, a small numpy model of SEMANTICS.md `sift.nms` (nms_cases.py, with
the cases).

torchvision adaptation (torchvision has no batch, class, score threshold, max_out or
center format): per batch and class the boxes are turned into [x1, y1, x2, y2] by swapping
the coordinate pairs of [y1, x1, y2, x2] (no min/max: flipped boxes stay flipped), or by
torchvision.ops.box_convert('cxcywh' -> 'xyxy') for center_point_box = 1; a score threshold
is applied before the call (strict >) and max_out by cutting the kept list (nms returns
its picks in selection order, so this equals stopping early). The iou_threshold goes in as
the Python float equal to the f32 threshold. Cases whose rule is the score threshold or
max_out itself are not run on torchvision (the wrapper, not torchvision, would decide them).

Each framework import is optional. Usage:
  python3 scripts/nms-frameworks.py [--out results.json] [--case NAME ...] [--list]
Needs numpy; onnx, onnxruntime, torch, torchvision as available. No network.
"""
import argparse
import json
import math
import sys

import numpy as np

from nms_cases import F32, build_cases, iou_variants, padded, spec_nms


class Skip(Exception):
    pass


def rows_of(arr):
    a = np.asarray(arr)
    return [[int(v) for v in r] for r in a.reshape(-1, 3)] if a.size else []


def onnx_model(c):
    import onnx
    from onnx import TensorProto, helper
    ins = [helper.make_tensor_value_info("boxes", TensorProto.FLOAT, list(c["boxes"].shape)),
           helper.make_tensor_value_info("scores", TensorProto.FLOAT, list(c["scores"].shape))]
    names = ["boxes", "scores"]
    for nm, key, ty in (("max_output_boxes_per_class", "max_out", TensorProto.INT64),
                        ("iou_threshold", "iou", TensorProto.FLOAT),
                        ("score_threshold", "score_thr", TensorProto.FLOAT)):
        if c[key] is None:
            names.append("")
        else:
            names.append(nm)
            ins.append(helper.make_tensor_value_info(nm, ty, [1]))
    while names[-1] == "":
        names.pop()
    attrs = {"center_point_box": c["cpb"]} if c["cpb"] else {}
    node = helper.make_node("NonMaxSuppression", names, ["selected_indices"], **attrs)
    out = helper.make_tensor_value_info("selected_indices", TensorProto.INT64, ["K", 3])
    graph = helper.make_graph([node], "nms", ins, [out])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def onnx_feeds(c):
    f = {"boxes": c["boxes"], "scores": c["scores"]}
    if c["max_out"] is not None:
        f["max_output_boxes_per_class"] = np.array([c["max_out"]], dtype=np.int64)
    if c["iou"] is not None:
        f["iou_threshold"] = np.array([c["iou"]], dtype=F32)
    if c["score_thr"] is not None:
        f["score_threshold"] = np.array([c["score_thr"]], dtype=F32)
    return f


def make_reference():
    import onnx  # noqa: F401
    from onnx.reference import ReferenceEvaluator

    def run(c):
        with np.errstate(all="ignore"):
            return rows_of(ReferenceEvaluator(onnx_model(c)).run(None, onnx_feeds(c))[0])
    return run


def make_ort(provider):
    import onnx  # noqa: F401  (builds the model)
    import onnxruntime as ort
    if provider not in ort.get_available_providers():
        raise RuntimeError(f"{provider} not in onnxruntime.get_available_providers() "
                           f"{ort.get_available_providers()}")

    def run(c):
        so = ort.SessionOptions()
        so.log_severity_level = 3
        if provider != "CPUExecutionProvider":
            so.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
        sess = ort.InferenceSession(onnx_model(c).SerializeToString(), so, providers=[provider])
        if sess.get_providers()[0] != provider:
            raise RuntimeError(f"session runs on {sess.get_providers()}")
        return rows_of(sess.run(None, onnx_feeds(c))[0])
    return run


def make_tv(device, batched):
    import torch
    import torchvision  # noqa: F401  (loads the compiled ops)
    from torchvision.ops import batched_nms, box_convert, nms
    if device == "cuda" and not torch.cuda.is_available():
        raise RuntimeError("torch.cuda.is_available() is False")
    _ = torch.ops.torchvision.nms  # raises if the compiled ops are missing

    def run(c):
        if c["tv"] != "run":
            raise Skip(c["tv"])
        iou = c["tv_iou"] if c["tv_iou"] is not None else float(F32(c["iou"]))
        m = max(int(c["max_out"]), 0)
        rows = []
        nb, n = c["boxes"].shape[0], c["boxes"].shape[1]
        nc = c["scores"].shape[1]
        for b in range(nb):
            bx = torch.from_numpy(c["boxes"][b].copy()).to(device)
            if c["cpb"] == 0:
                bx = bx[:, [1, 0, 3, 2]].contiguous()
            else:
                bx = box_convert(bx, "cxcywh", "xyxy").contiguous()
            idx = []
            for cl in range(nc):
                s = c["scores"][b, cl]
                if c["score_thr"] is None:
                    idx.append(list(range(n)))
                else:
                    idx.append([i for i in range(n) if s[i] > F32(c["score_thr"])])
            if not batched:
                for cl in range(nc):
                    ii = torch.tensor(idx[cl], dtype=torch.int64, device=device)
                    st = torch.from_numpy(c["scores"][b, cl].copy()).to(device)
                    keep = nms(bx.index_select(0, ii), st.index_select(0, ii), iou).cpu().tolist()
                    rows += [[b, cl, idx[cl][k]] for k in keep[:m]]
            else:
                flat = [(cl, i) for cl in range(nc) for i in idx[cl]]
                ii = torch.tensor([i for _, i in flat], dtype=torch.int64, device=device)
                cls = torch.tensor([cl for cl, _ in flat], dtype=torch.int64, device=device)
                st = torch.tensor(np.array([c["scores"][b, cl, i] for cl, i in flat], dtype=F32),
                                  device=device)
                keep = batched_nms(bx.index_select(0, ii), st, cls, iou).cpu().tolist()
                for cl in range(nc):  # regroup: batched_nms sorts all classes by score
                    kk = [flat[k][1] for k in keep if flat[k][0] == cl]
                    rows += [[b, cl, i] for i in kk[:m]]
        return rows
    return run


FRAMEWORKS = [
    ("ref", "onnx.reference.ReferenceEvaluator", make_reference, ()),
    ("ort-cpu", "onnxruntime CPUExecutionProvider", make_ort, ("CPUExecutionProvider",)),
    ("ort-cuda", "onnxruntime CUDAExecutionProvider", make_ort, ("CUDAExecutionProvider",)),
    ("tv-cpu", "torchvision.ops.nms CPU", make_tv, ("cpu", False)),
    ("tv-cuda", "torchvision.ops.nms CUDA", make_tv, ("cuda", False)),
    ("tvb-cpu", "torchvision.ops.batched_nms CPU", make_tv, ("cpu", True)),
    ("tvb-cuda", "torchvision.ops.batched_nms CUDA", make_tv, ("cuda", True)),
]


def versions():
    v = {"python": sys.version.split()[0], "numpy": np.__version__}
    for mod in ("onnx", "onnxruntime", "torch", "torchvision"):
        try:
            v[mod] = __import__(mod).__version__
        except Exception as e:  # noqa: BLE001
            v[mod] = f"unavailable: {type(e).__name__}: {e}"
    try:
        import torch
        if torch.cuda.is_available():
            v["cuda_device"] = torch.cuda.get_device_name(0)
    except Exception:  # noqa: BLE001
        pass
    return v


# --------------------------------------------------------------------------------------
# JSON helpers (strict JSON: non-finite floats as strings)
# --------------------------------------------------------------------------------------

def jfloat(x):
    x = float(x)
    if math.isnan(x):
        return "-nan" if math.copysign(1.0, x) < 0 else "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0 and math.copysign(1.0, x) < 0:
        return "-0.0"
    return x


def jarray(a):
    return [jarray(v) for v in a] if isinstance(a, (list, np.ndarray)) and np.ndim(a) else jfloat(a)


def brief(rows, limit=12):
    if len(rows) <= limit:
        return str(rows)
    return str(rows[:limit])[:-1] + f", ... ({len(rows)} rows)]"


def load_frameworks():
    """Each framework's runner where it loads, and what loaded."""
    runners, avail = {}, {}
    for key, title, factory, fargs in FRAMEWORKS:
        try:
            runners[key] = factory(*fargs)
            avail[key] = "available"
        except Exception as e:  # noqa: BLE001
            avail[key] = f"unavailable: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        print(f"{key:9} {title:36} {avail[key]}")
    print()

    return runners, avail


def print_precision(cases):
    """The IoU variants of the precision cases against their thresholds."""
    print("IoU of the precision cases (threshold = the spec value; '>' marks a suppressing variant):")
    for c in cases:
        if c["name"] in ("prec_f64_reassoc", "prec_fma", "center_area_wh"):
            thr = F32(c["iou"])
            with np.errstate(all="ignore"):
                v = iou_variants(c["boxes"][0, 0], c["boxes"][0, 1], c["cpb"])
            print(f"  {c['name']}: threshold {float(thr)!r}")
            for k, x in v.items():
                print(f"    {k:28} {float(x)!r:24} {'>' if float(x) > float(thr) else ''}")
    print()


def run_case(c, runners):
    """One case through every framework, against the spec."""
    rows, capacity, count = spec_nms(c["boxes"], c["scores"], c["max_out"], c["iou"],
                                     c["score_thr"], c["cpb"])
    res = {}
    for key, *_ in FRAMEWORKS:
        if key not in runners:
            res[key] = {"status": "unavailable"}
            continue
        try:
            got = runners[key](c)
        except Skip as e:
            res[key] = {"status": "n/a", "reason": str(e)}
            continue
        except Exception as e:  # noqa: BLE001
            while e.__cause__ is not None or e.__context__ is not None:  # root cause
                e = e.__cause__ or e.__context__
            msg = f"{type(e).__name__}: {e}".strip().splitlines()
            res[key] = {"status": "error", "error": msg[0][:300] if msg else type(e).__name__}
            continue
        if not c["spec_defined"]:
            status = "info"
        else:
            status = "agree" if got == rows else "DIFFER"
        res[key] = {"status": status, "rows": got}
    return {
        "name": c["name"], "rule": c["rule"], "description": c["desc"], "note": c["note"],
        "inputs": {"boxes": jarray(c["boxes"]), "scores": jarray(c["scores"]),
                   "max_output_boxes_per_class": c["max_out"],
                   "iou_threshold": None if c["iou"] is None else jfloat(F32(c["iou"])),
                   "iou_threshold_torchvision": c["tv_iou"],
                   "score_threshold": None if c["score_thr"] is None else jfloat(F32(c["score_thr"])),
                   "center_point_box": c["cpb"]},
        "spec": {"defined": c["spec_defined"], "rows": rows, "count": count,
                 "capacity": capacity, "selected": padded(rows, capacity)},
        "results": res}


def print_table(results, keys):
    """One line a case: the spec's rows and each framework's status."""
    short = {"agree": "ok", "DIFFER": "DIFF", "error": "err", "n/a": "n/a",
             "unavailable": "-", "info": "info"}
    head = f"{'case':24} {'rule':>4}  {'spec rows':28} " + " ".join(f"{k:>8}" for k in keys)
    print(head)
    print("-" * len(head))
    for r in results:
        spec_rows = r["spec"]["rows"]
        sr = " ".join(str(x[2]) if x[:2] == [0, 0] else "%d/%d/%d" % tuple(x) for x in spec_rows) or "[]"
        if not r["spec"]["defined"]:
            sr = "undefined"
        if len(sr) > 28:
            sr = sr[:25] + "..."
        print(f"{r['name']:24} {r['rule']:>4}  {sr:28} " +
              " ".join(f"{short[r['results'][k]['status']]:>8}" for k in keys))
    print("\n(spec rows: box indices when batch = class = 0, else batch/class/box)")


def print_details(results, keys):
    """Every DIFF, err and info, with the spec's rows."""
    print("\nDetails (every DIFF, err and info):")
    for r in results:
        lines = []
        for k in keys:
            e = r["results"][k]
            if e["status"] in ("DIFFER", "info"):
                lines.append(f"    {k:9} {e['status']:6} rows={brief(e['rows'])}")
            elif e["status"] == "error":
                lines.append(f"    {k:9} error  {e['error']}")
        if lines:
            print(f"  {r['name']} (rule {r['rule']}): {r['description']}")
            if r["spec"]["defined"]:
                print(f"    {'spec':9} {'':6} rows={brief(r['spec']['rows'])}")
            if r["note"]:
                print(f"    note: {r['note']}")
            print("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="write the results as JSON here")
    ap.add_argument("--case", action="append", default=[], help="run only this case (repeatable)")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    args = ap.parse_args()

    cases = build_cases()
    if args.list:
        for c in cases:
            print(f"{c['name']:24} rule {c['rule']:2}  {c['desc']}")
        return 0
    if args.case:
        unknown = set(args.case) - {c["name"] for c in cases}
        if unknown:
            print("unknown case(s):", ", ".join(sorted(unknown)), file=sys.stderr)
            return 2
        cases = [c for c in cases if c["name"] in args.case]

    ver = versions()
    print("versions:", ", ".join(f"{k}={v}" for k, v in ver.items()))
    runners, avail = load_frameworks()
    print_precision(cases)
    results = [run_case(c, runners) for c in cases]
    keys = [k for k, *_ in FRAMEWORKS]
    print_table(results, keys)
    print_details(results, keys)
    summary = {k: {s: sum(1 for r in results if r["results"][k]["status"] == s)
                   for s in ("agree", "DIFFER", "error", "n/a", "info", "unavailable")}
               for k in keys}
    print("\nSummary:")
    for k in keys:
        print(f"  {k:9} " + ", ".join(f"{s}={n}" for s, n in summary[k].items() if n))

    if args.out:
        with open(args.out, "w") as f:
            json.dump({"versions": ver, "frameworks": avail, "summary": summary,
                       "cases": results}, f, indent=1, allow_nan=False)
            f.write("\n")
        print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
