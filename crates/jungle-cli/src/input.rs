//! Shared argument handling: `--fen`/`--rules`, and turning errors into exit codes.

use std::fmt::Display;
use std::process::ExitCode;

use jungle_rules::{Position, Rules};

/// An error caused by what the user gave us (exit code 2), as opposed to a failure while working (exit code 1).
#[derive(Debug)]
pub struct BadInput(pub String);

impl Display for BadInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// Wraps any error message as bad input.
pub fn bad_input(e: impl Display) -> anyhow::Error {
    anyhow::Error::new(BadInput(e.to_string()))
}

/// `--fen` and `--rules`, shared by the commands that take a position.
#[derive(Debug, Clone, clap::Args)]
pub struct PositionArgs {
    /// The position (docs/rules.md FEN); default: the start position of the rules.
    #[arg(long)]
    pub fen: Option<String>,
    /// The rule option string (e.g. `modern,dog-swims=true`); default: the standard rules.
    #[arg(long, default_value = "")]
    pub rules: String,
}

impl PositionArgs {
    /// The validated rules and position.
    pub fn resolve(&self) -> anyhow::Result<(Rules, Position)> {
        let rules = parse_rules(&self.rules)?;
        let pos = match &self.fen {
            Some(fen) => Position::from_fen(fen, &rules).map_err(bad_input)?,
            None => Position::start(&rules),
        };
        Ok((rules, pos))
    }
}

pub fn parse_rules(text: &str) -> anyhow::Result<Rules> {
    text.parse::<Rules>().map_err(bad_input)
}

/// Prints a clap error: help and version go to stdout with success; usage errors as one line, exit code 2.
pub fn report_clap_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            eprintln!("jungle: a subcommand is required (see jungle --help)");
            ExitCode::from(2)
        }
        _ => {
            let text = e.render().to_string();
            let mut lines = text.lines().skip_while(|l| l.trim().is_empty());
            let mut message = lines
                .next()
                .unwrap_or("invalid arguments")
                .trim_start_matches("error: ")
                .trim_end()
                .to_string();
            // Clap lists what is missing on the indented lines below the first: keep them on the one line.
            for more in lines.take_while(|l| l.starts_with("  ")) {
                message.push(' ');
                message.push_str(more.trim());
            }
            eprintln!("jungle: {message} (see jungle --help)");
            ExitCode::from(2)
        }
    }
}

/// The exit code of a command's result, printing the error as one line.
pub fn exit_code(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(e) if is_closed_stdout(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let message = format!("{e:#}").replace('\n', " ");
            eprintln!("jungle: {message}");
            if e.downcast_ref::<BadInput>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}

/// Whether the error is stdout having been closed by the reader (`jungle moves | head`): not a failure.
fn is_closed_stdout(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
