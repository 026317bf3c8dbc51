//! The rules' invariants, checked by the property tests after every move.

use super::frame::{Frame, TurnStage};
use super::piece::Kind;
use super::position::{GameResult, Zone};
use super::Lunch;
use menagerie_core::{Actor, Game, Player};

pub fn check(game: &Lunch) -> Result<(), String> {
    let s = &game.state;
    let deck = &game.variant.deck;
    if s.hash() != s.computed_hash() {
        return Err(format!("the incremental hash {:016x} is not the hash {:016x}", s.hash(), s.computed_hash()));
    }
    for card in deck.cards() {
        let in_play = s.limbo().iter().filter(|(_, c)| *c == card).count() as u32;
        let zones = [Zone::hand(Player::First), Zone::hand(Player::Second), Zone::DRAW, Zone::DISCARD];
        let total = in_play + zones.iter().map(|&z| u32::from(s.pile(z).count(card))).sum::<u32>();
        let count = u32::from(deck.card(card).count);
        if total > count {
            return Err(format!("{total} {} cards, the deck has {count}", deck.code(card)));
        }
    }
    if game.history.current_board().is_some_and(|board| board != s.board()) {
        return Err("the history's last board is not the board".into());
    }
    if s.frames().first() != Some(&Frame::Turn(s.turn_stage())) {
        return Err("the stack's bottom is not the turn's frame of the head's stage".into());
    }
    let between_actions = s.top() == Frame::Turn(TurnStage::Action) && s.result() == GameResult::Ongoing;
    for (sq, p) in s.board().pieces() {
        if p.hp <= 0 {
            return Err(format!("a dead piece stands on {sq}"));
        }
        if between_actions && p.hp != p.kind.value() {
            return Err(format!("HP {} of the {:?} on {sq} between actions", p.hp, p.kind));
        }
        if p.kind == Kind::Princess && !game.variant.options.princess {
            return Err("a Princess without the princess option".into());
        }
    }
    for h in s.holds() {
        if s.piece(h.holder).is_none() || s.piece(h.held).is_none() {
            return Err("a hold on an empty square".into());
        }
    }
    if s.result() == GameResult::Ongoing {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            return Err("no legal move in an unfinished game".into());
        }
        if game.to_act() == Actor::Chance {
            // Chance draws only for a hand below 5 cards, from a pile that has some.
            let short = Player::BOTH.iter().any(|&p| s.hand_size(p) < 5);
            if !short || s.pile(Zone::DRAW).is_empty() {
                return Err("chance draws though no hand is short or the draw pile is empty".into());
            }
        }
    }
    if s.hand_size(Player::First) > 8 || s.hand_size(Player::Second) > 8 {
        return Err("a hand of more than 8 cards".into());
    }
    Ok(())
}
