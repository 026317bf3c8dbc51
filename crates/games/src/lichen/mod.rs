//! Lichen Chess (Alexandre Muñiz, 1999): stones with eight slots, tokens from
//! a hand, control by majority, and a win by controlling the enemy kingstone.
//! Variants `lichen` (5 x 3) and `lichen-3x3` (the inventor's 3 x 3 original).
//!
//! One move of the game model is one whole turn (`a2ne`, `a2ne;c1>n`,
//! `a2ne;a2*ne`): the harvest at its start is automatic, the placement is
//! compulsory, the act optional. The position text is taken between turns,
//! before the next player's harvest, so [`Lichen`] stores that state and
//! applies the harvest when the turn is played (and on a copy when moves are
//! listed or counted).
//!
//! Rule readings pinned by tests (see `docs/lichen.md`):
//! - a player who must place but finds no empty slot (every stone full and
//!   nothing to harvest) loses, like a player with an empty hand;
//! - the position text carries the count of quiet turns (its fifth field,
//!   when not 0) but no history, so the repetition count starts at the
//!   position a game was set up from;
//! - a hand-built position in which the player who just moved controls the
//!   mover's kingstone is over (that player won).

mod invariants;
mod encode;
mod eval;
mod inputs;
mod study;
mod movegen;
mod moves;
mod notation;
mod position;
mod square;
mod text;
mod view;
mod zobrist;

pub use moves::{Act, Move};
pub use square::{Direction, Square};

use menagerie_core::{
    Actor, Game, MoveError, OptionInfo, Outcome, Player, PositionError, VariantError, VariantInfo, VariantSpec,
};
use position::Board;
use rand::Rng;
use square::Geometry;

/// The 200 turns of the engine-convention draw.
pub const QUIET_TURN_LIMIT: u32 = 200;

const START_WIDE: &str =
    ".[----B---][----B---k][----B---]./[--------]...[--------]/.[W-------][W-------K][W-------]. w 20 20";
const START_SQUARE: &str = "[----B---][----B---k][----B---]/.../[W-------][W-------K][W-------] w 20 20";

/// Which board is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardSize {
    /// `lichen`: 5 x 3 with two neutral stones.
    Wide,
    /// `lichen-3x3`: the 3 x 3 original.
    Square,
}

/// The variant: the board, and whether full stones are harvested (the
/// `no-harvest` option turns the harvest off).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LichenVariant {
    pub size: BoardSize,
    pub harvest: bool,
}

/// The option that turns the harvest off.
const NO_HARVEST: &str = "no-harvest";

const OPTIONS: &[OptionInfo] = &[OptionInfo {
    name: NO_HARVEST,
    value: None,
    summary: "no harvest of full stones: tokens leave the game only when captured",
}];

impl LichenVariant {
    /// `lichen`, with the harvest.
    pub const WIDE: LichenVariant = LichenVariant { size: BoardSize::Wide, harvest: true };
    /// `lichen-3x3`, with the harvest.
    pub const SQUARE: LichenVariant = LichenVariant { size: BoardSize::Square, harvest: true };

    fn geometry(self) -> &'static Geometry {
        match self.size {
            BoardSize::Wide => &square::WIDE,
            BoardSize::Square => &square::SQUARE,
        }
    }

    pub fn id(self) -> &'static str {
        match self.size {
            BoardSize::Wide => "lichen",
            BoardSize::Square => "lichen-3x3",
        }
    }

    fn start_text(self) -> &'static str {
        match self.size {
            BoardSize::Wide => START_WIDE,
            BoardSize::Square => START_SQUARE,
        }
    }
}

/// How a game ended: two bytes where an [`Outcome`] takes 24, since every
/// turn copies one into its undo record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    /// The winner controls the enemy kingstone.
    Kingstone(Player),
    /// The third occurrence of the same position.
    Repetition,
    /// [`QUIET_TURN_LIMIT`] turns without a token leaving the game or
    /// returning to a hand.
    QuietTurns,
    /// The winner's opponent must place with an empty hand.
    EmptyHand(Player),
    /// The winner's opponent finds no empty slot to place in.
    NoEmptySlot(Player),
}

