//! The UCI option table: what `uci` advertises and how `setoption` values
//! are checked. Nothing here touches the engine; `uci.rs` applies a checked
//! value.

/// Which option a `setoption` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Id {
    Hash,
    Threads,
    MultiPv,
    Ponder,
    MoveOverhead,
    ClearHash,
    Chess960,
    ShowWdl,
    EvalFile,
    AnalyseMode,
    Opponent,
    SyzygyPath,
    SyzygyProbeDepth,
    Syzygy50MoveRule,
    SyzygyProbeLimit,
    LimitStrength,
    Elo,
}

impl Id {
    /// Whether the option changes the engine (and so must wait for a search
    /// to end), rather than only how the UCI layer reads and writes moves.
    pub fn affects_engine(self) -> bool {
        matches!(
            self,
            Id::Hash | Id::Threads | Id::MultiPv | Id::MoveOverhead | Id::ClearHash | Id::EvalFile
        )
    }
}

/// The type of an option, with its default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Button,
    /// Free text (UCI `string`).
    Text {
        default: &'static str,
    },
}

/// One row of the option table.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    pub id: Id,
    /// The name exactly as advertised.
    pub name: &'static str,
    pub kind: Kind,
}

/// A checked `setoption` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Int(i64),
    Bool(bool),
    Text(String),
    /// A button was pressed.
    Press,
}

/// Every option, in the order `uci` lists them.
pub const TABLE: [Spec; 17] = [
    Spec {
        id: Id::Hash,
        name: "Hash",
        kind: Kind::Spin {
            default: 16,
            min: 1,
            max: 33_554_432,
        },
    },
    Spec {
        id: Id::Threads,
        name: "Threads",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 1024,
        },
    },
    Spec {
        id: Id::MultiPv,
        name: "MultiPV",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    },
    Spec {
        id: Id::Ponder,
        name: "Ponder",
        kind: Kind::Check { default: false },
    },
    Spec {
        id: Id::MoveOverhead,
        name: "Move Overhead",
        kind: Kind::Spin {
            default: 10,
            min: 0,
            max: 5000,
        },
    },
    Spec {
        id: Id::ClearHash,
        name: "Clear Hash",
        kind: Kind::Button,
    },
    Spec {
        id: Id::Chess960,
        name: "UCI_Chess960",
        kind: Kind::Check { default: false },
    },
    Spec {
        id: Id::ShowWdl,
        name: "UCI_ShowWDL",
        kind: Kind::Check { default: false },
    },
    Spec {
        id: Id::EvalFile,
        name: "EvalFile",
        kind: Kind::Text { default: EMBEDDED },
    },
    Spec {
        id: Id::AnalyseMode,
        name: "UCI_AnalyseMode",
        kind: Kind::Check { default: false },
    },
    Spec {
        id: Id::Opponent,
        name: "UCI_Opponent",
        kind: Kind::Text { default: EMPTY },
    },
    Spec {
        id: Id::SyzygyPath,
        name: "SyzygyPath",
        kind: Kind::Text { default: EMPTY },
    },
    Spec {
        id: Id::SyzygyProbeDepth,
        name: "SyzygyProbeDepth",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 100,
        },
    },
    Spec {
        id: Id::Syzygy50MoveRule,
        name: "Syzygy50MoveRule",
        kind: Kind::Check { default: true },
    },
    Spec {
        id: Id::SyzygyProbeLimit,
        name: "SyzygyProbeLimit",
        kind: Kind::Spin {
            default: 7,
            min: 0,
            max: 7,
        },
    },
    Spec {
        id: Id::LimitStrength,
        name: "UCI_LimitStrength",
        kind: Kind::Check { default: false },
    },
    Spec {
        id: Id::Elo,
        name: "UCI_Elo",
        kind: Kind::Spin {
            default: castella_engine::strength::MIN_ELO as i64,
            min: castella_engine::strength::MIN_ELO as i64,
            max: castella_engine::strength::MAX_ELO as i64,
        },
    },
];

/// How UCI writes the default of an empty string option.
pub const EMPTY: &str = "<empty>";

/// The `EvalFile` value that means the network built into the binary.
pub const EMBEDDED: &str = "<embedded>";

impl Spec {
    /// The `option name ...` line `uci` prints.
    pub fn uci_line(&self) -> String {
        match self.kind {
            Kind::Spin { default, min, max } => format!(
                "option name {} type spin default {default} min {min} max {max}",
                self.name
            ),
            Kind::Check { default } => {
                format!("option name {} type check default {default}", self.name)
            }
            Kind::Button => format!("option name {} type button", self.name),
            Kind::Text { default } => {
                format!("option name {} type string default {default}", self.name)
            }
        }
    }
}

/// The row for `name`, compared case-insensitively with runs of white space
/// treated as one space (`move   overhead` names `Move Overhead`).
pub fn find(name: &str) -> Option<&'static Spec> {
    let wanted: Vec<&str> = name.split_whitespace().collect();
    TABLE.iter().find(|spec| {
        let have: Vec<&str> = spec.name.split_whitespace().collect();
        have.len() == wanted.len()
            && have
                .iter()
                .zip(&wanted)
                .all(|(a, b)| a.eq_ignore_ascii_case(b))
    })
}

