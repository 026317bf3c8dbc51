//! The rules as a machine: [`Rules::advance`] plays every automatic step
//! until a player or chance must decide, [`Rules::legal_moves`] lists that
//! actor's choices and [`Rules::apply`] plays one of them.
//!
//! Every optional decision (a Humiliation window, an answer, a free attack,
//! a last-chance First Aid, a Grab) is offered whenever the *public* state
//! allows it (the piece may have cards, its player holds some card, and not
//! every card that could be played is in the discard pile), and `pass` is
//! always among its moves, so that a window never reveals a hand.
//!
//! Chance deals and draws: each card that comes from the draw pile is a
//! chance move, one per card type the pile holds.

use super::board::{last_rank, ring, threat, threatened_by};
use super::deck::{Card, CardKind, CardType, Deck};
use super::frame::{Battle, BattleStage, Frame, Hold, HoldKind, Role, Spin, Strike, StrikeStage, TurnStage};
use super::moves::{Discard, Move};
use super::piece::{flag, Kind, Piece};
use super::position::{GameResult, State, Zone};
use super::square::Square;
use super::{LunchVariant, Options};
use menagerie_core::{Actor, Player};

mod apply;
mod battle;
mod draw;
mod humiliation;
mod movegen;
mod turn;

pub struct Rules<'a> {
    pub deck: &'a Deck,
    pub options: Options,
}

/// Where Humiliation windows take their pieces from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Battle(Battle),
    /// A First Aid action on this square.
    FirstAid(Square),
    /// A Headlock free attack of the holder on the held piece (start of turn).
    Headlock { holder: Option<Square>, held: Square },
    /// No card is under way.
    None,
}

impl<'a> Rules<'a> {
    pub fn new(variant: &'a LunchVariant) -> Self {
        Rules { deck: &variant.deck, options: variant.options }
    }

    fn card(&self, card: Card) -> &CardType {
        self.deck.card(card)
    }

    fn kind(&self, card: Card) -> CardKind {
        self.deck.kind(card)
    }

    /// Whether a card matching `pred` may still be in some hand or the draw
    /// pile, judged from the public state (deck minus discard and weapons in play).
    fn public_left(&self, s: &State, pred: impl Fn(&CardType) -> bool) -> bool {
        // Asked at every window: the types are walked in place, and only
        // those that match are counted; last first, as the Humiliation
        // windows' type ends the decks' order (any order finds the same).
        let discard = s.pile(Zone::DISCARD);
        self.deck.types.iter().enumerate().rev().any(|(index, t)| {
            pred(t) && {
                let card = Card::new(index as u8);
                let in_play = s.limbo().iter().filter(|(_, c)| *c == card).count() as u32;
                u32::from(t.count) > u32::from(discard.count(card)) + in_play
            }
        })
    }

    /// A decision about cards of kinds `pred` is offered to `player`.
    fn offered(&self, s: &State, player: Player, pred: impl Fn(&CardType) -> bool) -> bool {
        s.hand_size(player) > 0 && self.public_left(s, pred)
    }

