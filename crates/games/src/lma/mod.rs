//! Lilliputian Monochromatic Alice Chess (`lma`) and Double LMA Chess
//! (`lma-double`): two 6×7 boards; a piece moves on the board it stands on
//! and, when its target square has the other colour, lands on the twin
//! square of the other board instead. Cardinals (bishop + knight) replace
//! bishops and knights; no en passant; promotion to Q, R or C.
//!
//! The files follow the layout of `crates/games/README.md`; besides,
//! `tables` holds the attack tables, `attacks` says who attacks a square
//! and `castling` the four castlings.

mod attacks;
mod bitboard;
mod castling;
mod encode;
mod eval;
mod inputs;
mod study;
mod invariants;
mod movegen;
mod moves;
mod notation;
mod piece;
mod position;
mod random;
mod square;
mod tables;
mod text;
mod view;
mod zobrist;

pub use moves::Move;

use menagerie_core::repetition::KeyCounts;
use menagerie_core::timeline::Timeline;
use menagerie_core::{Actor, Game, MoveError, Outcome, Player, PositionError, VariantError, VariantInfo, VariantSpec};
use movegen::{generate, Collector, Counter};
use piece::{Kind, BLACK, WHITE};
use position::Position;
use square::cell_name;

/// Which of the two games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LmaVariant {
    /// `lma`: one army per board.
    Single,
    /// `lma-double`: both arrays on both boards, one king each.
    Double,
}

impl LmaVariant {
    pub fn id(self) -> &'static str {
        match self {
            LmaVariant::Single => "lma",
            LmaVariant::Double => "lma-double",
        }
    }

    pub fn start_text(self) -> &'static str {
        match self {
            LmaVariant::Single => "rcqkcr/pppppp/6/6/6/6/6|6/6/6/6/6/PPPPPP/RCQKCR w KQkq 0 1",
            LmaVariant::Double => "rcqkcr/pppppp/6/6/6/PPPPPP/RCQ1CR|rcq1cr/pppppp/6/6/6/PPPPPP/RCQKCR w KQkq 0 1",
        }
    }
}

/// A game of LMA Chess: the positions from the one it started from to the
/// current one (for undo and repetition).
#[derive(Clone, Debug)]
pub struct Lma {
    variant: LmaVariant,
    /// The game's positions up to the current one: play copies the
    /// current position once, into place, and undo copies nothing.
    positions: Timeline<Position>,
    /// The hashes of the game's positions, counted by bucket: most plies
    /// need no scan for a threefold repetition.
    seen: KeyCounts,
    /// The fullmove number of the position the game started from, and
    /// whether Black moved first there: the current number follows from
    /// the number of moves played.
    start_fullmove: u32,
    start_black: bool,
}

impl Lma {
    fn new(variant: LmaVariant, (pos, fullmove): (Position, u32)) -> Lma {
        Lma {
            variant,
            start_black: pos.side_to_move() == BLACK,
            seen: KeyCounts::starting_at(pos.hash),
            positions: Timeline::starting_at(pos),
            start_fullmove: fullmove,
        }
    }

    /// The current position.
    #[inline(always)]
    fn pos(&self) -> &Position {
        self.positions.current()
    }

    /// How many moves were played on this value (undoable).
    #[inline(always)]
    fn moves_played(&self) -> usize {
        self.positions.moves_played()
    }

    /// The move number of the position text.
    pub fn fullmove(&self) -> u32 {
        let moves_by_black = (self.moves_played() + usize::from(self.start_black)) / 2;
        self.start_fullmove.saturating_add(u32::try_from(moves_by_black).unwrap_or(u32::MAX))
    }

