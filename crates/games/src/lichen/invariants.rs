//! The rules' invariants, checked by the property tests after every move.

use super::Lichen;
use menagerie_core::Player;

pub fn check(game: &Lichen) -> Result<(), String> {
    let board = &game.board;
    let g = board.geometry;
    for square in g.all_squares() {
        let (w, b) = (board.slots(Player::First, square), board.slots(Player::Second, square));
        if w & b != 0 {
            return Err(format!("{}: a slot holds two tokens", g.square_name(square)));
        }
        if !board.has_stone(square) && (w | b) != 0 {
            return Err(format!("{}: tokens without a stone", g.square_name(square)));
        }
    }
    if board.stones >> g.squares != 0 {
        return Err("a stone off the board".into());
    }
    for player in Player::BOTH {
        if !board.has_stone(board.kingstone[player.index()]) {
            return Err(format!("{:?}'s kingstone is not on a stone", player));
        }
    }
    if board.kingstone[0] == board.kingstone[1] {
        return Err("both kingstones on one stone".into());
    }
    let mut fresh = *board;
    fresh.recompute_caches();
    if fresh != *board {
        return Err("the masks kept in step (full stones, neighbours, facing slots) differ from recomputed ones".into());
    }
    if board.hash != board.compute_hash() {
        return Err("the incremental hash differs from the recomputed one".into());
    }
    if let Some(earlier) = game.history.last() {
        let before = &earlier.board;
        if before.stones.count_ones() != board.stones.count_ones() {
            return Err("the number of stones changed".into());
        }
        for player in Player::BOTH {
            if board.tokens_of(player) > before.tokens_of(player) {
                return Err(format!("{player:?} gained tokens"));
            }
        }
        let placed_or_harvested = board.tokens_on_board() != before.tokens_on_board() || board.hand != before.hand;
        if !placed_or_harvested {
            return Err("a turn without a placement".into());
        }
    }
    Ok(())
}
