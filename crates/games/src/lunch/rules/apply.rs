//! Playing one decision.

use super::*;

impl Rules<'_> {
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

    pub(super) fn strike(&self, role: Role, player: Player, card: u8, from: Square, to: Square, damage: i8) -> Strike {
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

    pub(super) fn apply_action(&self, s: &mut State, mv: Move) {
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
