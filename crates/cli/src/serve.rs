//! `menagerie serve` and `menagerie loadtest`: the web server (its settings
//! from flags, `MENAGERIE_*` variables and a config file), and a load test
//! against an in-process server on loopback.

use crate::error::CliError;
use crate::output::say;
use menagerie_server::http::{AllowedOrigins, Origin};
use menagerie_server::notify::{MailSettings, Mailer};
use menagerie_server::ops::logs::LogFormat;
use menagerie_server::{RequestLimits, SocketLimits};
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Failed(format!("cannot start the async runtime: {e}")))
}

/// `menagerie serve`'s settings: each from its flag, else its `MENAGERIE_*`
/// variable, else the `--config` file, else its default.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on [default: 127.0.0.1:8080]
    #[arg(long, env = "MENAGERIE_ADDR")]
    addr: Option<String>,
    /// Where games are kept: a SQLite file (created on first run), or a
    /// PostgreSQL URL (postgres://user:password@host:port/database) that
    /// several servers may share [default: menagerie.sqlite]
    #[arg(long, env = "MENAGERIE_DB")]
    db: Option<String>,
    /// Folder of Lunch Chess decks to offer besides the standard one:
    /// each NAME.toml is read once at start and chosen as `lunch:deck=NAME`
    #[arg(long, env = "MENAGERIE_DECKS")]
    decks: Option<PathBuf>,
    /// Seconds a client has to send a request's head, and again its body [default: 5]
    #[arg(long, env = "MENAGERIE_REQUEST_TIMEOUT")]
    request_timeout: Option<f64>,
    /// Connections served at once (more wait until one ends) [default: 4096]
    #[arg(long, env = "MENAGERIE_MAX_CONNECTIONS")]
    max_connections: Option<usize>,
    /// WebSockets open at once (more are refused with 503) [default: 4096]
    #[arg(long, env = "MENAGERIE_MAX_SOCKETS")]
    max_sockets: Option<usize>,
    /// WebSockets open at once from one client address (more are refused
    /// with 429) [default: 64]
    #[arg(long, env = "MENAGERIE_SOCKETS_PER_CLIENT")]
    sockets_per_client: Option<usize>,
    /// An origin besides the server's own (the one a request's Host names)
    /// whose pages may change things and open sockets, such as the public
    /// https://chess.example.org of a server behind a proxy (repeat, or
    /// separate with commas) [default: none]
    #[arg(long = "allowed-origin", value_name = "URL", env = "MENAGERIE_ALLOWED_ORIGIN", value_delimiter = ',')]
    allowed_origins: Vec<String>,
    /// Where players reach the server, such as https://chess.example.org
    /// behind a proxy: its pages may change things (as an --allowed-origin),
    /// and over https session cookies are Secure [default: none]
    #[arg(long, value_name = "URL", env = "MENAGERIE_PUBLIC_URL")]
    public_url: Option<String>,
    /// Send notifications and password reset links by e-mail through this
    /// SMTP server: smtp://host:port (in the clear, a local relay),
    /// smtp://user:password@host:587?tls=required (STARTTLS) or
    /// smtps://user:password@host (TLS) [default: off]
    #[arg(long, value_name = "URL", env = "MENAGERIE_SMTP")]
    smtp: Option<String>,
    /// The sender of those mails [default: Menagerie <menagerie@HOST>, HOST
    /// the --public-url's]
    #[arg(long, value_name = "ADDRESS", env = "MENAGERIE_MAIL_FROM")]
    mail_from: Option<String>,
    /// Serve Prometheus metrics at http://ADDR/metrics (never on --addr) [default: off]
    #[arg(long, env = "MENAGERIE_METRICS_ADDR")]
    metrics_addr: Option<String>,
    /// Log lines as `text` or `json` (levels filtered by RUST_LOG) [default: text]
    #[arg(long, env = "MENAGERIE_LOG_FORMAT")]
    log_format: Option<String>,
    /// A reverse proxy's address whose X-Real-IP / X-Forwarded-For name the
    /// client (repeat, or separate with commas) [default: none]
    #[arg(long, env = "MENAGERIE_TRUSTED_PROXY", value_delimiter = ',')]
    trusted_proxy: Vec<String>,
    /// Let bot accounts play rated games against people (lichess forbids
    /// it; bots always play rated games among themselves) [default: off]
    #[arg(long, env = "MENAGERIE_BOTS_RATED_VS_PEOPLE")]
    bots_rated_vs_people: bool,
    /// A TOML file of these settings (keys as the flags: addr, db,
    /// metrics-addr, trusted-proxy = [...], ...)
    #[arg(long, env = "MENAGERIE_CONFIG")]
    config: Option<PathBuf>,
    /// Print the settings in effect (passwords masked) and exit
    #[arg(long)]
    check_config: bool,
}

