//! Legal actions of the mover: where each unspent piece can go, the merges,
//! and fast answers to "how many?" and "is there any?".

use super::bitboard::Bitboard;
use super::board::Board;
use menagerie_core::Player;
use super::merge::{count_connected_sets, for_each_connected_set};
use super::moves::Action;
use super::piece::Kind;
use super::position::State;
use super::square::Square;
use super::tables::{
    backward, diagonal_steps, far_rank, forward, forward_diagonals, home_edge_rank, home_ranks, ray_attacks,
    short_ray_attacks, step, DIAGONAL, EAST, ORTHOGONAL, WEST,
};

/// The merge sizes, with the kinds each makes.
const MERGE_SIZES: [(u32, &[Kind]); 5] = [
    (2, &[Kind::Warrior]),
    (4, &[Kind::Runner, Kind::Diplomat]),
    (5, &[Kind::Champion]),
    (10, &[Kind::General]),
    (21, &[Kind::Stone]),
];

/// The kinds that move, in generation order.
const MOVING: [Kind; 6] = [Kind::Blank, Kind::Warrior, Kind::Runner, Kind::Diplomat, Kind::Champion, Kind::General];

impl State {
    /// The squares the mover's `kind` on `sq` may move to (capture, Recall
    /// and Conversion targets included), ignoring Energy and spent state.
    #[inline]
    pub fn targets(&self, kind: Kind, sq: Square) -> Bitboard {
        piece_targets(&self.board, self.mover, kind, sq)
    }

    /// The mover's unspent pieces of `kind`.
    #[inline]
    fn ready(&self, kind: Kind) -> Bitboard {
        self.board.pieces(self.mover, kind) & !self.spent
    }

    /// The Blanks that may take part in a merge: unspent, off the mover's
    /// home ranks.
    #[inline]
    pub fn mergeable_blanks(&self) -> Bitboard {
        self.ready(Kind::Blank) & !home_ranks(self.mover)
    }

    /// The squares of `open` the mover's unspent Blanks step to, in bulk
    /// (they are most of the pieces): forward, east, west, each with the
    /// square offset back to the step's origin.
    #[inline]
    fn blank_landings(&self, open: Bitboard) -> [(Bitboard, i32); 3] {
        let blanks = self.ready(Kind::Blank);
        let back = match self.mover {
            Player::First => -10,
            Player::Second => 10,
        };
        [(blanks_ahead(blanks, self.mover) & open, back), (blanks.east() & open, -1), (blanks.west() & open, 1)]
    }

    /// Every legal action (none once the game is over).
    pub fn generate(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.ending.is_some() || self.energy == 0 {
            return;
        }
        self.generate_steps(out, Bitboard::ALL);
        self.generate_merges(out);
    }

    /// Appends the piece moves (Recall and Conversion included) that end on
    /// `wanted`: all of them with [`Bitboard::ALL`]. The game must go on.
    pub fn generate_steps(&self, out: &mut Vec<Action>, wanted: Bitboard) {
        for (landing, back) in self.blank_landings(!self.board.occupied() & wanted) {
            for to in landing {
                out.push(Action::step(Square::new((to.index() as i32 + back) as u8), to));
            }
        }
        for &kind in &MOVING[1..] {
            for from in self.ready(kind) {
                for to in self.targets(kind, from) & wanted {
                    out.push(Action::step(from, to));
                }
            }
        }
    }

    /// Appends the merges. The game must go on.
    pub fn generate_merges(&self, out: &mut Vec<Action>) {
        let blanks = self.mergeable_blanks();
        for (size, kinds) in MERGE_SIZES {
            if blanks.count() < size {
                break;
            }
            for_each_connected_set(blanks, size, &mut |set| {
                for target in set {
                    for &kind in kinds {
                        out.push(Action::merge(kind, target, set));
                    }
                }
            });
        }
    }

    /// The number of legal actions, without listing them.
    pub fn count(&self) -> u64 {
        if self.ending.is_some() || self.energy == 0 {
            return 0;
        }
        let mut total = 0u64;
        for (landing, _) in self.blank_landings(!self.board.occupied()) {
            total += u64::from(landing.count());
        }
        for kind in &MOVING[1..] {
            for from in self.ready(*kind) {
                total += u64::from(self.targets(*kind, from).count());
            }
        }
        let blanks = self.mergeable_blanks();
        for (size, kinds) in MERGE_SIZES {
            if blanks.count() < size {
                break;
            }
            total += count_connected_sets(blanks, size) * u64::from(size) * kinds.len() as u64;
        }
        total
    }

