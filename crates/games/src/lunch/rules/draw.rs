//! A uniformly drawn action without listing the actions: random playouts
//! draw one at every turn, and listing every movement, First Aid and
//! attack to keep one was most of a playout's time. The actions are
//! counted by groups (a piece's steps, a piece's attacks, a First Aid
//! card's moves), one index is drawn among them and the discards, and only
//! the move at that index is made, in the order of [`Rules::actions`] then
//! [`Rules::discard_moves`]: the same move a full list would give at that
//! index.

use super::movegen::{nth_discard, pile_discard_count, Held};
use super::*;
use crate::lunch::board::{
    pawn_moves, squares, steps_and_threats, threatened_from, Board,
};
use crate::lunch::deck::CardSet;
use rand::Rng;

/// The squares of the pieces that play a part in counting the actions.
struct Pieces {
    /// The mover's pieces that can move and attack ([`State::can_act`]).
    acting: u64,
    /// The mover's pieces that may have cards played for them
    /// ([`State::can_have_cards`]).
    with_cards: u64,
    /// The squares of pieces in a hold ([`State::in_hold`]): no Choke on them.
    held: u64,
}

impl Pieces {
    fn of(s: &State) -> Pieces {
        let me = s.side();
        let own = s.board().occupancy().colour[me.index()];
        // Stunned pieces are marked ones (not plain).
        let stunned = squares(s.board().marked() & own)
            .filter(|&sq| s.piece(sq).is_some_and(|p| p.has(flag::STUNNED)))
            .fold(0u64, |set, sq| set | bit(sq));
        if s.holds().is_empty() {
            let free = own & !stunned;
            return Pieces { acting: free, with_cards: free, held: 0 };
        }
        let pick = |keep: &dyn Fn(Square) -> bool| squares(own).filter(|&sq| keep(sq)).fold(0, |set, sq| set | bit(sq));
        let held = s.holds().iter().fold(0u64, |set, h| set | bit(h.holder) | bit(h.held));
        Pieces { acting: pick(&|sq| s.can_act(sq)), with_cards: pick(&|sq| s.can_have_cards(sq)), held }
    }
}

fn bit(sq: Square) -> u64 {
    1 << sq.index()
}

/// The square of the `n`th set bit of `set` (from a1), if it has so many.
fn nth_square(set: u64, n: u64) -> Option<Square> {
    squares(set).nth(usize::try_from(n).ok()?)
}

/// The opening cards in the mover's hand, and how many attacks each makes
/// on one target: 2 for a spinning card (one for each direction), else 1.
struct Openings {
    cards: CardSet,
    spinning: CardSet,
    /// The Choke cards, which a piece in a hold cannot take.
    chokes: CardSet,
    /// Attacks on one target with every card, and with the Choke cards alone.
    per_target: u64,
    choke_ways: u64,
}

impl Openings {
    /// No opening cards (an empty hand).
    const NONE: Openings = Openings {
        cards: CardSet::EMPTY,
        spinning: CardSet::EMPTY,
        chokes: CardSet::EMPTY,
        per_target: 0,
        choke_ways: 0,
    };

    fn of(rules: &Rules, s: &State) -> Openings {
        let deck = rules.deck;
        let cards = s.hand(s.side()).held().and(deck.openings());
        let spinning = if rules.options.no_spinning { CardSet::EMPTY } else { cards.and(deck.spinning()) };
        let chokes = cards.and(deck.of_kind(CardKind::Choke));
        let ways = |set: CardSet| u64::from(set.len() + set.and(spinning).len());
        Openings { cards, spinning, chokes, per_target: ways(cards), choke_ways: ways(chokes) }
    }

    /// The attacks on the targets of `targets`, `held` those in a hold.
    fn count(&self, targets: u64, held: u64) -> u64 {
        u64::from(targets.count_ones()) * self.per_target - u64::from((targets & held).count_ones()) * self.choke_ways
    }

    fn on(&self, target_held: bool) -> u64 {
        if target_held {
            self.per_target - self.choke_ways
        } else {
            self.per_target
        }
    }

