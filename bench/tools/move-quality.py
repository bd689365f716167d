#!/usr/bin/env python3
"""Judge engines' moves with a stronger engine: a cheap yardstick for nets.

    move-quality.py pick [--count N] [--seed S] DUMP > positions.fen
    move-quality.py score --positions FILE --judge CMD [--judge-nodes N]
        [--nodes N] [--cache FILE] [--workers W]
        --engine name=A cmd=PATH [option.X=Y ...] --engine name=B ...

`pick` samples positions from the text of `data dump` (one `FEN | result |
score` line per position): not in check, past the first moves, with the
search's score within ±400 cp, so that the choice of move matters. It
writes Shredder-FEN lines.

`score` lets every engine choose a move in every position at a fixed node
count (one thread, `ucinewgame` before each position, so the choice is
deterministic), then has the judge (Stockfish 15.1 from
`shared/tools/setup-opponents.sh`) search the position after each chosen
move, and after its own choice, at a fixed node count. A move's loss is
the expected score it gives away against the best move judged:

    loss = E(best) - E(move),  E(cp) = 1 / (1 + exp(-cp / scale))

Every (position, move) the judge searched is kept in the cache file, so
a new engine costs only the positions where it chooses a move no engine
chose before. The report gives, per engine, how often it chose the judge's
move, its mean loss in percent of a point per move, and its mean loss
against the first engine's, paired by position, with a 95% interval.

Why: the validation error of a net on held-out positions stopped
predicting its strength in play once candidates came within about
0.0003 of each other, and a match that resolves 10 Elo takes thousands
of games. The judge sees the moves the net's search actually chooses.
"""

import argparse
import json
import math
import os
import queue
import random
import sys
import threading

import chess

from uci_engine import MATE_CP, UciEngine


def expected(cp, scale):
    return 1.0 / (1.0 + math.exp(-max(-MATE_CP, min(MATE_CP, cp)) / scale))


def parse_engine(words):
    spec = {"options": {}}
    for word in words:
        key, _, value = word.partition("=")
        if key.startswith("option."):
            spec["options"][key[len("option.") :]] = value
        else:
            spec[key] = value
    if "name" not in spec or "cmd" not in spec:
        sys.exit(f"--engine needs name= and cmd=: {' '.join(words)}")
    return spec


def pick(args):
    rng = random.Random(args.seed)
    chosen = []
    seen = 0
    with open(args.dump) as f:
        for line in f:
            parts = line.split(" | ")
            try:
                fen, score = parts[0], int(parts[2])
                move_number = int(fen.split()[5])
                board = chess.Board(fen, chess960=True)
            except (IndexError, ValueError):
                continue  # not a position line of `data dump`
            if abs(score) > 400 or move_number < 8:
                continue
            if board.is_check() or board.is_game_over():
                continue
            # Reservoir sampling: each eligible position equally likely.
            seen += 1
            if len(chosen) < args.count:
                chosen.append(board.fen(shredder=True))
            else:
                j = rng.randrange(seen)
                if j < args.count:
                    chosen[j] = board.fen(shredder=True)
    for fen in chosen:
        print(fen)
    print(f"{len(chosen)} positions of {seen} eligible", file=sys.stderr)


