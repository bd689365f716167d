#!/usr/bin/env python3
"""Does an engine convert won tablebase endings? Openings, then a score.

    python3 bench/tools/tb-conversion.py openings --tables ../shared/syzygy \
        --per-table 10 --seed 5 > ~/matches/tb-wins.epd
    python3 ../shared/tools/match.py --openings ~/matches/tb-wins.epd \
        --games 80 --pgn ~/matches/tb.pgn ...   # every opening twice
    python3 bench/tools/tb-conversion.py score --pgn ~/matches/tb.pgn \
        --tables ../shared/syzygy

`openings` places the material of each ending (KQvK, KRvK, KBNvK, KRPvKR
by default) at random, White to move, until it has --per-table positions
that the tables call a win for White at least --min-dtz plies from the next
capture or pawn move (so there is something to convert). `score` reads the
games (each opening is played twice, colours reversed) and counts, for each
engine and ending, the games where it held the winning side and how many
it won; a game it drew is a failed conversion, with the reason. Needs
python-chess (`pip install chess`).
"""

import argparse
import collections
import random
import sys

import chess
import chess.pgn
import chess.syzygy

from tbmaterial import PIECES, place


def material(board):
    """The ending's name as the tables spell it, White first (e.g. 'KRPvKR')."""
    order = "KQRBNP"
    sides = []
    for color in (chess.WHITE, chess.BLACK):
        sides.append("".join(
            letter * len(board.pieces(PIECES[letter], color)) for letter in order))
    return "v".join(sides)


def random_win(name, rng, tb, min_dtz):
    board = place(name, rng)
    if board is None:
        return None
    board.turn = chess.WHITE
    if not board.is_valid() or board.is_game_over():
        return None
    try:
        if tb.probe_wdl(board) != 2 or tb.probe_dtz(board) <= min_dtz:
            return None
    except chess.syzygy.MissingTableError:
        return None
    return board


def openings(args):
    rng = random.Random(args.seed)
    with chess.syzygy.open_tablebase(args.tables) as tb:
        for name in args.endings.split(","):
            found = 0
            for _ in range(args.per_table * 10_000):
                board = random_win(name, rng, tb, args.min_dtz)
                if board is not None:
                    print(board.epd())
                    found += 1
                    if found == args.per_table:
                        break
            if found < args.per_table:
                sys.exit(f"{name}: only {found} won positions found")


def score(args):
    tally = collections.defaultdict(lambda: [0, 0, collections.Counter()])
    with open(args.pgn) as f, chess.syzygy.open_tablebase(args.tables) as tb:
        while (game := chess.pgn.read_game(f)) is not None:
            board = game.board()
            name = material(board)
            try:
                wdl = tb.probe_wdl(board)
            except chess.syzygy.MissingTableError:
                continue
            if wdl != 2:
                continue
            winner = game.headers["White" if board.turn == chess.WHITE else "Black"]
            result = game.headers["Result"]
            won = result == ("1-0" if board.turn == chess.WHITE else "0-1")
            t = tally[(winner, name)]
            t[0] += 1
            if won:
                t[1] += 1
            else:
                t[2][game.headers.get("Termination", result)] += 1
    if not tally:
        sys.exit("no games from a won tablebase position in " + args.pgn)
    for (engine, name), (games, won, failures) in sorted(tally.items()):
        why = ", ".join(f"{n} {reason}" for reason, n in failures.items())
        print(f"{engine:12} {name:8} converted {won:3}/{games:<3}" + (f"  not: {why}" if why else ""))
    for engine in sorted({e for e, _ in tally}):
        games = sum(t[0] for (e, _), t in tally.items() if e == engine)
        won = sum(t[1] for (e, _), t in tally.items() if e == engine)
        print(f"{engine:12} all      converted {won:3}/{games:<3} ({100 * won / games:.0f}%)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    o = sub.add_parser("openings", help="won tablebase positions as EPD, White to move")
    o.add_argument("--tables", required=True)
    o.add_argument("--endings", default="KQvK,KRvK,KBNvK,KRPvKR")
    o.add_argument("--per-table", type=int, default=10)
    o.add_argument("--min-dtz", type=int, default=10)
    o.add_argument("--seed", type=int, default=5)
    s = sub.add_parser("score", help="conversions per engine and ending from a PGN")
    s.add_argument("--pgn", required=True)
    s.add_argument("--tables", required=True)
    args = ap.parse_args()
    openings(args) if args.command == "openings" else score(args)


if __name__ == "__main__":
    main()
