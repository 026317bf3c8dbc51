//! Whether a player could still win (`Game::could_win`): what decides a
//! loss on time between a loss and a draw. LMA and Fluid Chess know
//! insufficient material (a lone King); the other games never say no.

use menagerie_core::Player;
use menagerie_games::{new_game, BuiltinData};

fn could_win(variant: &str, position: Option<&str>) -> [bool; 2] {
    let game = new_game(variant, position, 1, &BuiltinData).unwrap_or_else(|e| panic!("{variant}: {e}"));
    [game.could_win(Player::First), game.could_win(Player::Second)]
}

#[test]
fn a_lone_king_cannot_win_in_lma_and_fluid() {
    // White has a Cardinal, Black only its King.
    assert_eq!(could_win("lma", Some("3k2/6/6/6/6/6/6|6/6/6/6/6/6/1C1K2 w - 0 1")), [true, false]);
    assert_eq!(could_win("lma-double", Some("3k2/6/6/6/6/6/6|6/6/6/6/6/6/3K2 w - 0 1")), [false, false]);
    // A Pawn on the other board still counts.
    assert_eq!(could_win("lma", Some("3k2/p5/6/6/6/6/6|6/6/6/6/6/6/3K2 w - 0 1")), [false, true]);
    assert_eq!(could_win("fluid", Some("4k3/8/8/p7/8/8/8/4K3 w - - 0 1")), [false, true]);
    // A King sharing its square with a Rook is not alone.
    assert_eq!(could_win("fluid", Some("7k/8/8/8/8/8/8/4(KR)3 w - - 0 1")), [true, false]);
}

#[test]
fn the_starts_and_the_other_games_could_be_won_by_both() {
    for variant in ["lma", "fluid", "lichen", "lichen-3x3", "kelasu", "lunch"] {
        assert_eq!(could_win(variant, None), [true, true], "{variant}");
    }
}
