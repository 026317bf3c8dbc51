//! The evaluation of an LMA position, for the searches of `menagerie-ai`,
//! from the view of the side to move.
//!
//! Two evaluations live here. The tuned one is linear in the features
//! below, each own minus the other side's, with weights fitted to game
//! results by `menagerie tune lma` (`data/eval/lma.toml`):
//! - material: queens, rooks, cardinals, pawns;
//! - `piece_centre`: queens, rooks and cardinals by file (a and f 0, b and
//!   e 1, c and d 2): the centre files give more moves on a 6-wide board;
//! - `pawn_advance_N`: pawns N ranks from their start (two steps from
//!   promoting to a queen is a real threat);
//! - mobility of queens, rooks and cardinals: the squares each could move
//!   to (on its board, or landing on the other);
//! - `king_zone_attacks`: attacks on the squares around the enemy king, on
//!   its board;
//! - pawn structure: passed pawns (no enemy pawn ahead on their file or the
//!   next ones, either board) and how far they are, doubled and isolated
//!   pawns (files counted across both boards);
//! - `king_shelter`: own pawns next to the own king on its board;
//! - `tempo`: the move itself.
//!
//! The handwritten one ([`Evaluate::evaluate_handwritten`]) is the first
//! evaluation, kept as a yardstick: material in centipawns scaled to the
//! small board (Pawn 100, Rook 500, Queen 900, and the Cardinal 650: a
//! knight's jump covers much of a 6×7 board and a piece only ever reaches
//! squares of one colour on each board, so it is worth a good deal more
//! than a bishop but less than chess's archbishop on 8×8), pawns gaining
//! as they near the far rank, pieces liking the centre files.

use super::bitboard::Bitboard;
use super::moves::{Move, Special};
use super::piece::Kind;
use super::position::Position;
use super::tables::{bishop_attacks, rook_attacks, same_parity, KING, KNIGHT};
use super::Lma;
use super::inputs;
use crate::weights::Weights;
use menagerie_core::nnue::{LazyNetwork, Network};
use menagerie_core::{Evaluate, Player, Terms};

const VALUE: [i32; 5] = [0, 900, 500, 650, 100];
/// By ranks advanced from the pawn's start (rank 2 for White).
const PAWN_ADVANCE: [i32; 6] = [0, 0, 8, 20, 45, 80];
/// By file a..f: the centre files give more moves on a 6-wide board.
const FILE_BONUS: [i32; 6] = [0, 6, 12, 12, 6, 0];

/// The tuned evaluation's features, in weight order.
const FEATURES: &[&str] = &[
    "queen",
    "rook",
    "cardinal",
    "pawn",
    "piece_centre",
    "pawn_advance_1",
    "pawn_advance_2",
    "pawn_advance_3",
    "pawn_advance_4",
    "pawn_advance_5",
    "queen_mobility",
    "rook_mobility",
    "cardinal_mobility",
    "king_zone_attacks",
    "passed_pawn",
    "passed_pawn_advance",
    "doubled_pawn",
    "isolated_pawn",
    "king_shelter",
    "tempo",
];

/// The learned evaluation's network (`menagerie train lma`; empty: none yet).
static NETWORK: LazyNetwork =
    LazyNetwork::new(include_bytes!("../../../../data/nnue/lma.bin"), inputs::FEATURES, inputs::INPUTS);

static WEIGHTS: Weights = Weights::new(include_str!("../../../../data/eval/lma.toml"), FEATURES);

const QUEEN: usize = 0;
const PAWN: usize = 3;
const CENTRE: usize = 4;
const ADVANCE: usize = 5;
const MOBILITY: usize = 10;
const KING_ZONE: usize = 13;
const PASSED: usize = 14;
const PASSED_ADVANCE: usize = 15;
const DOUBLED: usize = 16;
const ISOLATED: usize = 17;
const SHELTER: usize = 18;
const TEMPO: usize = 19;
const COUNT: usize = 20;

impl Evaluate for Lma {
    const LEARNED_FEATURES: &'static str = inputs::FEATURES;
    const LEARNED_INPUTS: usize = inputs::INPUTS;

