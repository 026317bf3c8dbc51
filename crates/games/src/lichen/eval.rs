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
//! - `tempo`: the player to move places next;
//! - a win in one turn: `attack_reach` (tokens a turn can gain on the
//!   enemy kingstone: a placement there, a colonization of it, two if that
//!   captures) and `near_win` (that turn would leave at most one token
//!   missing);
//! - not sided: `threatened` (the other player could win in their next
//!   turn: the mover must answer) and `threatened_hard` (one placement on
//!   the own kingstone would not answer it), and `white_to_move` (+1 or -1:
//!   the first player wins most games between equals, and without it other
//!   weights would stand in for that).
//!
//! The handwritten evaluation ([`Evaluate::evaluate_handwritten`]), kept
//! as a yardstick, weighs the first eight: kingstone margin 80, each own
//! token on the enemy kingstone 50, a colonization threat 40, each token in
//! hand 12, an empty hand -400, a controlled stone 30, a token on the board
//! 6, the move 20.

use super::movegen;
use super::moves::{Act, Move};
use super::position::Board;
use super::square::{Direction, Square};
use super::Lichen;
use super::inputs;
use crate::weights::Weights;
use menagerie_core::nnue::{LazyNetwork, Network};
use menagerie_core::{Evaluate, Game, Player, Terms};

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
    "attack_reach",
    "near_win",
    "threatened",
    "threatened_hard",
    "white_to_move",
];

/// The learned evaluation's network (`menagerie train lichen`; empty: none yet).
static NETWORK: LazyNetwork =
    LazyNetwork::new(include_bytes!("../../../../data/nnue/lichen.bin"), inputs::FEATURES, inputs::INPUTS);

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
const REACH: usize = 13;
const NEAR_WIN: usize = 14;
const THREATENED: usize = 15;
const THREATENED_HARD: usize = 16;
const WHITE_TO_MOVE: usize = 17;
/// The features that are the mover's minus the other player's.
const SIDED: usize = 15;
const COUNT: usize = 18;

impl Evaluate for Lichen {
    const LEARNED_FEATURES: &'static str = inputs::FEATURES;
    const LEARNED_INPUTS: usize = inputs::INPUTS;

    fn network() -> Option<&'static Network> {
        NETWORK.get()
    }

    /// 120 centi-units: twice the speed of the network at every node and
    /// the same score against the tuned evaluation (docs/nnue.md, "Lazy").
    const LEARNED_LAZY_MARGIN: Option<i32> = Some(120);

    fn learned_inputs(&self, perspective: Player, inputs: &mut Vec<u16>) {
        inputs::learned_inputs(self, perspective, inputs)
    }

    const FEATURES: &'static [&'static str] = FEATURES;
    const WEIGHTS_FILE: &'static str = "lichen";
    /// A game ends when a turn is played (`judge` in `mod.rs`): a position
    /// that is not over always has a move.
    const OUTCOME_KNOWS_THE_END: bool = true;

    fn weights() -> &'static [i32] {
        WEIGHTS.get()
    }

    fn win_scale() -> f64 {
        WEIGHTS.scale()
    }

    fn features<T: Terms>(&self, terms: &mut T) {
        let board = &self.board;
        let me = board.to_move;
        let (mine, _) = side_features(board, me);
        let (theirs, gap) = side_features(board, me.other());
        for feature in 0..SIDED {
            let value = mine[feature] - theirs[feature];
            if value != 0 {
                terms.add(feature, value);
            }
        }
        terms.add(TEMPO, 1);
        // The first player's edge (White wins most games between equal
        // players): fitted with the rest so that no other weight has to
        // stand in for it.
        terms.add(WHITE_TO_MOVE, if me == Player::First { 1 } else { -1 });
        // The mover's own win in one turn is the search's to find; the other
        // player's is a threat the mover has one turn to answer.
        if gap <= 0 {
            terms.add(THREATENED, 1);
            let own_king = board.kingstone[me.index()];
            if gap < 0 || board.empty_slots(own_king) == 0 {
                terms.add(THREATENED_HARD, 1);
            }
        }
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

    /// The tactical moves listed directly ([`movegen::generate_tactical`]):
    /// listing all of a turn's hundreds of moves to keep a few was most of
    /// the search's time.
    fn tactical_moves(&self, moves: &mut Vec<Move>) -> bool {
        if self.outcome().is_some() {
            moves.clear();
            return false;
        }
        // Judged on the board before the harvest, as `is_tactical` judges.
        let board = &self.board;
        let me = board.to_move;
        let mut targets = board.tokens[me.other().index()];
        targets[board.kingstone[me.other().index()].index()] = 0xFF;
        self.with_harvested(|harvested| movegen::generate_tactical(harvested, &targets, moves));
        true
    }
}

