//! The evaluation of a Lunch Chess position, for the searches of
//! `menagerie-ai`, from the view of the player who must decide now.
//!
//! It reads only what that player may see: the board, their own hand and
//! the size of the other hand. (The searches call it on sampled positions,
//! but a heuristic that peeked would still teach them to trust the sample.)
//!
//! Material is hit points, which are also the pieces' types: Pawn 100,
//! Knight and Bishop 300, Rook 500, Princess 700, Queen 900, in
//! centi-units; the King is the game (a King knocked below 15 HP is no
//! King), so it counts nothing as material but a King that an enemy piece
//! threatens costs 150, as does every own piece threatened by a piece of
//! lower value (an attack card on it would pay). Cards are tempo and
//! defence: an attack card is worth 8 per point of damage, a weapon 40
//! (it comes back), a defence (Dodge, Block, Disarm, Freedom) 30, First Aid
//! and Humiliation 35; every card in the other hand is taken as 30.

use super::board::threat;
use super::deck::CardKind;
use super::moves::Move;
use super::piece::Kind;
use super::square::Square;
use super::Lunch;
use menagerie_core::{Evaluate, Game};

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

impl Evaluate for Lunch {
    fn evaluate(&self) -> i32 {
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

    /// Battles: opening and free attacks change hit points; Humiliations
    /// cancel cards and answers avoid damage.
    fn is_tactical(&self, mv: Move) -> bool {
        matches!(mv, Move::Attack { .. } | Move::Free { .. } | Move::Humiliate { .. } | Move::Answer { .. })
    }
}
