//! What `menagerie study` counts in Lunch Chess: the men by kind, their hit
//! points and the cards in hand (the material), and per decision the cards
//! played by kind, battles, Humiliations (and the chains they start), First
//! Aid as an action and First Aid at the last chance (a save: it is offered
//! only when the hit would knock the piece out).

use super::frame::{Frame, StrikeStage};
use super::moves::Move;
use super::piece::Kind;
use super::Lunch;
use menagerie_core::{Player, Study, Tally};

const KINDS: [(Kind, &str); 6] = [
    (Kind::Pawn, "pawn"),
    (Kind::Knight, "knight"),
    (Kind::Bishop, "bishop"),
    (Kind::Rook, "rook"),
    (Kind::Princess, "princess"),
    (Kind::Queen, "queen"),
];

impl Study for Lunch {
    fn material(&self) -> Vec<(&'static str, f64)> {
        let board = self.state.board();
        let sign = |p: Player| if p == Player::First { 1.0 } else { -1.0 };
        let mut material: Vec<(&'static str, f64)> = KINDS
            .iter()
            .map(|&(kind, name)| {
                (name, board.pieces().filter(|(_, p)| p.kind == kind).map(|(_, p)| sign(p.color)).sum())
            })
            .collect();
        material.push(("hit point", board.pieces().map(|(_, p)| sign(p.color) * f64::from(p.hp)).sum()));
        material.push((
            "card in hand",
            f64::from(self.state.hand_size(Player::First)) - f64::from(self.state.hand_size(Player::Second)),
        ));
        material
    }

    fn tally_move(before: &Lunch, mv: Move, _after: &Lunch, tally: &mut Tally) {
        let deck = &before.variant.deck;
        let mut played = |card| tally.add(&format!("cards played: {}", deck.card(card).kind.name()), 1);
        match mv {
            Move::Aid { card, .. } | Move::Break { card, .. } | Move::Answer { card } | Move::Free { card, .. } => {
                played(card)
            }
            Move::Attack { card, .. } | Move::Humiliate { card, .. } => played(card),
            Move::Grab { grab, with } => {
                played(grab);
                played(with);
            }
            Move::Step { .. } | Move::Discard(_) | Move::Choose { .. } | Move::Draw { .. } | Move::Pass => {}
        }
        // Always named, so that every game of a study lists them.
        tally.add("battles", u64::from(matches!(mv, Move::Attack { .. })));
        tally.add("humiliations", u64::from(matches!(mv, Move::Humiliate { .. })));
        tally.add("first aid", u64::from(matches!(mv, Move::Aid { .. })));
        let top = before.state.top();
        let at_last_chance = matches!(top, Frame::Strike(st) if st.stage == StrikeStage::LastChance);
        tally.add("first aid saves", u64::from(matches!(mv, Move::Aid { .. }) && at_last_chance));
        // A Humiliation of a Humiliation continues a chain; the one made
        // against the first Humiliation (chain 1) starts a chain of two.
        let chain = match (mv, top) {
            (Move::Humiliate { .. }, Frame::Window { chain, .. }) => Some(chain),
            _ => None,
        };
        tally.add("humiliation chains", u64::from(chain == Some(1)));
        tally.add("humiliations back", u64::from(chain.is_some_and(|c| c >= 1)));
    }
}
