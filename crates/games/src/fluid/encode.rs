//! The action space and observation tensor (documented in docs/fluid.md).
//!
//! Action = `(from * 64 + to) * 76 + unit`, squares numbered `file + 8 * rank`
//! (a1 = 0, h8 = 63), and `unit` the rest of the move text
//! `<unit><from><to>[x<captured>][=<promotion>]`, so that an index always
//! names one text:
//! - 0..24: a single B, K, N or R (in that order) times the captured piece
//!   named after `x` (none, then P, N, B, R, K);
//! - 24..34: a pair, in alphabetical order: BB, BK, BN, BR, KK, KN, KR, NN, NR, RR;
//! - 34..76: a pawn, the captured piece named (6, as above) times the
//!   promotion (none, then N, B, R, BR, BN, NR).

use super::moves::Move;
use super::piece::{Kind, Promotion};
use super::square::Square;
use super::{Fluid, FluidVariant};
use menagerie_core::encode::{fill_plane, set_plane};
use menagerie_core::{Encode, Player};

const SINGLES: [Kind; 4] = [Kind::Bishop, Kind::King, Kind::Knight, Kind::Rook];
const PAIRS: [(Kind, Kind); 10] = [
    (Kind::Bishop, Kind::Bishop),
    (Kind::Bishop, Kind::King),
    (Kind::Bishop, Kind::Knight),
    (Kind::Bishop, Kind::Rook),
    (Kind::King, Kind::King),
    (Kind::King, Kind::Knight),
    (Kind::King, Kind::Rook),
    (Kind::Knight, Kind::Knight),
    (Kind::Knight, Kind::Rook),
    (Kind::Rook, Kind::Rook),
];
/// None, then the kinds in [`Kind::ALL`] order (P, N, B, R, K).
const CAPTURES: usize = 1 + Kind::ALL.len();
/// None, then [`Promotion`] by its number (N, B, R, BR, BN, NR).
const PROMOTIONS: usize = 7;
const PAIR_BASE: usize = SINGLES.len() * CAPTURES;
const PAWN_BASE: usize = PAIR_BASE + PAIRS.len();
const UNITS: usize = PAWN_BASE + CAPTURES * PROMOTIONS;
const ACTIONS: usize = 64 * 64 * UNITS;

/// Planes: how many pieces of each side and kind stand on a square (0, 1
/// or 2; 10 planes, White's P N B R K then Black's), whose turn it is (1
/// when Black), the four castling rights, the en passant square, the
/// fifty-move clock / 100.
const PIECE_PLANES: usize = 2 * Kind::ALL.len();
const PLANES: usize = PIECE_PLANES + 1 + 4 + 1 + 1;

fn capture_index(kind: Option<Kind>) -> usize {
    kind.map_or(0, |kind| 1 + Kind::ALL.iter().position(|&k| k == kind).unwrap_or(0))
}

fn pair_index(a: Kind, b: Kind) -> usize {
    let (a, b) = if a.letter() <= b.letter() { (a, b) } else { (b, a) };
    PAIRS.iter().position(|&pair| pair == (a, b)).unwrap_or(0)
}

impl Encode for Fluid {
    fn num_distinct_actions(_variant: &FluidVariant) -> usize {
        ACTIONS
    }

    fn action(&self, mv: Move) -> usize {
        let captured = if mv.shows_capture() { capture_index(mv.captured()) } else { 0 };
        let unit = match (mv.first_kind(), mv.second_kind()) {
            (first, Some(second)) => PAIR_BASE + pair_index(first, second),
            (Kind::Pawn, None) => PAWN_BASE + captured * PROMOTIONS + mv.promotion().map_or(0, |p| p as usize),
            (single, None) => SINGLES.iter().position(|&k| k == single).unwrap_or(0) * CAPTURES + captured,
        };
        (mv.from().index() * 64 + mv.to().index()) * UNITS + unit
    }

    fn action_text(_variant: &FluidVariant, action: usize) -> Option<String> {
        if action >= ACTIONS {
            return None;
        }
        let unit = action % UNITS;
        let from = Square::new((action / UNITS / 64) as u8);
        let to = Square::new((action / UNITS % 64) as u8);
        let captured_text = |captured: usize| match captured {
            0 => String::new(),
            c => format!("x{}", Kind::ALL[c - 1].letter()),
        };
        let text = if unit < PAIR_BASE {
            format!("{}{from}{to}{}", SINGLES[unit / CAPTURES].letter(), captured_text(unit % CAPTURES))
        } else if unit < PAWN_BASE {
            let (a, b) = PAIRS[unit - PAIR_BASE];
            format!("{}{}{from}{to}", a.letter(), b.letter())
        } else {
            let pawn = unit - PAWN_BASE;
            let promotion = Promotion::from_index((pawn % PROMOTIONS) as u8).map_or(String::new(), |p| format!("={}", p.text()));
            format!("P{from}{to}{}{promotion}", captured_text(pawn / PROMOTIONS))
        };
        Some(text)
    }

    /// A capture or a pawn step must come every 100 plies (the fifty-move
    /// rule): at most 32 captures and 16 pawns of six steps each.
    fn max_game_length(_variant: &FluidVariant) -> usize {
        (32 + 16 * 6 + 1) * 100
    }

    fn observation_shape(_variant: &FluidVariant) -> Vec<usize> {
        vec![PLANES, 8, 8]
    }

    fn observe(&self, _viewer: Player, out: &mut [f32]) {
        let state = self.state();
        for index in 0..64u8 {
            let square = Square::new(index);
            for piece in state.board.cell(square).pieces() {
                let plane = piece.colour() as usize * Kind::ALL.len() + Kind::ALL.iter().position(|&k| k == piece.kind()).unwrap_or(0);
                out[plane * 64 + square.index()] += 1.0;
            }
        }
        fill_plane(out, 64, PIECE_PLANES, state.side as usize as f32);
        for right in 0..4 {
            fill_plane(out, 64, PIECE_PLANES + 1 + right, f32::from(u8::from(state.castling & (1 << right) != 0)));
        }
        if let Some(square) = state.en_passant {
            set_plane(out, 64, PIECE_PLANES + 5, square.index());
        }
        fill_plane(out, 64, PLANES - 1, state.halfmove_clock.min(100) as f32 / 100.0);
    }
}
