//! The turn's own steps: Choke ticks, rounding and choices, the win check,
//! drawing back to 5 and reshuffles.

use super::*;

impl Rules<'_> {
    /// One automatic turn step; false when a decision is due.
    pub(super) fn turn_step(&self, s: &mut State, stage: TurnStage) -> bool {
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

    pub(super) fn tick_chokes(&self, s: &mut State) {
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

    pub(super) fn mark_changed(piece: &mut Piece, by: Player) {
        piece.flags |= flag::CHANGED;
        if by == Player::Second {
            piece.flags |= flag::CHANGED_BY_BLACK;
        } else {
            piece.flags &= !flag::CHANGED_BY_BLACK;
        }
    }

    /// Moves a piece (marks it as having entered its square; castling
    /// rights of a moved King or Rook are lost).
    pub(super) fn move_piece(s: &mut State, from: Square, to: Square) {
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

    pub(super) fn end_turn(&self, s: &mut State) {
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
    pub(super) fn reshuffle(s: &mut State) {
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
    pub(super) fn win_check(s: &mut State) -> bool {
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
    pub(super) fn round(&self, s: &mut State) {
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

    pub(super) fn clear_action_flags(s: &mut State) {
        for piece in s.board.iter_mut().flatten() {
            piece.flags &= !flag::ACTION;
        }
    }

    pub(super) fn update_castling(s: &mut State) {
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
}
