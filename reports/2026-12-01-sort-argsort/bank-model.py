#!/usr/bin/env python3
"""Shared-memory wavefronts of buildCompositeBitonicSort's phases, by layout.

A model, not a measurement: each phase, each warp of `threads` threads
loads and stores `2^width` composites a thread (the group of slot numbers
that differ in the phase's window of bits, as RowKernels.cpp builds them);
a 4-byte access of a warp takes as many wavefronts as the most distinct
words one bank holds, an 8-byte access two half-warp passes of 16 bank
pairs each. Prints the wavefronts a row for the old and new compositeSlot.
"""
import math


def phases(stages, width):
    """RowKernels.cpp's bitonicPhases: (lo, steps) of each phase."""
    first = [(s, bit) for s in range(1, min(stages, width) + 1)
             for bit in range(s - 1, -1, -1)]
    out = [(0, first)]
    for s in range(width + 1, stages + 1):
        hi = s - 1
        while hi >= 0:
            lo = max(0, hi - width + 1)
            out.append((lo, [(s, b) for b in range(hi, lo - 1, -1)]))
            hi -= width
    return out


def wavefronts(slots, size):
    if size == 8:
        total = 0
        for half in (slots[:16], slots[16:]):
            banks = {}
            for s in set(half):
                banks.setdefault(s % 16, set()).add(s)
            total += max(len(v) for v in banks.values())
        return total
    banks = {}
    for s in set(slots):
        banks.setdefault(s % 32, set()).add(s)
    return max(len(v) for v in banks.values())


def network(padded, threads, width, slot, size):
    stages = int(math.log2(padded))
    held = 1 << width
    total = 0
    for lo, _ in phases(stages, width):
        for first in range(0, padded // held, 32):
            groups = [first + lane for lane in range(32)]
            for m in range(held):
                at = []
                for g in groups:
                    base = (g & ((1 << lo) - 1)) | ((g >> lo) << (lo + width))
                    at.append(slot(base + (m << lo)))
                total += 2 * wavefronts(at, size)  # a load and a store
    return total


def old(e):
    return e ^ ((e >> 4) & 15)


def new(e):
    return e ^ ((e >> 3) & 31)


def width_of(threads, padded):
    w = 1
    while w < 3 and (threads << (w + 1)) <= padded:
        w += 1
    return w


if __name__ == "__main__":
    print("slots threads width | old 8-byte 4-byte | new 8-byte 4-byte")
    for padded in (128, 256, 1024, 4096):
        for threads in (32, 128):
            if threads > padded // 2:
                continue
            w = width_of(threads, padded)
            for f in (old, new):
                assert sorted(f(e) for e in range(padded)) == list(range(padded))
            print(padded, threads, w, "|",
                  network(padded, threads, w, old, 8), network(padded, threads, w, old, 4), "|",
                  network(padded, threads, w, new, 8), network(padded, threads, w, new, 4))
