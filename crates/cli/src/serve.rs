//! `menagerie serve` and `menagerie loadtest`: the web server, and a load
//! test (or the socket flood) against an in-process server on loopback.

use crate::error::CliError;
use menagerie_server::http::{AllowedOrigins, Origin};
use menagerie_server::{RequestLimits, SocketLimits};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Failed(format!("cannot start the async runtime: {e}")))
}

/// `serve`'s bounds on connections and sockets.
pub struct Counts {
    pub max_connections: usize,
    pub max_sockets: usize,
    pub sockets_per_client: usize,
}

/// `serve`'s origins: those allowed besides its own, and its public URL.
pub struct Origins<'a> {
    pub allowed: &'a [String],
    pub public_url: Option<&'a str>,
}

pub fn serve(
    addr: &str,
    db: String,
    decks: Option<PathBuf>,
    request_timeout: f64,
    counts: Counts,
    origins: Origins<'_>,
) -> Result<(), CliError> {
    let addr: SocketAddr = addr
        .parse()
        .map_err(|e| CliError::BadInput(format!("--addr {addr:?} is not an address like 127.0.0.1:8080: {e}")))?;
    let request_time = Duration::try_from_secs_f64(request_timeout).ok().filter(|t| !t.is_zero()).ok_or_else(|| {
        CliError::BadInput(format!("--request-timeout {request_timeout}: expected a positive number of seconds"))
    })?;
    for (flag, count) in [
        ("--max-connections", counts.max_connections),
        ("--max-sockets", counts.max_sockets),
        ("--sockets-per-client", counts.sockets_per_client),
    ] {
        if count == 0 {
            return Err(CliError::BadInput(format!("{flag} must be at least 1")));
        }
    }
    let sockets = SocketLimits {
        max_sockets: counts.max_sockets,
        per_client: counts.sockets_per_client,
        ..SocketLimits::default()
    };
    let limits = RequestLimits { request_time, max_connections: counts.max_connections, sockets };
    let mut allowed_origins: Vec<Origin> = origins
        .allowed
        .iter()
        .map(|url| Origin::parse(url).map_err(|e| CliError::BadInput(format!("--allowed-origin {e}"))))
        .collect::<Result<_, _>>()?;
    let public_url = origins
        .public_url
        .map(|url| Origin::parse(url).map_err(|e| CliError::BadInput(format!("--public-url {e}"))))
        .transpose()?;
    allowed_origins.extend(public_url.clone());
    let options = menagerie_server::ServeOptions {
        addr,
        db: menagerie_server::store::Database::parse(&db),
        decks,
        limits,
        allowed_origins: AllowedOrigins::new(allowed_origins),
        public_url,
    };
    runtime()?.block_on(menagerie_server::serve(options)).map_err(CliError::Failed)
}

/// Where the load test's servers are: its own (on a temporary SQLite file,
/// or `nodes` of them on a PostgreSQL database), or running elsewhere.
pub enum LoadTarget {
    Local(menagerie_loadtest::LocalDatabase),
    Remote(Vec<String>),
}

impl LoadTarget {
    pub fn from_args(addrs: Vec<String>, db: Option<String>, nodes: usize) -> Result<LoadTarget, CliError> {
        if nodes == 0 {
            return Err(CliError::BadInput("--nodes must be at least 1".into()));
        }
        match (addrs.is_empty(), db) {
            (false, Some(_)) => {
                Err(CliError::BadInput("give either --addr (servers running elsewhere) or --db".into()))
            }
            (false, None) if nodes != 1 => {
                Err(CliError::BadInput("--nodes is for in-process servers, not --addr".into()))
            }
            (false, None) => {
                for addr in &addrs {
                    if !(addr.starts_with("http://") || addr.starts_with("https://")) {
                        return Err(CliError::BadInput(format!(
                            "--addr {addr:?}: expected a URL like http://127.0.0.1:8080"
                        )));
                    }
                }
                Ok(LoadTarget::Remote(addrs.into_iter().map(|a| a.trim_end_matches('/').to_owned()).collect()))
            }
            (true, Some(url)) => match menagerie_server::store::Database::parse(&url) {
                menagerie_server::store::Database::Postgres(url) => {
                    Ok(LoadTarget::Local(menagerie_loadtest::LocalDatabase::Postgres { url, nodes }))
                }
                menagerie_server::store::Database::Sqlite(_) => {
                    Err(CliError::BadInput("--db: expected a PostgreSQL URL (postgres://...)".into()))
                }
            },
            (true, None) if nodes != 1 => {
                Err(CliError::BadInput("several --nodes need a shared database: add --db postgres://...".into()))
            }
            (true, None) => Ok(LoadTarget::Local(menagerie_loadtest::LocalDatabase::TemporarySqlite)),
        }
    }
}

pub fn loadtest(options: menagerie_loadtest::LoadOptions, target: LoadTarget) -> Result<(), CliError> {
    let run = async {
        match target {
            LoadTarget::Local(database) => menagerie_loadtest::run_local(options, database).await,
            LoadTarget::Remote(bases) => menagerie_loadtest::run_against_nodes(&bases, &options).await,
        }
    };
    let report = runtime()?.block_on(run).map_err(CliError::Failed)?;
    println!("{report}");
    if report.lost > 0 || report.duplicated > 0 || report.errors > 0 {
        return Err(CliError::Failed(format!(
            "{} moves lost, {} duplicated, {} errors",
            report.lost, report.duplicated, report.errors
        )));
    }
    Ok(())
}

/// The socket flood (`loadtest --idle-sockets`), against the in-process
/// server or the first `--addr`.
pub fn flood(options: menagerie_loadtest::FloodOptions, target: LoadTarget) -> Result<(), CliError> {
    let run = async {
        match target {
            LoadTarget::Local(menagerie_loadtest::LocalDatabase::TemporarySqlite) => {
                menagerie_loadtest::flood_local(options).await
            }
            LoadTarget::Local(_) => Err("--idle-sockets runs on a temporary SQLite file or --addr, not --db".into()),
            LoadTarget::Remote(bases) => menagerie_loadtest::flood(&bases[0], &options).await,
        }
    };
    let report = runtime()?.block_on(run).map_err(CliError::Failed)?;
    println!("{report}");
    Ok(())
}
