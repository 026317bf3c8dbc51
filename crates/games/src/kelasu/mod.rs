//! Kelasu: a 10×10 game of Blanks that merge into pieces, played in turns
//! of several actions paid for with Energy (one per Stone owned).
//!
//! One model move is one action; [`Game::to_act`] says who acts next, which
//! stays the same player until its Energy runs out or it has no legal action
//! left. Blue (the first player) starts at the top (ranks A–B) and moves
//! down, towards J; Red starts at the bottom and moves up.
//!
//! Representation: one `u128` bitboard per colour and per kind (bit = square
//! index, rank × 10 + file), the spent pieces as another bitboard, and
//! copy-make undo (the whole state is about 200 bytes).

mod invariants;
mod bitboard;
mod board;
mod encode;
mod eval;
mod inputs;
mod study;
mod merge;
mod movegen;
mod moves;
mod notation;
mod piece;
mod position;
mod square;
mod tables;
mod text;
mod view;
mod zobrist;

pub use moves::Action;
pub use square::Square;

use menagerie_core::{Actor, Game, MoveError, Outcome, Player, PositionError, VariantError, VariantInfo, VariantSpec};
use position::{State, QUIET_LIMIT};
use rand::Rng;

/// Kelasu has no options.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct KelasuVariant;

/// The start position text.
pub const START: &str = "BBBBBBBBBB/BBBBBBBBBB/S1S4S1S/10/10/10/10/s1s4s1s/bbbbbbbbbb/bbbbbbbbbb blue 4 - 0 1";

/// A Kelasu position with its history (for undo and repetition).
#[derive(Clone, Debug)]
pub struct Kelasu {
    state: State,
    undo: Vec<State>,
    /// Hashes of the positions at the start of each turn since the given
    /// position (which counts if it is itself the start of a turn).
    turn_starts: Vec<u64>,
}

/// How many times a turn-start position must occur for a draw.
const REPETITIONS: usize = 4;

impl Kelasu {
    fn from_parsed(parsed: text::ParsedPosition) -> Result<Kelasu, PositionError> {
        let mut state = State {
            board: parsed.board,
            spent: parsed.spent,
            mover: parsed.mover,
            energy: parsed.energy,
            quiet: parsed.quiet,
            turn: parsed.turn,
            hash: 0,
            ending: None,
            recorded_turn_starts: 0,
        };
        state.hash = state.compute_hash();
        state.ending = state.win_check();
        if state.ending.is_none() {
            if state.energy == 0 {
                return Err(PositionError::invalid(
                    "Energy 0 in a game not yet won: the turn would already have passed to the opponent",
                ));
            }
            if state.quiet >= QUIET_LIMIT {
                state.ending = Some((None, "quiet counter reached 128"));
            } else if !state.has_any_action() {
                state.ending = Some((None, "stalemate: no legal action"));
            }
        }
        let mut turn_starts = Vec::with_capacity(64);
        if state.is_turn_start() {
            turn_starts.push(state.hash);
        }
        state.recorded_turn_starts = turn_starts.len() as u32;
        Ok(Kelasu { state, undo: Vec::with_capacity(256), turn_starts })
    }

    /// The turn passes: record the new turn start and check the draws.
    fn pass_turn(&mut self) {
        let state = &mut self.state;
        state.pass_turn();
        self.turn_starts.push(state.hash);
        state.recorded_turn_starts += 1;
        // Turn starts alternate between the players: compare every other
        // one, the newest included (pairs from the first of its parity).
        let starts = &self.turn_starts[(self.turn_starts.len() - 1) % 2..];
        let pairs = starts.chunks_exact(2);
        let newest = usize::from(pairs.remainder().first() == Some(&state.hash));
        let seen = newest + pairs.filter(|pair| pair[0] == state.hash).count();
        if seen >= REPETITIONS {
            state.ending = Some((None, "fourfold repetition"));
        } else if state.quiet >= QUIET_LIMIT {
            state.ending = Some((None, "quiet counter reached 128"));
        } else if state.energy == 0 || !state.has_any_action() {
            state.ending = Some((None, "stalemate: no legal action"));
        }
    }

