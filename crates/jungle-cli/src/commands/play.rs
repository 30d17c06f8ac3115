//! `jungle play`: the terminal game. Full screen on a terminal; a plain line mode (board printed, one move or
//! command per line) when standard input is not a terminal or with `--lines`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use jungle_play::config::parse_side;
use jungle_play::record::read_pgn;
use jungle_play::{App, HiddenApp, HiddenConfig, JungleEngine, Mode, PlayConfig, TimeControl};
use jungle_rules::Game;

use jungle_hidden::ai::HiddenAi;
use jungle_hidden::{Arrangement, HiddenGame};
use jungle_play::hidden::HiddenMatch;
use jungle_rules::Side;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::input::{PositionArgs, bad_input, parse_rules};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Who plays: `engine` (you against the engine), `two-players` (one keyboard), `watch` (engine vs engine).
    #[arg(long, default_value = "engine")]
    mode: String,
    /// The engine's skill level, 1 (weakest) to 8 (full strength).
    #[arg(long, default_value_t = 4)]
    level: u8,
    /// Your side against the engine: `blue` (moves first) or `red`.
    #[arg(long, default_value = "blue")]
    side: String,
    /// Clocks: minutes per side + seconds added per move, e.g. `5+3`; none by default.
    #[arg(long)]
    tc: Option<String>,
    /// The engine's thinking time per move in milliseconds (less when a clock runs short).
    #[arg(long, default_value_t = 1000)]
    movetime: u64,
    /// Continue a game saved as PGN (its rules, start position and moves).
    #[arg(long, conflicts_with = "fen")]
    load: Option<PathBuf>,
    /// Where `s` (and the offer to save on quit) writes the game; default `jungle-DATE-TIME.pgn`.
    #[arg(long)]
    save: Option<PathBuf>,
    /// Plain letters instead of Chinese characters, for terminals without CJK fonts.
    #[arg(long)]
    ascii: bool,
    /// The line mode even on a terminal.
    #[arg(long)]
    lines: bool,
    /// Hidden Jungle against the engine (docs/hidden.md): enemy pieces stay unknown until revealed.
    #[arg(long, conflicts_with_all = ["fen", "load", "tc"])]
    hidden: bool,
    /// With --hidden: your setup as animal letters in start-square order (e.g. `TLCDEWPR` for Blue); chosen on
    /// screen (or random in the line mode) by default.
    #[arg(long, requires = "hidden")]
    setup: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.hidden {
        return run_hidden(&args);
    }
    let mode: Mode = args.mode.parse().map_err(bad_input)?;
    let time_control = args
        .tc
        .as_deref()
        .map(str::parse::<TimeControl>)
        .transpose()
        .map_err(bad_input)?;
    let config = PlayConfig {
        mode,
        human_side: parse_side(&args.side).map_err(bad_input)?,
        level: args.level,
        movetime: Duration::from_millis(args.movetime),
        time_control,
        ascii: args.ascii,
        save_path: args.save.unwrap_or_else(default_save_path),
    };
    config.validate().map_err(bad_input)?;
    let game = match &args.load {
        Some(path) => {
            if !args.position.rules.is_empty() {
                return Err(bad_input(
                    "--load takes the rules from the record's Rules tag: drop --rules",
                ));
            }
            let text = std::fs::read_to_string(path)
                .map_err(|e| bad_input(format!("cannot read {}: {e}", path.display())))?;
            read_pgn(&text).map_err(|e| bad_input(format!("{}: {e}", path.display())))?
        }
        None => {
            let (rules, position) = args.position.resolve()?;
            Game::from_position(rules, position)
        }
    };
    let mut app = App::new(game, config, Arc::new(JungleEngine));
    if args.lines || !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        let stdin = std::io::stdin();
        jungle_play::run_lines(&mut app, stdin.lock(), &mut std::io::stdout().lock())?;
    } else {
        jungle_play::run_terminal(&mut app)?;
        if !app.is_dirty() && !app.game().moves().is_empty() {
            println!("game saved to {}", app.config().save_path.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `jungle play --hidden`: full screen on a terminal (the setup arranged on screen unless `--setup` gives it),
/// else the line mode (the setup given or random); the record (with both setups once the game is over) is
/// saved to `--save` or the default name.
fn run_hidden(args: &Args) -> anyhow::Result<ExitCode> {
    let rules = parse_rules(&args.position.rules)?;
    let human = parse_side(&args.side).map_err(bad_input)?;
    if args.mode != "engine" {
        return Err(bad_input(
            "--hidden plays against the engine (--mode engine)",
        ));
    }
    if !(1..=8).contains(&args.level) {
        return Err(bad_input("--level must be 1 to 8"));
    }
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut rng = StdRng::seed_from_u64(seed);
    let given = args
        .setup
        .as_ref()
        .map(|text| Arrangement::parse(&rules, human, text))
        .transpose()
        .map_err(|e| bad_input(format!("--setup: {e}")))?;
    let save_path = args.save.clone().unwrap_or_else(default_save_path);
    if !args.lines && std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        let mut app = HiddenApp::new(HiddenConfig {
            rules,
            human,
            level: args.level,
            movetime: Duration::from_millis(args.movetime),
            ascii: args.ascii,
            save_path,
            setup: given,
            seed: rng.random(),
        });
        jungle_play::run_terminal(&mut app)?;
        if let Some(record) = app.record().filter(|r| !r.moves.is_empty())
            && app.is_dirty()
        {
            let path = &app.config().save_path;
            std::fs::write(path, record.to_pgn())?;
            println!("game saved to {}", path.display());
        }
        return Ok(ExitCode::SUCCESS);
    }
    let own = given.unwrap_or_else(|| Arrangement::random(&rules, human, &mut rng));
    let ai = HiddenAi::new(args.level, rng.random());
    let theirs = ai.choose_setup(&rules, !human);
    let (blue, red) = match human {
        Side::Blue => (own, theirs),
        Side::Red => (theirs, own),
    };
    let game = HiddenGame::new(rules, blue, red).map_err(bad_input)?;
    let mut hidden = HiddenMatch {
        game,
        human,
        ai,
        movetime: Duration::from_millis(args.movetime),
    };
    let stdin = std::io::stdin();
    let record = hidden.run(stdin.lock(), &mut std::io::stdout().lock())?;
    if !record.moves.is_empty() {
        std::fs::write(&save_path, record.to_pgn())?;
        println!("game saved to {}", save_path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// `jungle-YYYY.MM.DD-HHMMSS.pgn` in the current directory: a new name for each game session.
fn default_save_path() -> PathBuf {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let day = seconds % 86_400;
    PathBuf::from(format!(
        "jungle-{}-{:02}{:02}{:02}.pgn",
        jungle_play::record::today(),
        day / 3600,
        day % 3600 / 60,
        day % 60
    ))
}
