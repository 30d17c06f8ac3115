//! `jungle rules`: every option with its default and values, and the presets;
//! `jungle rules check STRING`: validates an option string and prints its canonical form.

use std::process::ExitCode;

use jungle_rules::Preset;
use jungle_rules::rules::OPTIONS;

use crate::input::parse_rules;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Option<Action>,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Validate an option string; prints the canonical string, or the error with exit code 2.
    Check {
        /// The option string, e.g. `modern,dog-swims=true`.
        rules: String,
    },
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.action {
        Some(Action::Check { rules }) => {
            say!("{}", parse_rules(&rules)?);
        }
        None => {
            say!("options (name, default, values):");
            for o in OPTIONS {
                say!(
                    "  {:<28} {:<17} {:<34} {}",
                    o.name,
                    o.default,
                    o.values.join("|"),
                    o.help
                );
            }
            say!("presets (may stand first; later options override):");
            for p in Preset::ALL {
                let expansion = if p.expansion().is_empty() {
                    "(defaults)"
                } else {
                    p.expansion()
                };
                say!("  {:<16} {:<70} {}", p.name(), expansion, p.description());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