impl Ending {
    fn outcome(self) -> Outcome {
        match self {
            Ending::Kingstone(winner) => Outcome::Win { winner, reason: "controls the enemy kingstone" },
            Ending::Repetition => Outcome::Draw { reason: "third occurrence of the same position" },
            Ending::QuietTurns => {
                Outcome::Draw { reason: "200 turns without a token leaving the game or returning to a hand" }
            }
            Ending::EmptyHand(winner) => Outcome::Win { winner, reason: "no token in hand to place" },
            Ending::NoEmptySlot(winner) => Outcome::Win { winner, reason: "no empty slot to place a token in" },
        }
    }
}

/// What `undo` needs to restore, and the earlier positions for repetition.
/// Small (128 bytes) because every turn pushes one: the copy is inline.
#[derive(Clone, Debug)]
struct Earlier {
    board: Board,
    window_start: u32,
    quiet_turns: u16,
    ending: Option<Ending>,
}

/// A Lichen Chess position with the turns played since it was set up.
#[derive(Clone, Debug)]
pub struct Lichen {
    variant: LichenVariant,
    /// The state between turns, before the mover's harvest.
    board: Board,
    /// Turns in a row without a token leaving the game or returning to a
    /// hand (at most [`QUIET_TURN_LIMIT`]: then the game is over).
    quiet_turns: u16,
    /// Index into `history` of the first position since a token last left the
    /// game: no earlier position can come back (they hold more tokens).
    window_start: u32,
    ending: Option<Ending>,
    history: Vec<Earlier>,
}

impl Lichen {
    fn with_board(variant: LichenVariant, board: Board, quiet_turns: u16) -> Lichen {
        let mut game = Lichen { variant, board, quiet_turns, window_start: 0, ending: None, history: Vec::new() };
        game.ending = game.judge(false);
        game
    }

    /// The board of the coming turn: the mover's harvest done.
    fn harvested(&self) -> Board {
        let mut board = self.board;
        board.harvest();
        board
    }

    /// `with` given the board of the coming turn, copied only when the
    /// harvest changes it (rarely: random playouts call this every turn).
    #[inline]
    fn with_harvested<T>(&self, with: impl FnOnce(&Board) -> T) -> T {
        if self.board.harvestable(self.board.to_move) == 0 {
            with(&self.board)
        } else {
            with(&self.harvested())
        }
    }

    /// Turns in a row without a token leaving the game or returning to a hand.
    pub fn quiet_turns(&self) -> u32 {
        u32::from(self.quiet_turns)
    }

    /// Whether the game is over in the current position. `won` says the turn
    /// just played ended with the mover controlling the enemy kingstone.
    /// Inline: `play` calls it every turn.
    #[inline(always)]
    fn judge(&self, won: bool) -> Option<Ending> {
        let board = &self.board;
        let mover = board.to_move;
        if won || board.controls_enemy_kingstone(mover.other()) {
            return Some(Ending::Kingstone(mover.other()));
        }
        if self.repetitions() >= 3 {
            return Some(Ending::Repetition);
        }
        if u32::from(self.quiet_turns) >= QUIET_TURN_LIMIT {
            return Some(Ending::QuietTurns);
        }
        if board.hand_after_harvest() == 0 {
            return Some(Ending::EmptyHand(mover.other()));
        }
        if board.full == board.stones && board.harvestable(mover) == 0 {
            return Some(Ending::NoEmptySlot(mover.other()));
        }
        None
    }

