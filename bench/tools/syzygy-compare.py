#!/usr/bin/env python3
"""Compares Castella's Syzygy probes with python-chess's prober.

    python3 bench/tools/syzygy-compare.py --tables ../shared/syzygy \
        --tbprobe target/release/tbprobe --per-table 200 --seed 1

For every table in the directory (KQvK, KRPvKR, ...), it places that
material at random until it has --per-table legal positions (side to move
random, no castling rights, an en-passant square where one is possible
now and then), probes each with python-chess (`chess.syzygy`: WDL after a
zeroing move, and DTZ) and with Castella (`tbprobe`, which reads FENs and
prints `FEN | wdl | dtz`), and counts mismatches per table. Exits non-zero
on any mismatch. Needs python-chess (`pip install chess`).
"""

import argparse
import os
import random
import subprocess
import sys

import chess
import chess.syzygy

from tbmaterial import place


def tables_in(directory):
    names = set()
    for f in os.listdir(directory):
        stem, ext = os.path.splitext(f)
        if ext == ".rtbw" and os.path.exists(os.path.join(directory, stem + ".rtbz")):
            names.add(stem)
    return sorted(names)


def random_position(name, rng):
    """A legal position with the material `name` (e.g. 'KRPvKR'), or None."""
    board = place(name, rng)
    if board is None:
        return None
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    if rng.random() < 0.3:
        # An en-passant square behind a pawn that could just have moved two.
        rank = 5 if board.turn == chess.WHITE else 2
        candidates = [s for s in chess.SQUARES if chess.square_rank(s) == rank]
        board.ep_square = rng.choice(candidates)
        if not board.has_legal_en_passant():
            board.ep_square = None
    if not board.is_valid():
        return None
    return board


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", required=True)
    ap.add_argument("--tbprobe", default="target/release/tbprobe")
    ap.add_argument("--per-table", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    names = tables_in(args.tables)
    boards = []
    for name in names:
        found = 0
        tries = 0
        while found < args.per_table and tries < args.per_table * 200:
            tries += 1
            b = random_position(name, rng)
            if b is not None:
                boards.append((name, b))
                found += 1
    fens = [b.fen() for _, b in boards]
    out = subprocess.run([args.tbprobe, args.tables], input="\n".join(fens) + "\n",
                         capture_output=True, text=True, check=True).stdout.splitlines()
    if len(out) != len(fens):
        sys.exit(f"tbprobe answered {len(out)} lines for {len(fens)} positions")
    stats = {}
    total_bad = 0
    with chess.syzygy.open_tablebase(args.tables) as tb:
        for (name, board), line in zip(boards, out):
            _, wdl, dtz = [x.strip() for x in line.split("|")]
            s = stats.setdefault(name, [0, 0, 0])
            try:
                want_wdl = tb.probe_wdl(board)
                want_dtz = tb.probe_dtz(board)
            except chess.syzygy.MissingTableError:
                # python-chess also probes the positions after captures
                # and promotions, and a table for one is not in the set:
                # it cannot answer, so there is nothing to compare.
                s[2] += 1
                continue
            ok = wdl == str(want_wdl) and dtz == str(want_dtz)
            s[0] += 1
            if not ok:
                s[1] += 1
                total_bad += 1
                if total_bad <= 10:
                    print(f"MISMATCH {name} {board.fen()}: castella wdl {wdl} dtz {dtz}, "
                          f"python-chess wdl {want_wdl} dtz {want_dtz}")
    for name in names:
        n, bad, skipped = stats.get(name, (0, 0, 0))
        extra = f" ({skipped} not comparable: python-chess lacks a table)" if skipped else ""
        print(f"{name:8} {n:6} positions {bad:4} mismatches{extra}")
    print(f"total: {sum(s[0] for s in stats.values())} positions compared in {len(stats)} tables, "
          f"{total_bad} mismatches, {sum(s[2] for s in stats.values())} not comparable")
    sys.exit(1 if total_bad else 0)


if __name__ == "__main__":
    main()
