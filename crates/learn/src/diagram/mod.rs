//! Diagrams of the rules pages: a position written in the Markdown as a
//! fenced block, drawn on the server as an inline SVG board by the page's
//! own drawing rules, so that it reads without scripts and on a phone.
//!
//! ````text
//! ```diagram
//! variant: lma
//! position: rcqkcr/pppppp/6/6/6/6/6|6/6/6/6/6/PPPPPP/RCQKCR w KQkq 0 1
//! moves: 2b1c3
//! arrows: 2a2-2a4
//! marks: 1c3 2d2
//! caption: A Knight's move ends on a square of the other colour, so it lands on board 1.
//! ```
//! ````
//!
//! One `key: value` a line: `variant` (a variant string) and `position`
//! (a position text, or `start`) are required; `moves` are legal moves of
//! the position (checked by the rules), each drawn as an arrow (a Lichen
//! placement and a Kelasu merge as rings on their slots and Blanks);
//! `arrows` are plain arrows `from-to` between squares of the board;
//! `marks` are squares ringed; `hands: shown` writes the Lunch Chess hands
//! under the board; `caption` is the text under the diagram.
//!
//! [`page::render_page`] renders a whole rules page (Markdown with
//! diagrams) to an HTML fragment.

pub mod art;
pub mod draw;
pub mod page;
pub mod svg;

use menagerie_core::Player;
use menagerie_games::BuiltinData;
use serde_json::Value;
use svg::escape;

/// A diagram as written, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    pub variant: String,
    /// `None`: the variant's start.
    pub position: Option<String>,
    pub moves: Vec<String>,
    pub arrows: Vec<(String, String)>,
    pub marks: Vec<String>,
    pub show_hands: bool,
    pub caption: Option<String>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DiagramError {
    #[error("line {line}: {problem}")]
    Syntax { line: usize, problem: String },
    #[error("{0}")]
    Position(String),
    #[error("move {text}: {problem}")]
    Move { text: String, problem: String },
    #[error("{0}: not a square of this board")]
    Square(String),
}

/// Reads a diagram block's text (the lines between the fences).
pub fn parse(block: &str) -> Result<Diagram, DiagramError> {
    let mut diagram = Diagram {
        variant: String::new(),
        position: None,
        moves: Vec::new(),
        arrows: Vec::new(),
        marks: Vec::new(),
        show_hands: false,
        caption: None,
    };
    let mut position = None;
    for (i, line) in block.lines().enumerate() {
        let line_no = i + 1;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let syntax = |problem: String| DiagramError::Syntax { line: line_no, problem };
        let (key, value) = line.split_once(':').ok_or_else(|| syntax(format!("`{line}` is not `key: value`")))?;
        let value = value.trim();
        match key.trim() {
            "variant" => diagram.variant = value.to_owned(),
            "position" => position = Some(value.to_owned()),
            "moves" | "move" => diagram.moves.extend(value.split_whitespace().map(str::to_owned)),
            "arrows" => {
                for arrow in value.split_whitespace() {
                    let (from, to) = arrow
                        .split_once('-')
                        .filter(|(a, b)| !a.is_empty() && !b.is_empty())
                        .ok_or_else(|| syntax(format!("arrow `{arrow}` is not `from-to`")))?;
                    diagram.arrows.push((from.to_owned(), to.to_owned()));
                }
            }
            "marks" => diagram.marks.extend(value.split_whitespace().map(str::to_owned)),
            "hands" => match value {
                "shown" => diagram.show_hands = true,
                "hidden" => diagram.show_hands = false,
                other => return Err(syntax(format!("hands: `{other}` is neither `shown` nor `hidden`"))),
            },
            "caption" => diagram.caption = Some(value.to_owned()),
            other => {
                return Err(syntax(format!(
                    "unknown key `{other}` (variant, position, moves, arrows, marks, hands, caption)"
                )))
            }
        }
    }
    if diagram.variant.is_empty() {
        return Err(DiagramError::Syntax { line: 0, problem: "no `variant:` line".into() });
    }
    diagram.position = match position {
        None => return Err(DiagramError::Syntax { line: 0, problem: "no `position:` line".into() }),
        Some(p) if p == "start" || p == "startpos" => None,
        Some(p) => Some(p),
    };
    Ok(diagram)
}

