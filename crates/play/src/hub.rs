//! The centre of the server: the games in play, reached by commands and
//! reads. A [`Command`] changes a game (or starts one) under the game's
//! lock, through the commit protocol of [`crate::live`], then tells watchers
//! and wakes the computer; a read answers with a view ([`crate::view`]).
//! Games come from a [`GameSource`], live in a [`Store`], and get their
//! computer moves from the [`ComputerDriver`].

mod records;

pub use records::ImportGame;

use crate::catalog::Catalog;
use crate::clock::TimeControl;
use crate::command::{Act, Claim, Command, NewGame, Setup};
use crate::computer::ComputerDriver;
use crate::correspondence;
use crate::error::ApiError;
use crate::forecast;
use crate::live::{log_ended, GameSlot, LiveGame, StateJson};
use crate::loaded::LoadedGames;
use crate::nodes::{self, EVERY_TOPIC};
use crate::opponents::{Opponents, TakebackLevels};
use crate::presence::Presence;
use crate::source::GameSource;
use crate::start::{self, Start};
use crate::store::accounts::{self, Account};
use crate::store::forecasts;
use crate::store::{AsyncStore, GameMeta, Mode, Store};
use crate::view;
use crate::viewer::Viewer;
use http::StatusCode;
use menagerie_core::Player;
use menagerie_notify::Notifier;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

/// Tuning of a [`Hub`].
#[derive(Clone, Debug)]
pub struct HubConfig {
    /// Computer searches allowed to run at once (each takes a blocking thread).
    pub max_searches: usize,
    /// Games nobody has asked for in this long leave memory (they load again
    /// from the store when asked for); `None` keeps every game loaded.
    pub idle_after: Option<Duration>,
    /// The data option values may name (`deck=NAME`): the built-in deck
    /// and the decks the operator offers.
    pub catalog: Catalog,
    /// Tells accounts of their correspondence games (and mails them with
    /// `--smtp`).
    pub notifier: Arc<Notifier>,
    /// How long a player must have been gone from a live game before the
    /// other may claim it ([`crate::presence`], [`crate::live::claim`]).
    pub claim_after: Duration,
    /// How long a tournament game waits for a player's first move before
    /// that player loses it (a tournament then withdraws them).
    pub first_move_within: Duration,
    /// Whether bots may play rated games against people
    /// (`menagerie serve --bots-rated-vs-people`; lichess forbids it).
    pub bots_rated_vs_people: bool,
}

impl Default for HubConfig {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
        HubConfig {
            max_searches: cores,
            idle_after: Some(Duration::from_secs(10 * 60)),
            catalog: Catalog::builtin(),
            notifier: Arc::default(),
            claim_after: crate::presence::CLAIM_AFTER,
            first_move_within: crate::live::claim::FIRST_MOVE_WITHIN,
            bots_rated_vs_people: false,
        }
    }
}

/// What a [`Command`] answers.
#[derive(Clone, Debug)]
pub enum Answer {
    /// A game began (a new game, a rematch): its id, the asker's side and
    /// secrets, and the links (docs/api.md).
    Started(Value),
    /// The game's state as the asker now sees it.
    State(StateJson),
}

impl Answer {
    /// The answer as a JSON value.
    pub fn to_value(&self) -> Value {
        match self {
            Answer::Started(value) => value.clone(),
            Answer::State(state) => state.to_value(),
        }
    }
}

/// A game started between two players ([`Hub::create_between`]).
pub struct Between {
    pub id: String,
    pub variant: String,
    pub slot: Arc<GameSlot>,
    /// The side of the setup's creator.
    pub creator: Player,
    /// Each side's name in the game (`white`), first then second.
    pub sides: [String; 2],
    /// What each is told: its own seat's secret and link only.
    pub for_creator: Value,
    pub for_other: Value,
}

