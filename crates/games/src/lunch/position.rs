//! The full state of a Lunch Chess game: board, cards, holds, the battle,
//! and the stack of pending steps ("frames", `frame.rs`) that says where in
//! a turn or a battle the game stands and who must decide next.
//!
//! The state is plain `Copy` data with fixed-size arrays, so that `play`
//! keeps a copy for `undo` without allocating. Its fields are private:
//! every change goes through a method that also updates the Zobrist hash
//! (`zobrist.rs`), which [`State::computed_hash`] recomputes from scratch
//! for the invariant checks. The stack's frames are the exception: they
//! change at almost every step, so their keys are summed when the hash is
//! asked for (a few frames) instead of at every change.

use super::board::Board;
use super::deck::Card;
use super::frame::{Battle, Frame, Hold, HoldKind, TurnStage};
use super::piece::{flag, Piece};
use super::pile::Pile;
use super::square::Square;
use super::zobrist;
use menagerie_core::{Outcome, Player};

/// The most frames the stack holds: each nested free attack uses a card,
/// and hands are small, so real games stay far below this.
pub const MAX_FRAMES: usize = 48;
pub const MAX_HOLDS: usize = 16;
pub const MAX_LIMBO: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Ongoing,
    Won(Player),
    NoKings,
    Quiet,
    TurnLimit,
}

/// Where cards lie, apart from the weapons in play: a hand, the draw pile
/// or the discard pile, as the index of its pile in the state (0, 1 the
/// hands by [`Player::index`], 2 the draw pile, 3 the discard pile). An
/// index rather than an enum with the hand's player: a card moves at
/// almost every ply, and the pile is then found without a branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Zone(u8);

impl Zone {
    pub const DRAW: Zone = Zone(2);
    pub const DISCARD: Zone = Zone(3);
    const ALL: [Zone; 4] = [Zone(0), Zone(1), Zone::DRAW, Zone::DISCARD];

    /// `player`'s hand.
    #[inline]
    pub const fn hand(player: Player) -> Zone {
        Zone(player.index() as u8)
    }

    /// The index of its pile (below 4).
    #[inline]
    fn index(self) -> usize {
        usize::from(self.0 & 3)
    }
}

/// Everything the position text says.
#[derive(Clone, Copy, Debug)]
pub struct State {
    /// Kept apart from the head: most plies (chance's cards, discards, the
    /// windows and answers of a battle) leave the board as it is, and
    /// [`History`] keeps a board only after a ply that changed it.
    board: Board,
    head: Head,
    /// The pending steps, bottom first: `head.stack_len` of them are used.
    /// The bottom one is always the turn's frame, its stage mirrored by
    /// `head.turn` (see there).
    stack: [Frame; MAX_FRAMES],
    /// How many times the board changed (wrapping): [`History`] tells by it
    /// whether a ply changed the board. Not part of the position.
    board_edits: u32,
}

/// All of a state but its board and its stack's frames (the stack is its
/// largest part, seldom more than a few of its frames used): what
/// [`History`] keeps whole for undo.
#[derive(Clone, Copy, Debug)]
struct Head {
    /// Whose turn it is.
    side: Player,
    /// Castling rights: 1 = White king side, 2 = White queen side, 4, 8 = Black's.
    castling: u8,
    /// The hands, the draw pile and the discard pile, by [`Zone::index`].
    piles: [Pile; 4],
    /// Weapons played in this action, waiting to go back to their hands.
    limbo: [(Player, Card); MAX_LIMBO],
    limbo_len: u8,
    holds: [Hold; MAX_HOLDS],
    holds_len: u8,
    battle: Option<Battle>,
    /// The stage of the turn's frame, the bottom of the stack, kept here
    /// too: most plies start from a stack of that frame alone, and
    /// [`History`] then keeps no frame (the head brings the stage back).
    turn: TurnStage,
    stack_len: u8,
    /// Turns in a row without a hit point change or a death.
    quiet: u16,
    /// Turns played.
    turns: u16,
    /// Whether a hit point changed or a piece died in this turn so far.
    eventful: bool,
    result: GameResult,
    /// The Zobrist hash of the state but the stack's frames, which change
    /// at almost every step of the rules: their keys are added when the
    /// hash is asked for ([`State::hash`]).
    hash: u64,
}

