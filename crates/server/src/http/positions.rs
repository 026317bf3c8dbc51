//! The positions of the analysis board (docs/api.md, "Analysis"): where a
//! position comes from (a variant and a position text, or a game of this
//! server after some of its moves, as a seat or a spectator sees it), then
//! moves played from it; and `POST /api/analysis/position`, which tells the
//! page what it shows of one node of its variation tree (the board, who
//! acts, the legal moves with their labels) so that it can play on from it.
//!
//! The socket's analyses and this endpoint resolve a position the same
//! way, so the board never shows a position the engine may not search, nor
//! the other way round. In a game with hidden cards that goes on, only the
//! seat to act may have one, the current one, without moves played from it.

use super::body::Body;
use crate::command::MAX_POSITION_LEN;
use crate::cpu;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::store::player_str;
use crate::viewer::Viewer;
use axum::extract::State;
use axum::Json;
use menagerie_core::{Actor, DynGame, MoveError, Player};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// Moves played from a position in one request, at most (a long game's
/// whole line fits; the body limit bounds their texts).
pub const MAX_MOVES: usize = 2_000;

/// Where a position comes from, then the moves played from it.
pub struct PositionSource<'a> {
    /// A position given by text: its variant string ...
    pub variant: Option<&'a str>,
    /// ... and position text (`None` or `startpos`: the start).
    pub position: Option<&'a str>,
    /// Or a position of a game on this server: its id ...
    pub game: Option<&'a str>,
    /// ... after this many moves (`None`: now) ...
    pub ply: Option<usize>,
    /// ... as the holder of this seat secret sees it (`None`: a spectator).
    pub seat: Option<&'a str>,
    pub moves: &'a [String],
}

/// A position resolved: the game there, and whose view of it may be shown.
pub struct Resolved {
    pub game: Box<dyn DynGame>,
    /// The seat whose view the board shows in games with hidden cards
    /// (`None`: the public view, or a game without hidden cards).
    pub view: Option<Player>,
    /// Whether moves may be played from here (not in a game with hidden
    /// cards that goes on).
    pub branches: bool,
    /// Whether the position came from text, which its sender knows whole.
    pub from_text: bool,
}

impl PositionSource<'_> {
    /// The position, or why it may not be had (one line, with the status
    /// an HTTP answer gives it).
    pub async fn resolve(&self, hub: &Hub) -> Result<Resolved, ApiError> {
        if self.moves.len() > MAX_MOVES {
            return Err(ApiError::bad_request(format!("at most {MAX_MOVES} moves")));
        }
        let mut resolved = match (self.game, self.variant) {
            (Some(id), None) if self.position.is_none() => self.game_position(hub, id).await?,
            (None, Some(variant)) if self.ply.is_none() && self.seat.is_none() => {
                if self.position.is_some_and(|p| p.len() > MAX_POSITION_LEN) {
                    return Err(ApiError::bad_request("position text too long"));
                }
                let game =
                    hub.source().new_game(variant, self.position, 0, hub.catalog()).map_err(ApiError::bad_request)?;
                Resolved { game, view: None, branches: true, from_text: true }
            }
            _ => {
                return Err(ApiError::bad_request("give either a variant (and position) or a game (and ply and seat)"))
            }
        };
        if !self.moves.is_empty() {
            // Up to MAX_MOVES moves, each checked by the rules: off the runtime.
            let moves = self.moves.to_vec();
            let mut game = resolved.game;
            resolved.game = cpu::on_blocking_pool(move || {
                for (index, text) in moves.iter().enumerate() {
                    game.play(text).map_err(|error| {
                        let reason = format!("move {} of moves: {error}", index + 1);
                        match error {
                            MoveError::Syntax { .. } => ApiError::bad_request(reason),
                            _ => ApiError::unprocessable(reason),
                        }
                    })?;
                }
                Ok(game)
            })
            .await?;
        }
        if resolved.from_text && resolved.game.has_hidden_information() {
            // Its sender knows everything: show what the side to act holds.
            resolved.view = Some(match resolved.game.to_act() {
                Actor::Player(player) => player,
                _ => resolved.game.on_turn().unwrap_or(Player::First),
            });
        }
        Ok(resolved)
    }

    async fn game_position(&self, hub: &Hub, id: &str) -> Result<Resolved, ApiError> {
        let slot = hub.slot(id).await?;
        let live = slot.live.lock().await;
        let viewer = live.viewer(self.seat)?;
        let now = live.moves.len();
        let ply = self.ply.unwrap_or(now);
        if ply > now {
            return Err(ApiError::not_found(format!("the game has {now} moves, not {ply}")));
        }
        let hidden = live.game.has_hidden_information();
        let going_on = hidden && !live.is_over();
        if going_on {
            // Only what the asking seat may know: its own decision, now.
            let acting = matches!(viewer, Viewer::Seat(p) if live.game.to_act() == Actor::Player(p));
            if !acting || ply != now || !self.moves.is_empty() {
                return Err(ApiError::forbidden(
                    "in a game with hidden cards that goes on, only the seat to act may have the current \
                     position analysed (without further moves)",
                ));
            }
        }
        let mut game = live.game.box_clone();
        for _ in ply..now {
            game.undo();
        }
        let view = match viewer {
            Viewer::Seat(p) if hidden => Some(p),
            _ => None,
        };
        Ok(Resolved { game, view, branches: !going_on, from_text: false })
    }
}

