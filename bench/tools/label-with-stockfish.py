#!/usr/bin/env python3
"""Relabels tuner data with Stockfish's static evaluation.

Reads `FEN [result]` lines (datagen's output; pgn-to-epd.py's
`FEN 1-0` works too), asks Stockfish (`eval`
command, UCI_Chess960 on) for its static evaluation of each position and
writes `FEN [target]`, where target blends the game result with Stockfish's
expected score:

    target = lam * 1 / (1 + 10^(-cp / 210)) + (1 - lam) * result

(cp from White's view; Stockfish 15's +1.00 is about a 75% expected score).
Positions Stockfish does not evaluate (in check) are dropped. The tuner
then fits Castella's evaluation to a cleaner signal than game results of
fast self-play alone.

With --raw it writes `FEN | result | cp` instead (result and cp from
White's view), the input of `nnue-train`, which blends them itself.

usage: label-with-stockfish.py IN OUT [--stockfish PATH] [--lam 0.75]
                               [--jobs N] [--limit N] [--raw]
"""
import argparse
import re
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

FINAL = re.compile(r"^Final evaluation\s+([-+]?\d+\.\d+)")
RESULT = re.compile(r"(?:\[([01](?:\.\d+)?)\]|(1-0|0-1|1/2-1/2))\s*$")
SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def label_chunk(args):
    path, lines, lam, raw = args
    sf = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True, bufsize=1)
    sf.stdin.write("setoption name UCI_Chess960 value true\nisready\n")
    for line in sf.stdout:
        if line.startswith("readyok"):
            break
    out = []
    for line in lines:
        m = RESULT.search(line)
        if not m:
            continue
        fen = line[:m.start()].strip()
        sf.stdin.write(f"position fen {fen}\neval\nisready\n")
        cp = None
        for reply in sf.stdout:
            f = FINAL.match(reply)
            if f:
                cp = float(f.group(1)) * 100
            if reply.startswith("readyok"):
                break
        if cp is None:
            continue
        expected = 1 / (1 + 10 ** (-cp / 210))
        result = float(m.group(1)) if m.group(1) else SCORES[m.group(2)]
        if raw:
            out.append(f"{fen} | {result} | {cp:.0f}")
            continue
        target = lam * expected + (1 - lam) * result
        out.append(f"{fen} [{target:.4f}]")
    sf.stdin.write("quit\n")
    sf.wait()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("--stockfish", default="stockfish")
    ap.add_argument("--lam", type=float, default=0.75)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--raw", action="store_true")
    a = ap.parse_args()
    with open(a.inp) as f:
        lines = [l for l in f if l.strip()]
    if a.limit:
        lines = lines[:a.limit]
    size = 20000
    chunks = [(a.stockfish, lines[i:i + size], a.lam, a.raw) for i in range(0, len(lines), size)]
    done = 0
    with open(a.out, "w") as out, ProcessPoolExecutor(a.jobs) as pool:
        for labelled in pool.map(label_chunk, chunks):
            out.write("\n".join(labelled) + "\n")
            done += len(labelled)
            print(f"{done} positions labelled", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
