//! The legal moves of the actor who must decide, and their count.

use super::*;
use crate::lunch::board::threatened_from;
use crate::lunch::deck::MAX_TYPES;
use crate::lunch::pile::Pile;


impl Rules<'_> {
    pub(super) fn any_action(&self, s: &State) -> bool {
        // A card in hand can always be discarded (unless an option forbids it).
        if s.hand_size(s.side()) > 0 && !self.options.no_discard_in_check {
            return true;
        }
        let mut found = false;
        self.actions(s, &mut |_| found = true, false);
        found
    }

    pub fn legal_moves(&self, s: &State, out: &mut Vec<Move>) {
        out.clear();
        if s.result() != GameResult::Ongoing {
            return;
        }
        let mut emit = |m: Move| out.push(m);
        match s.top() {
            Frame::Turn(TurnStage::Action) => self.actions(s, &mut emit, false),
            Frame::Turn(TurnStage::Deal | TurnStage::Draw) => {
                for (card, _) in s.pile(Zone::DRAW).cards() {
                    emit(Move::Draw { card });
                }
            }
            Frame::Turn(TurnStage::Headlock) => {
                let me = s.side();
                for h in s.holds() {
                    if h.kind == HoldKind::Headlock
                        && s.piece(h.holder).is_some_and(|p| p.color == me && !p.has(flag::STUNNED))
                        && s.piece(h.held).is_some()
                    {
                        for card in self.hand_cards(s, me, |t| t.headlock_free) {
                            emit(Move::Free { to: h.held, card });
                        }
                    }
                }
                emit(Move::Pass);
            }
            Frame::Turn(_) | Frame::FirstAid { .. } => {}
            Frame::Round => {
                if let Some((sq, _)) = self.next_choice(s) {
                    let minor = s.piece(sq).is_some_and(|p| p.has(flag::CHOOSE_MINOR));
                    let kinds: &[Kind] = if minor {
                        &[Kind::Bishop, Kind::Knight]
                    } else {
                        &[Kind::Bishop, Kind::Knight, Kind::Queen, Kind::Rook]
                    };
                    for &kind in kinds {
                        emit(Move::Choose { square: sq, kind });
                    }
                }
            }
            Frame::Battle(stage) => {
                if let Some(b) = s.battle() {
                    let (grabber, victim) = if stage == BattleStage::GrabTarget { (b.t, b.a) } else { (b.a, b.t) };
                    if let Some(p) = s.piece(grabber) {
                        let headlock_ok = !s.in_hold(grabber) && !s.in_hold(victim);
                        for grab in self.hand_cards(s, p.color, |t| t.kind == CardKind::Grab) {
                            for with in self.hand_cards(s, p.color, |t| {
                                t.kind.is_free_attack() || (t.kind == CardKind::Headlock && headlock_ok)
                            }) {
                                emit(Move::Grab { grab, with });
                            }
                        }
                    }
                }
                emit(Move::Pass);
            }
            Frame::Strike(st) => {
                let player = Self::color(s, st.to);
                match st.stage {
                    StrikeStage::Answer => {
                        for card in self.hand_cards(s, player, |_| true) {
                            if self.answer_allowed(&st, card) {
                                emit(Move::Answer { card });
                            }
                        }
                    }
                    StrikeStage::SpinAnswer => {
                        for card in self.hand_cards(s, player, |t| matches!(t.kind, CardKind::Dodge | CardKind::Block))
                        {
                            emit(Move::Answer { card });
                        }
                    }
                    StrikeStage::LastChance => {
                        for card in self.hand_cards(s, player, |t| t.kind == CardKind::FirstAid) {
                            for count in 1..=s.hand(player).count(card) {
                                emit(Move::Aid { square: st.to, card, count });
                            }
                        }
                    }
                    _ => {}
                }
                emit(Move::Pass);
            }
            Frame::Window { owner, chain, via } => {
                let decider = Self::window_decider(owner, chain);
                for card in self.hand_cards(s, decider, |t| t.kind == CardKind::Humiliation) {
                    self.humiliators(s, owner, chain, via, |by| emit(Move::Humiliate { card, via: by }));
                }
                emit(Move::Pass);
            }
            Frame::FreeOffer { player, to, .. } => {
                for card in self.hand_cards(s, player, |t| t.kind.is_free_attack()) {
                    emit(Move::Free { to, card });
                }
                emit(Move::Pass);
            }
        }
    }

    /// The legal moves but the discards, which number up to hundreds and
    /// are searched last: true when discards may follow
    /// ([`Rules::discard_moves`]).
    pub fn moves_before_discards(&self, s: &State, out: &mut Vec<Move>) -> bool {
        if s.result() == GameResult::Ongoing && s.top() == Frame::Turn(TurnStage::Action) {
            out.clear();
            self.actions(s, &mut |m| out.push(m), true);
            return self.may_discard(s);
        }
        self.legal_moves(s, out);
        false
    }

    /// Appends the discards [`Rules::moves_before_discards`] left out.
    pub fn discard_moves(&self, s: &State, out: &mut Vec<Move>) {
        if s.result() == GameResult::Ongoing && s.top() == Frame::Turn(TurnStage::Action) && self.may_discard(s) {
            let mut picked = Discard::EMPTY;
            discards(s.hand(s.side()).counts(self.deck.len()), 0, &mut picked, &mut |m| out.push(m));
        }
    }

    pub(super) fn may_discard(&self, s: &State) -> bool {
        let me = s.side();
        s.hand_size(me) > 0
            && !(self.options.no_discard_in_check
                && s.board().pieces().any(|(sq, p)| {
                    p.color == me && p.kind == Kind::King && threatened_by(s.board(), sq, me.other())
                }))
    }

    /// The number of legal moves, with the discards counted rather than listed.
    pub fn count_moves(&self, s: &State, scratch: &mut Vec<Move>) -> u64 {
        if s.result() == GameResult::Ongoing {
            match s.top() {
                Frame::Turn(TurnStage::Action) => {
                    let mut n = 0u64;
                    self.actions(s, &mut |_| n += 1, true);
                    if self.may_discard(s) {
                        n += pile_discard_count(s.hand(s.side()));
                    }
                    return n;
                }
                Frame::Turn(TurnStage::Deal | TurnStage::Draw) => return s.pile(Zone::DRAW).cards().count() as u64,
                _ => {}
            }
        }
        self.legal_moves(s, scratch);
        scratch.len() as u64
    }

    /// Every action; with `skip_discards` the discards are left out (the
    /// caller counts them with [`discard_count`]).
    pub(super) fn actions(&self, s: &State, emit: &mut dyn FnMut(Move), skip_discards: bool) {
        let me = s.side();
        let board = s.board();
        // Movement.
        for (from, p) in board.pieces() {
            if p.color == me && s.can_act(from) {
                crate::lunch::board::for_each_step(board, from, |to| emit(Move::Step { from, to }));
            }
        }
        self.castles(s, emit);
        if s.hand_size(me) == 0 {
            return;
        }
        // Discard.
        if !skip_discards && self.may_discard(s) {
            let mut picked = Discard::EMPTY;
            discards(s.hand(me).counts(self.deck.len()), 0, &mut picked, emit);
        }
        // First Aid.
        for card in self.hand_cards(s, me, |t| t.kind == CardKind::FirstAid) {
            for (sq, p) in board.pieces() {
                if p.color == me && s.can_have_cards(sq) {
                    for count in 1..=s.hand(me).count(card) {
                        emit(Move::Aid { square: sq, card, count });
                    }
                }
            }
        }
        // Attack.
        let mut openings = [Card::new(0); super::super::deck::MAX_TYPES];
        let mut n_openings = 0;
        for card in self.hand_cards(s, me, |t| t.kind.is_opening()) {
            openings[n_openings] = card;
            n_openings += 1;
        }
        if n_openings > 0 {
            for (from, p) in board.pieces() {
                if p.color != me || !s.can_act(from) {
                    continue;
                }
                // The threatened enemy squares at once, in square order.
                let mut targets = threatened_from(board, from, p);
                while targets != 0 {
                    let to = Square::new(targets.trailing_zeros() as u8);
                    targets &= targets - 1;
                    for &card in &openings[..n_openings] {
                        let t = self.card(card);
                        if t.kind == CardKind::Choke && s.in_hold(to) {
                            continue;
                        }
                        if t.spinning && !self.options.no_spinning {
                            emit(Move::Attack { from, to, card, spin: Some(Spin::Clockwise) });
                            emit(Move::Attack { from, to, card, spin: Some(Spin::CounterClockwise) });
                        } else {
                            emit(Move::Attack { from, to, card, spin: None });
                        }
                    }
                }
            }
        }
        self.breaks(s, emit);
    }

    /// Whether the mover keeps a castling right: asked at every action,
    /// and once the rights are gone (most of a game) the castlings need no
    /// look (nor a call).
    #[inline]
    pub(super) fn may_castle(s: &State) -> bool {
        let mine = if s.side() == Player::First { 3 } else { 12 };
        s.castling() & mine != 0
    }

    /// The castlings (the King's two-square moves) of the mover.
    pub(super) fn castles(&self, s: &State, emit: &mut dyn FnMut(Move)) {
        if !Self::may_castle(s) {
            return;
        }
        let me = s.side();
        let occupied = s.board().occupancy().all;
        for (bit, king, rook, between, to) in CASTLES {
            let (king, rook) = (Square::new(king), Square::new(rook));
            // The cheap tests first: the rights, then the squares between.
            if s.castling() & bit != 0
                && occupied & between == 0
                && s.piece(king).is_some_and(|p| p.color == me && p.kind == Kind::King)
                && s.piece(rook).is_some_and(|p| p.color == me && p.kind == Kind::Rook)
                && s.can_act(king)
                && s.can_act(rook)
            {
                emit(Move::Step { from: king, to: Square::new(to) });
            }
        }
    }

    /// The actions that free one of the mover's pieces from a hold.
    pub(super) fn breaks(&self, s: &State, emit: &mut dyn FnMut(Move)) {
        let me = s.side();
        for h in s.holds() {
            if !s.piece(h.held).is_some_and(|p| p.color == me && !p.has(flag::STUNNED)) {
                continue;
            }
            for card in self.hand_cards(s, me, |t| match h.kind {
                HoldKind::Choke => {
                    matches!(t.kind, CardKind::Freedom | CardKind::Stomp | CardKind::Humiliation) || t.breaks_choke
                }
                HoldKind::Headlock => t.kind == CardKind::Freedom,
            }) {
                emit(Move::Break { square: h.held, card });
            }
        }
    }
}

