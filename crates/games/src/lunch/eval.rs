//! The evaluation of a Lunch Chess position, for the searches of
//! `menagerie-ai`, from the view of the player who must decide now.
//!
//! It reads only what that player may see: the board, their own hand and
//! the size of the other hand. (The searches call it on sampled positions,
//! but a heuristic that peeked would still teach them to trust the sample.)
//!
//! The tuned evaluation is linear in these features, weighted by
//! `data/eval/lunch.toml` (`menagerie tune lunch`):
//! - material by type (own minus the other's): Pawns, Knights, Bishops,
//!   Rooks, Princesses, Queens; `piece_hp` and `king_hp`, the hit points
//!   themselves (a hurt piece is on its way down a type);
//! - threats (own minus the other's, so positive is bad for the owner):
//!   `king_threatened`, a King some enemy piece threatens;
//!   `threatened_by_lesser`, a piece threatened by a King or a piece of
//!   lower value (an attack card on it would pay); `targets`, the enemy
//!   pieces one threatens;
//! - the own hand: attack cards (`attack_card`, and `attack_damage`, their
//!   points of damage), weapons, holds (Choke, Headlock, Grab), defences
//!   (Dodge, Block, Disarm, Freedom), First Aid, Humiliation;
//! - `other_hand`: the cards in the other hand;
//! - the shape of the position (own minus the other's): `mobility`, the
//!   empty squares the pieces other than the King can step to;
//!   `pawn_advance`, the ranks the Pawns have gone forward; `centre`, the
//!   pieces other than Kings on the sixteen middle squares; `king_shelter`,
//!   the own pieces next to the King.
//!
//! The handwritten evaluation ([`Evaluate::evaluate_handwritten`]), kept as
//! a yardstick: material is hit points, which are also the pieces' types:
//! Pawn 100, Knight and Bishop 300, Rook 500, Princess 700, Queen 900, in
//! centi-units; the King is the game (a King knocked below 15 HP is no
//! King), so it counts nothing as material but a King that an enemy piece
//! threatens costs 150, as does every own piece threatened by a piece of
//! lower value. An attack card is worth 8 per point of damage plus 10, a
//! weapon 40 (it comes back), a hold 20, a defence 30, First Aid and
//! Humiliation 35; every card in the other hand counts -30.

use super::board::{neighbours, steps_and_threats, threat};
use super::deck::CardKind;
use super::moves::Move;
use super::rules::Rules;
use super::piece::Kind;
use super::square::Square;
use super::Lunch;
use super::inputs;
use crate::weights::Weights;
use menagerie_core::nnue::{LazyNetwork, Network};
use menagerie_core::{Evaluate, Game, Player, Terms};

const KING_THREATENED: i32 = 150;
const THREATENED_BY_LESSER: i32 = 60;
const UNKNOWN_CARD: i32 = 30;

fn material(kind: Kind) -> i32 {
    match kind {
        Kind::King => 0,
        other => 100 * i32::from(other.value()),
    }
}

fn card_value(kind: CardKind, damage: i8) -> i32 {
    match kind {
        CardKind::Attack | CardKind::BigCombo | CardKind::Poke | CardKind::Stomp | CardKind::Uppercut2 => {
            8 * i32::from(damage) + 10
        }
        CardKind::Weapon => 40,
        CardKind::Choke | CardKind::Headlock | CardKind::Grab => 20,
        CardKind::Dodge | CardKind::Block | CardKind::Disarm | CardKind::Freedom => 30,
        CardKind::FirstAid | CardKind::Humiliation => 35,
    }
}

const FEATURES: &[&str] = &[
    "pawn",
    "knight",
    "bishop",
    "rook",
    "princess",
    "queen",
    "piece_hp",
    "king_hp",
    "king_threatened",
    "threatened_by_lesser",
    "targets",
    "attack_card",
    "attack_damage",
    "weapon_card",
    "hold_card",
    "defence_card",
    "first_aid_card",
    "humiliation_card",
    "other_hand",
    "mobility",
    "pawn_advance",
    "centre",
    "king_shelter",
];

