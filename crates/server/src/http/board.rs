//! lichess's Bot and Board API for playing (docs/bots.md; docs/api.md,
//! "Bots and API tokens"): the event stream (`GET /api/stream/event`), a
//! game's stream (`GET /api/bot|board/game/stream/{id}`) and a seat's acts
//! (`POST /api/bot|board/game/{id}/move/{move}`, resign, abort, draw,
//! takeback). Streams are NDJSON with a keep-alive newline; acts go the
//! way of every change ([`Command`] through the hub). A token acts for the
//! seat its account holds.

use super::asker::{is_bot, TokenHolder};
use super::challenges::{challenge_json, variant_json};
use super::ratings::shown_rating_of;
use crate::bots::game as shown;
use crate::bots::Scope;
use crate::challenges::Status;
use crate::clock::now_ms;
use crate::command::{Act, Command, DrawAction};
use crate::error::ApiError;
use crate::hub::Hub;
use crate::live::GameSlot;
use crate::nodes::EVERY_TOPIC;
use crate::store::accounts::{self as stored_accounts, username_key, Account};
use crate::store::challenges as stored_challenges;
use crate::store::ratings::rated_game;
use axum::body::{Body as ResponseBody, Bytes};
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use menagerie_core::Player;
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

type Shared = State<Arc<Hub>>;

/// How often a quiet stream sends an empty line (lichess: every few
/// seconds), so that clients and proxies know it is alive and a closed
/// connection is noticed.
const KEEP_ALIVE: Duration = Duration::from_secs(6);

/// Which of lichess's two APIs a route belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Api {
    /// `/api/bot/...`: `bot:play`, a bot account.
    Bot,
    /// `/api/board/...`: `board:play`, an account that is not a bot.
    Board,
}

impl Api {
    async fn check(self, hub: &Hub, holder: &TokenHolder) -> Result<(), ApiError> {
        let bot = is_bot(hub, &holder.account.id).await?;
        match self {
            Api::Bot => {
                holder.require(Scope::BotPlay)?;
                if !bot {
                    return Err(ApiError::bad_request("this account is not a bot: upgrade it, or use the board API"));
                }
            }
            Api::Board => {
                holder.require(Scope::BoardPlay)?;
                if bot {
                    return Err(ApiError::bad_request("a bot account plays through the bot API"));
                }
            }
        }
        Ok(())
    }
}

/// An NDJSON response whose lines a task writes into the sender: the
/// stream ends when the task drops it, and the task learns that the client
/// left when a send fails.
fn ndjson() -> (mpsc::Sender<Bytes>, Response) {
    let (sender, receiver) = mpsc::channel::<Bytes>(16);
    let stream = futures_util::stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|line| (Ok::<_, std::convert::Infallible>(line), receiver))
    });
    let response = (
        [(header::CONTENT_TYPE, "application/x-ndjson"), (header::CACHE_CONTROL, "no-cache")],
        ResponseBody::from_stream(stream),
    )
        .into_response();
    (sender, response)
}

fn line(value: &Value) -> Bytes {
    let mut text = value.to_string();
    text.push('\n');
    Bytes::from(text)
}

/// An account as a game shows its player: `{id, name, title, rating}`.
async fn player_json(hub: &Hub, account: &Account, variant: &str) -> Result<Value, ApiError> {
    let rating = shown_rating_of(hub, &account.id, variant).await?;
    let mut player = json!({
        "id": username_key(&account.username),
        "name": account.username,
        "title": null,
        "rating": rating.rating,
        "provisional": rating.provisional,
    });
    if is_bot(hub, &account.id).await? {
        player["title"] = json!("BOT");
    }
    Ok(player)
}

/// What the lines of a game need besides the game: each seat's player and
/// whether it is rated.
struct Around {
    players: [Option<Value>; 2],
    rated: bool,
    variant: Value,
}