/// The states a game went through, for undo (and what the players know,
/// `knowledge.rs`), each kept as its head and its frames above the turn's,
/// and its board once per run of plies that left the board as it was:
/// copying a whole state (mostly the room for 48 frames) at every `play`
/// and `undo` was a large share of a random playout, and so was the board.
/// A card of chance that changed nothing but two piles is kept as the card
/// alone ([`History::card_drawn`]).
#[derive(Clone, Debug, Default)]
pub struct History {
    heads: Vec<Head>,
    /// The frames above the turn's of every state kept, in order.
    frames: Vec<Frame>,
    /// The board before the first ply kept, then the board after each ply
    /// that changed it: the last is the current state's board (once a ply
    /// was played).
    boards: Vec<Board>,
    /// Each ply: [`PLY_CARD`] with its card, or a ply from a state kept,
    /// [`PLY_BOARD`] when it changed the board.
    plies: Vec<u8>,
    /// The state's board edits when the ply under way started.
    edits: u32,
}

/// A ply played from a state kept whole that changed the board.
const PLY_BOARD: u8 = 1;
/// A card of chance that changed nothing but the piles (the drawer's hand
/// and the draw pile): the history keeps the card (bits 3 and up) and the
/// drawer (bit 2), not the state.
const PLY_CARD: u8 = 2;

impl History {
    /// Keeps a card of chance that moved from the draw pile to `drawer`'s
    /// hand and changed nothing else (`state` is the state after it).
    pub fn card_drawn(&mut self, state: &State, drawer: Player, card: Card) {
        if self.boards.is_empty() {
            self.boards.extend_from_slice(std::slice::from_ref(&state.board));
        }
        self.plies.push(PLY_CARD | (drawer.index() as u8) << 2 | (card.index() as u8) << 3);
    }

    /// The card and its drawer of a [`PLY_CARD`] record.
    fn card_of(ply: u8) -> (Player, Card) {
        (Player::from_index(usize::from(ply >> 2 & 1)), Card::new(ply >> 3))
    }

    /// Keeps `state` before a ply is played from it ([`History::played`]
    /// after the ply).
    pub fn push(&mut self, state: &State) {
        // From a slice, the head is copied once, straight into the vector.
        self.heads.extend_from_slice(std::slice::from_ref(&state.head));
        // The turn's frame comes back with the head's stage.
        if let [_, above @ ..] = state.frames() {
            if !above.is_empty() {
                self.frames.extend_from_slice(above);
            }
        }
        if self.boards.is_empty() {
            self.boards.extend_from_slice(std::slice::from_ref(&state.board));
        }
        self.edits = state.board_edits;
    }

    /// The ply since [`History::push`] gave `state`: its board is kept
    /// when the ply changed it.
    pub fn played(&mut self, state: &State) {
        let changed = state.board_edits != self.edits;
        if changed {
            self.boards.extend_from_slice(std::slice::from_ref(&state.board));
        }
        self.plies.push(if changed { PLY_BOARD } else { 0 });
    }

    /// Puts the last state kept back into `state`; false when none is left.
    #[inline]
    pub fn pop_into(&mut self, state: &mut State) -> bool {
        let Some(ply) = self.plies.pop() else { return false };
        if ply & PLY_CARD != 0 {
            // The card goes back: the piles and the hash are as they were.
            let (drawer, card) = Self::card_of(ply);
            state.move_card(Zone::hand(drawer), Zone::DRAW, card);
            return true;
        }
        let Some(head) = self.heads.last() else { return false };
        state.stack[0] = Frame::Turn(head.turn);
        let above = usize::from(head.stack_len).saturating_sub(1);
        if above > 0 {
            let start = self.frames.len() - above;
            state.stack[1..=above].copy_from_slice(&self.frames[start..]);
            self.frames.truncate(start);
        }
        // Copied once from the vector into the state (a popped value would
        // be copied out first).
        state.head = *head;
        self.heads.truncate(self.heads.len() - 1);
        // A ply that left the board as it was left the board it started from.
        if ply & PLY_BOARD != 0 {
            self.boards.truncate(self.boards.len() - 1);
            if let Some(board) = self.boards.last() {
                state.board = *board;
            }
        }
        true
    }

