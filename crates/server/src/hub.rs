//! The games being played: loading them from the store, checking who may
//! move, committing moves before acknowledging them, playing chance moves
//! and the computer's moves, and telling watchers that something changed.
//!
//! Every change to a game happens under that game's lock, in this order:
//! check, play on the in-memory position, commit to the store, and only
//! then publish (a failed commit takes the move back). So a move is never
//! acknowledged before it is durable, and concurrent requests for one game
//! are serialised.

use crate::computer::Opponents;
use crate::error::ApiError;
use crate::secret;
use crate::source::GameSource;
use crate::store::{
    player_str, Ending, GameMeta, GameRecord, Mode, MoveActor, Seat, SeatKind, Store, StoreError, StoredGame,
    StoredMove,
};
pub use crate::view::Viewer;
use crate::view::{board, legal_moves_json, move_json, state, StateJson, Views};
use menagerie_core::{Actor, DynGame, MoveError, Player};
use rand::{Rng, SeedableRng};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{watch, Mutex, Semaphore};

/// Tuning of a [`Hub`].
#[derive(Clone, Debug)]
pub struct HubConfig {
    /// Computer searches allowed to run at once (each takes a blocking thread).
    pub max_searches: usize,
    /// Games nobody has asked for in this long leave memory (they load again
    /// from the store when asked for); `None` keeps every game loaded.
    pub idle_after: Option<Duration>,
}

impl Default for HubConfig {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
        HubConfig { max_searches: cores, idle_after: Some(Duration::from_secs(10 * 60)) }
    }
}

/// One game in memory.
pub struct LiveGame {
    pub record: GameRecord,
    pub game: Box<dyn DynGame>,
    pub moves: Vec<StoredMove>,
    pub meta: GameMeta,
    /// Bumped on every change; watchers compare it.
    pub version: u64,
    /// Whether a computer move is being searched for right now.
    computer_busy: bool,
    /// The result, recomputed after every change ([`LiveGame::refresh`]):
    /// the rules' outcome may cost a move generation, and every view asks.
    result: Option<Ending>,
    /// The JSON texts sent since the last change.
    pub(crate) views: Views,
}

impl LiveGame {
    fn new(record: GameRecord, game: Box<dyn DynGame>, moves: Vec<StoredMove>, meta: GameMeta) -> LiveGame {
        let mut live = LiveGame {
            record,
            game,
            moves,
            meta,
            version: version_base(),
            computer_busy: false,
            result: None,
            views: Views::default(),
        };
        live.refresh();
        live
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

    /// The seat a secret moves for.
    pub fn seat_of(&self, presented: &str) -> Option<Player> {
        Player::BOTH.into_iter().find(|&p| {
            self.record.seats[p.index()]
                .secret
                .as_deref()
                .is_some_and(|stored| secret::secrets_match(presented, stored))
        })
    }

    fn computer_level(&self, player: Player) -> Option<&str> {
        match &self.record.seats[player.index()].kind {
            SeatKind::Computer { level } => Some(level),
            SeatKind::Human => None,
        }
    }
}

/// A game's lock and its change signal.
pub struct GameSlot {
    pub live: Mutex<LiveGame>,
    changed: watch::Sender<u64>,
    /// When a request last asked for the game (ms since the hub started).
    last_used: AtomicU64,
}

impl GameSlot {
    fn new(live: LiveGame, now: u64) -> Arc<GameSlot> {
        Arc::new(GameSlot { changed: watch::Sender::new(live.version), live: Mutex::new(live), last_used: now.into() })
    }

    /// A receiver that wakes whenever the game changes.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }
}

/// What a new game is made of (the body of `POST /api/games`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub variant: String,
    #[serde(default)]
    pub position: Option<String>,
    /// `computer` (default), `friend` or `local`.
    #[serde(default)]
    pub opponent: Option<String>,
    /// The computer's level (default: the first level).
    #[serde(default)]
    pub level: Option<String>,
    /// The creator's side: `first`, `second`, a player name (`white`), or `random` (default).
    #[serde(default)]
    pub colour: Option<String>,
    /// The chance seed (default: random).
    #[serde(default)]
    pub seed: Option<u64>,
}