pub struct Hub {
    source: Arc<dyn GameSource>,
    catalog: Arc<Catalog>,
    opponents: Arc<dyn Opponents>,
    /// The computer levels that take a move back when asked.
    takeback_levels: TakebackLevels,
    store: AsyncStore,
    games: Arc<LoadedGames>,
    computer: Arc<ComputerDriver>,
    notifier: Arc<Notifier>,
    bots_rated_vs_people: bool,
    /// The topics changed here or on other nodes ([`Hub::signal`]).
    signals: tokio::sync::broadcast::Sender<String>,
    /// Where the seats of games are seen, for abandonment claims.
    presence: Arc<Presence>,
    claim_after: Duration,
    first_move_within: Duration,
}

/// Topics [`Hub::signals`] keeps for a slow receiver before it lags.
const SIGNALS_KEPT: usize = 1024;

impl Hub {
    pub fn new(
        source: Arc<dyn GameSource>,
        store: Arc<dyn Store>,
        opponents: Arc<dyn Opponents>,
        config: HubConfig,
    ) -> Arc<Hub> {
        let store = AsyncStore::new(store);
        let catalog = Arc::new(config.catalog);
        let notifier = config.notifier;
        let presence = Presence::new(store.clone());
        let claim_after = config.claim_after;
        let first_move_within = config.first_move_within;
        let bots_rated_vs_people = config.bots_rated_vs_people;
        let games = Arc::new(LoadedGames::new(
            store.clone(),
            Arc::clone(&source),
            Arc::clone(&catalog),
            config.idle_after,
            Arc::clone(&notifier),
        ));
        let computer = Arc::new(ComputerDriver::new(Arc::clone(&opponents), store.clone(), config.max_searches));
        if let (Some(period), Ok(runtime)) = (games.eviction_period(), tokio::runtime::Handle::try_current()) {
            let games = Arc::downgrade(&games);
            runtime.spawn(async move {
                let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
                loop {
                    ticks.tick().await;
                    let Some(games) = games.upgrade() else { return };
                    games.evict_idle();
                }
            });
        }
        let signals = tokio::sync::broadcast::Sender::new(SIGNALS_KEPT);
        if let (Some(changes), Ok(runtime)) = (store.changes(), tokio::runtime::Handle::try_current()) {
            let follower = nodes::follow(
                Arc::downgrade(&games),
                Arc::downgrade(&computer),
                store.clone(),
                changes,
                signals.clone(),
            );
            runtime.spawn(follower);
        }
        if let (true, Ok(runtime)) = (store.is_shared(), tokio::runtime::Handle::try_current()) {
            runtime.spawn(tell_other_nodes_of_notifications(notifier.subscribe(), store.clone()));
        }
        let takeback_levels = TakebackLevels::of(&opponents.levels());
        Arc::new(Hub {
            source,
            catalog,
            opponents,
            takeback_levels,
            store,
            games,
            computer,
            notifier,
            signals,
            presence,
            claim_after,
            first_move_within,
            bots_rated_vs_people,
        })
    }

    /// Tells every node, this one at once, that `topic` changed (`lobby`,
    /// `tournament/<id>`, `account/<id>`, `challenge/<id>`): what it names
    /// lives in the store, and each node's listeners read it again. Call it
    /// after the change is committed. A failure to tell the other nodes is
    /// logged, not answered: the change itself is stored.
    pub async fn signal(&self, topic: impl Into<String>) {
        let topic = topic.into();
        let _ = self.signals.send(topic.clone());
        if self.store.is_shared() {
            if let Err(error) = self.store.signal(topic.clone()).await {
                tracing::warn!(%topic, %error, "the other nodes were not told of a change");
            }
        }
    }

    /// The topics changed from now on, here or on another node, and
    /// [`EVERY_TOPIC`] when some may have been missed. A receiver that
    /// lags ([`tokio::sync::broadcast::error::RecvError::Lagged`]) should
    /// read everything again, as for [`EVERY_TOPIC`].
    pub fn signals(&self) -> tokio::sync::broadcast::Receiver<String> {
        self.signals.subscribe()
    }

    /// The store, for what lives there besides games (accounts, sessions).
    pub fn store(&self) -> &AsyncStore {
        &self.store
    }

    /// What tells accounts of their games.
    pub fn notifier(&self) -> &Arc<Notifier> {
        &self.notifier
    }

