//! `jungle match`: engine-vs-engine matches and tournaments with cutechess-cli's flags, a live progress bar,
//! a final table, PGN and SPRT. The work is done by the `jungle-match` crate; this file reads the flags,
//! shows progress and prints the results.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use jungle_match::engine::{EngineError, EngineProcess};
use jungle_match::sprt::SprtStatus;
use jungle_match::standings::Standings;
use jungle_match::tournament::{self, MatchEvent, SprtState};
use jungle_match::{args, setup};

use crate::input::bad_input;

const FLAGS_HELP: &str = "\
Flags (cutechess-cli style, one dash):
  -engine KEY=VALUE...   an engine; keys: cmd=PATH (none or cmd=jungle: the built-in engine),
                         args=\"A B\" | arg=A (repeatable), name=NAME, dir=DIR, option.NAME=VALUE,
                         tc=40/60+0.6 | tc=10+0.1 | tc=inf, st=SECONDS (fixed time per move),
                         depth=N, nodes=N, timemargin=MS (lateness forgiven before a time loss, 100)
  -each KEY=VALUE...     the same keys, for every engine (an engine's own keys win)
  -rules STRING          the rule options (docs/rules.md); also sent to the engines as option Rules
  -hidden                Hidden Jungle (docs/hidden.md): each engine chooses its setup and is sent only
                         its own view; the built-in engine is `jungle uci --hidden`
  -games N               games per pairing per round (1)
  -rounds N              rounds (1; with -sprt: until a bound is crossed)
  -repeat                play each opening twice, colours swapped (game pairs)
  -concurrency N         games played at once (1)
  -tournament round-robin|gauntlet
  -openings file=F format=epd|pgn order=sequential|random plies=N start=N
  -openings plies=N depth=D margin=CP
                         generated openings (the default: 8 random plies, kept when a depth-4
                         search of the built-in engine scores within 150 cp)
  -draw movenumber=N movecount=N score=CP
  -resign movecount=N score=CP [twosided=true]
  -maxmoves N            draw a game still going after N moves
  -sprt elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] [model=normalized|logistic]
                         stop when the pentanomial LLR crosses a bound (two engines; implies -repeat)
  -pgnout FILE           append every game as PGN
  -srand N               seed for openings (printed when not given)
  -event NAME            the PGN Event tag
  -stalltimeout SECONDS  wait for a move without clock or move time before forfeiting (60)
  -enginelog FILE        append every line sent to (>) and received from (<) the engines
  -ratinginterval N      print the score every N games (10)

Example: jungle match -engine name=full -engine name=weak option.SkillLevel=4 -each tc=10+0.1 \\
           -games 2 -rounds 50 -repeat -concurrency 2 -pgnout games.pgn
An engine that crashes, hangs, plays an illegal move or overruns its time loses that game; the reason
goes into the PGN and the table, the engine is restarted and the match goes on.";

/// Play engine-vs-engine matches and tournaments.
#[derive(Debug, clap::Args)]
#[command(after_help = FLAGS_HELP)]
pub struct Args {
    /// The cutechess-style flags below.
    #[arg(
        value_name = "FLAGS",
        num_args = 0..,
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    flags: Vec<String>,
}