    /// How often the current position has occurred (itself included).
    ///
    /// Only positions before the last harvest or capture are compared: a
    /// quiet turn puts at least one token more on the board, so none of the
    /// positions of the last `quiet_turns` turns holds as many as this one.
    fn repetitions(&self) -> usize {
        let current = &self.board;
        let start = self.window_start as usize;
        let end = self.history.len().saturating_sub(usize::from(self.quiet_turns)).max(start);
        1 + self.history[start..end]
            .iter()
            .filter(|e| e.board.hash == current.hash && e.board == *current)
            .count()
    }

    /// Why `mv` (well formed) is not legal here, for error messages.
    fn explain_illegal(&self, mv: Move) -> String {
        let board = self.harvested();
        let g = board.geometry;
        let mover = board.to_move;
        let name = |s: Square| g.square_name(s);
        if !board.has_stone(mv.square) {
            return format!("there is no stone on {}", name(mv.square));
        }
        if board.empty_slots(mv.square) & mv.slot.bit() == 0 {
            return format!("slot {} of the stone on {} is not empty", mv.slot.name(), name(mv.square));
        }
        let mut placed = board;
        placed.place(mv.square, mv.slot);
        if placed.controls_enemy_kingstone(mover) {
            return "the placement wins by itself, so the turn ends there (write it without an act)".into();
        }
        let (from, dir) = match mv.act {
            Act::Pass => return "not a legal move in this position".into(),
            Act::Step { from, dir } | Act::Colonize { from, dir } => (from, dir),
        };
        if !placed.has_stone(from) {
            return format!("there is no stone on {} to act with", name(from));
        }
        if !placed.controls(mover, from) {
            return format!("you do not control the stone on {} (after the placement)", name(from));
        }
        if placed.slots(mover, from) & dir.bit() == 0 {
            return format!("the stone on {} has no token of yours in slot {}", name(from), dir.name());
        }
        let Some(target) = g.step(from, dir) else {
            return format!("slot {} of {} points off the board", dir.name(), name(from));
        };
        match mv.act {
            Act::Step { .. } if placed.has_stone(target) => format!("{} is not empty", name(target)),
            Act::Colonize { .. } if !placed.has_stone(target) => {
                format!("there is no stone on {} to colonize", name(target))
            }
            Act::Colonize { .. } if placed.hand[mover.index()] == 0 => "no token left in hand to colonize with".into(),
            Act::Colonize { .. } => format!("slot {} of {} already holds your token", dir.name(), name(target)),
            _ => "not a legal move in this position".into(),
        }
    }
}

impl Game for Lichen {
    type Move = Move;
    type Variant = LichenVariant;

