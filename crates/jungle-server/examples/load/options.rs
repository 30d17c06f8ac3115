//! The load example's command line.

use std::time::Duration;

use crate::target::Target;

pub const USAGE: &str = "\
usage: load [--games N] [--seconds S] [--pace-ms MS] [--ramp-secs R] [--target URL[,URL...]]
            [--processes N] [--moves N] [--watch-pids PID[,PID...]]
  --games       concurrent game slots (default 500); a slot starts a new game when its game ends
  --seconds     the measured window, after the ramp (default 30)
  --pace-ms     each player thinks about this long (0.5x to 1.5x) before moving (default 500)
  --ramp-secs   the games begin evenly spread over this long (default: 4 ms a game)
  --target      servers to load, spreading the games over them; a game's two players use neighbouring
                targets (default: a server in this process on a throwaway SQLite file)
  --processes   client processes this one starts, each holding a share of the games (default 0: the
                clients run in this process)
  --moves       each slot stops after this many moves (default: at the end of the window)
  --watch-pids  server processes whose CPU time and resident memory are reported (Linux /proc)";

/// What one run does.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub games: usize,
    /// The measured window, after the ramp.
    pub window: Duration,
    pub pace: Duration,
    pub ramp: Duration,
    /// Empty: a server in this process.
    pub targets: Vec<Target>,
    /// 0: the clients run in this process.
    pub processes: usize,
    pub moves_per_slot: Option<u64>,
    pub watch_pids: Vec<u32>,
}

/// Games begun a second by default during the ramp: each costs two HTTP requests and two websocket handshakes.
const RAMP_GAMES_PER_SECOND: u64 = 250;

impl Options {
    /// Reads the arguments after the program's name.
    ///
    /// # Errors
    /// A message naming the argument that is unknown, lacks its value or has a bad one.
    pub fn parse(args: &[String]) -> Result<Options, String> {
        let mut options = Options {
            games: 500,
            window: Duration::from_secs(30),
            pace: Duration::from_millis(500),
            ramp: Duration::ZERO,
            targets: Vec::new(),
            processes: 0,
            moves_per_slot: None,
            watch_pids: Vec::new(),
        };
        let mut ramp = None;
        let mut args = args.iter();
        while let Some(name) = args.next() {
            let value = args.next().ok_or_else(|| format!("{name} needs a value"))?;
            match name.as_str() {
                "--games" => options.games = whole(name, value)?,
                "--seconds" => options.window = Duration::from_secs(whole(name, value)?),
                "--pace-ms" => options.pace = Duration::from_millis(whole(name, value)?),
                "--ramp-secs" => ramp = Some(Duration::from_secs(whole(name, value)?)),
                "--target" => {
                    options.targets = value
                        .split(',')
                        .map(Target::parse)
                        .collect::<Result<_, _>>()?;
                }
                "--processes" => options.processes = whole(name, value)?,
                "--moves" => options.moves_per_slot = Some(whole(name, value)?),
                "--watch-pids" => {
                    options.watch_pids = value
                        .split(',')
                        .map(|pid| whole(name, pid))
                        .collect::<Result<_, _>>()?;
                }
                _ => return Err(format!("unknown argument {name}")),
            }
        }
        if options.games == 0 {
            return Err("--games should be at least 1".to_string());
        }
        if options.processes > options.games {
            return Err(format!(
                "--processes {} is more than the {} games to share out",
                options.processes, options.games
            ));
        }
        options.ramp = ramp.unwrap_or_else(|| {
            Duration::from_millis(options.games as u64 * 1000 / RAMP_GAMES_PER_SECOND)
        });
        Ok(options)
    }
}

fn whole<T: std::str::FromStr>(name: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("{name}: \"{value}\" should be a whole number"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &str) -> Result<Options, String> {
        let args: Vec<String> = args.split_whitespace().map(String::from).collect();
        Options::parse(&args)
    }

    #[test]
    fn defaults_and_every_option() {
        let defaults = parse("").unwrap();
        assert_eq!(defaults.games, 500);
        assert_eq!(defaults.ramp, Duration::from_secs(2));
        assert!(defaults.targets.is_empty());
        let options = parse(
            "--games 20000 --seconds 300 --pace-ms 10000 --ramp-secs 90 --target \
             http://127.0.0.1:8080,127.0.0.1:8081 --processes 4 --moves 7 --watch-pids 10,11",
        )
        .unwrap();
        assert_eq!(options.games, 20000);
        assert_eq!(options.window, Duration::from_secs(300));
        assert_eq!(options.pace, Duration::from_secs(10));
        assert_eq!(options.ramp, Duration::from_secs(90));
        assert_eq!(options.targets.len(), 2);
        assert_eq!(options.targets[1].authority, "127.0.0.1:8081");
        assert_eq!(options.processes, 4);
        assert_eq!(options.moves_per_slot, Some(7));
        assert_eq!(options.watch_pids, vec![10, 11]);
    }

    #[test]
    fn bad_arguments_are_named() {
        assert_eq!(parse("--games").unwrap_err(), "--games needs a value");
        assert_eq!(
            parse("--games many").unwrap_err(),
            "--games: \"many\" should be a whole number"
        );
        assert_eq!(parse("--fast 1").unwrap_err(), "unknown argument --fast");
        assert_eq!(
            parse("--games 0").unwrap_err(),
            "--games should be at least 1"
        );
        assert!(
            parse("--games 2 --processes 3")
                .unwrap_err()
                .contains("more than")
        );
        assert!(parse("--target https://x:1").unwrap_err().contains("https"));
        assert!(parse("--watch-pids 1,x").is_err());
    }
}
