//! `menagerie serve` and `menagerie loadtest`: the web server, and a load
//! test against an in-process server on loopback.

use crate::error::CliError;
use menagerie_server::RequestLimits;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Failed(format!("cannot start the async runtime: {e}")))
}

pub fn serve(
    addr: &str,
    db: String,
    decks: Option<PathBuf>,
    request_timeout: f64,
    max_connections: usize,
) -> Result<(), CliError> {
    let addr: SocketAddr = addr
        .parse()
        .map_err(|e| CliError::BadInput(format!("--addr {addr:?} is not an address like 127.0.0.1:8080: {e}")))?;
    let request_time = Duration::try_from_secs_f64(request_timeout).ok().filter(|t| !t.is_zero()).ok_or_else(|| {
        CliError::BadInput(format!("--request-timeout {request_timeout}: expected a positive number of seconds"))
    })?;
    if max_connections == 0 {
        return Err(CliError::BadInput("--max-connections must be at least 1".into()));
    }
    let limits = RequestLimits { request_time, max_connections };
    let options =
        menagerie_server::ServeOptions { addr, db: menagerie_server::store::Database::parse(&db), decks, limits };
    runtime()?.block_on(menagerie_server::serve(options)).map_err(CliError::Failed)
}

pub fn loadtest(options: menagerie_loadtest::LoadOptions) -> Result<(), CliError> {
    let report = runtime()?.block_on(menagerie_loadtest::run_local(options)).map_err(CliError::Failed)?;
    println!("{report}");
    if report.lost > 0 || report.duplicated > 0 || report.errors > 0 {
        return Err(CliError::Failed(format!(
            "{} moves lost, {} duplicated, {} errors",
            report.lost, report.duplicated, report.errors
        )));
    }
    Ok(())
}