    /// Energy left this turn.
    pub fn energy(&self) -> u8 {
        self.state.energy
    }
}

impl Game for Kelasu {
    type Move = Action;
    type Variant = KelasuVariant;

    const VARIANTS: &'static [VariantInfo] = &[VariantInfo {
        id: "kelasu",
        name: "Kelasu",
        summary: "10×10: Blanks merge into pieces; turns of several actions paid with Energy, one per Stone",
        options: &[],
    }];

    fn parse_variant(spec: &VariantSpec) -> Result<KelasuVariant, VariantError> {
        spec.check_options(&Self::VARIANTS[0])?;
        Ok(KelasuVariant)
    }

    fn start(_variant: &KelasuVariant, _seed: u64) -> Self {
        Kelasu::from_parsed(text::parse_position(START).expect("the start text parses"))
            .expect("the start position is valid")
    }

    fn from_text(_variant: &KelasuVariant, text: &str) -> Result<Self, PositionError> {
        Kelasu::from_parsed(text::parse_position(text)?)
    }

    fn to_text(&self) -> String {
        text::position_text(&self.state)
    }

    fn variant(&self) -> &KelasuVariant {
        &KelasuVariant
    }

    fn to_act(&self) -> Actor {
        Actor::Player(self.state.mover)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state.ending.map(|(winner, reason)| match winner {
            Some(winner) => Outcome::Win { winner, reason },
            None => Outcome::Draw { reason },
        })
    }

    fn legal_moves(&self, moves: &mut Vec<Action>) {
        self.state.generate(moves);
    }

    fn count_legal_moves(&self, _scratch: &mut Vec<Action>) -> u64 {
        self.state.count()
    }

    /// Counts instead of listing: merge-rich positions have hundreds of actions.
    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R, _scratch: &mut Vec<Action>) -> Option<Action> {
        match self.state.count() {
            0 => None,
            n => self.state.nth_action(rng.random_range(0..n)),
        }
    }

    fn play(&mut self, action: Action) {
        self.undo.push(self.state);
        self.state.apply(action);
        if self.state.ending.is_none() && (self.state.energy == 0 || !self.state.has_any_action()) {
            self.pass_turn();
        }
    }

    fn undo(&mut self) {
        if let Some(previous) = self.undo.pop() {
            self.state = previous;
            self.turn_starts.truncate(previous.recorded_turn_starts as usize);
        }
    }

    fn hash(&self) -> u64 {
        self.state.hash
    }

    fn move_text(&self, action: Action) -> String {
        action.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Action, MoveError> {
        notation::parse_action(&self.state, text)
    }

    fn player_name(player: Player) -> &'static str {
        piece::colour_name(player)
    }

    fn bench_positions(_variant: &KelasuVariant) -> Vec<&'static str> {
        BENCH_POSITIONS.to_vec()
    }

    fn check_invariants(&self) -> Result<(), String> {
        invariants::check(self)
    }
}

/// Middle-game positions for `menagerie bench`: pieces of every kind, Blank
/// groups off the home ranks (merges available), captures and conversions.
const BENCH_POSITIONS: [&str; 2] = [
    "BBBB1BBBBB/BB1B1BB1BB/S1SBB2S1S/1BBWB1BR2/3BD1c3/4G2w2/1r1bbC1b2/s1s1bb1s1s/bbbb1bbbbb/bbbbbbbbbb blue 4 - 0 9",
    "BBBBBBB1BB/1BB1BB1BBB/SBS3BSBS/1BBBBBBB2/2BBBBBB2/10/3bbbb3/s1sbbbbs1s/bb1bbbbbbb/bbbbbbbbbb red 4 - 0 8",
];

#[cfg(test)]
mod tests;