pub fn run(cli: Args) -> anyhow::Result<ExitCode> {
    // `-ratinginterval` is about this command's printing, not the match.
    let (flags, rating_interval) = take_rating_interval(cli.flags)?;
    let builtin = std::env::current_exe()?;
    let parsed = args::parse(&flags, &builtin).map_err(bad_input)?;
    let seed = parsed.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });

    // Every engine must start once, or the whole match would be forfeits.
    for engine in &parsed.engines {
        match EngineProcess::start(engine, Duration::from_secs(10), None) {
            Ok(p) => p.quit(),
            Err(e @ EngineError::Spawn { .. }) => return Err(bad_input(e)),
            Err(e) => anyhow::bail!("{e}"),
        }
    }

    let total = setup::scheduled_games(&parsed);
    let generated =
        !parsed.hidden && matches!(parsed.openings, args::OpeningSource::Generated { .. });
    if generated {
        eprintln!("Generating openings (seed {seed})...");
    }
    let config = setup::build(&parsed, seed, today()).map_err(bad_input)?;
    let start = if config.settings.hidden {
        "Hidden Jungle, setups chosen by the engines".to_string()
    } else {
        format!("{} openings", config.openings.len())
    };
    say!(
        "{} engines, {} games scheduled, {start}, rules {}, seed {seed}",
        config.engines.len(),
        total,
        config.settings.rules
    );
    if let Some(sprt) = &config.sprt {
        say!(
            "SPRT: {sprt}; bounds {:.2} and {:.2}",
            sprt.lower_bound(),
            sprt.upper_bound()
        );
    }

    let bar = ProgressBar::new(total as u64);
    if std::io::stderr().is_terminal() {
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed_precise} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
    } else {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    let two = config.engines.len() == 2;
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let mut on_event = |event: &MatchEvent<'_>| {
        let MatchEvent::GameFinished {
            game,
            record,
            standings,
            sprt,
            finished,
            ..
        } = event;
        bar.set_position(*finished as u64);
        bar.set_message(progress_message(standings, *sprt, two));
        let line = format!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            game.number,
            names[game.players.blue],
            names[game.players.red],
            record.outcome.result_str(),
            record.reason
        );
        let mut lines = vec![line];
        if finished % rating_interval == 0 {
            lines.extend(rating_lines(standings, *sprt, two));
        }
        for l in lines {
            bar.suspend(|| println!("{l}"));
        }
    };
    let summary = tournament::run(&config, &mut on_event)?;
    bar.finish_and_clear();

    say!();
    for line in rating_lines(&summary.standings, summary.sprt, two) {
        say!("{line}");
    }
    if let Some(state) = summary.sprt {
        let verdict = match state.status {
            SprtStatus::AcceptH1 => {
                "H1 accepted: the first engine gains elo1 (rather than elo0) over the second"
            }
            SprtStatus::AcceptH0 => {
                "H0 accepted: the first engine does not gain elo1 over the second"
            }
            SprtStatus::Continue => "no decision: the games ran out before a bound was crossed",
        };
        say!("SPRT result: {verdict}");
    }
    say!();
    say!("{}", summary.standings.table().trim_end_matches('\n'));
    let forfeits: Vec<_> = summary
        .games
        .iter()
        .filter(|g| matches!(g.termination, "time forfeit" | "illegal move" | "abandoned"))
        .collect();
    if !forfeits.is_empty() {
        say!("Forfeits:");
        for g in forfeits {
            say!(
                "  game {} ({} vs {}): {} {}",
                g.number,
                names[g.players.blue],
                names[g.players.red],
                g.result,
                g.reason
            );
        }
    }
    if let Some(path) = &config.pgn_out {
        say!("PGN: {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// Removes `-ratinginterval N` (default 10) from the flags.
fn take_rating_interval(mut flags: Vec<String>) -> anyhow::Result<(Vec<String>, usize)> {
    let Some(i) = flags.iter().position(|f| f == "-ratinginterval") else {
        return Ok((flags, 10));
    };
    let value = flags.get(i + 1).cloned().unwrap_or_default();
    let n: usize = value.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
        bad_input(format!(
            "-ratinginterval: bad value \"{value}\": expected a number of games (1 or more)"
        ))
    })?;
    flags.drain(i..(i + 2).min(flags.len()));
    Ok((flags, n))
}

fn progress_message(standings: &Standings, sprt: Option<SprtState>, two: bool) -> String {
    if !two {
        return format!("{} games", standings.games());
    }
    let wld = standings.head_to_head[0][1];
    let mut msg = format!(
        "W {} L {} D {} score {:.1}%",
        wld.wins,
        wld.losses,
        wld.draws,
        wld.score() * 100.0
    );
    if let Some(est) = wld
        .elo()
        .filter(|e| e.elo.is_finite() && e.error.is_finite())
    {
        msg.push_str(&format!(" Elo {est}"));
    }
    msg.push_str(&format!(" LOS {:.1}%", wld.los() * 100.0));
    if let Some(s) = sprt {
        msg.push_str(&format!(
            " LLR {:.2} ({:.2}, {:.2})",
            s.llr,
            s.sprt.lower_bound(),
            s.sprt.upper_bound()
        ));
    }
    msg
}

fn rating_lines(standings: &Standings, sprt: Option<SprtState>, two: bool) -> Vec<String> {
    let mut lines = Vec::new();
    if two {
        lines.push(standings.score_line(0, 1));
        lines.extend(standings.elo_line(0, 1).lines().map(str::to_string));
    } else {
        lines.push(format!("{} games played", standings.games()));
    }
    if let Some(s) = sprt {
        lines.push(format!(
            "SPRT: llr {:.3} ({:.1}%), lbound {:.2}, ubound {:.2} - {}",
            s.llr,
            s.llr / s.sprt.upper_bound() * 100.0,
            s.sprt.lower_bound(),
            s.sprt.upper_bound(),
            s.status
        ));
    }
    lines
}

/// Today's date (UTC) as PGN writes it, `YYYY.MM.DD`.
fn today() -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    jungle_rules::pgn::date_tag(seconds as i64)
}
