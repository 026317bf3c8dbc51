//! A game as lichess's Bot and Board API shows it to one seat: the
//! `gameFull` and `gameState` lines of a game stream and the `game` of the
//! event stream's `gameStart`/`gameFinish` (docs/bots.md). The first player
//! is `white`, the second `black`; move texts are Menagerie's. A seat sees
//! only what it may: the move texts the state view shows it (a deal or
//! draw stays hidden until the end in a game with hidden cards) and its
//! own view of the position (`fen`: [`menagerie_core::DynGame::view_text`]).

use crate::challenges::{colour_name, speed};
use crate::clock::now_ms;
use crate::live::LiveGame;
use crate::store::{MoveActor, SeatKind};
use menagerie_core::{Actor, Player};
use serde_json::{json, Value};

/// lichess's time left for a game without a clock (its "unlimited").
const UNLIMITED_MS: u64 = 2_147_483_647;

/// What stands in `moves` for a move the seat may not see yet.
pub const HIDDEN_MOVE: &str = "?";

/// lichess's status of a game: `started` while it goes on, else what ended
/// it (`mate`, `resign`, `draw`, `stalemate`, `outoftime`, `aborted`,
/// `noStart` for a tournament game a player did not start, `variantEnd`
/// for an end of Menagerie's own rules).
pub fn status(live: &LiveGame) -> &'static str {
    let Some(ending) = live.result() else { return "started" };
    let reason = ending.reason.to_ascii_lowercase();
    if reason == crate::live::ABORTED {
        "aborted"
    } else if reason.ends_with(crate::live::DID_NOT_MOVE) {
        "noStart"
    } else if reason.contains("resign") {
        "resign"
    } else if reason.contains("ran out of time") {
        "outoftime"
    } else if reason.contains("checkmate") {
        "mate"
    } else if reason.contains("stalemate") {
        "stalemate"
    } else if ending.winner.is_none() {
        "draw"
    } else {
        "variantEnd"
    }
}

/// The seat whose decision is next, if a player's.
pub fn to_move(live: &LiveGame) -> Option<Player> {
    match (live.is_over(), live.game.to_act()) {
        (false, Actor::Player(p)) => Some(p),
        _ => None,
    }
}

/// The move texts `seat` may see, in order ([`HIDDEN_MOVE`] for the rest).
pub fn visible_moves(live: &LiveGame) -> Vec<&str> {
    let hidden_until_over = live.game.has_hidden_information() && !live.is_over();
    live.moves
        .iter()
        .map(|m| if hidden_until_over && m.actor == MoveActor::Chance { HIDDEN_MOVE } else { m.text.as_str() })
        .collect()
}

/// A `gameState` line for `seat`.
pub fn game_state(live: &LiveGame, seat: Player) -> Value {
    let (times, increment) = match &live.clock {
        Some(clock) => {
            let view = clock.clock.view(now_ms());
            let increment = view.increment_ms.unwrap_or(0);
            ([view.first_ms, view.second_ms], increment)
        }
        None => ([UNLIMITED_MS, UNLIMITED_MS], 0),
    };
    let next = to_move(live);
    let mut state = json!({
        "type": "gameState",
        "moves": visible_moves(live).join(" "),
        "wtime": times[0],
        "btime": times[1],
        "winc": increment,
        "binc": increment,
        "status": status(live),
        "wdraw": live.meta.draw_offer == Some(Player::First),
        "bdraw": live.meta.draw_offer == Some(Player::Second),
        "wtakeback": live.meta.takeback_offer == Some(Player::First),
        "btakeback": live.meta.takeback_offer == Some(Player::Second),
        "toMove": next.map(colour_name),
        "fen": live.game.view_text(seat),
    });
    if let Some(winner) = live.result().and_then(|e| e.winner) {
        state["winner"] = json!(colour_name(winner));
    }
    if next == Some(seat) {
        state["legalMoves"] = json!(crate::view::visible_legal_moves(live, crate::viewer::Viewer::Seat(seat)));
    }
    state
}

/// The `white` or `black` of a `gameFull`: the account holding the seat
/// (given by the caller: `{id, name, title, rating}`), or the computer.
pub fn seat_player(live: &LiveGame, seat: Player, account: Option<Value>) -> Value {
    match (&live.record.seats[seat.index()].kind, account) {
        (SeatKind::Computer { level }, _) => json!({ "aiLevel": level, "name": format!("Menagerie {level}") }),
        (SeatKind::Human, Some(account)) => account,
        (SeatKind::Human, None) => json!({ "id": null, "name": "Anonymous" }),
    }
}

/// The `gameFull` line for `seat`: the game, its players (`players`, by
/// [`Player::index`]) and its state.
pub fn game_full(live: &LiveGame, seat: Player, players: [Value; 2], rated: bool, variant: Value) -> Value {
    let clock = live.record.time_control;
    let mut full = json!({
        "type": "gameFull",
        "id": live.record.id,
        "variant": variant,
        "speed": speed(clock),
        "perf": { "name": speed(clock) },
        "rated": rated,
        "createdAt": live.record.created * 1000,
        "white": players[0],
        "black": players[1],
        "initialFen": live.record.position.clone().unwrap_or_else(|| "startpos".into()),
        "state": game_state(live, seat),
    });
    match clock {
        Some(crate::clock::TimeControl::Fischer { initial_ms, increment_ms }) => {
            full["clock"] = json!({ "initial": initial_ms, "increment": increment_ms });
        }
        Some(crate::clock::TimeControl::Correspondence { per_move_ms }) => {
            full["clock"] = Value::Null;
            full["daysPerTurn"] = json!(per_move_ms / (24 * 3600 * 1000));
        }
        None => full["clock"] = Value::Null,
    }
    full
}

/// The `game` of an event stream's `gameStart` or `gameFinish` for `seat`;
/// `opponent` as [`seat_player`] gives it.
pub fn event_game(live: &LiveGame, seat: Player, opponent: Value, rated: bool, variant: Value) -> Value {
    let source = match live.record.seats[seat.other().index()].kind {
        SeatKind::Computer { .. } => "ai",
        SeatKind::Human => "friend",
    };
    let status_name = status(live);
    let mut game = json!({
        "gameId": live.record.id,
        "fullId": live.record.id,
        "id": live.record.id,
        "color": colour_name(seat),
        "fen": live.game.view_text(seat),
        "hasMoved": live.moves.iter().any(|m| m.actor == MoveActor::of(seat)),
        "isMyTurn": to_move(live) == Some(seat),
        "lastMove": visible_moves(live).last().copied().unwrap_or_default(),
        "opponent": {
            "id": opponent.get("id").cloned().unwrap_or(Value::Null),
            "username": opponent.get("name").cloned().unwrap_or(Value::Null),
            "rating": opponent.get("rating").cloned().unwrap_or(Value::Null),
        },
        "rated": rated,
        "source": source,
        "speed": speed(live.record.time_control),
        "perf": speed(live.record.time_control),
        "status": { "name": status_name },
        "variant": variant,
        "compat": { "bot": true, "board": true },
    });
    if let Some(level) = opponent.get("aiLevel") {
        game["opponent"]["ai"] = level.clone();
    }
    if let Some(winner) = live.result().and_then(|e| e.winner) {
        game["winner"] = json!(colour_name(winner));
    }
    game
}