    /// Whether bots may play rated games against people.
    pub fn bots_rated_vs_people(&self) -> bool {
        self.bots_rated_vs_people
    }

    /// Which account, if any, holds `seat` of `game` (names, ratings).
    pub async fn seat_account(&self, game: &str, seat: Player) -> Result<Option<Account>, ApiError> {
        let game = game.to_owned();
        Ok(self.store.read(move |sql| accounts::seat_account(sql, &game, seat.index())).await?)
    }

    pub fn source(&self) -> &dyn GameSource {
        self.source.as_ref()
    }

    pub fn opponents(&self) -> &dyn Opponents {
        self.opponents.as_ref()
    }

    /// The data option values may name on this server (`deck=NAME`).
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// How many games are in memory.
    pub fn loaded_games(&self) -> usize {
        self.games.len()
    }

    /// Drops idle games from memory ([`LoadedGames::evict_idle`]); runs every
    /// few minutes by itself. Answers how many left.
    pub fn evict_idle(&self) -> usize {
        self.games.evict_idle()
    }

    /// Whether the store answers (`/readyz`).
    pub async fn store_answers(&self) -> Result<(), crate::store::StoreError> {
        self.store.ping().await
    }

    /// The game `id`, loaded from the store if it is not in memory.
    pub async fn slot(&self, id: &str) -> Result<Arc<GameSlot>, ApiError> {
        self.games.get(id).await
    }

    /// Resumes the computer in every unfinished computer game, and the
    /// clocks of every unfinished timed game (at start: a flag that fell
    /// while the server was down falls now, at the time it fell). Answers
    /// how many computer games were resumed.
    pub async fn resume(&self) -> Result<usize, ApiError> {
        let ids = self.store.computer_games_in_progress().await?;
        let count = ids.len();
        for id in ids {
            match self.slot(&id).await {
                Ok(slot) => self.computer.kick(slot).await,
                Err(error) => tracing::warn!(game = %id, %error, "cannot resume a game"),
            }
        }
        // Loading a timed game starts its timer.
        for id in self.store.timed_games_in_progress().await? {
            if let Err(error) = self.slot(&id).await {
                tracing::warn!(game = %id, %error, "cannot resume the clocks of a game");
            }
        }
        Ok(count)
    }

    /// How long a tournament game waits for a player's first move.
    pub fn first_move_within(&self) -> Duration {
        self.first_move_within
    }

    /// The computer levels that take a move back when asked.
    pub fn takeback_levels(&self) -> &TakebackLevels {
        &self.takeback_levels
    }

    /// Runs a change to the games: the one way in for every change.
    pub async fn run(&self, command: Command) -> Result<Answer, ApiError> {
        match command {
            Command::Create(setup) => self.create_from(&setup).await.map(Answer::Started),
            Command::Act { game, seat, act } => self.act(&game, seat.as_deref(), act).await.map(Answer::State),
            Command::Rematch { game, seat } => self.rematch(&game, seat.as_deref()).await.map(Answer::Started),
        }
    }

    /// Creates a game from a request as sent (in-process callers); answers
    /// with its id and the creator's secrets.
    pub async fn create(&self, request: NewGame) -> Result<Value, ApiError> {
        self.create_from(&request.parse()?).await
    }

    /// Plays `text` for the seat holding `secret` (in-process callers; see
    /// [`Act::Move`]).
    pub async fn play(
        &self,
        id: &str,
        secret: Option<&str>,
        text: &str,
        expected_ply: Option<usize>,
    ) -> Result<StateJson, ApiError> {
        self.act(id, secret, Act::Move { text: text.to_owned(), expected_ply }).await
    }

    /// Checks that `setup` would start a game, as creating it would (the
    /// lobby checks a seek so when it is made).
    pub fn check_setup(&self, setup: &Setup) -> Result<(), ApiError> {
        start::new_game(setup, self.source(), &self.catalog, self.opponents()).map(|_| ())
    }

