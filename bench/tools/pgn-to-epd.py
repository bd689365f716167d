#!/usr/bin/env python3
"""Turn PGN games into `FEN RESULT` lines for the Texel tuner (bench/src/bin/tune.rs).

Reads the games written by shared/tools/match.py (Chess960 games carry
[Variant "Chess960"] and [FEN ...] tags; standard games work too) and writes
one line per kept position: a Shredder-FEN for Chess960 boards (plain FEN
otherwise) and the game result from White's point of view (1-0, 0-1, 1/2-1/2).

A position (the board after a move) is skipped when
  - it comes before ply --skip-plies (counted from the game's start FEN),
  - the side to move is in check, or the game is over there,
  - the move's comment shows a mate score ("+M5/12 0.1s", "-M3", "#"),
  - --skip-captures is given and the move that led to it was a capture,
  - it is not one of every --every K-th position (random offset per game).
Games that end by an engine fault (time forfeit, illegal move, crash) or
without a result are skipped: their result says little about the positions.

Example:
  python3 bench/tools/pgn-to-epd.py selfplay.pgn --skip-plies 8 --every 2 --out data.epd
"""

import argparse
import random
import re
import sys

import chess
import chess.pgn

RESULTS = ("1-0", "0-1", "1/2-1/2")
FAULT_TERMINATIONS = ("time forfeit", "rules infraction", "abandoned")
MATE = re.compile(r"(^|[\s{(])[+-]?M\d+|#")


def game_positions(game, args, rng, stats):
    """Yield the FENs of the kept positions of one game."""
    board = game.board()
    offset = rng.randrange(args.every)
    for ply, node in enumerate(game.mainline(), start=1):
        move = node.move
        capture = board.is_capture(move)
        board.push(move)
        if ply < args.skip_plies or (ply - offset) % args.every != 0:
            continue
        if MATE.search(node.comment or ""):
            stats["mate"] += 1
        elif board.is_check():
            stats["check"] += 1
        elif args.skip_captures and capture:
            stats["capture"] += 1
        elif board.is_game_over(claim_draw=False):
            stats["over"] += 1
        else:
            yield board.fen(shredder=True) if board.chess960 else board.fen()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pgn", nargs="+", help="PGN files to read")
    parser.add_argument("--out", help="output file (default: standard output)")
    parser.add_argument("--skip-plies", type=int, default=8, metavar="N",
                        help="skip the positions of the first N plies (default 8)")
    parser.add_argument("--skip-captures", action="store_true",
                        help="skip positions reached by a capture")
    parser.add_argument("--every", type=int, default=1, metavar="K",
                        help="keep every K-th position of a game, from a random offset (default 1: all)")
    parser.add_argument("--seed", type=int, default=0, help="seed for the sampling offsets (default 0)")
    args = parser.parse_args()
    if args.every < 1 or args.skip_plies < 0:
        parser.error("--every must be at least 1 and --skip-plies at least 0")

    rng = random.Random(args.seed)
    stats = {"games": 0, "skipped games": 0, "positions": 0, "check": 0, "mate": 0, "capture": 0, "over": 0}
    out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout
    try:
        for path in args.pgn:
            with open(path, encoding="utf-8", errors="replace") as pgn:
                while (game := chess.pgn.read_game(pgn)) is not None:
                    result = game.headers.get("Result", "*")
                    termination = game.headers.get("Termination", "normal").lower()
                    if result not in RESULTS or termination in FAULT_TERMINATIONS or game.errors:
                        stats["skipped games"] += 1
                        continue
                    stats["games"] += 1
                    for fen in game_positions(game, args, rng, stats):
                        out.write(f"{fen} {result}\n")
                        stats["positions"] += 1
    finally:
        if out is not sys.stdout:
            out.close()
    print(", ".join(f"{k}: {v}" for k, v in stats.items()), file=sys.stderr)


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:  # e.g. piped into head
        sys.stderr.close()
