//! `jungle tb`: endgame tablebases.
//!
//! - `jungle tb generate --pieces N [--rules STRING] [--material KEY… [--only]] --out DIR [--threads N]
//!   [--memory-mb M] [--dtz]` (`--dtz`: also the tables of distances to the next capture, `KEY.jtz`; `--only`:
//!   not the smaller materials, whose tables must be in DIR)
//! - `jungle tb plan --pieces N [--rules STRING] [--material KEY…]`: the materials `generate` would make, fewest
//!   pieces first, each with its index count and the materials its captures lead to (`KEY indices N needs A B`)
//!   — the task graph of a distributed run.
//! - `jungle tb probe --dir DIR --fen FEN [--rules STRING]`: first line `wdl win|draw|loss` (side to move),
//!   second `plies N` (`plies -` for a draw), `dtz N` (plies to the next capture or the end; `dtz -`) when the
//!   directory has that table, then every legal move with its value for the mover, best first.
//! - `jungle tb stats DIR`: per material positions, wins/draws/losses and the longest win with its position.
//! - `jungle tb verify DIR [--material KEY…]`: checks every stored value (or those of the given materials)
//!   against its successors, in both kinds of table (exit 1 on a mismatch).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use jungle_rules::{Position, Rules};
use jungle_tb::{
    BuildEvent, BuildOptions, Indexer, Material, MaterialReport, Metric, Stage, Tablebases,
    TbError, WdlCounts, file, report_for, verify_table,
};

use crate::input::{bad_input, parse_rules};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: TbCommand,
}

#[derive(Debug, clap::Subcommand)]
enum TbCommand {
    /// Generate the tables of every material with up to N pieces (or of the given materials).
    Generate(GenerateArgs),
    /// List the materials generate would make, each with its index count and the materials it needs.
    Plan(Selection),
    /// Look a position up: its value, then every legal move's value.
    Probe(ProbeArgs),
    /// Per-material figures of a directory of tables.
    Stats(DirArgs),
    /// Check every stored value against its successors.
    Verify(VerifyArgs),
}

/// Which materials: every one with up to N pieces, or the given keys.
#[derive(Debug, clap::Args)]
struct Selection {
    /// Every material with 2 to N pieces (with --material: the most pieces allowed).
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=6))]
    pieces: Option<u8>,
    /// The rule option string the tables are made under; default: the standard rules.
    #[arg(long, default_value = "")]
    rules: String,
    /// Only these materials (keys such as LR-e: Blue's animals in capitals, '-', Red's), with the smaller
    /// materials they need.
    #[arg(long, num_args = 1..)]
    material: Vec<String>,
}

#[derive(Debug, clap::Args)]
struct GenerateArgs {
    #[command(flatten)]
    selection: Selection,
    /// Make only the --material keys, not the smaller materials they need, whose tables must already be in
    /// --out (one task of a distributed run).
    #[arg(long, requires = "material")]
    only: bool,
    /// The directory to write the tables to (created if needed; existing intact tables are kept).
    #[arg(long)]
    out: PathBuf,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// The most working memory for one material, in MB.
    #[arg(long, default_value_t = 12_000)]
    memory_mb: u64,
    /// Also make the tables of distances to the next capture (KEY.jtz), which the engine needs to play
    /// endings under the quiet-ply rule.
    #[arg(long)]
    dtz: bool,
}

#[derive(Debug, clap::Args)]
struct ProbeArgs {
    /// The directory of tables.
    #[arg(long)]
    dir: PathBuf,
    /// The position (docs/rules.md FEN).
    #[arg(long)]
    fen: String,
    /// The rule option string; must be the rules the tables were made under. Default: the standard rules.
    #[arg(long, default_value = "")]
    rules: String,
}

#[derive(Debug, clap::Args)]
struct DirArgs {
    /// The directory of tables.
    dir: PathBuf,
}

