#!/usr/bin/env python3
"""Moves what depends on strength along with a new network: the win-rate
model and the UCI_Elo ladder.

    python3 bench/tools/calibrate.py wdl --data target/native/release/data \\
        ~/castella-data/NEW-NET-GAMES*.games --apply-value engine/src/value.rs
    python3 bench/tools/calibrate.py elo --match ../shared/tools/match.py \\
        --castella ./castella --stockfish /usr/games/stockfish \\
        --settings 1500,1900,2300,2500,TOP --games 100 --tc 10+0.1 \\
        --out ~/matches/ladder --full-nodes 230000 --apply-strength engine/src/strength.rs
    python3 bench/tools/calibrate.py all ...   (both, with the options of each)

`wdl` fits the win-rate model (`data wdl --filter`) on games of the
network's own build and writes the fitted constants into value.rs: the
normalised scores (+100 = half the games won) and `UCI_ShowWDL` follow.

`elo` plays Castella at each `UCI_Elo` setting against Stockfish 15.1 at
the same number (elo-ladder.py; TOP is the top setting, full strength,
played against Stockfish's strongest limited level), and fits what the
settings mean from the results, assuming each measured strength moves
one for one with the level or, above the MultiPV range, with the log of
the node cap:
- MAX_ELO, the top setting, becomes the strength measured at full
  strength, rounded to 10;
- each MultiPV knot (setting, level) at or below 2300 moves its level by
  the setting less the strength measured there;
- the single-PV node cap (SINGLE_PV_NODES at SINGLE_PV_ELO) moves, at
  the known slope (a doubling every SINGLE_PV_DOUBLING Elo), by what
  each setting above 2300 missed its label by, from the nodes it
  searched: the cap, or the nodes Castella searches a move at the clock
  (--full-nodes) where that is fewer. Stockfish's limited levels are not
  one scale with its full strength at a fast clock, so the full-strength
  point does not enter the cap.
Rebuild after `--apply-strength`, then run `elo` again to check that every
setting measures within about 100 Elo of itself (the table it prints).
"""

import argparse
import importlib.util
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


# ---- The win-rate model ---------------------------------------------------

