//! `jungle uci`: the engine protocol on stdin/stdout (see `docs/engine.md`).

use std::process::ExitCode;

use jungle_protocol::Session;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    let stdin = std::io::stdin().lock();
    Session::new(stdin, std::io::stdout()).run()?;
    Ok(ExitCode::SUCCESS)
}
