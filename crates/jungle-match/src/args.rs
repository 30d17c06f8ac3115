//! The command line of `jungle match`, in the shape of cutechess-cli: `-engine key=value …` per engine,
//! `-each key=value …` for all, and match flags (`-games`, `-rounds`, `-repeat`, `-concurrency`,
//! `-tournament`, `-rules`, `-openings`, `-draw`, `-resign`, `-maxmoves`, `-sprt`, `-pgnout`, `-srand`,
//! `-event`, `-stalltimeout`, `-enginelog`, `-hidden`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use jungle_rules::Rules;

use crate::adjudication::{Adjudication, DrawRule, ResignRule};
use crate::engine::EngineConfig;
use crate::openings::OpeningFormat;
use crate::sprt::{EloModel, Sprt};
use crate::time_control::{SearchLimits, TimeControl, parse_seconds};
use crate::tournament::TournamentKind;

/// Arguments that do not describe a match.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ArgsError {
    #[error("unknown flag \"{0}\" (see jungle match --help)")]
    UnknownFlag(String),
    #[error("{flag}: expected key=value, found \"{found}\"")]
    NotKeyValue { flag: String, found: String },
    #[error("{flag}: unknown key \"{key}\" (valid: {valid})")]
    UnknownKey {
        flag: String,
        key: String,
        valid: &'static str,
    },
    #[error("{flag}: bad value \"{value}\": {reason}")]
    BadValue {
        flag: String,
        value: String,
        reason: String,
    },
    #[error("{flag}: missing value")]
    MissingValue { flag: String },
    #[error("{flag}: missing {key}=")]
    MissingKey { flag: String, key: &'static str },
    #[error("a match needs at least two engines (give -engine twice)")]
    TooFewEngines,
    #[error("engine {0} has no limit: give tc=, st=, depth= or nodes= (to it or to -each)")]
    Unbounded(String),
    #[error("-sprt needs exactly two engines, found {0}")]
    SprtEngines(usize),
    #[error("-sprt plays game pairs: -games must be even, found {0}")]
    SprtOddGames(u32),
    #[error("-hidden games start from the setups the engines choose: -openings does not apply")]
    HiddenOpenings,
}

/// Where openings come from.
#[derive(Clone, Debug, PartialEq)]
pub enum OpeningSource {
    File {
        path: PathBuf,
        format: OpeningFormat,
        random_order: bool,
        plies: Option<usize>,
        /// 1-based index of the first opening to use.
        start: usize,
    },
    /// The built-in generator: `plies` random plies, kept when a `depth` search scores within ±`margin`.
    Generated {
        plies: usize,
        depth: u32,
        margin: i32,
    },
}

/// Everything the command line said, before openings are loaded or generated.
#[derive(Clone, Debug)]
pub struct MatchArgs {
    pub engines: Vec<EngineConfig>,
    pub rules: Rules,
    pub kind: TournamentKind,
    pub games: u32,
    pub rounds: u32,
    pub repeat: bool,
    pub concurrency: usize,
    pub openings: OpeningSource,
    pub adjudication: Adjudication,
    pub sprt: Option<Sprt>,
    pub pgn_out: Option<PathBuf>,
    pub seed: Option<u64>,
    pub event: String,
    pub stall_timeout: Duration,
    /// `-enginelog FILE`: a transcript of all engine input and output.
    pub engine_log: Option<PathBuf>,
    /// `-hidden`: Hidden Jungle (docs/hidden.md); the built-in engine is `jungle uci --hidden`.
    pub hidden: bool,
}

const ENGINE_KEYS: &str =
    "cmd, args, arg, name, dir, option.NAME, tc, st, depth, nodes, timemargin, proto";

/// A flag and the values that follow it (up to the next token starting with `-`).
struct Flag<'a> {
    name: &'a str,
    values: Vec<&'a str>,
}

fn split_flags(args: &[String]) -> Result<Vec<Flag<'_>>, ArgsError> {
    let mut flags: Vec<Flag<'_>> = Vec::new();
    for arg in args {
        // A value may itself start with `-` only after `=` (e.g. `option.Contempt=-20`), and negative numbers
        // are values.
        let is_flag = arg.starts_with('-')
            && arg.len() > 1
            && !arg[1..].starts_with(|c: char| c.is_ascii_digit() || c == '.');
        if is_flag {
            flags.push(Flag {
                name: arg.trim_start_matches('-'),
                values: Vec::new(),
            });
        } else {
            match flags.last_mut() {
                Some(flag) => flag.values.push(arg),
                None => return Err(ArgsError::UnknownFlag(arg.clone())),
            }
        }
    }
    Ok(flags)
}

