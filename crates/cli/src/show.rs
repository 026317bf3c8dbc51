//! The status lines `show`, `play` and the engine's `d` print under a
//! game's drawing: the result, or who acts and whether they stand in check.

use menagerie_core::{Actor, Outcome, Player};

/// `drawing`, then the status lines.
pub fn describe(
    drawing: String,
    outcome: Option<Outcome>,
    to_act: Actor,
    in_check: bool,
    name: impl Fn(Player) -> &'static str,
) -> String {
    let mut out = drawing;
    if !out.ends_with('\n') {
        out.push('\n');
    }
    match (outcome, to_act) {
        (Some(outcome), _) => {
            let result = match outcome.winner() {
                Some(winner) => format!("{} wins", name(winner)),
                None => "draw".to_owned(),
            };
            out.push_str(&format!("Result: {result} ({})\n", outcome.reason()));
        }
        (None, Actor::Player(p)) => {
            out.push_str(&format!("To act: {}\n", name(p)));
            if in_check {
                out.push_str("Check!\n");
            }
        }
        (None, Actor::Chance) => out.push_str("To act: chance\n"),
    }
    out
}
