//! Humiliation windows and the free attacks they give; the other offers of
//! free attacks.

use super::*;

impl Rules<'_> {
    // ------------------------------------------------------------------
    // Humiliation windows
    // ------------------------------------------------------------------

    /// The piece a card of `player` is played for, in the current context:
    /// that player's battle piece, the healed piece (for the healer), or the
    /// holder or the held piece of a Headlock.
    pub(super) fn piece_for(s: &State, player: Player) -> Square {
        match Self::context(s) {
            Context::Battle => Self::battle_piece(s, player),
            Context::FirstAid(sq) if player == s.side => sq,
            Context::Headlock { holder, held } => {
                if Self::color(s, holder) == player {
                    holder
                } else {
                    held
                }
            }
            _ => NO_SQUARE,
        }
    }

    /// Whether the card under the window belongs to a King's opening card or
    /// First Aid (which `humiliate-kings` lets be humiliated).
    pub(super) fn under_is_kings_opening_or_aid(s: &State) -> bool {
        let below = s.stack[s.stack_len as usize - 2];
        match below {
            Frame::FirstAid { .. } => true,
            Frame::Strike(st) => {
                (st.role == Role::Opening && st.stage == StrikeStage::AfterWindow) || st.stage == StrikeStage::AidWindow
            }
            _ => false,
        }
    }

    /// The piece that the card under a window (chain 0) was played for: the
    /// piece making an attack (a battle piece, an intervening piece, or none
    /// after a Humiliated First Aid action), the piece answering or taking
    /// First Aid, or the piece being healed.
    pub(super) fn card_piece_below(s: &State) -> Square {
        match s.stack[s.stack_len as usize - 2] {
            Frame::Strike(st) => match st.stage {
                StrikeStage::AnswerWindow | StrikeStage::AidWindow => st.to,
                _ => st.from,
            },
            Frame::FirstAid { square, .. } => square,
            _ => NO_SQUARE,
        }
    }

    /// The piece the card in a window was played for: the card's own piece,
    /// or for a Humiliation its player's battle piece (or the healed piece),
    /// or the third piece whose Humiliation it is (`humiliation-interventions`,
    /// `personal-first-aid-humiliation`).
    pub(super) fn window_card_piece(s: &State, owner: Player, chain: u8, via: Square) -> Square {
        if chain == 0 {
            Self::card_piece_below(s)
        } else if via != NO_SQUARE {
            via
        } else {
            Self::piece_for(s, Self::window_decider(owner, chain).other())
        }
    }

    pub(super) fn window_open(&self, s: &State, owner: Player, chain: u8, via: Square) -> bool {
        let ctx = Self::context(s);
        if ctx == Context::None || s.stack_len < 2 {
            return false;
        }
        let decider = Self::window_decider(owner, chain);
        // The card under attack is played for a King: no window, except a
        // King's opening card or First Aid under `humiliate-kings`.
        let for_piece = Self::window_card_piece(s, owner, chain, via);
        if s.piece(for_piece).is_some_and(|p| p.kind == Kind::King)
            && !(self.options.humiliate_kings && chain == 0 && Self::under_is_kings_opening_or_aid(s))
        {
            return false;
        }
        if !self.offered(s, decider, |t| t.kind == CardKind::Humiliation) {
            return false;
        }
        self.humiliators(s, owner, chain, via, |_| ()) > 0
    }

    /// The ways the decider of a window may humiliate (`NO_SQUARE` for the
    /// usual way, or a third piece's square); calls `emit` for each and
    /// counts them.
    pub(super) fn humiliators(
        &self,
        s: &State,
        owner: Player,
        chain: u8,
        via: Square,
        mut emit: impl FnMut(Square),
    ) -> usize {
        let decider = Self::window_decider(owner, chain);
        let mut n = 0;
        match Self::context(s) {
            Context::Battle => {
                let own = Self::battle_piece(s, decider);
                if s.can_have_cards(own) {
                    emit(NO_SQUARE);
                    n += 1;
                }
                // A third piece intervenes against the card of a piece it
                // threatens: a battle piece's card, or an intervening piece's
                // free attack; never against another third piece's Humiliation.
                let for_piece = Self::window_card_piece(s, owner, chain, via);
                let thirds_humiliation = chain > 0 && via != NO_SQUARE;
                if self.options.humiliation_interventions && !thirds_humiliation && s.piece(for_piece).is_some() {
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
            Context::Headlock { held, .. } => {
                // The held piece may have cards against its holder's attacks
                // (as it may answer them with Freedom) unless it is stunned.
                let own = Self::piece_for(s, decider);
                let may = if own == held {
                    s.piece(held).is_some_and(|p| !p.has(flag::STUNNED))
                } else {
                    s.can_have_cards(own)
                };
                if may {
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
    pub(super) fn resolve_window(&self, s: &mut State, owner: Player, chain: u8, via: Square) {
        let card_piece = Self::card_piece_below(s);
        let kings_card = self.options.humiliate_kings
            && s.piece(card_piece).is_some_and(|p| p.kind == Kind::King)
            && Self::under_is_kings_opening_or_aid(s);
        let last = Self::window_decider(owner, chain.wrapping_sub(1));
        // The piece whose card the last Humiliation was played against: an
        // intervening piece attacks that one.
        let humiliated_piece = if chain == 1 { card_piece } else { Self::piece_for(s, last.other()) };
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
        if kings_card && cancelled {
            // `humiliate-kings`: a Humiliation that cancels the King's own
            // card voids the action, with no free attack.
            if let Frame::Strike(st) = s.top() {
                if st.role == Role::Opening && st.stage == StrikeStage::AfterWindow {
                    s.battle.void = true;
                }
            }
            return;
        }
        match Self::context(s) {
            Context::Battle => {
                let (from, to) = if via == NO_SQUARE {
                    (Self::battle_piece(s, last), Self::battle_piece(s, last.other()))
                } else {
                    // A third piece intervened: it moves next to the piece
                    // whose card it Humiliated and attacks that piece.
                    let Some(approach) = threat(&s.board, via, humiliated_piece) else { return };
                    Self::move_piece(s, via, approach);
                    (approach, humiliated_piece)
                };
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
            // Both pieces of a Headlock are in a hold: they make no free attacks.
            Context::Headlock { .. } | Context::None => {}
        }
    }

    pub(super) fn free_offer_open(&self, s: &State, player: Player, from: Square, to: Square) -> bool {
        s.piece(to).is_some()
            && (from == NO_SQUARE || (s.can_act(from) && s.can_have_cards(from)))
            && self.offered(s, player, |t| t.kind.is_free_attack())
    }

    pub(super) fn headlock_open(&self, s: &State) -> bool {
        s.holds().iter().any(|h| {
            h.kind == HoldKind::Headlock
                && s.piece(h.holder).is_some_and(|p| p.color == s.side && !p.has(flag::STUNNED))
                && s.piece(h.held).is_some()
        }) && self.offered(s, s.side, |t| t.headlock_free)
    }
}