fn key_values<'a>(flag: &Flag<'a>) -> Result<Vec<(&'a str, &'a str)>, ArgsError> {
    flag.values
        .iter()
        .map(|v| {
            v.split_once('=').ok_or_else(|| ArgsError::NotKeyValue {
                flag: format!("-{}", flag.name),
                found: v.to_string(),
            })
        })
        .collect()
}

fn one_value<'a>(flag: &Flag<'a>) -> Result<&'a str, ArgsError> {
    match flag.values.as_slice() {
        [v] => Ok(v),
        [] => Err(ArgsError::MissingValue {
            flag: format!("-{}", flag.name),
        }),
        [_, extra, ..] => Err(ArgsError::BadValue {
            flag: format!("-{}", flag.name),
            value: extra.to_string(),
            reason: "expected one value".to_string(),
        }),
    }
}

fn number<T: std::str::FromStr>(flag: &str, value: &str) -> Result<T, ArgsError>
where
    T::Err: std::fmt::Display,
{
    value.parse().map_err(|e: T::Err| ArgsError::BadValue {
        flag: flag.to_string(),
        value: value.to_string(),
        reason: e.to_string(),
    })
}

/// One engine's settings as given (`-each` first, then its own, so its own win).
#[derive(Clone, Debug, Default)]
struct EngineSpec {
    cmd: Option<String>,
    args: Option<Vec<String>>,
    name: Option<String>,
    dir: Option<PathBuf>,
    options: Vec<(String, String)>,
    tc: Option<TimeControl>,
    st: Option<Duration>,
    depth: Option<u32>,
    nodes: Option<u64>,
    margin: Option<Duration>,
}

impl EngineSpec {
    fn apply(&mut self, flag: &str, pairs: &[(&str, &str)]) -> Result<(), ArgsError> {
        let bad = |value: &str, reason: String| ArgsError::BadValue {
            flag: flag.to_string(),
            value: value.to_string(),
            reason,
        };
        for &(key, value) in pairs {
            match key {
                "cmd" => self.cmd = Some(value.to_string()),
                "args" => {
                    self.args = Some(value.split_whitespace().map(str::to_string).collect());
                }
                "arg" => self
                    .args
                    .get_or_insert_with(Vec::new)
                    .push(value.to_string()),
                "name" => self.name = Some(value.to_string()),
                "dir" => self.dir = Some(PathBuf::from(value)),
                "tc" => {
                    self.tc = Some(value.parse().map_err(
                        |e: crate::time_control::TimeControlError| bad(value, e.to_string()),
                    )?);
                }
                "st" => {
                    let st = parse_seconds(value, value).map_err(|e| bad(value, e.to_string()))?;
                    if st.is_zero() {
                        return Err(bad(value, "must be more than 0 seconds".to_string()));
                    }
                    self.st = Some(st);
                }
                "depth" => self.depth = Some(number(flag, value)?),
                "nodes" => self.nodes = Some(number(flag, value)?),
                "timemargin" => {
                    self.margin = Some(Duration::from_millis(number(flag, value)?));
                }
                "proto" if value == "uci" => {}
                "proto" => return Err(bad(value, "only the uci protocol is spoken".to_string())),
                _ => match key.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => {
                        self.options.retain(|(n, _)| n != name);
                        self.options.push((name.to_string(), value.to_string()));
                    }
                    _ => {
                        return Err(ArgsError::UnknownKey {
                            flag: flag.to_string(),
                            key: key.to_string(),
                            valid: ENGINE_KEYS,
                        });
                    }
                },
            }
        }
        Ok(())
    }

    fn merged_over(&self, each: &EngineSpec) -> EngineSpec {
        let mut options = each.options.clone();
        for (n, v) in &self.options {
            options.retain(|(m, _)| m != n);
            options.push((n.clone(), v.clone()));
        }
        EngineSpec {
            cmd: self.cmd.clone().or(each.cmd.clone()),
            args: self.args.clone().or(each.args.clone()),
            name: self.name.clone().or(each.name.clone()),
            dir: self.dir.clone().or(each.dir.clone()),
            options,
            tc: self.tc.or(each.tc),
            st: self.st.or(each.st),
            depth: self.depth.or(each.depth),
            nodes: self.nodes.or(each.nodes),
            margin: self.margin.or(each.margin),
        }
    }

    /// The engine config; no `cmd` or `cmd=jungle` is the built-in engine (`builtin uci`, or `builtin uci
    /// --hidden` for hidden games, which are told their rules in the `hidden` lines instead of `option Rules`).
    fn resolve(self, builtin: &Path, rules: &Rules, hidden: bool) -> EngineConfig {
        let builtin_args = if hidden {
            vec!["uci", "--hidden"]
        } else {
            vec!["uci"]
        };
        let (command, default_args, default_name) = match self.cmd.as_deref() {
            None | Some("jungle") => (
                builtin.to_path_buf(),
                builtin_args.into_iter().map(str::to_string).collect(),
                "jungle".to_string(),
            ),
            Some(cmd) => {
                let stem = Path::new(cmd)
                    .file_stem()
                    .map_or(cmd.to_string(), |s| s.to_string_lossy().into_owned());
                (PathBuf::from(cmd), Vec::new(), stem)
            }
        };
        let mut options = self.options;
        if !hidden
            && !rules.is_standard()
            && !options.iter().any(|(n, _)| n.eq_ignore_ascii_case("Rules"))
        {
            options.insert(0, ("Rules".to_string(), rules.to_string()));
        }
        EngineConfig {
            name: self.name.unwrap_or(default_name),
            command,
            args: self.args.unwrap_or(default_args),
            working_dir: self.dir,
            options,
            limits: SearchLimits {
                time_control: self.tc.unwrap_or(TimeControl::Infinite),
                move_time: self.st,
                depth: self.depth,
                nodes: self.nodes,
                time_margin: self.margin.unwrap_or(SearchLimits::default().time_margin),
            },
        }
    }
}

