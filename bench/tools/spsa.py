#!/usr/bin/env python3
"""Tune the search's parameters by SPSA on this machine, as OpenBench does
on its workers.

    spsa.py --engine castella-tune --match ../shared/tools/match.py \\
        [--only NAME,NAME] [--iterations 2000] [--pairs 4] [--nodes 40000] \\
        [--concurrency 2] [--seed 1] [--state spsa.json] [-- MATCH ARGS]

`--engine` is a build with the `tune` feature (`cargo build --release
--features tune`): every parameter of `engine/src/params.rs` is a UCI
option there, and `castella spsa` lists them with their ranges and final
steps (`name, int, default, min, max, c_end, r_end`, OpenBench's input).
`--params FILE` reads those lines from a file instead.

Each iteration k of N perturbs every tuned parameter by ±c_k at random,
plays `--pairs` game pairs between the build set one way and the build
set the other way (`match.py`, Chess960 openings, a fixed node count by
default), and moves each parameter by R_k · c_k · (wins − losses) · ±1,
towards the side that scored more. The schedule is OpenBench's: c_k =
c_end · N^γ / k^γ and R_k = a_k / c_k², a_k = r_end · c_end² · (A + N)^α /
(A + k)^α, A = N / 10, α = 0.602, γ = 0.101, so the last iteration
steps by c_end and learns at r_end. `--c-scale F` multiplies every c_end
and `--r-end R` replaces every r_end: OpenBench's r_end 0.002 is meant
for tens of thousands of pairs, and a run of a few hundred iterations
needs about `--c-scale 2 --r-end 0.01` to move anything.

The state (the iteration reached and every parameter's value) is written
to `--state` after each iteration; a run started again with the same
state file goes on from there. Arguments after `--` go to `match.py`
(adjudication, for instance). Prints each iteration's result and, at the
end, the tuned values as `params.rs` lines; `--apply engine/src/params.rs`
also writes them into that file (run it again on a finished state to
apply a tune without playing).

Standard library only; `match.py` needs python-chess.
"""

import argparse
import importlib.util
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile

ALPHA = 0.602
GAMMA = 0.101


def load_match_sum():
    """`match-sum.py` beside this file, for its PGN header reader."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "match-sum.py")
    spec = importlib.util.spec_from_file_location("match_sum", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def parse_specs(text):
    """The parameters of OpenBench's SPSA lines, in order, as dicts."""
    specs = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != 7 or fields[1] != "int":
            raise ValueError(f"line {number}: expected 'name, int, default, min, max, "
                             f"c_end, r_end', got {line!r}")
        try:
            default, low, high = (int(f) for f in fields[2:5])
            c_end, r_end = float(fields[5]), float(fields[6])
        except ValueError as e:
            raise ValueError(f"line {number}: {e}") from None
        if not low <= default <= high or c_end <= 0 or r_end <= 0:
            raise ValueError(f"line {number}: default outside its range, or a step "
                             f"that is not positive: {line!r}")
        specs.append(dict(name=fields[0], default=default, min=low, max=high,
                          c_end=c_end, r_end=r_end))
    return specs


def schedule(spec, k, iterations):
    """(c_k, R_k) of `spec` at iteration k (1-based) of `iterations`."""
    big_a = iterations / 10
    c = spec["c_end"] * iterations ** GAMMA
    a_end = spec["r_end"] * spec["c_end"] ** 2
    a = a_end * (big_a + iterations) ** ALPHA
    c_k = c / k ** GAMMA
    a_k = a / (big_a + k) ** ALPHA
    return c_k, a_k / c_k ** 2


def nearest(x):
    """x rounded half up: the value played and the value printed agree."""
    return int(math.floor(x + 0.5))


