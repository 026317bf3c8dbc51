use crate::view::{self, Present};
use crate::{perft, Actor, Game, MoveError, Outcome, Player, PositionError};
use rand::RngCore;
use serde_json::value::RawValue;

/// A game behind texts: what the CLI and the server use. Moves and
/// positions go in and come out as texts; search and perft inside stay typed.
pub trait DynGame: Send + Sync {
    /// The variant string this game was made with (`lunch:princess`).
    fn variant(&self) -> &str;
    fn to_text(&self) -> String;
    /// What `viewer` may see, as text ([`Game::view_text`]).
    fn view_text(&self, viewer: Player) -> String;
    /// The view of the position for `viewer` ([`view::View`]) as JSON, the
    /// last move played through this value included; `None` is the public
    /// view, which never shows hidden information ([`view::view`]).
    fn view(&self, viewer: Option<Player>) -> Box<RawValue>;
    /// The short form of a legal move text ([`Present::move_label`]).
    fn move_label(&self, text: &str) -> Result<String, MoveError>;
    /// Whose turn the position belongs to ([`Present::on_turn`]).
    fn on_turn(&self) -> Option<Player>;
    /// The terminal drawing ([`Present::render`]).
    fn render(&self, viewer: Option<Player>) -> String;
    fn to_act(&self) -> Actor;
    /// Whose turn it is ([`Game::turn_player`]).
    fn turn_player(&self) -> Player;
    fn outcome(&self) -> Option<Outcome>;
    fn in_check(&self) -> bool;
    /// Whether `player` could still win ([`Game::could_win`]).
    fn could_win(&self, player: Player) -> bool;
    fn player_name(&self, player: Player) -> &'static str;
    fn has_hidden_information(&self) -> bool;
    fn hash(&self) -> u64;
    /// The legal move texts, sorted by byte order; empty when the game is over.
    fn legal_moves(&self) -> Vec<String>;
    /// Plays a move given as text, after checking it is legal.
    fn play(&mut self, text: &str) -> Result<(), MoveError>;
    /// The text of a chance move drawn with the game's probabilities
    /// ([`crate::sample_chance`]); `None` unless chance acts.
    fn sample_chance(&self, rng: &mut dyn RngCore) -> Option<String>;
    /// Whether `text`, about to be played here, is a chance move whose
    /// outcome some player sees ([`Game::chance_outcome_seen`]): false for
    /// a player's move, true for a text that is not a legal move (the
    /// cautious answer).
    fn chance_outcome_seen(&self, text: &str) -> bool;
    /// Takes back the last move played through this value; false if none.
    fn undo(&mut self) -> bool;
    /// Moves played through this value, oldest first.
    fn history(&self) -> &[String];
    fn perft(&mut self, depth: u32) -> u64;
    fn divide(&mut self, depth: u32) -> Vec<(String, u64)>;
    fn box_clone(&self) -> Box<dyn DynGame>;
    /// The value behind the texts, so that a caller who knows the game
    /// (a searcher run through `GameVisitor`) can get the typed game back.
    fn as_any(&self) -> &dyn std::any::Any;
}

/// Any [`Game`] as a [`DynGame`].
#[derive(Clone, Debug)]
pub struct Erased<G: Game> {
    game: G,
    variant: String,
    history: Vec<String>,
    /// Who made each move of `history`.
    actors: Vec<Actor>,
}

impl<G: Game> Erased<G> {
    pub fn new(game: G, variant: impl Into<String>) -> Self {
        Erased { game, variant: variant.into(), history: Vec::new(), actors: Vec::new() }
    }

    pub fn from_text(variant: &G::Variant, variant_string: &str, text: &str) -> Result<Self, PositionError> {
        Ok(Self::new(G::from_text(variant, text)?, variant_string))
    }

    pub fn game(&self) -> &G {
        &self.game
    }
}

impl<G: Present> DynGame for Erased<G> {
    fn variant(&self) -> &str {
        &self.variant
    }
    fn to_text(&self) -> String {
        self.game.to_text()
    }
    fn view_text(&self, viewer: Player) -> String {
        self.game.view_text(viewer)
    }
    fn view(&self, viewer: Option<Player>) -> Box<RawValue> {
        let last = self.history.last().cloned().zip(self.actors.last().copied());
        let view = view::view(&self.game, viewer, last);
        serde_json::value::to_raw_value(&view).expect("views serialise")
    }
    fn move_label(&self, text: &str) -> Result<String, MoveError> {
        let mv = self.game.parse_move(text)?;
        Ok(self.game.move_label(mv))
    }
    fn on_turn(&self) -> Option<Player> {
        self.game.on_turn()
    }
    fn render(&self, viewer: Option<Player>) -> String {
        self.game.render(viewer)
    }
    fn to_act(&self) -> Actor {
        self.game.to_act()
    }
    fn turn_player(&self) -> Player {
        self.game.turn_player()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
    fn in_check(&self) -> bool {
        self.game.in_check()
    }
    fn could_win(&self, player: Player) -> bool {
        self.game.could_win(player)
    }
    fn player_name(&self, player: Player) -> &'static str {
        G::player_name(player)
    }
    fn has_hidden_information(&self) -> bool {
        G::has_hidden_information()
    }
    fn hash(&self) -> u64 {
        self.game.hash()
    }
    fn legal_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.game.legal_moves(&mut moves);
        let mut texts: Vec<String> = moves.into_iter().map(|mv| self.game.move_text(mv)).collect();
        texts.sort_unstable_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
        texts
    }
    fn play(&mut self, text: &str) -> Result<(), MoveError> {
        if self.game.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let mv = self.game.parse_move(text)?;
        let canonical = self.game.move_text(mv);
        self.actors.push(self.game.to_act());
        self.game.play(mv);
        self.history.push(canonical);
        Ok(())
    }
    fn sample_chance(&self, rng: &mut dyn RngCore) -> Option<String> {
        crate::sample_chance(&self.game, rng).map(|mv| self.game.move_text(mv))
    }
    fn chance_outcome_seen(&self, text: &str) -> bool {
        if self.game.to_act() != Actor::Chance {
            return false;
        }
        self.game.parse_move(text).map_or(true, |mv| self.game.chance_outcome_seen(mv))
    }
    fn undo(&mut self) -> bool {
        if self.history.pop().is_some() {
            self.actors.pop();
            self.game.undo();
            true
        } else {
            false
        }
    }
    fn history(&self) -> &[String] {
        &self.history
    }
    fn perft(&mut self, depth: u32) -> u64 {
        perft::perft(&mut self.game, depth)
    }
    fn divide(&mut self, depth: u32) -> Vec<(String, u64)> {
        perft::divide(&mut self.game, depth)
    }
    fn box_clone(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
