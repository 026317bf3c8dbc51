//! A game in play, in memory: its position and moves, who sits where, what
//! was sent since the last change, and the lock and signal around it.
//!
//! Every change happens under the game's lock ([`GameSlot::live`]), in this
//! order: check, play on the in-memory position, commit to the store, and
//! only then publish (`commit.rs`; a failed commit takes the move back). So a
//! move is never acknowledged before it is durable, and concurrent requests
//! for one game are serialised. What a seat may do, and its checks, are in
//! `acts.rs`. State that lives with a game in play (a clock) belongs on
//! [`LiveGame`], and its changes in an act: the clocks in `timing.rs` (and a
//! timer per timed game, `timer.rs`), takebacks in `takeback.rs`. What a
//! page compares, the game's version, is the store's: every commit takes
//! the version the store answers, so every node holds the same.

mod acts;
mod cache;
pub mod claim;
mod commit;
mod sync;
mod takeback;
mod timer;
mod timing;

pub use acts::ABORTED;
pub use cache::{StateJson, ViewCache};
pub use commit::CHANCE_GRACE;
pub use sync::Followed;
pub use takeback::TakebackPolicy;
pub use timer::watch_clock;
pub use timing::{GameClock, RunningClock, DID_NOT_MOVE};

use crate::catalog::{Catalog, Kept};
use crate::error::ApiError;
use crate::secret;
use crate::source::GameSource;
use crate::store::{Ending, GameMeta, GameRecord, SeatKind, StoredGame, StoredMove};
use crate::viewer::Viewer;
use menagerie_core::{Actor, DynGame, Player};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::{watch, Mutex};

/// One game in memory.
pub struct LiveGame {
    pub record: GameRecord,
    pub game: Box<dyn DynGame>,
    pub moves: Vec<StoredMove>,
    pub meta: GameMeta,
    /// The version the store gives the game as this node holds it
    /// ([`crate::store::StoredGame::version`]): every node holding the same
    /// game holds the same version, so pages may compare them whichever
    /// node answered. Set from what each write to the store answers.
    pub version: u64,
    /// Whether a computer move is being searched for right now (the
    /// computer driver's flag).
    pub computer_busy: bool,
    /// The result, recomputed after every change ([`LiveGame::refresh`]):
    /// the rules' outcome may cost a move generation, and every view asks.
    result: Option<Ending>,
    /// The JSON texts sent since the last change.
    pub views: ViewCache,
    /// The clocks, when the game has a time control.
    pub clock: Option<GameClock>,
    /// Which seats were opened with their secret (their state read, a
    /// socket) since this node loaded the game, by [`Player::index`]; kept
    /// in memory only. See [`LiveGame::joined`].
    pub opened: [bool; 2],
    /// For each move, its short form and whose turn it was in, worked out
    /// on the position before it (a move list cannot do it afterwards).
    pub notes: Vec<MoveNote>,
    /// The seats whose clock starts at half its time (a tournament's
    /// berserk), by [`Player::index`].
    pub halved: [bool; 2],
}

/// A move's short form ([`menagerie_core::DynGame::move_label`]), the
/// player whose turn it belonged to ([`menagerie_core::DynGame::on_turn`]),
/// and whether it is chance's move with an outcome some player saw
/// ([`menagerie_core::DynGame::chance_outcome_seen`]): no takeback goes
/// back across such a move (`takeback.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveNote {
    pub label: String,
    pub side: Option<Player>,
    pub chance_seen: bool,
}

impl MoveNote {
    /// The note of `text`, about to be played on `game`.
    pub fn before(game: &dyn DynGame, text: &str) -> MoveNote {
        MoveNote {
            label: game.move_label(text).unwrap_or_else(|_| text.to_owned()),
            side: game.on_turn(),
            chance_seen: game.chance_outcome_seen(text),
        }
    }
}

impl LiveGame {
    /// A game as the store holds it at `version`.
    pub fn new(
        record: GameRecord,
        game: Box<dyn DynGame>,
        moves: Vec<StoredMove>,
        meta: GameMeta,
        version: u64,
    ) -> LiveGame {
        let mut live = LiveGame {
            record,
            game,
            moves,
            meta,
            version,
            computer_busy: false,
            result: None,
            views: ViewCache::default(),
            clock: None,
            opened: [false; 2],
            notes: Vec::new(),
            halved: [false; 2],
        };
        live.rebuild_clock();
        live.refresh();
        live
    }

