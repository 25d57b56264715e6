#!/usr/bin/env python3
"""Runs a sift program written for JAX (generators/JaxEmitter.cpp).

    python jax_run.py --program FILE --inputs DIR --outputs DIR
                      [--device cpu|cuda] [--xla-flag=FLAG]... [--no-jit]

Reads DIR/input_<i>.npy (i = 0, 1, ... while they exist), loads the module's
`program(*args)`, jits it with 64-bit types enabled (i64 and f64 programs),
compiles it for the chosen device (`jax.jit(program).lower(*args).compile()`)
and runs it, then writes one output_<i>.npy per result. `sift-phase: compile`
and `sift-phase: run` on stderr mark the two steps. `--xla-flag` adds a flag
to XLA_FLAGS before jax is imported (repeatable); `--no-jit` runs the program
op by op instead, as a reference point (its compile step only loads it).

bf16 arrives and leaves as two opaque bytes a value ('<V2' or '|V2' .npy,
the spelling of ml_dtypes and sift): inputs are viewed as
ml_dtypes.bfloat16, bf16 results written as 'V2'. XLA is asked to round
every op (--xla_allow_excess_precision=false, before any flag given): by
default it may keep a bf16 or f16 chain in f32, which XLA documents and
sift's reference (one rounding an op) does not model.

Errors propagate (traceback, exit 1); a bad argument exits 2. Nothing is
written outside the output folder, and the program's module leaves no
bytecode cache behind.
"""

import argparse
import importlib.util
import os
import sys

import numpy as np


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--program", required=True, help="the program.py")
    parser.add_argument("--inputs", required=True, help="folder of input_<i>.npy")
    parser.add_argument("--outputs", required=True, help="folder for output_<i>.npy")
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    parser.add_argument("--xla-flag", action="append", default=[],
                        dest="xla_flags", metavar="FLAG",
                        help="appended to XLA_FLAGS (repeatable)")
    parser.add_argument("--no-jit", action="store_true",
                        help="run op by op (eager) instead of one compiled program")
    args = parser.parse_args(argv)
    if not os.path.isfile(args.program):
        parser.error(f"--program {args.program}: no such file")
    if not os.path.isdir(args.inputs):
        parser.error(f"--inputs {args.inputs}: no such folder")
    if os.path.exists(args.outputs) and not os.path.isdir(args.outputs):
        parser.error(f"--outputs {args.outputs}: not a folder")
    return args


def phase(name):
    print(f"sift-phase: {name}", file=sys.stderr, flush=True)


def configure_environment(device, xla_flags):
    """What must be set before jax is imported."""
    os.environ["XLA_FLAGS"] = " ".join(
        [os.environ.get("XLA_FLAGS", ""), "--xla_allow_excess_precision=false"]
        + list(xla_flags)).strip()
    if device == "cpu":
        # No GPU backend to start (nor GPU memory to take) for a CPU run.
        os.environ["JAX_PLATFORMS"] = "cpu"
    else:
        # Several runs share one GPU (sift-run over folders at once): take
        # memory as needed, not XLA's default 75% of the card up front.
        os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")


def read_inputs(folder):
    inputs = []
    while True:
        path = os.path.join(folder, f"input_{len(inputs)}.npy")
        if not os.path.exists(path):
            return inputs
        array = np.load(path, allow_pickle=False)
        if array.dtype.kind == "V" and array.dtype.itemsize == 2:
            import ml_dtypes
            array = array.view(ml_dtypes.bfloat16)
        inputs.append(array)


def load_program(path):
    sys.dont_write_bytecode = True
    spec = importlib.util.spec_from_file_location("sift_jax_program", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.program


def run(program_path, inputs_dir, outputs_dir, device_kind, jit=True):
    """Compiles and runs one program; returns the results as numpy arrays."""
    import jax

    jax.config.update("jax_enable_x64", True)
    device = jax.devices(device_kind)[0]
    with jax.default_device(device):
        args = [jax.device_put(x, device) for x in read_inputs(inputs_dir)]
        phase("compile")
        program = load_program(program_path)
        function = jax.jit(program).lower(*args).compile() if jit else program
        phase("run")
        results = jax.block_until_ready(function(*args))
    if not isinstance(results, (tuple, list)):
        raise TypeError(f"program returned {type(results).__name__}, not a tuple")
    return [np.asarray(r) for r in results]


def main(argv=None):
    args = parse_args(argv)
    configure_environment(args.device, args.xla_flags)
    results = run(args.program, args.inputs, args.outputs, args.device,
                  jit=not args.no_jit)
    os.makedirs(args.outputs, exist_ok=True)
    for i, result in enumerate(results):
        if result.dtype.name == "bfloat16":
            result = result.view(np.dtype("V2"))
        np.save(os.path.join(args.outputs, f"output_{i}.npy"), result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