/// A `--config` file: the flags' names as keys, every key optional.
#[derive(serde::Deserialize, Default, Debug)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct ConfigFile {
    addr: Option<String>,
    db: Option<String>,
    decks: Option<PathBuf>,
    request_timeout: Option<f64>,
    max_connections: Option<usize>,
    max_sockets: Option<usize>,
    sockets_per_client: Option<usize>,
    allowed_origin: Option<Vec<String>>,
    public_url: Option<String>,
    smtp: Option<String>,
    mail_from: Option<String>,
    metrics_addr: Option<String>,
    log_format: Option<String>,
    trusted_proxy: Option<Vec<String>>,
    bots_rated_vs_people: Option<bool>,
}

/// The settings in effect, checked.
#[derive(Debug)]
struct Settings {
    addr: SocketAddr,
    db: String,
    decks: Option<PathBuf>,
    request_time: Duration,
    max_connections: usize,
    max_sockets: usize,
    sockets_per_client: usize,
    allowed_origins: Vec<Origin>,
    public_url: Option<Origin>,
    mail: Option<MailSettings>,
    metrics_addr: Option<SocketAddr>,
    log_format: LogFormat,
    trusted_proxies: Vec<IpAddr>,
    bots_rated_vs_people: bool,
}

impl ServeArgs {
    /// Reads the config file, if any, and settles every setting.
    fn settle(self) -> Result<Settings, CliError> {
        let file = match &self.config {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| CliError::BadInput(format!("--config {}: {e}", path.display())))?;
                toml::from_str::<ConfigFile>(&text).map_err(|e| {
                    let reason = e.message().to_owned();
                    CliError::BadInput(format!("--config {}: {reason}", path.display()))
                })?
            }
            None => ConfigFile::default(),
        };
        let addr_text = self.addr.or(file.addr).unwrap_or_else(|| "127.0.0.1:8080".into());
        let addr = parse_addr("addr", &addr_text)?;
        let request_timeout = self.request_timeout.or(file.request_timeout).unwrap_or(5.0);
        let request_time =
            Duration::try_from_secs_f64(request_timeout).ok().filter(|t| !t.is_zero()).ok_or_else(|| {
                CliError::BadInput(format!(
                    "--request-timeout {request_timeout}: expected a positive number of seconds"
                ))
            })?;
        let max_connections = self.max_connections.or(file.max_connections).unwrap_or(4096);
        let max_sockets = self.max_sockets.or(file.max_sockets).unwrap_or(4096);
        let sockets_per_client = self.sockets_per_client.or(file.sockets_per_client).unwrap_or(64);
        for (flag, count) in [
            ("--max-connections", max_connections),
            ("--max-sockets", max_sockets),
            ("--sockets-per-client", sockets_per_client),
        ] {
            if count == 0 {
                return Err(CliError::BadInput(format!("{flag} must be at least 1")));
            }
        }
        let origins = if self.allowed_origins.is_empty() {
            file.allowed_origin.unwrap_or_default()
        } else {
            self.allowed_origins
        };
        let allowed_origins = origins
            .iter()
            .map(|url| Origin::parse(url.trim()).map_err(|e| CliError::BadInput(format!("--allowed-origin {e}"))))
            .collect::<Result<Vec<_>, _>>()?;
        let public_url = self
            .public_url
            .or(file.public_url)
            .map(|url| Origin::parse(url.trim()).map_err(|e| CliError::BadInput(format!("--public-url {e}"))))
            .transpose()?;
        let mail = self.smtp.or(file.smtp).map(|url| {
            // Links in mails lead where players reach the server.
            let site = public_url.as_ref().map_or_else(|| format!("http://{addr}"), |url| url.to_string());
            let host = public_url.as_ref().map_or("localhost".to_owned(), |url| url.host().to_owned());
            let from = self.mail_from.or(file.mail_from).unwrap_or_else(|| format!("Menagerie <menagerie@{host}>"));
            MailSettings { smtp_url: url.trim().to_owned(), from, site }
        });
        if let Some(mail) = &mail {
            Mailer::new(mail).map_err(|e| CliError::BadInput(masked_smtp_error(&e.to_string(), &mail.smtp_url)))?;
        }
        let metrics_addr =
            self.metrics_addr.or(file.metrics_addr).map(|text| parse_addr("metrics-addr", &text)).transpose()?;
        let log_format = self
            .log_format
            .or(file.log_format)
            .map(|text| text.parse::<LogFormat>().map_err(|e| CliError::BadInput(format!("--log-format: {e}"))))
            .transpose()?
            .unwrap_or_default();
        let proxies =
            if self.trusted_proxy.is_empty() { file.trusted_proxy.unwrap_or_default() } else { self.trusted_proxy };
        let trusted_proxies = proxies
            .iter()
            .map(|text| {
                text.trim().parse::<IpAddr>().map_err(|_| {
                    CliError::BadInput(format!("--trusted-proxy {text:?} is not an IP address like 127.0.0.1"))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Settings {
            addr,
            db: self.db.or(file.db).unwrap_or_else(|| "menagerie.sqlite".into()),
            decks: self.decks.or(file.decks),
            request_time,
            max_connections,
            max_sockets,
            sockets_per_client,
            allowed_origins,
            public_url,
            mail,
            metrics_addr,
            log_format,
            trusted_proxies,
            bots_rated_vs_people: self.bots_rated_vs_people || file.bots_rated_vs_people.unwrap_or(false),
        })
    }
}

fn parse_addr(flag: &str, text: &str) -> Result<SocketAddr, CliError> {
    text.parse()
        .map_err(|e| CliError::BadInput(format!("--{flag} {text:?} is not an address like 127.0.0.1:8080: {e}")))
}

impl Settings {
    /// The settings as a config file would give them, the database's
    /// password masked.
    fn describe(&self) -> String {
        let quoted = |text: &str| toml::Value::String(text.to_owned()).to_string();
        let mut lines = vec![
            format!("addr = {}", quoted(&self.addr.to_string())),
            format!("db = {}", quoted(&masked_database(&self.db))),
        ];
        match &self.decks {
            Some(dir) => lines.push(format!("decks = {}", quoted(&dir.display().to_string()))),
            None => lines.push("# decks: none (the standard deck only)".into()),
        }
        lines.push(format!("request-timeout = {:?}", self.request_time.as_secs_f64()));
        lines.push(format!("max-connections = {}", self.max_connections));
        lines.push(format!("max-sockets = {}", self.max_sockets));
        lines.push(format!("sockets-per-client = {}", self.sockets_per_client));
        let origins: Vec<String> = self.allowed_origins.iter().map(|o| quoted(&o.to_string())).collect();
        lines.push(format!("allowed-origin = [{}]", origins.join(", ")));
        match &self.public_url {
            Some(url) => lines.push(format!("public-url = {}", quoted(&url.to_string()))),
            None => lines.push("# public-url: none (session cookies not Secure)".into()),
        }
        match &self.mail {
            Some(mail) => {
                lines.push(format!("smtp = {}", quoted(&masked_database(&mail.smtp_url))));
                lines.push(format!("mail-from = {}", quoted(&mail.from)));
            }
            None => lines.push("# smtp: off (no notification mails, no password resets)".into()),
        }
        match self.metrics_addr {
            Some(addr) => lines.push(format!("metrics-addr = {}", quoted(&addr.to_string()))),
            None => lines.push("# metrics-addr: off".into()),
        }
        lines.push(format!("log-format = {}", quoted(&self.log_format.to_string())));
        let proxies: Vec<String> = self.trusted_proxies.iter().map(|ip| quoted(&ip.to_string())).collect();
        lines.push(format!("trusted-proxy = [{}]", proxies.join(", ")));
        lines.push(format!("bots-rated-vs-people = {}", self.bots_rated_vs_people));
        lines.join("\n")
    }
}

/// An error about the SMTP URL, never showing its password.
fn masked_smtp_error(error: &str, url: &str) -> String {
    let masked = masked_database(url);
    error.replace(url, &masked)
}

/// A database URL with its password (`user:PASSWORD@`, `password=...`)
/// replaced by `****`; a file name as it is.
fn masked_database(db: &str) -> String {
    let Some((scheme, rest)) = db.split_once("://") else { return db.to_owned() };
    let (authority_and_path, query) = match rest.split_once('?') {
        Some((before, query)) => (before, Some(query)),
        None => (rest, None),
    };
    let masked = match authority_and_path.rsplit_once('@') {
        Some((credentials, host)) => match credentials.split_once(':') {
            Some((user, _)) => format!("{user}:****@{host}"),
            None => format!("{credentials}@{host}"),
        },
        None => authority_and_path.to_owned(),
    };
    let query = query.map(|query| {
        let pairs: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((key, _)) if key.eq_ignore_ascii_case("password") => format!("{key}=****"),
                _ => pair.to_owned(),
            })
            .collect();
        format!("?{}", pairs.join("&"))
    });
    format!("{scheme}://{masked}{}", query.unwrap_or_default())
}

