#!/usr/bin/env python3
"""Runs a sift program written for PyTorch (generators/PyTorchEmitter.cpp)
through torch.compile.

    python inductor_run.py --program FILE --inputs DIR --outputs DIR
        [--device cpu|cuda]
        [--mode=default|reduce-overhead|max-autotune|max-autotune-no-cudagraphs]
        [--backend=inductor|eager|aot_eager] [--dynamic=true|false]
        [--fullgraph=true|false] [--emulate-precision-casts=true|false]

Reads DIR/input_<i>.npy (i = 0, 1, ... while they exist) onto the device,
loads the module's `program(*args)` and wraps it in
`torch.compile(program, backend=..., mode=..., dynamic=..., fullgraph=...)`.
torch.compile compiles lazily, on the first call: that call is the compile
phase (tracing, lowering and building the kernels; its results are thrown
away), and a second call with the same inputs is the run phase, whose
results are written as DIR/output_<i>.npy. `sift-phase: compile` and
`sift-phase: run` on stderr mark the two steps. --mode applies to the
inductor backend only; eager and aot_eager trace the program without
generating code (reference points for inductor). --fullgraph=true (the
default) makes a graph break an error rather than a silent fall back to
eager Python. --emulate-precision-casts sets inductor's config of that name
(off by default): inductor computes fused f16 steps in f32 and drops the
rounding between them unless it is on.

Inductor's caches (compiled kernels, Triton's cache) go to a temporary
folder that is removed at the end, so nothing is written outside the output
folder and every run compiles afresh; or, where $SIFT_INDUCTOR_CACHE names a
folder, to that folder, which the runs of a campaign then share (a hit is
the same graph on inputs of the same metadata, compiled by the same torch). Errors propagate (traceback, exit 1);
a bad argument exits 2.
"""

import argparse
import importlib.util
import os
import shutil
import sys
import tempfile

import numpy as np

MODES = ("default", "reduce-overhead", "max-autotune",
         "max-autotune-no-cudagraphs")
BACKENDS = ("inductor", "eager", "aot_eager")
RESULT_DTYPES = ("int32", "int64", "float16", "float32", "float64")


def parse_bool(text):
    if text in ("true", "false"):
        return text == "true"
    raise argparse.ArgumentTypeError(f"expected true or false, got {text!r}")


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--program", required=True, help="the program.py")
    parser.add_argument("--inputs", required=True,
                        help="folder of input_<i>.npy")
    parser.add_argument("--outputs", required=True,
                        help="folder for output_<i>.npy")
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    parser.add_argument("--mode", choices=MODES, default="default")
    parser.add_argument("--backend", choices=BACKENDS, default="inductor")
    parser.add_argument("--dynamic", type=parse_bool, default=False,
                        metavar="true|false")
    parser.add_argument("--fullgraph", type=parse_bool, default=True,
                        metavar="true|false")
    parser.add_argument("--emulate-precision-casts", type=parse_bool,
                        default=False, metavar="true|false")
    args = parser.parse_args(argv)
    if args.backend != "inductor" and args.mode != "default":
        parser.error(f"--mode={args.mode} needs --backend=inductor")
    if not os.path.isfile(args.program):
        parser.error(f"--program {args.program}: no such file")
    if not os.path.isdir(args.inputs):
        parser.error(f"--inputs {args.inputs}: no such folder")
    if os.path.exists(args.outputs) and not os.path.isdir(args.outputs):
        parser.error(f"--outputs {args.outputs}: not a folder")
    return args


def phase(name):
    print(f"sift-phase: {name}", file=sys.stderr, flush=True)


def read_inputs(folder):
    inputs = []
    while True:
        path = os.path.join(folder, f"input_{len(inputs)}.npy")
        if not os.path.exists(path):
            return inputs
        inputs.append(np.load(path, allow_pickle=False))


def load_program(path):
    sys.dont_write_bytecode = True
    spec = importlib.util.spec_from_file_location("sift_pytorch_program", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.program


def to_numpy(results):
    if not isinstance(results, (tuple, list)):
        raise TypeError(
            f"program returned {type(results).__name__}, not a tuple")
    arrays = []
    for i, result in enumerate(results):
        array = result.detach().cpu().contiguous().numpy()
        if array.dtype.name not in RESULT_DTYPES:
            raise TypeError(f"result {i} has dtype {array.dtype}")
        arrays.append(array)
    return arrays


def run(args):
    """Compiles and runs one program; returns the results as numpy arrays."""
    import torch
    import torch._inductor.config as inductor_config

    if args.device == "cuda" and not torch.cuda.is_available():
        raise RuntimeError("--device cuda: torch sees no CUDA device")
    inductor_config.emulate_precision_casts = args.emulate_precision_casts
    device = torch.device(args.device)
    torch.set_default_device(device)
    inputs = [torch.from_numpy(x).to(device) for x in read_inputs(args.inputs)]
    phase("compile")
    program = load_program(args.program)
    options = {"backend": args.backend, "dynamic": args.dynamic,
               "fullgraph": args.fullgraph}
    if args.backend == "inductor":
        options["mode"] = args.mode
    compiled = torch.compile(program, **options)
    # torch.compile compiles on the first call: that call is the compile
    # phase, and its results are not kept.
    compiled(*inputs)
    if args.device == "cuda":
        torch.cuda.synchronize()
    phase("run")
    results = compiled(*inputs)
    if args.device == "cuda":
        torch.cuda.synchronize()
    return to_numpy(results)


def main(argv=None):
    args = parse_args(argv)
    # Set before torch is imported: where inductor and Triton keep what they
    # compile. Each run compiles cold in a folder of its own, unless
    # $SIFT_INDUCTOR_CACHE names a folder the runs of a campaign share
    # (inductor's and Triton's caches are keyed by the graph, the inputs'
    # metadata and the compiler's version, so a hit is the same compile).
    shared = os.environ.get("SIFT_INDUCTOR_CACHE", "")
    cache = shared or tempfile.mkdtemp(prefix="sift-inductor-")
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(cache, "inductor")
    os.environ["TRITON_CACHE_DIR"] = os.path.join(cache, "triton")
    os.environ["TRITON_HOME"] = cache
    try:
        results = run(args)
    finally:
        if not shared:
            shutil.rmtree(cache, ignore_errors=True)
    os.makedirs(args.outputs, exist_ok=True)
    for i, result in enumerate(results):
        np.save(os.path.join(args.outputs, f"output_{i}.npy"), result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
