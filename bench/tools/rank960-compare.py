#!/usr/bin/env python3
"""Compare rankings of the 960 start positions.

  rank960-compare.py A B
      rank correlation (Spearman) between two rankings; each is a
      `castella rank960` CSV, a CSV with `index` and `score_cp` columns
      (what --out below writes), or JSON lines with `id` and Stockfish's
      last `info` score (the form of the published clfs/eval960 analyses)

  rank960-compare.py A.csv --stockfish /usr/games/stockfish --nodes 1000000 [--jobs 2] [--out sf.csv]
      scores every position of A.csv with Stockfish at a fixed node count
      (UCI_Chess960, one thread, 16 MB, a fresh `ucinewgame` each) and
      reports the rank correlation with A; the Stockfish scores go to --out.

Only the standard library is needed.
"""
import argparse, csv, json, sys
from concurrent.futures import ThreadPoolExecutor

from uci_engine import UciEngine


def read_rank960(path):
    """index -> (fen, score_cp) from any of the forms above (mates and
    unnamed positions left out)."""
    out = {}
    with open(path) as f:
        first = f.readline()
        f.seek(0)
        if first.lstrip().startswith("{"):
            for line in f:
                if not line.strip():
                    continue
                row = json.loads(line)
                score = row["info"][-1]["score"]
                if score.get("cp") is not None:
                    out[int(row["id"])] = (row["fen"], int(score["cp"]))
            return out
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            rank = row.get("rank")
            if rank is not None and rank != "-" and not rank.isdigit():
                break  # the --pairs section follows ("-": a partial file's row)
            idx, score = row["index"], row["score_cp"]
            if not idx.isdigit() or score.startswith("mate"):
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
            sf = UciEngine(args.stockfish, {"Threads": 1, "Hash": 16})
            res = {}
            for k, (idx, (fen, _)) in enumerate(chunk):
                res[idx] = (fen, sf.search(shredder(fen), [], args.nodes)[1])
                if k % 20 == 0:
                    print(f"\r{k}/{len(chunk)} per job", end="", file=sys.stderr, flush=True)
            sf.close()
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