    /// The `index`th attack from `from` on `to`: by card in deck order,
    /// a spinning card clockwise first.
    fn nth(&self, from: Square, to: Square, target_held: bool, mut index: u64) -> Option<Move> {
        for card in self.cards.iter() {
            if target_held && self.chokes.contains(card) {
                continue;
            }
            let spins = self.spinning.contains(card);
            let ways = 1 + u64::from(spins);
            if index < ways {
                let spin = match (spins, index) {
                    (false, _) => None,
                    (true, 0) => Some(Spin::Clockwise),
                    (true, _) => Some(Spin::CounterClockwise),
                };
                return Some(Move::Attack { from, to, card, spin });
            }
            index -= ways;
        }
        None
    }
}

impl Rules<'_> {
    /// A uniformly drawn move of the action stage (`None` elsewhere, or if
    /// there is none), made without listing the others (see the module).
    pub fn random_action<R: Rng + ?Sized>(&self, s: &State, rng: &mut R) -> Option<Move> {
        if s.result() != GameResult::Ongoing || s.turn_on_top() != Some(TurnStage::Action) {
            return None;
        }
        let pieces = Pieces::of(s);
        let openings = if s.hand_size(s.side()) > 0 { Openings::of(self, s) } else { Openings::NONE };
        let tally = self.count_actions(s, &pieces, &openings);
        let actions = tally.total();
        let discards = if self.may_discard(s) { pile_discard_count(s.hand(s.side())) } else { 0 };
        let total = actions + discards;
        if total == 0 {
            return None;
        }
        let index = rng.random_range(0..total);
        match index.checked_sub(actions) {
            None => self.nth_action(s, &pieces, &openings, &tally, index),
            Some(discard) => nth_discard(&Held::of_pile(s.hand(s.side())), discard).map(Move::Discard),
        }
    }

    /// How many moves of each group [`Rules::actions`] lists (the discards
    /// are left out).
    fn count_actions(&self, s: &State, pieces: &Pieces, openings: &Openings) -> Tally {
        let board = s.board();
        let mut tally = Tally::default();
        // The Pawns all at once; the lines of each other piece are walked
        // once for its steps and its targets.
        let pawns = pieces.acting & board.pawns();
        let moves = pawn_moves(board, pawns, s.side());
        tally.steps += u64::from(moves.singles.count_ones() + moves.doubles.count_ones());
        (tally.pawn_singles, tally.pawn_doubles) = match s.side() {
            Player::First => (moves.singles >> 8, moves.doubles >> 16),
            Player::Second => (moves.singles << 8, moves.doubles << 16),
        };
        tally.attacks += moves.threats.iter().map(|&targets| openings.count(targets, pieces.held)).sum::<u64>();
        for (from, p) in board.pieces_in(pieces.acting & !pawns) {
            let (steps, targets) = steps_and_threats(board, from, p);
            let (steps, attacks) = (steps.count_ones(), openings.count(targets, pieces.held));
            tally.steps += u64::from(steps);
            tally.attacks += attacks;
            tally.steps_at[from.index()] = steps as u8;
            tally.attacks_at[from.index()] = attacks as u16;
        }
        if Self::may_castle(s) {
            self.castles(s, &mut |_| tally.castles += 1);
        }
        if s.hand_size(s.side()) == 0 {
            return tally;
        }
        tally.aids = self.first_aid_cards(s) * u64::from(pieces.with_cards.count_ones());
        self.breaks(s, &mut |_| tally.breaks += 1);
        tally
    }

    /// The First Aid cards in the mover's hand (each count is one move per
    /// piece: a group of that many cards).
    fn first_aid_cards(&self, s: &State) -> u64 {
        let hand = s.hand(s.side());
        self.first_aids(s).iter().map(|card| u64::from(hand.count(card))).sum()
    }

    /// The First Aid types in the mover's hand.
    fn first_aids(&self, s: &State) -> CardSet {
        s.hand(s.side()).held().and(self.deck.of_kind(CardKind::FirstAid))
    }

    /// The `index`th move [`Rules::actions`] lists without the discards:
    /// its group from the tally, then the move in that group.
    fn nth_action(
        &self,
        s: &State,
        pieces: &Pieces,
        openings: &Openings,
        tally: &Tally,
        mut index: u64,
    ) -> Option<Move> {
        if index < tally.steps {
            return nth_piece_step(s.board(), pieces.acting, tally, index);
        }
        index -= tally.steps;
        if index < tally.castles {
            return nth_emitted(index, |emit| self.castles(s, emit));
        }
        index -= tally.castles;
        if index < tally.aids {
            return self.nth_aid(s, pieces.with_cards, index);
        }
        index -= tally.aids;
        if index < tally.attacks {
            return self.nth_attack(s.board(), s.side(), pieces, openings, tally, index);
        }
        index -= tally.attacks;
        nth_emitted(index, |emit| self.breaks(s, emit))
    }

    /// The `index`th First Aid action: by card, then by piece, then by the
    /// size of the group.
    fn nth_aid(&self, s: &State, targets: u64, mut index: u64) -> Option<Move> {
        let me = s.side();
        let pieces = u64::from(targets.count_ones());
        for card in self.first_aids(s).iter() {
            let sizes = u64::from(s.hand(me).count(card));
            if index < sizes * pieces {
                let square = nth_square(targets, index / sizes)?;
                return Some(Move::Aid { square, card, count: (index % sizes + 1) as u8 });
            }
            index -= sizes * pieces;
        }
        None
    }

    /// The `index`th attack: by piece, then by target, then by card.
    fn nth_attack(
        &self,
        board: &Board,
        me: Player,
        pieces: &Pieces,
        openings: &Openings,
        tally: &Tally,
        mut index: u64,
    ) -> Option<Move> {
        // A Pawn's attacks are counted again (a table lookup), the other
        // pieces' come from the tally: only the drawn attack's piece is
        // looked at.
        let pawn = Piece::new(Kind::Pawn, me);
        for from in squares(pieces.acting) {
            let here = if board.pawns() & bit(from) != 0 {
                openings.count(threatened_from(board, from, pawn), pieces.held)
            } else {
                u64::from(tally.attacks_at[from.index()])
            };
            if index >= here {
                index -= here;
                continue;
            }
            let p = board.get(from)?;
            for to in squares(threatened_from(board, from, p)) {
                let held = pieces.held & bit(to) != 0;
                if index < openings.on(held) {
                    return openings.nth(from, to, held, index);
                }
                index -= openings.on(held);
            }
        }
        None
    }
}

