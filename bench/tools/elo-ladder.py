#!/usr/bin/env python3
"""Calibrates UCI_Elo: Castella at each setting against Stockfish at the same.

    python3 bench/tools/elo-ladder.py --match ../shared/tools/match.py \
        --castella target/release/castella --stockfish /usr/games/stockfish \
        --settings 1500,1900,2300,2880 --games 100 --tc 10+0.1 --seed 21

Stockfish's own `UCI_Elo` is the scale (anchored to CCRL). For every
setting it runs a match (match.py, Chess960 openings, game pairs) of
Castella with `UCI_LimitStrength` at that `UCI_Elo` against Stockfish
limited to the same number, and prints one row each: the setting, W/D/L,
the Elo difference with its 95% error, and the strength measured (the
setting plus the difference). A calibrated ladder measures each setting
within about 100 Elo of itself. --opponent-offset plays Stockfish that
many Elo away from the setting (to keep the score off 0% or 100%); the
measured strength accounts for it. Each match's PGN and log go to --out.
"""

import argparse
import json
import os
import subprocess
import sys


def run(args, setting):
    opponent = setting + args.opponent_offset
    stem = os.path.join(args.out, f"ladder-{setting}")
    cmd = [sys.executable, args.match,
           "--engine", f"cmd={args.castella}", "name=castella", "option.Hash=16",
           "option.UCI_LimitStrength=true", f"option.UCI_Elo={setting}",
           "--engine", f"cmd={args.stockfish}", "name=stockfish", "option.Hash=16",
           "option.UCI_LimitStrength=true", f"option.UCI_Elo={opponent}",
           "--tc", args.tc, "--games", str(args.games), "--concurrency", str(args.concurrency),
           "--seed", str(args.seed), "--pgn", stem + ".pgn"]
    with open(stem + ".log", "w") as log:
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=log, text=True).stdout
        log.write(out)
    lines = [line for line in out.splitlines() if line.startswith("RESULT ")]
    if not lines:
        sys.exit(f"setting {setting}: no RESULT line from match.py (see {stem}.log)")
    return opponent, json.loads(lines[-1][len("RESULT "):])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--match", required=True, help="path to match.py")
    ap.add_argument("--castella", required=True)
    ap.add_argument("--stockfish", required=True)
    ap.add_argument("--settings", default="1500,1900,2300,2880")
    ap.add_argument("--opponent-offset", type=int, default=0)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--tc", default="10+0.1")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--out", default=".")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    print(f"{'UCI_Elo':>8} {'Stockfish':>9} {'games':>6} {'W/D/L':>12} {'Elo diff':>14} {'measured':>9}")
    for setting in [int(s) for s in args.settings.split(",")]:
        opponent, r = run(args, setting)
        elo, err = r.get("elo"), r.get("elo_error")
        wdl = f"{r['wins']}/{r['draws']}/{r['losses']}"
        if elo is None:
            diff, measured = "n/a", "n/a"
        else:
            diff = f"{elo:+.0f} +/- {err:.0f}" if err is not None else f"{elo:+.0f}"
            measured = f"{opponent + elo:.0f}"
        faults = sum(v.get("time_losses", 0) + v.get("illegal_moves", 0) + v.get("crashes", 0)
                     for v in r["per_engine"].values())
        print(f"{setting:>8} {opponent:>9} {r['games']:>6} {wdl:>12} {diff:>14} {measured:>9}"
              + (f"  faults {faults}" if faults else ""), flush=True)


if __name__ == "__main__":
    main()
