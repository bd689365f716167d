#!/usr/bin/env python3
"""Where a match's decisive games were decided, by the material on the board.

    python3 bench/tools/match-phases.py match.pgn ENGINE [--threshold 2.0]

For every decisive game of a match.py (or cutechess) PGN whose moves carry
`{+0.27/15 ...}` comments, finds the first move after which the mover's
score, in pawns, reached the threshold either way, and counts the game for
ENGINE as won or lost in the phase of that moment: the non-pawn material
of both sides together (knight and bishop 3, rook 5, queen 9; 62 at the
start). An engine that wins its endgames and loses its middlegames shows
it here long before its Elo says where to look.

Needs python-chess (bench/tools/requirements.txt).
"""

import argparse
import collections
import re
import sys

import chess
import chess.pgn

PHASES = [(50, "opening (non-pawn material 50-62)"),
          (30, "middlegame (30-49)"),
          (14, "late middlegame (14-29)"),
          (0, "endgame (0-13)")]
VALUES = {chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
SCORE = re.compile(r"\s*([+-]?\d+(?:\.\d+)?|[+-]?M\d+)/")


def phase(board):
    material = sum(len(board.pieces(p, c)) * v
                   for p, v in VALUES.items() for c in chess.COLORS)
    return next(name for floor, name in PHASES if material >= floor)


def decided_at(game, threshold):
    """The phase at which a score first reached the threshold, or None."""
    board = game.board()
    for node in game.mainline():
        board.push(node.move)
        m = SCORE.match(node.comment or "")
        if m and ("M" in m.group(1) or abs(float(m.group(1))) >= threshold):
            return phase(board)
    return None


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("pgn")
    p.add_argument("engine", help="the name in the White/Black tags")
    p.add_argument("--threshold", type=float, default=2.0,
                   help="score in pawns that decides a game (2.0)")
    a = p.parse_args()
    counts = collections.Counter()
    with open(a.pgn) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            result = game.headers.get("Result")
            white = game.headers.get("White") == a.engine
            if result not in ("1-0", "0-1"):
                continue
            if not white and game.headers.get("Black") != a.engine:
                sys.exit(f"error: {a.engine} plays neither side of a game")
            won = (result == "1-0") == white
            counts[(decided_at(game, a.threshold), won)] += 1
    print(f"{a.engine}'s decisive games by the phase where a score first "
          f"reached {a.threshold:g}:")
    for _, name in PHASES + [(None, None)]:
        w, l = counts[(name, True)], counts[(name, False)]
        if w or l:
            print(f"  {name or 'never reached'}: won {w}, lost {l}")


if __name__ == "__main__":
    main()