    fn network() -> Option<&'static Network> {
        NETWORK.get()
    }

    /// 120 centi-units: 1.5 times the speed of the network at every node;
    /// with the first network, -10 Elo against the tuned evaluation where
    /// the network at every node scored -37 (docs/nnue.md, "Lazy"); today's,
    /// from 100,000 games, +57 with it ("More data").
    const LEARNED_LAZY_MARGIN: Option<i32> = Some(120);

    fn learned_inputs(&self, perspective: Player, inputs: &mut Vec<u16>) {
        inputs::learned_inputs(self, perspective, inputs)
    }

    const FEATURES: &'static [&'static str] = FEATURES;
    const WEIGHTS_FILE: &'static str = "lma";

    fn weights() -> &'static [i32] {
        WEIGHTS.get()
    }

    fn win_scale() -> f64 {
        WEIGHTS.scale()
    }

    fn features<T: Terms>(&self, terms: &mut T) {
        let pos = self.pos();
        let us = pos.side_to_move();
        let mine = side_features(pos, us);
        let theirs = side_features(pos, 1 - us);
        for feature in 0..COUNT {
            let value = mine[feature] - theirs[feature];
            if value != 0 {
                terms.add(feature, value);
            }
        }
        terms.add(TEMPO, 1);
    }

    fn evaluate_handwritten(&self) -> i32 {
        let pos = self.pos();
        let us = pos.side_to_move();
        side_value(pos, us) - side_value(pos, 1 - us)
    }

    /// Captures and promotions.
    fn is_tactical(&self, mv: Move) -> bool {
        let enemy = 1 - self.pos().side_to_move();
        matches!(mv.special, Special::Promote(_)) || self.pos().sides[mv.to.board()][enemy].contains_index(mv.to.cell())
    }

    /// Passing is rarely best in a chess-like game with queens and rooks
    /// about: allowed when not in check and some piece besides pawns and
    /// the king remains.
    fn null_move_allowed(&self) -> bool {
        let pos = self.pos();
        let us = pos.side_to_move();
        let pieces = (0..2).any(|board| {
            (pos.sides[board][us] & !pos.kinds[board][Kind::Pawn as usize] & !pos.kinds[board][Kind::King as usize])
                .not_empty()
        });
        pieces && pos.checkers().is_empty()
    }

    fn play_null(&mut self) {
        let pos = self.positions.advance();
        pos.set_side_to_move(1 - pos.side_to_move());
        // A pass is not a reversible move for the repetition rule: the
        // position after it never repeats one before.
        pos.halfmove = 0;
        let hash = pos.hash;
        self.seen.enter(hash);
    }

    fn undo_null(&mut self) {
        menagerie_core::Game::undo(self);
    }
}

/// The pawns of `side` on both boards as one set of cells.
fn pawn_cells(pos: &Position, side: usize) -> Bitboard {
    pos.pieces(0, side, Kind::Pawn) | pos.pieces(1, side, Kind::Pawn)
}

/// The cells of each file.
const fn file_mask(file: usize) -> u64 {
    let mut mask = 0;
    let mut rank = 0;
    while rank < 7 {
        mask |= 1 << (rank * 6 + file);
        rank += 1;
    }
    mask
}

/// The cells of the files next to each file.
const NEIGHBOUR_FILES: [Bitboard; 6] = {
    let mut table = [Bitboard::EMPTY; 6];
    let mut file = 0;
    while file < 6 {
        let left = if file > 0 { file_mask(file - 1) } else { 0 };
        let right = if file < 5 { file_mask(file + 1) } else { 0 };
        table[file] = Bitboard(left | right);
        file += 1;
    }
    table
};

/// `AHEAD[side][cell]`: the cells on the cell's file and the next ones,
/// strictly ahead of it for `side` (where an enemy pawn stops it being
/// passed).
static AHEAD: [[Bitboard; 42]; 2] = {
    let mut table = [[Bitboard::EMPTY; 42]; 2];
    let mut cell = 0;
    while cell < 42 {
        let (file, rank) = (cell % 6, cell / 6);
        let band = NEIGHBOUR_FILES[file].0 | file_mask(file);
        let below_next = (1u64 << ((rank + 1) * 6)) - 1;
        table[0][cell] = Bitboard(band & !below_next & Bitboard::ALL.0);
        table[1][cell] = Bitboard(band & ((1u64 << (rank * 6)) - 1));
        cell += 1;
    }
    table
};

/// The file of each cell (a table: the division by 6 showed in profiles).
const FILE_OF: [u8; 42] = {
    let mut table = [0u8; 42];
    let mut cell = 0;
    while cell < 42 {
        table[cell] = (cell % 6) as u8;
        cell += 1;
    }
    table
};

/// `ADVANCED[side][cell]`: ranks a pawn there has advanced from its start.
const ADVANCED: [[u8; 42]; 2] = {
    let mut table = [[0u8; 42]; 2];
    let mut cell = 0;
    while cell < 42 {
        let rank = cell / 6;
        table[0][cell] = rank.saturating_sub(1) as u8;
        table[1][cell] = 5_usize.saturating_sub(rank) as u8;
        cell += 1;
    }
    table
};