/// The learned evaluation's network (`menagerie train lunch`; empty: none yet).
static NETWORK: LazyNetwork =
    LazyNetwork::new(include_bytes!("../../../../data/nnue/lunch.bin"), inputs::FEATURES, inputs::INPUTS);

static WEIGHTS: Weights = Weights::new(include_str!("../../../../data/eval/lunch.toml"), FEATURES);

const MATERIAL: usize = 0;
const PIECE_HP: usize = 6;
const KING_HP: usize = 7;
const KING_THREAT: usize = 8;
const LESSER_THREAT: usize = 9;
const TARGETS: usize = 10;
const ATTACK_CARD: usize = 11;
const ATTACK_DAMAGE: usize = 12;
const WEAPON: usize = 13;
const HOLD: usize = 14;
const DEFENCE: usize = 15;
const FIRST_AID: usize = 16;
const HUMILIATION: usize = 17;
const OTHER_HAND: usize = 18;
const MOBILITY: usize = 19;
const PAWN_ADVANCE: usize = 20;
const CENTRE: usize = 21;
const KING_SHELTER: usize = 22;
const COUNT: usize = 23;

/// The sixteen squares c3 to f6.
const CENTRE_SQUARES: u64 = 0x0000_3C3C_3C3C_0000;

/// The material feature of a type (none for the King).
fn material_feature(kind: Kind) -> Option<usize> {
    match kind {
        Kind::Pawn => Some(MATERIAL),
        Kind::Knight => Some(MATERIAL + 1),
        Kind::Bishop => Some(MATERIAL + 2),
        Kind::Rook => Some(MATERIAL + 3),
        Kind::Princess => Some(MATERIAL + 4),
        Kind::Queen => Some(MATERIAL + 5),
        Kind::King => None,
    }
}

impl Lunch {
    /// The feature values from `me`'s view.
    fn feature_values(&self, me: Player) -> [i32; COUNT] {
        let mut f = [0i32; COUNT];
        let board = self.state.board();
        let mut kings = 0u64;
        for (sq, piece) in board.pieces() {
            let sign = if piece.color == me { 1 } else { -1 };
            match material_feature(piece.kind) {
                Some(feature) => {
                    f[feature] += sign;
                    f[PIECE_HP] += sign * i32::from(piece.hp);
                    if CENTRE_SQUARES & (1 << sq.index()) != 0 {
                        f[CENTRE] += sign;
                    }
                    if piece.kind == Kind::Pawn {
                        let advanced = (if piece.color == Player::First { sq.rank() - 1 } else { 6 - sq.rank() }).max(0);
                        f[PAWN_ADVANCE] += sign * i32::from(advanced);
                    }
                }
                None => {
                    f[KING_HP] += sign * i32::from(piece.hp);
                    kings |= 1 << sq.index();
                    let own = board.occupancy().colour[piece.color.index()];
                    f[KING_SHELTER] += sign * (neighbours(sq) & own).count_ones() as i32;
                }
            }
        }
        let (mut king_hit, mut lesser_hit) = (0u64, 0u64);
        for (from, attacker) in board.pieces() {
            let (steps, targets) = steps_and_threats(board, from, attacker);
            let sign = if attacker.color == me { 1 } else { -1 };
            f[TARGETS] += sign * targets.count_ones() as i32;
            if attacker.kind != Kind::King {
                f[MOBILITY] += sign * steps.count_ones() as i32;
            }
            king_hit |= targets & kings;
            let mut others = targets & !kings;
            while others != 0 {
                let to = Square::new(others.trailing_zeros() as u8);
                others &= others - 1;
                let piece = board.get(to).expect("a threatened square holds a piece");
                if attacker.kind == Kind::King || material(attacker.kind) < material(piece.kind) {
                    lesser_hit |= 1 << to.index();
                }
            }
        }
        for (hit, feature) in [(king_hit, KING_THREAT), (lesser_hit, LESSER_THREAT)] {
            let mut rest = hit;
            while rest != 0 {
                let to = Square::new(rest.trailing_zeros() as u8);
                rest &= rest - 1;
                f[feature] += if board.get(to).is_some_and(|p| p.color == me) { 1 } else { -1 };
            }
        }
        let deck = &self.variant.deck;
        for (card, count) in self.state.hand(me).cards() {
            let card_type = deck.card(card);
            let count = i32::from(count);
            match card_type.kind {
                CardKind::Attack | CardKind::BigCombo | CardKind::Poke | CardKind::Stomp | CardKind::Uppercut2 => {
                    f[ATTACK_CARD] += count;
                    f[ATTACK_DAMAGE] += count * i32::from(card_type.damage);
                }
                CardKind::Weapon => f[WEAPON] += count,
                CardKind::Choke | CardKind::Headlock | CardKind::Grab => f[HOLD] += count,
                CardKind::Dodge | CardKind::Block | CardKind::Disarm | CardKind::Freedom => f[DEFENCE] += count,
                CardKind::FirstAid => f[FIRST_AID] += count,
                CardKind::Humiliation => f[HUMILIATION] += count,
            }
        }
        f[OTHER_HAND] = self.state.hand_size(me.other()) as i32;
        f
    }
}

