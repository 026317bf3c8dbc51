//! The evaluation of a Kelasu position, for the searches of `menagerie-ai`,
//! from the view of the player who acts now.
//!
//! The tuned evaluation is linear in these features, each own minus the
//! other player's (Energy is the mover's alone), weighted by
//! `data/eval/kelasu.toml` (`menagerie tune kelasu`):
//! - material: Blanks, Warriors, Runners, Diplomats, Champions, Generals,
//!   Stones, and `last_stone` (losing it loses the game);
//! - the Victory Tiles: `tiles_1` .. `tiles_3` (one's pieces standing on
//!   them: all four win), `near_tiles` (fighting pieces near them, 8 less
//!   their distance, summed), `tile_distance` (for each tile, the distance
//!   of the nearest own fighting piece, 10 at most);
//! - `energy`: actions left this turn;
//! - the Blanks: `free_blank` (off the home ranks, where they may merge),
//!   `blank_pair` (mergeable neighbouring pairs: the cheapest merges);
//! - `mobility`: where the fighting pieces could move.
//!
//! The handwritten evaluation ([`Evaluate::evaluate_handwritten`]), kept
//! as a yardstick, uses the first ones: material in centi-units where a
//! Warrior is 100 (the merge costs are the rules' exchange rate, but a
//! Blank, raw material of every piece that also blocks, is worth 45 rather
//! than 50; Runner 260, Diplomat 240, Champion 300, General 700, Stone 800,
//! the last Stone 2000 more), the tiles 40/120/350, Energy 60 an action,
//! 3 per step of nearness, 8 per free Blank.

use super::bitboard::Bitboard;
use super::board::Board;
use super::merge::count_connected_sets;
use super::movegen::piece_targets;
use super::moves::Action;
use super::piece::Kind;
use super::position::State;
use super::tables::VICTORY_TILES;
use super::Kelasu;
use super::inputs;
use crate::weights::Weights;
use menagerie_core::nnue::{LazyNetwork, Network};
use menagerie_core::{Evaluate, Player, Terms};

/// Centi-units by [`Kind::index`]: Blank, Warrior, Runner, Diplomat,
/// Champion, General, Stone.
const VALUE: [i32; 7] = [45, 100, 260, 240, 300, 700, 800];
const LAST_STONE: i32 = 2000;
/// Bonus by the number of one's pieces on the Victory Tiles (four win).
const TILES: [i32; 5] = [0, 40, 120, 350, 350];
/// Each action still to make this turn.
const ENERGY: i32 = 60;
/// A Blank out of its home ranks may merge.
const FREE_BLANK: i32 = 8;

const FEATURES: &[&str] = &[
    "blank",
    "warrior",
    "runner",
    "diplomat",
    "champion",
    "general",
    "stone",
    "last_stone",
    "tiles_1",
    "tiles_2",
    "tiles_3",
    "near_tiles",
    "energy",
    "free_blank",
    "tile_distance",
    "blank_pair",
    "mobility",
];

/// The learned evaluation's network (`menagerie train kelasu`; empty: none yet).
static NETWORK: LazyNetwork =
    LazyNetwork::new(include_bytes!("../../../../data/nnue/kelasu.bin"), inputs::FEATURES, inputs::INPUTS);

static WEIGHTS: Weights = Weights::new(include_str!("../../../../data/eval/kelasu.toml"), FEATURES);

const MATERIAL: usize = 0;
const LAST: usize = 7;
const TILES_ONE: usize = 8;
const NEAR: usize = 11;
const ENERGY_LEFT: usize = 12;
const FREE: usize = 13;
const DISTANCE: usize = 14;
const PAIRS: usize = 15;
const MOBILITY: usize = 16;
const COUNT: usize = 17;

impl Evaluate for Kelasu {
    const LEARNED_FEATURES: &'static str = inputs::FEATURES;
    const LEARNED_INPUTS: usize = inputs::INPUTS;