/// Reads the arguments after `jungle match`. `builtin` is the program of the built-in engine (the running
/// `jungle`), started with the argument `uci`.
///
/// # Errors
/// [`ArgsError`] naming the flag and value at fault.
pub fn parse(args: &[String], builtin: &Path) -> Result<MatchArgs, ArgsError> {
    let flags = split_flags(args)?;
    let mut specs: Vec<EngineSpec> = Vec::new();
    let mut each = EngineSpec::default();
    let mut rules = Rules::default();
    let mut kind = TournamentKind::RoundRobin;
    let mut games = 1;
    let mut rounds = None;
    let mut repeat = false;
    let mut concurrency = 1;
    let mut openings = OpeningSource::Generated {
        plies: 8,
        depth: 4,
        margin: 150,
    };
    let mut adjudication = Adjudication::default();
    let mut sprt = None;
    let mut pgn_out = None;
    let mut seed = None;
    let mut event = "jungle match".to_string();
    let mut stall_timeout = Duration::from_secs(60);
    let mut engine_log = None;
    let mut hidden = false;
    let mut openings_given = false;

    for flag in &flags {
        let name = format!("-{}", flag.name);
        match flag.name {
            "engine" => {
                let mut spec = EngineSpec::default();
                spec.apply(&name, &key_values(flag)?)?;
                specs.push(spec);
            }
            "each" => each.apply(&name, &key_values(flag)?)?,
            "rules" => {
                rules = one_value(flag)?
                    .parse()
                    .map_err(|e: jungle_rules::RulesError| ArgsError::BadValue {
                        flag: name.clone(),
                        value: flag.values[0].to_string(),
                        reason: e.to_string(),
                    })?;
            }
            "games" => games = positive(&name, one_value(flag)?)?,
            "rounds" => rounds = Some(positive(&name, one_value(flag)?)?),
            "repeat" => {
                // cutechess's `-repeat [N]`: only pairs (N = 2) are played here.
                if let Some(v) = flag.values.first()
                    && *v != "2"
                {
                    return Err(ArgsError::BadValue {
                        flag: name,
                        value: v.to_string(),
                        reason: "openings repeat as pairs (2) only".to_string(),
                    });
                }
                repeat = true;
            }
            "concurrency" => concurrency = positive::<usize>(&name, one_value(flag)?)?,
            "tournament" => {
                kind = match one_value(flag)? {
                    "round-robin" | "roundrobin" => TournamentKind::RoundRobin,
                    "gauntlet" => TournamentKind::Gauntlet,
                    v => {
                        return Err(ArgsError::BadValue {
                            flag: name,
                            value: v.to_string(),
                            reason: "expected round-robin or gauntlet".to_string(),
                        });
                    }
                }
            }
            "openings" => {
                openings = parse_openings(&name, &key_values(flag)?)?;
                openings_given = true;
            }
            "hidden" => {
                if let Some(v) = flag.values.first() {
                    return Err(ArgsError::BadValue {
                        flag: name,
                        value: v.to_string(),
                        reason: "takes no value".to_string(),
                    });
                }
                hidden = true;
            }
            "draw" => {
                let kv = key_values(flag)?;
                adjudication.draw = Some(DrawRule {
                    move_number: required(&name, &kv, "movenumber")?,
                    move_count: required(&name, &kv, "movecount")?,
                    score: required(&name, &kv, "score")?,
                });
                only_keys(
                    &name,
                    &kv,
                    &["movenumber", "movecount", "score"],
                    "movenumber, movecount, score",
                )?;
            }
            "resign" => {
                let kv = key_values(flag)?;
                only_keys(
                    &name,
                    &kv,
                    &["movecount", "score", "twosided"],
                    "movecount, score, twosided",
                )?;
                adjudication.resign = Some(ResignRule {
                    move_count: required(&name, &kv, "movecount")?,
                    score: required(&name, &kv, "score")?,
                    two_sided: optional(&name, &kv, "twosided")?.unwrap_or(false),
                });
            }
            "maxmoves" => adjudication.max_moves = Some(positive(&name, one_value(flag)?)?),
            "sprt" => {
                let kv = key_values(flag)?;
                only_keys(
                    &name,
                    &kv,
                    &["elo0", "elo1", "alpha", "beta", "model"],
                    "elo0, elo1, alpha, beta, model",
                )?;
                let model = match kv.iter().find(|(k, _)| *k == "model") {
                    Some((_, v)) => v.parse::<EloModel>().map_err(|e| ArgsError::BadValue {
                        flag: name.clone(),
                        value: v.to_string(),
                        reason: e.to_string(),
                    })?,
                    None => EloModel::Normalized,
                };
                let s = Sprt::new(
                    required(&name, &kv, "elo0")?,
                    required(&name, &kv, "elo1")?,
                    optional(&name, &kv, "alpha")?.unwrap_or(0.05),
                    optional(&name, &kv, "beta")?.unwrap_or(0.05),
                    model,
                )
                .map_err(|e| ArgsError::BadValue {
                    flag: name.clone(),
                    value: flag.values.join(" "),
                    reason: e.to_string(),
                })?;
                sprt = Some(s);
            }
            "pgnout" => pgn_out = Some(PathBuf::from(one_value(flag)?)),
            "enginelog" => engine_log = Some(PathBuf::from(one_value(flag)?)),
            "srand" => seed = Some(number(&name, one_value(flag)?)?),
            "event" => event = flag.values.join(" "),
            "stalltimeout" => {
                let v = one_value(flag)?;
                stall_timeout = parse_seconds(v, v).map_err(|e| ArgsError::BadValue {
                    flag: name.clone(),
                    value: v.to_string(),
                    reason: e.to_string(),
                })?;
            }
            // Accepted for cutechess compatibility: restarting crashed engines is always on.
            "recover" => {}
            _ => return Err(ArgsError::UnknownFlag(name)),
        }
    }

    if specs.len() < 2 {
        return Err(ArgsError::TooFewEngines);
    }
    let mut engines: Vec<EngineConfig> = specs
        .iter()
        .map(|s| s.merged_over(&each).resolve(builtin, &rules, hidden))
        .collect();
    // Names must tell engines apart in tables and PGN.
    for i in 1..engines.len() {
        let base = engines[i].name.clone();
        let mut n = 2;
        while engines[..i].iter().any(|e| e.name == engines[i].name) {
            engines[i].name = format!("{base}-{n}");
            n += 1;
        }
    }
    if hidden && openings_given {
        return Err(ArgsError::HiddenOpenings);
    }
    if let Some(e) = engines.iter().find(|e| !e.limits.is_bounded()) {
        return Err(ArgsError::Unbounded(e.name.clone()));
    }
    if sprt.is_some() {
        if engines.len() != 2 {
            return Err(ArgsError::SprtEngines(engines.len()));
        }
        if games == 1 {
            games = 2;
        }
        if games % 2 == 1 {
            return Err(ArgsError::SprtOddGames(games));
        }
        repeat = true;
    }
    // An SPRT without -rounds runs until it decides (or 100 000 games).
    let rounds = rounds.unwrap_or(if sprt.is_some() {
        100_000 / games.max(1)
    } else {
        1
    });
    Ok(MatchArgs {
        engines,
        rules,
        kind,
        games,
        rounds,
        repeat,
        concurrency,
        openings,
        adjudication,
        sprt,
        pgn_out,
        seed,
        event,
        stall_timeout,
        engine_log,
        hidden,
    })
}

