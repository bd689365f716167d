#!/usr/bin/env python3
"""Speed of Castella builds against each other and Stockfish, in one
interleaved run (ratios, not absolute times: this machine is shared).

    python3 bench/tools/speed.py REFERENCE [BINARY ...] [--stockfish /usr/games/stockfish]
                           [--rounds 3] [--bench-depth 13]

Every round times, whole process as a user runs it, Stockfish 15.1's
`go perft` and each binary's `castella perft` on four positions
(startpos to depth 6, Kiwipete to 5, Chess960 starts 0 and 959 to 6),
then each binary's `castella bench` (its nodes per second), the
binaries taking turns so that the machine's load falls on all alike.
It prints a row per binary: perft seconds per round, perft speed
against Stockfish and against REFERENCE, bench nodes per second and
against REFERENCE. Counts that differ from Stockfish's stop the run.
"""

import argparse
import os
import re
import subprocess
import sys
import time

POSITIONS = [
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
    ("frc-0", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", 6),
    ("frc-959", "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1", 6),
]


def nodes_of(text):
    m = re.search(r"Nodes searched: (\d+)", text)
    return int(m.group(1)) if m else None


def castella_perft(exe, fen, depth):
    t = time.perf_counter()
    out = subprocess.run([exe, "perft", str(depth), "--fen", fen],
                         capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - t, nodes_of(out)


def stockfish_perft(exe, fen, depth):
    script = f"setoption name UCI_Chess960 value true\nposition fen {fen}\ngo perft {depth}\nquit\n"
    t = time.perf_counter()
    out = subprocess.run([exe], input=script, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - t, nodes_of(out)


def bench_nps(exe, depth):
    out = subprocess.run([exe, "bench", str(depth)], capture_output=True, text=True, check=True).stdout
    last = out.strip().splitlines()[-1].split()
    return int(last[0]), int(last[2])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binaries", nargs="+", help="Castella binaries, the reference first")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--bench-depth", type=int, default=13)
    args = ap.parse_args()
    names = [os.path.basename(b) for b in args.binaries]
    perft = {b: 0.0 for b in args.binaries}
    nps = {b: [] for b in args.binaries}
    sf = 0.0
    for r in range(args.rounds):
        for _, fen, depth in POSITIONS:
            dt, want = stockfish_perft(args.stockfish, fen, depth)
            sf += dt
            # Each round in another order, so no binary always goes first.
            for b in args.binaries[r % len(args.binaries):] + args.binaries[:r % len(args.binaries)]:
                dt, got = castella_perft(b, fen, depth)
                if got != want:
                    sys.exit(f"{b}: {got} nodes for {fen} at depth {depth}, Stockfish {want}")
                perft[b] += dt
        for b in args.binaries:
            nodes, speed = bench_nps(b, args.bench_depth)
            nps[b].append(speed)
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    ref = args.binaries[0]
    mean = {b: sum(v) / len(v) for b, v in nps.items()}
    width = max(len(n) for n in names + ["Stockfish 15.1"])
    print(f"{'binary':<{width}}  {'perft s':>8}  {'x Stockfish':>11}  {'x ref':>6}  {'bench nps':>10}  {'x ref':>6}")
    print(f"{'Stockfish 15.1':<{width}}  {sf / args.rounds:8.3f}  {1.0:11.2f}")
    for b, name in zip(args.binaries, names):
        print(f"{name:<{width}}  {perft[b] / args.rounds:8.3f}  {sf / perft[b]:11.2f}  "
              f"{perft[ref] / perft[b]:6.2f}  {mean[b]:10.0f}  {mean[b] / mean[ref]:6.2f}")


if __name__ == "__main__":
    main()
