#!/usr/bin/env python3
"""Checks the include arrows of the compiler's folders (docs/ARCHITECTURE.md).

pipelines/ is layered: Dialect, Kernels, Transforms, Strategy, Pipelines,
Target. A file includes only headers of its own folder or of folders before
it, and the algorithm folders under Kernels/ include each other without a
circle. Prints every arrow that runs back up and every circle, and exits 1
when there is one (0 when the layering holds, 2 on bad usage).

Usage: check-layers.py [REPO_ROOT]
"""
import collections
import os
import re
import sys

ORDER = ['Dialect', 'Kernels', 'Transforms', 'Strategy', 'Pipelines', 'Target']
INCLUDE = re.compile(r'^\s*#\s*include\s+"pipelines/([^"]+)"', re.M)


def home(parts):
    """A file's folder: Kernels/<algorithm> for the kernels, else the layer."""
    return '/'.join(parts[:2]) if parts[0] == 'Kernels' and len(parts) > 2 else parts[0]


def main(argv):
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith('-')):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    root = os.path.join(argv[1] if len(argv) == 2 else '.', 'pipelines')
    if not os.path.isdir(root):
        print(f'check-layers: {root}: no such folder', file=sys.stderr)
        return 2
    rank = {name: i for i, name in enumerate(ORDER)}
    up, edges, arrows = [], collections.defaultdict(set), 0
    for folder, _, files in os.walk(root):
        for name in sorted(files):
            if not name.endswith(('.h', '.cpp', '.td')):
                continue
            path = os.path.join(folder, name)
            src = os.path.relpath(path, root).split(os.sep)
            with open(path, errors='replace') as f:
                text = f.read()
            for target in INCLUDE.findall(text):
                dst = target.split('/')
                arrows += 1
                if src[0] not in rank or dst[0] not in rank:
                    continue
                if rank[dst[0]] > rank[src[0]]:
                    up.append(f'{"/".join(src)} includes pipelines/{target}')
                a, b = home(src), home(dst)
                if a != b:
                    edges[a].add(b)
    circles, state = [], {}

    def visit(node, stack):
        state[node] = 'open'
        stack.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 'open':
                circles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 'done'

    for node in sorted(list(edges)):
        if node not in state:
            visit(node, [])
    for line in up:
        print(f'check-layers: runs back up: {line}')
    for circle in circles:
        print(f'check-layers: circle: {" -> ".join(circle)}')
    print(f'check-layers: {arrows} include arrows, {len(up)} running back up, '
          f'{len(circles)} circles')
    return 1 if up or circles else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