    fn network() -> Option<&'static Network> {
        NETWORK.get()
    }

    /// Leaving the network out 800 centi-units outside the window keeps
    /// 0.94 of the tuned speed and took the match against the tuned
    /// evaluation from -169 to -20 Elo (docs/nnue.md, "Lazy").
    const LEARNED_LAZY_MARGIN: Option<i32> = Some(800);

    fn learned_inputs(&self, perspective: Player, inputs: &mut Vec<u16>) {
        inputs::learned_inputs(self, perspective, inputs)
    }

    const FEATURES: &'static [&'static str] = FEATURES;
    const WEIGHTS_FILE: &'static str = "kelasu";

    fn weights() -> &'static [i32] {
        WEIGHTS.get()
    }

    fn win_scale() -> f64 {
        WEIGHTS.scale()
    }

    fn features<T: Terms>(&self, terms: &mut T) {
        let state = &self.state;
        let me = state.mover;
        let mine = side_features(state, me);
        let theirs = side_features(state, me.other());
        for feature in 0..COUNT {
            let value = mine[feature] - theirs[feature];
            if value != 0 {
                terms.add(feature, value);
            }
        }
        terms.add(ENERGY_LEFT, i32::from(state.energy));
    }

    fn evaluate_handwritten(&self) -> i32 {
        let state = &self.state;
        let me = state.mover;
        side_value(&state.board, me) - side_value(&state.board, me.other()) + ENERGY * i32::from(state.energy)
    }

    /// Captures, Conversions and steps onto a Victory Tile (the fourth one
    /// wins at once).
    fn is_tactical(&self, action: Action) -> bool {
        if action.merged_kind().is_some() {
            return false;
        }
        let enemy = self.state.board.colours[self.state.mover.other().index()];
        enemy.contains(action.to()) || VICTORY_TILES.contains(action.to())
    }

    /// Only the piece moves onto enemy pieces or Victory Tiles: never the
    /// merges, which in a position with many Blanks number thousands.
    fn tactical_moves(&self, moves: &mut Vec<Action>) -> bool {
        moves.clear();
        let state = &self.state;
        if state.ending.is_some() || state.energy == 0 {
            return false;
        }
        let enemy = state.board.colours[state.mover.other().index()];
        state.generate_steps(moves, enemy | VICTORY_TILES);
        true
    }

    /// Piece moves first, merges second (a cut-off by a piece move never
    /// lists the merges).
    fn first_moves(&self, moves: &mut Vec<Action>) -> bool {
        moves.clear();
        let state = &self.state;
        if state.ending.is_some() || state.energy == 0 {
            return false;
        }
        state.generate_steps(moves, Bitboard::ALL);
        true
    }

    fn later_moves(&self, moves: &mut Vec<Action>) {
        let state = &self.state;
        if state.ending.is_none() && state.energy > 0 {
            state.generate_merges(moves);
        }
    }

    /// Energy left, and the Energy the turn started with: one per Stone
    /// (Stones rarely change during a turn).
    fn turn_actions(&self) -> (u32, u32) {
        let left = u32::from(self.state.energy).max(1);
        let stones = self.state.board.pieces(self.state.mover, Kind::Stone).count();
        (left, stones.max(left))
    }
}

