//! Battles and strikes: a card on its way to a piece through its windows,
//! answers, spins, the last chance, the hit, and deaths.

use super::*;

impl Rules<'_> {
    pub(super) fn battle_step(&self, s: &mut State, stage: BattleStage) -> bool {
        let Some(b) = s.battle() else {
            // A battle frame without its battle (not in play): nothing to fight.
            s.pop();
            return true;
        };
        match stage {
            BattleStage::AfterOpening => {
                let alive = s.piece(b.a).is_some() && s.piece(b.t).is_some();
                s.set_top(Frame::Battle(if b.blocked && alive && !b.void {
                    BattleStage::GrabTarget
                } else {
                    BattleStage::End
                }));
            }
            BattleStage::GrabTarget => {
                if self.grab_open(s, b.t, b.a) {
                    return false;
                }
                s.set_top(Frame::Battle(BattleStage::GrabAttacker));
            }
            BattleStage::GrabAttacker => {
                if self.grab_open(s, b.a, b.t) {
                    return false;
                }
                s.set_top(Frame::Battle(BattleStage::End));
            }
            BattleStage::End => {
                if b.void {
                    if let Some(from) = b.a_from.filter(|&from| s.piece(from).is_none()) {
                        Self::move_piece(s, b.a, from);
                    }
                } else if let Some(result) = b.result {
                    if s.piece(b.a).is_some() && s.piece(result).is_none() {
                        Self::move_piece(s, b.a, result);
                    }
                }
                s.set_battle(None);
                s.pop();
            }
        }
        true
    }

    pub(super) fn grab_open(&self, s: &State, grabber: Square, victim: Square) -> bool {
        let Some(p) = s.piece(grabber) else { return false };
        s.piece(victim).is_some()
            && s.can_act(grabber)
            && s.can_have_cards(grabber)
            && s.hand_size(p.color) >= 2
            && self.public_left(s, |t| t.kind == CardKind::Grab)
            && self.public_left(s, |t| t.kind.is_free_attack() || t.kind == CardKind::Headlock)
    }

    /// Every card has its Humiliation window, except the cards of a spin
    /// that moved on from the target (the rules give it none).
    pub(super) fn strike_has_windows(st: &Strike) -> bool {
        !st.spun
    }

    /// One automatic step of a strike; false when a decision is due.
    pub(super) fn strike_step(&self, s: &mut State, mut st: Strike) -> bool {
        match st.stage {
            StrikeStage::Window => {
                st.stage = StrikeStage::AfterWindow;
                st.cancelled = false;
                s.set_top(Frame::Strike(st));
                if Self::strike_has_windows(&st) {
                    s.push(Frame::Window { owner: st.player, chain: 0, via: None });
                }
            }
            StrikeStage::AfterWindow => {
                if st.cancelled {
                    s.pop();
                    return true;
                }
                st.stage = StrikeStage::Answer;
                s.set_top(Frame::Strike(st));
            }
            StrikeStage::Answer => {
                if self.answer_open(s, &st) {
                    return false;
                }
                st.stage = StrikeStage::LastChance;
                s.set_top(Frame::Strike(st));
            }
            StrikeStage::AnswerWindow => {
                let answer = st.answer.take();
                match answer {
                    Some(answer) if !st.cancelled => self.answer_takes_effect(s, st, answer),
                    _ => {
                        // A Humiliated answer is no answer: it uses up none of Big Combo's two.
                        if st.cancelled {
                            st.answers = st.answers.saturating_sub(1);
                        }
                        st.stage = if self.kind(st.card) == CardKind::BigCombo && st.answers < 2 {
                            StrikeStage::Answer
                        } else {
                            StrikeStage::LastChance
                        };
                        s.set_top(Frame::Strike(st));
                    }
                }
            }
            StrikeStage::Spin => {
                let Some(from) = st.from else {
                    s.pop();
                    return true;
                };
                let center_knight = s.piece(from).is_some_and(|p| p.kind == Kind::Knight);
                let squares = ring(from, center_knight);
                let step = st.spin.map_or(0, Spin::step);
                while st.ring_left > 0 {
                    st.ring_left -= 1;
                    st.ring_pos = ((st.ring_pos as i8 + step).rem_euclid(8)) as u8;
                    if let Some(sq) = squares[st.ring_pos as usize] {
                        if s.piece(sq).is_some() && sq != from {
                            st.to = sq;
                            st.stage = StrikeStage::SpinAnswer;
                            s.set_top(Frame::Strike(st));
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
                s.set_top(Frame::Strike(st));
            }
            StrikeStage::LastChance => {
                if self.last_chance_open(s, &st) {
                    return false;
                }
                st.stage = StrikeStage::Hit;
                s.set_top(Frame::Strike(st));
            }
            StrikeStage::AidWindow => {
                if let Some(aid) = st.aid_card.filter(|_| !st.cancelled && s.piece(st.to).is_some()) {
                    let by = Self::color(s, st.to);
                    self.heal(s, st.to, aid, st.aid_count, by);
                }
                st.stage = StrikeStage::Hit;
                s.set_top(Frame::Strike(st));
            }
            StrikeStage::Hit => {
                s.pop();
                self.hit(s, st);
            }
        }
        true
    }

    pub(super) fn answer_kinds(&self, st: &Strike) -> [bool; 4] {
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

    pub(super) fn answer_allowed(&self, st: &Strike, card: Card) -> bool {
        let k = self.answer_kinds(st);
        match self.kind(card) {
            CardKind::Dodge => k[0],
            CardKind::Block => k[1],
            CardKind::Disarm => k[2],
            CardKind::Freedom => k[3],
            _ => false,
        }
    }

    pub(super) fn answer_open(&self, s: &State, st: &Strike) -> bool {
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

    pub(super) fn answer_takes_effect(&self, s: &mut State, mut st: Strike, answer: Card) {
        let big_combo = self.kind(st.card) == CardKind::BigCombo;
        match self.kind(answer) {
            CardKind::Dodge | CardKind::Block if big_combo => {
                st.damage = (st.damage - 3).max(0);
                if self.kind(answer) == CardKind::Block && st.role == Role::Opening {
                    s.update_battle(|b| b.blocked = true);
                }
                st.stage = if st.answers < 2 { StrikeStage::Answer } else { StrikeStage::LastChance };
                s.set_top(Frame::Strike(st));
            }
            CardKind::Dodge => {
                let spins = self.card(st.card).spinning && st.role == Role::Opening && st.spin.is_some();
                let knight = s.occupant(st.from).is_some_and(|p| p.kind == Kind::Knight);
                let at = st.from.and_then(|from| ring(from, knight).iter().position(|&q| q == Some(st.to)));
                match (spins, at) {
                    (true, Some(pos)) => {
                        st.spun = true;
                        st.ring_pos = pos as u8;
                        st.ring_left = 7;
                        st.stage = StrikeStage::Spin;
                        s.set_top(Frame::Strike(st));
                    }
                    _ => s.pop(),
                }
            }
            CardKind::Block => {
                if st.role == Role::Opening {
                    s.update_battle(|b| b.blocked = true);
                }
                s.pop();
            }
            CardKind::Disarm => {
                if let Some(i) = s.limbo().iter().position(|&(p, c)| p == st.player && c == st.card) {
                    s.remove_limbo(i);
                    s.add_card(Zone::DISCARD, st.card);
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
    pub(super) fn last_chance_open(&self, s: &State, st: &Strike) -> bool {
        let Some(p) = s.piece(st.to) else { return false };
        if st.damage <= 0 || st.role == Role::Headlock || !s.can_have_cards(st.to) {
            return false;
        }
        let deadly = p.hp - st.damage <= 0 || (p.kind == Kind::King && s.kings(p.color) == 1 && p.hp - st.damage < 15);
        deadly && self.offered(s, p.color, |t| t.kind == CardKind::FirstAid)
    }

    pub(super) fn heal(&self, s: &mut State, sq: Square, card: Card, count: u8, by: Player) {
        let Some(mut p) = s.piece(sq) else { return };
        p.hp = p.hp.saturating_add(self.card(card).heal.saturating_mul(count.min(20) as i8));
        Self::mark_changed(&mut p, by);
        s.set_piece(sq, Some(p));
        s.mark_eventful();
    }

    pub(super) fn hit(&self, s: &mut State, st: Strike) {
        let Some(mut target) = s.piece(st.to) else { return };
        if st.from.is_some() && s.occupant(st.from).is_none() {
            return;
        }
        if st.damage > 0 {
            target.hp -= st.damage;
            Self::mark_changed(&mut target, st.player);
            s.mark_eventful();
            if target.hp <= 0 {
                self.kill(s, st.to, st.from);
                return;
            }
            s.set_piece(st.to, Some(target));
        }
        if st.spun {
            return;
        }
        match self.kind(st.card) {
            CardKind::Stomp => {
                target.flags |= flag::STOMPED;
                s.set_piece(st.to, Some(target));
            }
            CardKind::Poke => {
                target.flags |= flag::STUNNED;
                s.set_piece(st.to, Some(target));
                s.push(Frame::FreeOffer { player: st.player, from: st.from, to: st.to });
            }
            CardKind::Uppercut2 => s.push(Frame::FreeOffer { player: st.player, from: st.from, to: st.to }),
            CardKind::Choke | CardKind::Headlock => {
                let kind = if self.kind(st.card) == CardKind::Choke { HoldKind::Choke } else { HoldKind::Headlock };
                if let Some(from) = st.from.filter(|&from| !s.in_hold(st.to) && !s.in_hold(from)) {
                    s.add_hold(Hold { kind, holder: from, held: st.to });
                }
            }
            _ => {}
        }
    }

    /// A piece dies: it leaves the board at once; a battle it was in ends.
    pub(super) fn kill(&self, s: &mut State, sq: Square, killer: Option<Square>) {
        s.set_piece(sq, None);
        s.mark_eventful();
        s.remove_hold_with(sq);
        match Self::context(s) {
            Context::Battle(b) => {
                if killer == Some(b.a) {
                    // The target, or a piece the spin reached: the attacker takes its square.
                    s.update_battle(|b| b.result = Some(sq));
                } else if let Some(third) = killer.filter(|&k| k != b.t) {
                    // An intervening piece takes the square of the piece it
                    // killed (a Knight stays); the attacker stays where it is.
                    if s.piece(third).is_some_and(|p| p.kind != Kind::Knight) {
                        Self::move_piece(s, third, sq);
                    }
                }
                // The battle ends when one of its pieces dies, or when the
                // attacker's card killed (a spin stops at the piece it kills);
                // an intervening piece's death leaves the battle running.
                if sq == b.a || sq == b.t || killer == Some(b.a) {
                    while !matches!(s.top(), Frame::Battle(_)) && s.stack_len() > 1 {
                        s.pop();
                    }
                    s.set_top(Frame::Battle(BattleStage::End));
                }
            }
            Context::FirstAid(healed) => {
                if sq == healed {
                    while !matches!(s.top(), Frame::Turn(_)) && s.stack_len() > 1 {
                        s.pop();
                    }
                }
            }
            Context::Headlock { .. } | Context::None => {
                // A Headlock free attack killed the held piece: the holder moves there.
                if let Some(holder) = killer.filter(|&k| s.piece(k).is_some()) {
                    Self::move_piece(s, holder, sq);
                }
                while !matches!(s.top(), Frame::Turn(_)) && s.stack_len() > 1 {
                    s.pop();
                }
            }
        }
    }
}
