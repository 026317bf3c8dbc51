//! Fluid Chess (Joe Joyce, 2007): a square holds up to two pieces, the
//! queen is a Bishop and a Rook sharing a square (and may split), pairs move
//! as either of their pieces, nothing jumps, knights are lame.
//!
//! Variant ids: `fluid` (promotion to Queen, Rook, Bishop or Knight),
//! `fluid-single-promo` (Rook, Bishop or Knight), `fluid-double-promo` (to a
//! pair only: Queen B+R, Paladin B+N, Chancellor N+R). The player-facing
//! rules are in `docs/fluid.md`.
//!
//! Texts: moves are `<unit><from><to>[x<captured>][=<promotion>]` (`BRd1h5`,
//! `Bd1h5`, `Nd4e6xB`, `Pe7e8=BR`, castling `Ke1g1`); positions are FEN with
//! `(XY)` for two pieces on one square and `Q`/`q` for a same-colour
//! Bishop + Rook.

mod invariants;
mod attacks;
mod bitboard;
mod board;
mod encode;
mod eval;
mod inputs;
mod study;
mod movegen;
mod moves;
mod notation;
mod piece;
mod position;
mod random;
mod square;
mod text;
mod view;
mod zobrist;

#[cfg(test)]
mod tests;

pub use moves::Move;
pub use position::PromotionRule;

use menagerie_core::repetition::KeyCounts;
use menagerie_core::timeline::Timeline;
use menagerie_core::{Actor, Game, MoveError, Outcome, Player, PositionError, VariantError, VariantInfo, VariantSpec};
use piece::{Colour, Kind};
use movegen::Counter;
use position::{Rules, State};
use rand::Rng;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The variant: which promotion rule is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FluidVariant {
    pub promotion: PromotionRule,
}

/// A Fluid Chess game: the states from the one it started from to the
/// current one (for undo and repetition).
#[derive(Clone, Debug)]
pub struct Fluid {
    /// The game's states up to the current one: a move copies the state
    /// once, into place, and undo copies nothing.
    states: Timeline<State>,
    variant: FluidVariant,
    rules: Rules,
    /// The repetition keys of the game's states, counted by bucket: most
    /// plies need no scan for a threefold repetition.
    seen: KeyCounts,
}

impl Fluid {
    fn with_state(variant: &FluidVariant, state: State) -> Fluid {
        let seen = KeyCounts::starting_at(state.repetition_key);
        Fluid { states: Timeline::starting_at(state), variant: variant.clone(), rules: Rules::new(variant.promotion), seen }
    }

    /// The current state.
    #[inline(always)]
    fn state(&self) -> &State {
        self.states.current()
    }

    /// Counts the current position in `seen` (after a move or a pass).
    #[inline]
    fn enter_position(&mut self) {
        self.seen.enter(self.state().repetition_key);
    }

    /// Takes back the last move or pass: uncounts the current position
    /// and steps back to the one before (which is still in place).
    #[inline]
    fn leave_position(&mut self) {
        if let Some(left) = self.states.back() {
            self.seen.leave(left.repetition_key);
        }
    }

    /// The draw that applies automatically here, if any (the 50-move rule or
    /// threefold repetition), checkmate and stalemate aside.
    fn drawn_by_rule(&self) -> Option<&'static str> {
        if self.state().halfmove_clock >= 100 {
            return Some("fifty-move rule");
        }
        let key = self.state().repetition_key;
        if !self.seen.may_have_occurred(key, 3) {
            return None;
        }
        // Only positions since the last capture or pawn move can repeat this one.
        let history = self.states.before();
        let reach = (self.state().halfmove_clock as usize).min(history.len());
        let mut seen = 1;
        let mut back = 2;
        while back <= reach {
            if history[history.len() - back].repetition_key == key {
                seen += 1;
                if seen >= 3 {
                    return Some("threefold repetition");
                }
            }
            back += 2;
        }
        None
    }

    fn side_in_check(&self) -> bool {
        self.state().in_check
    }
}

impl Game for Fluid {
    type Move = Move;
    type Variant = FluidVariant;