    /// The board the history says the current state has (none before the
    /// first ply).
    pub fn current_board(&self) -> Option<&Board> {
        self.boards.last()
    }

    /// The states the plies started from, first to last (`current` is the
    /// state after the last): the states kept, and before a card kept as a
    /// card, the state after it with the card back in the draw pile.
    pub fn states(&self, current: &State) -> Vec<State> {
        let (mut start, mut board, mut heads) = (0, 0, self.heads.iter());
        let mut kept: Vec<Option<State>> = Vec::with_capacity(self.plies.len());
        for &ply in &self.plies {
            if ply & PLY_CARD != 0 {
                kept.push(None);
                continue;
            }
            let Some(&head) = heads.next() else { break };
            let mut state = State {
                board: self.boards[board],
                head,
                stack: [Frame::Turn(TurnStage::Start); MAX_FRAMES],
                board_edits: 0,
            };
            state.stack[0] = Frame::Turn(head.turn);
            let above = usize::from(head.stack_len).saturating_sub(1);
            state.stack[1..=above].copy_from_slice(&self.frames[start..start + above]);
            start += above;
            board += usize::from(ply & PLY_BOARD);
            kept.push(Some(state));
        }
        // Last to first, each card's state from the state after it.
        let mut after = *current;
        let mut states: Vec<State> = kept
            .into_iter()
            .zip(&self.plies)
            .rev()
            .map(|(state, &ply)| {
                let state = state.unwrap_or_else(|| {
                    let (drawer, card) = Self::card_of(ply);
                    let mut before = after;
                    before.move_card(Zone::hand(drawer), Zone::DRAW, card);
                    before
                });
                after = state;
                state
            })
            .collect();
        states.reverse();
        states
    }
}

impl State {
    /// No pieces, no cards, White to move at the start of a turn.
    pub fn empty() -> State {
        let head = Head {
            side: Player::First,
            castling: 0,
            piles: [Pile::EMPTY; 4],
            limbo: [(Player::First, Card::new(0)); MAX_LIMBO],
            limbo_len: 0,
            holds: [Hold { kind: HoldKind::Choke, holder: Square::new(0), held: Square::new(0) }; MAX_HOLDS],
            holds_len: 0,
            battle: None,
            turn: TurnStage::Start,
            stack_len: 1,
            quiet: 0,
            turns: 0,
            eventful: false,
            result: GameResult::Ongoing,
            hash: 0,
        };
        let mut s =
            State { board: Board::EMPTY, head, stack: [Frame::Turn(TurnStage::Start); MAX_FRAMES], board_edits: 0 };
        s.head.hash = s.computed_hash().wrapping_sub(s.stack_key());
        s
    }

    /// The hash recomputed from every feature (the incremental one must
    /// always equal it).
    pub fn computed_hash(&self) -> u64 {
        let mut h = zobrist::side(self.head.side)
            .wrapping_add(zobrist::castling(self.head.castling))
            .wrapping_add(zobrist::limbo(self.limbo()))
            .wrapping_add(zobrist::battle(self.head.battle))
            .wrapping_add(zobrist::counters(self.head.quiet, self.head.turns, self.head.eventful))
            .wrapping_add(zobrist::result(self.head.result));
        for (sq, piece) in self.board.pieces() {
            h = h.wrapping_add(zobrist::piece(sq, piece));
        }
        for zone in Zone::ALL {
            for (card, n) in self.head.piles[zone.index()].cards() {
                h = h.wrapping_add(zobrist::card(zone.index(), card).wrapping_mul(u64::from(n)));
            }
        }
        for &hold in self.holds() {
            h = h.wrapping_add(zobrist::hold(hold));
        }
        for (depth, &frame) in self.frames().iter().enumerate() {
            h = h.wrapping_add(zobrist::frame(depth, frame));
        }
        h
    }