async fn around(hub: &Hub, game: &str, variant: &str) -> Result<Around, ApiError> {
    let mut players = [None, None];
    for seat in Player::BOTH {
        if let Some(account) = hub.seat_account(game, seat).await? {
            players[seat.index()] = Some(player_json(hub, &account, variant).await?);
        }
    }
    let id = game.to_owned();
    let rated = hub.store().read(move |sql| rated_game(sql, &id)).await?.is_some();
    Ok(Around { players, rated, variant: variant_json(hub, variant) })
}

/// The seat `account` holds in `game` and its secret; 404 (lichess's answer)
/// if it holds none.
async fn held_seat(hub: &Hub, game: &str, account: &str) -> Result<(Player, String), ApiError> {
    let (id, account) = (game.to_owned(), account.to_owned());
    let held = hub.store().read(move |sql| stored_accounts::held_seat(sql, &id, &account)).await?;
    held.map(|(seat, secret)| (Player::BOTH[seat], secret)).ok_or_else(|| ApiError::not_found("No such game"))
}

async fn game_stream(hub: Arc<Hub>, holder: TokenHolder, api: Api, id: String) -> Result<Response, ApiError> {
    api.check(&hub, &holder).await?;
    let (seat, _) = held_seat(&hub, &id, &holder.account.id).await?;
    let slot = hub.slot(&id).await?;
    let variant = slot.live.lock().await.record.variant.clone();
    let around = around(&hub, &id, &variant).await?;
    let (sender, response) = ndjson();
    // A player streaming its game is here, as with a socket (abandonment).
    let present = hub.presence().arrive(&id, seat.index()).await;
    tokio::spawn(async move {
        follow_game(slot, seat, around, sender).await;
        drop(present);
    });
    Ok(response)
}

/// Writes a game's `gameFull`, then a `gameState` whenever what the seat
/// sees changes, until the game ends (its last state sent) or the client
/// leaves.
async fn follow_game(slot: Arc<GameSlot>, seat: Player, around: Around, sender: mpsc::Sender<Bytes>) {
    let mut changes = slot.subscribe();
    let (first, mut last, mut over) = {
        let live = slot.live.lock().await;
        let players = Player::BOTH.map(|p| shown::seat_player(&live, p, around.players[p.index()].clone()));
        let full = shown::game_full(&live, seat, players, around.rated, around.variant.clone());
        (full.clone(), full["state"].clone(), live.is_over())
    };
    if sender.send(line(&first)).await.is_err() {
        return;
    }
    let mut keep_alive = tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
    while !over {
        tokio::select! {
            changed = changes.changed() => {
                if changed.is_err() {
                    return;
                }
                let (state, ended) = {
                    let live = slot.live.lock().await;
                    (shown::game_state(&live, seat), live.is_over())
                };
                over = ended;
                // The clocks alone do not make a new line.
                if without_clocks(&state) != without_clocks(&last) {
                    if sender.send(line(&state)).await.is_err() {
                        return;
                    }
                    last = state;
                }
            }
            _ = keep_alive.tick() => {
                if sender.send(Bytes::from_static(b"\n")).await.is_err() {
                    return;
                }
            }
        }
    }
}

fn without_clocks(state: &Value) -> Value {
    let mut state = state.clone();
    if let Some(fields) = state.as_object_mut() {
        fields.remove("wtime");
        fields.remove("btime");
    }
    state
}

/// `GET /api/bot/game/stream/{id}` (`bot:play`, a bot holding a seat).
pub async fn bot_game_stream(
    State(hub): Shared,
    holder: TokenHolder,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    game_stream(hub, holder, Api::Bot, id).await
}

/// `GET /api/board/game/stream/{id}` (`board:play`, a person holding a seat).
pub async fn board_game_stream(
    State(hub): Shared,
    holder: TokenHolder,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    game_stream(hub, holder, Api::Board, id).await
}

/// Does `act` for the seat the token's account holds in `game`.
async fn act(hub: Arc<Hub>, holder: &TokenHolder, api: Api, game: String, act: Act) -> Result<Json<Value>, ApiError> {
    api.check(&hub, holder).await?;
    let (_, secret) = held_seat(&hub, &game, &holder.account.id).await?;
    let command = Command::Act { game, seat: Some(secret), act };
    // To its end even if the client goes away (as every change).
    tokio::spawn(async move { hub.run(command).await })
        .await
        .unwrap_or_else(|_| Err(ApiError::internal("the change failed").into()))?;
    Ok(Json(json!({ "ok": true })))
}