/// `player`'s side of the sided features, and how far `player` is from a
/// win in one turn of their own: the tokens still missing on the enemy
/// kingstone after a placement there and a colonization of it (at most 0:
/// that turn would win). Every stone at once: the board keeps a byte per
/// square of tokens, control and neighbours.
fn side_features(board: &Board, player: Player) -> ([i32; COUNT], i32) {
    let mut f = [0i32; COUNT];
    let (own, other) = (player.index(), player.other().index());
    let own_king = board.kingstone[own];
    let enemy_king = board.kingstone[other];
    let count = |p: usize, s: Square| board.tokens[p][s.index()].count_ones() as i32;
    f[MARGIN] = count(own, own_king) - count(other, own_king);
    f[ON_ENEMY_KING] = count(own, enemy_king);
    f[HAND] = board.hand[own] as i32;
    f[EMPTY] = i32::from(board.hand[own] == 0);
    f[FREE_SLOTS] = board.empty_slots(own_king).count_ones() as i32;
    let mine = board.token_bytes(own);
    f[TOKENS] = mine.count_ones() as i32;
    let controlled = board.control[own];
    f[CONTROLLED] = controlled.count_ones() as i32;
    let harvested = movegen::square_bytes(controlled & board.full);
    f[HARVEST_OWN] = (mine & harvested).count_ones() as i32;
    f[HARVEST_ENEMY] = (board.token_bytes(other) & harvested).count_ones() as i32;
    // A controlled stone with a token towards an empty square of the board.
    let open = board.geometry.on_board_marks & !board.neighbour_marks.get();
    let mut moving = mine & open & movegen::square_bytes(controlled);
    moving |= moving >> 4;
    moving |= moving >> 2;
    moving |= moving >> 1;
    f[MOBILE] = (moving & LOW_BIT_OF_EACH_BYTE).count_ones() as i32;
    // The controlled stones around the enemy kingstone: pressure, and
    // colonizations of it (threats; two tokens gained when one captures).
    let (ours, theirs) = (board.tokens[own][enemy_king.index()], board.tokens[other][enemy_king.index()]);
    let mut colonize = 0;
    for dir in Direction::all() {
        let Some(from) = board.geometry.step(enemy_king, dir.opposite()) else { continue };
        if controlled & from.bit() == 0 {
            continue;
        }
        f[PRESSURE] += i32::from(from != own_king);
        if board.tokens[own][from.index()] & dir.bit() != 0 && ours & dir.bit() == 0 {
            f[THREAT] += 1;
            colonize = colonize.max(if theirs & dir.bit() != 0 { 2 } else { 1 });
        }
    }
    // Colonizing needs a token left in hand after the placement.
    let hand = board.hand[own];
    let reach = i32::from(hand >= 1 && board.empty_slots(enemy_king) != 0) + if hand >= 2 { colonize } else { 0 };
    let gap = theirs.count_ones() as i32 + 1 - ours.count_ones() as i32 - reach;
    f[REACH] = reach;
    f[NEAR_WIN] = i32::from(gap <= 1);
    (f, gap)
}

/// Bit 0 of each of the sixteen bytes.
const LOW_BIT_OF_EACH_BYTE: u128 = u128::from_le_bytes([1; 16]);

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
    const HANDWRITTEN: [i32; COUNT] = [80, 50, 40, 12, -400, 30, 6, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

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

    /// The sided features stone by stone, as first written: the yardstick
        /// of the byte-parallel [`side_features`].
        fn side_features_by_stone(board: &Board, player: Player) -> ([i32; COUNT], i32) {
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
        let attack = attack(board, player);
        f[REACH] = attack.reach;
        f[NEAR_WIN] = i32::from(attack.gap <= 1);
        (f, attack.gap)
    }

    /// How close a player is to controlling the enemy kingstone in one turn of
    /// their own, the board otherwise unchanged.
    struct Attack {
        /// Tokens that turn can gain on the enemy kingstone over the enemy's:
        /// a placement there, and a colonization of it (two if it captures).
        reach: i32,
        /// Tokens still missing after that turn: at most 0 means it would win.
        gap: i32,
    }

    fn attack(board: &Board, attacker: Player) -> Attack {
        let defender = attacker.other();
        let king = board.kingstone[defender.index()];
        let hand = board.hand[attacker.index()];
        let (ours, theirs) = (board.slots(attacker, king), board.slots(defender, king));
        let place = i32::from(hand >= 1 && board.empty_slots(king) != 0);
        let mut colonize = 0;
        // Colonizing needs a token left in hand after the placement.
        if hand >= 2 {
            for dir in Direction::all() {
                if ours & dir.bit() != 0 {
                    continue;
                }
                let Some(from) = board.geometry.step(king, dir.opposite()) else { continue };
                if board.has_stone(from) && board.slots(attacker, from) & dir.bit() != 0 && board.controls(attacker, from) {
                    colonize = colonize.max(if theirs & dir.bit() != 0 { 2 } else { 1 });
                }
            }
        }
        let reach = place + colonize;
        Attack { reach, gap: theirs.count_ones() as i32 + 1 - ours.count_ones() as i32 - reach }
    }

    #[test]
    fn the_sided_features_match_a_count_stone_by_stone() {
        let mut scratch = Vec::new();
        for variant in [LichenVariant::WIDE, LichenVariant::SQUARE] {
            for seed in 0..40 {
                let mut rng = StdRng::seed_from_u64(seed);
                let mut game = Lichen::start(&variant, 0);
                loop {
                    for player in Player::BOTH {
                        let (fast, by_stone) = (side_features(&game.board, player), side_features_by_stone(&game.board, player));
                        assert_eq!(fast, by_stone, "{} {player:?}", game.to_text());
                    }
                    let Some(mv) = game.random_move(&mut rng, &mut scratch) else { break };
                    game.play(mv);
                }
            }
        }
    }
}