/// How many multisets of 1 to 5 cards `hand` holds (what [`discards`] lists).
pub(super) fn discard_count(hand: &Held) -> u64 {
    multisets_up_to(hand.counts(), 5) - 1
}

/// [`discard_count`] of a pile, the types it holds listed only when it has
/// more than 5 cards: a hand of 5 or fewer (as in play) takes each type 0
/// to all its cards times, and random playouts count the discards at every
/// action but list them only for a drawn discard.
pub(super) fn pile_discard_count(pile: &Pile) -> u64 {
    if pile.total() > 5 {
        return discard_count(&Held::of_pile(pile));
    }
    pile.cards().map(|(_, n)| u64::from(n) + 1).product::<u64>() - 1
}

/// The card types a hand holds, with their counts, in deck order: the
/// discards look only at these (a hand holds a few of a deck's types).
pub(super) struct Held {
    types: [u8; MAX_TYPES],
    counts: [u8; MAX_TYPES],
    len: usize,
}

impl Held {
    pub(super) fn of_pile(pile: &Pile) -> Held {
        let mut held = Held { types: [0; MAX_TYPES], counts: [0; MAX_TYPES], len: 0 };
        for (card, n) in pile.cards() {
            held.types[held.len] = card.index() as u8;
            held.counts[held.len] = n;
            held.len += 1;
        }
        held
    }