def fit_wdl(data, files):
    """Runs `data wdl --filter FILES`; returns (positions, A, B)."""
    out = subprocess.run([data, "wdl", "--filter", *files], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    if out.returncode != 0:
        sys.exit(f"calibrate: data wdl failed:\n{out.stdout}")
    consts = dict(re.findall(r"pub const (WDL_[AB]): \[f64; 3\] = (\[[^\]]*\]);", out.stdout))
    count = re.search(r"^(\d+) positions$", out.stdout, re.M)
    if len(consts) != 2 or not count:
        sys.exit(f"calibrate: no fit in data wdl's output:\n{out.stdout}")
    return int(count.group(1)), consts["WDL_A"], consts["WDL_B"]


def apply_wdl(path, positions, files, a, b):
    """Writes the constants and where they came from into value.rs."""
    text = open(path, encoding="utf-8").read()
    names = ", ".join(os.path.basename(f) for f in files)
    subs = [
        (r"const WDL_A: \[f64; 3\] = \[[^\]]*\];", f"const WDL_A: [f64; 3] = {a};"),
        (r"const WDL_B: \[f64; 3\] = \[[^\]]*\];", f"const WDL_B: [f64; 3] = {b};"),
        (r"/// Fitted by calibrate\.py: .*", f"/// Fitted by calibrate.py: {positions} positions of {names}."),
    ]
    for pattern, new in subs:
        text, n = re.subn(pattern, lambda _: new, text)
        if n != 1:
            sys.exit(f"calibrate: {path} has no line matching {pattern!r}")
    open(path, "w", encoding="utf-8").write(text)


def wdl(args):
    positions, a, b = fit_wdl(args.data, args.files)
    print(f"win-rate model on {positions} positions: WDL_A = {a}, WDL_B = {b}")
    if args.apply_value:
        apply_wdl(args.apply_value, positions, args.files, a, b)
        print(f"wrote {args.apply_value}")


# ---- The UCI_Elo ladder ---------------------------------------------------

def strength_constants(path):
    """The ladder's constants as strength.rs has them."""
    text = open(path, encoding="utf-8").read()

    def number(name):
        m = re.search(rf"const {name}: \w+ = ([\d_.]+);", text)
        if not m:
            sys.exit(f"calibrate: {path} has no constant {name}")
        return float(m.group(1).replace("_", ""))

    knots = re.search(r"const CALIBRATION: \[\(f64, f64\); \d+\] = \[(.*?)\];", text, re.S)
    if not knots:
        sys.exit(f"calibrate: {path} has no CALIBRATION table")
    pairs = [(float(e), float(l)) for e, l in re.findall(r"\(([\d.]+), ([\d.]+)\)", knots.group(1))]
    return {
        "text": text,
        "max_elo": int(number("MAX_ELO")),
        "multipv_top": int(number("MULTIPV_TOP")),
        "pv_elo": number("SINGLE_PV_ELO"),
        "pv_nodes": number("SINGLE_PV_NODES"),
        "pv_doubling": number("SINGLE_PV_DOUBLING"),
        "knots": pairs,
    }


def node_cap(c, setting):
    return c["pv_nodes"] * 2 ** ((setting - c["pv_elo"]) / c["pv_doubling"])


def two_figures(x):
    """x to two significant figures."""
    return round(x, 1 - int(math.floor(math.log10(x))))


def fit(c, measured, full_nodes):
    """New constants from {setting: measured strength}; TOP's key is
    c["max_elo"]."""
    new = dict(c)
    top = measured.get(c["max_elo"])
    if top is not None:
        new["max_elo"] = int(round(top / 10.0) * 10)
    knots = []
    for elo, level in c["knots"]:
        m = measured.get(int(elo))
        knots.append((elo, level + (elo - m) if m is not None else level))
    new["knots"] = knots
    # The node cap: each single-PV setting asks for the nodes that would
    # have played at its label, at the known slope, from the nodes it
    # searched (the cap, or fewer where the clock ran out first); the cap
    # at SINGLE_PV_ELO is the mean of their asks in log2. Each setting is
    # judged against its own Stockfish level only: those levels are not
    # one scale with full strength, so no line is drawn through the top.
    asks = []
    for s, m in measured.items():
        if c["multipv_top"] < s < c["max_elo"]:
            searched = node_cap(c, s)
            if full_nodes:
                searched = min(searched, full_nodes)
            asks.append(math.log2(searched) + (c["pv_elo"] - m) / c["pv_doubling"])
    if asks:
        new["pv_nodes"] = two_figures(2 ** (sum(asks) / len(asks)))
    return new


def apply_strength(path, c, new):
    text = c["text"]
    knots = ",\n".join(f"    ({e:.1f}, {l:.1f})" for e, l in new["knots"])
    subs = [
        (r"pub const MAX_ELO: u32 = [\d_]+;", f"pub const MAX_ELO: u32 = {new['max_elo']};"),
        (r"const SINGLE_PV_NODES: f64 = [\d_.]+;", f"const SINGLE_PV_NODES: f64 = {int(new['pv_nodes']):_}.0;"),
        (r"const SINGLE_PV_DOUBLING: f64 = [\d_.]+;", f"const SINGLE_PV_DOUBLING: f64 = {new['pv_doubling']:.1f};"),
        (r"const CALIBRATION: \[\(f64, f64\); (\d+)\] = \[.*?\];",
         f"const CALIBRATION: [(f64, f64); {len(new['knots'])}] = [\n{knots},\n];"),
    ]
    for pattern, line in subs:
        text, n = re.subn(pattern, lambda _: line, text, flags=re.S)
        if n != 1:
            sys.exit(f"calibrate: {path} has no line matching {pattern!r}")
    open(path, "w", encoding="utf-8").write(text)


def load_ladder():
    spec = importlib.util.spec_from_file_location("elo_ladder", os.path.join(HERE, "elo-ladder.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def elo(args):
    c = strength_constants(args.strength)
    ladder = load_ladder()
    settings = [c["max_elo"] if s.strip().upper() == "TOP" else int(s)
                for s in args.settings.split(",")]
    os.makedirs(args.out, exist_ok=True)
    measured = {}
    print(f"{'UCI_Elo':>8} {'Stockfish':>9} {'games':>6} {'W/D/L':>12} {'Elo diff':>14} {'measured':>9}")
    for s in settings:
        # Full strength plays Stockfish's top level; the others their own.
        run_args = argparse.Namespace(**vars(args))
        run_args.opponent_offset = args.stockfish_max - s if s == c["max_elo"] else 0
        opponent, r = ladder.run(run_args, s)
        e, err = r.get("elo"), r.get("elo_error")
        wdl_text = f"{r['wins']}/{r['draws']}/{r['losses']}"
        if e is None:
            print(f"{s:>8} {opponent:>9} {r['games']:>6} {wdl_text:>12} {'n/a':>14} {'n/a':>9}")
            continue
        measured[s] = opponent + e
        print(f"{s:>8} {opponent:>9} {r['games']:>6} {wdl_text:>12} "
              f"{e:+8.0f} +/- {err or 0:3.0f} {measured[s]:9.0f}", flush=True)
    new = fit(c, measured, args.full_nodes)
    print(f"MAX_ELO {c['max_elo']} -> {new['max_elo']}")
    print(f"single-PV cap: {c['pv_nodes']:.0f} nodes at {c['pv_elo']:.0f}, doubling every "
          f"{c['pv_doubling']:.0f} -> {new['pv_nodes']:.0f}, {new['pv_doubling']:.0f}")
    print("MultiPV knots: " + ", ".join(f"({e:.0f}, {l:.0f})" for e, l in new["knots"]))
    if args.apply_strength:
        apply_strength(args.apply_strength, c, new)
        print(f"wrote {args.apply_strength}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    w = argparse.ArgumentParser(add_help=False)
    w.add_argument("--data", default="target/native/release/data", help="the data tool")
    w.add_argument("--apply-value", metavar="VALUE_RS", help="write the fit into this value.rs")
    e = argparse.ArgumentParser(add_help=False)
    e.add_argument("--match", required=True, help="path to match.py")
    e.add_argument("--castella", required=True)
    e.add_argument("--stockfish", required=True)
    e.add_argument("--stockfish-max", type=int, default=2850, help="Stockfish's top UCI_Elo")
    e.add_argument("--settings", default="1500,1900,2300,2500,TOP")
    e.add_argument("--games", type=int, default=100)
    e.add_argument("--tc", default="10+0.1")
    e.add_argument("--concurrency", type=int, default=2)
    e.add_argument("--seed", type=int, default=21)
    e.add_argument("--out", default=".")
    e.add_argument("--full-nodes", type=float, default=0,
                   help="nodes a move at full strength at this clock (for the node-cap fit)")
    e.add_argument("--strength", default="engine/src/strength.rs", help="where the ladder is read")
    e.add_argument("--apply-strength", metavar="STRENGTH_RS", help="write the fit into this strength.rs")
    p = sub.add_parser("wdl", parents=[w], help="refit the win-rate model")
    p.add_argument("files", nargs="+")
    sub.add_parser("elo", parents=[e], help="measure and refit the UCI_Elo ladder")
    p = sub.add_parser("all", parents=[w, e], help="both")
    p.add_argument("files", nargs="+")
    args = ap.parse_args()
    if args.command in ("wdl", "all"):
        wdl(args)
    if args.command in ("elo", "all"):
        elo(args)


if __name__ == "__main__":
    main()