/// `POST /api/analysis/position`: a position's source, as the socket takes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    variant: Option<String>,
    position: Option<String>,
    game: Option<String>,
    ply: Option<usize>,
    seat: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
}

impl PositionRequest {
    fn source(&self) -> PositionSource<'_> {
        PositionSource {
            variant: self.variant.as_deref(),
            position: self.position.as_deref(),
            game: self.game.as_deref(),
            ply: self.ply,
            seat: self.seat.as_deref(),
            moves: &self.moves,
        }
    }
}

fn actor_str(actor: Actor) -> &'static str {
    match actor {
        Actor::Player(player) => player_str(player),
        Actor::Chance => "chance",
    }
}

/// What the page shows of a node and plays on from: the board as the viewer
/// may see it, who acts, and the legal moves with their labels (none once
/// the game is over, or where moves may not be played from here).
pub async fn position(
    State(hub): State<Arc<Hub>>,
    Body(request): Body<PositionRequest>,
) -> Result<Json<Value>, ApiError> {
    let resolved = request.source().resolve(&hub).await?;
    // Every legal move labelled: on the blocking pool, like the moves played.
    Ok(cpu::on_blocking_pool(move || Ok(Json(node(resolved)))).await?)
}

/// What the page shows of a resolved position.
fn node(resolved: Resolved) -> Value {
    let game = resolved.game.as_ref();
    let over = game.outcome().is_some();
    let legal: Vec<Value> = if over {
        Vec::new()
    } else {
        game.legal_moves()
            .into_iter()
            .map(|text| {
                let label = game.move_label(&text).unwrap_or_else(|_| text.clone());
                json!({ "text": text, "label": label })
            })
            .collect()
    };
    let branches = resolved.branches && !over;
    // Chance's move drawn with the game's probabilities, for the board's
    // "draw at random" (anyone who may play on from here may draw).
    let chance = (branches && game.to_act() == Actor::Chance).then(|| game.sample_chance(&mut rand::rng())).flatten();
    json!({
        "variant": game.variant(),
        "players": [game.player_name(Player::First), game.player_name(Player::Second)],
        "board": game.view(resolved.view),
        "you": resolved.view.map(player_str),
        "to_act": (!over).then(|| actor_str(game.to_act())),
        "on_turn": game.on_turn().map(player_str),
        "check": game.in_check(),
        "legal_moves": legal,
        "branches": branches,
        "chance_move": chance,
        "position": resolved.from_text.then(|| game.to_text()),
    })
}
