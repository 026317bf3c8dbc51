//! Presentation: what people are shown of a position, apart from the rules.
//!
//! A game's rules are [`Game`]; what a person sees of a position is
//! [`Present`]: a terminal drawing and a typed view. The view has a common
//! part, the same keys for every game and filled from the rules alone, and
//! the game's own board part ([`Present::Board`]), both serialised by serde
//! into one JSON object (the board part's keys sit beside the common ones;
//! [`COMMON_KEYS`] are reserved). `docs/api.md` documents the common part;
//! each game's `view.rs` documents its board part.
//!
//! What a player *may* see of a game with hidden information is not
//! presentation but rules (the information state): [`Game::view_text`] says
//! it, [`Game::determinize`] keeps it, and the view is built from it.
//!
//! The viewer `None` is the public view, what anyone may be shown (a
//! spectator, whom anyone can claim to be): in games with hidden information
//! it never shows the hidden state, not even once the game is over.

use crate::{Actor, Game, Player};
use serde::Serialize;

/// How a game shows its positions to people. Registered games implement it
/// in their `view.rs`.
pub trait Present: Game {
    /// The game's own part of the view: squares, pieces, hands, whatever
    /// the page needs to draw. It serialises as a JSON object whose keys are
    /// none of [`COMMON_KEYS`].
    type Board: Serialize;

    /// The board part as `viewer` may see it; `None` is the public view,
    /// which in games with hidden information must show none of it (the
    /// other hands, the pile's order).
    fn board(&self, viewer: Option<Player>) -> Self::Board;

    /// The game's counters (all `None` by default).
    fn counters(&self) -> Counters {
        Counters::default()
    }

    /// The position drawn for a terminal, as `viewer` may see it; `None`
    /// draws the whole position, for terminal tools whose user gave it (the
    /// CLI's `show`, the engine's `describe`). Who acts, check and the result
    /// are printed under it by the caller.
    fn render(&self, viewer: Option<Player>) -> String;

    /// A short form of `mv`, a legal move of this position, for people
    /// (`Nf3`, `Cx1c3+`): the move list shows it, the exact move text beside
    /// it. The move text unless the game has something shorter.
    fn move_label(&self, mv: Self::Move) -> String {
        self.move_text(mv)
    }

    /// Whose turn this position belongs to: the player who acts, except in
    /// a game where the other side may act inside a turn (Lunch Chess's
    /// answers), which says whose turn it is. `None` while chance acts
    /// between turns. Move lists group moves by it.
    fn on_turn(&self) -> Option<Player> {
        match self.to_act() {
            Actor::Player(p) => Some(p),
            Actor::Chance => None,
        }
    }

    /// The whole view ([`view()`], no last move) as a JSON value, for tests
    /// and tools that read it untyped.
    fn view_json(&self, viewer: Option<Player>) -> serde_json::Value {
        serde_json::to_value(view(self, viewer, None)).expect("views serialise")
    }
}

/// The counters a game keeps, where it keeps them; the same keys for every
/// game, `null` where a game has no such counter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counters {
    /// The number of the turn being played, from 1 (chess's fullmove number).
    pub turn: Option<u32>,
    /// Plies since the last capture or pawn move (chess's fifty-move rule).
    pub halfmove_clock: Option<u32>,
    /// Turns in a row without progress, towards the game's quiet-turn draw
    /// (Kelasu, Lichen, Lunch Chess).
    pub quiet_turns: Option<u32>,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResultView {
    /// The winner's name (`white`, `blue`), `None` for a draw.
    pub winner: Option<&'static str>,
    pub reason: &'static str,
}

/// The move that led to the position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LastMove {
    /// Its text; `None` while the rules hide it (see [`move_text_hidden`]).
    pub text: Option<String>,
    /// Who made it: a player's name, or `chance`.
    pub actor: &'static str,
}