    /// The types of a hand given as counts per type.
    #[cfg(test)]
    fn of(hand: &[u8]) -> Held {
        let mut held = Held { types: [0; MAX_TYPES], counts: [0; MAX_TYPES], len: 0 };
        for (card, &n) in hand.iter().enumerate().take(MAX_TYPES) {
            if n > 0 {
                held.types[held.len] = card as u8;
                held.counts[held.len] = n;
                held.len += 1;
            }
        }
        held
    }

    fn counts(&self) -> &[u8] {
        &self.counts[..self.len]
    }
}

/// How many multisets of at most `most` cards `hand` (counts per type)
/// holds, the empty one included.
fn multisets_up_to(hand: &[u8], most: usize) -> u64 {
    // When all the cards fit (a hand of 5 at most, as in play), each type
    // is taken 0 to all its cards times, independently of the others.
    if hand.iter().map(|&n| usize::from(n)).sum::<usize>() <= most {
        return hand.iter().map(|&n| u64::from(n) + 1).product();
    }
    // ways[k]: multisets of exactly k cards from the types seen so far.
    let mut ways = [0u64; 6];
    ways[0] = 1;
    for &n in hand.iter().filter(|&&n| n > 0) {
        let mut next = [0u64; 6];
        for (k, &w) in ways.iter().enumerate().take(most + 1) {
            for take in 0..=(n as usize).min(most - k) {
                next[k + take] += w;
            }
        }
        ways = next;
    }
    ways[..=most].iter().sum()
}