    const VARIANTS: &'static [VariantInfo] = &[
        VariantInfo {
            id: "fluid",
            name: "Fluid Chess",
            summary: "up to two pieces per square; the queen is a bishop+rook pair that can split; lame knights",
            options: &[],
        },
        VariantInfo {
            id: "fluid-single-promo",
            name: "Fluid Chess (single promotion)",
            summary: "Fluid Chess where pawns promote to a rook, bishop or knight only",
            options: &[],
        },
        VariantInfo {
            id: "fluid-double-promo",
            name: "Fluid Chess (double promotion)",
            summary: "Fluid Chess where pawns promote to a pair: queen, paladin (B+N) or chancellor (N+R)",
            options: &[],
        },
    ];

    fn parse_variant(spec: &VariantSpec) -> Result<FluidVariant, VariantError> {
        let info = Self::VARIANTS.iter().find(|info| info.id == spec.id).ok_or_else(|| VariantError::UnknownId {
            id: spec.id.clone(),
            valid: Self::VARIANTS.iter().map(|i| i.id).collect::<Vec<_>>().join(", "),
        })?;
        spec.check_options(info)?;
        let promotion = match info.id {
            "fluid-single-promo" => PromotionRule::SingleOnly,
            "fluid-double-promo" => PromotionRule::PairsOnly,
            _ => PromotionRule::Standard,
        };
        Ok(FluidVariant { promotion })
    }

    fn start(variant: &FluidVariant, _seed: u64) -> Self {
        Self::from_text(variant, START).expect("the start position is valid")
    }

    fn from_text(variant: &FluidVariant, text: &str) -> Result<Self, PositionError> {
        let rules = Rules::new(variant.promotion);
        let mut state = text::parse_position(&rules, text)?;
        state.repetition_key = repetition_key(&state, &rules);
        Ok(Fluid::with_state(variant, state))
    }

    fn to_text(&self) -> String {
        text::position_text(self.state())
    }

    fn variant(&self) -> &FluidVariant {
        &self.variant
    }

    fn to_act(&self) -> Actor {
        Actor::Player(self.state().side.player())
    }

    fn outcome(&self) -> Option<Outcome> {
        let mut counter = Counter(0);
        movegen::generate(self.state(), &self.rules, &mut counter);
        if counter.0 == 0 {
            return Some(if self.side_in_check() {
                Outcome::Win { winner: self.state().side.other().player(), reason: "checkmate" }
            } else {
                Outcome::Draw { reason: "stalemate" }
            });
        }
        self.drawn_by_rule().map(|reason| Outcome::Draw { reason })
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.drawn_by_rule().is_none() {
            movegen::generate(self.state(), &self.rules, moves);
        }
    }

    /// Tests only the drawn move's legality, not every move's.
    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R, scratch: &mut Vec<Move>) -> Option<Move> {
        if self.drawn_by_rule().is_some() {
            return None;
        }
        random::random_legal(self.state(), &self.rules, rng, scratch)
    }

    fn count_legal_moves(&self, _scratch: &mut Vec<Move>) -> u64 {
        if self.drawn_by_rule().is_some() {
            return 0;
        }
        let mut counter = Counter(0);
        movegen::generate(self.state(), &self.rules, &mut counter);
        counter.0
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        let rules = self.rules;
        let state = self.states.advance();
        state.play(mv, &rules);
        if state.en_passant.is_some() {
            state.repetition_key = repetition_key(state, &rules);
        }
        self.enter_position();
    }

    #[inline]
    fn undo(&mut self) {
        self.leave_position();
    }

    fn hash(&self) -> u64 {
        self.state().hash()
    }

    fn move_text(&self, mv: Move) -> String {
        mv.text()
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        notation::check_move_syntax(text)?;
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if moves.is_empty() {
            return Err(MoveError::GameOver);
        }
        moves
            .into_iter()
            .find(|mv| mv.text() == text)
            .ok_or_else(|| MoveError::illegal(text, "not a legal move here (see `menagerie moves` for the list)"))
    }

    fn in_check(&self) -> bool {
        self.side_in_check()
    }

    /// A lone King cannot checkmate: anything else might.
    fn could_win(&self, player: Player) -> bool {
        let colour = if player == Player::First { Colour::White } else { Colour::Black };
        let board = &self.state().board;
        board.colour(colour).into_iter().any(|sq| board.cell(sq).pieces().any(|p| p.colour() == colour && p.kind() != Kind::King))
    }

    fn bench_positions(_variant: &FluidVariant) -> Vec<&'static str> {
        vec![
            // An open middle game: split queens, pairs (BN, KR...) and a mixed square.
            BENCH_MIDDLE_GAME,
            BENCH_STACKS,
        ]
    }

    fn check_invariants(&self) -> Result<(), String> {
        invariants::check(self)
    }
}

/// The hash without the en-passant square unless an en-passant capture is
/// legal: equal keys are "the same position" for repetition.
fn repetition_key(state: &State, rules: &Rules) -> u64 {
    let mut key = state.hash();
    if let Some(square) = state.en_passant {
        if !movegen::en_passant_is_legal(state, rules) {
            key ^= zobrist::en_passant_file(square.file());
        }
    }
    key
}

const BENCH_MIDDLE_GAME: &str = "r1q1k2r/pp1n1ppp/2pbpn2/3p4/3P4/2NBPN2/PPQ2PPP/R3K2R w KQkq - 0 1";
const BENCH_STACKS: &str = "r3k2r/pp1p1ppp/2(BN)pq3/3P4/4(Pn)3/2N2(NR)2/PP3PPP/R1B1K2R w KQkq - 0 1";