#[derive(Debug, clap::Args)]
struct VerifyArgs {
    /// The directory of tables.
    dir: PathBuf,
    /// Only these materials (their sub-tables must be in the directory too); default: every table.
    #[arg(long, num_args = 1..)]
    material: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        TbCommand::Generate(a) => generate(a),
        TbCommand::Plan(a) => plan(&a),
        TbCommand::Probe(a) => probe(a),
        TbCommand::Stats(a) => stats(&a.dir),
        TbCommand::Verify(a) => verify(&a),
    }
}

/// File and rules problems are the user's input; anything else is a failure while working.
fn classify(e: TbError) -> anyhow::Error {
    match e {
        TbError::Io { .. } => anyhow::Error::new(e),
        _ => bad_input(e),
    }
}

/// The rules and the materials a selection names (every one with up to `--pieces` without `--material`).
fn select(selection: &Selection) -> anyhow::Result<(Rules, Vec<Material>)> {
    let rules = parse_rules(&selection.rules)?;
    let mut materials = Vec::new();
    for key in &selection.material {
        let m: Material = key.parse().map_err(bad_input)?;
        if let Some(n) = selection.pieces
            && m.piece_count() > usize::from(n)
        {
            return Err(bad_input(format!(
                "material {key} has {} pieces, more than --pieces {n}",
                m.piece_count()
            )));
        }
        if !m.in_play(&rules) {
            return Err(bad_input(TbError::NotInPlay {
                material: key.clone(),
                rules: rules.to_string(),
            }));
        }
        materials.push(m);
    }
    if materials.is_empty() {
        let Some(n) = selection.pieces else {
            return Err(bad_input("tb needs --pieces N or --material KEY"));
        };
        for k in 2..=usize::from(n) {
            materials.extend(Material::all_with(k, &rules));
        }
    }
    Ok((rules, materials))
}