def run_pool(jobs, workers, make, work):
    """Runs work(process, job) for every job on `workers` processes made
    by make(); returns the results in the jobs' order."""
    results = [None] * len(jobs)
    todo = queue.Queue()
    for i, job in enumerate(jobs):
        todo.put((i, job))
    errors = []

    def loop():
        try:
            proc = make()
        except Exception as e:  # an engine that cannot start
            errors.append(e)
            return
        try:
            while True:
                try:
                    i, job = todo.get_nowait()
                except queue.Empty:
                    return
                results[i] = work(proc, job)
        except Exception as e:  # reported after the pool stops
            errors.append(e)
        finally:
            proc.close()

    threads = [threading.Thread(target=loop) for _ in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return results


def child_value(fen, move):
    """The value of a move that ends the game, for the side that made it,
    or None when the game goes on."""
    board = chess.Board(fen, chess960=True)
    board.push(board.parse_uci(move))
    if board.is_checkmate():
        return MATE_CP
    if board.is_game_over(claim_draw=False):
        return 0
    return None


def score(args):
    fens = [line.strip() for line in open(args.positions) if line.strip()]
    engines = [parse_engine(words) for words in args.engine]
    cache = {}
    if args.cache and os.path.exists(args.cache):
        with open(args.cache) as f:
            stored = json.load(f)
        if stored.get("judge_nodes") == args.judge_nodes:
            cache = stored["scores"]
        else:
            print("cache: other judge nodes, not used", file=sys.stderr)

    def save():
        if args.cache:
            with open(args.cache + ".tmp", "w") as f:
                json.dump({"judge_nodes": args.judge_nodes, "scores": cache}, f)
            os.replace(args.cache + ".tmp", args.cache)

    def make_judge():
        return UciEngine(args.judge, {"Threads": 1, "Hash": 64})

    # 1. Every engine's choice, and the judge's own.
    choices = {}
    for spec in engines:
        make = lambda spec=spec: UciEngine(spec["cmd"], spec["options"])  # noqa: E731
        choices[spec["name"]] = run_pool(
            fens, args.workers, make, lambda p, fen: p.search(fen, [], args.nodes)[0]
        )
        print(f"{spec['name']}: moves chosen", file=sys.stderr)
    missing = [fen for fen in fens if f"best|{fen}" not in cache]
    if missing:
        found = run_pool(
            missing, args.workers, make_judge, lambda p, fen: p.search(fen, [], args.judge_nodes)[0]
        )
        for fen, move in zip(missing, found):
            cache[f"best|{fen}"] = move
        save()
    judge_best = [cache[f"best|{fen}"] for fen in fens]
    print("judge: moves chosen", file=sys.stderr)

    # 2. The judge's value of every move chosen, from the mover's side.
    every_choice = list(choices.values()) + [judge_best]
    wanted = sorted(
        {f"{fen}|{move}" for moves in every_choice for fen, move in zip(fens, moves)} - set(cache)
    )
    print(f"judge: {len(wanted)} new moves to value", file=sys.stderr)

    def value(p, key):
        fen, move = key.split("|")
        done = child_value(fen, move)
        if done is not None:
            return done
        _, cp = p.search(fen, [move], args.judge_nodes)
        return -cp

    for start in range(0, len(wanted), 200):
        part = wanted[start : start + 200]
        for key, cp in zip(part, run_pool(part, args.workers, make_judge, value)):
            cache[key] = cp
        save()
        print(f"judge: {start + len(part)}/{len(wanted)}", file=sys.stderr)

    # 3. Report: a move's loss is against the best move any engine or
    # the judge chose in its position.
    def value_of(fen, move):
        return expected(cache[f"{fen}|{move}"], args.scale)

    best = [max(value_of(fen, m[i]) for m in every_choice) for i, fen in enumerate(fens)]

    def losses(moves):
        return [b - value_of(fen, move) for b, fen, move in zip(best, fens, moves)]

    base = losses(choices[engines[0]["name"]])
    print(
        f"{len(fens)} positions; engines at {args.nodes} nodes, judge at {args.judge_nodes}; "
        f"loss in % of a point per move (scale {args.scale} cp)"
    )
    print(f"{'engine':<16} {'judge move':>10} {'loss':>8} {'vs ' + engines[0]['name']:>22}")
    for spec in engines:
        moves = choices[spec["name"]]
        ls = losses(moves)
        agree = sum(m == j for m, j in zip(moves, judge_best)) / len(fens)
        diff = [a - b for a, b in zip(ls, base)]
        mean = sum(diff) / len(diff)
        var = sum((d - mean) ** 2 for d in diff) / max(1, len(diff) - 1)
        half = 1.96 * math.sqrt(var / len(diff))
        differ = sum(1 for m, b in zip(moves, choices[engines[0]["name"]]) if m != b)
        print(
            f"{spec['name']:<16} {100 * agree:>9.1f}% {100 * sum(ls) / len(ls):>8.3f} "
            f"{100 * mean:>+10.3f} ± {100 * half:.3f} ({differ} differ)"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("pick", help="sample positions from `data dump` text")
    p.add_argument("dump")
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    s = sub.add_parser("score", help="judge the engines' moves")
    s.add_argument("--positions", required=True)
    s.add_argument("--judge", required=True, help="the judge's command (Stockfish)")
    s.add_argument("--judge-nodes", type=int, default=200000)
    s.add_argument("--nodes", type=int, default=20000, help="nodes a move for the engines")
    s.add_argument("--scale", type=float, default=270.0)
    s.add_argument("--cache")
    s.add_argument("--workers", type=int, default=2)
    s.add_argument("--engine", nargs="+", action="append", required=True)
    args = parser.parse_args()
    pick(args) if args.command == "pick" else score(args)


if __name__ == "__main__":
    main()