    /// The keys of the frames of the stack.
    fn stack_key(&self) -> u64 {
        self.frames().iter().enumerate().fold(0u64, |h, (depth, &frame)| h.wrapping_add(zobrist::frame(depth, frame)))
    }

    /// The Zobrist hash: the one kept as the state changes, and the stack's
    /// keys (a few frames).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.head.hash.wrapping_add(self.stack_key())
    }

    #[inline]
    fn replace_key(&mut self, old: u64, new: u64) {
        self.head.hash = self.head.hash.wrapping_sub(old).wrapping_add(new);
    }

    // ------------------------------------------------------------------
    // The board
    // ------------------------------------------------------------------

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    #[inline]
    pub fn piece(&self, sq: Square) -> Option<Piece> {
        self.board.get(sq)
    }

    /// The piece on a square, if there is a square.
    #[inline]
    pub fn occupant(&self, sq: Option<Square>) -> Option<Piece> {
        sq.and_then(|sq| self.board.get(sq))
    }

    pub fn set_piece(&mut self, sq: Square, piece: Option<Piece>) {
        let old = self.board.get(sq);
        if old == piece {
            return;
        }
        let key = |p: Option<Piece>| p.map_or(0, |p| zobrist::piece(sq, p));
        self.replace_key(key(old), key(piece));
        self.board.set(sq, piece);
        self.board_edits = self.board_edits.wrapping_add(1);
    }

    /// Moves the piece on `from` to `to` (`to` empty, or its piece is
    /// replaced), adding the marks `marks`: both squares change at once, a
    /// step of most actions. False (and nothing changes) when `from` is empty.
    pub fn relocate(&mut self, from: Square, to: Square, marks: u8) -> bool {
        let Some(piece) = self.board.get(from) else { return false };
        let moved = Piece { flags: piece.flags | marks, ..piece };
        let target = self.board.get(to);
        let replaced = target.map_or(0, |p| zobrist::piece(to, p));
        self.replace_key(zobrist::piece(from, piece).wrapping_add(replaced), zobrist::piece(to, moved));
        if target.is_none() {
            // A step to an empty square (most moves): both squares at once.
            self.board.step(from, to, moved);
        } else {
            self.board.set(from, None);
            self.board.set(to, Some(moved));
        }
        self.board_edits = self.board_edits.wrapping_add(1);
        true
    }

    pub fn kings(&self, player: Player) -> usize {
        self.board.kings(player).count_ones() as usize
    }

    /// Whether White and whether Black still has a King.
    pub fn have_kings(&self) -> [bool; 2] {
        [Player::First, Player::Second].map(|p| self.board.kings(p) != 0)
    }

    // ------------------------------------------------------------------
    // Side, castling, counters, result
    // ------------------------------------------------------------------

    #[inline]
    pub fn side(&self) -> Player {
        self.head.side
    }

    pub fn set_side(&mut self, side: Player) {
        self.replace_key(zobrist::side(self.head.side), zobrist::side(side));
        self.head.side = side;
    }

    #[inline]
    pub fn castling(&self) -> u8 {
        self.head.castling
    }

    pub fn set_castling(&mut self, rights: u8) {
        self.replace_key(zobrist::castling(self.head.castling), zobrist::castling(rights));
        self.head.castling = rights;
    }

    pub fn quiet(&self) -> u16 {
        self.head.quiet
    }

    pub fn turns(&self) -> u16 {
        self.head.turns
    }

    pub fn eventful(&self) -> bool {
        self.head.eventful
    }

    pub fn set_counters(&mut self, quiet: u16, turns: u16, eventful: bool) {
        self.replace_key(
            zobrist::counters(self.head.quiet, self.head.turns, self.head.eventful),
            zobrist::counters(quiet, turns, eventful),
        );
        (self.head.quiet, self.head.turns, self.head.eventful) = (quiet, turns, eventful);
    }

    /// A hit point changed or a piece died in this turn.
    pub fn mark_eventful(&mut self) {
        if !self.head.eventful {
            self.set_counters(self.head.quiet, self.head.turns, true);
        }
    }

    #[inline]
    pub fn result(&self) -> GameResult {
        self.head.result
    }

    pub fn set_result(&mut self, result: GameResult) {
        self.replace_key(zobrist::result(self.head.result), zobrist::result(result));
        self.head.result = result;
    }

    pub fn outcome(&self) -> Option<Outcome> {
        match self.head.result {
            GameResult::Ongoing => None,
            GameResult::Won(winner) => Some(Outcome::Win { winner, reason: "the other side has no King" }),
            GameResult::NoKings => Some(Outcome::Draw { reason: "both sides lost their Kings" }),
            GameResult::Quiet => Some(Outcome::Draw { reason: "100 turns without a hit" }),
            GameResult::TurnLimit => Some(Outcome::Draw { reason: "1000 turns" }),
        }
    }

    // ------------------------------------------------------------------
    // Cards
    // ------------------------------------------------------------------

    #[inline]
    pub fn pile(&self, zone: Zone) -> &Pile {
        &self.head.piles[zone.index()]
    }

    #[inline]
    pub fn hand(&self, player: Player) -> &Pile {
        self.pile(Zone::hand(player))
    }

    #[inline]
    pub fn hand_size(&self, player: Player) -> u32 {
        self.hand(player).total()
    }

    pub fn add_card(&mut self, zone: Zone, card: Card) {
        let pile = &mut self.head.piles[zone.index()];
        if pile.count(card) < u8::MAX {
            pile.add(card);
            self.head.hash = self.head.hash.wrapping_add(zobrist::card(zone.index(), card));
        }
    }

    /// Takes a card out of a pile; false (and nothing changes) if it holds none.
    pub fn take_card(&mut self, zone: Zone, card: Card) -> bool {
        let taken = self.head.piles[zone.index()].take(card);
        if taken {
            self.head.hash = self.head.hash.wrapping_sub(zobrist::card(zone.index(), card));
        }
        taken
    }

    /// Moves one card from a pile to another, if the first holds one.
    pub fn move_card(&mut self, from: Zone, to: Zone, card: Card) -> bool {
        let moved = self.take_card(from, card);
        if moved {
            self.add_card(to, card);
        }
        moved
    }

    /// Replaces a whole pile.
    pub fn set_pile(&mut self, zone: Zone, pile: Pile) {
        let key = |p: &Pile| {
            p.cards().fold(0u64, |h, (card, n)| {
                h.wrapping_add(zobrist::card(zone.index(), card).wrapping_mul(u64::from(n)))
            })
        };
        let (old, new) = (key(&self.head.piles[zone.index()]), key(&pile));
        self.replace_key(old, new);
        self.head.piles[zone.index()] = pile;
    }

    /// The discard pile becomes the draw pile.
    pub fn reshuffle(&mut self) {
        let discard = *self.pile(Zone::DISCARD);
        let mut draw = *self.pile(Zone::DRAW);
        for (card, n) in discard.cards() {
            for _ in 0..n {
                draw.add(card);
            }
        }
        self.set_pile(Zone::DRAW, draw);
        self.set_pile(Zone::DISCARD, Pile::EMPTY);
    }

    pub fn limbo(&self) -> &[(Player, Card)] {
        &self.head.limbo[..self.head.limbo_len as usize]
    }

    /// Puts a weapon in play; false when no more fit (never in play).
    pub fn push_limbo(&mut self, player: Player, card: Card) -> bool {
        if self.head.limbo_len as usize >= MAX_LIMBO {
            return false;
        }
        let old = zobrist::limbo(self.limbo());
        self.head.limbo[self.head.limbo_len as usize] = (player, card);
        self.head.limbo_len += 1;
        self.replace_key(old, zobrist::limbo(self.limbo()));
        true
    }

    /// Takes the weapon at `index` out of play.
    pub fn remove_limbo(&mut self, index: usize) {
        if index >= self.head.limbo_len as usize {
            return;
        }
        let old = zobrist::limbo(self.limbo());
        self.head.limbo.copy_within(index + 1..self.head.limbo_len as usize, index);
        self.head.limbo_len -= 1;
        self.replace_key(old, zobrist::limbo(self.limbo()));
    }

    // ------------------------------------------------------------------
    // Holds
    // ------------------------------------------------------------------

    pub fn holds(&self) -> &[Hold] {
        &self.head.holds[..self.head.holds_len as usize]
    }

    pub fn hold_of(&self, sq: Square) -> Option<Hold> {
        self.holds().iter().copied().find(|h| h.holder == sq || h.held == sq)
    }

    /// In a hold of either role: cannot move or attack.
    pub fn in_hold(&self, sq: Square) -> bool {
        self.hold_of(sq).is_some()
    }

    /// Can move and attack: not stunned, not in a hold.
    pub fn can_act(&self, sq: Square) -> bool {
        self.piece(sq).is_some_and(|p| !p.has(flag::STUNNED)) && !self.in_hold(sq)
    }

    /// Cards may be played for it: not stunned, not in a Choke, not held in
    /// a Headlock (the Headlock's holder may have cards).
    pub fn can_have_cards(&self, sq: Square) -> bool {
        if self.piece(sq).is_none_or(|p| p.has(flag::STUNNED)) {
            return false;
        }
        match self.hold_of(sq) {
            None => true,
            Some(h) => h.kind == HoldKind::Headlock && h.holder == sq,
        }
    }

    /// Adds a hold; a full table drops it (never reached in play: a piece
    /// is in one hold at most).
    pub fn add_hold(&mut self, hold: Hold) {
        if (self.head.holds_len as usize) < MAX_HOLDS {
            self.head.holds[self.head.holds_len as usize] = hold;
            self.head.holds_len += 1;
            self.head.hash = self.head.hash.wrapping_add(zobrist::hold(hold));
        }
    }

    /// Ends every hold `sq` is in.
    pub fn remove_hold_with(&mut self, sq: Square) {
        let mut i = 0;
        while i < self.head.holds_len as usize {
            let hold = self.head.holds[i];
            if hold.holder == sq || hold.held == sq {
                self.head.holds.copy_within(i + 1..self.head.holds_len as usize, i);
                self.head.holds_len -= 1;
                self.head.hash = self.head.hash.wrapping_sub(zobrist::hold(hold));
            } else {
                i += 1;
            }
        }
    }

    /// A piece in a hold moved from `from` to `to`: the hold follows it.
    pub fn move_holds(&mut self, from: Square, to: Square) {
        for i in 0..self.head.holds_len as usize {
            let old = self.head.holds[i];
            let mut new = old;
            if new.holder == from {
                new.holder = to;
            }
            if new.held == from {
                new.held = to;
            }
            if new != old {
                self.head.holds[i] = new;
                self.replace_key(zobrist::hold(old), zobrist::hold(new));
            }
        }
    }

    // ------------------------------------------------------------------
    // The battle
    // ------------------------------------------------------------------

    #[inline]
    pub fn battle(&self) -> Option<Battle> {
        self.head.battle
    }

    pub fn set_battle(&mut self, battle: Option<Battle>) {
        self.replace_key(zobrist::battle(self.head.battle), zobrist::battle(battle));
        self.head.battle = battle;
    }

    /// Changes the battle in progress, if there is one.
    pub fn update_battle(&mut self, change: impl FnOnce(&mut Battle)) {
        if let Some(mut battle) = self.head.battle {
            change(&mut battle);
            self.set_battle(Some(battle));
        }
    }

    // ------------------------------------------------------------------
    // The stack
    // ------------------------------------------------------------------

    pub fn frames(&self) -> &[Frame] {
        &self.stack[..self.head.stack_len as usize]
    }

    #[inline]
    pub fn top(&self) -> Frame {
        self.stack[self.head.stack_len as usize - 1]
    }

    /// The frame under the top one, if any.
    pub fn below_top(&self) -> Option<Frame> {
        (self.head.stack_len >= 2).then(|| self.stack[self.head.stack_len as usize - 2])
    }

    pub fn stack_len(&self) -> usize {
        self.head.stack_len as usize
    }

    /// Replaces the top frame. The bottom one stays a turn's frame: another
    /// frame there is dropped (the rules never put one there, and a text
    /// that tries is refused).
    pub fn set_top(&mut self, frame: Frame) {
        if self.head.stack_len == 1 {
            let Frame::Turn(stage) = frame else { return };
            self.head.turn = stage;
        }
        self.stack[self.head.stack_len as usize - 1] = frame;
    }

    /// Sets the stage of the turn's frame, the bottom of the stack, whatever
    /// is above it: the turn's steps go from stage to stage with nothing
    /// above, and need no look at the top.
    #[inline]
    pub fn set_turn_stage(&mut self, stage: TurnStage) {
        self.head.turn = stage;
        self.stack[0] = Frame::Turn(stage);
    }

    /// The stage of the turn's frame (the bottom of the stack).
    pub fn turn_stage(&self) -> TurnStage {
        self.head.turn
    }

    /// The turn's stage when the turn's frame is alone on the stack (most
    /// plies): read from the head, without copying the top frame out.
    #[inline]
    pub fn turn_on_top(&self) -> Option<TurnStage> {
        (self.head.stack_len == 1).then_some(self.head.turn)
    }

    /// Pushes a frame; a full stack drops it (never reached in play: see
    /// [`MAX_FRAMES`]), so that a hand-built text cannot make it panic.
    pub fn push(&mut self, frame: Frame) {
        let depth = self.head.stack_len as usize;
        if depth < MAX_FRAMES {
            self.stack[depth] = frame;
            self.head.stack_len += 1;
        }
    }

    /// Pops the top frame; the bottom (turn) frame stays.
    pub fn pop(&mut self) {
        if self.head.stack_len > 1 {
            self.head.stack_len -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lunch::{Lunch, LunchVariant, Options};
    use menagerie_core::Game;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    /// The history gives back the state every ply started from, those of
    /// the cards of chance it keeps as cards (moved back from the state
    /// after them) among them, and undo brings each back in turn.
    #[test]
    fn the_history_gives_back_every_state() {
        let variant = LunchVariant::standard(Options::default());
        // A state's text: the game's without the known cards, which the
        // game works out from the history, not the state.
        let text = |state: &State| Lunch::from_state(&variant, *state, [Pile::EMPTY; 2]).to_text();
        let state_fields = |text: &str| text.split(' ').take(14).collect::<Vec<_>>().join(" ");
        for seed in 0..6 {
            let mut game = Lunch::start(&variant, 0);
            let mut rng = StdRng::seed_from_u64(seed);
            let (mut before, mut scratch) = (Vec::new(), Vec::new());
            while let Some(mv) = game.random_move(&mut rng, &mut scratch) {
                before.push((game.to_text(), game.hash()));
                game.play(mv);
            }
            let cards = game.history.plies.iter().filter(|&&ply| ply & PLY_CARD != 0).count();
            assert!(cards > 0 && cards < before.len(), "seed {seed}: {cards} cards kept as cards");
            let states = game.history.states(&game.state);
            assert_eq!(states.len(), before.len());
            for (ply, (state, (text_before, hash))) in states.iter().zip(&before).enumerate() {
                assert_eq!((text(state), state.hash()), (state_fields(text_before), *hash), "seed {seed} ply {ply}");
            }
            for (ply, (text_before, hash)) in before.iter().enumerate().rev() {
                game.undo();
                assert_eq!((game.to_text(), game.hash()), (text_before.clone(), *hash), "seed {seed}: undo of ply {ply}");
            }
        }
    }
}