    /// Starts a game between two players who each get only their own seat
    /// (the lobby: the creator of `setup` and whoever accepted it).
    pub async fn create_between(&self, setup: &Setup) -> Result<Between, ApiError> {
        self.create_between_as(setup, None).await
    }

    /// [`Hub::create_between`] under the id `id` (a tournament's pairing
    /// chooses its games' ids before they exist).
    pub async fn create_paired(&self, setup: &Setup, id: String) -> Result<Between, ApiError> {
        self.create_between_as(setup, Some(id)).await
    }

    async fn create_between_as(&self, setup: &Setup, id: Option<String>) -> Result<Between, ApiError> {
        let (mut start, creator) = start::new_game(setup, self.source(), &self.catalog, self.opponents())?;
        if let Some(id) = id {
            start.record.id = id;
        }
        let for_creator = view::started(&start.record, creator, false);
        let for_other = view::started(&start.record, creator.other(), false);
        let id = start.record.id.clone();
        let variant = start.record.variant.clone();
        let sides = Player::BOTH.map(|p| start.game.player_name(p).to_string());
        self.start(start).await?;
        let slot = self.slot(&id).await?;
        Ok(Between { id, variant, slot, creator, sides, for_creator, for_other })
    }

    async fn create_from(&self, setup: &Setup) -> Result<Value, ApiError> {
        let (start, creator) = start::new_game(setup, self.source(), &self.catalog, self.opponents())?;
        let answer = view::started(&start.record, creator, true);
        self.start(start).await?;
        Ok(answer)
    }

    /// How every game begins: stored first, then in memory, its chance
    /// moves played, watchers told, and the computer woken if it moves first.
    async fn start(&self, start: Start) -> Result<(), ApiError> {
        let Start { record, game } = start;
        self.store.create(record.clone()).await?;
        tracing::info!(target: "menagerie::games", game = %record.id, variant = %record.variant, "game started");
        // A new game's version is 0 in every store.
        let slot = self.games.insert(LiveGame::new(record, game, Vec::new(), GameMeta::default(), 0));
        {
            let mut live = slot.live.lock().await;
            live.play_chance(&self.store).await?;
            slot.publish(&mut live);
        }
        self.computer.kick(slot).await;
        Ok(())
    }

    /// Does `act` for the seat holding `secret`; answers the state as that seat sees it.
    async fn act(&self, id: &str, secret: Option<&str>, act: Act) -> Result<StateJson, ApiError> {
        let slot = self.slot(id).await?;
        let mut live = slot.live.lock().await;
        let player = live.seat(secret)?;
        let moved = matches!(act, Act::Move { .. } | Act::Takeback(_));
        let is_move = matches!(act, Act::Move { .. });
        let act_name = act.name();
        let was_over = live.is_over();
        let mut done = live.act(&self.store, player, act.clone(), &self.takeback_levels).await;
        if done.as_ref().is_err_and(|e| e.status == StatusCode::CONFLICT) && self.store.is_shared() {
            // Another node may have moved first (the store refused this
            // node's move for that ply): catch up, and try once more.
            if slot.catch_up_locked(&mut live, &self.store).await? {
                done = live.act(&self.store, player, act, &self.takeback_levels).await;
            }
        }
        if done.is_ok() || live.is_over() != was_over {
            slot.publish(&mut live);
        }
        done?;
        // What was done, never how: a move's text may name a hidden card.
        tracing::info!(target: "menagerie::games", game = %id, act = act_name, ply = live.moves.len(), "act");
        if live.is_over() && !was_over {
            log_ended(&live);
        }
        let mut state = view::state(&live, Viewer::Seat(player), self.source(), &self.takeback_levels);
        let replied = if moved && TimeControl::is_correspondence(live.record.time_control) {
            self.follow_forecasts(&slot, &mut live, player, is_move).await
        } else {
            false
        };
        if replied {
            state = view::state(&live, Viewer::Seat(player), self.source(), &self.takeback_levels);
        }
        let to_tell = self
            .to_tell_of_move(&live, player, moved, replied)
            .map(|(ply, next)| (ply, next, live.record.variant.clone()));
        drop(live);
        if let Some((ply, next, variant)) = to_tell {
            correspondence::tell_to_move(&self.notifier, &self.store, id, &variant, ply, next).await;
        }
        if moved {
            self.computer.kick(slot).await;
        }
        Ok(state)
    }

