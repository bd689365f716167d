#!/usr/bin/env python3
"""Perft speed of castella against Stockfish's `go perft`, same positions and
depths, single thread, in one run (ratios, not absolute times).

usage: bench/perft-vs-stockfish.py [--castella target/release/castella]
                                   [--stockfish /usr/games/stockfish] [--quick]
"""
import argparse, subprocess, time, re, sys

POSITIONS = [
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 7),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 6),
    ("frc-0", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", 7),
    ("frc-333", "nrqbkrbn/pppppppp/8/8/8/8/PPPPPPPP/NRQBKRBN w FBfb - 0 1", 7),
    ("frc-959", "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1", 7),
]

def run_castella(exe, fen, depth):
    t = time.perf_counter()
    out = subprocess.run([exe, "perft", str(depth), "--fen", fen], capture_output=True, text=True, check=True).stdout
    dt = time.perf_counter() - t
    return int(re.search(r"Nodes searched: (\d+)", out).group(1)), dt

def run_stockfish(exe, fen, depth):
    p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write("setoption name UCI_Chess960 value true\nsetoption name Threads value 1\nisready\n")
    p.stdin.flush()
    while "readyok" not in p.stdout.readline():
        pass
    t = time.perf_counter()
    p.stdin.write(f"position fen {fen}\ngo perft {depth}\n")
    p.stdin.flush()
    for line in p.stdout:
        if line.startswith("Nodes searched"):
            dt = time.perf_counter() - t
            nodes = int(line.split()[-1])
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    return nodes, dt

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--castella", default="target/release/castella")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--quick", action="store_true", help="one depth less")
    a = ap.parse_args()
    print(f"{'position':10} {'depth':>5} {'nodes':>12} {'castella Mn/s':>14} {'stockfish Mn/s':>15} {'ratio':>6}")
    ratios = []
    for name, fen, depth in POSITIONS:
        depth -= a.quick
        sn, st = run_stockfish(a.stockfish, fen, depth)
        cn, ct = run_castella(a.castella, fen, depth)
        if sn != cn:
            print(f"{name}: node counts differ: stockfish {sn}, castella {cn}")
            sys.exit(1)
        r = (cn / ct) / (sn / st)
        ratios.append(r)
        print(f"{name:10} {depth:>5} {cn:>12} {cn / ct / 1e6:>14.1f} {sn / st / 1e6:>15.1f} {r:>6.2f}")
    geo = 1.0
    for r in ratios:
        geo *= r
    print(f"geometric mean ratio: {geo ** (1 / len(ratios)):.2f}")

if __name__ == "__main__":
    main()