pub fn serve(args: ServeArgs) -> Result<(), CliError> {
    let check_only = args.check_config;
    let settings = args.settle()?;
    if check_only {
        say(settings.describe());
        return Ok(());
    }
    menagerie_server::ops::logs::init(settings.log_format).map_err(CliError::BadInput)?;
    let sockets = SocketLimits {
        max_sockets: settings.max_sockets,
        per_client: settings.sockets_per_client,
        ..SocketLimits::default()
    };
    let limits =
        RequestLimits { request_time: settings.request_time, max_connections: settings.max_connections, sockets };
    let options = menagerie_server::ServeOptions {
        addr: settings.addr,
        db: menagerie_server::store::Database::parse(&settings.db),
        decks: settings.decks,
        limits,
        // The public URL's pages are the site's own.
        allowed_origins: AllowedOrigins::new(
            settings.allowed_origins.into_iter().chain(settings.public_url.clone()).collect(),
        ),
        public_url: settings.public_url,
        mail: settings.mail,
        metrics_addr: settings.metrics_addr,
        trusted_proxies: settings.trusted_proxies,
        bots_rated_vs_people: settings.bots_rated_vs_people,
    };
    let runtime = runtime()?;
    let served = runtime.block_on(menagerie_server::serve(options)).map_err(CliError::Failed);
    // A computer search still running is given up (another node, or this
    // one after its restart, searches again); a store commit is waited for.
    runtime.shutdown_timeout(menagerie_server::ops::shutdown::BLOCKING_TIME);
    served
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
    say(format_args!("{report}"));
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
    say(format_args!("{report}"));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{masked_database, ServeArgs};
    use clap::Parser;

    #[derive(Parser)]
    struct Wrapper {
        #[command(flatten)]
        args: ServeArgs,
    }

    fn settle(flags: &[&str], file: Option<&str>) -> Result<super::Settings, super::CliError> {
        let folder = tempfile::tempdir().unwrap();
        let mut argv = vec!["serve".to_owned()];
        argv.extend(flags.iter().map(|f| f.to_string()));
        if let Some(text) = file {
            let path = folder.path().join("menagerie.toml");
            std::fs::write(&path, text).unwrap();
            argv.push("--config".into());
            argv.push(path.display().to_string());
        }
        Wrapper::try_parse_from(argv).unwrap().args.settle()
    }

    #[test]
    fn a_flag_beats_the_file_and_the_file_beats_the_default() {
        let file = "addr = \"127.0.0.1:9000\"\nmetrics-addr = \"127.0.0.1:9100\"\ntrusted-proxy = [\"127.0.0.1\"]\n";
        let settings = settle(&["--addr", "127.0.0.1:9001"], Some(file)).unwrap();
        assert_eq!(settings.addr.to_string(), "127.0.0.1:9001");
        assert_eq!(settings.metrics_addr.unwrap().to_string(), "127.0.0.1:9100");
        assert_eq!(settings.trusted_proxies, ["127.0.0.1".parse::<std::net::IpAddr>().unwrap()]);
        assert_eq!(settings.db, "menagerie.sqlite");
        assert_eq!(settings.max_connections, 4096);
        assert!(!settings.bots_rated_vs_people);
        assert!(settle(&[], Some("bots-rated-vs-people = true\n")).unwrap().bots_rated_vs_people);
        assert!(settle(&["--bots-rated-vs-people"], None).unwrap().bots_rated_vs_people);
    }

    #[test]
    fn bad_settings_are_named() {
        let error = |flags: &[&str], file: Option<&str>| settle(flags, file).unwrap_err().to_string();
        assert!(error(&[], Some("port = 80\n")).contains("unknown field `port`"));
        assert!(error(&["--log-format", "yaml"], None).contains("expected text or json"));
        assert!(error(&["--trusted-proxy", "nginx"], None).contains("not an IP address"));
        assert!(error(&[], Some("metrics-addr = \"here\"\n")).contains("--metrics-addr \"here\""));
    }

    #[test]
    fn passwords_are_masked() {
        assert_eq!(masked_database("postgres://me:hunter2@db:5432/games"), "postgres://me:****@db:5432/games");
        assert_eq!(
            masked_database("postgresql://db/games?user=me&password=hunter2"),
            "postgresql://db/games?user=me&password=****"
        );
        assert_eq!(masked_database("/var/lib/menagerie/menagerie.sqlite"), "/var/lib/menagerie/menagerie.sqlite");
    }

    #[test]
    fn mail_settings_are_checked_and_their_password_masked() {
        let settings = settle(
            &[
                "--smtp",
                "smtp://me:hunter2@mail.example.org:587?tls=required",
                "--public-url",
                "https://games.example.org",
            ],
            None,
        )
        .unwrap();
        let mail = settings.mail.as_ref().unwrap();
        assert_eq!(mail.site, "https://games.example.org");
        assert_eq!(mail.from, "Menagerie <menagerie@games.example.org>");
        let described = settings.describe();
        assert!(described.contains("smtp = \"smtp://me:****@mail.example.org:587?tls=required\""), "{described}");
        assert!(!described.contains("hunter2"));
        let file =
            settle(&[], Some("smtp = \"smtp://127.0.0.1:2525\"\nmail-from = \"Games <g@example.org>\"\n")).unwrap();
        assert_eq!(file.mail.as_ref().unwrap().from, "Games <g@example.org>");
        assert_eq!(
            file.mail.as_ref().unwrap().site,
            "http://127.0.0.1:8080",
            "links lead to the server without a public URL"
        );
        assert!(settle(&[], None).unwrap().mail.is_none(), "off by default");
        let error = |flags: &[&str]| settle(flags, None).unwrap_err().to_string();
        assert!(error(&["--smtp", "ftp://mail"]).contains("--smtp"), "{}", error(&["--smtp", "ftp://mail"]));
        assert!(error(&["--smtp", "smtp://127.0.0.1:25", "--mail-from", "nobody"]).contains("--mail-from"));
    }
}
