//! Commands from the GUI to the engine: one line each, parsed by `FromStr`, written back by `Display`.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use jungle_rules::{Move, ParseMoveError};

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    /// The start position of the rules in force.
    StartPos,
    Fen(String),
}

/// The parameters of `go`. Times are in milliseconds on the wire.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    pub movestogo: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
}

/// A command line of the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    UciNewGame,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Position {
        start: StartPosition,
        moves: Vec<Move>,
    },
    Go(GoParams),
    Stop,
    PonderHit,
    Quit,
    /// `d`: draw the board.
    Display,
    /// `eval`: the static evaluation.
    Eval,
    Perft(u32),
    /// `bench [depth]`.
    Bench(Option<u32>),
}

/// A line that is not a command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseCommandError {
    #[error("empty line")]
    Empty,
    #[error("unknown command \"{0}\"")]
    Unknown(String),
    #[error("{command}: missing {what}")]
    Missing {
        command: &'static str,
        what: &'static str,
    },
    #[error("{command}: \"{value}\" is not a valid {what}")]
    BadValue {
        command: &'static str,
        what: &'static str,
        value: String,
    },
    #[error("{command}: unexpected \"{token}\"")]
    Unexpected {
        command: &'static str,
        token: String,
    },
    #[error("position: {0}")]
    BadMove(#[from] ParseMoveError),
}

fn number<T: FromStr>(
    command: &'static str,
    what: &'static str,
    token: Option<&str>,
) -> Result<T, ParseCommandError> {
    let token = token.ok_or(ParseCommandError::Missing { command, what })?;
    token.parse().map_err(|_| ParseCommandError::BadValue {
        command,
        what,
        value: token.to_string(),
    })
}

/// Milliseconds; negative clock times (some GUIs send them after a flag fall) count as zero.
fn millis(what: &'static str, token: Option<&str>) -> Result<Duration, ParseCommandError> {
    let ms: i64 = number("go", what, token)?;
    Ok(Duration::from_millis(ms.max(0) as u64))
}

impl FromStr for Command {
    type Err = ParseCommandError;

    fn from_str(line: &str) -> Result<Command, ParseCommandError> {
        let mut tokens = line.split_whitespace();
        let Some(word) = tokens.next() else {
            return Err(ParseCommandError::Empty);
        };
        let no_more =
            |command: &'static str, mut rest: std::str::SplitWhitespace<'_>| match rest.next() {
                Some(t) => Err(ParseCommandError::Unexpected {
                    command,
                    token: t.to_string(),
                }),
                None => Ok(()),
            };
        Ok(match word {
            "uci" => Command::Uci,
            "isready" => Command::IsReady,
            "ucinewgame" => Command::UciNewGame,
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit,
            "quit" => Command::Quit,
            "d" => Command::Display,
            "eval" => Command::Eval,
            "debug" => match tokens.next() {
                Some("on") => Command::Debug(true),
                Some("off") => Command::Debug(false),
                Some(other) => {
                    return Err(ParseCommandError::BadValue {
                        command: "debug",
                        what: "switch (on or off)",
                        value: other.to_string(),
                    });
                }
                None => {
                    return Err(ParseCommandError::Missing {
                        command: "debug",
                        what: "on or off",
                    });
                }
            },
            "perft" => {
                let depth = number("perft", "depth", tokens.next())?;
                no_more("perft", tokens)?;
                Command::Perft(depth)
            }
            "bench" => {
                let depth = match tokens.next() {
                    Some(t) => Some(number("bench", "depth", Some(t))?),
                    None => None,
                };
                no_more("bench", tokens)?;
                Command::Bench(depth)
            }
            "setoption" => parse_setoption(tokens)?,
            "position" => parse_position(tokens)?,
            "go" => Command::Go(parse_go(tokens)?),
            other => return Err(ParseCommandError::Unknown(other.to_string())),
        })
    }
}

fn parse_setoption(
    mut tokens: std::str::SplitWhitespace<'_>,
) -> Result<Command, ParseCommandError> {
    match tokens.next() {
        Some("name") => {}
        Some(other) => {
            return Err(ParseCommandError::Unexpected {
                command: "setoption",
                token: other.to_string(),
            });
        }
        None => {
            return Err(ParseCommandError::Missing {
                command: "setoption",
                what: "name",
            });
        }
    }
    let mut name = Vec::new();
    let mut value: Option<Vec<&str>> = None;
    for t in tokens {
        match &mut value {
            Some(v) => v.push(t),
            None if t == "value" => value = Some(Vec::new()),
            None => name.push(t),
        }
    }
    if name.is_empty() {
        return Err(ParseCommandError::Missing {
            command: "setoption",
            what: "option name",
        });
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value: value.map(|v| v.join(" ")),
    })
}

