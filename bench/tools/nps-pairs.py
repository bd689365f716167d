#!/usr/bin/env python3
"""Compares two builds' speed: `castella bench` runs of each, interleaved.

    python3 bench/tools/nps-pairs.py OLD NEW [--pairs 12] [--depth 13] [--pause datagen]

On a shared machine two runs a minute apart can differ by 30%, so the
builds take turns (OLD, NEW, OLD, NEW, ...) and each pair gives one ratio
of nodes per second, NEW over OLD; the median ratio is the figure to quote,
with the range and how many pairs NEW won. Both builds must search the
same tree: a pure speed-up keeps the bench's node count, and a pair whose
counts differ is reported (the ratio is then not a speed alone).
--pause stops the processes of that name (SIGSTOP) while the pairs run
and lets them go on afterwards (SIGCONT), as for a background `datagen`.
"""

import argparse
import os
import signal
import statistics
import subprocess
import sys


def bench(binary, depth):
    """(nodes, nps) from the last line of `binary bench [depth]`."""
    cmd = [binary, "bench"] + ([str(depth)] if depth else [])
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    last = (out.stdout + out.stderr).strip().splitlines()[-1].split()
    if len(last) != 4 or last[1] != "nodes" or last[3] != "nps":
        sys.exit(f"{binary}: unexpected last line of bench: {' '.join(last)}")
    return int(last[0]), int(last[2])


def pids(name):
    out = subprocess.run(["pgrep", "-x", name], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def signal_all(name, sig):
    for pid in pids(name) if name else []:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--pairs", type=int, default=12)
    ap.add_argument("--depth", type=int, help="bench depth (the binary's default if left out)")
    ap.add_argument("--pause", metavar="NAME", help="processes to stop while measuring")
    args = ap.parse_args()
    if args.pairs < 1:
        ap.error("--pairs must be at least 1")

    ratios, olds, news = [], [], []
    signal_all(args.pause, signal.SIGSTOP)
    try:
        for i in range(args.pairs):
            old_nodes, old_nps = bench(args.old, args.depth)
            new_nodes, new_nps = bench(args.new, args.depth)
            note = "" if old_nodes == new_nodes else f"  (nodes differ: {old_nodes} {new_nodes})"
            ratios.append(new_nps / old_nps)
            olds.append(old_nps)
            news.append(new_nps)
            print(f"pair {i + 1:2}: {old_nps:>9} {new_nps:>9}  {ratios[-1]:.4f}{note}", flush=True)
    finally:
        signal_all(args.pause, signal.SIGCONT)

    faster = sum(r > 1 for r in ratios)
    print(f"new/old nodes per second: median {statistics.median(ratios):.3f}, "
          f"range {min(ratios):.2f}-{max(ratios):.2f}, {faster} of {len(ratios)} pairs faster; "
          f"means {statistics.mean(news) / 1e6:.2f}M and {statistics.mean(olds) / 1e6:.2f}M")


if __name__ == "__main__":
    main()