/// The actions of each group, in the order [`Rules::actions`] lists them.
struct Tally {
    steps: u64,
    castles: u64,
    aids: u64,
    attacks: u64,
    breaks: u64,
    /// The steps and the attacks of each acting piece but the Pawns (whose
    /// moves are counted all at once, and cheap to count again), by
    /// square: the drawn move's piece is found without walking the lines
    /// of the pieces before it again.
    steps_at: [u8; 64],
    attacks_at: [u16; 64],
    /// The squares of the Pawns that can step once, and of those that can
    /// step twice (from their moves counted all at once).
    pawn_singles: u64,
    pawn_doubles: u64,
}

impl Default for Tally {
    fn default() -> Tally {
        Tally {
            steps: 0,
            castles: 0,
            aids: 0,
            attacks: 0,
            breaks: 0,
            steps_at: [0; 64],
            attacks_at: [0; 64],
            pawn_singles: 0,
            pawn_doubles: 0,
        }
    }
}

impl Tally {
    fn total(&self) -> u64 {
        self.steps + self.castles + self.aids + self.attacks + self.breaks
    }
}

/// The `index`th step of the pieces on `acting`: by piece, then in the
/// order [`crate::lunch::board::for_each_step`] lists a piece's steps.
fn nth_piece_step(board: &Board, acting: u64, tally: &Tally, mut index: u64) -> Option<Move> {
    // The pieces' step counts come from the tally, a Pawn's from the
    // Pawns' steps counted at once: only the drawn step's piece is looked at.
    for from in squares(acting) {
        let here = if board.pawns() & bit(from) != 0 {
            (tally.pawn_singles >> from.index() & 1) + (tally.pawn_doubles >> from.index() & 1)
        } else {
            u64::from(tally.steps_at[from.index()])
        };
        if index < here {
            let p = board.get(from)?;
            return crate::lunch::board::nth_step(board, from, p, index as u32).map(|to| Move::Step { from, to });
        }
        index -= here;
    }
    None
}

/// The `index`th move a listing function emits.
fn nth_emitted(mut index: u64, list: impl FnOnce(&mut dyn FnMut(Move))) -> Option<Move> {
    let mut found = None;
    list(&mut |m| {
        if index == 0 && found.is_none() {
            found = Some(m);
        }
        index = index.wrapping_sub(1);
    });
    found
}
