//! The rules' invariants, checked by the property tests after every move.

use super::piece::{Colour, Kind};
use super::{position, repetition_key, square, Fluid};
use menagerie_core::repetition::KeyCounts;

pub fn check(game: &Fluid) -> Result<(), String> {
    let state = game.state();
    state.board.check_consistency()?;
    for colour in [Colour::White, Colour::Black] {
        let kings = state.board.pieces(colour, Kind::King);
        let count: usize = kings
            .map(|sq| {
                state.board.cell(sq).pieces().filter(|p| p.kind() == Kind::King && p.colour() == colour).count()
            })
            .sum();
        if count != 1 {
            return Err(format!("{} has {count} kings", colour.name()));
        }
    }
    let side = state.side;
    let attacked = state.board.king(side).is_some_and(|king| state.board.attacked(king, side.other(), game.rules.single_promotions));
    if attacked != state.in_check {
        return Err(format!("the check flag says {} where the attackers say {attacked}", state.in_check));
    }
    let other = state.side.other();
    if let Some(king) = state.board.king(other) {
        if state.board.attacked(king, state.side, game.rules.single_promotions) {
            return Err(format!("{} was left in check", other.name()));
        }
    }
    for (colour, rank) in [(Colour::White, 0u8), (Colour::Black, 7u8)] {
        let (king_side, queen_side) = position::rights_of(colour);
        let king_home = state.board.pieces(colour, Kind::King).contains(square::Square::from_coords(4, rank));
        let rooks = state.board.pieces(colour, Kind::Rook);
        if state.castling & king_side != 0 && !(king_home && rooks.contains(square::Square::from_coords(7, rank))) {
            return Err(format!("{} keeps king-side castling without king and rook at home", colour.name()));
        }
        if state.castling & queen_side != 0 && !(king_home && rooks.contains(square::Square::from_coords(0, rank)))
        {
            return Err(format!("{} keeps queen-side castling without king and rook at home", colour.name()));
        }
    }
    if repetition_key(state, &game.rules) != state.repetition_key {
        return Err("repetition key out of step".into());
    }
    if KeyCounts::of(game.states.all().iter().map(|s| s.repetition_key)) != game.seen {
        return Err("the counts of repetition keys are out of step with the history".into());
    }
    Ok(())
}
