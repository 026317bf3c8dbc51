//! What a viewer is sent: a game's state as JSON text, built once per change
//! of the game and per viewer and shared by the HTTP answers and every
//! socket watching (the live game's cache keeps it); a past position; the
//! legal moves; and the answer to a game's start.

use crate::clock::{now_ms, ClockView};
use crate::error::ApiError;
use crate::live::{LiveGame, StateJson, TakebackPolicy};
use crate::names::capitalised;
use crate::source::GameSource;
use crate::store::{player_str, GameRecord, MoveActor, SeatKind};
use crate::viewer::Viewer;
use bytes::Bytes;
use menagerie_core::{Actor, DynGame, Player};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::{json, Value};

/// The legal moves `viewer` may see, `None` when they may not.
pub fn visible_legal_moves(live: &LiveGame, viewer: Viewer) -> Option<Vec<String>> {
    if live.is_over() {
        return Some(Vec::new());
    }
    let may_see = match viewer {
        Viewer::Seat(p) => live.game.to_act() == Actor::Player(p) || !live.game.has_hidden_information(),
        Viewer::Spectator => !live.game.has_hidden_information(),
    };
    may_see.then(|| live.game.legal_moves())
}

/// Which view of the board `viewer` gets: a seat's own in games with hidden
/// information, the public view (`None`) otherwise. A spectator gets the
/// public view even after the end: anyone can open the spectator link, and
/// the full state (the other hand, the pile's order, the generator) is never
/// sent; the move list tells the rest once the game is over.
fn board_view(game: &dyn DynGame, viewer: Viewer) -> Option<Player> {
    match viewer {
        Viewer::Seat(p) if game.has_hidden_information() => Some(p),
        _ => None,
    }
}

/// The view of any position of the game as `viewer` may see it
/// (`menagerie_core::view`).
fn board(game: &dyn DynGame, viewer: Viewer) -> Box<RawValue> {
    game.view(board_view(game, viewer))
}

/// The board after the first `ply` moves, as `viewer` may see it.
pub fn position(live: &LiveGame, viewer: Viewer, ply: usize) -> Result<Value, ApiError> {
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
    Ok(json!({
        "ply": ply,
        "board": board(game.as_ref(), viewer),
        "check": game.in_check(),
        "last_move": ply.checked_sub(1).map(|i| move_json(live, i)),
    }))
}

/// A move of the list, its text hidden where the rules hide it.
fn move_json(live: &LiveGame, index: usize) -> Value {
    serde_json::to_value(MoveView { live, index }).expect("moves serialise")
}

struct MoveView<'a> {
    live: &'a LiveGame,
    index: usize,
}

impl Serialize for MoveView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mv = &self.live.moves[self.index];
        // A chance move (a shuffle, a draw) may show hidden cards: in games
        // with hidden information its text is shown only after the end.
        let hidden = mv.actor == MoveActor::Chance && self.live.game.has_hidden_information() && !self.live.is_over();
        let note = self.live.notes.get(self.index);
        let mut map = serializer.serialize_map(Some(5))?;
        map.serialize_entry("ply", &(self.index + 1))?;
        map.serialize_entry("text", &(!hidden).then_some(mv.text.as_str()))?;
        map.serialize_entry("actor", mv.actor.as_str())?;
        map.serialize_entry("label", &note.filter(|_| !hidden).map(|n| n.label.as_str()))?;
        map.serialize_entry("side", &note.and_then(|n| n.side).map(player_str))?;
        map.end()
    }
}

struct MovesView<'a>(&'a LiveGame);

impl Serialize for MovesView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.moves.len()))?;
        for index in 0..self.0.moves.len() {
            seq.serialize_element(&MoveView { live: self.0, index })?;
        }
        seq.end()
    }
}

#[derive(Serialize)]
struct SeatView {
    name: &'static str,
    kind: &'static str,
    level: Option<String>,
    joined: bool,
}

#[derive(Serialize)]
struct Seats {
    first: SeatView,
    second: SeatView,
}

/// Whether a seat may ask to take back now, and if not, why (the page
/// shows the reason by its Take back button).
#[derive(Serialize)]
struct TakebackView {
    allowed: bool,
    reason: Option<String>,
}

/// Each human seat's [`TakebackView`] (`null` for the computer's): public,
/// as it follows from the move list and the seats, and a page on one
/// device asks for whichever side moved last.
#[derive(Serialize)]
struct Takebacks {
    first: Option<TakebackView>,
    second: Option<TakebackView>,
}

#[derive(Serialize)]
struct ResultView<'a> {
    winner: Option<&'static str>,
    reason: &'a str,
    summary: String,
}