fn side_features(state: &State, player: Player) -> [i32; COUNT] {
    let board = &state.board;
    let mut f = [0i32; COUNT];
    let own = board.colours[player.index()];
    for kind in Kind::ALL {
        f[MATERIAL + kind.index()] = board.pieces(player, kind).count() as i32;
    }
    f[LAST] = i32::from(board.pieces(player, Kind::Stone).count() == 1);
    let on_tiles = (own & VICTORY_TILES).count() as usize;
    if on_tiles > 0 {
        f[TILES_ONE + on_tiles.min(3) - 1] = 1;
    }
    let fighters = own & !board.kinds[Kind::Blank.index()] & !board.kinds[Kind::Stone.index()];
    let mut nearest = [10u8; 4];
    for square in fighters {
        f[NEAR] += near_tiles(square.rank(), square.file()) / 3;
        for (i, tile) in VICTORY_TILES.enumerate() {
            let distance = square.rank().abs_diff(tile.rank()) + square.file().abs_diff(tile.file());
            nearest[i] = nearest[i].min(distance);
        }
    }
    f[DISTANCE] = nearest.iter().map(|&d| i32::from(d)).sum();
    let home = match player {
        Player::First => Bitboard::ranks(0, 1),
        Player::Second => Bitboard::ranks(8, 9),
    };
    let free_blanks = board.pieces(player, Kind::Blank) & !home;
    f[FREE] = free_blanks.count() as i32;
    f[PAIRS] = count_connected_sets(free_blanks, 2) as i32;
    // Where the fighters could go, asked as if `player` were to act.
    for square in fighters {
        let kind = board.kind_at(square).unwrap_or(Kind::Blank);
        f[MOBILITY] += piece_targets(board, player, kind, square).count() as i32;
    }
    f
}

fn side_value(board: &Board, player: Player) -> i32 {
    let own = board.colours[player.index()];
    let mut value = 0;
    for kind in Kind::ALL {
        value += VALUE[kind.index()] * board.pieces(player, kind).count() as i32;
    }
    if board.pieces(player, Kind::Stone).count() == 1 {
        value -= LAST_STONE;
    }
    value += TILES[(own & VICTORY_TILES).count() as usize];
    let fighters = own & !board.kinds[Kind::Blank.index()] & !board.kinds[Kind::Stone.index()];
    for square in fighters {
        value += near_tiles(square.rank(), square.file());
    }
    let home = match player {
        Player::First => Bitboard::ranks(0, 1),
        Player::Second => Bitboard::ranks(8, 9),
    };
    value += FREE_BLANK * (board.pieces(player, Kind::Blank) & !home).count() as i32;
    value
}

/// Up to 24 centi-units for a piece on a Victory Tile, less with distance.
fn near_tiles(rank: u8, file: u8) -> i32 {
    let off = |x: u8| if x < 4 { 4 - x } else { x.saturating_sub(5) };
    let distance = i32::from(off(rank) + off(file));
    (8 - distance).max(0) * 3
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kelasu::KelasuVariant;
    use menagerie_core::{FeatureVector, Game};
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    /// The handwritten evaluation as weights of the features.
    const HANDWRITTEN: [i32; COUNT] = [45, 100, 260, 240, 300, 700, 800, -2000, 40, 120, 350, 3, 60, 8, 0, 0, 0];

    #[test]
    fn the_weights_file_is_complete() {
        crate::weights::parse(include_str!("../../../../data/eval/kelasu.toml"), FEATURES).expect("kelasu.toml");
        // Fitted, so below the 1 of a file without a scale.
        let scale = crate::weights::parse_scale(include_str!("../../../../data/eval/kelasu.toml")).expect("kelasu.toml");
        assert!(scale > 0.0 && scale < 1.0 && scale == Kelasu::win_scale(), "{scale}");
        assert_eq!(FEATURES.len(), COUNT);
    }

    #[test]
    fn the_features_reproduce_the_handwritten_evaluation() {
        let mut scratch = Vec::new();
        for seed in 0..10 {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut game = Kelasu::start(&KelasuVariant, 0);
            for _ in 0..300 {
                let features = FeatureVector::of(&game);
                let value: i32 = features.0.iter().zip(HANDWRITTEN).map(|(f, w)| f * w).sum();
                assert_eq!(value, game.evaluate_handwritten(), "{}", game.to_text());
                let Some(mv) = game.random_move(&mut rng, &mut scratch) else { break };
                game.play(mv);
            }
        }
    }
}
