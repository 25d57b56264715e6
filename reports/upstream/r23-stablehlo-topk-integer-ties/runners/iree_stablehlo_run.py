#!/usr/bin/env python3
"""Runs a StableHLO program (sift's `stablehlo` exchange format) with IREE.

    python iree_stablehlo_run.py --program program.mlir --inputs DIR --outputs DIR
        [--device cpu|cuda] [--opt-level=O0|O1|O2|O3] [--compile-flag=FLAG ...]

Compiles the module with iree.compiler (input type stablehlo, the llvm-cpu
backend on the local-task driver for cpu, cuda for cuda) into a VM
flatbuffer (the compile phase), calls its `main` with DIR/input_<i>.npy in
argument order (the run phase) and writes every result as
DIR/output_<i>.npy.
"""

import argparse
import glob
import os
import sys

import numpy as np


def phase(name):
    """Tells the harness which step a failure from now on belongs to."""
    print("sift-phase: " + name, file=sys.stderr, flush=True)


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--program", required=True)
    parser.add_argument("--inputs", required=True)
    parser.add_argument("--outputs", required=True)
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    parser.add_argument("--opt-level", choices=("O0", "O1", "O2", "O3"),
                        default="O2")
    parser.add_argument("--compile-flag", action="append", default=[],
                        help="one more iree-compile flag (repeatable)")
    args = parser.parse_args(argv)
    if not os.path.isfile(args.program):
        parser.error("no program file %s" % args.program)
    if not os.path.isdir(args.inputs):
        parser.error("no inputs folder %s" % args.inputs)
    return args


def read_inputs(folder):
    count = len(glob.glob(os.path.join(folder, "input_*.npy")))
    return [np.load(os.path.join(folder, "input_%d.npy" % i)) for i in range(count)]


def compile_program(args):
    import iree.compiler as compiler
    # IREE demotes f64 to f32 by default on this input path; the program's
    # f64 values must stay f64.
    flags = ["--iree-opt-level=" + args.opt_level,
             "--iree-input-demote-f64-to-f32=false"] + args.compile_flag
    if args.device == "cuda":
        backends = ["cuda"]
    else:
        backends = ["llvm-cpu"]
        flags = flags + ["--iree-llvmcpu-target-cpu=generic"]
    return compiler.compile_file(args.program, input_type="stablehlo",
                                 target_backends=backends, extra_args=flags)


def run(args, vmfb, inputs):
    import iree.runtime as runtime
    driver = "cuda" if args.device == "cuda" else "local-task"
    config = runtime.Config(driver)
    context = runtime.SystemContext(config=config)
    context.add_vm_module(runtime.VmModule.copy_buffer(context.instance, vmfb))
    results = context.modules.module["main"](*inputs)
    if not isinstance(results, (tuple, list)):
        results = (results,)
    return [np.asarray(r.to_host() if hasattr(r, "to_host") else r) for r in results]


def main(argv):
    args = parse_arguments(argv)
    inputs = read_inputs(args.inputs)
    phase("compile")
    vmfb = compile_program(args)
    phase("run")
    outputs = run(args, vmfb, inputs)
    os.makedirs(args.outputs, exist_ok=True)
    for i, out in enumerate(outputs):
        np.save(os.path.join(args.outputs, "output_%d.npy" % i), out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
