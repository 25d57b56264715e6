# lit configuration for sift's FileCheck tests. Every test runs without a GPU.
import os
import shutil
import subprocess

import lit.formats

config.name = "sift"
config.test_format = lit.formats.ShTest(not config.sift_windows)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "unittests", "benchmarks", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.sift_obj_root, "test")

# sift's tools first, then LLVM's (FileCheck, not, split-file).
config.environment["PATH"] = os.pathsep.join(
    [config.sift_tools_dir, os.path.join(config.sift_obj_root, "tools"),
     os.path.join(config.sift_obj_root, "harness", "fuzz"),
     os.path.join(config.sift_obj_root, "runtime", "fuzz"),
     config.llvm_tools_dir, config.environment.get("PATH", "")])
config.substitutions.append(("%sift_src", config.sift_src_root))
config.substitutions.append(("%sift_obj", config.sift_obj_root))
config.substitutions.append(("%PATH%", config.environment["PATH"]))

# sift-fuzz is built where libFuzzer's FuzzedDataProvider.h (clang-22) is.
if config.sift_have_fuzz:
    config.available_features.add("sift-fuzz")

# Headless Chromium (Debian's chromium) opens harness report's page.
if shutil.which("chromium"):
    config.available_features.add("chromium")

# IREE's tools, as bootstrap installs them into the build's venv (or where
# SIFT_IREE_DIR points): the IREE tests need them.
if os.path.exists(os.path.join(os.environ.get("SIFT_IREE_DIR", ""), "bin", "iree-compile")) or \
        os.path.exists(os.path.join(config.sift_obj_root, "venv", "bin", "iree-compile")):
    config.available_features.add("iree")
    iree_bin = os.path.join(os.environ["SIFT_IREE_DIR"], "bin") if os.environ.get("SIFT_IREE_DIR") \
        else os.path.join(config.sift_obj_root, "venv", "bin")
    config.substitutions.append(("%iree_compile", os.path.join(iree_bin, "iree-compile")))
    config.substitutions.append(("%iree_run_module", os.path.join(iree_bin, "iree-run-module")))

# With SIFT_REQUIRE_IREE (the default; bootstrap turns it off only for
# SIFT_WITH_IREE=0) a missing IREE or Chromium fails the run instead of
# leaving its tests UNSUPPORTED: CI must not pass without them.
if config.sift_require_iree:
    for feature, what in (("iree", "IREE (iree-compile in " +
                           os.path.join(config.sift_obj_root, "venv", "bin") +
                           " or $SIFT_IREE_DIR/bin)"),
                          ("chromium", "Chromium (chromium on PATH)")):
        if feature not in config.available_features:
            lit_config.fatal("SIFT_REQUIRE_IREE is ON but " + what +
                             " is missing: run scripts/bootstrap.sh, or "
                             "configure with -DSIFT_REQUIRE_IREE=OFF to skip "
                             "its tests")

# The shipped systems described by files (systems/*.toml) run on the Python
# packages bootstrap pins into the build's venv: XLA through JAX and ONNX
# Runtime always (a failed install fails the bootstrap), PyTorch unless
# SIFT_WITH_TORCH=0. Their tests need them; missing ones fail the run
# (PyTorch only with SIFT_REQUIRE_TORCH, which bootstrap turns off with it).
venv_python = os.path.join(config.sift_obj_root, "venv", "bin", "python")
for module in ("jax", "onnxruntime", "torch", "numpy"):
    probe = "import importlib.util, sys; sys.exit(importlib.util.find_spec(%r) is None)" % module
    if os.path.exists(venv_python) and \
            subprocess.run([venv_python, "-c", probe]).returncode == 0:
        config.available_features.add("py-" + module)
for module, required in (("jax", True), ("onnxruntime", True), ("numpy", True),
                         ("torch", config.sift_require_torch)):
    if required and "py-" + module not in config.available_features:
        lit_config.fatal("the Python package %s is not in %s: run scripts/bootstrap.sh "
                         "(it pins the shipped systems' packages into the build's venv)"
                         % (module, venv_python) +
                         ("; SIFT_WITH_TORCH=0 skips PyTorch on purpose" if module == "torch" else ""))
