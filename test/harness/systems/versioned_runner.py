"""The runner of the "versioned" test system (versioned.toml): the version
installed into this Python's venv (sys.prefix/version.txt, written by
versioned_install.py; "3", the newest, where there is none) decides the
behaviour: from version 2 on, numpy_model.py runs with its planted bug
--bug=ties (a sort keeps equal keys in reverse input order).

  python versioned_runner.py --version
  python versioned_runner.py --program P.json --inputs DIR --outputs DIR
"""

import os
import runpy
import sys


def installed_version():
    try:
        with open(os.path.join(sys.prefix, "version.txt")) as f:
            return f.read().strip()
    except OSError:
        return "3"


def main():
    version = installed_version()
    if sys.argv[1:] == ["--version"]:
        print("versioned", version)
        return
    if int(version) >= 2:
        sys.argv.append("--bug=ties")
    here = os.path.dirname(os.path.abspath(__file__))
    sys.argv[0] = os.path.join(here, "numpy_model.py")
    runpy.run_path(sys.argv[0], run_name="__main__")


if __name__ == "__main__":
    main()