/// lichess's `yes`/`no` of a draw or takeback route, as an act of the seat
/// given the offer standing (`offered`: whose): yes offers (or accepts the
/// other's), no declines the other's (or withdraws one's own).
fn answer_of(accept: &str, seat: Player, offered: Option<Player>) -> Result<DrawAction, ApiError> {
    match accept {
        "yes" | "true" | "accept" => {
            Ok(if offered == Some(seat.other()) { DrawAction::Accept } else { DrawAction::Offer })
        }
        "no" | "false" | "decline" => {
            Ok(if offered == Some(seat) { DrawAction::Withdraw } else { DrawAction::Decline })
        }
        other => Err(ApiError::bad_request(format!("{}: expected yes or no", menagerie_core::shown(other)))),
    }
}

async fn offer_answer(
    hub: Arc<Hub>,
    holder: TokenHolder,
    api: Api,
    game: String,
    accept: String,
    takeback: bool,
) -> Result<Json<Value>, ApiError> {
    api.check(&hub, &holder).await?;
    let (seat, _) = held_seat(&hub, &game, &holder.account.id).await?;
    let offered = {
        let slot = hub.slot(&game).await?;
        let live = slot.live.lock().await;
        if takeback {
            live.meta.takeback_offer
        } else {
            live.meta.draw_offer
        }
    };
    let action = answer_of(&accept, seat, offered)?;
    let chosen = if takeback { Act::Takeback(action) } else { Act::Draw(action) };
    act(hub, &holder, api, game, chosen).await
}

macro_rules! routes_of {
    ($api:expr, $mv:ident, $resign:ident, $abort:ident, $draw:ident, $takeback:ident) => {
        /// `POST .../game/{id}/move/{move}`: plays a move (its text URL-encoded).
        pub async fn $mv(
            State(hub): Shared,
            holder: TokenHolder,
            Path((id, text)): Path<(String, String)>,
        ) -> Result<Json<Value>, ApiError> {
            if text.len() > crate::command::MAX_MOVE_LEN {
                return Err(ApiError::bad_request("move text too long"));
            }
            act(hub, &holder, $api, id, Act::Move { text, expected_ply: None }).await
        }

        /// `POST .../game/{id}/resign`.
        pub async fn $resign(
            State(hub): Shared,
            holder: TokenHolder,
            Path(id): Path<String>,
        ) -> Result<Json<Value>, ApiError> {
            act(hub, &holder, $api, id, Act::Resign).await
        }

        /// `POST .../game/{id}/abort`: before both sides have moved.
        pub async fn $abort(
            State(hub): Shared,
            holder: TokenHolder,
            Path(id): Path<String>,
        ) -> Result<Json<Value>, ApiError> {
            act(hub, &holder, $api, id, Act::Abort).await
        }

        /// `POST .../game/{id}/draw/{yes|no}`.
        pub async fn $draw(
            State(hub): Shared,
            holder: TokenHolder,
            Path((id, accept)): Path<(String, String)>,
        ) -> Result<Json<Value>, ApiError> {
            offer_answer(hub, holder, $api, id, accept, false).await
        }

        /// `POST .../game/{id}/takeback/{yes|no}`.
        pub async fn $takeback(
            State(hub): Shared,
            holder: TokenHolder,
            Path((id, accept)): Path<(String, String)>,
        ) -> Result<Json<Value>, ApiError> {
            offer_answer(hub, holder, $api, id, accept, true).await
        }
    };
}

routes_of!(Api::Bot, bot_move, bot_resign, bot_abort, bot_draw, bot_takeback);
routes_of!(Api::Board, board_move, board_resign, board_abort, board_draw, board_takeback);

