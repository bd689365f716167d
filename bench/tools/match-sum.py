#!/usr/bin/env python3
"""Sum the game pairs of one or more match PGNs into one result.

    match-sum.py --engine NAME [--elo0 0 --elo1 10] A.pgn [B.pgn ...]

A match played in several runs (an SPRT continued with a new seed, a run
stopped for the session's time) is judged on all its pairs together, as
if it had been one run. Games are paired as `match.py` plays them: the
same opening with colours swapped, Rounds 2k-1 and 2k of one file (the
order the games finished in does not matter), or, in a file where
rounds repeat (fastchess numbers both games of a pair alike), the two
games of one Round. An unfinished pair (one
game of two) is left out of the pentanomial and counted in W/D/L.

Prints W/D/L for NAME, the pentanomial (pairs scoring 0, 1/2, 1, 3/2, 2
points), the Elo difference with its 95% interval from the pairs'
variance, and the log-likelihood ratio of an SPRT [elo0, elo1] (logistic
Elo, the usual normal approximation of the generalised SPRT), with
the bounds for alpha = beta = 0.05 (±2.94).

Standard library only: it reads the PGN headers as text.
"""

import argparse
import math
import re
import sys

HEADER = re.compile(r'^\[(\w+) "(.*)"\]\s*$')


def games(path):
    """Yields each game's headers as a dict; a header line after a game's
    moves begins the next game."""
    tags, in_moves = {}, False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = HEADER.match(line)
            if m:
                if in_moves:
                    yield tags
                    tags, in_moves = {}, False
                tags[m.group(1)] = m.group(2)
            elif line.strip() and tags:
                in_moves = True
    if tags:
        yield tags


def points(tags, name):
    """NAME's points in one game (1, 1/2, 0), or None if NAME did not
    play it or it has no result."""
    result = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}
    r = result.get(tags.get("Result", "*"))
    if r is None:
        return None
    if tags.get("White") == name:
        return r[0]
    if tags.get("Black") == name:
        return r[1]
    return None


def elo(score):
    """Logistic Elo difference of an expected score in (0, 1)."""
    score = min(max(score, 1e-9), 1 - 1e-9)
    return -400.0 * math.log10(1.0 / score - 1.0)


def expected(elo_diff):
    return 1.0 / (1.0 + 10.0 ** (-elo_diff / 400.0))


def tally(paths, name):
    """W/D/L over every game NAME played, and the pentanomial over the
    finished pairs."""
    wdl = [0, 0, 0]
    penta = [0] * 5
    for path in paths:
        played = []
        for tags in games(path):
            p = points(tags, name)
            if p is None:
                continue
            wdl[{1.0: 0, 0.5: 1, 0.0: 2}[p]] += 1
            try:
                played.append((int(tags.get("Round", "")), p))
            except ValueError:
                continue
        rounds = [r for r, _ in played]
        repeated = len(set(rounds)) < len(rounds)
        pairs = {}
        for r, p in played:
            pairs.setdefault(r if repeated else (r + 1) // 2, []).append(p)
        for scores in pairs.values():
            if len(scores) == 2:
                penta[int(round(2 * sum(scores)))] += 1
    return wdl, penta


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", required=True, help="the engine whose result is given")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=10.0)
    ap.add_argument("pgn", nargs="+")
    args = ap.parse_args()

    try:
        wdl, penta = tally(args.pgn, args.engine)
    except OSError as e:
        sys.exit(f"match-sum: {e}")
    w, d, l = wdl
    print(f"{args.engine}: {w + d + l} games, W/D/L {w}/{d}/{l}")
    pairs = sum(penta)
    print("pentanomial (0, 1/2, 1, 3/2, 2 points): " + "/".join(map(str, penta)) + f" ({pairs} pairs)")
    if pairs < 2:
        print("too few finished pairs for an estimate")
        return
    # Each pair's score as a fraction of its two points.
    xs = [0.0, 0.25, 0.5, 0.75, 1.0]
    mean = sum(n * x for n, x in zip(penta, xs)) / pairs
    var = sum(n * (x - mean) ** 2 for n, x in zip(penta, xs)) / pairs
    half = 1.959964 * math.sqrt(var / pairs)
    lo, hi = elo(mean - half), elo(mean + half)
    print(f"Elo {elo(mean):+.1f} ± {(hi - lo) / 2:.1f} (95%: {lo:+.1f} to {hi:+.1f})")
    if var > 0:
        s0, s1 = expected(args.elo0), expected(args.elo1)
        llr = pairs * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
        print(f"LLR {llr:.2f} for SPRT [{args.elo0:g}, {args.elo1:g}] (bounds −2.94, 2.94)")


if __name__ == "__main__":
    main()
