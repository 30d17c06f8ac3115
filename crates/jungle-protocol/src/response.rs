//! Replies from the engine to the GUI, one line each: written by `Display` (our engine), read by `FromStr`
//! (the match runner reading any engine).

use std::fmt;
use std::str::FromStr;

use jungle_rules::{Move, ParseMoveError};

use crate::info::{Info, ParseInfoError};

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
    Info(Info),
    /// `info string …`: a message for people (errors in input among them).
    InfoString(String),
    /// Free text for the `d`, `eval`, `perft` and `bench` extensions; when reading, any line that is not a
    /// reply of the protocol.
    Text(String),
}

/// A reply of the protocol that is malformed (a line that is no reply at all reads as [`Response::Text`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseResponseError {
    #[error("bestmove: {0}")]
    BadMove(#[from] ParseMoveError),
    #[error("bestmove: missing move")]
    MissingMove,
    #[error("{0}")]
    Info(#[from] ParseInfoError),
    #[error("option: {0}")]
    Option(String),
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
            Response::Info(info) => write!(f, "{info}"),
            Response::InfoString(text) => {
                // One line: a newline in the message would end the reply early.
                write!(f, "info string {}", text.replace(['\n', '\r'], " "))
            }
            Response::Text(text) => f.write_str(text),
        }
    }
}

impl FromStr for Response {
    type Err = ParseResponseError;

    fn from_str(line: &str) -> Result<Response, ParseResponseError> {
        let mut tokens = line.split_whitespace();
        let text = || Response::Text(line.trim_end_matches(['\r', '\n']).to_string());
        let rest_after = |word: &str| {
            // The rest of the line after the first `word` (names and messages keep their inner spacing).
            let start = line.find(word).map_or(line.len(), |i| i + word.len());
            line[start..].trim().to_string()
        };
        Ok(match (tokens.next(), tokens.next()) {
            (Some("uciok"), None) => Response::UciOk,
            (Some("readyok"), None) => Response::ReadyOk,
            (Some("id"), Some("name")) => Response::IdName(rest_after("name")),
            (Some("id"), Some("author")) => Response::IdAuthor(rest_after("author")),
            (Some("bestmove"), None) => return Err(ParseResponseError::MissingMove),
            (Some("bestmove"), Some("(none)")) => Response::BestMove {
                best: None,
                ponder: None,
            },
            (Some("bestmove"), Some(best)) => {
                let best = best.parse()?;
                let ponder = match (tokens.next(), tokens.next()) {
                    (Some("ponder"), Some(p)) => Some(p.parse()?),
                    _ => None,
                };
                Response::BestMove {
                    best: Some(best),
                    ponder,
                }
            }
            (Some("info"), Some("string")) => Response::InfoString(rest_after("string")),
            (Some("info"), second) => {
                Response::Info(Info::parse_fields(second.into_iter().chain(tokens))?)
            }
            (Some("option"), Some("name")) => Response::Option(line.parse()?),
            _ => text(),
        })
    }
}

impl FromStr for OptionSpec {
    type Err = ParseResponseError;

    /// `option name Skill Level type spin default 8 min 1 max 8` (names may have spaces).
    fn from_str(line: &str) -> Result<OptionSpec, ParseResponseError> {
        let bad = |why: &str| ParseResponseError::Option(why.to_string());
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let type_at = tokens
            .iter()
            .position(|&t| t == "type")
            .ok_or_else(|| bad("missing type"))?;
        if tokens.get(..2) != Some(&["option", "name"][..]) || type_at < 3 {
            return Err(bad("missing name"));
        }
        let name = tokens[2..type_at].join(" ");
        let kind = tokens.get(type_at + 1).copied().unwrap_or("");
        let args = &tokens[(type_at + 2).min(tokens.len())..];
        // The values after each keyword (`default`, `min`, `max`, `var`), in order.
        let values = |key: &str| -> Vec<String> {
            let mut out = Vec::new();
            let mut i = 0;
            while i < args.len() {
                if args[i] == key {
                    let end = args[i + 1..]
                        .iter()
                        .position(|t| ["default", "min", "max", "var"].contains(t))
                        .map_or(args.len(), |p| i + 1 + p);
                    out.push(args[i + 1..end].join(" "));
                    i = end;
                } else {
                    i += 1;
                }
            }
            out
        };
        let one = |key: &str| values(key).into_iter().next().unwrap_or_default();
        let number = |key: &str| {
            one(key)
                .parse::<i64>()
                .map_err(|_| bad(&format!("{key} of a spin is not a number")))
        };
        let kind = match kind {
            "spin" => OptionKind::Spin {
                default: number("default")?,
                min: number("min")?,
                max: number("max")?,
            },
            "check" => OptionKind::Check {
                default: match one("default").as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(bad("default of a check is not true or false")),
                },
            },
            "combo" => OptionKind::Combo {
                default: one("default"),
                vars: values("var"),
            },
            "string" => OptionKind::Str {
                default: match one("default") {
                    d if d == "<empty>" => String::new(),
                    d => d,
                },
            },
            "button" => OptionKind::Button,
            other => return Err(bad(&format!("unknown type \"{other}\""))),
        };
        Ok(OptionSpec { name, kind })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_search::{Score, SearchInfo};
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
            Response::Info(Info::from(&info)).to_string(),
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

    #[test]
    fn replies_of_other_engines_are_read_and_unknown_info_fields_skipped() {
        let info = |l: &str| match l.parse::<Response>() {
            Ok(Response::Info(info)) => info,
            other => panic!("{l}: {other:?}"),
        };
        let i = info(
            "info depth 7 currmovenumber 3 cpuload 500 score cp -12 upperbound nodes 99 string x",
        );
        assert_eq!(i.depth, Some(7));
        assert_eq!(i.score, Some(crate::WireScore::Cp(-12)));
        assert_eq!(i.bound, Some(crate::ScoreBound::Upper));
        assert_eq!(i.nodes, Some(99));
        assert_eq!(
            "info score mate"
                .parse::<Response>()
                .unwrap_err()
                .to_string(),
            "info: missing value of score mate"
        );
        assert_eq!(
            "bestmove a3a9x".parse::<Response>().unwrap_err(),
            ParseResponseError::BadMove("a3a9x".parse::<Move>().unwrap_err())
        );
        assert_eq!(
            "Nodes searched: 5".parse::<Response>(),
            Ok(Response::Text("Nodes searched: 5".into()))
        );
        assert_eq!(
            "option name Skill Level type spin default 8 min 1 max 8".parse::<Response>(),
            Ok(Response::Option(OptionSpec {
                name: "Skill Level".into(),
                kind: OptionKind::Spin {
                    default: 8,
                    min: 1,
                    max: 8
                }
            }))
        );
    }
}