    /// After `player` moved (or took back) in a correspondence game: the
    /// ply and the player to tell, if it is now theirs to decide (the mover
    /// too, when a conditional move answered at once).
    fn to_tell_of_move(&self, live: &LiveGame, player: Player, moved: bool, replied: bool) -> Option<(usize, Player)> {
        if !moved || live.is_over() || !TimeControl::is_correspondence(live.record.time_control) {
            return None;
        }
        match live.game.to_act() {
            menagerie_core::Actor::Player(next) if next != player || replied => Some((live.moves.len(), next)),
            _ => None,
        }
    }

    /// After `player`'s move (`is_move`) or a takeback in a correspondence
    /// game: the mover's own conditional moves end (it chose for itself);
    /// the opponent's lines that expected the move go on, and the replies
    /// they queue are played now, each committed like any move. A takeback
    /// ends both seats' lines. Answers whether a reply was played. A store
    /// that cannot answer leaves the lines as they were: the game goes on.
    async fn follow_forecasts(&self, slot: &Arc<GameSlot>, live: &mut LiveGame, player: Player, is_move: bool) -> bool {
        let game = live.record.id.clone();
        let other = player.other();
        let cleared = if is_move { vec![player] } else { Player::BOTH.to_vec() };
        let (id, now) = (game.clone(), crate::clock::now_ms());
        let queued = self
            .store
            .transact(move |sql| {
                for seat in &cleared {
                    forecasts::set_lines(sql, &id, seat.index(), &[], now)?;
                }
                if is_move {
                    forecasts::lines(sql, &id, other.index())
                } else {
                    Ok(Vec::new())
                }
            })
            .await;
        let Ok(queued) = queued else { return false };
        if queued.is_empty() {
            return false;
        }
        let played = live.moves.last().map(|m| m.text.clone()).unwrap_or_default();
        let mut lines = forecast::expected(queued, &played);
        let mut replied = false;
        while !live.is_over() && live.game.to_act() == menagerie_core::Actor::Player(other) {
            let Some((next, rest)) = forecast::reply(std::mem::take(&mut lines)) else { break };
            let act = Act::Move { text: next, expected_ply: Some(live.moves.len()) };
            if live.act(&self.store, other, act, &self.takeback_levels).await.is_err() {
                break;
            }
            slot.publish(live);
            tracing::info!(target: "menagerie::games", game = %game, act = "forecast", ply = live.moves.len(), "act");
            replied = true;
            lines = rest;
        }
        let (id, now) = (game, crate::clock::now_ms());
        let _ = self.store.transact(move |sql| forecasts::set_lines(sql, &id, other.index(), &lines, now)).await;
        if live.is_over() {
            log_ended(live);
        }
        replied
    }

    /// A new game with the same variant and opponents, sides swapped. The
    /// first asker creates it; later askers join it. Answers like `create`
    /// with the asker's secrets only (both in a local game).
    async fn rematch(&self, id: &str, secret: Option<&str>) -> Result<Value, ApiError> {
        let slot = self.slot(id).await?;
        let mut live = slot.live.lock().await;
        let player = live.seat(secret)?;
        if !live.is_over() {
            return Err(ApiError::conflict("the game is not over yet"));
        }
        let you = player.other();
        if let Some(rematch) = live.meta.rematch.clone() {
            drop(live);
            let next = self.slot(&rematch).await?;
            let next = next.live.lock().await;
            return Ok(view::started(&next.record, you, next.record.mode == Mode::Local));
        }
        // The old game stays locked until it links to the new one: a
        // second asker meanwhile joins, never starts another.
        let start = start::rematch(&live.record, self.source(), &self.catalog)?;
        let answer = view::started(&start.record, you, start.record.mode == Mode::Local);
        let next_id = start.record.id.clone();
        self.start(start).await?;
        let mut meta = live.meta.clone();
        meta.rematch = Some(next_id);
        live.commit_meta(&self.store, meta).await?;
        slot.publish(&mut live);
        Ok(answer)
    }

