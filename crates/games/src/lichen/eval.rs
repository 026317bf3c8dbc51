//! The evaluation of a Lichen Chess position, for the searches of
//! `menagerie-ai`, from the view of the player to move (the position is
//! taken between turns, before that player's harvest).
//!
//! The tuned evaluation is linear in these features, each the mover's
//! minus the other player's, weighted by `data/eval/lichen.toml`
//! (`menagerie tune lichen`):
//! - `kingstone_margin`: own tokens minus the enemy's on the own kingstone
//!   (control needs the margin to turn negative);
//! - `on_enemy_kingstone`: own tokens on the enemy kingstone;
//! - `colonize_threat`: own tokens pointing at the enemy kingstone from a
//!   stone one controls (a colonization there also captures);
//! - the hand: `hand_token` per token, `empty_hand` when there is none (a
//!   placement is due: that loses);
//! - stone control: `controlled_stone`, `board_token`, `mobile_stone` (a
//!   controlled stone that can move), `kingstone_pressure` (controlled
//!   stones next to the enemy kingstone), `kingstone_free_slots` (empty
//!   slots of the own kingstone: room for the enemy);
//! - the harvest due: `harvest_own` (own tokens on full controlled stones,
//!   which come back) and `harvest_enemy` (the enemy's there, which leave);
//! - `tempo`: the player to move places next.
//!
//! The handwritten evaluation ([`Evaluate::evaluate_handwritten`]), kept
//! as a yardstick, weighs the first eight: kingstone margin 80, each own
//! token on the enemy kingstone 50, a colonization threat 40, each token in
//! hand 12, an empty hand -400, a controlled stone 30, a token on the board
//! 6, the move 20.

use super::moves::{Act, Move};
use super::position::Board;
use super::square::{Direction, Square};
use super::Lichen;
use crate::weights::Weights;
use menagerie_core::{Evaluate, Player, Terms};

const KINGSTONE_MARGIN: i32 = 80;
const ON_ENEMY_KINGSTONE: i32 = 50;
const COLONIZE_THREAT: i32 = 40;
const HAND_TOKEN: i32 = 12;
const EMPTY_HAND: i32 = 400;
const CONTROLLED_STONE: i32 = 30;
const BOARD_TOKEN: i32 = 6;
/// The player to move places next: a tempo.
const TO_MOVE: i32 = 20;

const FEATURES: &[&str] = &[
    "kingstone_margin",
    "on_enemy_kingstone",
    "colonize_threat",
    "hand_token",
    "empty_hand",
    "controlled_stone",
    "board_token",
    "tempo",
    "mobile_stone",
    "kingstone_pressure",
    "kingstone_free_slots",
    "harvest_own",
    "harvest_enemy",
];

static WEIGHTS: Weights = Weights::new(include_str!("../../../../data/eval/lichen.toml"), FEATURES);

const MARGIN: usize = 0;
const ON_ENEMY_KING: usize = 1;
const THREAT: usize = 2;
const HAND: usize = 3;
const EMPTY: usize = 4;
const CONTROLLED: usize = 5;
const TOKENS: usize = 6;
const TEMPO: usize = 7;
const MOBILE: usize = 8;
const PRESSURE: usize = 9;
const FREE_SLOTS: usize = 10;
const HARVEST_OWN: usize = 11;
const HARVEST_ENEMY: usize = 12;
const COUNT: usize = 13;

impl Evaluate for Lichen {
    const FEATURES: &'static [&'static str] = FEATURES;
    const WEIGHTS_FILE: &'static str = "lichen";

    fn weights() -> &'static [i32] {
        WEIGHTS.get()
    }

    fn win_scale() -> f64 {
        WEIGHTS.scale()
    }

    fn features<T: Terms>(&self, terms: &mut T) {
        let board = &self.board;
        let me = board.to_move;
        let mine = side_features(board, me);
        let theirs = side_features(board, me.other());
        for feature in 0..COUNT {
            let value = mine[feature] - theirs[feature];
            if value != 0 {
                terms.add(feature, value);
            }
        }
        terms.add(TEMPO, 1);
    }

    fn evaluate_handwritten(&self) -> i32 {
        let board = &self.board;
        let me = board.to_move;
        side_value(board, me) - side_value(board, me.other()) + TO_MOVE
    }

    /// What quiescence follows: a placement on the enemy kingstone that
    /// wins (taking control of it), a colonization of the enemy kingstone
    /// (that is how games are won), and colonizations that capture. Plain
    /// colonizations are half of all moves, too many to follow, and so are
    /// placements on the enemy kingstone that do not win yet: followed, they
    /// answer each other for the whole depth of quiescence.
    fn is_tactical(&self, mv: Move) -> bool {
        let board = &self.board;
        let me = board.to_move;
        let enemy_king = board.kingstone[me.other().index()];
        if mv.square == enemy_king {
            // A winning placement ends the turn (no act), and one slot of
            // the kingstone is as good as another: the lowest empty one.
            let wins = board.slots(me, enemy_king).count_ones() + 1 > board.slots(me.other(), enemy_king).count_ones();
            let lowest_empty = board.empty_slots(enemy_king).trailing_zeros();
            return wins && mv.act == Act::Pass && mv.slot.bit().trailing_zeros() == lowest_empty;
        }
        match mv.act {
            Act::Colonize { from, dir } => match board.geometry.step(from, dir) {
                Some(target) => target == enemy_king || board.slots(me.other(), target) & dir.bit() != 0,
                None => false,
            },
            _ => false,
        }
    }
}