    /// Replays a stored game, with the data it was made with (the files it
    /// came from may have changed or gone since), then `catalog` for what
    /// it does not hold.
    pub fn replay(stored: StoredGame, source: &dyn GameSource, catalog: &Catalog) -> Result<LiveGame, ApiError> {
        let StoredGame { record, moves, meta, version } = stored;
        let kept = Kept { data: &record.data, fallback: catalog };
        let mut game = source
            .new_game(&record.variant, record.position.as_deref(), record.seed, &kept)
            .map_err(|e| ApiError::internal(format!("game {} cannot be rebuilt: {e}", record.id)))?;
        let mut notes = Vec::with_capacity(moves.len());
        for (ply, mv) in moves.iter().enumerate() {
            notes.push(MoveNote::before(game.as_ref(), &mv.text));
            game.play(&mv.text).map_err(|e| {
                ApiError::internal(format!("game {} cannot be replayed at move {}: {e}", record.id, ply + 1))
            })?;
        }
        let mut live = LiveGame::new(record, game, moves, meta, version);
        live.notes = notes;
        Ok(live)
    }

    /// Recomputes the result: an ending outside the rules first, then the rules' outcome.
    fn refresh(&mut self) {
        self.views.clear();
        self.result = match &self.meta.ending {
            Some(ending) => Some(ending.clone()),
            None => self.game.outcome().map(|o| Ending { winner: o.winner(), reason: o.reason().to_owned() }),
        };
    }

    pub fn result(&self) -> Option<&Ending> {
        self.result.as_ref()
    }

    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// Whether `player`'s seat has joined the game: a computer's always; a
    /// person's once it made a move, or opened the game with its secret on
    /// this node since it loaded the game. The page shows the invitation
    /// link until the other seat has joined.
    pub fn joined(&self, player: Player) -> bool {
        self.computer_level(player).is_some()
            || self.opened[player.index()]
            || self.moves.iter().any(|m| m.actor.player() == Some(player))
    }

    /// Notes that `viewer` opened the game; true when that is news (a seat
    /// that joins now: the caller publishes it, so the other seat's page
    /// stops showing the invitation).
    pub fn open(&mut self, viewer: Viewer) -> bool {
        match viewer {
            Viewer::Seat(p) if !self.joined(p) => {
                self.opened[p.index()] = true;
                true
            }
            _ => false,
        }
    }

    /// The seat a secret moves for.
    pub fn seat_of(&self, presented: &str) -> Option<Player> {
        Player::BOTH.into_iter().find(|&p| {
            self.record.seats[p.index()]
                .secret
                .as_deref()
                .is_some_and(|stored| secret::secrets_match(presented, stored))
        })
    }

    /// Who `secret` is in this game: `None` means spectator; a secret that
    /// matches no seat is refused (a typo must not silently make you a spectator).
    pub fn viewer(&self, secret: Option<&str>) -> Result<Viewer, ApiError> {
        match secret.filter(|s| !s.is_empty()) {
            None => Ok(Viewer::Spectator),
            Some(s) => self
                .seat_of(s)
                .map(Viewer::Seat)
                .ok_or_else(|| ApiError::forbidden("this seat secret does not belong to this game")),
        }
    }

    /// The seat `secret` holds; spectators are refused.
    pub fn seat(&self, secret: Option<&str>) -> Result<Player, ApiError> {
        match self.viewer(secret)? {
            Viewer::Seat(p) => Ok(p),
            Viewer::Spectator => Err(ApiError::forbidden("a seat secret is needed: spectators cannot act")),
        }
    }

    /// The computer's level in `player`'s seat, if the computer sits there.
    pub fn computer_level(&self, player: Player) -> Option<&str> {
        match &self.record.seats[player.index()].kind {
            SeatKind::Computer { level } => Some(level),
            SeatKind::Human => None,
        }
    }

    /// Whether the game waits for the computer.
    pub fn computer_to_act(&self) -> bool {
        match self.game.to_act() {
            Actor::Player(p) => !self.is_over() && self.computer_level(p).is_some(),
            Actor::Chance => false,
        }
    }
}

/// A game's lock and its change signal.
pub struct GameSlot {
    pub live: Mutex<LiveGame>,
    changed: watch::Sender<u64>,
    /// When a request last asked for the game (ms on the clock of the
    /// games in memory).
    last_used: AtomicU64,
}

impl GameSlot {
    pub fn new(live: LiveGame, now: u64) -> Arc<GameSlot> {
        Arc::new(GameSlot { changed: watch::Sender::new(live.version), live: Mutex::new(live), last_used: now.into() })
    }

    /// A receiver that wakes whenever the game changes.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// Tells watchers that `live` (this slot's game, locked) changed. Its
    /// version is the store's, set as each change was committed.
    pub fn publish(&self, live: &mut LiveGame) {
        live.views.clear();
        self.changed.send_replace(live.version);
    }

    pub fn touch(&self, now: u64) {
        self.last_used.store(now, Ordering::Relaxed);
    }

    pub fn last_used(&self) -> u64 {
        self.last_used.load(Ordering::Relaxed)
    }
}

/// Logs a game's end: its id, result and why (public once it is over).
pub fn log_ended(live: &LiveGame) {
    if let Some(ending) = live.result() {
        let winner = ending.winner.map_or("none", crate::store::player_str);
        tracing::info!(
            target: "menagerie::games",
            game = %live.record.id,
            winner,
            reason = %ending.reason,
            plies = live.moves.len(),
            "game over"
        );
    }
}
