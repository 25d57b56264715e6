#!/usr/bin/env python3
"""A tiny compiler under test for sift's system files: it runs a program
given as sift's model JSON ("model-json" format) with numpy, op by op.

It exists to prove the path a system file opens (docs/systems.md): two test
systems plant a bug each (--bug=ties: a sort keeps equal keys in reverse
input order; --bug=k1: the "compiler" aborts on a top-k with k = 1), and a
campaign must find each as one signature. What it does not implement it
says with exit code 3 (its system files' unsupported_exit_codes): NMS,
sigmoid, and integer-to-float casts numpy may round twice.

  numpy_model.py --program P.json --inputs DIR --outputs DIR [--bug=NAME]
"""
import argparse
import json
import os
import sys

import numpy as np

UNSUPPORTED = 3
DTYPES = {"i32": np.int32, "i64": np.int64, "f16": np.float16,
          "f32": np.float32, "f64": np.float64}


def unsupported(what):
    print(f"numpy_model: not implemented: {what}", file=sys.stderr)
    sys.exit(UNSUPPORTED)


def phase(name):
    print(f"sift-phase: {name}", file=sys.stderr, flush=True)


def order_ranks(key, descending):
    """Dense ranks of `key` along its last axis in the float total order
    (-0.0 == +0.0, every NaN one class above +inf), best first."""
    if key.dtype.kind == "f":
        nan = np.isnan(key)
        canon = np.where(nan, 0, key).astype(np.float64) + 0.0
        levels = np.where(nan, 1, 0)
        rank_keys = np.stack([levels, canon], axis=-1)
    else:
        rank_keys = key.astype(np.int64)[..., None]
    flat = rank_keys.reshape(-1, rank_keys.shape[-1])
    _, inverse = np.unique(flat, axis=0, return_inverse=True)
    ranks = inverse.reshape(key.shape).astype(np.int64)
    return -ranks if descending else ranks


def stable_order(key, descending, reverse_ties=False):
    """Indices sorting `key` along its last axis, ties in input order (or
    in reverse input order: the planted bug)."""
    ranks = order_ranks(key, descending)
    if not reverse_ties:
        return np.argsort(ranks, axis=-1, kind="stable")
    n = ranks.shape[-1]
    flipped = np.argsort(ranks[..., ::-1], axis=-1, kind="stable")
    return (n - 1) - flipped


def sort_key(op, key):
    order, comparator = op["order"], op["comparator"]
    if order == "ascending":
        return key, False
    if order == "descending":
        return key, True
    if comparator == "less":
        return key, False
    if comparator == "greater":
        return key, True
    if comparator == "less_abs":
        return np.abs(key), False
    if comparator == "less_low_byte":
        return np.bitwise_and(key.astype(np.int64), 255), False
    unsupported(f"comparator {comparator}")


def run_sort(op, values, bug):
    dim = op["dimension"]
    operands = [np.moveaxis(values[i], dim, -1) for i in op["operands"]]
    key, descending = sort_key(op, operands[0])
    idx = stable_order(key, descending, reverse_ties=bug == "ties")
    return [np.moveaxis(np.take_along_axis(x, idx, axis=-1), -1, dim)
            for x in operands]


def run_topk(op, values):
    dim, k = op["dimension"], op["k"]
    x = np.moveaxis(values[op["operands"][0]], dim, -1)
    idx = stable_order(x, op["largest"])[..., :k]
    vals = np.take_along_axis(x, idx, axis=-1)
    return [np.moveaxis(vals, -1, dim), np.moveaxis(idx.astype(np.int64), -1, dim)]


def signed_zero_pick(a, b, r, want_positive):
    both_zero = (a == 0) & (b == 0)
    pos = ~np.signbit(a) | ~np.signbit(b) if want_positive else \
        ~np.signbit(a) & ~np.signbit(b)
    zero = np.where(pos, np.zeros_like(r), -np.zeros_like(r))
    return np.where(both_zero, zero, r)


