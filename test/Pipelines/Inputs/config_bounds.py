"""Prints what config_random_bounds.mlir checks, one line a config, in
file order: "elementwise points N", then " over" when N (the product of the
config's thread_tile) is over MAX_POINTS; "split k K chunk C", then
" thread-walked" when C <= THREAD_CHUNK (a thread walks each chunk).

  config_bounds.py FILE MAX_POINTS THREAD_CHUNK
"""

import re
import sys

CONFIG = re.compile(r"#sift\.lowering_config<([^>]*)>")


def main(path, max_points, thread_chunk):
    with open(path) as f:
        for line in f:
            match = CONFIG.search(line)
            if not match:
                continue
            config = match.group(1)
            if "algorithm = elementwise" in config:
                tiles = re.search(r"thread_tile = \[([0-9, ]*)\]", config)
                points = 1
                for size in tiles.group(1).split(","):
                    points *= int(size)
                mark = " over" if points > max_points else ""
                print(f"elementwise points {points}{mark}")
            elif "algorithm = split_select" in config:
                k = re.search(r"k\(([0-9]+)\)", line).group(1)
                chunk = int(re.search(r"row_tile = ([0-9]+)", config).group(1))
                mark = " thread-walked" if chunk <= thread_chunk else ""
                print(f"split k {k} chunk {chunk}{mark}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