/// The squares a move's arrow goes between, and the cells it rings
/// (a Lichen placement's slot, a merge's Blanks), by the move texts of
/// each game (its rules page); `dark` says a square's colour (LMA).
fn move_marks(game: &str, text: &str, dark: &dyn Fn(&str) -> Option<bool>) -> (Vec<(String, String)>, Vec<String>) {
    let square = |s: &str| s.to_owned();
    match game {
        "lma" if text.len() >= 5 && text.is_char_boundary(5) => {
            let (board, from, to) = (&text[..1], &text[1..3], &text[3..5]);
            let origin = format!("{board}{from}");
            let same = format!("{board}{to}");
            let other = format!("{}{to}", if board == "1" { "2" } else { "1" });
            let landing = if dark(&origin) == dark(&same) { same } else { other };
            (vec![(origin, landing)], Vec::new())
        }
        "fluid" => {
            let unit = text.chars().take_while(|c| c.is_ascii_uppercase()).count();
            match text.get(unit..unit + 4) {
                Some(squares) => (vec![(square(&squares[..2]), square(&squares[2..]))], Vec::new()),
                None => (Vec::new(), Vec::new()),
            }
        }
        "lichen" => {
            let (place, act) = text.split_once(';').unwrap_or((text, ""));
            let mut arrows = Vec::new();
            if let Some(pos) = act.find(['>', '*']) {
                let (stone, dir) = (&act[..pos], &act[pos + 1..]);
                if let Some(to) = neighbour(stone, dir) {
                    arrows.push((stone.to_owned(), to));
                }
            }
            (arrows, vec![place.to_owned()])
        }
        "kelasu" => {
            if let Some((_, rest)) = text.split_once('@') {
                let (target, blanks) = rest.split_once(':').unwrap_or((rest, ""));
                let mut rings: Vec<String> = blanks.split(',').map(str::to_owned).collect();
                rings.retain(|b| b != target);
                rings.push(target.to_owned());
                (Vec::new(), rings)
            } else if let Some((from, to)) = text.split_once('-') {
                (vec![(square(from), square(to))], Vec::new())
            } else {
                (Vec::new(), Vec::new())
            }
        }
        "lunch" => {
            let parts: Vec<&str> = text.split(':').collect();
            match parts.as_slice() {
                [plain] if plain.len() == 4 => (vec![(square(&plain[..2]), square(&plain[2..]))], Vec::new()),
                ["attack", squares, ..] if squares.len() == 4 => {
                    (vec![(square(&squares[..2]), square(&squares[2..]))], Vec::new())
                }
                ["aid" | "free" | "break" | "choose" | "promote", at, ..] => (Vec::new(), vec![square(at)]),
                _ => (Vec::new(), Vec::new()),
            }
        }
        _ => (Vec::new(), Vec::new()),
    }
}

/// Lichen's square one step from `square` in compass direction `dir`.
fn neighbour(square: &str, dir: &str) -> Option<String> {
    let mut chars = square.chars();
    let file = chars.next()?;
    let rank: i32 = chars.as_str().parse().ok()?;
    let (dx, dy) = match dir {
        "n" => (0, 1),
        "ne" => (1, 1),
        "e" => (1, 0),
        "se" => (1, -1),
        "s" => (0, -1),
        "sw" => (-1, -1),
        "w" => (-1, 0),
        "nw" => (-1, 1),
        _ => return None,
    };
    let file = char::from_u32(u32::from(file).checked_add_signed(dx)?)?;
    Some(format!("{file}{}", rank + dy))
}

/// Names of the cards in a hand of a Lunch Chess view.
fn hand_names(view: &Value, colour: &str) -> Option<Vec<String>> {
    let deck = view.get("deck").and_then(Value::as_array)?;
    let hand = view.get("hands")?.get(colour)?.as_array()?;
    Some(
        hand.iter()
            .filter_map(Value::as_str)
            .map(|code| {
                deck.iter()
                    .find(|c| c.get("code").and_then(Value::as_str) == Some(code))
                    .and_then(|c| c.get("name").and_then(Value::as_str))
                    .unwrap_or(code)
                    .to_owned()
            })
            .collect(),
    )
}