    const VARIANTS: &'static [VariantInfo] = &[
        VariantInfo {
            id: "lichen",
            name: "Lichen Chess",
            summary: "stones with eight slots on a 5x3 board; control the enemy kingstone with your tokens",
            options: OPTIONS,
        },
        VariantInfo {
            id: "lichen-3x3",
            name: "Lichen Chess (3x3)",
            summary: "the inventor's original 3x3 Lichen Chess, without the neutral stones",
            options: OPTIONS,
        },
    ];

    fn parse_variant(spec: &VariantSpec) -> Result<LichenVariant, VariantError> {
        let size = if spec.id == "lichen-3x3" { BoardSize::Square } else { BoardSize::Wide };
        let info = Self::VARIANTS.iter().find(|info| info.id == spec.id).unwrap_or(&Self::VARIANTS[0]);
        spec.check_options(info)?;
        Ok(LichenVariant { size, harvest: !spec.has(NO_HARVEST) })
    }

    fn start(variant: &LichenVariant, _seed: u64) -> Self {
        Self::from_text(variant, variant.start_text()).expect("the start position text is valid")
    }

    fn from_text(variant: &LichenVariant, text: &str) -> Result<Self, PositionError> {
        let (mut board, quiet_turns) = text::read(variant.geometry(), text)?;
        board.harvests = variant.harvest;
        // At most QUIET_TURN_LIMIT (checked when read), so it fits.
        let quiet_turns = u16::try_from(quiet_turns).unwrap_or(QUIET_TURN_LIMIT as u16);
        Ok(Self::with_board(*variant, board, quiet_turns))
    }

    fn to_text(&self) -> String {
        text::write(&self.board, self.quiet_turns())
    }

    fn variant(&self) -> &LichenVariant {
        &self.variant
    }

    fn to_act(&self) -> Actor {
        Actor::Player(self.board.to_move)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.ending.map(Ending::outcome)
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.ending.is_none() {
            movegen::generate(&self.harvested(), moves);
        }
    }

    fn count_legal_moves(&self, _scratch: &mut Vec<Move>) -> u64 {
        if self.ending.is_some() {
            return 0;
        }
        self.with_harvested(movegen::count)
    }

    /// Draws from the groups of moves instead of listing: a turn has
    /// hundreds of moves (see `movegen`).
    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R, scratch: &mut Vec<Move>) -> Option<Move> {
        if self.ending.is_some() {
            return None;
        }
        self.with_harvested(|board| movegen::random(board, rng, scratch))
    }

    fn play(&mut self, mv: Move) {
        self.history.push(Earlier {
            board: self.board,
            window_start: self.window_start,
            quiet_turns: self.quiet_turns,
            ending: self.ending.take(),
        });
        let board = &mut self.board;
        let mover = board.to_move;
        let harvest = board.harvest();
        let mut left_game = harvest.removed > 0;
        board.place(mv.square, mv.slot);
        let mut won = board.controls_enemy_kingstone(mover);
        if !won {
            match mv.act {
                Act::Pass => {}
                Act::Step { from, dir } => board.move_stone(from, dir),
                Act::Colonize { from, dir } => {
                    left_game |= board.colonize(from, dir);
                    won = board.controls_enemy_kingstone(mover);
                }
            }
        }
        board.pass_turn();
        if left_game {
            // Positions before this one hold more tokens: they cannot recur.
            self.window_start = self.history.len() as u32;
        }
        if harvest.returned + harvest.removed > 0 || left_game {
            self.quiet_turns = 0;
        } else {
            self.quiet_turns += 1;
        }
        self.ending = self.judge(won);
    }

    fn undo(&mut self) {
        let earlier = self.history.pop().expect("a turn to undo");
        self.board = earlier.board;
        self.quiet_turns = earlier.quiet_turns;
        self.window_start = earlier.window_start;
        self.ending = earlier.ending;
    }

    fn hash(&self) -> u64 {
        self.board.hash
    }

    fn move_text(&self, mv: Move) -> String {
        notation::write(self.board.geometry, mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let mv = notation::read(self.board.geometry, text)?;
        if self.ending.is_some() {
            return Err(MoveError::GameOver);
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if moves.contains(&mv) {
            Ok(mv)
        } else {
            Err(MoveError::illegal(text, self.explain_illegal(mv)))
        }
    }

    fn bench_positions(variant: &LichenVariant) -> Vec<&'static str> {
        match variant.size {
            BoardSize::Wide => vec![
                // Middle games from random play, 14 turns in: most stones contested.
                "..[-BW-B--Bk][----B-WB]./[--------][W-B-B-W-][W-B-B-WWK]../.[W--B---W][W---BB-B].[-B-WW---] w 11 9",
                ".[-WB-B-BW][W---B-B-]../[W-----W-]..[WW--B---][B---W-BW]/[W-----W-][W---B-W-K].[---BB--Bk]. w 10 11",
            ],
            BoardSize::Square => {
                vec!["[----B-BW][-W--B-BW][W-----B-]/[WB-BBW--]../[W-BWBB--k][WW--B-B-K]. w 12 10"]
            }
        }
    }

    fn check_invariants(&self) -> Result<(), String> {
        invariants::check(self)
    }
}

#[cfg(test)]
mod tests;
