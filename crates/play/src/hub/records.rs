//! Game records (docs/records.md) of the server's games: any game's record
//! (complete once it is over; while a game with hidden information goes on,
//! only its public part), and a new game started from a record.
//!
//! An imported record is replayed whole through the rules before anything
//! is stored: a faulty record starts no game. The new game continues where
//! the record ends (against the computer, on one device, or with a friend
//! where no chance is hidden: in a friend game of hidden information the
//! server deals, and a record would have chosen the cards).

use super::Hub;
use crate::catalog::Catalog;
use crate::command::{NewGame, Setup};
use crate::cpu;
use crate::error::ApiError;
use crate::live::{LiveGame, MoveNote};
use crate::opponents::Opponents;
use crate::source::GameSource;
use crate::start::{self, Start};
use crate::store::{Ending, GameMeta, Mode, MoveActor, SeatKind, StoredMove};
use crate::view;
use menagerie_core::record::{self, pgn_date, read_records, RecordError, RecordInfo};
use menagerie_core::{Actor, DynGame, Player};
use serde::Deserialize;
use serde_json::Value;
use std::cell::RefCell;
use std::sync::Arc;

/// The body of `POST /api/games/import`, as sent.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportGame {
    /// One record, in the format of docs/records.md.
    pub record: String,
    /// How the game goes on: `local` (default: both seats on this device),
    /// `computer` or `friend`.
    #[serde(default)]
    pub opponent: Option<String>,
    #[serde(default)]
    pub level: Option<String>,
    /// The importer's side (as in `POST /api/games`).
    #[serde(default)]
    pub colour: Option<String>,
}

/// A record replayed and ready to be stored.
struct Imported {
    start: Start,
    creator: Player,
    moves: Vec<StoredMove>,
    /// Each move's label and side, as a game played here has them.
    notes: Vec<MoveNote>,
    meta: GameMeta,
}

fn record_error(error: RecordError) -> ApiError {
    match error {
        RecordError::Syntax { .. } | RecordError::Header { .. } => ApiError::bad_request(error.to_string()),
        RecordError::Move { .. } | RecordError::Result { .. } => ApiError::unprocessable(error.to_string()),
    }
}

impl Hub {
    /// The record of game `id` (docs/records.md): complete once the game is
    /// over; the public part of a game with hidden information that goes on.
    /// Written on the blocking pool (a long game's record replays it).
    pub async fn record(&self, id: &str) -> Result<String, ApiError> {
        self.record_with(id, |_| {}).await
    }

    /// [`Hub::record`] with tags the caller knows better (the accounts'
    /// names, their ratings: `amend` changes the tags before the record
    /// is written).
    pub async fn record_with(&self, id: &str, amend: impl FnOnce(&mut RecordInfo)) -> Result<String, ApiError> {
        let slot = self.slot(id).await?;
        let write = record_of(&*slot.live.lock().await, amend);
        cpu::on_blocking_pool(move || Ok(write())).await
    }

    /// Starts a game from a record: replayed whole first (on the blocking
    /// pool: a record may hold thousands of moves), then stored with its
    /// moves, and continued as `request` asks. Answers like a new game.
    pub async fn import(&self, request: ImportGame) -> Result<Value, ApiError> {
        let makers = Makers {
            source: Arc::clone(&self.source),
            catalog: Arc::clone(&self.catalog),
            opponents: Arc::clone(&self.opponents),
        };
        let Imported { start, creator, moves, notes, meta } =
            cpu::on_blocking_pool(move || makers.replay_import(request)).await?;
        let Start { record, game } = start;
        let id = record.id.clone();
        self.store.create(record.clone()).await?;
        // One commit for them all, not one a move.
        let mut version = self.store.append_moves(id.clone(), 0, moves.clone()).await?;
        if meta != GameMeta::default() {
            version = self.store.set_meta(id, (moves.len(), GameMeta::default()), meta.clone()).await?;
        }
        let answer = view::started(&record, creator, true);
        let mut live = LiveGame::new(record, game, moves, meta, version);
        live.notes = notes;
        let slot = self.games.insert(live);
        {
            let mut live = slot.live.lock().await;
            live.play_chance(&self.store).await?;
            slot.publish(&mut live);
        }
        self.computer.kick(slot).await;
        Ok(answer)
    }
}