    /// The draw that the clock or repetition imposes, if any (stalemate and
    /// checkmate are found by generating moves). Inlined: random playouts
    /// ask every ply, and mostly both tests fail at once.
    #[inline]
    fn drawn_by_rule(&self) -> Option<&'static str> {
        if self.pos().halfmove >= 100 {
            Some("fifty-move rule")
        } else if self.is_threefold() {
            Some("threefold repetition")
        } else {
            None
        }
    }

    /// Whether the current position occurred twice before since the given
    /// position. Only positions since the last capture or pawn move can
    /// repeat, and only those with the same side to move.
    #[inline]
    fn is_threefold(&self) -> bool {
        let pos = self.pos();
        let reversible = (pos.halfmove as usize).min(self.moves_played());
        if reversible < 8 || !self.seen.may_have_occurred(pos.hash, 3) {
            // Three occurrences need at least 8 reversible plies in between
            // (each return takes 4).
            return false;
        }
        let mut seen = 1;
        let mut back = 4;
        while back <= reversible {
            if self.positions.all()[self.moves_played() - back].same_game_state(pos) {
                seen += 1;
                if seen >= 3 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    fn side_name(side: usize) -> &'static str {
        if side == WHITE {
            "white"
        } else {
            "black"
        }
    }
}


impl Game for Lma {
    type Move = Move;
    type Variant = LmaVariant;

    const VARIANTS: &'static [VariantInfo] = &[
        VariantInfo {
            id: "lma",
            name: "Lilliputian Monochromatic Alice Chess",
            summary: "two 6x7 boards; a move to a square of the other colour lands on the other board",
            options: &[],
        },
        VariantInfo {
            id: "lma-double",
            name: "Double LMA Chess",
            summary: "LMA Chess with both armies set up on both boards (one king each)",
            options: &[],
        },
    ];

    fn parse_variant(spec: &VariantSpec) -> Result<LmaVariant, VariantError> {
        let info = Self::VARIANTS.iter().find(|info| info.id == spec.id).unwrap_or(&Self::VARIANTS[0]);
        spec.check_options(info)?;
        Ok(if spec.id == "lma-double" { LmaVariant::Double } else { LmaVariant::Single })
    }

    fn start(variant: &LmaVariant, _seed: u64) -> Self {
        Lma::new(*variant, text::parse_position(variant.start_text()).expect("the start position text is valid"))
    }

    fn from_text(variant: &LmaVariant, text: &str) -> Result<Self, PositionError> {
        Ok(Lma::new(*variant, text::parse_position(text)?))
    }

    fn to_text(&self) -> String {
        text::position_text(self.pos(), self.fullmove())
    }

    fn variant(&self) -> &LmaVariant {
        &self.variant
    }

    fn to_act(&self) -> Actor {
        Actor::Player(Player::from_index(self.pos().side_to_move()))
    }

    /// Checkmate and stalemate first (a mate given on the 100th quiet ply
    /// is a mate), then the fifty-move rule and threefold repetition.
    fn outcome(&self) -> Option<Outcome> {
        let mut counter = Counter(0);
        generate(self.pos(), &mut counter);
        if counter.0 == 0 {
            return Some(if self.pos().checkers().not_empty() {
                Outcome::Win { winner: Player::from_index(1 - self.pos().side_to_move()), reason: "checkmate" }
            } else {
                Outcome::Draw { reason: "stalemate" }
            });
        }
        self.drawn_by_rule().map(|reason| Outcome::Draw { reason })
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.drawn_by_rule().is_none() {
            generate(self.pos(), &mut Collector(moves));
        }
    }

    #[inline]
    fn count_legal_moves(&self, _scratch: &mut Vec<Move>) -> u64 {
        if self.drawn_by_rule().is_some() {
            return 0;
        }
        let mut counter = Counter(0);
        generate(self.pos(), &mut counter);
        counter.0
    }

    fn random_move<R: rand::Rng + ?Sized>(&self, rng: &mut R, scratch: &mut Vec<Move>) -> Option<Move> {
        if self.drawn_by_rule().is_some() {
            return None;
        }
        random::random_legal(self.pos(), rng, scratch)
    }

    /// Always inlined: a call cost about a tenth of it in random playouts.
    #[inline(always)]
    fn play(&mut self, mv: Move) {
        let pos = self.positions.advance();
        pos.apply(mv);
        let hash = pos.hash;
        self.seen.enter(hash);
    }

    #[inline]
    fn undo(&mut self) {
        if let Some(left) = self.positions.back() {
            self.seen.leave(left.hash);
        }
    }

    fn hash(&self) -> u64 {
        self.pos().hash
    }

    fn move_text(&self, mv: Move) -> String {
        mv.text()
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let wanted = notation::parse_move_text(text).map_err(|problem| MoveError::syntax(text, problem))?;
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        if legal.is_empty() {
            return Err(MoveError::GameOver);
        }
        if let Some(&mv) = legal
            .iter()
            .find(|mv| mv.from == wanted.from && mv.to.cell() == wanted.to_cell && mv.promotion() == wanted.promotion)
        {
            return Ok(mv);
        }
        let us = self.pos().side_to_move();
        let reason = match self.pos().piece_at(wanted.from) {
            None => format!("there is no piece on {}", wanted.from),
            Some((side, _)) if side != us => {
                format!(
                    "the piece on {} is {}'s, and it is {}'s move",
                    wanted.from,
                    Self::side_name(side),
                    Self::side_name(us)
                )
            }
            Some(_) => {
                let same_route = legal.iter().any(|mv| mv.from == wanted.from && mv.to.cell() == wanted.to_cell);
                if same_route && wanted.promotion.is_none() {
                    "a pawn reaching the last rank must promote: add q, r or c".to_owned()
                } else if same_route {
                    "this move is not a promotion: drop the promotion letter".to_owned()
                } else {
                    format!(
                        "the piece on {} cannot move to {} here (out of reach, blocked, landing square occupied, \
                         or own king left attacked)",
                        wanted.from,
                        cell_name(wanted.to_cell)
                    )
                }
            }
        };
        Err(MoveError::illegal(text, reason))
    }

    fn in_check(&self) -> bool {
        self.pos().checkers().not_empty()
    }

    /// A lone King cannot checkmate: anything else might.
    fn could_win(&self, player: Player) -> bool {
        let side = if player == Player::First { WHITE } else { BLACK };
        (0..2).any(|board| {
            [Kind::Queen, Kind::Rook, Kind::Cardinal, Kind::Pawn]
                .into_iter()
                .any(|kind| self.pos().pieces(board, side, kind).not_empty())
        })
    }

    fn bench_positions(variant: &LmaVariant) -> Vec<&'static str> {
        // Middle games reached by random play (also in the perft corpus).
        match variant {
            LmaVariant::Single => vec![
                "r5/1qk1p1/4c1/Ppp3/2PP2/6/1C4|6/5r/3p1p/4C1/6/P2QPP/R2K1R w KQ 7 13",
                "r1q1cr/4kp/P5/ppppp1/4P1/2Q3/6|6/6/R1c3/2PP2/5C/1P3P/3KCR w K 4 13",
            ],
            LmaVariant::Double => vec![
                "r1q1cr/ppkpp1/3p2/P1pP2/R5/1Pc2C/1CQ2R|rc3r/pp2pp/P3qp/2p3/3CPP/P1PPPP/R1QKCR w KQ 0 13",
                "rrqkcr/pppppp/cc1pp1/C2P1P/C4P/P1P1P1/R1Q2R|3r2/pppq1p/6/6/1P4/PPPPP1/RCQKCR w KQkq 3 13",
            ],
        }
    }

    fn check_invariants(&self) -> Result<(), String> {
        let previous = self.positions.before().last();
        invariants::check(self.pos(), previous)?;
        if self.seen != KeyCounts::of(self.positions.all().iter().map(|pos| pos.hash)) {
            return Err("the counts of position hashes are out of step with the history".into());
        }
        Ok(())
    }
}
