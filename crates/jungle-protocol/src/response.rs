//! Replies from the engine to the GUI, written by `Display` (one line each).

use std::fmt;

use jungle_rules::Move;
use jungle_search::SearchInfo;

/// The type of an engine option, as announced after `uci`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Spin { default: i64, min: i64, max: i64 },
    Check { default: bool },
    Combo { default: String, vars: Vec<String> },
    Str { default: String },
    Button,
}

/// An engine option announcement: `option name Hash type spin default 16 min 1 max 65536`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: String,
    pub kind: OptionKind,
}

/// A line the engine sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    IdName(String),
    IdAuthor(String),
    Option(OptionSpec),
    UciOk,
    ReadyOk,
    /// `bestmove (none)` when the game is over.
    BestMove {
        best: Option<Move>,
        ponder: Option<Move>,
    },
    Info(SearchInfo),
    /// `info string …`: a message for people (errors in input among them).
    InfoString(String),
    /// Free text for the `d`, `eval`, `perft` and `bench` extensions.
    Text(String),
}

impl fmt::Display for OptionSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                for v in vars {
                    write!(f, " var {v}")?;
                }
                Ok(())
            }
            OptionKind::Str { default } if default.is_empty() => {
                f.write_str("string default <empty>")
            }
            OptionKind::Str { default } => write!(f, "string default {default}"),
            OptionKind::Button => f.write_str("button"),
        }
    }
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::IdName(name) => write!(f, "id name {name}"),
            Response::IdAuthor(author) => write!(f, "id author {author}"),
            Response::Option(spec) => write!(f, "{spec}"),
            Response::UciOk => f.write_str("uciok"),
            Response::ReadyOk => f.write_str("readyok"),
            Response::BestMove { best: None, .. } => f.write_str("bestmove (none)"),
            Response::BestMove {
                best: Some(m),
                ponder,
            } => {
                write!(f, "bestmove {m}")?;
                if let Some(p) = ponder {
                    write!(f, " ponder {p}")?;
                }
                Ok(())
            }
            Response::Info(info) => {
                write!(
                    f,
                    "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {}",
                    info.depth,
                    info.seldepth,
                    info.multipv,
                    info.score,
                    info.nodes,
                    info.nps,
                    info.hashfull,
                    info.time.as_millis()
                )?;
                if !info.pv.is_empty() {
                    f.write_str(" pv")?;
                    for m in &info.pv {
                        write!(f, " {m}")?;
                    }
                }
                Ok(())
            }
            Response::InfoString(text) => {
                // One line: a newline in the message would end the reply early.
                write!(f, "info string {}", text.replace(['\n', '\r'], " "))
            }
            Response::Text(text) => f.write_str(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_search::Score;
    use std::time::Duration;

    #[test]
    fn replies_are_written_in_uci_form() {
        let m: Move = "a3a4".parse().unwrap();
        let p: Move = "g7g6".parse().unwrap();
        assert_eq!(
            Response::BestMove {
                best: Some(m),
                ponder: Some(p)
            }
            .to_string(),
            "bestmove a3a4 ponder g7g6"
        );
        assert_eq!(
            Response::BestMove {
                best: None,
                ponder: None
            }
            .to_string(),
            "bestmove (none)"
        );
        let info = SearchInfo {
            depth: 5,
            seldepth: 9,
            multipv: 1,
            score: Score::Mate(3),
            nodes: 1000,
            nps: 500_000,
            time: Duration::from_millis(2),
            pv: vec![m, p],
            hashfull: 4,
        };
        assert_eq!(
            Response::Info(info).to_string(),
            "info depth 5 seldepth 9 multipv 1 score mate 2 nodes 1000 nps 500000 hashfull 4 time 2 pv a3a4 g7g6"
        );
        let spec = OptionSpec {
            name: "Rules".into(),
            kind: OptionKind::Str {
                default: String::new(),
            },
        };
        assert_eq!(
            spec.to_string(),
            "option name Rules type string default <empty>"
        );
        assert_eq!(
            Response::InfoString("a\nb".into()).to_string(),
            "info string a b"
        );
    }
}