/// `GET /api/stream/event` (any scope): the account's events as NDJSON.
/// At once a `gameStart` for every game it plays and a `challenge` for
/// every open challenge; then `gameStart`, `gameFinish`, `challenge`,
/// `challengeCanceled` and `challengeDeclined` as they happen, on any node
/// (the `account/<id>` signal, and the games' own changes).
pub async fn event_stream(State(hub): Shared, holder: TokenHolder) -> Result<Response, ApiError> {
    let (sender, response) = ndjson();
    let told = Told::since(now_ms());
    tokio::spawn(follow_events(hub, holder.account, sender, told));
    Ok(response)
}

/// What an event stream has told its client.
struct Told {
    /// Challenges made since (ms; first when the stream opened) are told
    /// even if they were answered before the stream looked.
    since: i64,
    /// Games in progress announced (`gameStart`), and the tasks that wake
    /// the stream when they change.
    games: HashMap<String, tokio::task::JoinHandle<()>>,
    /// Open challenges announced.
    challenges: HashSet<String>,
    /// Challenges made since `since` whose answer was told, and when they
    /// were made.
    answered: HashMap<String, i64>,
}

/// How long a challenge made may take to reach the store: a look sees every
/// challenge made this long before it, so the next needs only what came
/// after (the rows a look reads stay few however long the stream lives).
const CHALLENGE_WRITE_DELAY_MS: i64 = 60_000;

impl Told {
    fn since(since: i64) -> Told {
        Told { since, games: HashMap::new(), challenges: HashSet::new(), answered: HashMap::new() }
    }

    /// After a look that began at `looked`: what came before is known.
    fn looked(&mut self, looked: i64) {
        self.since = self.since.max(looked - CHALLENGE_WRITE_DELAY_MS);
        let since = self.since;
        self.answered.retain(|_, made| *made >= since);
    }
}

impl Drop for Told {
    fn drop(&mut self) {
        for (_, watcher) in self.games.drain() {
            watcher.abort();
        }
    }
}

async fn follow_events(hub: Arc<Hub>, account: Account, sender: mpsc::Sender<Bytes>, mut told: Told) {
    let mut signals = hub.signals();
    let topic = format!("account/{}", account.id);
    let (woken, mut wakes) = mpsc::channel::<()>(8);
    let mut keep_alive = tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
    loop {
        match events(&hub, &account, &mut told, &woken).await {
            Ok(lines) => {
                for event in lines {
                    if sender.send(line(&event)).await.is_err() {
                        return;
                    }
                }
            }
            Err(error) => tracing::warn!(target: "menagerie::bots", %error, "an event stream could not look"),
        }
        // Wait for something that may concern the account.
        loop {
            tokio::select! {
                heard = signals.recv() => match heard {
                    Ok(heard) if heard == topic || heard == EVERY_TOPIC => break,
                    Ok(_) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => break,
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                },
                Some(()) = wakes.recv() => break,
                _ = keep_alive.tick() => {
                    if sender.send(Bytes::from_static(b"\n")).await.is_err() {
                        return;
                    }
                    // Now and then look anyway: a challenge expires, a
                    // game starts through another route.
                    break;
                }
            }
        }
    }
}