/// A position as a viewer is shown it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View<B> {
    /// Who acts now: a player's name (`white`, `blue`) or `chance`; `None`
    /// once the game is over.
    pub to_act: Option<&'static str>,
    /// `None` while the game goes on.
    pub result: Option<ResultView>,
    /// Whether the player to act stands in check (false in games without check).
    pub check: bool,
    pub last_move: Option<LastMove>,
    pub counters: Counters,
    /// The position text as the viewer may see it ([`Game::view_text`]); the
    /// full text for the public view of a game without hidden information,
    /// `None` for the public view of a game with hidden information (its
    /// full text holds the hands, the pile and the generator).
    pub text: Option<String>,
    /// The game's own part, its keys beside the common ones.
    #[serde(flatten)]
    pub board: B,
}

/// What chess notation appends to a move: `#` when it wins at once, `+`
/// when it leaves the other side in check, nothing otherwise.
pub fn check_suffix<G: Game>(game: &G, mv: G::Move) -> &'static str {
    let mut after = game.clone();
    after.play(mv);
    match after.outcome() {
        Some(outcome) if outcome.winner().is_some() => "#",
        _ if after.in_check() => "+",
        _ => "",
    }
}

/// The keys of the common part of every view.
pub const COMMON_KEYS: [&str; 6] = ["to_act", "result", "check", "last_move", "counters", "text"];

/// The name of an actor as views say it: the player's name, or `chance`.
pub fn actor_name<G: Game>(actor: Actor) -> &'static str {
    match actor {
        Actor::Player(p) => G::player_name(p),
        Actor::Chance => "chance",
    }
}

/// Whether a move's text is hidden from viewers: a chance move (a deal, a
/// draw) may show hidden cards, so in games with hidden information its
/// text is shown only once the game is over.
pub fn move_text_hidden(actor: Actor, hidden_information: bool, over: bool) -> bool {
    actor == Actor::Chance && hidden_information && !over
}

/// The view of `game` for `viewer`; `last_move` is the move that led here,
/// if the caller knows it (a position does not keep move texts).
pub fn view<G: Present>(game: &G, viewer: Option<Player>, last_move: Option<(String, Actor)>) -> View<G::Board> {
    let outcome = game.outcome();
    let over = outcome.is_some();
    View {
        to_act: (!over).then(|| actor_name::<G>(game.to_act())),
        result: outcome.map(|o| ResultView { winner: o.winner().map(G::player_name), reason: o.reason() }),
        check: game.in_check(),
        last_move: last_move.map(|(text, actor)| LastMove {
            text: (!move_text_hidden(actor, G::has_hidden_information(), over)).then_some(text),
            actor: actor_name::<G>(actor),
        }),
        counters: game.counters(),
        text: match viewer {
            Some(p) => Some(game.view_text(p)),
            None if G::has_hidden_information() => None,
            None => Some(game.to_text()),
        },
        board: game.board(viewer),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::nim::{Nim, NimVariant};
    use crate::{DynGame, Erased};

    #[test]
    fn the_common_part_comes_from_the_rules_and_the_board_sits_beside_it() {
        let nim = Nim::start(&NimVariant { stones: 5 }, 0);
        let json = serde_json::to_value(view(&nim, None, None)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "to_act": "white", "result": null, "check": false, "last_move": null,
                "counters": {"turn": null, "halfmove_clock": null, "quiet_turns": null},
                "text": "5 first", "stones": 5
            })
        );
    }

    #[test]
    fn a_played_game_shows_its_last_move_and_its_result() {
        let mut game = Erased::new(Nim::start(&NimVariant { stones: 3 }, 0), "nim:stones=3");
        game.play("3").unwrap();
        let json: serde_json::Value = serde_json::from_str(game.view(None).get()).unwrap();
        assert_eq!(json["last_move"], serde_json::json!({"text": "3", "actor": "white"}));
        assert_eq!(json["to_act"], serde_json::Value::Null);
        assert_eq!(json["result"], serde_json::json!({"winner": "white", "reason": "took the last stone"}));
        game.undo();
        let json: serde_json::Value = serde_json::from_str(game.view(None).get()).unwrap();
        assert_eq!(json["last_move"], serde_json::Value::Null);
    }

    #[test]
    fn chance_moves_of_hidden_games_stay_hidden_until_the_end() {
        assert!(move_text_hidden(Actor::Chance, true, false));
        assert!(!move_text_hidden(Actor::Chance, true, true));
        assert!(!move_text_hidden(Actor::Chance, false, false));
        assert!(!move_text_hidden(Actor::Player(Player::First), true, false));
    }
}
