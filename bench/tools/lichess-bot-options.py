#!/usr/bin/env python3
"""Configures Castella through python-chess with exactly the UCI options of
lichess-bot's default config.yml, then plays a Chess960 game against
itself, as lichess-bot would drive it.

    python3 bench/tools/lichess-bot-options.py target/release/castella [SYZYGY_DIR]

python-chess refuses to configure an engine that does not advertise an
option it is given, so this fails at once if an option is missing. Every
move is checked for legality by python-chess (in Chess960 castling
notation, which python-chess asks for by setting UCI_Chess960 itself).
Needs python-chess (`pip install chess`). Exits 0 on success.
"""

import sys

import chess
import chess.engine


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if len(sys.argv) >= 2 else 2)
    engine_path = sys.argv[1]
    syzygy = sys.argv[2] if len(sys.argv) > 2 else "./syzygy/"
    # lichess-bot's config.yml.default, engine.uci_options.
    options = {
        "Hash": 256,
        "Threads": 1,
        "Move Overhead": 100,
        "SyzygyPath": syzygy,
        "UCI_ShowWDL": True,
    }
    with chess.engine.SimpleEngine.popen_uci(engine_path) as engine:
        engine.configure(options)
        board = chess.Board.from_chess960_pos(357)
        board.chess960 = True
        plies = 0
        while not board.is_game_over(claim_draw=True) and plies < 120:
            result = engine.play(board, chess.engine.Limit(time=0.02), info=chess.engine.INFO_ALL)
            if result.move is None or result.move not in board.legal_moves:
                sys.exit(f"illegal or missing move {result.move} in {board.fen()}")
            board.push(result.move)
            plies += 1
        print(f"played {plies} plies from Chess960 position 357 with {options}; "
              f"result {board.result(claim_draw=True)}")


if __name__ == "__main__":
    main()