/// The events since the stream last looked: the difference between what
/// it told and what is. A challenge made and answered between two looks
/// (a quick bot declines in a millisecond) is told as both, `challenge`
/// then its answer, so no client waits for news it already missed.
async fn events(
    hub: &Arc<Hub>,
    account: &Account,
    told: &mut Told,
    woken: &mpsc::Sender<()>,
) -> Result<Vec<Value>, ApiError> {
    let mut lines = Vec::new();
    let id = account.id.clone();
    let since = told.since;
    let looked = now_ms();
    let (seats, recent) = hub
        .store()
        .read(move |sql| {
            Ok((stored_accounts::held_seats(sql, &id, true)?, stored_challenges::recent_of(sql, &id, since)?))
        })
        .await?;
    let now = now_ms();
    let (open, closed): (Vec<_>, Vec<_>) = recent.into_iter().partition(|c| c.status == "created" && c.expires > now);
    // Challenges that are no longer open: answered (or expired).
    let open_ids: HashSet<String> = open.iter().map(|c| c.id.clone()).collect();
    let gone: Vec<String> = told.challenges.difference(&open_ids).cloned().collect();
    for challenge_id in gone {
        told.challenges.remove(&challenge_id);
        // Made since the look's start it was read with the rest; older, alone.
        let challenge = match closed.iter().find(|c| c.id == challenge_id) {
            Some(challenge) => challenge.clone(),
            None => {
                let key = challenge_id.clone();
                match hub.store().read(move |sql| stored_challenges::challenge_by_id(sql, &key)).await? {
                    Some(challenge) => challenge,
                    None => continue,
                }
            }
        };
        told.answered.insert(challenge_id.clone(), challenge.created);
        let Some(kind) = answer_event(&challenge) else { continue };
        lines.push(json!({ "type": kind, "challenge": challenge_json(hub, &challenge, &account.id).await? }));
    }
    // Games: those that ended, then those that began.
    let playing: HashMap<String, Player> =
        seats.iter().filter(|s| !s.finished).map(|s| (s.game.clone(), Player::BOTH[s.seat])).collect();
    let ended: Vec<String> = told.games.keys().filter(|g| !playing.contains_key(*g)).cloned().collect();
    for game in ended {
        if let Some(watcher) = told.games.remove(&game) {
            watcher.abort();
        }
        let (key, owner) = (game.clone(), account.id.clone());
        let seat = hub.store().read(move |sql| stored_accounts::held_seat(sql, &key, &owner)).await?;
        if let Some((seat, _)) = seat {
            lines.push(json!({ "type": "gameFinish", "game": game_event(hub, &game, Player::BOTH[seat]).await? }));
        }
    }
    for held in &seats {
        if held.finished || told.games.contains_key(&held.game) {
            continue;
        }
        let seat = Player::BOTH[held.seat];
        let game = game_event(hub, &held.game, seat).await?;
        let watcher = watch_game(hub.slot(&held.game).await?, woken.clone());
        told.games.insert(held.game.clone(), watcher);
        lines.push(json!({ "type": "gameStart", "game": game }));
    }
    for challenge in &open {
        if told.challenges.insert(challenge.id.clone()) {
            lines.push(json!({ "type": "challenge", "challenge": challenge_json(hub, challenge, &account.id).await? }));
        }
    }
    // Made since the stream opened and answered before it looked.
    for challenge in &closed {
        let Some(kind) = answer_event(challenge) else { continue };
        if told.answered.insert(challenge.id.clone(), challenge.created).is_some() {
            continue;
        }
        let shown = challenge_json(hub, challenge, &account.id).await?;
        lines.push(json!({ "type": "challenge", "challenge": shown }));
        lines.push(json!({ "type": kind, "challenge": shown }));
    }
    told.looked(looked);
    Ok(lines)
}

/// The event that tells a challenge is no longer open: declined, or
/// canceled (withdrawn or expired); none for an accepted one, whose game's
/// `gameStart` tells it.
fn answer_event(challenge: &stored_challenges::StoredChallenge) -> Option<&'static str> {
    match Status::parse(&challenge.status) {
        Some(Status::Declined) => Some("challengeDeclined"),
        Some(Status::Accepted) => None,
        _ => Some("challengeCanceled"),
    }
}

/// Wakes the event stream when the game changes (it may have ended).
fn watch_game(slot: Arc<GameSlot>, woken: mpsc::Sender<()>) -> tokio::task::JoinHandle<()> {
    let mut changes = slot.subscribe();
    drop(slot);
    tokio::spawn(async move {
        while changes.changed().await.is_ok() {
            if woken.send(()).await.is_err() {
                return;
            }
        }
    })
}

