//! The turn's own steps: the deal, Choke ticks, rounding and choices, the
//! win check, the turn's counters, drawing back to 5 and reshuffles.

use super::*;
use crate::lunch::board::squares;

/// What a turn step leaves the rules machine to do.
pub(super) enum TurnStep {
    /// A decision is due.
    Decide,
    /// The turn goes on at this stage, now the top frame.
    Next(TurnStage),
    /// A frame was pushed or the game ended: the top frame says.
    Other,
}

impl Rules<'_> {
    /// The turn's automatic steps one after another, as long as each leaves
    /// the turn's frame on top (most of a turn: the machine's loop need not
    /// look at the stack between them); false when a decision is due.
    pub(super) fn turn_steps(&self, s: &mut State, mut stage: TurnStage) -> bool {
        // A turn has 9 stages: after 16 steps the machine's loop, which
        // bounds its steps, takes over again.
        for _ in 0..16 {
            match self.turn_step(s, stage) {
                TurnStep::Decide => return false,
                TurnStep::Next(next) if s.result() == GameResult::Ongoing => stage = next,
                TurnStep::Next(_) | TurnStep::Other => return true,
            }
        }
        true
    }

    /// One automatic turn step.
    fn turn_step(&self, s: &mut State, stage: TurnStage) -> TurnStep {
        let next = match stage {
            TurnStage::Deal => {
                if self.draw_due(s) {
                    return TurnStep::Decide;
                }
                TurnStage::Start
            }
            TurnStage::Start => {
                self.tick_chokes(s);
                TurnStage::Headlock
            }
            TurnStage::Headlock => {
                if self.headlock_open(s) {
                    return TurnStep::Decide;
                }
                TurnStage::StartRound
            }
            TurnStage::StartRound | TurnStage::EndRound => {
                Self::return_weapons(s);
                let next = if stage == TurnStage::StartRound { TurnStage::StartCheck } else { TurnStage::EndCheck };
                s.set_turn_stage(next);
                if self.round(s) {
                    return TurnStep::Other;
                }
                return TurnStep::Next(next);
            }
            TurnStage::StartCheck => {
                if Self::win_check(s) {
                    return TurnStep::Other;
                }
                TurnStage::Action
            }
            TurnStage::Action => {
                if self.any_action(s) {
                    return TurnStep::Decide;
                }
                TurnStage::EndRound
            }
            TurnStage::EndCheck => {
                if Self::win_check(s) || Self::count_turn(s) {
                    return TurnStep::Other;
                }
                TurnStage::Draw
            }
            TurnStage::Draw => {
                if self.draw_due(s) {
                    return TurnStep::Decide;
                }
                s.set_side(s.side().other());
                TurnStage::Start
            }
        };
        s.set_turn_stage(next);
        TurnStep::Next(next)
    }

    pub(super) fn tick_chokes(&self, s: &mut State) {
        let mut i = 0;
        while i < s.holds().len() {
            let hold = s.holds()[i];
            i += 1;
            if hold.kind != HoldKind::Choke || s.piece(hold.holder).is_none_or(|p| p.color != s.side()) {
                continue;
            }
            let Some(mut victim) = s.piece(hold.held) else { continue };
            victim.hp -= 1;
            Self::mark_changed(&mut victim, s.side());
            s.mark_eventful();
            if victim.hp > 0 {
                s.set_piece(hold.held, Some(victim));
            } else {
                // Died of the Choke: the choker moves onto its square.
                s.set_piece(hold.held, None);
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
        Self::relocate(s, from, to, flag::ENTERED);
    }

    /// A step of the action (castling's Rook too): moved as by
    /// [`Rules::move_piece`], but marked as having entered its square only
    /// when a Pawn reaches its last rank, for the promotion. Any other
    /// piece's mark would be cleared at the end of this very action, with
    /// no decision in between, so the ply ends in the same state; unmarked,
    /// the end of the action need not look at the piece (a third of the
    /// plies of a random game are actions, most of them steps).
    pub(super) fn step_piece(s: &mut State, from: Square, to: Square) {
        let promotes = s.piece(from).is_some_and(|p| p.kind == Kind::Pawn && to.rank() == last_rank(p.color));
        Self::relocate(s, from, to, if promotes { flag::ENTERED } else { 0 });
    }

    /// Moves a piece, adding the marks `marks`.
    fn relocate(s: &mut State, from: Square, to: Square, marks: u8) {
        if from == to || !s.relocate(from, to, marks) {
            return;
        }
        // Most moves keep the rights and find no hold: no change, no call.
        let rights = s.castling() & !(castling_mask(from) | castling_mask(to));
        if rights != s.castling() {
            s.set_castling(rights);
        }
        if !s.holds().is_empty() {
            s.move_holds(from, to);
        }
    }

    /// The end of a turn before the draw: the turn is counted, stuns on the
    /// mover's pieces wear off, and the game may end by the turn limits;
    /// true when it ended.
    pub(super) fn count_turn(s: &mut State) -> bool {
        let mover = s.side();
        // Stunned pieces are marked ones: the others need no look.
        for sq in squares(s.board().marked() & s.board().occupancy().colour[mover.index()]) {
            if let Some(mut piece) = s.piece(sq).filter(|p| p.has(flag::STUNNED)) {
                piece.flags &= !flag::STUNNED;
                s.set_piece(sq, Some(piece));
            }
        }
        let turns = s.turns().saturating_add(1);
        let quiet = if s.eventful() { 0 } else { s.quiet().saturating_add(1) };
        s.set_counters(quiet, turns, false);
        let result = if quiet >= 100 {
            GameResult::Quiet
        } else if turns >= 1000 {
            GameResult::TurnLimit
        } else {
            return false;
        };
        s.set_result(result);
        true
    }

    /// Who draws the next card: the first of the side to move and the other
    /// player with fewer than 5 cards (at the deal White, then Black; at
    /// the end of a turn the player who acted, then the other).
    pub fn drawer(s: &State) -> Option<Player> {
        [s.side(), s.side().other()].into_iter().find(|&p| s.hand_size(p) < 5)
    }

    /// Whether chance must draw a card now: someone draws, and a card is
    /// left. When the draw pile is empty the discard pile becomes the draw
    /// pile first (a reshuffle: its order is chance, card by card).
    pub(super) fn draw_due(&self, s: &mut State) -> bool {
        if Self::drawer(s).is_none() {
            return false;
        }
        if s.pile(Zone::DRAW).is_empty() {
            s.reshuffle();
        }
        !s.pile(Zone::DRAW).is_empty()
    }

    /// Sets the game result when a side has no King.
    pub(super) fn win_check(s: &mut State) -> bool {
        let [white, black] = s.have_kings();
        let result = match (white, black) {
            (true, true) => return false,
            (false, false) => GameResult::NoKings,
            (true, false) => GameResult::Won(Player::First),
            (false, true) => GameResult::Won(Player::Second),
        };
        s.set_result(result);
        true
    }

    /// Rounds every piece's HP to a type; pushes a `Round` frame when
    /// Knight-or-Bishop or promotion choices are due (and says so).
    pub(super) fn round(&self, s: &mut State) -> bool {
        let mut pending = false;
        // A plain piece rounds to itself: only the marked ones can change.
        for sq in squares(s.board().marked()) {
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
            if piece.kind == Kind::Pawn && piece.has(flag::ENTERED) && sq.rank() == last_rank(piece.color) {
                piece.flags |= flag::PROMOTE;
                pending = true;
            }
            s.set_piece(sq, Some(piece));
        }
        Self::update_castling(s);
        if pending {
            s.push(Frame::Round);
        } else {
            Self::clear_action_flags(s);
        }
        pending
    }

    pub(super) fn clear_action_flags(s: &mut State) {
        for sq in squares(s.board().marked()) {
            let Some(mut piece) = s.piece(sq) else { continue };
            if piece.flags & flag::ACTION != 0 {
                piece.flags &= !flag::ACTION;
                s.set_piece(sq, Some(piece));
            }
        }
    }

    pub(super) fn update_castling(s: &mut State) {
        let mut rights = s.castling();
        // Twice a turn: once every right is gone (most of a long game), no look.
        if rights == 0 {
            return;
        }
        for (bit, king, rook, color) in [
            (1u8, 4u8, 7u8, Player::First),
            (2, 4, 0, Player::First),
            (4, 60, 63, Player::Second),
            (8, 60, 56, Player::Second),
        ] {
            let is = |sq: u8, kind: Kind| s.piece(Square::new(sq)).is_some_and(|p| p.kind == kind && p.color == color);
            if !(is(king, Kind::King) && is(rook, Kind::Rook)) {
                rights &= !bit;
            }
        }
        s.set_castling(rights);
    }

    /// The next pending choice after a rounding: the acting player's first,
    /// then the other's, each in square order.
    pub fn next_choice(&self, s: &State) -> Option<(Square, Player)> {
        for player in [s.side(), s.side().other()] {
            for (sq, p) in s.board().pieces() {
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
