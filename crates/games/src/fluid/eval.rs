//! The evaluation of a Fluid Chess position, for the searches of
//! `menagerie-ai`, from the view of the side to move.
//!
//! The tuned evaluation is linear in these features, each own minus the
//! other side's, weighted by `data/eval/fluid.toml` (`menagerie tune fluid`):
//! - material: squares holding own pawns, knights, bishops, rooks (a pair
//!   of one kind is one square: see `same_kind_pair`);
//! - stacks: `queen_pair` (a Bishop and a Rook on one square), `other_pair`
//!   (any other own pair), `same_kind_pair` (two of one kind: the second
//!   piece, which the material leaves out), `mixed` (an own piece sharing
//!   its square with an enemy one);
//! - `pawn_advance_N`: pawns N ranks from their start (they may promote
//!   into a pair);
//! - `minor_centre`: knights and bishops by distance from the rim (0-3);
//! - `king_off_home`: the king off its back rank while enemy rooks remain;
//! - mobility of knights, bishops and rooks (squares they may end on);
//! - `king_zone_attacks`: the own pieces' reach into the enemy king's
//!   neighbourhood;
//! - pawn structure: passed pawns and their advance, doubled and isolated
//!   pawns;
//! - `tempo`: the move itself.
//!
//! The handwritten evaluation ([`Evaluate::evaluate_handwritten`]), kept
//! as a yardstick: Pawn 100; Knight 280 (a lame knight is stopped when
//! both its paths are blocked, so it is worth a little less than FIDE's
//! 300); Bishop 320; Rook 500; a friendly pair moves as either of its
//! pieces, so it is worth more than its parts: +90 for the Queen (B+R),
//! +40 for any other pair; pawns gain as they advance; knights and bishops
//! like the centre; a king likes its back rank while rooks are on the board.

use super::attacks;
use super::bitboard::Bitboard;
use super::board::Board;
use super::moves::Move;
use super::piece::{Colour, Kind};
use super::Fluid;
use super::inputs;
use crate::weights::Weights;
use menagerie_core::nnue::{LazyNetwork, Network};
use menagerie_core::{Evaluate, Player, Terms};

const PAWN: i32 = 100;
const KNIGHT: i32 = 280;
const BISHOP: i32 = 320;
const ROOK: i32 = 500;
const QUEEN_PAIR_BONUS: i32 = 90;
const OTHER_PAIR_BONUS: i32 = 40;

/// Bonus of a pawn by ranks advanced from its start: promotion nears.
const PAWN_ADVANCE: [i32; 7] = [0, 4, 10, 18, 30, 50, 50];

const FEATURES: &[&str] = &[
    "pawn",
    "knight",
    "bishop",
    "rook",
    "queen_pair",
    "other_pair",
    "same_kind_pair",
    "mixed",
    "pawn_advance_1",
    "pawn_advance_2",
    "pawn_advance_3",
    "pawn_advance_4",
    "pawn_advance_5",
    "pawn_advance_6",
    "minor_centre",
    "king_off_home",
    "knight_mobility",
    "bishop_mobility",
    "rook_mobility",
    "king_zone_attacks",
    "passed_pawn",
    "passed_pawn_advance",
    "doubled_pawn",
    "isolated_pawn",
    "tempo",
];

/// The learned evaluation's network (`menagerie train fluid`; empty: none yet).
static NETWORK: LazyNetwork =
    LazyNetwork::new(include_bytes!("../../../../data/nnue/fluid.bin"), inputs::FEATURES, inputs::INPUTS);

static WEIGHTS: Weights = Weights::new(include_str!("../../../../data/eval/fluid.toml"), FEATURES);

const MATERIAL: usize = 0;
const QUEEN_PAIR: usize = 4;
const OTHER_PAIR: usize = 5;
const SAME_KIND_PAIR: usize = 6;
const MIXED: usize = 7;
const ADVANCE: usize = 8;
const MINOR_CENTRE: usize = 14;
const KING_OFF_HOME: usize = 15;
const MOBILITY: usize = 16;
const KING_ZONE: usize = 19;
const PASSED: usize = 20;
const PASSED_ADVANCE: usize = 21;
const DOUBLED: usize = 22;
const ISOLATED: usize = 23;
const TEMPO: usize = 24;
const COUNT: usize = 25;

