"""Installs a version of the "versioned" test system (versioned.toml) into
a venv without the network: it writes the version into VENV/version.txt,
which versioned_runner.py reads, and makes the numpy of
$VERSIONED_NUMPY_FROM (a Python that has numpy) importable in the venv with
a .pth file. Version "broken" fails, as a failed pip install would.

  python versioned_install.py --venv VENV --version VERSION
"""

import argparse
import os
import subprocess
import sys
import sysconfig


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--venv", required=True)
    parser.add_argument("--version", required=True)
    args = parser.parse_args()
    if args.version == "broken":
        sys.exit("ERROR: No matching distribution found for versioned==broken")
    numpy_from = os.environ.get("VERSIONED_NUMPY_FROM")
    if numpy_from:
        site = subprocess.check_output(
            [numpy_from, "-c",
             "import numpy, os; "
             "print(os.path.dirname(os.path.dirname(numpy.__file__)))"],
            text=True).strip()
        purelib = sysconfig.get_paths()["purelib"]
        with open(os.path.join(purelib, "versioned-numpy.pth"), "w") as f:
            f.write(site + "\n")
    with open(os.path.join(args.venv, "version.txt"), "w") as f:
        f.write(args.version + "\n")


if __name__ == "__main__":
    main()
