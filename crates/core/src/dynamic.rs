use crate::view::{self, Present};
use crate::{perft, Actor, Encode, Game, MoveError, Outcome, Player, PositionError};
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
    /// Whether `viewer` saw which move the `ply`th of [`DynGame::history`]
    /// was (from 0): false only for an outcome of chance hidden from it
    /// ([`Game::chance_outcome_seen_by`]); true past the history.
    fn move_seen(&self, ply: usize, viewer: Player) -> bool;
    fn perft(&mut self, depth: u32) -> u64;
    fn divide(&mut self, depth: u32) -> Vec<(String, u64)>;
    fn box_clone(&self) -> Box<dyn DynGame>;

    /// The value behind the texts, so that a caller who knows the game
    /// (a searcher run through `GameVisitor`) can get the typed game back.
    fn as_any(&self) -> &dyn std::any::Any;
}

/// A game behind texts that also numbers its moves and observations
/// ([`Encode`]): what the Python package drives. A trait of its own so that
/// games made only to be played and shown (test games) need not number
/// their moves.
pub trait DynEncoded: DynGame {
    fn num_distinct_actions(&self) -> usize;
    fn has_chance(&self) -> bool;
    fn max_game_length(&self) -> usize;
    fn observation_shape(&self) -> Vec<usize>;
    /// The indices of the legal moves, ascending; empty when the game is
    /// over. Remembered until the position changes, for [`DynEncoded::play_action`].
    fn legal_actions(&mut self) -> &[usize];
    /// Chance's moves as (index, probability), ascending; empty unless
    /// chance acts. Remembered like [`DynEncoded::legal_actions`].
    fn chance_outcomes(&mut self) -> Vec<(usize, f64)>;
    /// Plays the legal move whose index is `action`.
    fn play_action(&mut self, action: usize) -> Result<(), MoveError>;
    /// The text of the move `action` names: the legal move with that index
    /// if there is one, else the text the index always stands for.
    fn action_text(&self, action: usize) -> Option<String>;
    /// The index of a legal move given as text.
    fn text_action(&self, text: &str) -> Result<usize, MoveError>;
    /// What `viewer` sees, as numbers ([`Encode::observe`]).
    fn observation(&self, viewer: Player) -> Vec<f32>;
    /// A full position consistent with what `observer` sees, the unknown
    /// parts sampled ([`Game::determinize`]); its history starts there.
    fn determinize(&self, observer: Player, rng: &mut dyn RngCore) -> Box<dyn DynEncoded>;
    fn clone_encoded(&self) -> Box<dyn DynEncoded>;
}

/// A move both players saw (the bits of [`Erased`]'s `seen`).
const SEEN_BY_BOTH: u8 = 0b11;

/// Any [`Game`] as a [`DynGame`].
#[derive(Clone, Debug)]
pub struct Erased<G: Game> {
    game: G,
    variant: String,
    history: Vec<String>,
    /// Who made each move of `history`.
    actors: Vec<Actor>,
    /// Who saw each move of `history`: bit `i` for the player of index `i`.
    seen: Vec<u8>,
    /// The legal moves of the position and their action indices,
    /// ascending ([`Encode::numbered_moves`]), as [`DynEncoded::legal_actions`]
    /// last listed them, while `listed` says the position has not changed
    /// since: a driver that lists the actions and plays one then finds its
    /// move without listing them again. Emptied, not dropped, when the
    /// position changes, so that a playout allocates them once.
    listed: bool,
    actions: Vec<usize>,
    moves: Vec<G::Move>,
}

impl<G: Game> Erased<G> {
    pub fn new(game: G, variant: impl Into<String>) -> Self {
        Erased {
            game,
            variant: variant.into(),
            history: Vec::new(),
            actors: Vec::new(),
            seen: Vec::new(),
            listed: false,
            actions: Vec::new(),
            moves: Vec::new(),
        }
    }

    pub fn from_text(variant: &G::Variant, variant_string: &str, text: &str) -> Result<Self, PositionError> {
        Ok(Self::new(G::from_text(variant, text)?, variant_string))
    }

    pub fn game(&self) -> &G {
        &self.game
    }