/// One side's feature values.
fn side_features(pos: &Position, side: usize) -> [i32; COUNT] {
    let mut f = [0i32; COUNT];
    let enemy_king = pos.king(1 - side);
    let (king_board, king_cell) = (enemy_king.board(), enemy_king.cell());
    let king_zone = KING[king_cell] | Bitboard::from_index(king_cell);
    for board in 0..2 {
        let own = pos.sides[board][side];
        let occupied = pos.occupied(board);
        let landing_free = !pos.occupied(1 - board);
        for (offset, kind) in [Kind::Queen, Kind::Rook, Kind::Cardinal].into_iter().enumerate() {
            for cell in pos.pieces(board, side, kind) {
                f[QUEEN + offset] += 1;
                f[CENTRE] += FILE_BONUS[FILE_OF[cell] as usize] / 6;
                let attacks = match kind {
                    Kind::Queen => rook_attacks(cell, occupied) | bishop_attacks(cell, occupied),
                    Kind::Rook => rook_attacks(cell, occupied),
                    _ => bishop_attacks(cell, occupied) | KNIGHT[cell],
                };
                let targets = attacks & !own;
                let keep = same_parity(cell);
                f[MOBILITY + offset] += ((targets & keep) | (targets & !keep & landing_free)).count() as i32;
                if board == king_board {
                    f[KING_ZONE] += (attacks & king_zone).count() as i32;
                }
            }
        }
    }
    // Pawn structure reads both boards as one: a pawn changes board with
    // every single step. (Twin pawns, one per board on one cell, are two.)
    let pawns = pawn_cells(pos, side);
    let enemy_pawns = pawn_cells(pos, 1 - side);
    let mut files = [0i32; 6];
    for board in 0..2 {
        for cell in pos.pieces(board, side, Kind::Pawn) {
            let file = FILE_OF[cell] as usize;
            files[file] += 1;
            f[PAWN] += 1;
            let advance = usize::from(ADVANCED[side][cell]).min(5);
            if advance > 0 {
                f[ADVANCE + advance - 1] += 1;
            }
            if (AHEAD[side][cell] & enemy_pawns).is_empty() {
                f[PASSED] += 1;
                f[PASSED_ADVANCE] += advance as i32;
            }
            if (NEIGHBOUR_FILES[file] & pawns).is_empty() {
                f[ISOLATED] += 1;
            }
        }
    }
    f[DOUBLED] = files.iter().map(|&n| (n - 1).max(0)).sum();
    let king = pos.king(side);
    f[SHELTER] = (KING[king.cell()] & pos.pieces(king.board(), side, Kind::Pawn)).count() as i32;
    f
}

fn side_value(pos: &Position, side: usize) -> i32 {
    let mut value = 0;
    for board in 0..2 {
        for kind in [Kind::Queen, Kind::Rook, Kind::Cardinal] {
            let pieces: Bitboard = pos.pieces(board, side, kind);
            for cell in pieces {
                value += VALUE[kind as usize] + FILE_BONUS[cell % 6];
            }
        }
        for cell in pos.pieces(board, side, Kind::Pawn) {
            let rank = cell / 6;
            let advanced = if side == 0 { rank.saturating_sub(1) } else { 5usize.saturating_sub(rank) };
            value += VALUE[Kind::Pawn as usize] + PAWN_ADVANCE[advanced.min(5)];
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_core::{FeatureVector, Game};
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    /// The handwritten evaluation as weights of the features.
    const HANDWRITTEN: [i32; COUNT] = [900, 500, 650, 100, 6, 0, 8, 20, 45, 80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

    #[test]
    fn the_weights_file_is_complete() {
        crate::weights::parse(include_str!("../../../../data/eval/lma.toml"), FEATURES).expect("lma.toml");
        // Fitted, so below the 1 of a file without a scale.
        let scale = crate::weights::parse_scale(include_str!("../../../../data/eval/lma.toml")).expect("lma.toml");
        assert!(scale > 0.0 && scale < 1.0 && scale == Lma::win_scale(), "{scale}");
        assert_eq!(FEATURES.len(), COUNT);
    }

    /// The features carry the handwritten evaluation: with its weights they
    /// give its value, in positions of random games.
    #[test]
    fn the_features_reproduce_the_handwritten_evaluation() {
        let mut scratch = Vec::new();
        for seed in 0..20 {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut game = Lma::start(&super::super::LmaVariant::Single, 0);
            for _ in 0..80 {
                let features = FeatureVector::of(&game);
                let value: i32 = features.0.iter().zip(HANDWRITTEN).map(|(f, w)| f * w).sum();
                assert_eq!(value, game.evaluate_handwritten(), "{}", game.to_text());
                let Some(mv) = game.random_move(&mut rng, &mut scratch) else { break };
                game.play(mv);
            }
        }
    }

    #[test]
    fn pawn_structure_is_read_across_both_boards() {
        // White: a2 on board 1 and a3 on board 2 (one file: doubled,
        // isolated, passed), c3 on board 1 (isolated; Black's d6 on board
        // 2 stands ahead of it on the next file: not passed, and d6 is not
        // passed either, c3 being ahead of it).
        let text = "3k2/6/6/6/2P3/P5/6|6/3p2/6/6/P5/6/3K2 w - 0 1";
        let game = Lma::from_text(&super::super::LmaVariant::Single, text).unwrap();
        let white = side_features(game.pos(), 0);
        let black = side_features(game.pos(), 1);
        assert_eq!(white[PAWN], 3);
        assert_eq!(white[DOUBLED], 1);
        assert_eq!(white[ISOLATED], 3);
        assert_eq!(white[PASSED], 2, "{white:?}");
        assert_eq!(white[PASSED_ADVANCE], 1, "{white:?}");
        assert_eq!(black[PASSED], 0, "{black:?}");
        assert_eq!(black[ISOLATED], 1);
    }
}
