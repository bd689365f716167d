#!/usr/bin/env python3
"""Write tuned weights into eval/src/params.rs.

    python3 bench/tools/apply-params.py tuned.txt [--params eval/src/params.rs]

`tuned.txt` is the tuner's output: `name value` lines for every weight, in
the order of `Params::names` (comment lines start with `#`). The script
finds the numbers of the `params! { ... }` block in the order they appear
(comments and type annotations skipped), which is the order of
`Params::to_vec`, and replaces them, keeping every comment and the layout.
It refuses to write when the counts differ. Afterwards
`cargo run --release -p castella-bench --bin tune -- --apply tuned.txt`
must report no differences.
"""

import argparse
import re
import sys


def blank(m):
    return " " * len(m.group(0))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tuned")
    ap.add_argument("--params", default="eval/src/params.rs")
    args = ap.parse_args()

    values = []
    for line in open(args.tuned):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, value = line.split()
        values.append(int(value))

    text = open(args.params).read()
    start = text.index("params! {")
    start = text.index("{", start) + 1
    end = text.index("\n}\n", start)
    body = text[start:end]

    # Same length as `body`, with comments and `name: Type =` declarations
    # blanked, so the remaining numbers are exactly the weights in order.
    masked = re.sub(r"//[^\n]*", blank, body)
    masked = re.sub(r"\b[a-z_][a-z0-9_]*\s*:[^=]*=", blank, masked)
    spans = [m.span() for m in re.finditer(r"(?<![\w.])-?\d+(?![\w.])", masked)]
    if len(spans) != len(values):
        sys.exit(f"{args.params} has {len(spans)} weights, {args.tuned} {len(values)}: not written")

    out = []
    last = 0
    for (a, b), v in zip(spans, values):
        out.append(body[last:a])
        out.append(str(v))
        last = b
    out.append(body[last:])
    open(args.params, "w").write(text[:start] + "".join(out) + text[end:])
    changed = sum(int(body[a:b]) != v for (a, b), v in zip(spans, values))
    print(f"{changed} of {len(values)} weights changed in {args.params}")


if __name__ == "__main__":
    main()
