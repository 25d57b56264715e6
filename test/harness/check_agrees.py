#!/usr/bin/env python3
"""harness check agrees with harness replay on every case of the corpus.

Usage: check_agrees.py HARNESS OUTDIR FOLDER...

Replays each FOLDER (a folder of case folders) with a JUnit report, then runs
`harness check` on every case folder and compares its exit code with the
replay's judgement of that case (issue 43: check judged statically and said
"pass" for live run findings that replay still failed):

  replay unchanged, a finding recorded       -> check exit 1 (still there)
  replay unchanged, pass recorded            -> check exit 0
  replay changed, recorded finding now gone  -> check exit 0
  replay changed, a recorded pass now fails  -> check exit 1
  replay skipped (fixed upstream)            -> check exit 0
  replay skipped (needs a device)            -> check exit 2
Prints one line per disagreement and exits 1 when there is any.
"""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET


def expected_exit(case, folder):
    recorded = json.load(open(os.path.join(folder, "case.json")))["verdict"]
    skipped = case.find("skipped")
    if skipped is not None:
        return 2 if skipped.get("message", "").startswith("needs a device") else 0
    failed = case.find("failure") is not None
    if not failed:
        return 0 if recorded == "pass" else 1
    return 1 if recorded == "pass" else 0


def main():
    harness, outdir, roots = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(outdir, exist_ok=True)
    disagreements = checked = 0
    for n, root in enumerate(roots):
        junit = os.path.join(outdir, "replay-%d.xml" % n)
        subprocess.run([harness, "replay", root, "--junit=" + junit],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for case in ET.parse(junit).getroot().iter("testcase"):
            folder = os.path.join(root, case.get("name"))
            if case.find("error") is not None:
                continue  # unreadable for replay: not a case to compare
            want = expected_exit(case, folder)
            got = subprocess.run([harness, "check", folder],
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True)
            checked += 1
            if got.returncode != want:
                disagreements += 1
                print("DISAGREE %s: replay says exit %d, check exited %d: %s"
                      % (folder, want, got.returncode,
                         got.stdout.strip().splitlines()[-1:]))
    print("check agrees with replay on %d of %d cases"
          % (checked - disagreements, checked))
    return 1 if disagreements or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