fn parse_position(mut tokens: std::str::SplitWhitespace<'_>) -> Result<Command, ParseCommandError> {
    let start = match tokens.next() {
        Some("startpos") => StartPosition::StartPos,
        Some("fen") => {
            let mut fields = Vec::new();
            for t in tokens.by_ref() {
                if t == "moves" {
                    break;
                }
                fields.push(t);
            }
            if fields.is_empty() {
                return Err(ParseCommandError::Missing {
                    command: "position",
                    what: "FEN",
                });
            }
            let fen = fields.join(" ");
            let moves = tokens.map(str::parse).collect::<Result<Vec<Move>, _>>()?;
            return Ok(Command::Position {
                start: StartPosition::Fen(fen),
                moves,
            });
        }
        Some(other) => {
            return Err(ParseCommandError::BadValue {
                command: "position",
                what: "start (startpos or fen)",
                value: other.to_string(),
            });
        }
        None => {
            return Err(ParseCommandError::Missing {
                command: "position",
                what: "startpos or fen",
            });
        }
    };
    let moves = match tokens.next() {
        None => Vec::new(),
        Some("moves") => tokens.map(str::parse).collect::<Result<Vec<Move>, _>>()?,
        Some(other) => {
            return Err(ParseCommandError::Unexpected {
                command: "position",
                token: other.to_string(),
            });
        }
    };
    Ok(Command::Position { start, moves })
}

fn parse_go(mut tokens: std::str::SplitWhitespace<'_>) -> Result<GoParams, ParseCommandError> {
    let mut go = GoParams::default();
    while let Some(t) = tokens.next() {
        match t {
            "depth" => go.depth = Some(number("go", "depth", tokens.next())?),
            "nodes" => go.nodes = Some(number("go", "node count", tokens.next())?),
            "movetime" => go.movetime = Some(millis("movetime", tokens.next())?),
            "wtime" => go.wtime = Some(millis("wtime", tokens.next())?),
            "btime" => go.btime = Some(millis("btime", tokens.next())?),
            "winc" => go.winc = Some(millis("winc", tokens.next())?),
            "binc" => go.binc = Some(millis("binc", tokens.next())?),
            "movestogo" => go.movestogo = Some(number("go", "movestogo", tokens.next())?),
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            other => {
                return Err(ParseCommandError::Unexpected {
                    command: "go",
                    token: other.to_string(),
                });
            }
        }
    }
    Ok(go)
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Uci => f.write_str("uci"),
            Command::Debug(on) => write!(f, "debug {}", if *on { "on" } else { "off" }),
            Command::IsReady => f.write_str("isready"),
            Command::UciNewGame => f.write_str("ucinewgame"),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                if let Some(v) = value {
                    write!(f, " value {v}")?;
                }
                Ok(())
            }
            Command::Position { start, moves } => {
                match start {
                    StartPosition::StartPos => f.write_str("position startpos")?,
                    StartPosition::Fen(fen) => write!(f, "position fen {fen}")?,
                }
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    for m in moves {
                        write!(f, " {m}")?;
                    }
                }
                Ok(())
            }
            Command::Go(go) => {
                f.write_str("go")?;
                let ms = |d: &Duration| d.as_millis();
                if let Some(d) = go.depth {
                    write!(f, " depth {d}")?;
                }
                if let Some(n) = go.nodes {
                    write!(f, " nodes {n}")?;
                }
                if let Some(t) = &go.movetime {
                    write!(f, " movetime {}", ms(t))?;
                }
                for (name, value) in [
                    ("wtime", &go.wtime),
                    ("btime", &go.btime),
                    ("winc", &go.winc),
                    ("binc", &go.binc),
                ] {
                    if let Some(t) = value {
                        write!(f, " {name} {}", ms(t))?;
                    }
                }
                if let Some(m) = go.movestogo {
                    write!(f, " movestogo {m}")?;
                }
                if go.infinite {
                    f.write_str(" infinite")?;
                }
                if go.ponder {
                    f.write_str(" ponder")?;
                }
                Ok(())
            }
            Command::Stop => f.write_str("stop"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Quit => f.write_str("quit"),
            Command::Display => f.write_str("d"),
            Command::Eval => f.write_str("eval"),
            Command::Perft(d) => write!(f, "perft {d}"),
            Command::Bench(None) => f.write_str("bench"),
            Command::Bench(Some(d)) => write!(f, "bench {d}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_round_trip_through_text() {
        for line in [
            "uci",
            "isready",
            "setoption name Skill Level value 3",
            "setoption name Clear Hash",
            "setoption name Rules value modern,dog-swims=true",
            "position startpos",
            "position startpos moves a3a4 g7g6",
            "position fen l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1 moves a3a4",
            "go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5",
            "go depth 6",
            "go movetime 100",
            "go infinite",
            "perft 3",
            "bench 8",
            "d",
            "eval",
        ] {
            let command: Command = line.parse().unwrap();
            assert_eq!(command.to_string(), line);
        }
    }

    #[test]
    fn malformed_lines_say_what_is_wrong() {
        let err = |l: &str| l.parse::<Command>().unwrap_err().to_string();
        assert_eq!(err("xyzzy 3"), "unknown command \"xyzzy\"");
        assert_eq!(err("go depth x"), "go: \"x\" is not a valid depth");
        assert_eq!(err("go depth"), "go: missing depth");
        assert_eq!(err("go sideways"), "go: unexpected \"sideways\"");
        assert!(err("position startpos moves a3a9x").contains("a3a9x"));
        assert_eq!(err("position"), "position: missing startpos or fen");
        assert_eq!(err("setoption"), "setoption: missing name");
        assert_eq!("".parse::<Command>(), Err(ParseCommandError::Empty));
        // Negative times from a GUI after a flag fall are read as zero.
        let Command::Go(go) = "go wtime -5 btime 10".parse().unwrap() else {
            panic!()
        };
        assert_eq!(go.wtime, Some(Duration::ZERO));
    }
}
