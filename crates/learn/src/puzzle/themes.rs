//! Naming what a puzzle's solution does, from the position texts and move
//! texts the rules define (no search): lichess's themes where they carry
//! over (`mate`, `mateIn2`, `material`, `promotion`, `oneMove`, `short`,
//! `long`, `veryLong`) and the games' own (`win`, `victoryTiles`,
//! `kingstone`, `harvest`, `colonize`, `conversion`, `merge`, `pairMove`).

use menagerie_core::{Game, Player, Present};

/// What [`name_themes`] found.
pub struct Themes {
    pub names: Vec<String>,
    /// The solution wins, gains material, harvests or converts: something
    /// a solver can see they achieved.
    pub achieved: bool,
    /// The first move takes nothing.
    pub quiet_first: bool,
}

/// The game a position belongs to (`lma`, `kelasu`).
fn game_of<G: Game>() -> &'static str {
    G::VARIANTS.first().map(|v| v.game()).unwrap_or("")
}

/// Material of each player (first, second) as the position text shows it,
/// in units where the smallest thing to lose is 1: a pawn (LMA, Fluid), a
/// Blank (Kelasu, where a piece is worth the Blanks it merges from), a
/// token (Lichen, on the board or in hand). `None` for other games.
pub fn material(game: &str, text: &str) -> Option<(i32, i32)> {
    let mut fields = text.split_whitespace();
    let board = fields.next()?;
    let mut first = 0;
    let mut second = 0;
    match game {
        "lma" | "fluid" => {
            for c in board.chars() {
                let value = match c.to_ascii_lowercase() {
                    'p' => 1,
                    'n' | 'b' => 3,
                    'r' => 5,
                    // The Cardinal moves as a Bishop or a Knight.
                    'c' => 6,
                    'q' => 9,
                    _ => 0,
                };
                if c.is_ascii_uppercase() {
                    first += value;
                } else {
                    second += value;
                }
            }
        }
        "kelasu" => {
            for c in board.chars() {
                let value = match c.to_ascii_uppercase() {
                    'B' => 1,
                    'W' => 2,
                    'R' | 'D' => 4,
                    'C' => 5,
                    'G' => 10,
                    'S' => 21,
                    _ => 0,
                };
                if c.is_ascii_uppercase() {
                    first += value;
                } else {
                    second += value;
                }
            }
        }
        "lichen" => {
            // Slots hold `W`, `B` or `-`; `K`/`k` mark the kingstones.
            first = board.matches('W').count() as i32;
            second = board.matches('B').count() as i32;
            first += fields.nth(1)?.parse::<i32>().ok()?;
            second += fields.next()?.parse::<i32>().ok()?;
        }
        _ => return None,
    }
    Some((first, second))
}

/// The smallest material gain a puzzle is kept for.
fn least_gain(game: &str) -> i32 {
    match game {
        "lichen" => 1,
        _ => 2,
    }
}

/// A Kelasu board from its position text: ranks A..J, files 0..9.
fn kelasu_grid(text: &str) -> Option<Vec<Vec<Option<char>>>> {
    let board = text.split_whitespace().next()?;
    let mut grid = Vec::new();
    for rank in board.split('/') {
        let mut row = Vec::new();
        let mut digits = String::new();
        for c in rank.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            if !digits.is_empty() {
                row.extend(std::iter::repeat_n(None, digits.parse::<usize>().ok()?));
                digits.clear();
            }
            row.push(Some(c));
        }
        if !digits.is_empty() {
            row.extend(std::iter::repeat_n(None, digits.parse::<usize>().ok()?));
        }
        grid.push(row);
    }
    Some(grid)
}

fn kelasu_square(grid: &[Vec<Option<char>>], name: &str) -> Option<char> {
    let mut chars = name.chars();
    let rank = (chars.next()? as u8).checked_sub(b'A')? as usize;
    let file = chars.next()?.to_digit(10)? as usize;
    *grid.get(rank)?.get(file)?
}

/// Whether Kelasu move `text` between these positions was a conversion: a
/// Diplomat left `from` and the enemy piece on `to` changed colour.
pub fn kelasu_conversion(before: &str, after: &str, text: &str) -> bool {
    let Some((from, to)) = text.split_once('-') else { return false };
    let (Some(b), Some(a)) = (kelasu_grid(before), kelasu_grid(after)) else { return false };
    match (kelasu_square(&b, from), kelasu_square(&b, to), kelasu_square(&a, from), kelasu_square(&a, to)) {
        (Some(diplomat), Some(target), None, Some(now)) => {
            diplomat.eq_ignore_ascii_case(&'D')
                && target.is_ascii_uppercase() != diplomat.is_ascii_uppercase()
                && now.is_ascii_uppercase() == diplomat.is_ascii_uppercase()
                && now.eq_ignore_ascii_case(&target)
        }
        _ => false,
    }
}

/// Whether the solver's pieces stand on all four Victory Tiles.
fn kelasu_tiles(text: &str, solver: Player) -> bool {
    let Some(grid) = kelasu_grid(text) else { return false };
    ["E4", "E5", "F4", "F5"]
        .iter()
        .all(|sq| kelasu_square(&grid, sq).is_some_and(|c| c.is_ascii_uppercase() == (solver == Player::First)))
}

