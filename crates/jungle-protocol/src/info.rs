//! The `info` reply: what a search reports as it goes (`info depth 5 seldepth 9 score cp 35 … pv a3a4 g7g6`).
//! Written by our engine from a [`SearchInfo`], read back from any engine by the match runner, so every field
//! is optional and unknown fields are skipped.

use std::fmt;
use std::time::Duration;

use jungle_rules::Move;
use jungle_search::SearchInfo;

/// A score as the protocol carries it, from the side to move: centipawns, or a forced result in full moves
/// (UCI's unit; the engine API's [`jungle_search::Score::Mate`] counts plies).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WireScore {
    Cp(i32),
    /// Mate in n moves (n > 0: the side to move wins; n ≤ 0: it loses).
    Mate(i32),
}

impl WireScore {
    /// Centipawns for thresholds (adjudication): a forced result counts as ±100,000.
    pub fn as_cp(self) -> i32 {
        match self {
            WireScore::Cp(cp) => cp,
            WireScore::Mate(n) if n > 0 => 100_000,
            WireScore::Mate(_) => -100_000,
        }
    }

    /// The PGN comment form used by cutechess: `+0.35` in hundredths, `+M5` / `-M5` for forced results.
    pub fn pgn_text(self) -> String {
        match self {
            WireScore::Cp(cp) => format!(
                "{}{:.2}",
                if cp >= 0 { "+" } else { "-" },
                cp.unsigned_abs() as f64 / 100.0
            ),
            WireScore::Mate(n) => {
                format!("{}M{}", if n > 0 { "+" } else { "-" }, n.unsigned_abs())
            }
        }
    }
}

impl From<jungle_search::Score> for WireScore {
    fn from(score: jungle_search::Score) -> WireScore {
        match score {
            jungle_search::Score::Cp(cp) => WireScore::Cp(cp),
            jungle_search::Score::Mate(_) => WireScore::Mate(score.mate_in_moves().unwrap_or(0)),
        }
    }
}

/// `cp 35`, `mate 3`, `mate -2`.
impl fmt::Display for WireScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireScore::Cp(cp) => write!(f, "cp {cp}"),
            WireScore::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Whether a score is exact or only a bound (a search that failed high or low at the root).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScoreBound {
    Lower,
    Upper,
}

/// An `info` line other than `info string`. Fields are written in the order declared here.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<u32>,
    pub score: Option<WireScore>,
    pub bound: Option<ScoreBound>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub hashfull: Option<u32>,
    pub tbhits: Option<u64>,
    pub time: Option<Duration>,
    pub currmove: Option<Move>,
    pub currmovenumber: Option<u32>,
    pub pv: Vec<Move>,
}

impl From<&SearchInfo> for Info {
    fn from(info: &SearchInfo) -> Info {
        Info {
            depth: Some(info.depth),
            seldepth: Some(info.seldepth),
            multipv: Some(u32::try_from(info.multipv).unwrap_or(u32::MAX)),
            score: Some(info.score.into()),
            bound: None,
            nodes: Some(info.nodes),
            nps: Some(info.nps),
            hashfull: Some(info.hashfull),
            tbhits: None,
            time: Some(info.time),
            currmove: None,
            currmovenumber: None,
            pv: info.pv.clone(),
        }
    }
}

/// Why an `info` line could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseInfoError {
    #[error("info: missing value of {0}")]
    Missing(&'static str),
    #[error("info: \"{value}\" is not a valid {field}")]
    BadValue { field: &'static str, value: String },
}

impl Info {
    /// Reads the tokens after `info` (not `info string`). Unknown tokens are skipped: engines send fields
    /// this protocol does not know (`cpuload`, `refutation`, …), and a reader must not fail on them.
    ///
    /// # Errors
    /// A known field without a value or with one that is not a number (or a move).
    pub fn parse_fields<'a>(
        mut tokens: impl Iterator<Item = &'a str>,
    ) -> Result<Info, ParseInfoError> {
        fn value<T: std::str::FromStr>(
            field: &'static str,
            token: Option<&str>,
        ) -> Result<T, ParseInfoError> {
            let token = token.ok_or(ParseInfoError::Missing(field))?;
            token.parse().map_err(|_| ParseInfoError::BadValue {
                field,
                value: token.to_string(),
            })
        }
        let mut info = Info::default();
        while let Some(token) = tokens.next() {
            match token {
                "depth" => info.depth = Some(value("depth", tokens.next())?),
                "seldepth" => info.seldepth = Some(value("seldepth", tokens.next())?),
                "multipv" => info.multipv = Some(value("multipv", tokens.next())?),
                "nodes" => info.nodes = Some(value("nodes", tokens.next())?),
                "nps" => info.nps = Some(value("nps", tokens.next())?),
                "hashfull" => info.hashfull = Some(value("hashfull", tokens.next())?),
                "tbhits" => info.tbhits = Some(value("tbhits", tokens.next())?),
                "time" => {
                    info.time = Some(Duration::from_millis(value("time", tokens.next())?));
                }
                "currmove" => info.currmove = Some(value("currmove", tokens.next())?),
                "currmovenumber" => {
                    info.currmovenumber = Some(value("currmovenumber", tokens.next())?);
                }
                "score" => {
                    info.score = Some(match tokens.next() {
                        Some("cp") => WireScore::Cp(value("score cp", tokens.next())?),
                        Some("mate") => WireScore::Mate(value("score mate", tokens.next())?),
                        Some(other) => {
                            return Err(ParseInfoError::BadValue {
                                field: "score (cp or mate)",
                                value: other.to_string(),
                            });
                        }
                        None => return Err(ParseInfoError::Missing("score")),
                    });
                }
                "lowerbound" => info.bound = Some(ScoreBound::Lower),
                "upperbound" => info.bound = Some(ScoreBound::Upper),
                "pv" => {
                    info.pv = tokens
                        .by_ref()
                        .map(|t| value("pv move", Some(t)))
                        .collect::<Result<_, _>>()?;
                }
                _ => {}
            }
        }
        Ok(info)
    }
}

/// `info depth 5 … pv a3a4 g7g6`; fields that are `None` are left out.
impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let numbers = [
            ("depth", self.depth.map(u64::from)),
            ("seldepth", self.seldepth.map(u64::from)),
            ("multipv", self.multipv.map(u64::from)),
        ];
        for (name, v) in numbers {
            if let Some(v) = v {
                write!(f, " {name} {v}")?;
            }
        }
        if let Some(score) = self.score {
            write!(f, " score {score}")?;
        }
        match self.bound {
            Some(ScoreBound::Lower) => f.write_str(" lowerbound")?,
            Some(ScoreBound::Upper) => f.write_str(" upperbound")?,
            None => {}
        }
        let numbers = [
            ("nodes", self.nodes),
            ("nps", self.nps),
            ("hashfull", self.hashfull.map(u64::from)),
            ("tbhits", self.tbhits),
            ("time", self.time.map(|t| t.as_millis() as u64)),
        ];
        for (name, v) in numbers {
            if let Some(v) = v {
                write!(f, " {name} {v}")?;
            }
        }
        if let Some(m) = self.currmove {
            write!(f, " currmove {m}")?;
        }
        if let Some(n) = self.currmovenumber {
            write!(f, " currmovenumber {n}")?;
        }
        if !self.pv.is_empty() {
            f.write_str(" pv")?;
            for m in &self.pv {
                write!(f, " {m}")?;
            }
        }
        Ok(())
    }
}
