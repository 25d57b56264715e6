#!/usr/bin/env python3
"""Runs an ONNX model (sift's `onnx` exchange format) with ONNX Runtime.

    python onnxruntime_run.py --program model.onnx --inputs DIR --outputs DIR
        [--device cpu|cuda] [--opt-level=disable|basic|extended|all]
        [--provider=CPUExecutionProvider|CUDAExecutionProvider] [--threads=N]

Reads DIR/input_<i>.npy for every graph input `input_<i>`, creates an
onnxruntime.InferenceSession (the compile phase: graph optimizations at
--opt-level, the execution provider named by --provider, else the one
--device names, else the CPU's), runs it once (the run phase) and writes
every graph output `output_<i>` as DIR/output_<i>.npy. A provider that this
onnxruntime build lacks is an error, never a silent fallback to the CPU.
"""

import argparse
import os
import sys

import numpy as np
import onnxruntime as ort

OPT_LEVELS = {
    "disable": ort.GraphOptimizationLevel.ORT_DISABLE_ALL,
    "basic": ort.GraphOptimizationLevel.ORT_ENABLE_BASIC,
    "extended": ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED,
    "all": ort.GraphOptimizationLevel.ORT_ENABLE_ALL,
}
PROVIDERS = ("CPUExecutionProvider", "CUDAExecutionProvider")


def phase(name):
    """Tells the harness which step a failure from now on belongs to."""
    print("sift-phase: " + name, file=sys.stderr, flush=True)


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--program", required=True)
    parser.add_argument("--inputs", required=True)
    parser.add_argument("--outputs", required=True)
    parser.add_argument("--device", choices=("cpu", "cuda"))
    parser.add_argument("--opt-level", choices=sorted(OPT_LEVELS), default="all")
    parser.add_argument("--provider", choices=PROVIDERS)
    parser.add_argument("--threads", type=int, default=0,
                        help="intra-op threads (0: onnxruntime's default)")
    args = parser.parse_args(argv)
    if args.threads < 0:
        parser.error("--threads must be 0 or more")
    wanted = "CUDAExecutionProvider" if args.device == "cuda" else "CPUExecutionProvider"
    if args.provider is None:
        args.provider = wanted
    elif args.device is not None and args.provider != wanted:
        parser.error("--provider=%s contradicts --device %s" % (args.provider, args.device))
    return args


def session_for(args):
    """The InferenceSession of the model, on exactly the chosen provider."""
    if args.provider not in ort.get_available_providers():
        raise RuntimeError("onnxruntime %s has no %s (it has %s)" % (
            ort.__version__, args.provider, ", ".join(ort.get_available_providers())))
    options = ort.SessionOptions()
    options.graph_optimization_level = OPT_LEVELS[args.opt_level]
    options.intra_op_num_threads = args.threads
    providers = [args.provider]
    if args.provider != "CPUExecutionProvider":
        providers.append("CPUExecutionProvider")  # nodes the provider lacks
    session = ort.InferenceSession(args.program, sess_options=options, providers=providers)
    if args.provider not in session.get_providers():
        raise RuntimeError("the session did not take %s (it runs on %s)" % (
            args.provider, ", ".join(session.get_providers())))
    return session


def main(argv):
    args = parse_arguments(argv)
    phase("compile")
    session = session_for(args)
    phase("run")
    feeds = {}
    for graph_input in session.get_inputs():
        feeds[graph_input.name] = np.load(os.path.join(args.inputs, graph_input.name + ".npy"))
    names = [graph_output.name for graph_output in session.get_outputs()]
    results = session.run(names, feeds)
    os.makedirs(args.outputs, exist_ok=True)
    for name, value in zip(names, results):
        np.save(os.path.join(args.outputs, name + ".npy"), np.ascontiguousarray(value))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