def run_elementwise(op, values, out_type):
    ew = op["ew"]
    args = [values[i] for i in op["operands"]]
    a = args[0]
    dt = DTYPES[out_type]
    with np.errstate(all="ignore"):
        if ew == "negf": return np.negative(a)
        if ew == "absf": return np.abs(a)
        if ew == "addf_const": return (a + a.dtype.type(op["constant"])).astype(dt)
        if ew == "mulf_const": return (a * a.dtype.type(op["constant"])).astype(dt)
        if ew == "addf": return a + args[1]
        if ew == "subf": return a - args[1]
        if ew == "mulf": return a * args[1]
        if ew == "maximumf":
            return signed_zero_pick(a, args[1], np.maximum(a, args[1]), True)
        if ew == "minimumf":
            return signed_zero_pick(a, args[1], np.minimum(a, args[1]), False)
        if ew == "addi_const": return a + a.dtype.type(op["int_constant"])
        if ew == "muli_const": return a * a.dtype.type(op["int_constant"])
        if ew == "addi": return a + args[1]
        if ew == "subi": return a - args[1]
        if ew == "muli": return a * args[1]
        if ew == "xori": return np.bitwise_xor(a, args[1])
        if ew == "maxsi": return np.maximum(a, args[1])
        if ew == "minsi": return np.minimum(a, args[1])
        if ew in ("extf", "truncf", "extsi", "trunci"): return a.astype(dt)
        if ew == "sitofp" and a.dtype == np.int32 and dt != np.float16:
            return a.astype(dt)
    unsupported(f"elementwise {ew} to {out_type}")


def run_slice(op, x):
    index = tuple(slice(o, o + (s - 1) * st + 1 if s else o, st)
                  for o, s, st in zip(op["offsets"], op["sizes"], op["strides"]))
    return x[index]


def run_gather(op, source, indices):
    axis = op["axis"]
    return np.stack([np.take(source[b], indices[b], axis=axis - 1)
                     for b in range(source.shape[0])]) if source.shape[0] else \
        np.zeros((0,) + source.shape[1:axis] + indices.shape[1:] +
                 source.shape[axis + 1:], source.dtype)


def run_iota(op, out):
    shape, dim = out["shape"], op["dimension"]
    line = np.arange(shape[dim], dtype=DTYPES[out["type"]])
    view = [1] * len(shape)
    view[dim] = shape[dim]
    return np.broadcast_to(line.reshape(view), shape).copy()


def compile_program(program, bug):
    for op in program["ops"]:
        if op["kind"] == "nms":
            unsupported("nms")
        if op["kind"] == "elementwise" and op["ew"] == "sigmoid":
            unsupported("sigmoid")
        if bug == "k1" and op["kind"] == "topk" and op["k"] == 1:
            os.abort()


def run_program(program, inputs, bug):
    types = program["values"]
    values = {v: x for v, x in zip(program["inputs"], inputs)}
    for op in program["ops"]:
        kind, res = op["kind"], op["results"]
        if kind == "sort":
            outs = run_sort(op, values, bug)
        elif kind == "topk":
            outs = run_topk(op, values)
        elif kind == "elementwise":
            outs = [run_elementwise(op, values, types[res[0]]["type"])]
        elif kind == "slice":
            outs = [run_slice(op, values[op["operands"][0]])]
        elif kind == "gather":
            outs = [run_gather(op, *(values[i] for i in op["operands"]))]
        elif kind == "iota":
            outs = [run_iota(op, types[res[0]])]
        else:
            unsupported(kind)
        for v, x in zip(res, outs):
            values[v] = np.ascontiguousarray(x, dtype=DTYPES[types[v]["type"]])
    return [values[v] for v in program["outputs"]]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--program", required=True)
    parser.add_argument("--inputs", required=True)
    parser.add_argument("--outputs", required=True)
    parser.add_argument("--bug", choices=["none", "ties", "k1"], default="none")
    args = parser.parse_args()
    phase("compile")
    with open(args.program) as f:
        program = json.load(f)
    compile_program(program, args.bug)
    phase("run")
    inputs = [np.load(os.path.join(args.inputs, f"input_{i}.npy"))
              for i in range(len(program["inputs"]))]
    for i, x in enumerate(run_program(program, inputs, args.bug)):
        np.save(os.path.join(args.outputs, f"output_{i}.npy"), x)


if __name__ == "__main__":
    main()