    /// Plays `mv` (legal), made by whoever acts now, recorded as `text`.
    fn record(&mut self, mv: G::Move, text: String) {
        let actor = self.game.to_act();
        let seen = match actor {
            Actor::Chance if G::has_hidden_information() => Player::BOTH
                .iter()
                .filter(|&&viewer| self.game.chance_outcome_seen_by(mv, viewer))
                .fold(0, |bits, viewer| bits | 1 << viewer.index()),
            _ => SEEN_BY_BOTH,
        };
        self.seen.push(seen);
        self.actors.push(actor);
        self.forget_listing();
        self.game.play(mv);
        self.history.push(text);
    }

    /// The position changed: the listed actions are no longer its own.
    fn forget_listing(&mut self) {
        self.listed = false;
        self.actions.clear();
        self.moves.clear();
    }
}

impl<G: Present + Encode> Erased<G> {
    /// Lists the legal moves by action index, once per position.
    fn list(&mut self) {
        if !self.listed {
            self.game.numbered_moves(&mut self.moves, &mut self.actions);
            self.listed = true;
        }
    }

    fn legal_move_of_action(&self, action: usize) -> Option<G::Move> {
        if self.listed {
            let at = self.actions.binary_search(&action).ok()?;
            return Some(self.moves[at]);
        }
        let mut moves = Vec::new();
        self.game.legal_moves(&mut moves);
        moves.into_iter().find(|&mv| self.game.action(mv) == action)
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
        self.record(mv, canonical);
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
            self.seen.pop();
            self.forget_listing();
            self.game.undo();
            true
        } else {
            false
        }
    }
    fn history(&self) -> &[String] {
        &self.history
    }
    fn move_seen(&self, ply: usize, viewer: Player) -> bool {
        self.seen.get(ply).is_none_or(|&bits| bits & 1 << viewer.index() != 0)
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

impl<G: Present + Encode> DynEncoded for Erased<G> {
    fn num_distinct_actions(&self) -> usize {
        G::num_distinct_actions(self.game.variant())
    }
    fn has_chance(&self) -> bool {
        G::has_chance()
    }
    fn max_game_length(&self) -> usize {
        G::max_game_length(self.game.variant())
    }
    fn observation_shape(&self) -> Vec<usize> {
        G::observation_shape(self.game.variant())
    }
    fn legal_actions(&mut self) -> &[usize] {
        self.list();
        &self.actions
    }
    fn chance_outcomes(&mut self) -> Vec<(usize, f64)> {
        if self.game.to_act() != Actor::Chance {
            return Vec::new();
        }
        self.list();
        let game = &self.game;
        self.actions.iter().zip(&self.moves).map(|(&action, &mv)| (action, game.chance_probability(mv))).collect()
    }
    fn play_action(&mut self, action: usize) -> Result<(), MoveError> {
        if self.game.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let Some(mv) = self.legal_move_of_action(action) else {
            let text = G::action_text(self.game.variant(), action).unwrap_or_else(|| format!("action {action}"));
            let problem = if action < self.num_distinct_actions() {
                format!("action {action} is not a legal move in this position")
            } else {
                format!("action {action} is outside the action space (0..{})", self.num_distinct_actions())
            };
            return Err(MoveError::illegal(&text, problem));
        };
        let text = self.game.move_text(mv);
        self.record(mv, text);
        Ok(())
    }
    fn action_text(&self, action: usize) -> Option<String> {
        match self.legal_move_of_action(action) {
            Some(mv) => Some(self.game.move_text(mv)),
            None => G::action_text(self.game.variant(), action),
        }
    }
    fn text_action(&self, text: &str) -> Result<usize, MoveError> {
        let mv = self.game.parse_move(text)?;
        Ok(self.game.action(mv))
    }
    fn observation(&self, viewer: Player) -> Vec<f32> {
        let mut out = vec![0.0; self.observation_shape().iter().product()];
        self.game.observe(viewer, &mut out);
        out
    }
    fn determinize(&self, observer: Player, rng: &mut dyn RngCore) -> Box<dyn DynEncoded> {
        Box::new(Erased::new(self.game.determinize(observer, rng), self.variant.clone()))
    }
    fn clone_encoded(&self) -> Box<dyn DynEncoded> {
        Box::new(self.clone())
    }
}