/// What makes games: an import's replay holds them off the hub.
struct Makers {
    source: Arc<dyn GameSource>,
    catalog: Arc<Catalog>,
    opponents: Arc<dyn Opponents>,
}

impl Makers {
    /// Everything of an import that needs no waiting: the record read and
    /// replayed, the game made as the request asks.
    fn replay_import(&self, request: ImportGame) -> Result<Imported, ApiError> {
        let setup: Setup = NewGame {
            variant: String::new(),
            position: None,
            opponent: Some(request.opponent.unwrap_or_else(|| "local".to_owned())),
            level: request.level,
            colour: request.colour,
            seed: None,
            // An imported game goes on without a clock.
            clock: None,
        }
        .parse()?;
        let records = read_records(&request.record).map_err(record_error)?;
        let record = match records.as_slice() {
            [one] => one,
            [] => return Err(ApiError::bad_request("no record found: tags, moves and a result (docs/records.md)")),
            more => return Err(ApiError::bad_request(format!("one record at a time: this text holds {}", more.len()))),
        };
        // The game is made (and its setup checked) where the record's tags
        // name it, by the same code as any new game.
        let started: RefCell<Option<(Start, Player)>> = RefCell::new(None);
        let make = |variant: &str, position: Option<&str>| -> Result<Box<dyn DynGame>, String> {
            let setup = Setup { variant: variant.to_owned(), position: position.map(str::to_owned), ..setup.clone() };
            let (start, creator) =
                start::new_game(&setup, self.source.as_ref(), &self.catalog, self.opponents.as_ref())
                    .map_err(|e| e.reason)?;
            let game = start.game.box_clone();
            *started.borrow_mut() = Some((start, creator));
            Ok(game)
        };
        let replayed = record::replay(record, &make).map_err(record_error)?;
        let (mut start, creator) =
            started.into_inner().ok_or_else(|| ApiError::internal("the record's game was not made"))?;
        if setup.mode == Mode::Friend && replayed.game.has_hidden_information() {
            return Err(ApiError::bad_request(
                "a friend game with hidden cards is dealt by the server: import this record against \
                 the computer or on one device",
            ));
        }
        let mut moves = Vec::with_capacity(replayed.game.history().len());
        let mut notes = Vec::with_capacity(replayed.game.history().len());
        let mut walk = start.game.box_clone();
        for text in replayed.game.history() {
            let actor = match walk.to_act() {
                Actor::Player(p) => MoveActor::of(p),
                Actor::Chance => MoveActor::Chance,
            };
            notes.push(MoveNote::before(walk.as_ref(), text));
            walk.play(text).map_err(|e| ApiError::internal(format!("a replayed move does not replay: {e}")))?;
            moves.push(StoredMove { text: text.clone(), actor, at: None });
        }
        let by_rules = replayed.game.outcome().is_some();
        let meta = GameMeta {
            ending: replayed
                .ending
                .as_ref()
                .filter(|_| !by_rules)
                .map(|e| Ending { winner: e.winner, reason: e.reason.clone() }),
            finished: replayed.ending.is_some(),
            ..GameMeta::default()
        };
        start.game = replayed.game;
        Ok(Imported { start, creator, moves, notes, meta })
    }
}

/// The record of a game in play, to be written off its lock.
fn record_of(live: &LiveGame, amend: impl FnOnce(&mut RecordInfo)) -> impl FnOnce() -> String + Send + 'static {
    let name = |player: Player| match &live.record.seats[player.index()].kind {
        SeatKind::Human => "Anonymous".to_owned(),
        SeatKind::Computer { level } => format!("Menagerie {level}"),
    };
    let mut info = RecordInfo {
        event: Some(format!("Menagerie {} game", live.record.mode.as_str())),
        site: Some("Menagerie".to_owned()),
        date: Some(pgn_date(live.record.created)),
        round: Some("-".to_owned()),
        white: Some(name(Player::First)),
        black: Some(name(Player::Second)),
        time_control: Some("-".to_owned()),
        extra: Vec::new(),
    };
    amend(&mut info);
    let ending = live.meta.ending.as_ref().map(|e| record::Ending { winner: e.winner, reason: e.reason.clone() });
    let (game, start) = (live.game.box_clone(), live.record.position.clone());
    move || record::write_record(game.as_ref(), start.as_deref(), &info, ending.as_ref())
}
