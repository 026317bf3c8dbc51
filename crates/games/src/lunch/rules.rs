//! The rules as a machine: [`Rules::advance`] plays every automatic step
//! until a player must decide, [`Rules::legal_moves`] lists that player's
//! choices and [`Rules::apply`] plays one of them.
//!
//! Every optional decision (a Humiliation window, an answer, a free attack,
//! a last-chance First Aid, a Grab) is offered whenever the *public* state
//! allows it (the piece may have cards, its player holds some card, and not
//! every card that could be played is in the discard pile), and `pass` is
//! always among its moves, so that a window never reveals a hand.

use super::board::{last_rank, ring, threat, threatened_by};
use super::piece::{flag, Kind, Piece};
use super::square::{file_of, rank_of, square_at, Square, NO_SQUARE};
use super::deck::{CardKind, CardType, Deck, MAX_TYPES};
use super::moves::Move;
use super::position::{
    Battle, BattleStage, Frame, GameResult, Hold, HoldKind, Role, State, Strike, StrikeStage, TurnStage, NO_CARD,
};
use super::{LunchVariant, Options};
use menagerie_core::Player;

pub struct Rules<'a> {
    pub deck: &'a Deck,
    pub options: Options,
}

/// Where Humiliation windows take their pieces from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Battle,
    /// A First Aid action on this square.
    FirstAid(Square),
    /// A Headlock free attack of the holder on the held piece (start of turn).
    Headlock {
        holder: Square,
        held: Square,
    },
    /// No card is under way.
    None,
}

mod apply;
mod battle;
mod humiliation;
mod movegen;
mod turn;

impl<'a> Rules<'a> {
    pub fn new(variant: &'a LunchVariant) -> Self {
        Rules { deck: &variant.deck, options: variant.options }
    }

    fn card(&self, card: u8) -> &CardType {
        self.deck.card(card)
    }

    fn kind(&self, card: u8) -> CardKind {
        self.deck.kind(card)
    }

    /// Whether a card matching `pred` may still be in some hand or the draw
    /// pile, judged from the public state (deck minus discard and weapons in play).
    fn public_left(&self, s: &State, pred: impl Fn(&CardType) -> bool) -> bool {
        self.deck.types.iter().enumerate().any(|(i, t)| {
            let in_play = s.limbo().iter().filter(|(_, c)| *c as usize == i).count() as u32;
            pred(t) && (t.count as u32) > s.discard[i] as u32 + in_play
        })
    }

    /// A decision about cards of kinds `pred` is offered to `player`.
    fn offered(&self, s: &State, player: Player, pred: impl Fn(&CardType) -> bool) -> bool {
        s.hand_size(player) > 0 && self.public_left(s, pred)
    }

    fn has_card(s: &State, player: Player, card: u8) -> bool {
        s.hands[player.index()][card as usize] > 0
    }

