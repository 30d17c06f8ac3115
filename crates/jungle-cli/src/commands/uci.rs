//! `jungle uci`: the engine protocol on stdin/stdout (see `docs/engine.md`).

use std::process::ExitCode;

use jungle_protocol::{HiddenSession, Session};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Play Hidden Jungle: the `hidden setup` / `hidden position` extension (docs/hidden.md).
    #[arg(long)]
    hidden: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let stdin = std::io::stdin().lock();
    if args.hidden {
        HiddenSession::new(stdin, std::io::stdout()).run()?;
    } else {
        Session::new(stdin, std::io::stdout()).run()?;
    }
    Ok(ExitCode::SUCCESS)
}
