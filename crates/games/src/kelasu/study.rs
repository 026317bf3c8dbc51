//! What `menagerie study` counts in Kelasu: the pieces by kind (Blanks
//! included) and the Energy left (the material), and per action the merges,
//! conversions, Recalls and captures, the Energy spent and the turns, so
//! that the report gives Energy spent per turn.

use super::moves::Action;
use super::piece::Kind;
use super::square::Square;
use super::Kelasu;
use menagerie_core::{Player, Study, Tally};

const NAMES: [&str; 7] = ["blank", "warrior", "runner", "diplomat", "champion", "general", "stone"];

fn kind_at(game: &Kelasu, square: Square) -> Option<Kind> {
    Kind::ALL.into_iter().find(|k| game.state.board.kinds[k.index()].contains(square))
}

impl Study for Kelasu {
    fn material(&self) -> Vec<(&'static str, f64)> {
        let board = &self.state.board;
        let mut material: Vec<(&'static str, f64)> = Kind::ALL
            .iter()
            .map(|&kind| {
                let count = |p: Player| board.pieces(p, kind).count() as f64;
                (NAMES[kind.index()], count(Player::First) - count(Player::Second))
            })
            .collect();
        let energy = f64::from(self.state.energy);
        material.push(("energy left this turn", if self.state.mover == Player::First { energy } else { -energy }));
        material
    }

    fn tally_move(before: &Kelasu, action: Action, after: &Kelasu, tally: &mut Tally) {
        let mover = before.state.mover;
        let cost = match action.merged_kind() {
            Some(kind) => {
                tally.add("merges", 1);
                if kind == Kind::Stone {
                    tally.add("stones merged", 1);
                }
                action.squares().count() as u64
            }
            None => {
                let enemy = before.state.board.colours[mover.other().index()].contains(action.to());
                let moving = kind_at(before, action.from());
                let conversion = enemy && moving == Some(Kind::Diplomat);
                tally.add("conversions", u64::from(conversion));
                tally.add("captures", u64::from(enemy && !conversion));
                let recall = moving == Some(Kind::Warrior) && action.from().rank().abs_diff(action.to().rank()) == 9;
                tally.add("recalls", u64::from(recall));
                1
            }
        };
        tally.add("energy spent", cost.min(u64::from(before.state.energy)));
        tally.add("turns", u64::from(after.state.mover != mover || after.state.turn != before.state.turn));
    }

    fn tally_end(end: &Kelasu, tally: &mut Tally) {
        let stalemate = end.state.ending.is_some_and(|(winner, reason)| winner.is_none() && reason.starts_with("stalemate"));
        tally.add("stalemates", u64::from(stalemate));
    }
}
