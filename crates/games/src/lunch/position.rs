//! The full state of a Lunch Chess game: board, cards, holds, and the stack
//! of pending steps ("frames") that says where in a turn or a battle the
//! game stands and who must decide next.
//!
//! The state is plain `Copy` data with fixed-size arrays, so that `play`
//! keeps a copy for `undo` without allocating.

use super::board::Board;
use super::piece::{Kind, Piece};
use super::square::{Square, NO_SQUARE};
use super::deck::{MAX_CARDS, MAX_TYPES};
use menagerie_core::{Outcome, Player};

/// The most frames the stack holds: each nested free attack uses a card,
/// and hands are small, so real games stay far below this.
pub const MAX_FRAMES: usize = 48;
pub const MAX_HOLDS: usize = 16;
pub const MAX_LIMBO: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HoldKind {
    Choke,
    Headlock,
}

/// A Choke (`holder` chokes `held`) or a Headlock (`holder` holds `held`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hold {
    pub kind: HoldKind,
    pub holder: Square,
    pub held: Square,
}

/// The steps of one turn (rules: "A turn").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TurnStage {
    /// Chokes tick (automatic).
    Start,
    /// The mover may make Headlock free attacks (a decision while offered).
    Headlock,
    /// Rounding, promotion after the start of turn.
    StartRound,
    /// The win check after the start of turn.
    StartCheck,
    /// The mover chooses the action.
    Action,
    /// Rounding, promotion after the action.
    EndRound,
    /// Win check, drawing back to 5, the other player's turn.
    EndCheck,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BattleStage {
    /// After the opening card: the Grab window if a Block took effect.
    AfterOpening,
    /// The Grab window, offered to the target's player.
    GrabTarget,
    /// The Grab window, offered to the attacker's player.
    GrabAttacker,
    /// Result: movement, weapons back to hands.
    End,
}

/// Why a card is flying at a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// The opening card of a battle.
    Opening,
    /// A free attack (Humiliation, Poke, Uppercut²).
    Free,
    /// The card played with a Grab (an attack, a weapon or Headlock).
    Grab,
    /// A Headlock free attack at the start of the holder's turn.
    Headlock,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StrikeStage {
    /// Its Humiliation window is about to open.
    Window,
    /// The window is resolved: was the card cancelled?
    AfterWindow,
    /// The target's player may answer (a decision while offered).
    Answer,
    /// An answer card's window is resolved: did the answer stand?
    AnswerWindow,
    /// A Dodged spinning attack looks for its next piece.
    Spin,
    /// The piece the spin reached may Dodge or Block (a decision).
    SpinAnswer,
    /// The hit piece's player may play First Aid (a decision while offered).
    LastChance,
    /// The last-chance First Aid's window is resolved.
    AidWindow,
    /// The damage and the card's effects.
    Hit,
}

/// A card on its way to a piece, from its Humiliation window to its hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Strike {
    pub role: Role,
    /// Who played the card.
    pub player: Player,
    pub card: u8,
    /// The piece that makes the attack (`NO_SQUARE`: none, as for a free
    /// attack won against a First Aid action).
    pub from: Square,
    /// The piece the card will hit (a spin moves it on).
    pub to: Square,
    pub damage: i8,
    pub stage: StrikeStage,
    /// Answer cards played (Big Combo allows two).
    pub answers: u8,
    /// Set by a resolved window: the card it was about was cancelled.
    pub cancelled: bool,
    /// The answer card waiting on its window (`NO_CARD` if none).
    pub answer: u8,
    /// Last-chance First Aid waiting on its window.
    pub aid_card: u8,
    pub aid_count: u8,
    /// Spin direction: +1 clockwise, -1 counter-clockwise, 0 none.
    pub spin: i8,
    /// Where the spin stands on the ring, and how many ring squares are left.
    pub ring_pos: u8,
    pub ring_left: u8,
    /// The spin has moved on from the target: no windows any more.
    pub spun: bool,
}

pub const NO_CARD: u8 = 255;

/// One pending step. The top frame of the stack is what happens next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Frame {
    Turn(TurnStage),
    /// Knight-or-Bishop and promotion choices after a rounding.
    Round,
    Battle(BattleStage),
    /// A First Aid action on `square`: its window, then the heal.
    /// `opened`: its window was opened; `cancelled`: the window cancelled it.
    FirstAid {
        square: Square,
        card: u8,
        count: u8,
        opened: bool,
        cancelled: bool,
    },
    Strike(Strike),
    /// A Humiliation window on the card of the frame below: `owner` played
    /// that card, `chain` Humiliations were played on it so far, `via` is
    /// the piece that made the last opposing Humiliation when an option lets
    /// a third piece humiliate.
    Window {
        owner: Player,
        chain: u8,
        via: Square,
    },
    /// `player` may make a free attack from `from` (or no piece) on `to`.
    FreeOffer {
        player: Player,
        from: Square,
        to: Square,
    },
}

/// The battle in progress (at most one at a time).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Battle {
    pub attacker: Player,
    /// The attacking piece (after it moved next to the target) and the target.
    pub a: Square,
    pub t: Square,
    /// Where the attacker started (a voided King attack goes back there).
    pub a_from: Square,
    pub card: u8,
    /// Where the attacker moves at the end (a killed piece's square).
    pub result: Square,
    pub blocked: bool,
    /// The whole action was voided (`humiliate-kings`).
    pub void: bool,
}

impl Battle {
    pub const NONE: Battle = Battle {
        attacker: Player::First,
        a: NO_SQUARE,
        t: NO_SQUARE,
        a_from: NO_SQUARE,
        card: NO_CARD,
        result: NO_SQUARE,
        blocked: false,
        void: false,
    };
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Ongoing,
    Won(Player),
    NoKings,
    Quiet,
    TurnLimit,
}

