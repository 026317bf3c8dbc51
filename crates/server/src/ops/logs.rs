//! Logs, with `tracing`: human-readable lines by default, one JSON object a
//! line with `--log-format json`, filtered by `RUST_LOG` (default `info`:
//! requests, game events, warnings; `debug` adds the computer's moves and
//! other nodes' notifications).
//!
//! What is logged is chosen where it is logged: a request's method, route,
//! path, status and duration (never its query string, headers or body: a
//! seat secret travels in the query of a socket, a session in a cookie); a
//! game's id, variant, ply and result (never a move text: a Lunch Chess
//! move names a card from a hand, a chance move the card drawn).

use std::str::FromStr;
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::EnvFilter;

/// How log lines look.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// `2026-11-28T01:02:03.456Z  INFO menagerie::http: request route=...`
    #[default]
    Text,
    /// One JSON object a line (for a log shipper).
    Json,
}

impl FromStr for LogFormat {
    type Err = String;
    fn from_str(text: &str) -> Result<LogFormat, String> {
        match text {
            "text" => Ok(LogFormat::Text),
            "json" => Ok(LogFormat::Json),
            other => Err(format!("unknown log format {other:?}: expected text or json")),
        }
    }
}

impl std::fmt::Display for LogFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LogFormat::Text => "text",
            LogFormat::Json => "json",
        })
    }
}

/// The filter of the server's logs: `RUST_LOG` if set (`menagerie=debug`,
/// `warn`, ...), else `info`.
pub fn filter_spec() -> String {
    match std::env::var("RUST_LOG") {
        Ok(spec) if !spec.trim().is_empty() => spec,
        _ => "info".into(),
    }
}

/// A subscriber writing `format` lines that pass `filter` to `writer`.
pub fn subscriber<W>(
    format: LogFormat,
    filter: &str,
    writer: W,
) -> Result<Box<dyn tracing::Subscriber + Send + Sync>, String>
where
    W: for<'a> MakeWriter<'a> + Send + Sync + 'static,
{
    let filter = EnvFilter::try_new(filter).map_err(|e| format!("{filter:?} is not a log filter (RUST_LOG): {e}"))?;
    // A log line that cannot be written (standard error closed) is dropped:
    // reporting it would write to the same closed stream, and panic.
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(writer).log_internal_errors(false);
    Ok(match format {
        LogFormat::Text => Box::new(builder.with_ansi(false).finish()),
        LogFormat::Json => Box::new(builder.json().flatten_event(true).finish()),
    })
}

/// Sends the process's logs to `writer` (tests capture them so).
pub fn init_with<W>(format: LogFormat, filter: &str, writer: W) -> Result<(), String>
where
    W: for<'a> MakeWriter<'a> + Send + Sync + 'static,
{
    tracing::subscriber::set_global_default(subscriber(format, filter, writer)?)
        .map_err(|e| format!("cannot set up the logs: {e}"))
}

/// Sends the process's logs to standard error, filtered by `RUST_LOG`.
pub fn init(format: LogFormat) -> Result<(), String> {
    init_with(format, &filter_spec(), std::io::stderr)
}

#[cfg(test)]
mod tests {
    use super::LogFormat;

    #[test]
    fn formats_are_named_text_and_json() {
        assert_eq!("json".parse::<LogFormat>(), Ok(LogFormat::Json));
        assert_eq!("text".parse::<LogFormat>(), Ok(LogFormat::Text));
        assert!("yaml".parse::<LogFormat>().unwrap_err().contains("expected text or json"));
    }
}
