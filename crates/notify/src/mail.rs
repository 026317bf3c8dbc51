//! E-mail through an SMTP server (lettre): `--smtp URL` (lettre's URL
//! form: `smtp://host:port` in the clear, `smtp://host?tls=required` for
//! STARTTLS, `smtps://user:password@host` for TLS, with a user and
//! password when the server wants them), from `--mail-from`.

use lettre::message::header::ContentType;
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use std::sync::Arc;

/// How the server sends mail.
#[derive(Clone, Debug)]
pub struct MailSettings {
    /// The SMTP server, as a URL (see the module's comment).
    pub smtp_url: String,
    /// The sender (`Menagerie <games@example.org>`).
    pub from: String,
    /// The site's address as players reach it, for the links in mails
    /// (`https://games.example.org`).
    pub site: String,
}

/// A mail that could not be sent, or settings that cannot send any.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("--smtp: {0}")]
    Settings(String),
    #[error("the mail server refused or could not be reached: {0}")]
    Sending(String),
    #[error("{0}")]
    Address(String),
}

/// Sends mail with [`MailSettings`].
#[derive(Clone)]
pub struct Mailer {
    transport: Arc<AsyncSmtpTransport<Tokio1Executor>>,
    from: Mailbox,
    site: String,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the URL: it may hold the server's password.
        f.debug_struct("Mailer").field("from", &self.from.to_string()).finish()
    }
}

impl Mailer {
    pub fn new(settings: &MailSettings) -> Result<Mailer, MailError> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(&settings.smtp_url)
            .map_err(|error| MailError::Settings(error.to_string()))?
            .timeout(Some(std::time::Duration::from_secs(20)))
            .build();
        let from: Mailbox = settings
            .from
            .parse()
            .map_err(|_| MailError::Settings(format!("--mail-from {:?} is not an address", settings.from)))?;
        Ok(Mailer { transport: Arc::new(transport), from, site: settings.site.trim_end_matches('/').to_owned() })
    }

    /// The site's address of `path` (`/g/abc` → `https://…/g/abc`).
    pub fn link(&self, path: &str) -> String {
        format!("{}{path}", self.site)
    }

    /// Sends a plain-text mail.
    pub async fn send(&self, to: &str, subject: &str, body: String) -> Result<(), MailError> {
        let to: Mailbox = to.parse().map_err(|_| MailError::Address("not an e-mail address".into()))?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(subject)
            .header(ContentType::TEXT_PLAIN)
            .body(body)
            .map_err(|error| MailError::Address(error.to_string()))?;
        self.transport.send(message).await.map_err(|error| MailError::Sending(error.to_string()))?;
        Ok(())
    }
}

/// Whether `text` is an address mail can go to (what lettre accepts, at
/// most 254 bytes as SMTP allows).
pub fn valid_address(text: &str) -> bool {
    text.len() <= 254 && text.parse::<lettre::Address>().is_ok()
}
