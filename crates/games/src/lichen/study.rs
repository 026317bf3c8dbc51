//! What `menagerie study` counts in Lichen Chess: the tokens in hand and on
//! the stones (the material the inventor trades), and per turn the
//! harvests, colonizations, captures and stone moves.

use super::moves::Act;
use super::position::Board;
use super::square::Square;
use super::Lichen;
use menagerie_core::{Player, Study, Tally};

/// Tokens of `player` on the stones.
fn tokens_on_stones(board: &Board, player: Player) -> u32 {
    board.tokens[player.index()].iter().map(|slots| slots.count_ones()).sum()
}

fn controlled_stones(board: &Board, player: Player) -> u32 {
    board.geometry.all_squares().filter(|&s| board.has_stone(s) && board.controls(player, s)).count() as u32
}

impl Study for Lichen {
    fn material(&self) -> Vec<(&'static str, f64)> {
        let board = &self.board;
        let difference = |f: &dyn Fn(Player) -> u32| f64::from(f(Player::First)) - f64::from(f(Player::Second));
        vec![
            ("token in hand", difference(&|p| board.hand[p.index()])),
            ("token on a stone", difference(&|p| tokens_on_stones(board, p))),
            ("controlled stone", difference(&|p| controlled_stones(board, p))),
        ]
    }

    fn tally_move(before: &Lichen, mv: super::Move, _after: &Lichen, tally: &mut Tally) {
        let mover = before.board.to_move;
        tally.add("harvests (stones)", u64::from(before.board.harvestable(mover).count_ones()));
        let harvested = before.harvested();
        let (colonized, captured, stepped) = match mv.act {
            Act::Colonize { from, dir } => {
                let target: Option<Square> = harvested.geometry.step(from, dir);
                let capture = target.is_some_and(|t| harvested.slots(mover.other(), t) & dir.bit() != 0);
                (1, u64::from(capture), 0)
            }
            Act::Step { .. } => (0, 0, 1),
            Act::Pass => (0, 0, 0),
        };
        tally.add("colonizations", colonized);
        tally.add("captures", captured);
        tally.add("stone moves", stepped);
    }
}