/// The `index`th multiset [`discards`] lists for `hand` (`None` at or past
/// [`discard_count`]), found by counting the multisets under each choice
/// instead of listing them.
pub(super) fn nth_discard(hand: &Held, mut index: u64) -> Option<Discard> {
    let len = hand.len;
    let mut held = Held { types: hand.types, counts: hand.counts, len };
    let left = &mut held.counts[..len];
    // A hand that fits a discard whole (as in play) counts the multisets
    // after a choice as a product: `later[t]`, the ways to take any of the
    // types after `t`, which no choice before them changes.
    let fits = left.iter().map(|&n| usize::from(n)).sum::<usize>() <= 5;
    let mut later = [1u64; MAX_TYPES + 1];
    if fits {
        for t in (0..len).rev() {
            later[t] = later[t + 1] * (u64::from(left[t]) + 1);
        }
    }
    let mut picked = Discard::EMPTY;
    let mut from = 0;
    loop {
        if !picked.cards().is_empty() {
            if index == 0 {
                return Some(picked);
            }
            index -= 1;
        }
        // The multisets that go on with a card of `card`'s type, then any
        // of that type or later: as many as `discards` lists below it.
        let room = 5usize.checked_sub(picked.cards().len() + 1)?;
        let mut next = None;
        for card in from..left.len() {
            if left[card] == 0 {
                continue;
            }
            left[card] -= 1;
            let below = if fits {
                (u64::from(left[card]) + 1) * later[card + 1]
            } else {
                multisets_up_to(&left[card..], room)
            };
            if index < below {
                next = Some(card);
                break;
            }
            index -= below;
            left[card] += 1;
        }
        from = next?;
        picked.push(Card::new(held.types[from]));
    }
}