/// The `game` of a `gameStart` or `gameFinish` for `seat`.
async fn game_event(hub: &Hub, game: &str, seat: Player) -> Result<Value, ApiError> {
    let slot = hub.slot(game).await?;
    let variant = slot.live.lock().await.record.variant.clone();
    let around = around(hub, game, &variant).await?;
    let live = slot.live.lock().await;
    let opponent = shown::seat_player(&live, seat.other(), around.players[seat.other().index()].clone());
    Ok(shown::event_game(&live, seat, opponent, around.rated, around.variant))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;

    #[test]
    fn yes_and_no_offer_accept_decline_or_withdraw_as_the_offer_stands() {
        let (me, other) = (Player::First, Some(Player::Second));
        assert_eq!(answer_of("yes", me, None).unwrap(), DrawAction::Offer);
        assert_eq!(answer_of("yes", me, other).unwrap(), DrawAction::Accept);
        assert_eq!(answer_of("no", me, other).unwrap(), DrawAction::Decline);
        assert_eq!(answer_of("no", me, Some(me)).unwrap(), DrawAction::Withdraw);
        assert_eq!(answer_of("maybe", me, None).unwrap_err().status, StatusCode::BAD_REQUEST);
    }

    fn challenge(id: &str, status: &str, created: i64) -> stored_challenges::StoredChallenge {
        stored_challenges::StoredChallenge {
            id: id.to_owned(),
            challenger: "ann".to_owned(),
            dest: "ben".to_owned(),
            variant: "lma".to_owned(),
            rated: false,
            clock: None,
            colour: "random".to_owned(),
            status: status.to_owned(),
            reason: (status == "declined").then(|| "later".to_owned()),
            game: None,
            created,
            expires: created + 3_600_000,
        }
    }

    fn kinds(lines: &[Value]) -> Vec<(String, String)> {
        lines.iter().map(|l| (l["type"].as_str().unwrap().to_owned(), l["challenge"]["id"].to_string())).collect()
    }

    /// A challenge made and answered between two looks of a stream is told
    /// once, as made then answered; one answered before the stream opened,
    /// never; one told open, then answered, once more, as its answer.
    #[tokio::test]
    async fn a_challenge_answered_between_two_looks_is_told_once_with_its_answer() {
        let dir = tempfile::tempdir().unwrap();
        let hub = crate::sqlite_hub(&dir.path().join("g.sqlite"), Default::default()).unwrap();
        let now = now_ms();
        let accounts =
            ["ann", "ben"].map(|id| Account { id: id.to_owned(), username: id.to_owned(), created: 0, closed: None });
        let stored = accounts.clone();
        hub.store()
            .transact(move |sql| {
                for account in &stored {
                    stored_accounts::create_account(sql, account, "x")?;
                }
                stored_challenges::add(sql, &challenge("before", "declined", now - 10_000))?;
                stored_challenges::add(sql, &challenge("quick", "declined", now))?;
                stored_challenges::add(sql, &challenge("withdrawn", "canceled", now))?;
                stored_challenges::add(sql, &challenge("taken", "accepted", now))?;
                stored_challenges::add(sql, &challenge("open", "created", now))
            })
            .await
            .unwrap();
        let (woken, _wakes) = mpsc::channel(8);
        let mut told = Told::since(now - 1);
        let ann = &accounts[0];
        let first = events(&hub, ann, &mut told, &woken).await.unwrap();
        let quoted = |id: &str| format!("\"{id}\"");
        let expected: Vec<(String, String)> = [
            ("challenge", "open"),
            ("challenge", "quick"),
            ("challengeDeclined", "quick"),
            ("challenge", "withdrawn"),
            ("challengeCanceled", "withdrawn"),
        ]
        .iter()
        .map(|(kind, id)| (kind.to_string(), quoted(id)))
        .collect();
        assert_eq!(kinds(&first), expected);
        assert_eq!(first[2]["challenge"]["declineReasonKey"], "later", "{}", first[2]);
        assert!(events(&hub, ann, &mut told, &woken).await.unwrap().is_empty(), "told once");

        let answered = stored_challenges::answer;
        hub.store().transact(move |sql| answered(sql, "open", "declined", Some("later"), now_ms())).await.unwrap();
        let last = events(&hub, ann, &mut told, &woken).await.unwrap();
        assert_eq!(kinds(&last), vec![("challengeDeclined".to_owned(), quoted("open"))]);
        assert!(events(&hub, ann, &mut told, &woken).await.unwrap().is_empty(), "told once");
    }
}