fn plan(selection: &Selection) -> anyhow::Result<ExitCode> {
    let (rules, materials) = select(selection)?;
    for material in jungle_tb::plan(&materials) {
        let needs: Vec<String> = material
            .captures_lead_to()
            .iter()
            .map(|m| m.to_string())
            .collect();
        say!(
            "{material} indices {} needs {}",
            Indexer::new(material, &rules).size(),
            if needs.is_empty() {
                "-".to_string()
            } else {
                needs.join(" ")
            }
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn generate(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    let (rules, materials) = select(&args.selection)?;
    let options = BuildOptions {
        with_smaller_materials: !args.only,
        out: args.out.clone(),
        materials,
        memory_limit: args.memory_mb << 20,
        threads: args.threads,
        dtz: args.dtz,
    };
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} indices  {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    let planned = Mutex::new(0u64);
    let cpu_at_start = Mutex::new(0.0f64);
    let started = Instant::now();
    let on_event = |event: BuildEvent| match event {
        BuildEvent::Plan(plan) => {
            let total: u64 = plan.iter().map(|(_, n)| n).sum();
            *planned.lock().expect("not poisoned") = total;
            bar.set_length(total);
            bar.println(format!(
                "plan: {} materials, {total} indices, rules {rules}",
                plan.len()
            ));
        }
        BuildEvent::Start { material, .. } => {
            *cpu_at_start.lock().expect("not poisoned") = cpu_seconds().unwrap_or(0.0);
            bar.set_message(format!("{material}: scanning"))
        }
        BuildEvent::Stage { material, stage } => match stage {
            Stage::Scan { done, total } => bar.set_message(format!(
                "{material}: scanning {}%",
                done * 100 / total.max(1)
            )),
            Stage::Level { plies, decided } => {
                bar.set_message(format!("{material}: distance {plies}, {decided} decided"))
            }
        },
        BuildEvent::Done(report) => {
            bar.inc(report.indices);
            let cpu = cpu_seconds().map(|now| now - *cpu_at_start.lock().expect("not poisoned"));
            bar.suspend(|| println!("{}", report_line(&report, cpu)));
        }
    };
    let reports = jungle_tb::build(&rules, &options, &on_event).map_err(classify)?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    print_totals(&reports, seconds)?;
    Ok(ExitCode::SUCCESS)
}

fn report_line(r: &MaterialReport, cpu: Option<f64>) -> String {
    let (table, longest) = match r.metric {
        Metric::End => (r.material.to_string(), "longest win"),
        Metric::Zeroing => (
            format!("{} dtz", r.material),
            "longest win before a capture",
        ),
    };
    let longest = match (r.stats.longest_win, &r.longest_win_fen) {
        (Some((n, _)), Some(fen)) => format!("{longest} {n} plies ({fen})"),
        _ => "no wins".to_string(),
    };
    let how = if r.kept {
        "kept existing file".to_string()
    } else {
        format!(
            "{:.2} s ({} CPU), {:.1} MB working memory",
            r.seconds,
            cpu.map_or("unknown".to_string(), |c| format!("{c:.2} s")),
            r.working_bytes as f64 / 1048576.0
        )
    };
    format!(
        "{table} positions {} wins {} draws {} losses {} file {} bytes, {how}; {longest}",
        r.stats.positions, r.stats.wins, r.stats.draws, r.stats.losses, r.file_bytes
    )
}

fn print_totals(reports: &[MaterialReport], seconds: f64) -> anyhow::Result<()> {
    let materials = reports.iter().filter(|r| r.metric == Metric::End).count();
    let positions: u64 = reports
        .iter()
        .filter(|r| r.metric == Metric::End)
        .map(|r| r.stats.positions)
        .sum();
    let bytes: u64 = reports.iter().map(|r| r.file_bytes).sum();
    let working = reports.iter().map(|r| r.working_bytes).max().unwrap_or(0);
    say!(
        "total {} materials, {positions} positions, {bytes} bytes on disk, {seconds:.1} s ({} CPU), largest working set {:.1} MB, peak resident memory {}",
        materials,
        cpu_seconds().map_or("unknown".to_string(), |c| format!("{c:.1} s")),
        working as f64 / 1048576.0,
        peak_memory().unwrap_or_else(|| "unknown".to_string())
    );
    Ok(())
}

/// CPU time (user + system) the process has used so far, from Linux `/proc/self/stat`: on a shared machine
/// it says more about the work than the wall clock does.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    // After the command name: state is field 3, utime 14 and stime 15 (1-based, in clock ticks of 1/100 s).
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

/// The process's peak resident memory (Linux `VmHWM`).
fn peak_memory() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.trim_start_matches("VmHWM:").trim().to_string())
}

fn probe(args: ProbeArgs) -> anyhow::Result<ExitCode> {
    let rules = parse_rules(&args.rules)?;
    let pos = Position::from_fen(&args.fen, &rules).map_err(bad_input)?;
    let tables = Tablebases::open(&args.dir, &rules).map_err(classify)?;
    let Some(value) = tables.probe(&pos) else {
        let material = Material::of(&pos);
        let why = if material.blue == 0 || material.red == 0 {
            "a side without pieces has no table".to_string()
        } else {
            format!(
                "no table for material {} in {}",
                material.canonical(),
                args.dir.display()
            )
        };
        return Err(bad_input(format!("cannot probe {}: {why}", args.fen)));
    };
    let moves = tables.probe_moves(&pos);
    if !pos.legal_moves(&rules).is_empty() && moves.is_none() {
        return Err(bad_input(format!(
            "cannot value the moves of {}: a successor's table is missing from {}",
            args.fen,
            args.dir.display()
        )));
    }
    say!("wdl {}", value.wdl);
    match value.plies {
        Some(n) => say!("plies {n}"),
        None => say!("plies -"),
    }
    if !tables.zeroing_materials().is_empty()
        && let Some(zeroing) = tables.probe_zeroing(&pos)
    {
        match zeroing.plies {
            Some(n) => say!("dtz {n}"),
            None => say!("dtz -"),
        }
    }
    for (m, v) in moves.unwrap_or_default() {
        say!("{m} {v}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The tables of a directory under the rules they were made with.
fn open_dir(dir: &Path) -> anyhow::Result<(Rules, Tablebases)> {
    let tables = Tablebases::open_dir(dir).map_err(classify)?;
    Ok((tables.rules().clone(), tables))
}

fn stats(dir: &Path) -> anyhow::Result<ExitCode> {
    let (rules, mut tables) = open_dir(dir)?;
    say!("rules {rules}");
    let mut total = 0u64;
    for material in tables.materials() {
        let table = tables.load(material).map_err(classify)?;
        let size =
            std::fs::metadata(file::table_path(dir, material, Metric::End)).map_or(0, |m| m.len());
        let report = report_for(&table, 0.0, size, 0, true);
        // One table in memory at a time: a directory of 4-piece tables is over 13 GB unpacked.
        drop(table);
        tables.release(material);
        total += report.stats.positions;
        let longest = match (report.stats.longest_win, &report.longest_win_fen) {
            (Some((n, _)), Some(fen)) => format!("longest-win {n} {fen}"),
            _ => "longest-win -".to_string(),
        };
        let by_side = report.stats.by_side_to_move;
        say!(
            "{} positions {} wins {} draws {} losses {} blue-to-move {} red-to-move {} bytes {} {longest}",
            material,
            report.stats.positions,
            report.stats.wins,
            report.stats.draws,
            report.stats.losses,
            wdl_counts(&by_side.blue),
            wdl_counts(&by_side.red),
            size
        );
    }
    say!(
        "total {} materials {total} positions",
        tables.materials().len()
    );
    Ok(ExitCode::SUCCESS)
}

/// `wins/draws/losses` of the side to move.
fn wdl_counts(c: &WdlCounts) -> String {
    format!("{}/{}/{}", c.wins, c.draws, c.losses)
}

fn verify(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let dir = args.dir.as_path();
    let (rules, mut tables) = open_dir(dir)?;
    let mut failed = 0;
    let mut materials = tables.materials();
    if !args.material.is_empty() {
        let mut asked = Vec::new();
        for key in &args.material {
            let m = key.parse::<Material>().map_err(bad_input)?.canonical();
            if !materials.contains(&m) {
                return Err(bad_input(format!(
                    "no table for material {m} in {}",
                    dir.display()
                )));
            }
            asked.push(m);
        }
        materials.retain(|m| asked.contains(m));
    }
    let mut checked = materials.len();
    let mut pieces = 0;
    for &material in &materials {
        // Materials come fewest pieces first, and a table's successors have one piece fewer: on reaching a
        // new piece count the tables two counts down are not needed any more. Each table is released after
        // its own check, so memory holds the sub-tables in use, not the directory.
        if material.piece_count() != pieces {
            pieces = material.piece_count();
            for &done in materials.iter().filter(|m| m.piece_count() + 1 < pieces) {
                tables.release(done);
            }
        }
        let table = tables.load(material).map_err(classify)?;
        let bar = ProgressBar::new(table.indexer().size());
        bar.set_message(material.to_string());
        let report = verify_table(&table, &rules, &|m| tables.table(m), &|done, _| {
            bar.set_position(done)
        })
        .map_err(classify)?;
        bar.finish_and_clear();
        if report.mismatches == 0 {
            say!("{material} ok {} positions", report.checked);
        } else {
            failed += 1;
            say!(
                "{material} FAILED {} of {} positions",
                report.mismatches,
                report.checked
            );
            for example in &report.examples {
                say!("  {example}");
            }
        }
        drop(table);
        if let Some(zeroing) = tables.zeroing_table(material) {
            let report = verify_table(&zeroing, &rules, &|m| tables.table(m), &|_, _| {})
                .map_err(classify)?;
            checked += 1;
            if report.mismatches == 0 {
                say!("{material} dtz ok {} positions", report.checked);
            } else {
                failed += 1;
                say!(
                    "{material} dtz FAILED {} of {} positions",
                    report.mismatches,
                    report.checked
                );
                for example in &report.examples {
                    say!("  {example}");
                }
            }
        }
        tables.release(material);
    }
    if failed == 0 {
        say!("verified {checked} tables");
        Ok(ExitCode::SUCCESS)
    } else {
        say!("{failed} tables FAILED");
        Ok(ExitCode::from(1))
    }
}