/// Names the themes of a solution: `texts` are its moves from `start`,
/// `after[i]` the position after move `i`, `by_solver[i]` whether the
/// solver made it, `won` whether it ends the game won by the solver.
pub fn name_themes<G: Game + Present>(
    start: &G,
    texts: &[String],
    after: &[G],
    by_solver: &[bool],
    solver: Player,
    won: bool,
) -> Themes {
    let game = game_of::<G>();
    let mut names: Vec<&str> = Vec::new();
    let own = |m: (i32, i32)| if solver == Player::First { m.0 - m.1 } else { m.1 - m.0 };
    let theirs = |m: (i32, i32)| if solver == Player::First { m.1 } else { m.0 };
    let start_text = start.to_text();
    let start_material = material(game, &start_text);
    let end_text = after.last().map(|p| p.to_text()).unwrap_or_else(|| start_text.clone());
    let gain = match (start_material, material(game, &end_text)) {
        (Some(a), Some(b)) => own(b) - own(a),
        _ => 0,
    };
    let quiet_first = match (start_material, after.first().and_then(|p| material(game, &p.to_text()))) {
        (Some(a), Some(b)) => theirs(b) >= theirs(a),
        _ => true,
    };
    let solver_moves = by_solver.iter().filter(|&&s| s).count();
    let mut achieved = won;
    if won {
        match game {
            "lma" | "fluid" => {
                names.push("mate");
                names.push(match solver_moves {
                    1 => "mateIn1",
                    2 => "mateIn2",
                    3 => "mateIn3",
                    4 => "mateIn4",
                    _ => "mateIn5",
                });
            }
            "kelasu" if kelasu_tiles(&end_text, solver) => names.extend(["win", "victoryTiles"]),
            "lichen" => names.extend(["win", "kingstone"]),
            _ => names.push("win"),
        }
    }
    if gain >= least_gain(game) {
        names.push("material");
        achieved = true;
    }
    let mut previous = start_text.clone();
    for (i, text) in texts.iter().enumerate() {
        let next = after[i].to_text();
        if by_solver[i] {
            match game {
                "lma" if text.len() == 6 => names.push("promotion"),
                "fluid" if text.contains('=') => names.push("promotion"),
                "fluid" if text.chars().take_while(|c| c.is_ascii_uppercase()).count() == 2 => names.push("pairMove"),
                "lichen" if text.contains('*') => names.push("colonize"),
                "kelasu" if text.contains('@') => names.push("merge"),
                "kelasu" if kelasu_conversion(&previous, &next, text) => {
                    names.push("conversion");
                    achieved = true;
                }
                _ => {}
            }
        } else if game == "lichen" && after[i].outcome().is_none() {
            // The solver's turn begins: a harvest of theirs shows in the view.
            let view = after[i].view_json(None);
            if view.get("harvest").and_then(|h| h.as_array()).is_some_and(|h| !h.is_empty()) {
                names.push("harvest");
                achieved = true;
            }
        }
        previous = next;
    }
    names.push(match solver_moves {
        0 | 1 => "oneMove",
        2 => "short",
        3 => "long",
        _ => "veryLong",
    });
    let mut unique: Vec<String> = Vec::new();
    for name in names {
        if !unique.iter().any(|n| n == name) {
            unique.push(name.to_owned());
        }
    }
    Themes { names: unique, achieved, quiet_first }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_is_read_from_the_texts() {
        assert_eq!(material("lma", "rcqkcr/pppppp/6/6/6/6/6|6/6/6/6/6/PPPPPP/RCQKCR w KQkq 0 1"), Some((37, 37)));
        assert_eq!(material("fluid", "4k3/8/8/8/8/8/(BN)7/4K3 w - - 0 1"), Some((6, 0)));
        assert_eq!(
            material("kelasu", "BBBBBBBBBB/BBBBBBBBBB/S1S4S1S/10/10/10/10/s1s4s1s/bbbbbbbbbb/bbbbbbbbbb blue 4 - 0 1"),
            Some((104, 104))
        );
        assert_eq!(
            material(
                "lichen",
                ".[----B---][----B---k][----B---]./[--------]...[--------]/.[W-------][W-------K][W-------]. w 20 19"
            ),
            Some((23, 22))
        );
        assert_eq!(material("lunch", "whatever"), None);
    }

    #[test]
    fn a_kelasu_conversion_is_told_from_a_capture() {
        let before = "10/10/10/3D6/4w5/10/10/10/10/10 blue 1 - 0 5";
        let converted = "10/10/10/10/4W5/10/10/10/10/10 blue 0 - 0 5";
        let captured = "10/10/10/10/4D5/10/10/10/10/10 blue 0 - 0 5";
        assert!(kelasu_conversion(before, converted, "D3-E4"));
        assert!(!kelasu_conversion(before, captured, "D3-E4"));
        assert!(kelasu_tiles("10/10/10/10/4WB4/4BB4/10/10/10/10 blue 0 - 0 5", Player::First));
        assert!(!kelasu_tiles("10/10/10/10/4WB4/4Bb4/10/10/10/10 blue 0 - 0 5", Player::First));
    }
}
