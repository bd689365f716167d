//! The game as the GUI set it up: the current position and the keys of the
//! positions before it, built whole from a `position` command or not at all.

use crate::command::{short, PositionCmd, Start};
use castella_movegen::{Color, File, Position, Rank, Square};
use std::fmt::Write;

/// The current position and the keys of the game's earlier positions,
/// oldest first (for repetition detection).
#[derive(Clone, Debug)]
pub struct Setup {
    pub pos: Position,
    pub game_keys: Vec<u64>,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            pos: Position::startpos(),
            game_keys: Vec::new(),
        }
    }
}

impl Setup {
    /// Builds the game a `position` command describes, with the FEN reader's
    /// warnings (normalised castling rights or en-passant square). Any bad
    /// FEN or move rejects the whole command.
    pub fn from_command(cmd: &PositionCmd) -> Result<(Setup, Vec<String>), String> {
        let (mut pos, warnings) = match &cmd.start {
            Start::Standard => (Position::startpos(), Vec::new()),
            Start::Fen(fen) => Position::from_fen_with_warnings(fen)
                .map_err(|e| format!("bad FEN '{}': {e}; position not changed", short(fen)))?,
            Start::Frc(n) => (
                Position::chess960(*n).ok_or(format!("no Chess960 position {n}"))?,
                Vec::new(),
            ),
            Start::Dfrc(w, b) => (
                Position::double_chess960(*w, *b)
                    .ok_or(format!("no double Chess960 position {w} {b}"))?,
                Vec::new(),
            ),
        };
        let warnings = warnings.into_iter().map(|w| format!("FEN: {w}")).collect();
        let mut game_keys = Vec::with_capacity(cmd.moves.len());
        for (i, text) in cmd.moves.iter().enumerate() {
            let mv = pos
                .parse_uci_move(text)
                .map_err(|e| format!("move {} of the list: {e}; position not changed", i + 1))?;
            game_keys.push(pos.key());
            pos = pos.play(mv);
        }
        Ok((Setup { pos, game_keys }, warnings))
    }

    /// The `d` output: a diagram, the X-FEN, the key and the checkers.
    pub fn display(&self) -> String {
        let pos = &self.pos;
        let border = " +---+---+---+---+---+---+---+---+\n";
        let mut s = String::from(border);
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let sq = Square::from_coords(file, *rank);
                let c = match (pos.piece_on(sq), pos.color_on(sq)) {
                    (Some(p), Some(Color::White)) => p.char().to_ascii_uppercase(),
                    (Some(p), _) => p.char(),
                    _ => ' ',
                };
                let _ = write!(s, " | {c}");
            }
            let _ = writeln!(s, " | {rank}");
            s.push_str(border);
        }
        s.push_str("   a   b   c   d   e   f   g   h\n\n");
        let _ = writeln!(s, "Fen: {}", pos.fen());
        let _ = writeln!(s, "Key: {:016X}", pos.key());
        let checkers: Vec<String> = pos.checkers().map(|sq| sq.to_string()).collect();
        let _ = writeln!(s, "Checkers: {}", checkers.join(" "));
        s
    }

    /// The position mirrored top to bottom with the colours swapped (the
    /// same position from the other side); the game's earlier keys are dropped.
    pub fn flipped(&self) -> Setup {
        Setup {
            pos: self.pos.flipped(),
            game_keys: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::PositionCmd;

    fn cmd(start: Start, moves: &[&str]) -> PositionCmd {
        PositionCmd {
            start,
            moves: moves.iter().map(|m| m.to_string()).collect(),
        }
    }

    #[test]
    fn moves_are_applied_or_the_command_is_rejected() {
        let (g, _) = Setup::from_command(&cmd(Start::Standard, &["e2e4", "e7e5"])).unwrap();
        assert_eq!(g.game_keys.len(), 2);
        assert_eq!(g.game_keys[0], Position::startpos().key());
        assert!(g
            .pos
            .fen()
            .starts_with("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w"));

        let e = Setup::from_command(&cmd(Start::Standard, &["e2e4", "e2e4"])).unwrap_err();
        assert!(e.contains("move 2"), "{e}");
        assert!(Setup::from_command(&cmd(Start::Standard, &["zz99"])).is_err());
        assert!(Setup::from_command(&cmd(Start::Fen("8/8/8 w - -".into()), &[])).is_err());
    }

    #[test]
    fn frc_518_is_startpos() {
        let (g, _) = Setup::from_command(&cmd(Start::Frc(518), &[])).unwrap();
        assert_eq!(g.pos.fen(), Position::startpos().fen());
        let (g, _) = Setup::from_command(&cmd(Start::Dfrc(518, 518), &[])).unwrap();
        assert_eq!(g.pos.key(), Position::startpos().key());
    }

    #[test]
    fn display_shows_fen_key_and_checkers() {
        let (g, _) =
            Setup::from_command(&cmd(Start::Standard, &["f2f3", "e7e5", "g2g4", "d8h4"])).unwrap();
        let d = g.display();
        assert!(d.contains(" | r | n | b |   | k | b | n | r | 8\n"), "{d}");
        assert!(d.contains(&format!("Fen: {}\n", g.pos.fen())));
        assert!(d.contains(&format!("Key: {:016X}\n", g.pos.key())));
        assert!(d.ends_with("Checkers: h4\n"), "{d}");
    }

    #[test]
    fn flip_round_trips() {
        let (g, _) = Setup::from_command(&cmd(
            Start::Fen("1r2k1r1/pp3ppp/8/3pP3/8/8/PPP2PPP/1R2K1R1 w GBgb d6 0 5".into()),
            &[],
        ))
        .unwrap();
        let f = g.flipped();
        assert_eq!(
            f.pos.fen_shredder(),
            "1r2k1r1/ppp2ppp/8/8/3Pp3/8/PP3PPP/1R2K1R1 b GBgb d3 0 5"
        );
        assert_eq!(f.flipped().pos.fen(), g.pos.fen());
    }
}
