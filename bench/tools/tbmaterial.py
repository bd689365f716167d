"""Random placements of a tablebase ending's material, shared by the
Syzygy tools (syzygy-compare.py, tb-conversion.py)."""

import chess

PIECES = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP,
          "N": chess.KNIGHT, "P": chess.PAWN}


def place(name, rng):
    """A board with the material `name` (e.g. 'KRPvKR') on random squares,
    no side to move chosen yet; None when a pawn lands on a back rank."""
    white, black = name.split("v")
    board = chess.Board(None)
    squares = list(chess.SQUARES)
    rng.shuffle(squares)
    for color, side in ((chess.WHITE, white), (chess.BLACK, black)):
        for letter in side:
            sq = squares.pop()
            if letter == "P" and chess.square_rank(sq) in (0, 7):
                return None
            board.set_piece_at(sq, chess.Piece(PIECES[letter], color))
    return board
