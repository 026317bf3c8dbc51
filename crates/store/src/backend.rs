//! The trait a storage backend implements.

use super::error::StoreError;
use super::records::{GameMeta, GameRecord, Seen, StoredGame, StoredMove};
use super::sql::Work;
use menagerie_core::Player;

/// Durable storage of games. Every method returns only once its change is
/// committed, so that a move is acknowledged only after it is safe. Each
/// write to a game answers the game's version after it
/// ([`StoredGame::version`]: a new game's is 0, each write adds one).
/// Implementations are called from blocking threads ([`super::AsyncStore`]), never
/// from the async runtime directly, so a backend may block.
pub trait Store: Send + Sync + 'static {
    fn create(&self, record: &GameRecord) -> Result<(), StoreError>;
    /// Stores move number `ply` (0-based) after the game's `ply` stored
    /// moves. Storing a ply twice is an error, so a retried request can
    /// never duplicate a move.
    fn append_move(&self, game: &str, ply: usize, mv: &StoredMove) -> Result<u64, StoreError>;
    /// Stores `moves` as the moves from `first_ply` on, all or none (an
    /// imported record, a migrated game): one commit for them all, one
    /// version for each.
    fn append_moves(&self, game: &str, first_ply: usize, moves: &[StoredMove]) -> Result<u64, StoreError>;
    /// Sets what changed besides the moves, written by whoever saw the game
    /// as `seen`: refused ([`StoreError::Stale`]) if the store holds another
    /// number of moves or another meta, so that a resignation or a draw
    /// agreed on one node never overwrites what another node changed.
    fn set_meta(&self, game: &str, seen: Seen<'_>, meta: &GameMeta) -> Result<u64, StoreError>;
    /// [`Store::set_meta`] for the write that ends a game (`meta.finished`
    /// where `seen` was not): in the same transaction its result (`winner`,
    /// `None` a draw) is stored and, if it was to be rated, the ratings
    /// change ([`super::ratings::game_ended`]) at `now` (ms). Refused like
    /// `set_meta`, so a game ended through two nodes is rated once. A store
    /// that keeps no accounts just sets the meta.
    fn finish(
        &self,
        game: &str,
        seen: Seen<'_>,
        meta: &GameMeta,
        _winner: Option<Player>,
        _now: i64,
    ) -> Result<u64, StoreError> {
        self.set_meta(game, seen, meta)
    }
    fn load(&self, game: &str) -> Result<Option<StoredGame>, StoreError>;
    /// Ids of unfinished games in which the computer holds a seat: the
    /// server resumes them at start.
    fn computer_games_in_progress(&self) -> Result<Vec<String>, StoreError>;
    /// A takeback, by whoever saw the game as `seen`: removes the moves from
    /// ply `keep` on (0-based) and sets `meta`, both or neither; refused
    /// like [`Store::set_meta`] if the game changed meanwhile.
    fn take_back(&self, game: &str, seen: Seen<'_>, keep: usize, meta: &GameMeta) -> Result<u64, StoreError>;
    /// Ids of unfinished games with a time control: the server watches
    /// their clocks from the start.
    fn timed_games_in_progress(&self) -> Result<Vec<String>, StoreError>;

    /// Ids of every game, oldest first (`menagerie migrate` copies them).
    fn game_ids(&self) -> Result<Vec<String>, StoreError>;

    /// Claims the computer's seats of `game` for this process, for as long
    /// as it lives: several server processes on one database must not
    /// both move for the computer. True if this process holds the claim
    /// (already or now). A store only one process uses always answers true.
    fn claim_computer(&self, _game: &str) -> Result<bool, StoreError> {
        Ok(true)
    }

    /// Whether this process holds the claim on `game`'s computer seats
    /// (asks nothing of the database).
    fn holds_computer(&self, _game: &str) -> bool {
        true
    }

    /// Claims `key` (a tournament's pairing: `tournament/<id>`) for this
    /// process, for as long as it lives or until [`Store::release`]: of
    /// several processes on one database, one does the work and another
    /// takes it over when that one dies. True if this process holds it
    /// (already or now). A store only one process uses always answers true.
    fn claim(&self, _key: &str) -> Result<bool, StoreError> {
        Ok(true)
    }

    /// Lets go of a claim of [`Store::claim`] (the work is done).
    fn release(&self, _key: &str) -> Result<(), StoreError> {
        Ok(())
    }

    /// Whether the database answers (`/readyz`): by default a lookup of a
    /// game no id names, which touches the database for one index probe.
    fn ping(&self) -> Result<(), StoreError> {
        self.load("").map(drop)
    }

    /// Whether other processes may share this store (then the server
    /// follows their changes and claims the computer's seats).
    fn is_shared(&self) -> bool {
        false
    }

    /// Claims the unfinished computer games nobody holds (their process
    /// died) and lets go of the finished ones; answers the newly claimed.
    fn claim_orphans(&self) -> Result<Vec<String>, StoreError> {
        Ok(Vec::new())
    }

    /// The games other processes change from now on, as they commit, if
    /// other processes can share this store (taken once; `None` after).
    fn changes(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Change>> {
        None
    }

    /// Runs `work` in one transaction, through the query layer both
    /// databases share ([`super::sql`]): committed if it answers `Ok`,
    /// rolled back otherwise. Accounts, sessions and everything stored
    /// after them go through here.
    fn transact(&self, _work: &mut Work<'_>) -> Result<(), StoreError> {
        Err(StoreError::Database("this store keeps no accounts".into()))
    }

    /// [`Store::transact`] for work that only reads (a backend may run it
    /// beside the writes).
    fn read(&self, work: &mut Work<'_>) -> Result<(), StoreError> {
        self.transact(work)
    }

    /// Tells the other processes sharing this store that `topic` changed
    /// (a lobby's seeks, a tournament, an account's notifications): they
    /// hear it as [`Change::Signal`]. Nothing to do for a store only one
    /// process uses. The topic is at most [`MAX_TOPIC`] bytes.
    fn signal(&self, _topic: &str) -> Result<(), StoreError> {
        Ok(())
    }
}

/// The longest topic [`Store::signal`] carries.
pub const MAX_TOPIC: usize = 1_000;

/// What another process changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// This game changed (its meta, its creation, a takeback, moves).
    Game(String),
    /// Move `ply` of this game was stored, making its version `version`: a
    /// node holding the game's first `ply` moves plays it without reading
    /// the store.
    Move { game: String, ply: usize, version: u64, mv: StoredMove },
    /// Something besides games changed ([`Store::signal`]): its topic.
    Signal(String),
    /// Changes may have been missed (the connection that hears them was
    /// lost): every game in memory may be stale.
    Missed,
}

/// Which guarded write a store refused, to name its error.
#[derive(Clone, Copy)]
pub(super) enum Refused {
    Move,
    Meta,
}

impl Refused {
    /// The error of a write for the game after `expected` moves when the
    /// store holds `stored` moves.
    pub(super) fn error(self, game: &str, expected: usize, stored: usize) -> StoreError {
        match self {
            Refused::Move if stored > expected => StoreError::DuplicateMove { game: game.to_owned(), ply: expected },
            _ => StoreError::Stale { game: game.to_owned() },
        }
    }
}
