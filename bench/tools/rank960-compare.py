#!/usr/bin/env python3
"""Compare rankings of the 960 start positions.

  rank960-compare.py A.csv B.csv
      rank correlation (Spearman) between two `castella rank960` CSV outputs
      (e.g. --nodes 200000 against --nodes 2000000)

  rank960-compare.py A.csv --stockfish /usr/games/stockfish --nodes 1000000 [--jobs 2] [--out sf.csv]
      scores every position of A.csv with Stockfish at a fixed node count
      (UCI_Chess960, one thread, 16 MB, a fresh `ucinewgame` each) and
      reports the rank correlation with A; the Stockfish scores go to --out.

Only the standard library is needed.
"""
import argparse, csv, subprocess, sys
from concurrent.futures import ThreadPoolExecutor


def read_rank960(path):
    """index -> (fen, score_cp) from a rank960 CSV (the ranking part only)."""
    out = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            if not (row.get("rank") or "").isdigit():
                break  # the --pairs section follows

            idx, score = row["index"], row["score_cp"]
            if idx == "-" or score.startswith("mate"):
                continue
            out[int(idx)] = (row["fen"], int(score))
    return out


def ranks(values):
    """Average ranks (ties share their mean rank)."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb)


def pearson(a, b):
    n = len(a)
    ma, mb = sum(a) / n, sum(b) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    return cov / ((sum((x - ma) ** 2 for x in a) * sum((y - mb) ** 2 for y in b)) ** 0.5)


class Stockfish:
    def __init__(self, exe):
        self.p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        for opt in ("UCI_Chess960 value true", "Threads value 1", "Hash value 16"):
            self.send(f"setoption name {opt}")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, token):
        for line in self.p.stdout:
            if line.startswith(token):
                return line
        raise RuntimeError("stockfish exited")

    def score(self, fen, nodes):
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        score = None
        for line in self.p.stdout:
            if line.startswith("info") and " score " in line and " pv " in line:
                t = line.split()
                i = t.index("score")
                if t[i + 1] == "cp":
                    score = int(t[i + 2])
                else:
                    m = int(t[i + 2])
                    score = 30000 - abs(m) if m > 0 else -30000 + abs(m)
            if line.startswith("bestmove"):
                return score


def shredder(fen):
    """X-FEN 'KQkq' of a start position -> Shredder-FEN file letters."""
    parts = fen.split()
    if parts[2] == "KQkq":
        rank1 = parts[0].split("/")[7]
        files = "".join("ABCDEFGH"[i] for i, c in enumerate(rank1) if c == "R")
        parts[2] = files[::-1] + files[::-1].lower()
    return " ".join(parts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("a")
    ap.add_argument("b", nargs="?")
    ap.add_argument("--stockfish")
    ap.add_argument("--nodes", type=int, default=1_000_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out")
    args = ap.parse_args()
    a = read_rank960(args.a)
    if args.b:
        b = read_rank960(args.b)
        label = args.b
    elif args.stockfish:
        items = sorted(a.items())
        chunks = [items[i :: args.jobs] for i in range(args.jobs)]

        def work(chunk):
            sf = Stockfish(args.stockfish)
            res = {}
            for k, (idx, (fen, _)) in enumerate(chunk):
                res[idx] = (fen, sf.score(shredder(fen), args.nodes))
                if k % 20 == 0:
                    print(f"\r{k}/{len(chunk)} per job", end="", file=sys.stderr, flush=True)
            sf.send("quit")
            return res

        b = {}
        with ThreadPoolExecutor(args.jobs) as ex:
            for r in ex.map(work, chunks):
                b.update(r)
        print(file=sys.stderr)
        label = f"stockfish nodes={args.nodes}"
        if args.out:
            with open(args.out, "w") as f:
                f.write("index,fen,score_cp\n")
                for idx, (fen, s) in sorted(b.items(), key=lambda kv: -kv[1][1]):
                    f.write(f"{idx},{fen},{s}\n")
    else:
        ap.error("give a second CSV or --stockfish")
    common = sorted(set(a) & set(b))
    xs = [a[i][1] for i in common]
    ys = [b[i][1] for i in common]
    print(f"{len(common)} positions: {args.a} vs {label}")
    print(f"Spearman rank correlation: {spearman(xs, ys):.3f}")
    print(f"Pearson correlation of scores: {pearson(xs, ys):.3f}")
    top = lambda d: [i for i, _ in sorted(((i, d[i][1]) for i in common), key=lambda t: -t[1])[:20]]
    print(f"top-20 overlap: {len(set(top(a)) & set(top(b)))}/20")
    if 518 in common:
        ra = sorted(common, key=lambda i: -a[i][1]).index(518) + 1
        rb = sorted(common, key=lambda i: -b[i][1]).index(518) + 1
        print(f"standard position (518): rank {ra} vs {rb}")


if __name__ == "__main__":
    main()
