//! Playing one decision, or one card chance draws.

use super::*;

impl Rules<'_> {
    pub fn apply(&self, s: &mut State, mv: Move) {
        // Most plies are actions and chance's cards, which need no decider.
        match (s.turn_on_top(), mv) {
            (Some(TurnStage::Action), _) => self.apply_action(s, mv),
            (Some(TurnStage::Deal | TurnStage::Draw), Move::Draw { card }) => {
                if let Some(drawer) = Self::drawer(s) {
                    s.move_card(Zone::DRAW, Zone::hand(drawer), card);
                }
                // Most cards are followed by another (chance deals and draws
                // five at a time): then the stage stays and the machine has
                // nothing to play (what its step would find, without it).
                if Self::drawer(s).is_some() && !s.pile(Zone::DRAW).is_empty() {
                    return;
                }
            }
            _ => self.apply_decision(s, mv),
        }
        self.advance(s);
    }

    /// A decision other than the action or chance's card.
    fn apply_decision(&self, s: &mut State, mv: Move) {
        let me = self.decider(s);
        match (s.top(), mv) {
            (Frame::Turn(TurnStage::Headlock), Move::Free { to, card }) => {
                let holder = s.holds().iter().find(|h| h.held == to).map(|h| h.holder);
                self.play_card(s, me, card);
                s.push(Frame::Strike(Strike::new(Role::Headlock, me, card, holder, to, self.card(card).damage)));
            }
            (Frame::Turn(TurnStage::Headlock), _) => s.set_top(Frame::Turn(TurnStage::StartRound)),
            (Frame::Round, Move::Choose { square, kind }) => {
                if let Some(mut p) = s.piece(square) {
                    p.kind = kind;
                    p.hp = kind.value();
                    p.flags &= !(flag::CHOOSE_MINOR | flag::PROMOTE);
                    s.set_piece(square, Some(p));
                }
            }
            (Frame::Battle(stage), Move::Grab { grab, with }) => {
                if let Some(b) = s.battle() {
                    let (grabber, victim) = if stage == BattleStage::GrabTarget { (b.t, b.a) } else { (b.a, b.t) };
                    self.play_card(s, me, grab);
                    self.play_card(s, me, with);
                    s.set_top(Frame::Battle(BattleStage::End));
                    let damage = self.card(with).damage;
                    s.push(Frame::Strike(Strike::new(Role::Grab, me, with, Some(grabber), victim, damage)));
                }
            }
            (Frame::Battle(stage), _) => {
                s.set_top(Frame::Battle(if stage == BattleStage::GrabTarget {
                    BattleStage::GrabAttacker
                } else {
                    BattleStage::End
                }));
            }
            (Frame::Strike(mut st), _) => match (st.stage, mv) {
                (StrikeStage::Answer, Move::Answer { card }) => {
                    self.play_card(s, me, card);
                    st.answers += 1;
                    st.answer = Some(card);
                    st.cancelled = false;
                    st.stage = StrikeStage::AnswerWindow;
                    s.set_top(Frame::Strike(st));
                    if Self::strike_has_windows(&st) {
                        s.push(Frame::Window { owner: me, chain: 0, via: None });
                    }
                }
                (StrikeStage::SpinAnswer, Move::Answer { card }) => {
                    self.play_card(s, me, card);
                    if self.kind(card) == CardKind::Dodge {
                        st.stage = StrikeStage::Spin;
                        s.set_top(Frame::Strike(st));
                    } else {
                        s.pop();
                    }
                }
                (StrikeStage::LastChance, Move::Aid { card, count, .. }) => {
                    for _ in 0..count {
                        self.play_card(s, me, card);
                    }
                    st.aid_card = Some(card);
                    st.aid_count = count;
                    st.cancelled = false;
                    st.stage = StrikeStage::AidWindow;
                    s.set_top(Frame::Strike(st));
                    if Self::strike_has_windows(&st) {
                        s.push(Frame::Window { owner: me, chain: 0, via: None });
                    }
                }
                (StrikeStage::Answer | StrikeStage::SpinAnswer, _) => {
                    st.stage = StrikeStage::LastChance;
                    s.set_top(Frame::Strike(st));
                }
                _ => {
                    st.stage = StrikeStage::Hit;
                    s.set_top(Frame::Strike(st));
                }
            },
            (Frame::Window { owner, chain, .. }, Move::Humiliate { card, via }) => {
                self.play_card(s, me, card);
                s.set_top(Frame::Window { owner, chain: chain.saturating_add(1), via });
            }
            (Frame::Window { owner, chain, via }, _) => self.resolve_window(s, owner, chain, via),
            (Frame::FreeOffer { player, from, to }, Move::Free { card, .. }) => {
                self.play_card(s, player, card);
                s.pop();
                s.push(Frame::Strike(Strike::new(Role::Free, player, card, from, to, self.card(card).damage)));
            }
            (Frame::FreeOffer { .. }, _) => s.pop(),
            _ => {}
        }
    }

    pub(super) fn apply_action(&self, s: &mut State, mv: Move) {
        let me = s.side();
        s.set_turn_stage(TurnStage::EndRound);
        match mv {
            Move::Step { from, to } => {
                Self::step_piece(s, from, to);
                // Castling: the King's two-square move brings the Rook along.
                if s.piece(to).is_some_and(|p| p.kind == Kind::King) && (from.file() - to.file()).abs() == 2 {
                    let rank = from.rank();
                    let (rook_from, rook_to) = if to.file() == 6 { (7, 5) } else { (0, 3) };
                    if let (Some(rf), Some(rt)) = (Square::at(rook_from, rank), Square::at(rook_to, rank)) {
                        Self::step_piece(s, rf, rt);
                    }
                }
            }
            Move::Discard(cards) => {
                for &card in cards.cards() {
                    s.move_card(Zone::hand(me), Zone::DISCARD, card);
                }
            }
            Move::Aid { square, card, count } => {
                for _ in 0..count {
                    self.play_card(s, me, card);
                }
                s.push(Frame::FirstAid { square, card, count, opened: false, cancelled: false });
            }
            Move::Attack { from, to, card, spin } => {
                let approach = threat(s.board(), from, to).unwrap_or(from);
                self.play_card(s, me, card);
                Self::move_piece(s, from, approach);
                let mut damage = self.card(card).damage;
                if let Some(mut p) = s.piece(approach) {
                    if p.has(flag::STOMPED) {
                        damage /= 2;
                        p.flags &= !flag::STOMPED;
                        s.set_piece(approach, Some(p));
                    }
                }
                s.set_battle(Some(Battle {
                    attacker: me,
                    a: approach,
                    t: to,
                    a_from: Some(from),
                    card,
                    result: None,
                    blocked: false,
                    void: false,
                }));
                s.push(Frame::Battle(BattleStage::AfterOpening));
                let mut st = Strike::new(Role::Opening, me, card, Some(approach), to, damage);
                st.spin = spin;
                s.push(Frame::Strike(st));
            }
            Move::Break { square, card } => {
                s.move_card(Zone::hand(me), Zone::DISCARD, card);
                s.remove_hold_with(square);
            }
            _ => {}
        }
    }
}