/// Checks a `setoption`: the name must exist and the value fit its type and
/// range. The error says what was wrong.
pub fn check(name: &str, value: Option<&str>) -> Result<(Id, Value), String> {
    let spec = find(name).ok_or_else(|| format!("no such option '{name}'"))?;
    let value = value.map(str::trim).filter(|v| !v.is_empty());
    let name = spec.name;
    match spec.kind {
        Kind::Button => Ok((spec.id, Value::Press)),
        // An empty value means the default, as GUIs send it.
        Kind::Text { default } => Ok((spec.id, Value::Text(value.unwrap_or(default).to_string()))),
        Kind::Check { .. } => {
            let v = value.ok_or_else(|| format!("option {name} needs a value: true or false"))?;
            if v.eq_ignore_ascii_case("true") {
                Ok((spec.id, Value::Bool(true)))
            } else if v.eq_ignore_ascii_case("false") {
                Ok((spec.id, Value::Bool(false)))
            } else {
                Err(format!(
                    "option {name} takes true or false, not '{v}'; value not changed"
                ))
            }
        }
        Kind::Spin { min, max, .. } => {
            let v = value.ok_or_else(|| {
                format!("option {name} needs a value: a whole number from {min} to {max}")
            })?;
            let out_of_range = || {
                format!("option {name} value {v} is out of range {min}..{max}; value not changed")
            };
            match v.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Ok((spec.id, Value::Int(n))),
                Ok(_) => Err(out_of_range()),
                Err(e)
                    if matches!(
                        e.kind(),
                        std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow
                    ) =>
                {
                    Err(out_of_range())
                }
                Err(_) => Err(format!(
                    "option {name} value '{v}' is not a whole number; value not changed"
                )),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each kind is written as UCI spells it (the whole list the engine
    /// advertises is the protocol tests' business), every spin's default
    /// lies in its range, and every name finds its own row.
    #[test]
    fn advertised_lines() {
        let line = |id| TABLE.iter().find(|s| s.id == id).unwrap().uci_line();
        for (id, expected) in [
            (
                Id::MoveOverhead,
                "option name Move Overhead type spin default 10 min 0 max 5000",
            ),
            (Id::Ponder, "option name Ponder type check default false"),
            (Id::ClearHash, "option name Clear Hash type button"),
            (
                Id::EvalFile,
                "option name EvalFile type string default <embedded>",
            ),
            (
                Id::SyzygyPath,
                "option name SyzygyPath type string default <empty>",
            ),
        ] {
            assert_eq!(line(id), expected);
        }
        for spec in TABLE {
            if let Kind::Spin { default, min, max } = spec.kind {
                assert!((min..=max).contains(&default), "{}", spec.name);
            }
            assert_eq!(find(spec.name).unwrap().id, spec.id, "{}", spec.name);
        }
    }

    #[test]
    fn names_ignore_case_and_spacing() {
        assert_eq!(find("move overhead").unwrap().id, Id::MoveOverhead);
        assert_eq!(find("MOVE   OVERHEAD").unwrap().id, Id::MoveOverhead);
        assert_eq!(find("uci_chess960").unwrap().id, Id::Chess960);
        assert!(find("Move").is_none());
        assert!(find("").is_none());
    }

    #[test]
    fn values_are_checked() {
        assert_eq!(check("hash", Some("64")), Ok((Id::Hash, Value::Int(64))));
        assert_eq!(
            check("Move Overhead", Some("0")),
            Ok((Id::MoveOverhead, Value::Int(0)))
        );
        assert!(check("Hash", Some("0"))
            .unwrap_err()
            .contains("out of range"));
        assert!(check("Hash", Some("99999999999999999999999"))
            .unwrap_err()
            .contains("out of range"));
        assert!(check("Hash", Some("abc"))
            .unwrap_err()
            .contains("not a whole number"));
        assert!(check("Hash", Some("1.5")).is_err());
        assert!(check("Hash", None).unwrap_err().contains("needs a value"));
        assert_eq!(
            check("UCI_Chess960", Some("TRUE")),
            Ok((Id::Chess960, Value::Bool(true)))
        );
        assert!(check("UCI_Chess960", Some("yes")).is_err());
        assert_eq!(check("Clear Hash", None), Ok((Id::ClearHash, Value::Press)));
        let text = |v: &str| Ok((Id::EvalFile, Value::Text(v.to_string())));
        assert_eq!(
            check("evalfile", Some("/tmp/a b.nnue")),
            text("/tmp/a b.nnue")
        );
        assert_eq!(check("EvalFile", None), text(EMBEDDED));
        assert_eq!(check("EvalFile", Some("  ")), text(EMBEDDED));
        assert!(check("Nonsense", Some("1"))
            .unwrap_err()
            .contains("no such option"));
    }
}