fn positive<T: std::str::FromStr + Default + PartialOrd>(
    flag: &str,
    value: &str,
) -> Result<T, ArgsError>
where
    T::Err: std::fmt::Display,
{
    let n: T = number(flag, value)?;
    if n <= T::default() {
        return Err(ArgsError::BadValue {
            flag: flag.to_string(),
            value: value.to_string(),
            reason: "must be at least 1".to_string(),
        });
    }
    Ok(n)
}

fn optional<T: std::str::FromStr>(
    flag: &str,
    kv: &[(&str, &str)],
    key: &'static str,
) -> Result<Option<T>, ArgsError>
where
    T::Err: std::fmt::Display,
{
    kv.iter()
        .find(|(k, _)| *k == key)
        .map(|(_, v)| number(&format!("{flag} {key}"), v))
        .transpose()
}

fn required<T: std::str::FromStr>(
    flag: &str,
    kv: &[(&str, &str)],
    key: &'static str,
) -> Result<T, ArgsError>
where
    T::Err: std::fmt::Display,
{
    optional(flag, kv, key)?.ok_or_else(|| ArgsError::MissingKey {
        flag: flag.to_string(),
        key,
    })
}

fn only_keys(
    flag: &str,
    kv: &[(&str, &str)],
    keys: &[&str],
    valid: &'static str,
) -> Result<(), ArgsError> {
    match kv.iter().find(|(k, _)| !keys.contains(k)) {
        Some((k, _)) => Err(ArgsError::UnknownKey {
            flag: flag.to_string(),
            key: k.to_string(),
            valid,
        }),
        None => Ok(()),
    }
}

