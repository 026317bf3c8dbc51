//! Telling players what wants them: an in-site list (the page's bell, live
//! over its socket) and, for accounts that gave an address and a server
//! with `--smtp`, e-mail. What is stored is in
//! `menagerie_store::notifications`; the routes are the web layer's
//! `http/notifications.rs`. Delivery only: what each capability tells (a
//! challenge, a tournament's start, a correspondence move) is theirs.
//!
//! A notification has a topic (a move's game and ply, a reset): the store
//! keeps one per account and topic, so a notice told twice (a retried
//! request, two nodes) is stored and mailed once.

mod mail;

pub use mail::{valid_address, MailError, MailSettings, Mailer};

use menagerie_store::notifications::{self as stored, NewNotification};
use menagerie_store::relations;
use menagerie_store::time_control::now_ms;
use menagerie_store::AsyncStore;
use serde_json::{json, Value};
use std::sync::Arc;
use tokio::sync::broadcast;

/// What a notification is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// It is the account's move in a correspondence game.
    YourMove,
    /// The account's time to move in a correspondence game is running low.
    TimeLow,
    /// A tournament the account entered is starting.
    TournamentStarting,
    /// Another account challenges the account to a game.
    Challenge,
    /// A tournament paired the account: its game has started (and is lost
    /// if it does not move in time).
    TournamentGame,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::YourMove => "yourMove",
            Kind::TimeLow => "timeLow",
            Kind::TournamentStarting => "tournamentStarting",
            Kind::Challenge => "challenge",
            Kind::TournamentGame => "tournamentGame",
        }
    }

    /// Whether the notice is mailed too (to an account that gave an
    /// address): not a tournament's game, which must be started within
    /// seconds, long before a mail is read.
    pub fn mailed(self) -> bool {
        !matches!(self, Kind::TournamentGame)
    }
}

/// A notice for one account, before it is stored.
#[derive(Clone, Debug)]
pub struct Notice {
    pub kind: Kind,
    /// What it is about, unique per account (see the module's comment).
    pub topic: String,
    pub game: Option<String>,
    /// One line, shown in the list and as the mail's subject.
    pub text: String,
    /// The page it leads to, from the site's root (`/g/<id>`).
    pub link: String,
    /// The account whose doing it tells of (a challenger), if another's:
    /// an account that blocks it is not told.
    pub from: Option<String>,
}

impl Notice {
    fn body(&self) -> Value {
        json!({ "text": self.text, "link": self.link })
    }
}

/// Tells accounts: stores each notice, wakes the account's sockets on this
/// node and mails it if the account gave an address and mail is on.
#[derive(Debug)]
pub struct Notifier {
    mailer: Option<Mailer>,
    /// Accounts whose notifications changed on this node (their sockets
    /// look again; another node's changes are seen on its next look).
    changed: broadcast::Sender<String>,
}

impl Default for Notifier {
    fn default() -> Self {
        Notifier::new(None)
    }
}

impl Notifier {
    pub fn new(mailer: Option<Mailer>) -> Notifier {
        Notifier { mailer, changed: broadcast::Sender::new(64) }
    }

    /// Whether e-mail is on (`--smtp`).
    pub fn mails(&self) -> bool {
        self.mailer.is_some()
    }

    pub fn mailer(&self) -> Option<&Mailer> {
        self.mailer.as_ref()
    }

    /// Heard when an account's notifications change on this node.
    pub fn subscribe(&self) -> broadcast::Receiver<String> {
        self.changed.subscribe()
    }

    /// Wakes the sockets of `account` (its notifications were read).
    pub fn touched(&self, account: &str) {
        let _ = self.changed.send(account.to_owned());
    }

    /// Stores `notice` for `account` unless it was told already or comes
    /// from an account it blocks (dropped); then wakes its sockets and
    /// mails it (in the background: a slow mail server never holds up the
    /// move that caused it). Failures are logged, never
    /// the caller's: a notice is a courtesy, the game goes on.
    pub async fn tell(self: &Arc<Self>, store: &AsyncStore, account: &str, notice: Notice) {
        let (id, owner, body) = (menagerie_store::random_text(10), account.to_owned(), notice.body().to_string());
        let stored_notice = notice.clone();
        let added = store
            .transact(move |sql| {
                if let Some(from) = &stored_notice.from {
                    if relations::blocks(sql, &owner, from)? {
                        return Ok((false, None));
                    }
                }
                let added = stored::add(
                    sql,
                    &NewNotification {
                        id: &id,
                        account: &owner,
                        topic: &stored_notice.topic,
                        kind: stored_notice.kind.as_str(),
                        game: stored_notice.game.as_deref(),
                        body: &body,
                        created: now_ms(),
                    },
                )?;
                let email = if added { stored::email(sql, &owner)? } else { None };
                Ok((added, email))
            })
            .await;
        let email = match added {
            Ok((true, email)) => email,
            Ok((false, _)) => return,
            Err(error) => {
                tracing::warn!(target: "menagerie::notify", %error, "a notification was not stored");
                return;
            }
        };
        self.touched(account);
        if !notice.kind.mailed() {
            return;
        }
        if let (Some(mailer), Some(address)) = (self.mailer.clone(), email) {
            let kind = notice.kind.as_str();
            tokio::spawn(async move {
                let body = format!("{}\n\n{}\n", notice.text, mailer.link(&notice.link));
                if let Err(error) = mailer.send(&address, &notice.text, body).await {
                    // Never the address or the text: the log names the kind only.
                    tracing::warn!(target: "menagerie::notify", kind, %error, "a notification mail was not sent");
                }
            });
        }
    }
}
