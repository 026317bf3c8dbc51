//! The rules as a machine: [`Rules::advance`] plays every automatic step
//! until a player must decide, [`Rules::legal_moves`] lists that player's
//! choices and [`Rules::apply`] plays one of them.
//!
//! Every optional decision (a Humiliation window, an answer, a free attack,
//! a last-chance First Aid, a Grab) is offered whenever the *public* state
//! allows it (the piece may have cards, its player holds some card, and not
//! every card that could be played is in the discard pile), and `pass` is
//! always among its moves, so that a window never reveals a hand.

use super::board::{
    file_of, flag, last_rank, rank_of, ring, square_at, threat, threatened_by, Kind, Piece, Square, NO_SQUARE,
};
use super::deck::{CardKind, CardType, Deck, MAX_TYPES};
use super::moves::Move;
use super::state::{
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
    /// Start-of-turn Headlock attacks: no windows.
    None,
}

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
                    if self.window_open(s, owner, chain) {
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

    /// One automatic turn step; false when a decision is due.
    fn turn_step(&self, s: &mut State, stage: TurnStage) -> bool {
        match stage {
            TurnStage::Start => {
                self.tick_chokes(s);
                *s.top_mut() = Frame::Turn(TurnStage::Headlock);
            }
            TurnStage::Headlock => {
                if self.headlock_open(s) {
                    return false;
                }
                *s.top_mut() = Frame::Turn(TurnStage::StartRound);
            }
            TurnStage::StartRound | TurnStage::EndRound => {
                Self::return_weapons(s);
                *s.top_mut() = Frame::Turn(if stage == TurnStage::StartRound {
                    TurnStage::StartCheck
                } else {
                    TurnStage::EndCheck
                });
                self.round(s);
            }
            TurnStage::StartCheck => {
                if Self::win_check(s) {
                    return true;
                }
                *s.top_mut() = Frame::Turn(TurnStage::Action);
            }
            TurnStage::Action => {
                if self.any_action(s) {
                    return false;
                }
                *s.top_mut() = Frame::Turn(TurnStage::EndRound);
            }
            TurnStage::EndCheck => {
                if Self::win_check(s) {
                    return true;
                }
                self.end_turn(s);
            }
        }
        true
    }

    fn tick_chokes(&self, s: &mut State) {
        let mut i = 0;
        while i < s.holds_len as usize {
            let hold = s.holds[i];
            i += 1;
            if hold.kind != HoldKind::Choke || s.piece(hold.holder).is_none_or(|p| p.color != s.side) {
                continue;
            }
            let Some(mut victim) = s.piece(hold.held) else { continue };
            victim.hp -= 1;
            Self::mark_changed(&mut victim, s.side);
            s.eventful = true;
            if victim.hp > 0 {
                s.board[hold.held as usize] = Some(victim);
            } else {
                // Died of the Choke: the choker moves onto its square.
                s.board[hold.held as usize] = None;
                s.remove_hold_with(hold.held);
                Self::move_piece(s, hold.holder, hold.held);
                i = 0;
            }
        }
    }

    fn mark_changed(piece: &mut Piece, by: Player) {
        piece.flags |= flag::CHANGED;
        if by == Player::Second {
            piece.flags |= flag::CHANGED_BY_BLACK;
        } else {
            piece.flags &= !flag::CHANGED_BY_BLACK;
        }
    }

    /// Moves a piece (marks it as having entered its square; castling
    /// rights of a moved King or Rook are lost).
    fn move_piece(s: &mut State, from: Square, to: Square) {
        if from == to || from >= 64 || to >= 64 {
            return;
        }
        let Some(mut piece) = s.piece(from) else { return };
        piece.flags |= flag::ENTERED;
        s.board[from as usize] = None;
        s.board[to as usize] = Some(piece);
        s.castling &= !(castling_mask(from) | castling_mask(to));
        for h in s.holds[..s.holds_len as usize].iter_mut() {
            if h.holder == from {
                h.holder = to;
            }
            if h.held == from {
                h.held = to;
            }
        }
    }

    fn end_turn(&self, s: &mut State) {
        let mover = s.side;
        for player in [mover, mover.other()] {
            self.draw_to_five(s, player);
        }
        for piece in s.board.iter_mut().flatten() {
            if piece.color == mover {
                piece.flags &= !flag::STUNNED;
            }
        }
        s.turns = s.turns.saturating_add(1);
        s.quiet = if s.eventful { 0 } else { s.quiet.saturating_add(1) };
        s.eventful = false;
        s.side = mover.other();
        *s.top_mut() = Frame::Turn(TurnStage::Start);
        if s.quiet >= 100 {
            s.result = GameResult::Quiet;
        } else if s.turns >= 1000 {
            s.result = GameResult::TurnLimit;
        }
    }

    pub fn draw_to_five(&self, s: &mut State, player: Player) {
        while s.hand_size(player) < 5 {
            if s.draw_len == 0 {
                Self::reshuffle(s);
                if s.draw_len == 0 {
                    return;
                }
            }
            s.draw_len -= 1;
            let card = s.draw[s.draw_len as usize];
            s.hands[player.index()][card as usize] += 1;
        }
    }

    /// The discard pile (in deck order) shuffled into a new draw pile.
    fn reshuffle(s: &mut State) {
        let mut len = 0usize;
        for card in 0..MAX_TYPES {
            for _ in 0..s.discard[card] {
                if len < s.draw.len() {
                    s.draw[len] = card as u8;
                    len += 1;
                }
            }
            s.discard[card] = 0;
        }
        for i in (1..len).rev() {
            let j = (s.next_random() % (i as u64 + 1)) as usize;
            s.draw.swap(i, j);
        }
        s.draw_len = len as u8;
    }

    /// Sets the game result when a side has no King.
    fn win_check(s: &mut State) -> bool {
        let white = s.kings(Player::First) > 0;
        let black = s.kings(Player::Second) > 0;
        s.result = match (white, black) {
            (true, true) => return false,
            (false, false) => GameResult::NoKings,
            (true, false) => GameResult::Won(Player::First),
            (false, true) => GameResult::Won(Player::Second),
        };
        true
    }

    /// Rounds every piece's HP to a type; pushes a `Round` frame when
    /// Knight-or-Bishop or promotion choices are due.
    fn round(&self, s: &mut State) {
        let mut pending = false;
        for sq in 0..64u8 {
            let Some(mut piece) = s.piece(sq) else { continue };
            let Some(new) = Kind::round_down(piece.hp, self.options.princess) else { continue };
            if new == Kind::Knight {
                if piece.kind != Kind::Knight && piece.kind != Kind::Bishop {
                    piece.kind = Kind::Knight;
                }
                if piece.has(flag::CHANGED) {
                    piece.flags |= flag::CHOOSE_MINOR;
                    pending = true;
                }
            } else {
                piece.kind = new;
            }
            piece.hp = piece.kind.value();
            if piece.kind == Kind::Pawn && piece.has(flag::ENTERED) && rank_of(sq) == last_rank(piece.color) {
                piece.flags |= flag::PROMOTE;
                pending = true;
            }
            s.board[sq as usize] = Some(piece);
        }
        Self::update_castling(s);
        if pending {
            s.push(Frame::Round);
        } else {
            Self::clear_action_flags(s);
        }
    }

    fn clear_action_flags(s: &mut State) {
        for piece in s.board.iter_mut().flatten() {
            piece.flags &= !flag::ACTION;
        }
    }

    fn update_castling(s: &mut State) {
        for (bit, king, rook, color) in [
            (1u8, 4u8, 7u8, Player::First),
            (2, 4, 0, Player::First),
            (4, 60, 63, Player::Second),
            (8, 60, 56, Player::Second),
        ] {
            let ok = s.piece(king).is_some_and(|p| p.kind == Kind::King && p.color == color)
                && s.piece(rook).is_some_and(|p| p.kind == Kind::Rook && p.color == color);
            if !ok {
                s.castling &= !bit;
            }
        }
    }

    /// The next pending choice after a rounding: the acting player's first,
    /// then the other's, each in square order.
    pub fn next_choice(&self, s: &State) -> Option<(Square, Player)> {
        for player in [s.side, s.side.other()] {
            for sq in 0..64u8 {
                let Some(p) = s.piece(sq) else { continue };
                let chooser = if p.has(flag::CHOOSE_MINOR) {
                    if p.has(flag::CHANGED_BY_BLACK) {
                        Player::Second
                    } else {
                        Player::First
                    }
                } else if p.has(flag::PROMOTE) {
                    p.color
                } else {
                    continue;
                };
                if chooser == player {
                    return Some((sq, player));
                }
            }
        }
        None
    }

    fn battle_step(&self, s: &mut State, stage: BattleStage) -> bool {
        let b = s.battle;
        match stage {
            BattleStage::AfterOpening => {
                let alive = s.piece(b.a).is_some() && s.piece(b.t).is_some();
                *s.top_mut() = Frame::Battle(if b.blocked && alive && !b.void {
                    BattleStage::GrabTarget
                } else {
                    BattleStage::End
                });
            }
            BattleStage::GrabTarget => {
                if self.grab_open(s, b.t, b.a) {
                    return false;
                }
                *s.top_mut() = Frame::Battle(BattleStage::GrabAttacker);
            }
            BattleStage::GrabAttacker => {
                if self.grab_open(s, b.a, b.t) {
                    return false;
                }
                *s.top_mut() = Frame::Battle(BattleStage::End);
            }
            BattleStage::End => {
                if b.void {
                    if s.piece(b.a_from).is_none() {
                        Self::move_piece(s, b.a, b.a_from);
                    }
                } else if b.result != NO_SQUARE && s.piece(b.a).is_some() && s.piece(b.result).is_none() {
                    Self::move_piece(s, b.a, b.result);
                }
                s.battle = Battle::NONE;
                s.pop();
            }
        }
        true
    }

    fn grab_open(&self, s: &State, grabber: Square, victim: Square) -> bool {
        let Some(p) = s.piece(grabber) else { return false };
        s.piece(victim).is_some()
            && s.can_act(grabber)
            && s.can_have_cards(grabber)
            && s.hand_size(p.color) >= 2
            && self.public_left(s, |t| t.kind == CardKind::Grab)
            && self.public_left(s, |t| t.kind.is_free_attack() || t.kind == CardKind::Headlock)
    }

    fn strike_has_windows(st: &Strike) -> bool {
        st.role != Role::Headlock && !st.spun
    }

    /// One automatic step of a strike; false when a decision is due.
    fn strike_step(&self, s: &mut State, mut st: Strike) -> bool {
        match st.stage {
            StrikeStage::Window => {
                st.stage = StrikeStage::AfterWindow;
                st.cancelled = false;
                *s.top_mut() = Frame::Strike(st);
                if Self::strike_has_windows(&st) {
                    s.push(Frame::Window { owner: st.player, chain: 0, via: NO_SQUARE });
                }
            }
            StrikeStage::AfterWindow => {
                if st.cancelled {
                    s.pop();
                    return true;
                }
                st.stage = StrikeStage::Answer;
                *s.top_mut() = Frame::Strike(st);
            }
            StrikeStage::Answer => {
                if self.answer_open(s, &st) {
                    return false;
                }
                st.stage = StrikeStage::LastChance;
                *s.top_mut() = Frame::Strike(st);
            }
            StrikeStage::AnswerWindow => {
                let answer = st.answer;
                st.answer = NO_CARD;
                if st.cancelled || answer as usize >= self.deck.len() {
                    st.stage = if self.kind(st.card) == CardKind::BigCombo && st.answers < 2 {
                        StrikeStage::Answer
                    } else {
                        StrikeStage::LastChance
                    };
                    *s.top_mut() = Frame::Strike(st);
                } else {
                    self.answer_takes_effect(s, st, answer);
                }
            }
            StrikeStage::Spin => {
                let center_knight = s.piece(st.from).is_some_and(|p| p.kind == Kind::Knight);
                let squares = ring(st.from, center_knight);
                while st.ring_left > 0 {
                    st.ring_left -= 1;
                    st.ring_pos = ((st.ring_pos as i8 + st.spin).rem_euclid(8)) as u8;
                    if let Some(sq) = squares[st.ring_pos as usize] {
                        if s.piece(sq).is_some() && sq != st.from {
                            st.to = sq;
                            st.stage = StrikeStage::SpinAnswer;
                            *s.top_mut() = Frame::Strike(st);
                            return true;
                        }
                    }
                }
                // Every piece round the attacker dodged: it is spent.
                s.pop();
            }
            StrikeStage::SpinAnswer => {
                if s.can_have_cards(st.to)
                    && self.offered(s, Self::color(s, st.to), |t| matches!(t.kind, CardKind::Dodge | CardKind::Block))
                {
                    return false;
                }
                st.stage = StrikeStage::LastChance;
                *s.top_mut() = Frame::Strike(st);
            }
            StrikeStage::LastChance => {
                if self.last_chance_open(s, &st) {
                    return false;
                }
                st.stage = StrikeStage::Hit;
                *s.top_mut() = Frame::Strike(st);
            }
            StrikeStage::AidWindow => {
                if !st.cancelled && s.piece(st.to).is_some() && (st.aid_card as usize) < self.deck.len() {
                    let by = Self::color(s, st.to);
                    self.heal(s, st.to, st.aid_card, st.aid_count, by);
                }
                st.stage = StrikeStage::Hit;
                *s.top_mut() = Frame::Strike(st);
            }
            StrikeStage::Hit => {
                s.pop();
                self.hit(s, st);
            }
        }
        true
    }

    fn answer_kinds(&self, st: &Strike) -> [bool; 4] {
        // [dodge, block, disarm, freedom]
        match st.role {
            Role::Opening => match self.kind(st.card) {
                CardKind::Choke => [false, false, false, true],
                CardKind::Weapon => [true, true, true, false],
                _ => [true, true, false, false],
            },
            Role::Grab | Role::Headlock => [false, false, false, true],
            Role::Free => [false; 4],
        }
    }

    fn answer_allowed(&self, st: &Strike, card: u8) -> bool {
        let k = self.answer_kinds(st);
        match self.kind(card) {
            CardKind::Dodge => k[0],
            CardKind::Block => k[1],
            CardKind::Disarm => k[2],
            CardKind::Freedom => k[3],
            _ => false,
        }
    }

    fn answer_open(&self, s: &State, st: &Strike) -> bool {
        let k = self.answer_kinds(st);
        if !k.iter().any(|&b| b) || s.piece(st.to).is_none() {
            return false;
        }
        if self.kind(st.card) == CardKind::BigCombo && st.answers >= 2 {
            return false;
        }
        // The held piece may answer its holder's free attacks with Freedom.
        let may = if st.role == Role::Headlock {
            s.piece(st.to).is_some_and(|p| !p.has(flag::STUNNED))
        } else {
            s.can_have_cards(st.to)
        };
        may && self.offered(s, Self::color(s, st.to), |t| match t.kind {
            CardKind::Dodge => k[0],
            CardKind::Block => k[1],
            CardKind::Disarm => k[2],
            CardKind::Freedom => k[3],
            _ => false,
        })
    }

    fn answer_takes_effect(&self, s: &mut State, mut st: Strike, answer: u8) {
        let big_combo = self.kind(st.card) == CardKind::BigCombo;
        match self.kind(answer) {
            CardKind::Dodge | CardKind::Block if big_combo => {
                st.damage = (st.damage - 3).max(0);
                if self.kind(answer) == CardKind::Block && st.role == Role::Opening {
                    s.battle.blocked = true;
                }
                st.stage = if st.answers < 2 { StrikeStage::Answer } else { StrikeStage::LastChance };
                *s.top_mut() = Frame::Strike(st);
            }
            CardKind::Dodge => {
                let spins = self.card(st.card).spinning && st.role == Role::Opening && st.spin != 0;
                let knight = s.piece(st.from).is_some_and(|p| p.kind == Kind::Knight);
                let at = ring(st.from, knight).iter().position(|&q| q == Some(st.to));
                match (spins, at) {
                    (true, Some(pos)) => {
                        st.spun = true;
                        st.ring_pos = pos as u8;
                        st.ring_left = 7;
                        st.stage = StrikeStage::Spin;
                        *s.top_mut() = Frame::Strike(st);
                    }
                    _ => s.pop(),
                }
            }
            CardKind::Block => {
                if st.role == Role::Opening {
                    s.battle.blocked = true;
                }
                s.pop();
            }
            CardKind::Disarm => {
                if let Some(i) = s.limbo().iter().position(|&(p, c)| p == st.player && c == st.card) {
                    s.limbo.copy_within(i + 1..s.limbo_len as usize, i);
                    s.limbo_len -= 1;
                    s.discard[st.card as usize] += 1;
                }
                s.pop();
            }
            CardKind::Freedom => {
                if st.role == Role::Headlock {
                    s.remove_hold_with(st.to);
                }
                s.pop();
            }
            _ => s.pop(),
        }
    }

    /// First Aid may be played just before damage that would kill the piece
    /// or leave its player's only King below 15.
    fn last_chance_open(&self, s: &State, st: &Strike) -> bool {
        let Some(p) = s.piece(st.to) else { return false };
        if st.damage <= 0 || st.role == Role::Headlock || !s.can_have_cards(st.to) {
            return false;
        }
        let deadly = p.hp - st.damage <= 0 || (p.kind == Kind::King && s.kings(p.color) == 1 && p.hp - st.damage < 15);
        deadly && self.offered(s, p.color, |t| t.kind == CardKind::FirstAid)
    }

    fn heal(&self, s: &mut State, sq: Square, card: u8, count: u8, by: Player) {
        let Some(mut p) = s.piece(sq) else { return };
        p.hp = p.hp.saturating_add(self.card(card).heal.saturating_mul(count.min(20) as i8));
        Self::mark_changed(&mut p, by);
        s.board[sq as usize] = Some(p);
        s.eventful = true;
    }

    fn hit(&self, s: &mut State, st: Strike) {
        let Some(mut target) = s.piece(st.to) else { return };
        if st.from != NO_SQUARE && s.piece(st.from).is_none() {
            return;
        }
        if st.damage > 0 {
            target.hp -= st.damage;
            Self::mark_changed(&mut target, st.player);
            s.eventful = true;
            if target.hp <= 0 {
                self.kill(s, st.to, st.from);
                return;
            }
            s.board[st.to as usize] = Some(target);
        }
        if st.spun {
            return;
        }
        match self.kind(st.card) {
            CardKind::Stomp => {
                target.flags |= flag::STOMPED;
                s.board[st.to as usize] = Some(target);
            }
            CardKind::Poke => {
                target.flags |= flag::STUNNED;
                s.board[st.to as usize] = Some(target);
                s.push(Frame::FreeOffer { player: st.player, from: st.from, to: st.to });
            }
            CardKind::Uppercut2 => s.push(Frame::FreeOffer { player: st.player, from: st.from, to: st.to }),
            CardKind::Choke if !s.in_hold(st.to) && !s.in_hold(st.from) => {
                s.add_hold(Hold { kind: HoldKind::Choke, holder: st.from, held: st.to })
            }
            CardKind::Headlock if !s.in_hold(st.to) && !s.in_hold(st.from) => {
                s.add_hold(Hold { kind: HoldKind::Headlock, holder: st.from, held: st.to })
            }
            _ => {}
        }
    }

    /// A piece dies: it leaves the board at once; a battle it was in ends.
    fn kill(&self, s: &mut State, sq: Square, killer: Square) {
        s.board[sq as usize] = None;
        s.eventful = true;
        s.remove_hold_with(sq);
        match Self::context(s) {
            Context::Battle => {
                let b = s.battle;
                if sq != b.a {
                    // The target or a piece the spin reached: the attacker takes its square.
                    s.battle.result = sq;
                }
                while !matches!(s.top(), Frame::Battle(_)) && s.stack_len > 1 {
                    s.pop();
                }
                *s.top_mut() = Frame::Battle(BattleStage::End);
            }
            Context::FirstAid(healed) => {
                if sq == healed {
                    while !matches!(s.top(), Frame::Turn(_)) && s.stack_len > 1 {
                        s.pop();
                    }
                }
            }
            Context::None => {
                // A Headlock free attack killed the held piece: the holder moves there.
                if killer != NO_SQUARE && s.piece(killer).is_some() {
                    Self::move_piece(s, killer, sq);
                }
                while !matches!(s.top(), Frame::Turn(_)) && s.stack_len > 1 {
                    s.pop();
                }
            }
        }
    }

    // ------------------------------------------------------------------
    // Humiliation windows
    // ------------------------------------------------------------------

    /// The piece a card of `player` is played for, in the current context.
    fn piece_for(s: &State, player: Player) -> Square {
        match Self::context(s) {
            Context::Battle => Self::battle_piece(s, player),
            Context::FirstAid(sq) if player == s.side => sq,
            _ => NO_SQUARE,
        }
    }

    /// Whether the card under the window belongs to a King's opening card or
    /// First Aid (which `humiliate-kings` lets be humiliated).
    fn under_is_kings_opening_or_aid(s: &State) -> bool {
        let below = s.stack[s.stack_len as usize - 2];
        match below {
            Frame::FirstAid { .. } => true,
            Frame::Strike(st) => {
                (st.role == Role::Opening && st.stage == StrikeStage::AfterWindow) || st.stage == StrikeStage::AidWindow
            }
            _ => false,
        }
    }

    fn window_open(&self, s: &State, owner: Player, chain: u8) -> bool {
        let ctx = Self::context(s);
        if ctx == Context::None || s.stack_len < 2 {
            return false;
        }
        let decider = Self::window_decider(owner, chain);
        let card_player = decider.other();
        // The card under attack is played for a King: no window, except a
        // King's opening card or First Aid under `humiliate-kings`.
        let for_piece = Self::piece_for(s, card_player);
        if s.piece(for_piece).is_some_and(|p| p.kind == Kind::King)
            && !(self.options.humiliate_kings && chain == 0 && Self::under_is_kings_opening_or_aid(s))
        {
            return false;
        }
        if !self.offered(s, decider, |t| t.kind == CardKind::Humiliation) {
            return false;
        }
        self.humiliators(s, decider, for_piece, |_| ()) > 0
    }

    /// The ways `decider` may humiliate (`NO_SQUARE` for the usual way, or
    /// a third piece's square); calls `emit` for each and counts them.
    fn humiliators(&self, s: &State, decider: Player, for_piece: Square, mut emit: impl FnMut(Square)) -> usize {
        let mut n = 0;
        match Self::context(s) {
            Context::Battle => {
                let own = Self::battle_piece(s, decider);
                if s.can_have_cards(own) {
                    emit(NO_SQUARE);
                    n += 1;
                }
                if self.options.humiliation_interventions && s.piece(for_piece).is_some() {
                    for sq in 0..64u8 {
                        if sq != s.battle.a
                            && sq != s.battle.t
                            && s.piece(sq).is_some_and(|p| p.color == decider)
                            && s.can_act(sq)
                            && threat(&s.board, sq, for_piece).is_some()
                        {
                            emit(sq);
                            n += 1;
                        }
                    }
                }
            }
            Context::FirstAid(healed) => {
                if decider != s.side && self.options.personal_first_aid_humiliation {
                    for sq in 0..64u8 {
                        if s.piece(sq).is_some_and(|p| p.color == decider)
                            && s.can_act(sq)
                            && threat(&s.board, sq, healed).is_some()
                        {
                            emit(sq);
                            n += 1;
                        }
                    }
                } else {
                    emit(NO_SQUARE);
                    n += 1;
                }
            }
            Context::None => {}
        }
        n
    }

    /// The chain ended at a decline: an odd chain cancels the card; the
    /// last humiliator gets a free attack.
    fn resolve_window(&self, s: &mut State, owner: Player, chain: u8, via: Square) {
        let kings_void = self.options.humiliate_kings
            && chain > 0
            && s.piece(Self::piece_for(s, owner)).is_some_and(|p| p.kind == Kind::King)
            && Self::under_is_kings_opening_or_aid(s);
        s.pop();
        let cancelled = chain % 2 == 1;
        let below = s.top_mut();
        match below {
            Frame::Strike(st) => st.cancelled = cancelled,
            Frame::FirstAid { cancelled: c, .. } => *c = cancelled,
            _ => {}
        }
        if chain == 0 {
            return;
        }
        if kings_void {
            // `humiliate-kings`: the King's action is void, no free attack.
            if cancelled {
                if let Frame::Strike(st) = s.top() {
                    if st.role == Role::Opening && st.stage == StrikeStage::AfterWindow {
                        s.battle.void = true;
                    }
                }
            }
            return;
        }
        let last = Self::window_decider(owner, chain - 1);
        match Self::context(s) {
            Context::Battle => {
                let to = Self::battle_piece(s, last.other());
                let mut from = Self::battle_piece(s, last);
                if via != NO_SQUARE {
                    // A third piece intervened: it moves next to the piece and attacks.
                    let Some(approach) = threat(&s.board, via, to) else { return };
                    Self::move_piece(s, via, approach);
                    from = approach;
                }
                s.push(Frame::FreeOffer { player: last, from, to });
            }
            Context::FirstAid(healed) => {
                if last == s.side {
                    // The healer's counter-Humiliation cancels without damage.
                    return;
                }
                let mut from = NO_SQUARE;
                if via != NO_SQUARE {
                    let Some(approach) = threat(&s.board, via, healed) else { return };
                    Self::move_piece(s, via, approach);
                    from = approach;
                }
                s.push(Frame::FreeOffer { player: last, from, to: healed });
            }
            Context::None => {}
        }
    }

    fn free_offer_open(&self, s: &State, player: Player, from: Square, to: Square) -> bool {
        s.piece(to).is_some()
            && (from == NO_SQUARE || (s.can_act(from) && s.can_have_cards(from)))
            && self.offered(s, player, |t| t.kind.is_free_attack())
    }

    fn headlock_open(&self, s: &State) -> bool {
        s.holds().iter().any(|h| {
            h.kind == HoldKind::Headlock
                && s.piece(h.holder).is_some_and(|p| p.color == s.side && !p.has(flag::STUNNED))
                && s.piece(h.held).is_some()
        }) && self.offered(s, s.side, |t| t.headlock_free)
    }

    // ------------------------------------------------------------------
    // Legal moves
    // ------------------------------------------------------------------

    fn any_action(&self, s: &State) -> bool {
        // A card in hand can always be discarded (unless an option forbids it).
        if s.hand_size(s.side) > 0 && !self.options.no_discard_in_check {
            return true;
        }
        let mut found = false;
        self.actions(s, &mut |_| found = true, false);
        found
    }

    pub fn legal_moves(&self, s: &State, out: &mut Vec<Move>) {
        out.clear();
        if s.result != GameResult::Ongoing {
            return;
        }
        let mut emit = |m: Move| out.push(m);
        match s.top() {
            Frame::Turn(TurnStage::Action) => self.actions(s, &mut emit, false),
            Frame::Turn(TurnStage::Headlock) => {
                for h in s.holds() {
                    if h.kind == HoldKind::Headlock
                        && s.piece(h.holder).is_some_and(|p| p.color == s.side && !p.has(flag::STUNNED))
                        && s.piece(h.held).is_some()
                    {
                        for card in self.hand_cards(s, s.side, |t| t.headlock_free) {
                            emit(Move::Free { to: h.held, card });
                        }
                    }
                }
                emit(Move::Pass);
            }
            Frame::Turn(_) | Frame::FirstAid { .. } => {}
            Frame::Round => {
                if let Some((sq, _)) = self.next_choice(s) {
                    let p = s.piece(sq).expect("a pending choice is on a piece");
                    if p.has(flag::CHOOSE_MINOR) {
                        emit(Move::Choose { square: sq, kind: Kind::Bishop });
                        emit(Move::Choose { square: sq, kind: Kind::Knight });
                    } else {
                        for kind in [Kind::Bishop, Kind::Knight, Kind::Queen, Kind::Rook] {
                            emit(Move::Choose { square: sq, kind });
                        }
                    }
                }
            }
            Frame::Battle(stage) => {
                let grabber = if stage == BattleStage::GrabTarget { s.battle.t } else { s.battle.a };
                let victim = if stage == BattleStage::GrabTarget { s.battle.a } else { s.battle.t };
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
                            for count in 1..=s.hands[player.index()][card as usize] {
                                emit(Move::Aid { square: st.to, card, count });
                            }
                        }
                    }
                    _ => {}
                }
                emit(Move::Pass);
            }
            Frame::Window { owner, chain, .. } => {
                let decider = Self::window_decider(owner, chain);
                let for_piece = Self::piece_for(s, decider.other());
                for card in self.hand_cards(s, decider, |t| t.kind == CardKind::Humiliation) {
                    self.humiliators(s, decider, for_piece, |via| emit(Move::Humiliate { card, via }));
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

    fn may_discard(&self, s: &State) -> bool {
        let me = s.side;
        s.hand_size(me) > 0
            && !(self.options.no_discard_in_check
                && (0..64u8).any(|sq| {
                    s.piece(sq).is_some_and(|p| p.color == me && p.kind == Kind::King)
                        && threatened_by(&s.board, sq, me.other())
                }))
    }

    /// The number of legal moves, with the discards counted rather than listed.
    pub fn count_moves(&self, s: &State, scratch: &mut Vec<Move>) -> u64 {
        if s.result == GameResult::Ongoing && s.top() == Frame::Turn(TurnStage::Action) {
            let mut n = 0u64;
            self.actions(s, &mut |_| n += 1, true);
            if self.may_discard(s) {
                n += discard_count(&s.hands[s.side.index()][..self.deck.len()]);
            }
            return n;
        }
        self.legal_moves(s, scratch);
        scratch.len() as u64
    }

    /// Every action; with `skip_discards` the discards are left out (the
    /// caller counts them with [`discard_count`]).
    fn actions(&self, s: &State, emit: &mut dyn FnMut(Move), skip_discards: bool) {
        let me = s.side;
        // Movement.
        for from in 0..64u8 {
            if s.piece(from).is_some_and(|p| p.color == me) && s.can_act(from) {
                super::board::for_each_step(&s.board, from, |to| emit(Move::Step { from, to }));
            }
        }
        for (bit, king, rook, between, to) in CASTLES {
            if s.castling & bit != 0
                && s.piece(king).is_some_and(|p| p.color == me && p.kind == Kind::King)
                && s.piece(rook).is_some_and(|p| p.color == me && p.kind == Kind::Rook)
                && between.iter().all(|&sq| s.piece(sq).is_none())
                && s.can_act(king)
                && s.can_act(rook)
            {
                emit(Move::Step { from: king, to });
            }
        }
        if s.hand_size(me) == 0 {
            return;
        }
        // Discard.
        if !skip_discards && self.may_discard(s) {
            let mut picked = [NO_CARD; 5];
            discards(&s.hands[me.index()][..self.deck.len()], 0, 0, &mut picked, emit);
        }
        // First Aid.
        for card in self.hand_cards(s, me, |t| t.kind == CardKind::FirstAid) {
            for sq in 0..64u8 {
                if s.piece(sq).is_some_and(|p| p.color == me) && s.can_have_cards(sq) {
                    for count in 1..=s.hands[me.index()][card as usize] {
                        emit(Move::Aid { square: sq, card, count });
                    }
                }
            }
        }
        // Attack.
        let mut openings = [0u8; MAX_TYPES];
        let mut n_openings = 0;
        for card in self.hand_cards(s, me, |t| t.kind.is_opening()) {
            openings[n_openings] = card;
            n_openings += 1;
        }
        for from in 0..64u8 {
            if n_openings == 0 {
                break;
            }
            if s.piece(from).is_none_or(|p| p.color != me) || !s.can_act(from) {
                continue;
            }
            for to in 0..64u8 {
                if s.piece(to).is_none_or(|p| p.color == me) || threat(&s.board, from, to).is_none() {
                    continue;
                }
                for &card in &openings[..n_openings] {
                    let t = self.card(card);
                    if t.kind == CardKind::Choke && s.in_hold(to) {
                        continue;
                    }
                    if t.spinning && !self.options.no_spinning {
                        emit(Move::Attack { from, to, card, spin: 1 });
                        emit(Move::Attack { from, to, card, spin: -1 });
                    } else {
                        emit(Move::Attack { from, to, card, spin: 0 });
                    }
                }
            }
        }
        // Break a hold.
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

    // ------------------------------------------------------------------
    // Playing a decision
    // ------------------------------------------------------------------

    pub fn apply(&self, s: &mut State, mv: Move) {
        let me = self.actor(s);
        match (s.top(), mv) {
            (Frame::Turn(TurnStage::Action), _) => self.apply_action(s, mv),
            (Frame::Turn(TurnStage::Headlock), Move::Free { to, card }) => {
                let holder = s.holds().iter().find(|h| h.held == to).map_or(NO_SQUARE, |h| h.holder);
                self.play_card(s, me, card);
                s.push(Frame::Strike(self.strike(Role::Headlock, me, card, holder, to, self.card(card).damage)));
            }
            (Frame::Turn(TurnStage::Headlock), _) => *s.top_mut() = Frame::Turn(TurnStage::StartRound),
            (Frame::Round, Move::Choose { square, kind }) => {
                if let Some(mut p) = s.piece(square) {
                    p.kind = kind;
                    p.hp = kind.value();
                    p.flags &= !(flag::CHOOSE_MINOR | flag::PROMOTE);
                    s.board[square as usize] = Some(p);
                }
            }
            (Frame::Battle(stage), Move::Grab { grab, with }) => {
                let (grabber, victim) =
                    if stage == BattleStage::GrabTarget { (s.battle.t, s.battle.a) } else { (s.battle.a, s.battle.t) };
                self.play_card(s, me, grab);
                self.play_card(s, me, with);
                *s.top_mut() = Frame::Battle(BattleStage::End);
                s.push(Frame::Strike(self.strike(Role::Grab, me, with, grabber, victim, self.card(with).damage)));
            }
            (Frame::Battle(stage), _) => {
                *s.top_mut() = Frame::Battle(if stage == BattleStage::GrabTarget {
                    BattleStage::GrabAttacker
                } else {
                    BattleStage::End
                });
            }
            (Frame::Strike(mut st), _) => match (st.stage, mv) {
                (StrikeStage::Answer, Move::Answer { card }) => {
                    self.play_card(s, me, card);
                    st.answers += 1;
                    st.answer = card;
                    st.cancelled = false;
                    st.stage = StrikeStage::AnswerWindow;
                    *s.top_mut() = Frame::Strike(st);
                    if Self::strike_has_windows(&st) {
                        s.push(Frame::Window { owner: me, chain: 0, via: NO_SQUARE });
                    }
                }
                (StrikeStage::SpinAnswer, Move::Answer { card }) => {
                    self.play_card(s, me, card);
                    if self.kind(card) == CardKind::Dodge {
                        st.stage = StrikeStage::Spin;
                        *s.top_mut() = Frame::Strike(st);
                    } else {
                        s.pop();
                    }
                }
                (StrikeStage::LastChance, Move::Aid { card, count, .. }) => {
                    for _ in 0..count {
                        self.play_card(s, me, card);
                    }
                    st.aid_card = card;
                    st.aid_count = count;
                    st.cancelled = false;
                    st.stage = StrikeStage::AidWindow;
                    *s.top_mut() = Frame::Strike(st);
                    if Self::strike_has_windows(&st) {
                        s.push(Frame::Window { owner: me, chain: 0, via: NO_SQUARE });
                    }
                }
                (StrikeStage::Answer | StrikeStage::SpinAnswer, _) => {
                    st.stage = StrikeStage::LastChance;
                    *s.top_mut() = Frame::Strike(st);
                }
                _ => {
                    st.stage = StrikeStage::Hit;
                    *s.top_mut() = Frame::Strike(st);
                }
            },
            (Frame::Window { owner, chain, .. }, Move::Humiliate { card, via }) => {
                self.play_card(s, me, card);
                *s.top_mut() = Frame::Window { owner, chain: chain.saturating_add(1), via };
            }
            (Frame::Window { owner, chain, via }, _) => self.resolve_window(s, owner, chain, via),
            (Frame::FreeOffer { player, from, to }, Move::Free { card, .. }) => {
                self.play_card(s, player, card);
                s.pop();
                s.push(Frame::Strike(self.strike(Role::Free, player, card, from, to, self.card(card).damage)));
            }
            (Frame::FreeOffer { .. }, _) => s.pop(),
            _ => {}
        }
        self.advance(s);
    }

    fn strike(&self, role: Role, player: Player, card: u8, from: Square, to: Square, damage: i8) -> Strike {
        Strike {
            role,
            player,
            card,
            from,
            to,
            damage,
            stage: StrikeStage::Window,
            answers: 0,
            cancelled: false,
            answer: NO_CARD,
            aid_card: NO_CARD,
            aid_count: 0,
            spin: 0,
            ring_pos: 0,
            ring_left: 0,
            spun: false,
        }
    }

    fn apply_action(&self, s: &mut State, mv: Move) {
        let me = s.side;
        *s.top_mut() = Frame::Turn(TurnStage::EndRound);
        match mv {
            Move::Step { from, to } => {
                Self::move_piece(s, from, to);
                // Castling: the King's two-square move brings the Rook along.
                if s.piece(to).is_some_and(|p| p.kind == Kind::King) && (file_of(from) - file_of(to)).abs() == 2 {
                    let rank = rank_of(from);
                    let (rook_from, rook_to) = if file_of(to) == 6 { (7, 5) } else { (0, 3) };
                    if let (Some(rf), Some(rt)) = (square_at(rook_from, rank), square_at(rook_to, rank)) {
                        Self::move_piece(s, rf, rt);
                    }
                }
            }
            Move::Discard(cards) => {
                for card in cards.into_iter().filter(|&c| c != NO_CARD) {
                    let count = &mut s.hands[me.index()][card as usize];
                    *count = count.saturating_sub(1);
                    s.discard[card as usize] += 1;
                }
            }
            Move::Aid { square, card, count } => {
                for _ in 0..count {
                    self.play_card(s, me, card);
                }
                s.push(Frame::FirstAid { square, card, count, opened: false, cancelled: false });
            }
            Move::Attack { from, to, card, spin } => {
                let approach = threat(&s.board, from, to).unwrap_or(from);
                self.play_card(s, me, card);
                Self::move_piece(s, from, approach);
                let mut damage = self.card(card).damage;
                if let Some(mut p) = s.piece(approach) {
                    if p.has(flag::STOMPED) {
                        damage /= 2;
                        p.flags &= !flag::STOMPED;
                        s.board[approach as usize] = Some(p);
                    }
                }
                s.battle = Battle {
                    attacker: me,
                    a: approach,
                    t: to,
                    a_from: from,
                    card,
                    result: NO_SQUARE,
                    blocked: false,
                    void: false,
                };
                s.push(Frame::Battle(BattleStage::AfterOpening));
                let mut st = self.strike(Role::Opening, me, card, approach, to, damage);
                st.spin = spin;
                s.push(Frame::Strike(st));
            }
            Move::Break { square, card } => {
                let count = &mut s.hands[me.index()][card as usize];
                *count = count.saturating_sub(1);
                s.discard[card as usize] += 1;
                s.remove_hold_with(square);
            }
            _ => {}
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

/// How many multisets of 1 to 5 cards `hand` holds (what [`discards`] lists).
fn discard_count(hand: &[u8]) -> u64 {
    // ways[k]: multisets of exactly k cards from the types seen so far.
    let mut ways = [0u64; 6];
    ways[0] = 1;
    for &n in hand.iter().filter(|&&n| n > 0) {
        let mut next = [0u64; 6];
        for (k, &w) in ways.iter().enumerate() {
            for take in 0..=(n as usize).min(5 - k) {
                next[k + take] += w;
            }
        }
        ways = next;
    }
    ways[1..].iter().sum()
}

/// Every multiset of 1 to 5 cards from `hand` (counts per type), once each.
fn discards(hand: &[u8], from: usize, len: usize, picked: &mut [u8; 5], emit: &mut dyn FnMut(Move)) {
    if len > 0 {
        emit(Move::Discard(*picked));
    }
    if len == 5 {
        return;
    }
    for card in from..hand.len() {
        let already = picked[..len].iter().filter(|&&c| c as usize == card).count();
        if (hand[card] as usize) > already {
            picked[len] = card as u8;
            discards(hand, card, len + 1, picked, emit);
            picked[len] = NO_CARD;
        }
    }
}
