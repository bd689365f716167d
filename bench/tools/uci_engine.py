"""One UCI engine process, spoken to directly, for the tools in this folder.

No python-chess engine layer: every search starts from `ucinewgame`, so a
fixed-node search of a position is deterministic. Only the standard
library is needed.
"""

import subprocess

MATE_CP = 10000


class UciEngine:
    """A UCI engine in Chess960 mode with the given options set."""

    def __init__(self, cmd, options=None):
        self.proc = subprocess.Popen(
            [cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait("uciok")
        for name, value in (options or {}).items():
            self.send(f"setoption name {name} value {value}")
        self.send("setoption name UCI_Chess960 value true")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait(self, token):
        """Reads up to the line starting with `token`; returns every line read."""
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"engine exited while waiting for {token}")
            lines.append(line.strip())
            if line.startswith(token):
                return lines

    def search(self, fen, moves, nodes):
        """Returns (bestmove, score in cp for the side to move, or None)."""
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")
        tail = " moves " + " ".join(moves) if moves else ""
        self.send(f"position fen {fen}{tail}")
        self.send(f"go nodes {nodes}")
        lines = self.wait("bestmove")
        return lines[-1].split()[1], last_score(lines)

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def last_score(lines):
    """The score of the last exact `info ... score` line (a bound is used
    only when there is nothing else); mates count as ±(MATE_CP - moves)."""
    exact, bound = None, None
    for line in lines:
        words = line.split()
        if "score" not in words:
            continue
        i = words.index("score")
        kind, value = words[i + 1], int(words[i + 2])
        cp = value if kind == "cp" else (MATE_CP - abs(value)) * (1 if value > 0 else -1)
        if "lowerbound" in words or "upperbound" in words:
            bound = cp
        else:
            exact = cp
    return exact if exact is not None else bound