    /// Types in `player`'s hand matching `pred`.
    fn hand_cards<'s>(
        &'s self,
        s: &'s State,
        player: Player,
        pred: impl Fn(&CardType) -> bool + 's,
    ) -> impl Iterator<Item = u8> + 's {
        (0..self.deck.len() as u8).filter(move |&c| Self::has_card(s, player, c) && pred(self.card(c)))
    }

    /// Takes a card from a hand: to the discard pile, or for weapons into
    /// play (they go back to the hand when the action ends).
    fn play_card(&self, s: &mut State, player: Player, card: u8) {
        let count = &mut s.hands[player.index()][card as usize];
        *count = count.saturating_sub(1);
        if self.kind(card) == CardKind::Weapon && (s.limbo_len as usize) < s.limbo.len() {
            s.limbo[s.limbo_len as usize] = (player, card);
            s.limbo_len += 1;
        } else {
            s.discard[card as usize] += 1;
        }
    }

    fn return_weapons(s: &mut State) {
        for i in 0..s.limbo_len as usize {
            let (player, card) = s.limbo[i];
            s.hands[player.index()][card as usize] += 1;
        }
        s.limbo_len = 0;
    }

    fn context(s: &State) -> Context {
        for frame in s.frames().iter().rev() {
            match frame {
                Frame::Battle(_) => return Context::Battle,
                Frame::FirstAid { square, .. } => return Context::FirstAid(*square),
                Frame::Strike(st) if st.role == Role::Headlock => {
                    return Context::Headlock { holder: st.from, held: st.to }
                }
                _ => {}
            }
        }
        Context::None
    }

    fn battle_piece(s: &State, player: Player) -> Square {
        if player == s.battle.attacker {
            s.battle.a
        } else {
            s.battle.t
        }
    }

    fn color(s: &State, sq: Square) -> Player {
        s.piece(sq).map_or(s.side, |p| p.color)
    }

    // ------------------------------------------------------------------
    // Who acts
    // ------------------------------------------------------------------

    pub fn actor(&self, s: &State) -> Player {
        match s.top() {
            Frame::Turn(_) | Frame::FirstAid { .. } => s.side,
            Frame::Round => self.next_choice(s).map_or(s.side, |(_, p)| p),
            Frame::Battle(BattleStage::GrabTarget) => Self::color(s, s.battle.t),
            Frame::Battle(BattleStage::GrabAttacker) => s.battle.attacker,
            Frame::Battle(_) => s.side,
            Frame::Strike(st) => match st.stage {
                StrikeStage::Answer | StrikeStage::SpinAnswer | StrikeStage::LastChance => Self::color(s, st.to),
                _ => s.side,
            },
            Frame::Window { owner, chain, .. } => Self::window_decider(owner, chain),
            Frame::FreeOffer { player, .. } => player,
        }
    }

    fn window_decider(owner: Player, chain: u8) -> Player {
        if chain.is_multiple_of(2) {
            owner.other()
        } else {
            owner
        }
    }

    // ------------------------------------------------------------------
    // Automatic steps
    // ------------------------------------------------------------------

    /// Plays automatic steps until a decision is due or the game is over.
    pub fn advance(&self, s: &mut State) {
        // Every loop pops, pushes or changes a stage; the bound only guards
        // hand-built texts against looping forever.
        for _ in 0..10_000 {
            if s.result != GameResult::Ongoing {
                return;
            }
            let top = s.top();
            match top {
                Frame::Turn(stage) => {
                    if !self.turn_step(s, stage) {
                        return;
                    }
                }
                Frame::Round => {
                    if self.next_choice(s).is_some() {
                        return;
                    }
                    Self::clear_action_flags(s);
                    s.pop();
                }
                Frame::Battle(stage) => {
                    if !self.battle_step(s, stage) {
                        return;
                    }
                }
                Frame::FirstAid { square, card, count, opened, cancelled } => {
                    if !opened {
                        *s.top_mut() = Frame::FirstAid { square, card, count, opened: true, cancelled: false };
                        s.push(Frame::Window { owner: s.side, chain: 0, via: NO_SQUARE });
                    } else {
                        s.pop();
                        if !cancelled && s.piece(square).is_some() {
                            self.heal(s, square, card, count, s.side);
                        }
                    }
                }
                Frame::Strike(st) => {
                    if !self.strike_step(s, st) {
                        return;
                    }
                }
                Frame::Window { owner, chain, via } => {
                    if self.window_open(s, owner, chain, via) {
                        return;
                    }
                    self.resolve_window(s, owner, chain, via);
                }
                Frame::FreeOffer { player, from, to } => {
                    if self.free_offer_open(s, player, from, to) {
                        return;
                    }
                    s.pop();
                }
            }
        }
    }
}

/// `(right bit, king square, rook square, squares between, king's target)`.
const CASTLES: [(u8, Square, Square, &[Square], Square); 4] =
    [(1, 4, 7, &[5, 6], 6), (2, 4, 0, &[1, 2, 3], 2), (4, 60, 63, &[61, 62], 62), (8, 60, 56, &[57, 58, 59], 58)];

fn castling_mask(sq: Square) -> u8 {
    match sq {
        4 => 3,
        7 => 1,
        0 => 2,
        60 => 12,
        63 => 4,
        56 => 8,
        _ => 0,
    }
}