fn side_features(board: &Board, player: Player) -> [i32; COUNT] {
    let mut f = [0i32; COUNT];
    let other = player.other();
    let own_king = board.kingstone[player.index()];
    let enemy_king = board.kingstone[other.index()];
    let count = |p: Player, s: Square| board.slots(p, s).count_ones() as i32;
    f[MARGIN] = count(player, own_king) - count(other, own_king);
    f[ON_ENEMY_KING] = count(player, enemy_king);
    f[HAND] = board.hand[player.index()] as i32;
    f[EMPTY] = i32::from(board.hand[player.index()] == 0);
    f[FREE_SLOTS] = board.empty_slots(own_king).count_ones() as i32;
    let mut stones = board.stones;
    while stones != 0 {
        let square = Square(stones.trailing_zeros() as u8);
        stones &= stones - 1;
        let mine = board.slots(player, square);
        f[TOKENS] += mine.count_ones() as i32;
        if !board.controls(player, square) {
            continue;
        }
        f[CONTROLLED] += 1;
        if board.empty_slots(square) == 0 {
            f[HARVEST_OWN] += mine.count_ones() as i32;
            f[HARVEST_ENEMY] += board.slots(other, square).count_ones() as i32;
        }
        let mut mobile = false;
        let mut next_to_king = false;
        for dir in Direction::all() {
            let target = board.geometry.step(square, dir);
            if target == Some(enemy_king) {
                next_to_king = true;
            }
            if mine & dir.bit() == 0 {
                continue;
            }
            match target {
                Some(t) if t == enemy_king && board.slots(player, enemy_king) & dir.bit() == 0 => f[THREAT] += 1,
                Some(t) if !board.has_stone(t) => mobile = true,
                _ => {}
            }
        }
        f[MOBILE] += i32::from(mobile);
        f[PRESSURE] += i32::from(next_to_king && square != own_king);
    }
    f
}

fn side_value(board: &Board, player: Player) -> i32 {
    let other = player.other();
    let own_king = board.kingstone[player.index()];
    let enemy_king = board.kingstone[other.index()];
    let count = |p: Player, s: Square| board.slots(p, s).count_ones() as i32;

    let mut value = KINGSTONE_MARGIN * (count(player, own_king) - count(other, own_king));
    value += ON_ENEMY_KINGSTONE * count(player, enemy_king);
    value += HAND_TOKEN * board.hand[player.index()] as i32;
    if board.hand[player.index()] == 0 {
        value -= EMPTY_HAND;
    }
    let mut stones = board.stones;
    while stones != 0 {
        let square = Square(stones.trailing_zeros() as u8);
        stones &= stones - 1;
        let mine = board.slots(player, square);
        value += BOARD_TOKEN * mine.count_ones() as i32;
        if board.controls(player, square) {
            value += CONTROLLED_STONE;
            for dir in Direction::all() {
                if mine & dir.bit() != 0
                    && board.geometry.step(square, dir) == Some(enemy_king)
                    && board.slots(player, enemy_king) & dir.bit() == 0
                {
                    value += COLONIZE_THREAT;
                }
            }
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lichen::LichenVariant;
    use menagerie_core::{FeatureVector, Game};
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    /// The handwritten evaluation as weights of the features.
    const HANDWRITTEN: [i32; COUNT] = [80, 50, 40, 12, -400, 30, 6, 20, 0, 0, 0, 0, 0];

    #[test]
    fn the_weights_file_is_complete() {
        crate::weights::parse(include_str!("../../../../data/eval/lichen.toml"), FEATURES).expect("lichen.toml");
        // Fitted, so below the 1 of a file without a scale.
        let scale = crate::weights::parse_scale(include_str!("../../../../data/eval/lichen.toml")).expect("lichen.toml");
        assert!(scale > 0.0 && scale < 1.0 && scale == Lichen::win_scale(), "{scale}");
        assert_eq!(FEATURES.len(), COUNT);
    }

    #[test]
    fn the_features_reproduce_the_handwritten_evaluation() {
        let mut scratch = Vec::new();
        for variant in [LichenVariant::WIDE, LichenVariant::SQUARE] {
            for seed in 0..30 {
                let mut rng = StdRng::seed_from_u64(seed);
                let mut game = Lichen::start(&variant, 0);
                for _ in 0..60 {
                    let features = FeatureVector::of(&game);
                    let value: i32 = features.0.iter().zip(HANDWRITTEN).map(|(f, w)| f * w).sum();
                    assert_eq!(value, game.evaluate_handwritten(), "{}", game.to_text());
                    let Some(mv) = game.random_move(&mut rng, &mut scratch) else { break };
                    game.play(mv);
                }
            }
        }
    }
}