/// The state `GET /api/games/{id}` answers and sockets send (docs/api.md).
#[derive(Serialize)]
struct StateView<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    id: &'a str,
    variant: &'a str,
    name: &'a str,
    mode: &'static str,
    seats: Seats,
    you: Option<&'static str>,
    ply: usize,
    version: u64,
    moves: MovesView<'a>,
    to_act: Option<&'static str>,
    your_turn: bool,
    legal_moves: Option<Vec<String>>,
    check: bool,
    result: Option<ResultView<'a>>,
    draw_offer: Option<&'static str>,
    takeback_offer: Option<&'static str>,
    takeback: Takebacks,
    /// `null` for unlimited time.
    clock: Option<ClockView>,
    rematch: Option<&'a str>,
    hidden_information: bool,
    board: Box<RawValue>,
}

/// The whole state of a game for one viewer: what the page draws. Built
/// once per change and viewer.
/// `takeback_levels`: the computer levels that take a move back.
pub fn state(
    live: &LiveGame,
    viewer: Viewer,
    source: &dyn GameSource,
    takeback_levels: &dyn TakebackPolicy,
) -> StateJson {
    live.views.state(viewer, || {
        let view = state_view(live, viewer, source, takeback_levels);
        StateJson(Bytes::from(serde_json::to_vec(&view).expect("states serialise")))
    })
}

fn cached_board(live: &LiveGame, viewer: Viewer) -> Box<RawValue> {
    let view = board_view(live.game.as_ref(), viewer);
    live.views.board(view, || live.game.view(view))
}

fn state_view<'a>(
    live: &'a LiveGame,
    viewer: Viewer,
    source: &dyn GameSource,
    takeback_levels: &dyn TakebackPolicy,
) -> StateView<'a> {
    let game = live.game.as_ref();
    let id_of_variant = game.variant().split(':').next().unwrap_or_default();
    let name = source.variants().iter().find(|v| v.id == id_of_variant).map(|v| v.name).unwrap_or(id_of_variant);
    let seat = |p: Player| {
        let (kind, level) = match &live.record.seats[p.index()].kind {
            SeatKind::Human => ("human", None),
            SeatKind::Computer { level } => ("computer", Some(level.clone())),
        };
        SeatView { name: game.player_name(p), kind, level, joined: live.joined(p) }
    };
    let to_act = (!live.is_over()).then(|| match game.to_act() {
        Actor::Player(p) => player_str(p),
        Actor::Chance => "chance",
    });
    let your_turn = matches!(viewer, Viewer::Seat(p) if !live.is_over() && game.to_act() == Actor::Player(p));
    let result = live.result().map(|ending| ResultView {
        winner: ending.winner.map(player_str),
        reason: &ending.reason,
        summary: match ending.winner {
            Some(w) => format!("{} wins: {}", capitalised(game.player_name(w)), ending.reason),
            None => format!("Draw: {}", ending.reason),
        },
    });
    StateView {
        kind: "state",
        id: &live.record.id,
        variant: game.variant(),
        name,
        mode: live.record.mode.as_str(),
        seats: Seats { first: seat(Player::First), second: seat(Player::Second) },
        you: match viewer {
            Viewer::Seat(p) => Some(player_str(p)),
            Viewer::Spectator => None,
        },
        ply: live.moves.len(),
        version: live.version,
        moves: MovesView(live),
        to_act,
        your_turn,
        // The legal moves go to the seat that must act (the page of a
        // spectator or of the waiting side has no use for them; they are
        // still one GET .../moves away where the rules allow).
        legal_moves: if your_turn || live.is_over() { visible_legal_moves(live, viewer) } else { None },
        check: !live.is_over() && game.in_check(),
        result,
        draw_offer: live.meta.draw_offer.map(player_str),
        takeback_offer: live.meta.takeback_offer.map(player_str),
        takeback: Takebacks {
            first: takeback_view(live, Player::First, takeback_levels),
            second: takeback_view(live, Player::Second, takeback_levels),
        },
        clock: live.clock.as_ref().map(|c| c.clock.view(now_ms())),
        rematch: live.meta.rematch.as_deref(),
        hidden_information: game.has_hidden_information(),
        board: cached_board(live, viewer),
    }
}

/// Whether `asker` may ask to take back now; `None` for the computer's seat.
fn takeback_view(live: &LiveGame, asker: Player, takeback_levels: &dyn TakebackPolicy) -> Option<TakebackView> {
    live.computer_level(asker).is_none().then(|| {
        let reason = live.takeback_refusal(asker, takeback_levels);
        TakebackView { allowed: reason.is_none(), reason }
    })
}

/// The answer of `GET .../moves`, `None` when `viewer` may not know them.
pub fn legal_moves_json(live: &LiveGame, viewer: Viewer) -> Option<Value> {
    let moves = visible_legal_moves(live, viewer)?;
    Some(json!({ "ply": live.moves.len(), "moves": moves }))
}

/// The answer to a game's start, `{id, mode, you, secrets: {first, second},
/// links}`, for the asker in seat `you`: `all_secrets` gives them every human
/// seat's secret (to play locally or send a link), else only their own.
pub fn started(record: &GameRecord, you: Player, all_secrets: bool) -> Value {
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