/// Everything the position text says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub board: Board,
    /// Whose turn it is.
    pub side: Player,
    /// Castling rights: 1 = White king side, 2 = White queen side, 4, 8 = Black's.
    pub castling: u8,
    /// Cards in each hand, counted per card type.
    pub hands: [[u8; MAX_TYPES]; 2],
    /// The draw pile; the top card is the last one.
    pub draw: [u8; MAX_CARDS],
    pub draw_len: u8,
    /// The discard pile, counted per card type (its order never matters).
    pub discard: [u8; MAX_TYPES],
    /// Weapons played in this action, waiting to go back to their hands.
    pub limbo: [(Player, u8); MAX_LIMBO],
    pub limbo_len: u8,
    pub holds: [Hold; MAX_HOLDS],
    pub holds_len: u8,
    pub battle: Battle,
    pub stack: [Frame; MAX_FRAMES],
    pub stack_len: u8,
    /// Turns in a row without a hit point change or a death.
    pub quiet: u16,
    /// Turns played.
    pub turns: u16,
    /// Whether a hit point changed or a piece died in this turn so far.
    pub eventful: bool,
    /// The reshuffle generator's state (xorshift64*).
    pub rng: u64,
    pub result: GameResult,
}

impl State {
    pub fn empty() -> State {
        State {
            board: [None; 64],
            side: Player::First,
            castling: 0,
            hands: [[0; MAX_TYPES]; 2],
            draw: [0; MAX_CARDS],
            draw_len: 0,
            discard: [0; MAX_TYPES],
            limbo: [(Player::First, 0); MAX_LIMBO],
            limbo_len: 0,
            holds: [Hold { kind: HoldKind::Choke, holder: NO_SQUARE, held: NO_SQUARE }; MAX_HOLDS],
            holds_len: 0,
            battle: Battle::NONE,
            stack: [Frame::Turn(TurnStage::Start); MAX_FRAMES],
            stack_len: 1,
            quiet: 0,
            turns: 0,
            eventful: false,
            rng: 1,
            result: GameResult::Ongoing,
        }
    }

    pub fn piece(&self, sq: Square) -> Option<Piece> {
        if sq >= 64 {
            None
        } else {
            self.board[sq as usize]
        }
    }

    pub fn top(&self) -> Frame {
        self.stack[self.stack_len as usize - 1]
    }

    pub fn top_mut(&mut self) -> &mut Frame {
        &mut self.stack[self.stack_len as usize - 1]
    }

    /// Pushes a frame; a full stack drops it (never reached in play: see
    /// [`MAX_FRAMES`]), so that a hand-built text cannot make it panic.
    pub fn push(&mut self, frame: Frame) {
        if (self.stack_len as usize) < MAX_FRAMES {
            self.stack[self.stack_len as usize] = frame;
            self.stack_len += 1;
        }
    }

    pub fn pop(&mut self) {
        if self.stack_len > 1 {
            self.stack_len -= 1;
        }
    }

    pub fn frames(&self) -> &[Frame] {
        &self.stack[..self.stack_len as usize]
    }

    pub fn hand_size(&self, player: Player) -> u32 {
        self.hands[player.index()].iter().map(|&n| n as u32).sum()
    }

    pub fn holds(&self) -> &[Hold] {
        &self.holds[..self.holds_len as usize]
    }

    pub fn limbo(&self) -> &[(Player, u8)] {
        &self.limbo[..self.limbo_len as usize]
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
        self.piece(sq).is_some_and(|p| !p.has(super::piece::flag::STUNNED)) && !self.in_hold(sq)
    }

    /// Cards may be played for it: not stunned, not in a Choke, not held in
    /// a Headlock (the Headlock's holder may have cards).
    pub fn can_have_cards(&self, sq: Square) -> bool {
        if self.piece(sq).is_none_or(|p| p.has(super::piece::flag::STUNNED)) {
            return false;
        }
        match self.hold_of(sq) {
            None => true,
            Some(h) => h.kind == HoldKind::Headlock && h.holder == sq,
        }
    }

    pub fn remove_hold_with(&mut self, sq: Square) {
        let mut i = 0;
        while i < self.holds_len as usize {
            if self.holds[i].holder == sq || self.holds[i].held == sq {
                self.holds.copy_within(i + 1..self.holds_len as usize, i);
                self.holds_len -= 1;
            } else {
                i += 1;
            }
        }
    }

    pub fn add_hold(&mut self, hold: Hold) {
        if (self.holds_len as usize) < MAX_HOLDS {
            self.holds[self.holds_len as usize] = hold;
            self.holds_len += 1;
        }
    }

    pub fn kings(&self, player: Player) -> usize {
        self.board.iter().flatten().filter(|p| p.color == player && p.kind == Kind::King).count()
    }

    pub fn outcome(&self) -> Option<Outcome> {
        match self.result {
            GameResult::Ongoing => None,
            GameResult::Won(winner) => Some(Outcome::Win { winner, reason: "the other side has no King" }),
            GameResult::NoKings => Some(Outcome::Draw { reason: "both sides lost their Kings" }),
            GameResult::Quiet => Some(Outcome::Draw { reason: "100 turns without a hit" }),
            GameResult::TurnLimit => Some(Outcome::Draw { reason: "1000 turns" }),
        }
    }

    /// xorshift64*: the generator of reshuffles, carried in the text.
    pub fn next_random(&mut self) -> u64 {
        let mut x = self.rng;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.rng = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}
