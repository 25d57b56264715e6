#!/usr/bin/env python3
"""Reduces one case per distinct signature of a campaign's findings database.

    scripts/reduce-signatures.py OUT/findings.db REDUCED_DIR [--harness=PATH]
        [--skip=VERDICT,...]

For every signature in the database it picks the stored case with the
smallest program (case.json's program_weight), runs `harness reduce` on it
into REDUCED_DIR/sig-ID, and writes REDUCED_DIR/signatures.tsv: the
signature's id, how many findings carry it, the runs (pipeline/target) it was
seen on, the front ends, the reduced case's size (ops x elements, the
reducer's measure) and ops, and the signature's text. A signature whose case
folder is gone or whose reduction fails keeps its row, with the reason in the
size column. Runs again skip signatures already reduced (a stopped run goes
on where it stopped). --skip leaves signatures of those verdicts unreduced
(timeouts: every test of their reduction takes the whole time limit); their
rows say "skipped".
"""
import argparse
import json
import os
import sqlite3
import subprocess
import sys


def case_weight(folder):
    try:
        with open(os.path.join(folder, "case.json")) as f:
            case = json.load(f)
        return case.get("program_weight", 1 << 62), case.get("frontend", "")
    except (OSError, ValueError):
        return None, ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("db")
    parser.add_argument("out")
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument(
        "--harness", default=os.path.join(here, "..", "build", "harness", "harness"))
    parser.add_argument("--skip", default="",
                        help="verdicts not to reduce, e.g. run-timeout,compile-timeout")
    args = parser.parse_args()
    skipped = {v for v in args.skip.split(",") if v}
    if not os.path.isfile(args.db):
        sys.exit(f"reduce-signatures: {args.db}: no such database")
    os.makedirs(args.out, exist_ok=True)
    db = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    rows = db.execute(
        "select s.id, s.text, count(*), group_concat(distinct f.pipeline || '/' || f.target) "
        "from findings f join signatures s on s.id = f.signature "
        "group by s.id order by count(*) desc").fetchall()
    table = []
    for sig, text, count, runs in rows:
        folders = [r[0] for r in db.execute(
            "select case_dir from findings where signature = ?", (sig,))]
        candidates = []
        frontends = set()
        for folder in folders:
            weight, frontend = case_weight(folder)
            if weight is not None:
                candidates.append((weight, folder))
                if frontend:
                    frontends.add(frontend)
        reduced = os.path.join(args.out, f"sig-{sig}")
        size, ops = "", ""
        if text.split("|")[0] in skipped:
            size = "skipped"
        elif not candidates:
            size = "no case folder"
        else:
            if not os.path.isfile(os.path.join(reduced, "case.json")):
                folder = min(candidates)[1]
                run = subprocess.run([args.harness, "reduce", folder, "-o", reduced],
                                     capture_output=True, text=True)
                with open(reduced + ".log", "w") as log:
                    log.write(run.stdout + run.stderr)
                if run.returncode != 0:
                    size = f"reduce failed ({run.returncode})"
            if not size:
                try:
                    with open(os.path.join(reduced, "case.json")) as f:
                        case = json.load(f)
                    size = str(case.get("ops_times_elements", "?"))
                    ops = str(len(case["program"]["ops"]))
                except (OSError, ValueError, KeyError):
                    size = "unreadable reduced case"
        table.append((sig, count, runs, ",".join(sorted(frontends)), size, ops, text))
        print(f"sig-{sig}: {count} findings, reduced to {size} ({ops} ops): {text[:100]}",
              flush=True)
    with open(os.path.join(args.out, "signatures.tsv.partial"), "w") as f:
        f.write("id\tcount\truns\tfrontends\treduced_size\treduced_ops\tsignature\n")
        for row in table:
            f.write("\t".join(str(x).replace("\t", " ") for x in row) + "\n")
    os.replace(os.path.join(args.out, "signatures.tsv.partial"),
               os.path.join(args.out, "signatures.tsv"))


if __name__ == "__main__":
    main()
