//! Humiliation windows and the free attacks they give; the other offers of
//! free attacks.

use super::*;

impl Rules<'_> {
    /// The piece a card of `player` is played for, in the current context:
    /// that player's battle piece, the healed piece (for the healer), or the
    /// holder or the held piece of a Headlock.
    pub(super) fn piece_for(s: &State, player: Player) -> Option<Square> {
        match Self::context(s) {
            Context::Battle(b) => Some(Self::battle_piece(&b, player)),
            Context::FirstAid(sq) if player == s.side() => Some(sq),
            Context::Headlock { holder, held } => {
                let holders_colour = holder.map_or(s.side(), |holder| Self::color(s, holder));
                if holders_colour == player {
                    holder
                } else {
                    Some(held)
                }
            }
            _ => None,
        }
    }

    /// Whether the card under the window belongs to a King's opening card or
    /// First Aid (which `humiliate-kings` lets be humiliated).
    pub(super) fn under_is_kings_opening_or_aid(s: &State) -> bool {
        match s.below_top() {
            Some(Frame::FirstAid { .. }) => true,
            Some(Frame::Strike(st)) => {
                (st.role == Role::Opening && st.stage == StrikeStage::AfterWindow) || st.stage == StrikeStage::AidWindow
            }
            _ => false,
        }
    }

    /// The piece that the card under a window (chain 0) was played for: the
    /// piece making an attack (a battle piece, an intervening piece, or none
    /// after a Humiliated First Aid action), the piece answering or taking
    /// First Aid, or the piece being healed.
    pub(super) fn card_piece_below(s: &State) -> Option<Square> {
        match s.below_top() {
            Some(Frame::Strike(st)) => match st.stage {
                StrikeStage::AnswerWindow | StrikeStage::AidWindow => Some(st.to),
                _ => st.from,
            },
            Some(Frame::FirstAid { square, .. }) => Some(square),
            _ => None,
        }
    }

    /// The piece the card in a window was played for: the card's own piece,
    /// or for a Humiliation its player's battle piece (or the healed piece),
    /// or the third piece whose Humiliation it is (`humiliation-interventions`,
    /// `personal-first-aid-humiliation`).
    pub(super) fn window_card_piece(s: &State, owner: Player, chain: u8, via: Option<Square>) -> Option<Square> {
        if chain == 0 {
            Self::card_piece_below(s)
        } else if via.is_some() {
            via
        } else {
            Self::piece_for(s, Self::window_decider(owner, chain).other())
        }
    }

    pub(super) fn window_open(&self, s: &State, owner: Player, chain: u8, via: Option<Square>) -> bool {
        let ctx = Self::context(s);
        if ctx == Context::None || s.stack_len() < 2 {
            return false;
        }
        let decider = Self::window_decider(owner, chain);
        // The card under attack is played for a King: no window, except a
        // King's opening card or First Aid under `humiliate-kings`.
        let for_piece = Self::window_card_piece(s, owner, chain, via);
        if s.occupant(for_piece).is_some_and(|p| p.kind == Kind::King)
            && !(self.options.humiliate_kings && chain == 0 && Self::under_is_kings_opening_or_aid(s))
        {
            return false;
        }
        if !self.offered(s, decider, |t| t.kind == CardKind::Humiliation) {
            return false;
        }
        self.humiliators(s, owner, chain, via, |_| ()) > 0
    }

    /// The ways the decider of a window may humiliate (`None` for the usual
    /// way, or a third piece's square); calls `emit` for each and counts them.
    pub(super) fn humiliators(
        &self,
        s: &State,
        owner: Player,
        chain: u8,
        via: Option<Square>,
        mut emit: impl FnMut(Option<Square>),
    ) -> usize {
        let decider = Self::window_decider(owner, chain);
        let mut n = 0;
        match Self::context(s) {
            Context::Battle(b) => {
                let own = Self::battle_piece(&b, decider);
                if s.can_have_cards(own) {
                    emit(None);
                    n += 1;
                }
                // A third piece intervenes against the card of a piece it
                // threatens: a battle piece's card, or an intervening piece's
                // free attack; never against another third piece's Humiliation.
                let thirds_humiliation = chain > 0 && via.is_some();
                let for_piece = Self::window_card_piece(s, owner, chain, via).filter(|&sq| s.piece(sq).is_some());
                if let Some(for_piece) = for_piece.filter(|_| self.options.humiliation_interventions) {
                    if !thirds_humiliation {
                        for (sq, p) in s.board().pieces() {
                            if sq != b.a
                                && sq != b.t
                                && p.color == decider
                                && s.can_act(sq)
                                && threat(s.board(), sq, for_piece).is_some()
                            {
                                emit(Some(sq));
                                n += 1;
                            }
                        }
                    }
                }
            }
            Context::FirstAid(healed) => {
                if decider != s.side() && self.options.personal_first_aid_humiliation {
                    for (sq, p) in s.board().pieces() {
                        if p.color == decider && s.can_act(sq) && threat(s.board(), sq, healed).is_some() {
                            emit(Some(sq));
                            n += 1;
                        }
                    }
                } else {
                    emit(None);
                    n += 1;
                }
            }
            Context::Headlock { held, .. } => {
                // The held piece may have cards against its holder's attacks
                // (as it may answer them with Freedom) unless it is stunned.
                let may = match Self::piece_for(s, decider) {
                    Some(own) if own == held => s.piece(held).is_some_and(|p| !p.has(flag::STUNNED)),
                    Some(own) => s.can_have_cards(own),
                    None => false,
                };
                if may {
                    emit(None);
                    n += 1;
                }
            }
            Context::None => {}
        }
        n
    }

    /// The chain ended at a decline: an odd chain cancels the card; the
    /// last humiliator gets a free attack.
    pub(super) fn resolve_window(&self, s: &mut State, owner: Player, chain: u8, via: Option<Square>) {
        let card_piece = Self::card_piece_below(s);
        let kings_card = self.options.humiliate_kings
            && s.occupant(card_piece).is_some_and(|p| p.kind == Kind::King)
            && Self::under_is_kings_opening_or_aid(s);
        let last = Self::window_decider(owner, chain.wrapping_sub(1));
        // The piece whose card the last Humiliation was played against: an
        // intervening piece attacks that one.
        let humiliated_piece = if chain == 1 { card_piece } else { Self::piece_for(s, last.other()) };
        s.pop();
        let cancelled = chain % 2 == 1;
        match s.top() {
            Frame::Strike(mut st) => {
                st.cancelled = cancelled;
                s.set_top(Frame::Strike(st));
            }
            Frame::FirstAid { square, card, count, opened, .. } => {
                s.set_top(Frame::FirstAid { square, card, count, opened, cancelled });
            }
            _ => {}
        }
        if chain == 0 {
            return;
        }
        if kings_card && cancelled {
            // `humiliate-kings`: a Humiliation that cancels the King's own
            // card voids the action, with no free attack.
            if let Frame::Strike(st) = s.top() {
                if st.role == Role::Opening && st.stage == StrikeStage::AfterWindow {
                    s.update_battle(|b| b.void = true);
                }
            }
            return;
        }
        match Self::context(s) {
            Context::Battle(b) => {
                let (from, to) = match via {
                    None => (Self::battle_piece(&b, last), Self::battle_piece(&b, last.other())),
                    Some(via) => {
                        // A third piece intervened: it moves next to the piece
                        // whose card it Humiliated and attacks that piece.
                        let Some(humiliated) = humiliated_piece else { return };
                        let Some(approach) = threat(s.board(), via, humiliated) else { return };
                        Self::move_piece(s, via, approach);
                        (approach, humiliated)
                    }
                };
                s.push(Frame::FreeOffer { player: last, from: Some(from), to });
            }
            Context::FirstAid(healed) => {
                if last == s.side() {
                    // The healer's counter-Humiliation cancels without damage.
                    return;
                }
                let mut from = None;
                if let Some(via) = via {
                    let Some(approach) = threat(s.board(), via, healed) else { return };
                    Self::move_piece(s, via, approach);
                    from = Some(approach);
                }
                s.push(Frame::FreeOffer { player: last, from, to: healed });
            }
            // Both pieces of a Headlock are in a hold: they make no free attacks.
            Context::Headlock { .. } | Context::None => {}
        }
    }

    pub(super) fn free_offer_open(&self, s: &State, player: Player, from: Option<Square>, to: Square) -> bool {
        s.piece(to).is_some()
            && from.is_none_or(|from| s.can_act(from) && s.can_have_cards(from))
            && self.offered(s, player, |t| t.kind.is_free_attack())
    }

    pub(super) fn headlock_open(&self, s: &State) -> bool {
        let me = s.side();
        s.holds().iter().any(|h| {
            h.kind == HoldKind::Headlock
                && s.piece(h.holder).is_some_and(|p| p.color == me && !p.has(flag::STUNNED))
                && s.piece(h.held).is_some()
        }) && self.offered(s, me, |t| t.headlock_free)
    }
}