impl Evaluate for Lunch {
    const LEARNED_FEATURES: &'static str = inputs::FEATURES;
    const LEARNED_INPUTS: usize = inputs::INPUTS;

    fn network() -> Option<&'static Network> {
        NETWORK.get()
    }

    fn learned_inputs(&self, perspective: Player, inputs: &mut Vec<u16>) {
        inputs::learned_inputs(self, perspective, inputs)
    }

    const FEATURES: &'static [&'static str] = FEATURES;
    const WEIGHTS_FILE: &'static str = "lunch";

    fn weights() -> &'static [i32] {
        WEIGHTS.get()
    }

    fn win_scale() -> f64 {
        WEIGHTS.scale()
    }

    fn features<T: Terms>(&self, terms: &mut T) {
        let Some(me) = self.to_act().player() else { return };
        for (feature, value) in self.feature_values(me).into_iter().enumerate() {
            if value != 0 {
                terms.add(feature, value);
            }
        }
    }

    fn evaluate_handwritten(&self) -> i32 {
        let Some(me) = self.to_act().player() else { return 0 };
        let state = &self.state;
        let board = state.board();
        let mut value = 0;
        let mut squares = [Square::new(0); 64];
        let mut count = 0;
        for (sq, piece) in board.pieces() {
            value += if piece.color == me { material(piece.kind) } else { -material(piece.kind) };
            squares[count] = sq;
            count += 1;
        }
        let squares = &squares[..count];
        for &to in squares {
            let piece = board.get(to).expect("listed");
            // The worst threat against this piece by the other side.
            let mut worst = 0;
            for &from in squares {
                let attacker = board.get(from).expect("listed");
                if attacker.color == piece.color || threat(board, from, to).is_none() {
                    continue;
                }
                if piece.kind == Kind::King {
                    worst = KING_THREATENED;
                    break;
                }
                if attacker.kind == Kind::King || material(attacker.kind) < material(piece.kind) {
                    worst = THREATENED_BY_LESSER;
                }
            }
            value -= if piece.color == me { worst } else { -worst };
        }
        let deck = &self.variant.deck;
        for (card, count) in state.hand(me).cards() {
            let card_type = deck.card(card);
            value += i32::from(count) * card_value(card_type.kind, card_type.damage);
        }
        value -= UNKNOWN_CARD * state.hand_size(me.other()) as i32;
        value
    }

    /// Discards come last: there may be hundreds, and they rarely cut off.
    fn first_moves(&self, moves: &mut Vec<Move>) -> bool {
        Rules::new(&self.variant).moves_before_discards(&self.state, moves)
    }

    fn later_moves(&self, moves: &mut Vec<Move>) {
        Rules::new(&self.variant).discard_moves(&self.state, moves);
    }

    /// The tactical moves are never discards: they are not listed.
    fn tactical_moves(&self, moves: &mut Vec<Move>) -> bool {
        let discards = self.first_moves(moves);
        let going_on = discards || !moves.is_empty();
        moves.retain(|&mv| self.is_tactical(mv));
        going_on
    }

    /// Battles: opening and free attacks change hit points; Humiliations
    /// cancel cards and answers avoid damage.
    fn is_tactical(&self, mv: Move) -> bool {
        matches!(mv, Move::Attack { .. } | Move::Free { .. } | Move::Humiliate { .. } | Move::Answer { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_core::Game;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    /// The handwritten evaluation as weights of the features.
    const HANDWRITTEN: [i32; COUNT] =
        [100, 300, 300, 500, 700, 900, 0, 0, -150, -60, 0, 10, 8, 40, 20, 30, 35, 35, -30, 0, 0, 0, 0];

    #[test]
    fn the_weights_file_is_complete() {
        crate::weights::parse(include_str!("../../../../data/eval/lunch.toml"), FEATURES).expect("lunch.toml");
        // Fitted, so below the 1 of a file without a scale.
        let scale = crate::weights::parse_scale(include_str!("../../../../data/eval/lunch.toml")).expect("lunch.toml");
        assert!(scale > 0.0 && scale < 1.0 && scale == Lunch::win_scale(), "{scale}");
        assert_eq!(FEATURES.len(), COUNT);
    }

    /// The shape features counted by hand on a small board: a Rook on a1
    /// (3 steps along the first rank up to its King, 7 up the file), a
    /// Knight on d2 (6 leaps) next to the King on e1, a Pawn on d4 (one
    /// step; two ranks forward; a centre square) against a bare King.
    #[test]
    fn the_shape_features_count_what_they_say() {
        let variant = Lunch::parse_variant(&menagerie_core::VariantSpec::parse("lunch").unwrap()).unwrap();
        let mut rng = StdRng::seed_from_u64(1);
        let mut scratch = Vec::new();
        let mut game = Lunch::start(&variant, 1);
        while game.to_act().player().is_none() {
            let mv = game.random_move(&mut rng, &mut scratch).expect("the deal");
            game.play(mv);
        }
        let text = game.to_text();
        let mut fields: Vec<&str> = text.split_whitespace().collect();
        fields[0] = "4k3/8/8/8/3P4/8/3N4/R3K3";
        fields[2] = "-";
        let small = Lunch::from_text(&variant, &fields.join(" ")).expect("the small board");
        let white = if small.to_act().player() == Some(Player::First) { 1 } else { -1 };
        let features = menagerie_core::FeatureVector::of(&small).0;
        let shape: Vec<i32> = [MOBILITY, PAWN_ADVANCE, CENTRE, KING_SHELTER].iter().map(|&f| white * features[f]).collect();
        assert_eq!(shape, [17, 2, 1, 1], "{}", small.to_text());
    }

    #[test]
    fn the_features_reproduce_the_handwritten_evaluation() {
        let variant = Lunch::parse_variant(&menagerie_core::VariantSpec::parse("lunch").unwrap()).unwrap();
        let mut scratch = Vec::new();
        for seed in 0..10 {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut game = Lunch::start(&variant, seed);
            for _ in 0..200 {
                let features = menagerie_core::FeatureVector::of(&game);
                let value: i32 = features.0.iter().zip(HANDWRITTEN).map(|(f, w)| f * w).sum();
                assert_eq!(value, game.evaluate_handwritten(), "{}", game.to_text());
                let Some(mv) = game.random_move(&mut rng, &mut scratch) else { break };
                game.play(mv);
            }
        }
    }
}
