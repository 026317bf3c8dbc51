use crate::{
    Actor, Encode, Evaluate, MoveError, Outcome, Player, PositionError, Present, Resolver, Study, VariantError,
    VariantInfo, VariantSpec,
};
use rand::{Rng, RngCore};
use std::fmt::Debug;
use std::hash::Hash;

/// A position of one game, with everything needed to go on playing it.
///
/// The required methods are the rules; the rest have defaults. A position
/// plays moves in place and undoes them (a game may implement `undo` by
/// keeping copies, if copying measures faster than unmaking); repetition
/// history lives inside the position so that "is the game over?" needs
/// nothing else.
///
/// Conventions every implementation keeps:
/// - `legal_moves` clears the buffer and fills it; it is empty exactly when
///   `outcome()` is `Some`;
/// - the text of a move ([`Game::move_text`]) identifies it: two legal moves
///   of one position never share a text;
/// - `hash` is a function of what the position text says (the history is
///   not hashed), computed incrementally where that pays;
/// - parsing never panics, whatever the input.
pub trait Game: Clone + Debug + Send + Sync + Sized + 'static {
    /// A move of the game model: what one actor does in one step.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// The variant and its options, as plain data.
    type Variant: Clone + Debug + PartialEq + Send + Sync + 'static;

    /// The variant ids this type plays, with their options.
    const VARIANTS: &'static [VariantInfo];

    /// Turns a variant string (already split into id and options) into the
    /// variant data. The id is one of [`Game::VARIANTS`].
    /// Option values that name data (`deck=NAME`) get only what the game
    /// has built in; [`Game::parse_variant_with`] lets the caller decide.
    fn parse_variant(spec: &VariantSpec) -> Result<Self::Variant, VariantError>;

    /// Like [`Game::parse_variant`], with `resolver` saying what option values
    /// that name data mean. Games whose options name no data need not
    /// override it.
    fn parse_variant_with(spec: &VariantSpec, resolver: &dyn Resolver) -> Result<Self::Variant, VariantError> {
        let _ = resolver;
        Self::parse_variant(spec)
    }

    /// The start position. A game whose start involves chance (a deal)
    /// models it as chance moves played from this position, so that the
    /// start is one position; `seed` is there for a game that cannot, and
    /// the registered games ignore it.
    fn start(variant: &Self::Variant, seed: u64) -> Self;

    /// Reads a position text as the game's rules file defines it.
    fn from_text(variant: &Self::Variant, text: &str) -> Result<Self, PositionError>;

    /// The full position text (everything, hidden state included).
    fn to_text(&self) -> String;

    fn variant(&self) -> &Self::Variant;

    /// Who must move now. Meaningless, but not a panic, once the game is over.
    fn to_act(&self) -> Actor;

    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// The player whose turn it is: the one who acts, except in games where
    /// the other player answers or chance draws within a player's turn (a
    /// Lunch Chess defence, the draws back to 5), which say whose turn that
    /// is. Records number their moves by it ([`crate::record`]).
    fn turn_player(&self) -> Player {
        self.to_act().player().unwrap_or(Player::First)
    }

    /// Clears `moves` and fills it with every legal move of the actor.
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);

    /// Plays a legal move in place. Playing an illegal move may corrupt the
    /// position (it is checked by the callers that take untrusted input).
    fn play(&mut self, mv: Self::Move);

    /// Takes back the last move played on this value.
    fn undo(&mut self);

    fn hash(&self) -> u64;

    /// The text of a legal move of this position.
    fn move_text(&self, mv: Self::Move) -> String;

    /// Reads a move text and checks that it is legal here. The default looks
    /// the text up among the legal moves; games override it to say more
    /// precisely what is wrong with a malformed text.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if moves.is_empty() {
            return Err(MoveError::GameOver);
        }
        moves
            .into_iter()
            .find(|&mv| self.move_text(mv) == text)
            .ok_or_else(|| MoveError::illegal(text, "not a legal move in this position"))
    }

    /// The number of legal moves: perft's last ply. Games override it with a
    /// count that skips building the moves where they can.
    fn count_legal_moves(&self, scratch: &mut Vec<Self::Move>) -> u64 {
        self.legal_moves(scratch);
        scratch.len() as u64
    }

    /// A legal move drawn at random, `None` when the game is over:
    /// uniformly among a player's moves, with [`Game::chance_probability`]
    /// when chance acts. Random playouts call it every ply; games override
    /// it to pick a move without listing them all (`scratch` is a buffer
    /// the default uses for the list).
    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R, scratch: &mut Vec<Self::Move>) -> Option<Self::Move> {
        crate::draw_listed_move(self, rng, scratch)
    }

    /// How the game names a player ("white", "blue").
    fn player_name(player: Player) -> &'static str {
        match player {
            Player::First => "white",
            Player::Second => "black",
        }
    }

    /// Whether the side to act stands in check (searches extend checks,
    /// views show it; false in games without check).
    fn in_check(&self) -> bool {
        false
    }

    /// Whether `player` still has, by the rules, what could ever win the
    /// game (chess's "sufficient material"): when a player's time runs out,
    /// the game is drawn if the other side could not win, lost otherwise.
    /// True unless the game says otherwise (a lone King in LMA and Fluid
    /// Chess).
    fn could_win(&self, player: Player) -> bool {
        let _ = player;
        true
    }

    /// The probability of a chance move, when [`Game::to_act`] is
    /// [`Actor::Chance`]. Uniform unless the game says otherwise. Drivers
    /// let chance act with [`crate::sample_chance`], searches weigh chance
    /// nodes with it.
    fn chance_probability(&self, _mv: Self::Move) -> f64 {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        1.0 / moves.len().max(1) as f64
    }

    /// Whether some player sees the outcome of chance move `mv`, played
    /// from this position. A takeback never goes back across such a move
    /// (the server's rule): the asker would decide again knowing what
    /// chance did, and chance would deal again or the other side learn
    /// what it was going to deal. True unless the game says otherwise, and
    /// true in every registered game: where nothing is hidden every
    /// outcome is public, and each chance move of Lunch Chess deals or
    /// draws a card into a hand, which its owner sees. A game says false
    /// for an outcome nobody sees (a face-down pile shuffled), which a
    /// takeback may undo and chance draw again without telling anyone
    /// anything.
    fn chance_outcome_seen(&self, _mv: Self::Move) -> bool {
        true
    }

    /// Whether `viewer` sees which chance move `mv` (played from this
    /// position) is, for the record of what each player saw (a perfect
    /// recall information state): a card drawn into a hand is seen by its
    /// owner alone. True unless the game says otherwise; every player's
    /// move is seen by both.
    fn chance_outcome_seen_by(&self, _mv: Self::Move, _viewer: Player) -> bool {
        true
    }

    /// What `viewer` may see, as text: the information state of that
    /// player (OpenSpiel's term). It is rules, not presentation: what a
    /// player may know decides what [`Game::determinize`] keeps and what a
    /// fair searcher or server may use. Equal to the position text in games
    /// of perfect information.
    fn view_text(&self, _viewer: Player) -> String {
        self.to_text()
    }

    /// A full position consistent with what `observer` sees, the unknown
    /// parts sampled at random (for information-set search and fair
    /// servers). Perfect-information games return a copy.
    fn determinize(&self, _observer: Player, _rng: &mut dyn RngCore) -> Self {
        self.clone()
    }

    /// Whether some state is hidden from a player.
    fn has_hidden_information() -> bool {
        false
    }

    /// Positions besides the start that `menagerie bench` measures (e.g. a
    /// middle game with captures or merges available).
    fn bench_positions(_variant: &Self::Variant) -> Vec<&'static str> {
        Vec::new()
    }

    /// Checks the rules' invariants (capacity, board colours, piece counts):
    /// the property tests call it after every random move. `Err` names the
    /// broken rule.
    fn check_invariants(&self) -> Result<(), String> {
        Ok(())
    }
}

/// Code that works on any game, typed: the registry calls `visit` with the
/// game type a variant string names, so perft and search run monomorphised.
///
/// Registered games also implement [`Evaluate`], so a visitor may search,
/// [`Present`], so it may show positions, [`Study`], so it may study them,
/// and [`Encode`], so it may number their moves.
pub trait GameVisitor {
    type Output;
    fn visit<G: Game + Evaluate + Present + Study + Encode>(self, variant: G::Variant) -> Self::Output;
}