    /// The `index`th legal action in [`State::generate`]'s order (below
    /// [`State::count`]), found by counting target sets and merge groups
    /// and listing none: random playouts draw an action each ply.
    pub fn nth_action(&self, mut index: u64) -> Option<Action> {
        if self.ending.is_some() || self.energy == 0 {
            return None;
        }
        for (landing, back) in self.blank_landings(!self.board.occupied()) {
            if let Some(to) = nth_square(landing, &mut index) {
                return Some(Action::step(Square::new((to.index() as i32 + back) as u8), to));
            }
        }
        for &kind in &MOVING[1..] {
            for from in self.ready(kind) {
                if let Some(to) = nth_square(self.targets(kind, from), &mut index) {
                    return Some(Action::step(from, to));
                }
            }
        }
        let blanks = self.mergeable_blanks();
        for (size, kinds) in MERGE_SIZES {
            if blanks.count() < size {
                break;
            }
            let per_set = u64::from(size) * kinds.len() as u64;
            let in_size = count_connected_sets(blanks, size) * per_set;
            if index >= in_size {
                index -= in_size;
                continue;
            }
            let (mut skip, within) = (index / per_set, index % per_set);
            let mut found = None;
            for_each_connected_set(blanks, size, &mut |set| {
                if skip == 0 && found.is_none() {
                    let target = set.into_iter().nth((within / kinds.len() as u64) as usize);
                    found = target.map(|t| Action::merge(kinds[(within % kinds.len() as u64) as usize], t, set));
                }
                skip = skip.wrapping_sub(1);
            });
            return found;
        }
        None
    }

    /// Whether the mover has at least one legal action (Energy aside).
    pub fn has_any_action(&self) -> bool {
        if self.blank_landings(!self.board.occupied()).iter().any(|(landing, _)| landing.not_empty()) {
            return true;
        }
        // Every merge contains two neighbouring Blanks, and two make a Warrior.
        let mergeable = self.mergeable_blanks();
        if ((mergeable & mergeable.east()) | (mergeable & mergeable.south())).not_empty() {
            return true;
        }
        MOVING[1..].iter().any(|&kind| self.ready(kind).any(|from| self.targets(kind, from).not_empty()))
    }
}

/// The squares `us`'s `kind` on `sq` may move to (capture, Recall and
/// Conversion targets included), whoever is to act.
#[inline]
pub fn piece_targets(board: &Board, us: Player, kind: Kind, sq: Square) -> Bitboard {
    let own = board.colours[us.index()];
    let enemy = board.colours[us.other().index()];
    let occupied = own | enemy;
    let empty = !occupied;
    let ahead = forward(us);
    match kind {
        Kind::Blank => (step(sq, ahead) | step(sq, EAST) | step(sq, WEST)) & empty,
        Kind::Warrior => {
            let [de, dw] = forward_diagonals(us);
            let mut to = ((step(sq, ahead) | step(sq, EAST) | step(sq, WEST)) & !own)
                | ((step(sq, de) | step(sq, dw)) & enemy);
            if sq.rank() == far_rank(us) {
                let landing = Square::at(home_edge_rank(us), sq.file());
                if !own.contains(landing) {
                    to |= Bitboard::from_square(landing);
                }
            }
            to
        }
        Kind::Runner => {
            let mut seen = Bitboard::EMPTY;
            for dir in DIAGONAL {
                seen |= ray_attacks(sq, dir, occupied);
            }
            // An adjacent piece can only be passed, never taken.
            seen & !own & !(diagonal_steps(sq) & enemy)
        }
        Kind::Diplomat => {
            let mut to = Bitboard::EMPTY;
            for dir in ORTHOGONAL {
                to |= short_ray_attacks(sq, dir, occupied);
            }
            (to & empty) | (diagonal_steps(sq) & enemy)
        }
        Kind::Champion => {
            let [de, dw] = forward_diagonals(us);
            let take = ray_attacks(sq, ahead, occupied)
                | step(sq, de)
                | step(sq, dw)
                | short_ray_attacks(sq, EAST, occupied)
                | short_ray_attacks(sq, WEST, occupied);
            (take & !own) | (ray_attacks(sq, backward(us), occupied) & empty)
        }
        Kind::General => {
            let mut seen = Bitboard::EMPTY;
            for dir in ORTHOGONAL.into_iter().chain(DIAGONAL) {
                seen |= ray_attacks(sq, dir, occupied);
            }
            seen & !own
        }
        Kind::Stone => Bitboard::EMPTY,
    }
}

/// The `index`th square of `set` if `index` falls within it; otherwise
/// `index` is lowered by the set's size.
#[inline]
fn nth_square(set: Bitboard, index: &mut u64) -> Option<Square> {
    let size = u64::from(set.count());
    if *index < size {
        return set.into_iter().nth(*index as usize);
    }
    *index -= size;
    None
}

/// Every square one step forward of `blanks`, for `us`.
#[inline]
fn blanks_ahead(blanks: Bitboard, us: Player) -> Bitboard {
    match us {
        Player::First => blanks.south(),
        Player::Second => blanks.north(),
    }
}
