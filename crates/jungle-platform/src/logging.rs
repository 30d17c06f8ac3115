//! Logging: `tracing` events as readable lines for a person at a terminal, or one JSON object per line for a
//! log collector in production. `RUST_LOG` (e.g. `jungle_server=debug,tower_http=debug`) overrides the level.

use std::io::Write;
use std::str::FromStr;

use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::MakeWriter;

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// Human-readable lines (the default).
    #[default]
    Text,
    /// One JSON object per line, with the request's span (method, path, request id) as fields.
    Json,
}

impl FromStr for LogFormat {
    type Err = String;

    fn from_str(text: &str) -> Result<LogFormat, String> {
        match text {
            "text" => Ok(LogFormat::Text),
            "json" => Ok(LogFormat::Json),
            other => Err(format!("log format \"{other}\" should be text or json")),
        }
    }
}

/// The default filter: the server's own events and one line per request, at `info`.
const DEFAULT_FILTER: &str = "info";

/// A subscriber writing to `writer` in `format` (`colour`: ANSI colours in text lines, for a terminal).
pub fn subscriber<W>(
    format: LogFormat,
    writer: W,
    colour: bool,
) -> Box<dyn tracing::Subscriber + Send + Sync>
where
    W: for<'a> MakeWriter<'a> + Send + Sync + 'static,
{
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer);
    match format {
        LogFormat::Text => Box::new(builder.with_ansi(colour).finish()),
        LogFormat::Json => Box::new(builder.with_ansi(false).json().flatten_event(true).finish()),
    }
}

/// Installs the process-wide logger writing to stderr (once; later calls are ignored).
pub fn init(format: LogFormat) {
    use std::io::IsTerminal;
    let colour = std::io::stderr().is_terminal();
    let _ = tracing::subscriber::set_global_default(subscriber(format, std::io::stderr, colour));
}

/// A writer into a shared buffer, for tests that read what was logged.
#[derive(Clone, Debug, Default)]
pub struct CapturedLog(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl CapturedLog {
    /// Everything written so far.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }
}

impl Write for CapturedLog {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for CapturedLog {
    type Writer = CapturedLog;

    fn make_writer(&'a self) -> CapturedLog {
        self.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_lines_are_json_objects_and_text_lines_are_not() {
        let log = CapturedLog::default();
        tracing::subscriber::with_default(subscriber(LogFormat::Json, log.clone(), false), || {
            tracing::warn!(game = "abc", "a stored move was lost");
        });
        let line = log.text();
        let value: serde_json::Value = serde_json::from_str(line.trim()).expect("one JSON object");
        assert_eq!(value["level"], "WARN");
        assert_eq!(value["game"], "abc");
        assert_eq!(value["message"], "a stored move was lost");

        let log = CapturedLog::default();
        tracing::subscriber::with_default(subscriber(LogFormat::Text, log.clone(), false), || {
            tracing::warn!(game = "abc", "a stored move was lost");
        });
        let line = log.text();
        assert!(serde_json::from_str::<serde_json::Value>(line.trim()).is_err());
        assert!(
            line.contains("a stored move was lost") && line.contains("game=\"abc\""),
            "{line}"
        );
    }

    #[test]
    fn formats_are_read_by_name() {
        assert_eq!("json".parse(), Ok(LogFormat::Json));
        assert_eq!("text".parse(), Ok(LogFormat::Text));
        assert!("xml".parse::<LogFormat>().is_err());
    }
}