    /// The game as `secret`'s holder may see it.
    pub async fn state(&self, id: &str, secret: Option<&str>) -> Result<StateJson, ApiError> {
        let slot = self.slot(id).await?;
        let mut live = slot.live.lock().await;
        let viewer = live.viewer(secret)?;
        if live.open(viewer) {
            slot.publish(&mut live);
        }
        let state = view::state(&live, viewer, self.source(), &self.takeback_levels);
        drop(live);
        if let Viewer::Seat(player) = viewer {
            self.presence.saw(id, player.index()).await;
        }
        Ok(state)
    }

    /// Where the seats of games are seen ([`crate::presence`], [`crate::live::claim`]).
    pub fn presence(&self) -> &Arc<Presence> {
        &self.presence
    }

    /// Claims the game whose other seat left, for the seat holding
    /// `secret`: won, or drawn if `draw` ([`crate::live::claim`]).
    pub async fn claim(&self, id: &str, secret: Option<&str>, draw: bool) -> Result<StateJson, ApiError> {
        let claim = self.claim_for(id, secret, draw).await?.1;
        self.act(id, secret, Act::Claim(claim)).await
    }

    /// Whether the seat holding `secret` may claim the game now, and why not.
    pub async fn claimable(&self, id: &str, secret: Option<&str>) -> Result<Option<String>, ApiError> {
        let (player, claim) = self.claim_for(id, secret, false).await?;
        let slot = self.slot(id).await?;
        let live = slot.live.lock().await;
        Ok(live.claim_refusal(player, claim))
    }

    /// The claim the seat holding `secret` would make, with what the nodes
    /// know of its opponent's presence.
    async fn claim_for(&self, id: &str, secret: Option<&str>, draw: bool) -> Result<(Player, Claim), ApiError> {
        let player = {
            let slot = self.slot(id).await?;
            let live = slot.live.lock().await;
            live.seat(secret)?
        };
        let seat = player.other().index();
        let opponent_here = self.presence.here(id, seat);
        let opponent_seen = self.presence.last_seen(id, seat).await?;
        Ok((player, Claim { draw, opponent_here, opponent_seen, after: self.claim_after }))
    }

    /// The legal moves, for whoever may know them: the seat to act, or
    /// anyone in a game without hidden information (403 for the others).
    pub async fn legal_moves(&self, id: &str, secret: Option<&str>) -> Result<Value, ApiError> {
        let slot = self.slot(id).await?;
        let live = slot.live.lock().await;
        let viewer = live.viewer(secret)?;
        view::legal_moves_json(&live, viewer).ok_or_else(|| {
            ApiError::forbidden("in a game with hidden cards only the seat to act may list the legal moves")
        })
    }

    /// The board after the first `ply` moves, as the viewer may see it.
    pub async fn position(&self, id: &str, secret: Option<&str>, ply: usize) -> Result<Value, ApiError> {
        let slot = self.slot(id).await?;
        let live = slot.live.lock().await;
        let viewer = live.viewer(secret)?;
        view::position(&live, viewer, ply)
    }
}

/// The topic of an account's changes (its notifications) in [`Hub::signals`].
pub fn account_topic(account: &str) -> String {
    format!("account/{account}")
}

/// Tells the other nodes of every account whose notifications changed
/// here (their bells there look again), until the hub is gone. The local
/// sockets hear the notifier itself.
async fn tell_other_nodes_of_notifications(mut changed: tokio::sync::broadcast::Receiver<String>, store: AsyncStore) {
    use tokio::sync::broadcast::error::RecvError;
    loop {
        let topic = match changed.recv().await {
            Ok(account) => account_topic(&account),
            // Some were missed: every bell looks again.
            Err(RecvError::Lagged(_)) => EVERY_TOPIC.to_owned(),
            Err(RecvError::Closed) => return,
        };
        if let Err(error) = store.signal(topic).await {
            tracing::warn!(%error, "the other nodes were not told of a notification");
        }
    }
}