def apply(path, values):
    """Writes each `name = N,` line's N in `params.rs` at `path`."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for name, value in values.items():
        line = re.compile(rf"^(\s*{re.escape(name)} = )-?\d+,", re.MULTILINE)
        text, found = line.subn(rf"\g<1>{value},", text)
        if found != 1:
            raise ValueError(f"{path} has {found} lines `{name} = N,`, not one")
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def clamp(spec, value):
    return min(spec["max"], max(spec["min"], value))


def play(args, plus, minus, seed, match_sum):
    """Plays the pairs; (wins, draws, losses) of the `plus` side."""
    with tempfile.TemporaryDirectory() as tmp:
        pgn = os.path.join(tmp, "games.pgn")
        cmd = [sys.executable, args.match]
        for name, values in (("plus", plus), ("minus", minus)):
            cmd += ["--engine", f"name={name}", f"cmd={args.engine}"]
            cmd += [f"option.{k}={v}" for k, v in values.items()]
            cmd += [f"option.{o}" for o in args.option]
        cmd += ["--games", str(2 * args.pairs), "--concurrency", str(args.concurrency),
                "--seed", str(seed), "--pgn", pgn]
        cmd += ["--tc", args.tc] if args.tc else ["--nodes", str(args.nodes)]
        cmd += args.match_args
        run = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True)
        if run.returncode != 0 or not os.path.exists(pgn):
            tail = run.stderr.strip()[-2000:]
            raise RuntimeError(f"match.py failed ({run.returncode}): {tail}")
        wins = draws = losses = 0
        for tags in match_sum.games(pgn):
            result = tags.get("Result")
            if result == "1/2-1/2":
                draws += 1
            elif result in ("1-0", "0-1"):
                white_won = result == "1-0"
                if (tags.get("White") == "plus") == white_won:
                    wins += 1
                else:
                    losses += 1
        return wins, draws, losses


def main():
    argv = sys.argv[1:]
    match_args = []
    if "--" in argv:
        at = argv.index("--")
        argv, match_args = argv[:at], argv[at + 1:]
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--engine", required=True, help="a --features tune build")
    p.add_argument("--match", required=True, help="path of match.py")
    p.add_argument("--params", help="SPSA lines (default: `ENGINE spsa`)")
    p.add_argument("--only", help="comma-separated parameters to tune (default all)")
    p.add_argument("--iterations", type=int, default=2000)
    p.add_argument("--pairs", type=int, default=4, help="game pairs per iteration")
    p.add_argument("--nodes", type=int, default=40000)
    p.add_argument("--tc", help="a clock instead of --nodes, e.g. 8+0.08")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--option", action="append", default=[],
                   help="NAME=VALUE, a UCI option for both sides (Hash=16)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--state", default="spsa.json")
    p.add_argument("--c-scale", type=float, default=1.0,
                   help="multiply every c_end (2 suits a run of a few hundred iterations)")
    p.add_argument("--r-end", type=float,
                   help="every parameter's r_end (default: the lines'; 0.01 for a short run)")
    p.add_argument("--apply", metavar="PARAMS_RS",
                   help="write the tuned values into this params.rs at the end")
    args = p.parse_args(argv)
    args.match_args = match_args
    if args.iterations < 1 or args.pairs < 1:
        p.error("--iterations and --pairs must be positive")
    if args.c_scale <= 0 or (args.r_end is not None and args.r_end <= 0):
        p.error("--c-scale and --r-end must be positive")

    if args.params:
        with open(args.params, encoding="utf-8") as f:
            text = f.read()
    else:
        try:
            text = subprocess.run([args.engine, "spsa"], capture_output=True, text=True,
                                  check=True).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            sys.exit(f"spsa.py: `{args.engine} spsa` failed: {e}")
    try:
        specs = parse_specs(text)
    except ValueError as e:
        sys.exit(f"spsa.py: {e}")
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {s["name"] for s in specs}
        if unknown:
            sys.exit(f"spsa.py: unknown parameters: {', '.join(sorted(unknown))}")
        specs = [s for s in specs if s["name"] in wanted]
    for s in specs:
        s["step"] = s["c_end"]  # params.rs's step, printed at the end
        s["c_end"] *= args.c_scale
        if args.r_end is not None:
            s["r_end"] = args.r_end

    state = dict(iteration=0, theta={s["name"]: float(s["default"]) for s in specs})
    if os.path.exists(args.state):
        try:
            with open(args.state, encoding="utf-8") as f:
                saved = json.load(f)
            int(saved["iteration"]), dict(saved["theta"])
        except (OSError, ValueError, KeyError, TypeError) as e:
            sys.exit(f"spsa.py: {args.state} is not a state this tool wrote: {e}")
        state["iteration"] = saved["iteration"]
        state["theta"].update({k: v for k, v in saved["theta"].items()
                               if k in state["theta"]})
        print(f"going on from iteration {state['iteration']} of {args.state}")

    match_sum = load_match_sum()
    total = [0, 0, 0]
    for k in range(state["iteration"] + 1, args.iterations + 1):
        # Each iteration's draws and openings come from the seed and k
        # alone, so a resumed run plays what an unbroken one would.
        iteration_seed = args.seed * 1_000_003 + k
        rng = random.Random(iteration_seed)
        plus, minus, steps = {}, {}, []
        for s in specs:
            c_k, r_k = schedule(s, k, args.iterations)
            delta = 1 if rng.random() < 0.5 else -1
            theta = state["theta"][s["name"]]
            plus[s["name"]] = clamp(s, nearest(theta + c_k * delta))
            minus[s["name"]] = clamp(s, nearest(theta - c_k * delta))
            steps.append((s, c_k, r_k, delta))
        try:
            w, d, l = play(args, plus, minus, iteration_seed, match_sum)
        except (OSError, RuntimeError) as e:
            sys.exit(f"spsa.py: iteration {k}: {e} (the state holds iteration {k - 1})")
        total = [t + x for t, x in zip(total, (w, d, l))]
        for s, c_k, r_k, delta in steps:
            theta = state["theta"][s["name"]] + r_k * c_k * (w - l) * delta
            state["theta"][s["name"]] = float(clamp(s, theta))
        state["iteration"] = k
        with open(args.state + ".tmp", "w", encoding="utf-8") as f:
            json.dump(state, f, indent=1, sort_keys=True)
        os.replace(args.state + ".tmp", args.state)
        moved = ", ".join(f"{s['name']} {state['theta'][s['name']]:.1f}"
                          for s in specs if abs(state["theta"][s["name"]] - s["default"]) >= 0.5)
        print(f"iteration {k}/{args.iterations}: +{w} ={d} -{l} "
              f"(total +{total[0]} ={total[1]} -{total[2]}); {moved or 'all at their defaults'}",
              flush=True)
    print("tuned values (params.rs):")
    tuned = {s["name"]: nearest(state["theta"][s["name"]]) for s in specs}
    for s in specs:
        print(f"    {s['name']} = {tuned[s['name']]}, {s['min']}..={s['max']}, {s['step']:g};")
    if args.apply:
        try:
            apply(args.apply, tuned)
        except (OSError, ValueError) as e:
            sys.exit(f"spsa.py: --apply: {e}")
        print(f"written into {args.apply}")


if __name__ == "__main__":
    main()
