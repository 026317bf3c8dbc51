//! A local SMTP sink for the tests of mail: aiosmtpd (from PyPI; `.ci/run`
//! installs it) keeping each mail it receives as a file of a Maildir.
//! Without it the test is skipped, unless `MENAGERIE_REQUIRE_SMTP=1` (CI)
//! makes that a failure.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct SmtpSink {
    child: Child,
    maildir: tempfile::TempDir,
    pub url: String,
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A mail's text with a quoted-printable body decoded (soft line breaks
/// joined, `=XX` made the byte it stands for), as a mail reader shows it.
fn decoded(text: &str) -> String {
    if !text.to_lowercase().contains("content-transfer-encoding: quoted-printable") {
        return text.to_owned();
    }
    let joined = text.replace("=\r\n", "").replace("=\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'=', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A received mail: its headers and body as a mail reader shows them.
#[derive(Debug, Clone)]
pub struct Mail {
    pub text: String,
}

impl Mail {
    pub fn header(&self, name: &str) -> Option<String> {
        let prefix = format!("{}:", name.to_lowercase());
        self.text
            .lines()
            .find(|line| line.to_lowercase().starts_with(&prefix))
            .map(|line| line[prefix.len()..].trim().to_owned())
    }
}

impl SmtpSink {
    /// Starts the sink on a free loopback port, or `None` if aiosmtpd is
    /// missing and not required.
    pub fn start() -> Option<SmtpSink> {
        let required = std::env::var("MENAGERIE_REQUIRE_SMTP").is_ok_and(|v| v == "1");
        let present = Command::new("python3")
            .args(["-c", "import aiosmtpd"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !present {
            assert!(!required, "MENAGERIE_REQUIRE_SMTP=1 but aiosmtpd is missing: pip install aiosmtpd");
            eprintln!("skipped: aiosmtpd is not installed (pip install aiosmtpd)");
            return None;
        }
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let maildir = tempfile::tempdir().unwrap();
        let child = Command::new("python3")
            .args(["-m", "aiosmtpd", "-n", "-l", &format!("127.0.0.1:{port}"), "-c", "aiosmtpd.handlers.Mailbox"])
            .arg(maildir.path().join("mail"))
            .stdout(Stdio::null())
            .spawn()
            .expect("aiosmtpd starts");
        let sink = SmtpSink { child, maildir, url: format!("smtp://127.0.0.1:{port}") };
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(started.elapsed() < Duration::from_secs(20), "the SMTP sink did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        Some(sink)
    }

    fn folder(&self) -> PathBuf {
        self.maildir.path().join("mail").join("new")
    }

    /// Every mail received so far.
    pub fn mails(&self) -> Vec<Mail> {
        let Ok(entries) = std::fs::read_dir(self.folder()) else { return Vec::new() };
        let mut mails: Vec<(std::time::SystemTime, Mail)> = entries
            .filter_map(|entry| entry.ok())
            .filter_map(|entry| {
                let text = std::fs::read_to_string(entry.path()).ok()?;
                let modified = entry.metadata().ok()?.modified().ok()?;
                Some((modified, Mail { text: decoded(&text) }))
            })
            .collect();
        mails.sort_by_key(|(at, _)| *at);
        mails.into_iter().map(|(_, mail)| mail).collect()
    }

    /// Waits until `count` mails have come (at most 20 s).
    pub async fn wait_for(&self, count: usize) -> Vec<Mail> {
        let started = Instant::now();
        loop {
            let mails = self.mails();
            if mails.len() >= count {
                return mails;
            }
            assert!(started.elapsed() < Duration::from_secs(20), "{count} mails expected, {} came", mails.len());
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}