/// Every multiset of 1 to 5 cards from `hand` (counts per type), once each:
/// `picked` so far, then cards of type `from` or later.
pub(super) fn discards(hand: &[u8], from: usize, picked: &mut Discard, emit: &mut dyn FnMut(Move)) {
    match picked.cards().len() {
        0 => {}
        5 => return emit(Move::Discard(*picked)),
        _ => emit(Move::Discard(*picked)),
    }
    for (index, &held) in hand.iter().enumerate().skip(from) {
        let card = Card::new(index as u8);
        let already = picked.cards().iter().filter(|&&c| c == card).count();
        if (held as usize) > already && picked.push(card) {
            discards(hand, index, picked, emit);
            picked.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lunch::Lunch;
    use menagerie_core::{Game, VariantSpec};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use std::collections::HashSet;

    /// Random playouts draw a discard by index: each names the multiset
    /// [`discards`] lists there, in hands with up to seven cards of a type.
    #[test]
    fn each_discard_index_names_the_listed_discard() {
        let mut rng = StdRng::seed_from_u64(7);
        for _ in 0..300 {
            let types = rng.random_range(1..=12);
            let hand: Vec<u8> =
                (0..types).map(|_| if rng.random_bool(0.4) { 0 } else { rng.random_range(1..=7) }).collect();
            let mut listed = Vec::new();
            let mut picked = Discard::EMPTY;
            discards(&hand, 0, &mut picked, &mut |m| listed.push(m));
            let held = Held::of(&hand);
            assert_eq!(listed.len() as u64, discard_count(&held), "{hand:?}");
            let mut pile = Pile::EMPTY;
            for (card, &n) in hand.iter().enumerate() {
                for _ in 0..n {
                    pile.add(Card::new(card as u8));
                }
            }
            assert_eq!(pile_discard_count(&pile), discard_count(&held), "{hand:?} as a pile");
            for (index, &listed) in listed.iter().enumerate() {
                assert_eq!(nth_discard(&held, index as u64).map(Move::Discard), Some(listed), "{hand:?} #{index}");
            }
            assert_eq!(nth_discard(&held, listed.len() as u64), None, "{hand:?}: one past the last");
        }
    }

    /// At the action stage a drawn move is the legal move at a uniformly
    /// drawn index of one list: the actions, then the discards.
    #[test]
    fn a_drawn_action_is_the_listed_move_at_a_uniform_index() {
        let mut discards_drawn = 0;
        for name in ["lunch", "lunch:no-discard-in-check"] {
            let variant = Lunch::parse_variant(&VariantSpec::parse(name).unwrap()).unwrap();
            let mut rng = StdRng::seed_from_u64(11);
            let (mut moves, mut listed) = (Vec::new(), Vec::new());
            for _ in 0..12 {
                let mut game = Lunch::start(&variant, 0);
                for _ in 0..600 {
                    if game.outcome().is_none() && game.state.top() == Frame::Turn(TurnStage::Action) {
                        let rules = game.rules();
                        game.legal_moves(&mut moves);
                        listed.clear();
                        rules.actions(&game.state, &mut |m| listed.push(m), true);
                        rules.discard_moves(&game.state, &mut listed);
                        assert_eq!(listed.len(), moves.len(), "{}", game.to_text());
                        let as_set = |list: &[Move]| list.iter().copied().collect::<HashSet<Move>>();
                        assert_eq!(as_set(&listed), as_set(&moves), "{}", game.to_text());
                        let seed = rng.random::<u64>();
                        let index = StdRng::seed_from_u64(seed).random_range(0..listed.len() as u64) as usize;
                        let drawn = rules.random_action(&game.state, &mut StdRng::seed_from_u64(seed));
                        assert_eq!(drawn, Some(listed[index]), "{}", game.to_text());
                        discards_drawn += usize::from(matches!(listed[index], Move::Discard(_)));
                    }
                    let Some(mv) = game.random_move(&mut rng, &mut moves) else { break };
                    game.play(mv);
                }
            }
        }
        assert!(discards_drawn > 50, "only {discards_drawn} discards drawn");
    }
}
