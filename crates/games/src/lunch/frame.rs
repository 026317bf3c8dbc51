//! The pending steps of a turn ("frames" of the position's stack), the
//! battle in progress and the holds: where in a turn or a battle the game
//! stands and who must decide next. Plain `Copy` data.

use super::deck::Card;
use super::square::Square;
use menagerie_core::Player;

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

/// The steps of one turn (rules: "A turn"), and the deal before the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TurnStage {
    /// The hands are dealt, White's first: chance deals while a hand has
    /// fewer than 5 cards and a card is left.
    Deal,
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
    /// The win check and the turn's counters; the game may end here.
    EndCheck,
    /// Both players draw back to 5, the mover first: each card is a chance
    /// move; then the other player's turn.
    Draw,
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

/// The direction a spinning attack passes on, as White sees the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Spin {
    Clockwise,
    CounterClockwise,
}

impl Spin {
    /// The step round the ring of [`super::board::ring`].
    pub fn step(self) -> i8 {
        match self {
            Spin::Clockwise => 1,
            Spin::CounterClockwise => -1,
        }
    }
}

/// A card on its way to a piece, from its Humiliation window to its hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Strike {
    pub role: Role,
    /// Who played the card.
    pub player: Player,
    pub card: Card,
    /// The piece that makes the attack (none for a free attack won against
    /// a First Aid action).
    pub from: Option<Square>,
    /// The piece the card will hit (a spin moves it on).
    pub to: Square,
    pub damage: i8,
    pub stage: StrikeStage,
    /// Answer cards played (Big Combo allows two).
    pub answers: u8,
    /// Set by a resolved window: the card it was about was cancelled.
    pub cancelled: bool,
    /// The answer card waiting on its window.
    pub answer: Option<Card>,
    /// Last-chance First Aid waiting on its window, and how many cards.
    pub aid_card: Option<Card>,
    pub aid_count: u8,
    /// The direction a Dodged spinning opening card passes on, if it spins.
    pub spin: Option<Spin>,
    /// Where the spin stands on the ring, and how many ring squares are left.
    pub ring_pos: u8,
    pub ring_left: u8,
    /// The spin has moved on from the target: no windows any more.
    pub spun: bool,
}

impl Strike {
    /// A card of `player` from `from` to `to`, before its window.
    pub fn new(role: Role, player: Player, card: Card, from: Option<Square>, to: Square, damage: i8) -> Strike {
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
            answer: None,
            aid_card: None,
            aid_count: 0,
            spin: None,
            ring_pos: 0,
            ring_left: 0,
            spun: false,
        }
    }
}

/// One pending step. The top frame of the stack is what happens next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Frame {
    Turn(TurnStage),
    /// Knight-or-Bishop and promotion choices after a rounding.
    Round,
    Battle(BattleStage),
    /// A First Aid action on `square`: its window, then the heal.
    /// `opened`: its window was opened; `cancelled`: the window cancelled it.
    FirstAid { square: Square, card: Card, count: u8, opened: bool, cancelled: bool },
    Strike(Strike),
    /// A Humiliation window on the card of the frame below: `owner` played
    /// that card, `chain` Humiliations were played on it so far, `via` is
    /// the piece that made the last opposing Humiliation when an option lets
    /// a third piece humiliate.
    Window { owner: Player, chain: u8, via: Option<Square> },
    /// `player` may make a free attack from `from` (or no piece) on `to`.
    FreeOffer { player: Player, from: Option<Square>, to: Square },
}

/// The battle in progress (at most one at a time).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Battle {
    pub attacker: Player,
    /// The attacking piece (after it moved next to the target) and the target.
    pub a: Square,
    pub t: Square,
    /// Where the attacker started (a voided King attack goes back there).
    pub a_from: Option<Square>,
    pub card: Card,
    /// Where the attacker moves at the end (a killed piece's square).
    pub result: Option<Square>,
    pub blocked: bool,
    /// The whole action was voided (`humiliate-kings`).
    pub void: bool,
}