pub struct Hub {
    source: Arc<dyn GameSource>,
    store: Arc<dyn Store>,
    opponents: Arc<dyn Opponents>,
    games: std::sync::Mutex<HashMap<String, Arc<GameSlot>>>,
    searches: Arc<Semaphore>,
    /// The permits of `searches`: a search takes one per thread it uses.
    max_searches: u32,
    started: Instant,
    idle_after: Option<Duration>,
}

/// Where a loaded game's version starts: the wall clock in milliseconds, so
/// that versions keep growing across reloads and restarts (a page compares
/// them to drop stale states) while each change adds one.
fn version_base() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

/// Runs a store call on a blocking thread.
async fn blocking<T: Send + 'static>(
    store: &Arc<dyn Store>,
    call: impl FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    let store = Arc::clone(store);
    tokio::task::spawn_blocking(move || call(store.as_ref()))
        .await
        .unwrap_or_else(|e| Err(StoreError::Database(format!("storage task failed: {e}"))))
}

fn move_error(error: MoveError) -> ApiError {
    match error {
        MoveError::Syntax { .. } => ApiError::bad_request(error.to_string()),
        MoveError::Illegal { .. } => ApiError::unprocessable(error.to_string()),
        MoveError::GameOver => ApiError::conflict(error.to_string()),
    }
}

impl Hub {
    pub fn new(
        source: Arc<dyn GameSource>,
        store: Arc<dyn Store>,
        opponents: Arc<dyn Opponents>,
        config: HubConfig,
    ) -> Arc<Hub> {
        let hub = Arc::new(Hub {
            source,
            store,
            opponents,
            games: std::sync::Mutex::new(HashMap::new()),
            searches: Arc::new(Semaphore::new(config.max_searches.max(1))),
            max_searches: config.max_searches.clamp(1, u32::MAX as usize) as u32,
            started: Instant::now(),
            idle_after: config.idle_after,
        });
        if let (Some(idle), Ok(runtime)) = (config.idle_after, tokio::runtime::Handle::try_current()) {
            let hub = Arc::downgrade(&hub);
            let period = (idle / 4).clamp(Duration::from_secs(1), Duration::from_secs(60));
            runtime.spawn(async move {
                let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
                loop {
                    ticks.tick().await;
                    let Some(hub) = hub.upgrade() else { return };
                    hub.evict_idle();
                }
            });
        }
        hub
    }