fn parse_openings(flag: &str, kv: &[(&str, &str)]) -> Result<OpeningSource, ArgsError> {
    only_keys(
        flag,
        kv,
        &[
            "file", "format", "order", "plies", "start", "depth", "margin",
        ],
        "file, format, order, plies, start (files); plies, depth, margin (generated)",
    )?;
    let plies: Option<usize> = optional(flag, kv, "plies")?;
    let Some((_, file)) = kv.iter().find(|(k, _)| *k == "file") else {
        return Ok(OpeningSource::Generated {
            plies: plies.unwrap_or(8),
            depth: optional(flag, kv, "depth")?.unwrap_or(4),
            margin: optional(flag, kv, "margin")?.unwrap_or(150),
        });
    };
    let format = match kv.iter().find(|(k, _)| *k == "format") {
        Some((_, f)) => {
            f.parse()
                .map_err(|e: crate::openings::OpeningsError| ArgsError::BadValue {
                    flag: flag.to_string(),
                    value: f.to_string(),
                    reason: e.to_string(),
                })?
        }
        None if file.ends_with(".pgn") => OpeningFormat::Pgn,
        None => OpeningFormat::Epd,
    };
    let random_order = match kv.iter().find(|(k, _)| *k == "order").map(|(_, v)| *v) {
        None | Some("sequential") => false,
        Some("random") => true,
        Some(v) => {
            return Err(ArgsError::BadValue {
                flag: format!("{flag} order"),
                value: v.to_string(),
                reason: "expected sequential or random".to_string(),
            });
        }
    };
    Ok(OpeningSource::File {
        path: PathBuf::from(file),
        format,
        random_order,
        plies,
        start: optional(flag, kv, "start")?.unwrap_or(1).max(1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Result<MatchArgs, ArgsError> {
        let v: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        parse(&v, Path::new("/usr/bin/jungle"))
    }

    #[test]
    fn reads_a_cutechess_style_command_line() {
        let m = args(
            "-engine name=new option.Hash=64 -engine cmd=/opt/other args=--uci name=old tc=10+0.1 \
             -each st=0.5 depth=9 timemargin=50 -rules modern -games 2 -rounds 10 -repeat -concurrency 2 \
             -draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=600 -maxmoves 150 \
             -pgnout out.pgn -srand 42 -openings plies=6 depth=3 margin=100",
        )
        .unwrap();
        assert_eq!(m.engines.len(), 2);
        let new = &m.engines[0];
        assert_eq!(new.name, "new");
        assert_eq!(new.command, PathBuf::from("/usr/bin/jungle"));
        assert_eq!(new.args, vec!["uci"]);
        assert_eq!(
            new.options,
            vec![
                ("Rules".to_string(), "lion-tiger=equal".to_string()),
                ("Hash".to_string(), "64".to_string())
            ]
        );
        assert_eq!(new.limits.move_time, Some(Duration::from_millis(500)));
        assert_eq!(new.limits.depth, Some(9));
        assert_eq!(new.limits.time_margin, Duration::from_millis(50));
        let old = &m.engines[1];
        assert_eq!(old.command, PathBuf::from("/opt/other"));
        assert_eq!(old.args, vec!["--uci"]);
        assert_eq!(old.limits.time_control, "10+0.1".parse().unwrap());
        assert_eq!(
            (m.games, m.rounds, m.repeat, m.concurrency),
            (2, 10, true, 2)
        );
        assert_eq!(m.adjudication.max_moves, Some(150));
        assert_eq!(m.adjudication.resign.unwrap().score, 600);
        assert_eq!(m.adjudication.draw.unwrap().move_number, 40);
        assert_eq!(m.seed, Some(42));
        assert_eq!(
            m.openings,
            OpeningSource::Generated {
                plies: 6,
                depth: 3,
                margin: 100
            }
        );
    }

    #[test]
    fn sprt_forces_pairs_and_two_engines() {
        let m = args("-engine -engine -each nodes=1000 -sprt elo0=0 elo1=5 alpha=0.05 beta=0.1")
            .unwrap();
        assert!(m.repeat);
        assert_eq!(m.games, 2);
        assert_eq!(m.rounds, 50_000);
        let s = m.sprt.unwrap();
        assert_eq!(
            (s.elo0, s.elo1, s.beta, s.model),
            (0.0, 5.0, 0.1, EloModel::Normalized)
        );
        assert_eq!(m.engines[1].name, "jungle-2");
        assert_eq!(
            args("-engine -engine -engine -each depth=2 -sprt elo0=0 elo1=5").unwrap_err(),
            ArgsError::SprtEngines(3)
        );
        assert_eq!(
            args("-engine -engine -each depth=2 -games 3 -sprt elo0=0 elo1=5").unwrap_err(),
            ArgsError::SprtOddGames(3)
        );
    }

    #[test]
    fn bad_arguments_name_what_is_wrong() {
        let cases = [
            ("-engine -engine -each depth=2 -bogus", "-bogus"),
            ("-engine tc=abc -engine", "abc"),
            ("-engine -engine -each depth=2 -games 0", "-games"),
            ("-engine hash=5 -engine", "hash"),
            (
                "-engine -engine -each depth=2 -rules lion-tiger=huge",
                "lion-tiger",
            ),
            ("-engine -engine -each depth=2 -sprt elo0=5 elo1=0", "elo0"),
            (
                "-engine -engine -each depth=2 -draw movecount=3 score=5",
                "movenumber",
            ),
            (
                "-engine -engine -each depth=2 -openings file=x.epd order=shuffled",
                "shuffled",
            ),
            ("-engine -engine", "no limit"),
            ("-engine depth=2", "two engines"),
            ("stray -engine", "stray"),
        ];
        for (line, needle) in cases {
            let e = args(line).unwrap_err().to_string();
            assert!(e.contains(needle), "{line}: {e}");
        }
    }

    #[test]
    fn hidden_matches_start_the_hidden_engine_and_take_no_openings() {
        let m = args("-hidden -engine -engine cmd=/opt/bot -each st=0.1 -rules modern").unwrap();
        assert!(m.hidden);
        assert_eq!(m.engines[0].args, vec!["uci", "--hidden"]);
        assert!(
            m.engines.iter().all(|e| e.options.is_empty()),
            "rules go in the hidden lines, not option Rules"
        );
        assert_eq!(
            args("-hidden -engine -engine -each st=1 -openings plies=4").unwrap_err(),
            ArgsError::HiddenOpenings
        );
        assert!(args("-hidden yes -engine -engine -each st=1").is_err());
        assert!(!args("-engine -engine -each st=1").unwrap().hidden);
    }

    #[test]
    fn negative_values_are_not_flags() {
        let m = args(
            "-engine option.Contempt=-20 depth=1 -engine depth=1 -resign movecount=2 score=300",
        )
        .unwrap();
        assert_eq!(
            m.engines[0].options,
            vec![("Contempt".to_string(), "-20".to_string())]
        );
    }
}