/// Distance from the rim (0 on the rim, 3 on the four centre squares).
fn rim_distance(index: usize) -> i32 {
    let file = (index % 8) as i32;
    let rank = (index / 8) as i32;
    let df = if file < 4 { file } else { 7 - file };
    let dr = if rank < 4 { rank } else { 7 - rank };
    df.min(dr)
}

/// Centre bonus by square for knights and bishops: 0 on the rim, up to 24
/// on the four centre squares.
fn centre(index: usize) -> i32 {
    rim_distance(index) * 8
}

impl Evaluate for Fluid {
    const LEARNED_FEATURES: &'static str = inputs::FEATURES;
    const LEARNED_INPUTS: usize = inputs::INPUTS;

    fn network() -> Option<&'static Network> {
        NETWORK.get()
    }

    /// 60 centi-units: 1.6 times the speed of the network at every node;
    /// chosen with the first network (+20 Elo against the tuned evaluation
    /// where at every node it scored +10; docs/nnue.md, "Lazy"), and today's,
    /// fitted to the search's score alone, won +63 with it ("The search's
    /// score alone").
    const LEARNED_LAZY_MARGIN: Option<i32> = Some(60);

    fn learned_inputs(&self, perspective: Player, inputs: &mut Vec<u16>) {
        inputs::learned_inputs(self, perspective, inputs)
    }

    const FEATURES: &'static [&'static str] = FEATURES;
    const WEIGHTS_FILE: &'static str = "fluid";

    fn weights() -> &'static [i32] {
        WEIGHTS.get()
    }

    fn win_scale() -> f64 {
        WEIGHTS.scale()
    }

    fn features<T: Terms>(&self, terms: &mut T) {
        let board = &self.state().board;
        let us = self.state().side;
        let mine = side_features(board, us);
        let theirs = side_features(board, us.other());
        for feature in 0..COUNT {
            let value = mine[feature] - theirs[feature];
            if value != 0 {
                terms.add(feature, value);
            }
        }
        terms.add(TEMPO, 1);
    }

    fn evaluate_handwritten(&self) -> i32 {
        let board = &self.state().board;
        let us = self.state().side;
        side_value(board, us) - side_value(board, us.other())
    }

    /// Captures and promotions: what quiescence looks at.
    fn is_tactical(&self, mv: Move) -> bool {
        mv.captured().is_some() || mv.promotion().is_some()
    }

    /// Not in check, with a piece besides pawns and the king: passing is
    /// then rarely best.
    fn null_move_allowed(&self) -> bool {
        let board = &self.state().board;
        let us = self.state().side;
        let pieces = board.pieces(us, Kind::Knight) | board.pieces(us, Kind::Bishop) | board.pieces(us, Kind::Rook);
        pieces.not_empty() && !self.side_in_check()
    }

    fn play_null(&mut self) {
        let rules = self.rules;
        let state = self.states.advance();
        state.side = state.side.other();
        state.en_passant = None;
        // A pass is no reversible move: nothing before it repeats.
        state.halfmove_clock = 0;
        // Null moves are made out of check, and the position before was
        // legal: the other king is not attacked either.
        state.in_check = false;
        state.repetition_key = super::repetition_key(state, &rules);
        self.enter_position();
    }

    fn undo_null(&mut self) {
        self.leave_position();
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// The squares of the files next to each file.
const NEIGHBOUR_FILES: [Bitboard; 8] = {
    let mut table = [Bitboard::EMPTY; 8];
    let mut file = 0;
    while file < 8 {
        let left = if file > 0 { FILE_A << (file - 1) } else { 0 };
        let right = if file < 7 { FILE_A << (file + 1) } else { 0 };
        table[file] = Bitboard(left | right);
        file += 1;
    }
    table
};

/// `AHEAD[colour][square]`: the squares on its file and the next ones
/// strictly ahead of it for that colour (where an enemy pawn stops a pawn
/// being passed).
static AHEAD: [[Bitboard; 64]; 2] = {
    let mut table = [[Bitboard::EMPTY; 64]; 2];
    let mut square = 0;
    while square < 64 {
        let (file, rank) = (square % 8, square / 8);
        let band = NEIGHBOUR_FILES[file].0 | FILE_A << file;
        let white = if rank >= 7 { 0 } else { !((1u64 << ((rank + 1) * 8)) - 1) };
        table[0][square] = Bitboard(band & white);
        table[1][square] = Bitboard(band & ((1u64 << (rank * 8)) - 1));
        square += 1;
    }
    table
};

fn side_features(board: &Board, colour: Colour) -> [i32; COUNT] {
    let mut f = [0i32; COUNT];
    let pawns = board.pieces(colour, Kind::Pawn);
    let knights = board.pieces(colour, Kind::Knight);
    let bishops = board.pieces(colour, Kind::Bishop);
    let rooks = board.pieces(colour, Kind::Rook);
    f[MATERIAL] = pawns.count() as i32;
    f[MATERIAL + 1] = knights.count() as i32;
    f[MATERIAL + 2] = bishops.count() as i32;
    f[MATERIAL + 3] = rooks.count() as i32;

    let own = board.colour(colour);
    let enemy = board.colour(colour.other());
    for square in board.stacked() & own {
        let cell = board.cell(square);
        let mut kinds = cell.pieces().filter(|p| p.colour() == colour).map(|p| p.kind());
        match (kinds.next(), kinds.next()) {
            (Some(a), Some(b)) => {
                if (bishops & rooks).contains(square) {
                    f[QUEEN_PAIR] += 1;
                } else {
                    f[OTHER_PAIR] += 1;
                }
                if a == b {
                    f[SAME_KIND_PAIR] += 1;
                }
            }
            _ => f[MIXED] += i32::from(enemy.contains(square)),
        }
    }

    for square in pawns {
        let advanced = match colour {
            Colour::White => square.rank() as i32 - 1,
            Colour::Black => 6 - square.rank() as i32,
        }
        .clamp(0, 6) as usize;
        if advanced > 0 {
            f[ADVANCE + advanced - 1] += 1;
        }
    }
    for square in knights | bishops {
        f[MINOR_CENTRE] += rim_distance(square.index());
    }
    if let Some(king) = board.king(colour) {
        let home = if colour == Colour::White { 0 } else { 7 };
        if board.pieces(colour.other(), Kind::Rook).not_empty() && king.rank() != home {
            f[KING_OFF_HOME] += 1;
        }
    }

    // Mobility and the reach into the enemy king's neighbourhood.
    let masks = board.side_masks(colour);
    let zone = board.king(colour.other()).map_or(Bitboard::EMPTY, |k| attacks::king(k) | Bitboard::from_square(k));
    for (offset, kind) in [Kind::Knight, Kind::Bishop, Kind::Rook].into_iter().enumerate() {
        for square in board.pieces(colour, kind) {
            let reach = Board::reach(kind, square, &masks);
            f[MOBILITY + offset] += (reach & masks.single_targets).count() as i32;
            f[KING_ZONE] += (reach & zone).count() as i32;
        }
    }

    // Pawn structure.
    let enemy_pawns = board.pieces(colour.other(), Kind::Pawn);
    let mut files = [0i32; 8];
    for square in pawns {
        files[square.file() as usize] += 1;
        if (AHEAD[colour.index()][square.index()] & enemy_pawns).is_empty() {
            f[PASSED] += 1;
            let advanced = match colour {
                Colour::White => square.rank() as i32 - 1,
                Colour::Black => 6 - square.rank() as i32,
            };
            f[PASSED_ADVANCE] += advanced.max(0);
        }
        if (NEIGHBOUR_FILES[square.file() as usize] & pawns).is_empty() {
            f[ISOLATED] += 1;
        }
    }
    f[DOUBLED] = files.iter().map(|&n| (n - 1).max(0)).sum();
    f
}

fn side_value(board: &Board, colour: Colour) -> i32 {
    let pawns = board.pieces(colour, Kind::Pawn);
    let knights = board.pieces(colour, Kind::Knight);
    let bishops = board.pieces(colour, Kind::Bishop);
    let rooks = board.pieces(colour, Kind::Rook);
    let mut value = PAWN * pawns.count() as i32
        + KNIGHT * knights.count() as i32
        + BISHOP * bishops.count() as i32
        + ROOK * rooks.count() as i32;

    // Pairs: squares where this side has two pieces.
    let own = board.colour(colour);
    for square in board.stacked() & own {
        if board.cell(square).pieces().filter(|p| p.colour() == colour).count() == 2 {
            let queen = (bishops & rooks).contains(square);
            value += if queen { QUEEN_PAIR_BONUS } else { OTHER_PAIR_BONUS };
        }
    }

    for square in pawns {
        let advanced = match colour {
            Colour::White => square.rank() as i32 - 1,
            Colour::Black => 6 - square.rank() as i32,
        };
        value += PAWN_ADVANCE[advanced.clamp(0, 6) as usize];
    }
    for square in knights | bishops {
        value += centre(square.index());
    }
    if let Some(king) = board.king(colour) {
        let home = match colour {
            Colour::White => 0,
            Colour::Black => 7,
        };
        let enemy_rooks = board.pieces(colour.other(), Kind::Rook);
        if enemy_rooks != Bitboard::EMPTY && king.rank() != home {
            value -= 20;
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fluid::{FluidVariant, PromotionRule};
    use menagerie_core::{FeatureVector, Game};
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    /// The handwritten evaluation as weights of the features.
    const HANDWRITTEN: [i32; COUNT] =
        [100, 280, 320, 500, 90, 40, 0, 0, 4, 10, 18, 30, 50, 50, 8, -20, 0, 0, 0, 0, 0, 0, 0, 0, 0];

    #[test]
    fn the_weights_file_is_complete() {
        crate::weights::parse(include_str!("../../../../data/eval/fluid.toml"), FEATURES).expect("fluid.toml");
        // Fitted, so below the 1 of a file without a scale.
        let scale = crate::weights::parse_scale(include_str!("../../../../data/eval/fluid.toml")).expect("fluid.toml");
        assert!(scale > 0.0 && scale < 1.0 && scale == Fluid::win_scale(), "{scale}");
        assert_eq!(FEATURES.len(), COUNT);
    }

    #[test]
    fn the_features_reproduce_the_handwritten_evaluation() {
        let mut scratch = Vec::new();
        for promotion in [PromotionRule::Standard, PromotionRule::PairsOnly] {
            let variant = FluidVariant { promotion };
            for seed in 0..15 {
                let mut rng = StdRng::seed_from_u64(seed);
                let mut game = Fluid::start(&variant, 0);
                for _ in 0..150 {
                    let features = FeatureVector::of(&game);
                    let value: i32 = features.0.iter().zip(HANDWRITTEN).map(|(f, w)| f * w).sum();
                    assert_eq!(value, game.evaluate_handwritten(), "{}", game.to_text());
                    let Some(mv) = game.random_move(&mut rng, &mut scratch) else { break };
                    game.play(mv);
                }
            }
        }
    }

    #[test]
    fn pawn_structure() {
        let variant = FluidVariant { promotion: PromotionRule::Standard };
        let game = Fluid::from_text(&variant, "4k3/8/8/3p4/8/P7/P1P5/4K3 w - - 0 1").unwrap();
        let white = side_features(&game.state().board, Colour::White);
        let black = side_features(&game.state().board, Colour::Black);
        // a2 and a3: doubled, isolated, passed; c2: isolated, d5 stands
        // ahead of it on the next file; d5 likewise.
        assert_eq!((white[PASSED], white[ISOLATED], white[DOUBLED]), (2, 3, 1), "{white:?}");
        assert_eq!(white[PASSED_ADVANCE], 1);
        assert_eq!((black[PASSED], black[ISOLATED], black[DOUBLED]), (0, 1, 0), "{black:?}");
    }
}