/// Checks a diagram against the rules (the position, and every move
/// legal in it) and draws it: a `<figure>` with an inline `<svg>`.
pub fn render(diagram: &Diagram) -> Result<String, DiagramError> {
    let game = menagerie_games::new_game(&diagram.variant, diagram.position.as_deref(), 0, &BuiltinData)
        .map_err(|e| DiagramError::Position(e.to_string()))?;
    let legal = game.legal_moves();
    for text in &diagram.moves {
        if !legal.contains(text) {
            let problem = if legal.is_empty() { "the game is over" } else { "not a legal move in this position" };
            return Err(DiagramError::Move { text: text.clone(), problem: problem.into() });
        }
    }
    let view: Value = serde_json::from_str(game.view(None).get()).map_err(|e| DiagramError::Position(e.to_string()))?;
    let game_id = diagram.variant.split([':', '-']).next().unwrap_or("");
    let (mut picture, max_width) =
        draw::board(game_id, &view).ok_or_else(|| DiagramError::Position(format!("no drawing for {game_id}")))?;
    let art = art::drawing();
    let dark = |name: &str| -> Option<bool> {
        view.get("boards")?.as_array()?.iter().find_map(|b| {
            b.get("squares")?.as_array()?.iter().find_map(|s| {
                (s.get("square")?.as_str()? == name).then(|| s.get("dark").and_then(Value::as_bool)).flatten()
            })
        })
    };
    for text in &diagram.moves {
        let (arrows, rings) = move_marks(game_id, text, &dark);
        for (from, to) in arrows {
            if !picture.arrow(&from, &to, &art.board.arrow) {
                return Err(DiagramError::Square(format!("{from}-{to} (of move {text})")));
            }
        }
        for ring in rings {
            if !picture.ring(&ring, &art.board.mark) {
                return Err(DiagramError::Square(ring));
            }
        }
    }
    for (from, to) in &diagram.arrows {
        if !picture.arrow(from, to, &art.board.arrow) {
            return Err(DiagramError::Square(format!("{from}-{to}")));
        }
    }
    for mark in &diagram.marks {
        if !picture.ring(mark, &art.board.mark) {
            return Err(DiagramError::Square(mark.clone()));
        }
    }
    let label = diagram.caption.clone().unwrap_or_else(|| format!("A {} position", diagram.variant));
    let mut html = format!("<figure class=\"diagram\" data-variant=\"{}\">", escape(&diagram.variant));
    html.push_str(&picture.finish(&label, max_width));
    if diagram.show_hands {
        let mut hands = Vec::new();
        for (player, colour, name) in [(Player::First, "white", "White"), (Player::Second, "black", "Black")] {
            let seen: Value = serde_json::from_str(game.view(Some(player)).get()).unwrap_or(Value::Null);
            if let Some(cards) = hand_names(&seen, colour) {
                let cards = if cards.is_empty() { "no cards".to_owned() } else { cards.join(", ") };
                hands.push(format!("<b>{name}'s hand:</b> {}", escape(&cards)));
            }
        }
        if !hands.is_empty() {
            html.push_str(&format!("<p class=\"diagram-hands\">{}</p>", hands.join(" · ")));
        }
    }
    if let Some(caption) = &diagram.caption {
        html.push_str(&format!("<figcaption>{}</figcaption>", escape(caption)));
    }
    html.push_str("</figure>");
    Ok(html)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LMA_START: &str = "rcqkcr/pppppp/6/6/6/6/6|6/6/6/6/6/PPPPPP/RCQKCR w KQkq 0 1";

    #[test]
    fn blocks_parse_and_say_what_is_wrong() {
        let d = parse(&format!("variant: lma\nposition: {LMA_START}\nmoves: 2b1a3 2e1f3\narrows: 2a2-2a4\nmarks: 1c3\ncaption: Hi: there\n")).unwrap();
        assert_eq!(d.moves, ["2b1a3", "2e1f3"]);
        assert_eq!(d.arrows, [("2a2".to_owned(), "2a4".to_owned())]);
        assert_eq!(d.caption.as_deref(), Some("Hi: there"));
        assert_eq!(parse("variant: lma\nposition: start\n").unwrap().position, None);
        assert!(matches!(parse("variant: lma\n"), Err(DiagramError::Syntax { line: 0, .. })));
        assert!(matches!(
            parse("variant: lma\nposition: start\ncolour: red"),
            Err(DiagramError::Syntax { line: 3, .. })
        ));
        assert!(matches!(parse("variant lma"), Err(DiagramError::Syntax { line: 1, .. })));
        assert!(matches!(parse("variant: lma\nposition: start\narrows: a1"), Err(DiagramError::Syntax { .. })));
    }

    #[test]
    fn a_diagram_is_checked_by_the_rules() {
        let bad_move = parse("variant: fluid\nposition: start\nmoves: Pe2e5").unwrap();
        assert!(matches!(render(&bad_move), Err(DiagramError::Move { .. })));
        let bad_position = parse("variant: fluid\nposition: 8/8 w - - 0 1").unwrap();
        assert!(matches!(render(&bad_position), Err(DiagramError::Position(_))));
        let bad_square = parse("variant: fluid\nposition: start\nmarks: z9").unwrap();
        assert_eq!(render(&bad_square), Err(DiagramError::Square("z9".into())));
    }

    #[test]
    fn an_lma_move_of_the_other_colour_lands_on_the_other_board() {
        let d = parse(&format!("variant: lma\nposition: {LMA_START}\nmoves: 2b1c3\ncaption: jump")).unwrap();
        let html = render(&d).unwrap();
        assert!(html.starts_with("<figure") && html.contains("<svg") && html.contains("<figcaption>jump</figcaption>"));
        assert_eq!(html.matches("class=\"arrow\"").count(), 1);
        // 12 pieces a side, each a titled group.
        assert_eq!(html.matches("<title>white ").count(), 12);
        assert_eq!(html.matches("<title>black ").count(), 12);
        let (arrows, _) =
            move_marks("lma", "2b1c3", &|sq| Some(sq.ends_with("b1") || sq.ends_with("c3") && sq.starts_with('1')));
        assert_eq!(arrows, [("2b1".to_owned(), "1c3".to_owned())]);
    }

    #[test]
    fn lichen_moves_ring_the_slot_and_point_the_act() {
        let (arrows, rings) = move_marks("lichen", "a2ne;a2*ne", &|_| None);
        assert_eq!(arrows, [("a2".to_owned(), "b3".to_owned())]);
        assert_eq!(rings, ["a2ne"]);
        assert_eq!(neighbour("c1", "n").as_deref(), Some("c2"));
        let (_, rings) = move_marks("kelasu", "W@D1:C1,D1", &|_| None);
        assert_eq!(rings, ["C1", "D1"]);
    }
}