    /// Types in `player`'s hand matching `pred`.
    fn hand_cards<'s>(
        &'s self,
        s: &'s State,
        player: Player,
        pred: impl Fn(&CardType) -> bool + 's,
    ) -> impl Iterator<Item = Card> + 's {
        s.hand(player).held().iter().filter(move |&c| pred(self.card(c)))
    }

    /// Takes a card from a hand: to the discard pile, or for weapons into
    /// play (they go back to the hand when the action ends).
    fn play_card(&self, s: &mut State, player: Player, card: Card) {
        let hand = Zone::hand(player);
        if self.kind(card) == CardKind::Weapon && s.limbo().len() < super::position::MAX_LIMBO {
            s.take_card(hand, card);
            s.push_limbo(player, card);
        } else {
            s.move_card(hand, Zone::DISCARD, card);
        }
    }

    fn return_weapons(s: &mut State) {
        while let Some(&(player, card)) = s.limbo().last() {
            s.remove_limbo(s.limbo().len() - 1);
            s.add_card(Zone::hand(player), card);
        }
    }

    fn context(s: &State) -> Context {
        for frame in s.frames().iter().rev() {
            match frame {
                Frame::Battle(_) => return s.battle().map_or(Context::None, Context::Battle),
                Frame::FirstAid { square, .. } => return Context::FirstAid(*square),
                Frame::Strike(st) if st.role == Role::Headlock => {
                    return Context::Headlock { holder: st.from, held: st.to }
                }
                _ => {}
            }
        }
        Context::None
    }

    fn battle_piece(battle: &Battle, player: Player) -> Square {
        if player == battle.attacker {
            battle.a
        } else {
            battle.t
        }
    }

    fn color(s: &State, sq: Square) -> Player {
        s.piece(sq).map_or(s.side(), |p| p.color)
    }

    // ------------------------------------------------------------------
    // Who acts
    // ------------------------------------------------------------------

    #[inline]
    pub fn actor(&self, s: &State) -> Actor {
        // Asked before every ply: the turn's frame alone is read from the head.
        match s.turn_on_top() {
            Some(TurnStage::Deal | TurnStage::Draw) => Actor::Chance,
            Some(_) => Actor::Player(s.side()),
            None => self.frame_actor(s),
        }
    }

    /// Who acts at a frame above the turn's.
    #[inline(never)]
    fn frame_actor(&self, s: &State) -> Actor {
        Actor::Player(match s.top() {
            Frame::Turn(TurnStage::Deal | TurnStage::Draw) => return Actor::Chance,
            Frame::Turn(_) | Frame::FirstAid { .. } => s.side(),
            Frame::Round => self.next_choice(s).map_or(s.side(), |(_, p)| p),
            Frame::Battle(stage) => match (stage, s.battle()) {
                (BattleStage::GrabTarget, Some(b)) => Self::color(s, b.t),
                (BattleStage::GrabAttacker, Some(b)) => b.attacker,
                _ => s.side(),
            },
            Frame::Strike(st) => match st.stage {
                StrikeStage::Answer | StrikeStage::SpinAnswer | StrikeStage::LastChance => Self::color(s, st.to),
                _ => s.side(),
            },
            Frame::Window { owner, chain, .. } => Self::window_decider(owner, chain),
            Frame::FreeOffer { player, .. } => player,
        })
    }

    /// The player who acts, when a player does (not chance).
    fn decider(&self, s: &State) -> Player {
        self.actor(s).player().unwrap_or(s.side())
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
            if s.result() != GameResult::Ongoing {
                return;
            }
            let go_on = match s.turn_on_top() {
                Some(stage) => self.turn_steps(s, stage),
                None => self.frame_step(s, s.top()),
            };
            if !go_on {
                return;
            }
        }
    }

    /// One automatic step of a frame above the turn's; false when a
    /// decision is due. Out of line: most steps are the turn's, and the
    /// machine's loop is leaner without the others.
    #[inline(never)]
    fn frame_step(&self, s: &mut State, frame: Frame) -> bool {
        match frame {
            Frame::Turn(stage) => self.turn_steps(s, stage),
            Frame::Round => {
                if self.next_choice(s).is_some() {
                    return false;
                }
                Self::clear_action_flags(s);
                s.pop();
                true
            }
            Frame::Battle(stage) => self.battle_step(s, stage),
            Frame::FirstAid { square, card, count, opened, cancelled } => {
                if !opened {
                    s.set_top(Frame::FirstAid { square, card, count, opened: true, cancelled: false });
                    s.push(Frame::Window { owner: s.side(), chain: 0, via: None });
                } else {
                    s.pop();
                    if !cancelled && s.piece(square).is_some() {
                        self.heal(s, square, card, count, s.side());
                    }
                }
                true
            }
            Frame::Strike(st) => self.strike_step(s, st),
            Frame::Window { owner, chain, via } => {
                if self.window_open(s, owner, chain, via) {
                    return false;
                }
                self.resolve_window(s, owner, chain, via);
                true
            }
            Frame::FreeOffer { player, from, to } => {
                if self.free_offer_open(s, player, from, to) {
                    return false;
                }
                s.pop();
                true
            }
        }
    }
}

/// `(right bit, king square, rook square, squares between (a bit set),
/// king's target)`.
const CASTLES: [(u8, u8, u8, u64, u8); 4] =
    [(1, 4, 7, 0x60, 6), (2, 4, 0, 0x0E, 2), (4, 60, 63, 0x60 << 56, 62), (8, 60, 56, 0x0E << 56, 58)];

/// The castling rights a piece leaving or reaching `sq` takes away.
fn castling_mask(sq: Square) -> u8 {
    match sq.index() {
        4 => 3,
        7 => 1,
        0 => 2,
        60 => 12,
        63 => 4,
        56 => 8,
        _ => 0,
    }
}