    fn clock(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// How many games are in memory.
    pub fn loaded_games(&self) -> usize {
        self.games.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// Drops from memory the games idle for `idle_after` that nothing holds
    /// (no request, socket or computer search) and where the computer is not
    /// to move; they load again from the store when asked for. Answers how
    /// many left. Runs every few minutes by itself.
    pub fn evict_idle(&self) -> usize {
        let Some(idle) = self.idle_after else { return 0 };
        let now = self.clock();
        let mut games = self.games.lock().unwrap_or_else(|p| p.into_inner());
        let before = games.len();
        games.retain(|_, slot| {
            // Under the map lock nobody can take a new handle on a slot,
            // so a count of one means nobody has it.
            let used = now.saturating_sub(slot.last_used.load(Ordering::Relaxed)) < idle.as_millis() as u64;
            if used || Arc::strong_count(slot) > 1 {
                return true;
            }
            match slot.live.try_lock() {
                Ok(live) => live.computer_busy || self.computer_to_act(&live),
                Err(_) => true,
            }
        });
        before - games.len()
    }

    pub fn source(&self) -> &dyn GameSource {
        self.source.as_ref()
    }

    pub fn opponents(&self) -> &dyn Opponents {
        self.opponents.as_ref()
    }

    /// Resumes the computer in every unfinished computer game (at start).
    pub async fn resume(self: &Arc<Self>) -> Result<usize, ApiError> {
        let ids = blocking(&self.store, |s| s.computer_games_in_progress()).await?;
        let count = ids.len();
        for id in ids {
            match self.slot(&id).await {
                Ok(slot) => self.kick_computer(slot).await,
                Err(error) => eprintln!("menagerie: cannot resume game {id}: {error}"),
            }
        }
        Ok(count)
    }

    /// The game `id`, loaded from the store if it is not in memory.
    pub async fn slot(&self, id: &str) -> Result<Arc<GameSlot>, ApiError> {
        if let Some(slot) = self.cached(id) {
            slot.last_used.store(self.clock(), Ordering::Relaxed);
            return Ok(slot);
        }
        if !secret::well_formed(id, 32) {
            return Err(ApiError::not_found(format!("no game {id:?}")));
        }
        let key = id.to_owned();
        let stored = blocking(&self.store, move |s| s.load(&key))
            .await?
            .ok_or_else(|| ApiError::not_found(format!("no game {id:?}")))?;
        let live = self.rebuild(stored)?;
        let slot = GameSlot::new(live, self.clock());
        let mut games = self.games.lock().unwrap_or_else(|p| p.into_inner());
        // Two requests may have loaded it at once: keep the first.
        Ok(Arc::clone(games.entry(id.to_owned()).or_insert(slot)))
    }

    fn cached(&self, id: &str) -> Option<Arc<GameSlot>> {
        self.games.lock().unwrap_or_else(|p| p.into_inner()).get(id).cloned()
    }

    /// Replays a stored game.
    fn rebuild(&self, stored: StoredGame) -> Result<LiveGame, ApiError> {
        let StoredGame { record, moves, meta } = stored;
        let mut game = self
            .source
            .new_game(&record.variant, record.position.as_deref(), record.seed)
            .map_err(|e| ApiError::internal(format!("game {} cannot be rebuilt: {e}", record.id)))?;
        for (ply, mv) in moves.iter().enumerate() {
            game.play(&mv.text).map_err(|e| {
                ApiError::internal(format!("game {} cannot be replayed at move {}: {e}", record.id, ply + 1))
            })?;
        }
        Ok(LiveGame::new(record, game, moves, meta))
    }

    /// Creates a game; answers with its id and the creator's secrets.
    pub async fn create(self: &Arc<Self>, request: NewGame) -> Result<Value, ApiError> {
        let mode = match request.opponent.as_deref().unwrap_or("computer") {
            "computer" => Mode::Computer,
            "friend" => Mode::Friend,
            "local" | "same-device" => Mode::Local,
            other => {
                return Err(ApiError::bad_request(format!(
                    "unknown opponent {other:?}: expected computer, friend or local"
                )))
            }
        };
        if request.variant.len() > 200 || request.position.as_ref().is_some_and(|p| p.len() > 10_000) {
            return Err(ApiError::bad_request("variant or position text too long"));
        }
        let seed = request.seed.unwrap_or_else(|| rand::rng().random());
        let game =
            self.source.new_game(&request.variant, request.position.as_deref(), seed).map_err(ApiError::bad_request)?;
        let creator = match request.colour.as_deref().map(str::to_ascii_lowercase).as_deref() {
            None | Some("random") | Some("") => {
                if rand::rng().random() {
                    Player::First
                } else {
                    Player::Second
                }
            }
            Some("first") => Player::First,
            Some("second") => Player::Second,
            Some(name) => Player::BOTH.into_iter().find(|&p| game.player_name(p) == name).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "unknown colour {name:?}: expected {}, {}, first, second or random",
                    game.player_name(Player::First),
                    game.player_name(Player::Second)
                ))
            })?,
        };
        let level = match mode {
            Mode::Computer => {
                let levels = self.opponents.levels();
                let level = match &request.level {
                    Some(level) => level.clone(),
                    None => {
                        levels.iter().find(|l| l.default).or(levels.first()).map(|l| l.id.clone()).unwrap_or_default()
                    }
                };
                if self.opponents.player(&level).is_none() {
                    let valid = levels.iter().map(|l| l.id.as_str()).collect::<Vec<_>>().join(", ");
                    return Err(ApiError::bad_request(format!("unknown level {level:?}; levels: {valid}")));
                }
                Some(level)
            }
            _ => None,
        };
        let human = || Seat { kind: SeatKind::Human, secret: Some(secret::seat_secret()) };
        let mut seats = [human(), human()];
        if let Some(level) = level {
            seats[creator.other().index()] = Seat { kind: SeatKind::Computer { level }, secret: None };
        }
        let record = GameRecord {
            id: secret::game_id(),
            variant: game.variant().to_owned(),
            position: request.position.clone().filter(|p| p.trim() != "startpos"),
            seed,
            mode,
            seats,
            created: now(),
        };
        let answer = self.creation_answer(&record, creator, true);
        let stored = record.clone();
        blocking(&self.store, move |s| s.create(&stored)).await?;
        let id = record.id.clone();
        let live = LiveGame::new(record, game, Vec::new(), GameMeta::default());
        let slot = GameSlot::new(live, self.clock());
        self.games.lock().unwrap_or_else(|p| p.into_inner()).insert(id, Arc::clone(&slot));
        {
            let mut live = slot.live.lock().await;
            self.play_chance(&mut live).await?;
            self.publish(&slot, &mut live);
        }
        self.kick_computer(slot).await;
        Ok(answer)
    }

    /// `{id, you, secrets: {first, second}, links}`: `all_secrets` gives the
    /// creator every human seat's secret (to play locally or send a link).
    fn creation_answer(&self, record: &GameRecord, you: Player, all_secrets: bool) -> Value {
        let mut secrets = serde_json::Map::new();
        let mut links = serde_json::Map::new();
        for p in Player::BOTH {
            if let Some(secret) = &record.seats[p.index()].secret {
                if all_secrets || p == you {
                    secrets.insert(player_str(p).into(), json!(secret));
                    links.insert(player_str(p).into(), json!(format!("/g/{}?seat={secret}", record.id)));
                }
            }
        }
        links.insert("spectator".into(), json!(format!("/g/{}", record.id)));
        json!({ "id": record.id, "mode": record.mode.as_str(), "you": player_str(you), "secrets": secrets, "links": links })
    }

    /// Who `secret` is in game `live`: `None` means spectator; a secret that
    /// matches no seat is refused (a typo must not silently make you a spectator).
    pub fn viewer(live: &LiveGame, secret: Option<&str>) -> Result<Viewer, ApiError> {
        match secret.filter(|s| !s.is_empty()) {
            None => Ok(Viewer::Spectator),
            Some(s) => live
                .seat_of(s)
                .map(Viewer::Seat)
                .ok_or_else(|| ApiError::forbidden("this seat secret does not belong to this game")),
        }
    }

    fn seat(live: &LiveGame, secret: Option<&str>) -> Result<Player, ApiError> {
        match Self::viewer(live, secret)? {
            Viewer::Seat(p) => Ok(p),
            Viewer::Spectator => Err(ApiError::forbidden("a seat secret is needed: spectators cannot act")),
        }
    }

    /// Plays `text` for the seat holding `secret`. `expected_ply`, when
    /// given, must equal the number of moves already played, so that a
    /// retried request never plays twice.
    pub async fn play(
        self: &Arc<Self>,
        id: &str,
        secret: Option<&str>,
        text: &str,
        expected_ply: Option<usize>,
    ) -> Result<StateJson, ApiError> {
        let slot = self.slot(id).await?;
        {
            let mut live = slot.live.lock().await;
            let player = Self::seat(&live, secret)?;
            if let Some(result) = live.result() {
                return Err(ApiError::conflict(format!("the game is over ({})", result.reason)));
            }
            if let Some(ply) = expected_ply {
                if ply != live.moves.len() {
                    return Err(ApiError::conflict(format!(
                        "the game is at move {}, not {ply}: reload it",
                        live.moves.len()
                    )));
                }
            }
            if live.game.to_act() != Actor::Player(player) {
                return Err(ApiError::conflict("it is not your turn"));
            }
            if text.len() > 1000 {
                return Err(ApiError::bad_request("move text too long"));
            }
            self.commit_move(&mut live, text, MoveActor::of(player)).await?;
            self.play_chance(&mut live).await?;
            self.publish(&slot, &mut live);
            let view = state(&live, Viewer::Seat(player), self.source.as_ref());
            drop(live);
            self.kick_computer(slot).await;
            Ok(view)
        }
    }

    /// Resigns for the seat holding `secret`.
    pub async fn resign(&self, id: &str, secret: Option<&str>) -> Result<StateJson, ApiError> {
        let slot = self.slot(id).await?;
        let mut live = slot.live.lock().await;
        let player = Self::seat(&live, secret)?;
        if let Some(result) = live.result() {
            return Err(ApiError::conflict(format!("the game is over ({})", result.reason)));
        }
        let mut meta = live.meta.clone();
        meta.ending = Some(Ending { winner: Some(player.other()), reason: "resignation".into() });
        meta.draw_offer = None;
        meta.finished = true;
        self.commit_meta(&mut live, meta).await?;
        self.publish(&slot, &mut live);
        Ok(state(&live, Viewer::Seat(player), self.source.as_ref()))
    }

    /// Offers, accepts or declines a draw. Offering when the other side has
    /// offered accepts. The computer never accepts (it answers by moving,
    /// which declines).
    pub async fn draw(&self, id: &str, secret: Option<&str>, action: &str) -> Result<StateJson, ApiError> {
        let slot = self.slot(id).await?;
        let mut live = slot.live.lock().await;
        let player = Self::seat(&live, secret)?;
        if let Some(result) = live.result() {
            return Err(ApiError::conflict(format!("the game is over ({})", result.reason)));
        }
        let mut meta = live.meta.clone();
        match (action, meta.draw_offer) {
            ("offer" | "accept", Some(by)) if by == player.other() => {
                meta.ending = Some(Ending { winner: None, reason: "draw agreed".into() });
                meta.draw_offer = None;
                meta.finished = true;
            }
            ("offer", _) => meta.draw_offer = Some(player),
            ("accept", _) => return Err(ApiError::conflict("there is no draw offer to accept")),
            ("decline", Some(by)) if by == player.other() => meta.draw_offer = None,
            ("decline", _) => return Err(ApiError::conflict("there is no draw offer to decline")),
            ("withdraw", Some(by)) if by == player => meta.draw_offer = None,
            ("withdraw", _) => return Err(ApiError::conflict("you have no draw offer to withdraw")),
            (other, _) => {
                return Err(ApiError::bad_request(format!(
                    "unknown draw action {other:?}: expected offer, accept, decline or withdraw"
                )))
            }
        }
        self.commit_meta(&mut live, meta).await?;
        self.publish(&slot, &mut live);
        Ok(state(&live, Viewer::Seat(player), self.source.as_ref()))
    }

    /// A new game with the same variant and opponents, sides swapped. The
    /// first asker creates it; later askers join it. Answers like `create`
    /// with the asker's secrets only (both in a local game).
    pub async fn rematch(self: &Arc<Self>, id: &str, secret: Option<&str>) -> Result<Value, ApiError> {
        let slot = self.slot(id).await?;
        let mut live = slot.live.lock().await;
        let player = Self::seat(&live, secret)?;
        if !live.is_over() {
            return Err(ApiError::conflict("the game is not over yet"));
        }
        let you = player.other();
        if let Some(rematch) = live.meta.rematch.clone() {
            drop(live);
            let next = self.slot(&rematch).await?;
            let next = next.live.lock().await;
            return Ok(self.creation_answer(&next.record, you, next.record.mode == Mode::Local));
        }
        let old = &live.record;
        let seats = [old.seats[1].clone(), old.seats[0].clone()]
            .map(|seat| Seat { secret: seat.secret.as_ref().map(|_| secret::seat_secret()), kind: seat.kind });
        let seed = rand::rng().random();
        let game = self
            .source
            .new_game(&old.variant, old.position.as_deref(), seed)
            .map_err(|e| ApiError::internal(format!("rematch cannot start: {e}")))?;
        let record = GameRecord {
            id: secret::game_id(),
            variant: old.variant.clone(),
            position: old.position.clone(),
            seed,
            mode: old.mode,
            seats,
            created: now(),
        };
        let stored = record.clone();
        blocking(&self.store, move |s| s.create(&stored)).await?;
        let answer = self.creation_answer(&record, you, record.mode == Mode::Local);
        let mut meta = live.meta.clone();
        meta.rematch = Some(record.id.clone());
        self.commit_meta(&mut live, meta).await?;
        self.publish(&slot, &mut live);
        drop(live);
        let next_id = record.id.clone();
        let next = LiveGame::new(record, game, Vec::new(), GameMeta::default());
        let next = GameSlot::new(next, self.clock());
        self.games.lock().unwrap_or_else(|p| p.into_inner()).insert(next_id, Arc::clone(&next));
        {
            let mut live = next.live.lock().await;
            self.play_chance(&mut live).await?;
            self.publish(&next, &mut live);
        }
        self.kick_computer(next).await;
        Ok(answer)
    }

    /// Plays one move on `live` and commits it; on a failed commit the move
    /// is taken back.
    async fn commit_move(&self, live: &mut LiveGame, text: &str, actor: MoveActor) -> Result<(), ApiError> {
        live.game.play(text).map_err(move_error)?;
        let canonical = live.game.history().last().cloned().unwrap_or_else(|| text.to_owned());
        let mv = StoredMove { text: canonical, actor };
        let (id, ply, stored) = (live.record.id.clone(), live.moves.len(), mv.clone());
        if let Err(error) = blocking(&self.store, move |s| s.append_move(&id, ply, &stored)).await {
            live.game.undo();
            return Err(match error {
                StoreError::DuplicateMove { .. } => ApiError::conflict(error.to_string()),
                other => other.into(),
            });
        }
        live.moves.push(mv);
        live.refresh();
        let mut meta = live.meta.clone();
        // Moving answers the other side's draw offer: it is declined.
        if let (Some(by), Some(mover)) = (meta.draw_offer, actor.player()) {
            if by != mover {
                meta.draw_offer = None;
            }
        }
        meta.finished = live.game.outcome().is_some() || meta.ending.is_some();
        if meta != live.meta {
            self.commit_meta(live, meta).await?;
        }
        Ok(())
    }

    async fn commit_meta(&self, live: &mut LiveGame, meta: GameMeta) -> Result<(), ApiError> {
        let (id, stored) = (live.record.id.clone(), meta.clone());
        blocking(&self.store, move |s| s.set_meta(&id, &stored)).await?;
        live.meta = meta;
        live.refresh();
        Ok(())
    }

    /// Plays chance moves (shuffles, draws) until a player must act. The
    /// choice is uniform, from a generator seeded by the game's seed and the
    /// ply, so that the same game makes the same choices.
    async fn play_chance(&self, live: &mut LiveGame) -> Result<(), ApiError> {
        while live.game.to_act() == Actor::Chance && !live.is_over() {
            let moves = live.game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mut rng = rand::rngs::StdRng::seed_from_u64(
                live.record.seed ^ (live.moves.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            );
            let choice = moves[rng.random_range(0..moves.len())].clone();
            self.commit_move(live, &choice, MoveActor::Chance).await?;
        }
        Ok(())
    }

    fn publish(&self, slot: &GameSlot, live: &mut LiveGame) {
        live.version += 1;
        live.views.clear();
        slot.changed.send_replace(live.version);
    }

    /// Starts the computer's search if the computer is to act and not
    /// already thinking. The search runs on a blocking thread, its threads
    /// counted against `max_searches`; its move is played like anyone's.
    pub async fn kick_computer(self: &Arc<Self>, slot: Arc<GameSlot>) {
        {
            let mut live = slot.live.lock().await;
            if live.computer_busy || !self.computer_to_act(&live) {
                return;
            }
            live.computer_busy = true;
        }
        let hub = Arc::clone(self);
        tokio::spawn(async move {
            loop {
                let (player, snapshot, version) = {
                    let mut live = slot.live.lock().await;
                    let level = match live.game.to_act() {
                        Actor::Player(p) if !live.is_over() => live.computer_level(p).map(str::to_owned),
                        _ => None,
                    };
                    let Some(player) = level.and_then(|level| hub.opponents.player(&level)) else {
                        live.computer_busy = false;
                        return;
                    };
                    (player, live.game.box_clone(), live.version)
                };
                let threads = player.threads().clamp(1, hub.max_searches);
                let Ok(permit) = Arc::clone(&hub.searches).acquire_many_owned(threads).await else { return };
                let choice = tokio::task::spawn_blocking(move || {
                    let _permit = permit;
                    player.choose(snapshot.as_ref())
                })
                .await
                .ok()
                .flatten();
                let mut live = slot.live.lock().await;
                if live.version != version {
                    // Someone resigned or the game changed meanwhile: look again.
                    continue;
                }
                let actor = live.game.to_act().player().map(MoveActor::of).unwrap_or(MoveActor::Chance);
                let played = match choice {
                    Some(text) => hub.commit_move(&mut live, &text, actor).await,
                    None => Err(ApiError::internal("the computer found no move")),
                };
                let played = match played {
                    Ok(()) => hub.play_chance(&mut live).await,
                    Err(e) => Err(e),
                };
                if let Err(error) = played {
                    eprintln!("menagerie: computer move in game {} failed: {error}", live.record.id);
                    live.computer_busy = false;
                    return;
                }
                hub.publish(&slot, &mut live);
            }
        });
    }

    fn computer_to_act(&self, live: &LiveGame) -> bool {
        match live.game.to_act() {
            Actor::Player(p) => !live.is_over() && live.computer_level(p).is_some(),
            Actor::Chance => false,
        }
    }

    /// The game as `secret`'s holder may see it.
    pub async fn state(&self, id: &str, secret: Option<&str>) -> Result<StateJson, ApiError> {
        let slot = self.slot(id).await?;
        let live = slot.live.lock().await;
        let viewer = Self::viewer(&live, secret)?;
        Ok(state(&live, viewer, self.source.as_ref()))
    }

    /// The legal moves, for whoever may know them: the seat to act, or
    /// anyone in a game without hidden information.
    pub async fn legal_moves(&self, id: &str, secret: Option<&str>) -> Result<Value, ApiError> {
        let slot = self.slot(id).await?;
        let live = slot.live.lock().await;
        let viewer = Self::viewer(&live, secret)?;
        Ok(legal_moves_json(&live, viewer))
    }

    /// The board after the first `ply` moves, as the viewer may see it.
    pub async fn position(&self, id: &str, secret: Option<&str>, ply: usize) -> Result<Value, ApiError> {
        let slot = self.slot(id).await?;
        let live = slot.live.lock().await;
        let viewer = Self::viewer(&live, secret)?;
        if ply > live.moves.len() {
            return Err(ApiError::not_found(format!("the game has only {} moves", live.moves.len())));
        }
        let mut game = live.game.box_clone();
        while game.history().len() > ply {
            if !game.undo() {
                // The start of this value's history is the game's start.
                break;
            }
        }
        let over = ply == live.moves.len() && live.is_over();
        Ok(json!({
            "ply": ply,
            "board": board(game.as_ref(), viewer, over),
            "check": game.in_check(),
            "last_move": ply.checked_sub(1).map(|i| move_json(&live, i)),
        }))
    }
}
