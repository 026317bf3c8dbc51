//! The rules' invariants, checked by the property tests after every move.

use super::piece::Kind;
use super::position::{self, Frame, GameResult};
use super::{square, Lunch};
use menagerie_core::{Game, Player};

pub fn check(game: &Lunch) -> Result<(), String> {
    let s = &game.state;
    let deck = &game.variant.deck;
    for (i, t) in deck.types.iter().enumerate() {
        let in_play = s.limbo().iter().filter(|(_, c)| *c as usize == i).count() as u32;
        let in_draw = s.draw[..s.draw_len as usize].iter().filter(|&&c| c as usize == i).count() as u32;
        let total = s.hands[0][i] as u32 + s.hands[1][i] as u32 + s.discard[i] as u32 + in_play + in_draw;
        if total > t.count as u32 {
            return Err(format!("{total} {} cards, the deck has {}", t.code, t.count));
        }
    }
    let between_actions = s.top() == Frame::Turn(position::TurnStage::Action) && s.result == GameResult::Ongoing;
    for (sq, p) in s.board.iter().enumerate() {
        if let Some(p) = p {
            if p.hp <= 0 {
                return Err(format!("a dead piece stands on {}", square::square_name(sq as u8)));
            }
            if between_actions && p.hp != p.kind.value() {
                return Err(format!(
                    "HP {} of the {:?} on {} between actions",
                    p.hp,
                    p.kind,
                    square::square_name(sq as u8)
                ));
            }
            if p.kind == Kind::Princess && !game.variant.options.princess {
                return Err("a Princess without the princess option".into());
            }
        }
    }
    for h in s.holds() {
        if s.piece(h.holder).is_none() || s.piece(h.held).is_none() {
            return Err("a hold on an empty square".into());
        }
    }
    if s.result == GameResult::Ongoing {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            return Err("no legal move in an unfinished game".into());
        }
    }
    if s.hand_size(Player::First) > 8 || s.hand_size(Player::Second) > 8 {
        return Err("a hand of more than 8 cards".into());
    }
    Ok(())
}
