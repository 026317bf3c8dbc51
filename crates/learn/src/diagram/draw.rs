//! Each game's board, drawn from the view the page draws from (the JSON of
//! `Present::board`, docs/api.md), by the rules of `web/games/<game>.js`:
//! the same sizes, shades, pieces, stacks, slots, tiles and badges.

use super::art::drawing;
use super::svg::{escape, num, place, Labelled, Picture};
use serde_json::Value;
use std::fmt::Write as _;

fn file_name(i: usize) -> String {
    char::from(b'a' + i as u8).to_string()
}

fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or("")
}

/// A chess piece by letter (either case) and side, as pieces.js draws it.
fn chess_piece(letter: char, colour: &str, x: f64, y: f64, size: f64, opacity: Option<f64>) -> String {
    let art = drawing();
    let key = letter.to_ascii_lowercase().to_string();
    let (Some(parts), Some(side)) = (art.chess.parts.get(&key), art.sides.get(colour)) else { return String::new() };
    let name = art.chess.names.get(&key).map(String::as_str).unwrap_or("piece");
    place(parts, side, (x, y, size), &format!("{colour} {name}"), 3.2, opacity)
}

/// The board of a game and the widest it is drawn, in pixels.
pub fn board(game: &str, view: &Value) -> Option<(Picture, u32)> {
    match game {
        "lma" => Some((lma(view), 560)),
        "fluid" => Some((fluid(view), 400)),
        "lichen" => Some((lichen(view), 460)),
        "kelasu" => Some((kelasu(view), 440)),
        "lunch" => Some((lunch(view), 400)),
        _ => None,
    }
}

const SIZE: f64 = 10.0;

/// A rectangular board, rank 1 at the bottom, named `<file><rank>`
/// (board.js's `grid`); `piece` draws what stands on a square.
fn grid(picture: &mut Picture, files: usize, ranks: usize, mut piece: impl FnMut(&str, f64, f64) -> String) {
    let art = drawing();
    let mut cells = Vec::new();
    for r in 0..ranks {
        for f in 0..files {
            let (x, y) = (f as f64 * SIZE, (ranks - 1 - r) as f64 * SIZE);
            let name = format!("{}{}", file_name(f), r + 1);
            let light = (f + r) % 2 == 1;
            picture.square(&name, x, y, SIZE, if light { &art.board.light } else { &art.board.dark }, None);
            cells.push(Labelled {
                x,
                y,
                light,
                rank_label: (f == 0).then(|| (r + 1).to_string()),
                file_label: (r == 0).then(|| file_name(f)),
            });
            let drawn = piece(&name, x, y);
            picture.piece_raw(&drawn);
        }
    }
    picture.edge_coords(&cells, SIZE, &art.board.dark, &art.board.light, 0.18);
}

fn lma(view: &Value) -> Picture {
    const GAP: f64 = 7.0;
    const TOP: f64 = 4.0;
    let art = drawing();
    let boards = view.get("boards").and_then(Value::as_array).cloned().unwrap_or_default();
    let width = boards.len() as f64 * 6.0 * SIZE + (boards.len().max(1) - 1) as f64 * GAP;
    let mut picture = Picture::new(width, 7.0 * SIZE + TOP);
    for (i, b) in boards.iter().enumerate() {
        let x0 = i as f64 * (6.0 * SIZE + GAP);
        let mut cells = Vec::new();
        for sq in b.get("squares").and_then(Value::as_array).into_iter().flatten() {
            let name = text(sq, "square");
            let bytes = name.as_bytes();
            if bytes.len() != 3 {
                continue;
            }
            let f = usize::from(bytes[1].wrapping_sub(b'a'));
            let r = usize::from(bytes[2].wrapping_sub(b'1'));
            if f > 5 || r > 6 {
                continue;
            }
            let (x, y) = (x0 + f as f64 * SIZE, TOP + (6 - r) as f64 * SIZE);
            let dark = sq.get("dark").and_then(Value::as_bool).unwrap_or(false);
            picture.square(name, x, y, SIZE, if dark { &art.board.dark } else { &art.board.light }, None);
            cells.push(Labelled {
                x,
                y,
                light: !dark,
                rank_label: (f == 0).then(|| (r + 1).to_string()),
                file_label: (r == 0).then(|| file_name(f)),
            });
            if let Some(letter) = text(sq, "piece").chars().next() {
                let colour = if letter.is_ascii_uppercase() { "white" } else { "black" };
                picture.piece_raw(&chess_piece(letter, colour, x, y, SIZE, None));
            }
        }
        picture.edge_coords(&cells, SIZE, &art.board.dark, &art.board.light, 0.18);
        let label = format!("board {}", b.get("board").and_then(Value::as_u64).unwrap_or(i as u64 + 1));
        picture.coord(x0 + 3.0 * SIZE, TOP - 1.2, &label, 2.6, "#666", "middle");
    }
    picture
}

fn fluid(view: &Value) -> Picture {
    let mut picture = Picture::new(8.0 * SIZE, 8.0 * SIZE);
    let squares = view.get("squares").cloned().unwrap_or(Value::Null);
    grid(&mut picture, 8, 8, |name, x, y| {
        let here: Vec<(char, String)> = squares
            .get(name)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|p| Some((text(p, "letter").chars().next()?, text(p, "colour").to_owned())))
            .collect();
        match here.as_slice() {
            [] => String::new(),
            [(letter, colour)] => chess_piece(*letter, colour, x, y, SIZE, None),
            [(a, ca), (b, cb), ..] => {
                // A Bishop and a Rook of one side are a Queen; any other
                // two stand side by side, smaller, both readable.
                let mut pair = [a.to_ascii_uppercase(), b.to_ascii_uppercase()];
                pair.sort_unstable();
                if ca == cb && pair == ['B', 'R'] {
                    chess_piece('q', ca, x, y, SIZE, None)
                } else {
                    chess_piece(*a, ca, x - SIZE * 0.02, y - SIZE * 0.02, SIZE * 0.64, None)
                        + &chess_piece(*b, cb, x + SIZE * 0.38, y + SIZE * 0.38, SIZE * 0.64, None)
                }
            }
        }
    });
    picture
}

const DIRECTIONS: [(&str, i32, i32); 8] =
    [("n", 0, 1), ("ne", 1, 1), ("e", 1, 0), ("se", 1, -1), ("s", 0, -1), ("sw", -1, -1), ("w", -1, 0), ("nw", -1, 1)];

fn lichen(view: &Value) -> Picture {
    let art = drawing();
    let l = &art.lichen;
    let files = view.get("files").and_then(Value::as_u64).unwrap_or(5) as usize;
    let ranks = view.get("ranks").and_then(Value::as_u64).unwrap_or(3) as usize;
    let size = 30.0;
    let mut picture = Picture::new(files as f64 * size, ranks as f64 * size);
    let stones = view.get("stones").and_then(Value::as_array).cloned().unwrap_or_default();
    let harvest: Vec<&str> =
        view.get("harvest").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    let mut cells = Vec::new();
    for r in 0..ranks {
        for f in 0..files {
            let name = format!("{}{}", file_name(f), r + 1);
            let (x, y) = (f as f64 * size, (ranks - 1 - r) as f64 * size);
            let light = (f + r) % 2 == 1;
            picture.square(
                &name,
                x,
                y,
                size,
                if light { &l.shades.light } else { &l.shades.dark },
                Some((&l.grid, 0.3)),
            );
            cells.push(Labelled {
                x,
                y,
                light,
                rank_label: (f == 0).then(|| (r + 1).to_string()),
                file_label: (r == 0).then(|| file_name(f)),
            });
            let Some(stone) = stones.iter().find(|s| text(s, "square") == name) else { continue };
            let (cx, cy) = (x + size / 2.0, y + size / 2.0);
            let mut g = String::from("<g class=\"lichen-stone\">");
            if let Some(halo) = stone.get("controller").and_then(Value::as_str).and_then(|c| l.halo.get(c)) {
                let _ = write!(
                    g,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{halo}\" stroke-width=\"{}\" opacity=\"0.9\"/>",
                    num(cx),
                    num(cy),
                    num(size * 0.285),
                    num(size * 0.04)
                );
            }
            g.push_str(&lichen_stone(
                x + size * 0.15,
                y + size * 0.15,
                size * 0.7,
                stone.get("kingstone").and_then(Value::as_str),
            ));
            if harvest.contains(&name.as_str()) {
                let _ = write!(
                    g,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{}\" stroke-dasharray=\"2 1.4\" stroke-width=\"0.7\"/>",
                    num(cx),
                    num(cy),
                    num(size * 0.47),
                    l.harvest
                );
            }
            g.push_str("</g>");
            picture.piece_raw(&g);
            for (dir, dx, dy) in DIRECTIONS {
                let k = if dx != 0 && dy != 0 { 0.3 } else { 0.36 };
                let (sx, sy) = (cx + f64::from(dx) * size * k, cy - f64::from(dy) * size * k);
                picture.slot(&format!("{name}{dir}"), sx, sy, size * 0.075, &l.slot.fill, &l.slot.stroke);
                if let Some(token) = stone.get("slots").and_then(|s| s.get(dir)).and_then(Value::as_str) {
                    picture.piece_raw(&lichen_token(token, sx, sy, size * 0.07));
                }
            }
        }
    }
    picture.edge_coords(&cells, size, &l.coords, &l.coords, 0.13);
    picture
}

fn lichen_stone(x: f64, y: f64, size: f64, kingstone: Option<&str>) -> String {
    let art = drawing();
    let l = &art.lichen;
    let title = kingstone.map(|k| format!("{k}'s kingstone")).unwrap_or_else(|| "stone".into());
    let mut g = format!(
        "<g class=\"piece stone\" transform=\"translate({} {}) scale({})\"><title>{}</title><path d=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"3\"/><path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"5\" stroke-linecap=\"round\"/>",
        num(x),
        num(y),
        num(size / 100.0),
        escape(&title),
        l.pebble,
        l.stone.fill,
        l.stone.stroke,
        l.shine,
        l.stone.shine
    );
    if let Some(side) = kingstone.and_then(|k| art.sides.get(k)) {
        for d in [&l.crown, &l.crown_base] {
            let _ = write!(
                g,
                "<path d=\"{d}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"3.5\" stroke-linejoin=\"round\"/>",
                side.fill, side.stroke
            );
        }
    }
    g.push_str("</g>");
    g
}

fn lichen_token(colour: &str, cx: f64, cy: f64, r: f64) -> String {
    let art = drawing();
    let Some(side) = art.sides.get(colour) else { return String::new() };
    format!(
        "<g class=\"piece token\"><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" opacity=\"0.8\"/></g>",
        num(cx),
        num(cy),
        num(r),
        side.fill,
        side.stroke,
        num(r * 0.22),
        num(cx - r * 0.3),
        num(cy - r * 0.3),
        num(r * 0.28),
        if colour == "black" { "#555" } else { "#fff" }
    )
}

fn kelasu(view: &Value) -> Picture {
    let art = drawing();
    let k = &art.kelasu;
    let strings = |key: &str, default: &[&str]| -> Vec<String> {
        view.get(key)
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect())
            .unwrap_or_else(|| default.iter().map(|s| s.to_string()).collect())
    };
    let ranks = strings("ranks", &["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"]);
    let files = strings("files", &["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);
    let tiles = strings("victory_tiles", &[]);
    let pieces = view.get("squares").and_then(Value::as_array).cloned().unwrap_or_default();
    let mut picture = Picture::new(files.len() as f64 * SIZE, ranks.len() as f64 * SIZE);
    let mut cells = Vec::new();
    for (r, rank) in ranks.iter().enumerate() {
        for (f, file) in files.iter().enumerate() {
            let (x, y) = (f as f64 * SIZE, r as f64 * SIZE);
            let name = format!("{rank}{file}");
            let light = (r + f) % 2 == 0;
            picture.square(&name, x, y, SIZE, if light { &k.shades.light } else { &k.shades.dark }, None);
            cells.push(Labelled {
                x,
                y,
                light,
                rank_label: (f == 0).then(|| rank.clone()),
                file_label: (r == ranks.len() - 1).then(|| file.clone()),
            });
            if tiles.contains(&name) {
                picture.mark_raw(&format!(
                    "<rect class=\"victory-tile\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"0.8\"/>",
                    num(x + 0.5),
                    num(y + 0.5),
                    num(SIZE - 1.0),
                    num(SIZE - 1.0),
                    k.tile.fill,
                    k.tile.stroke
                ));
            }
            let Some(p) = pieces.iter().find(|p| text(p, "square") == name) else { continue };
            let letter = text(p, "piece").to_ascii_uppercase();
            let colour = text(p, "colour");
            let (Some(parts), Some(side)) = (k.parts.get(&letter), art.sides.get(colour)) else { continue };
            let title = format!("{colour} {}", k.names.get(&letter).map(String::as_str).unwrap_or("piece"));
            let spent = p.get("spent").and_then(Value::as_bool).unwrap_or(false).then_some(k.spent_opacity);
            picture.piece_raw(&place(parts, side, (x + SIZE * 0.05, y + SIZE * 0.05, SIZE * 0.9), &title, 3.0, spent));
        }
    }
    picture.edge_coords(&cells, SIZE, &k.coords.on_light, &k.coords.on_dark, 0.18);
    picture
}

fn star_path(cx: f64, cy: f64, r: f64) -> String {
    let points: Vec<String> = (0..10)
        .map(|i| {
            let a = -std::f64::consts::FRAC_PI_2 + f64::from(i) * std::f64::consts::PI / 5.0;
            let rr = if i % 2 == 1 { r * 0.45 } else { r };
            format!("{:.2} {:.2}", cx + rr * a.cos(), cy + rr * a.sin())
        })
        .collect();
    format!("M{}Z", points.join("L"))
}

fn lunch(view: &Value) -> Picture {
    let art = drawing();
    let lunch = &art.lunch;
    let pieces = view.get("squares").and_then(Value::as_array).cloned().unwrap_or_default();
    let mut picture = Picture::new(8.0 * SIZE, 8.0 * SIZE);
    grid(&mut picture, 8, 8, |name, x, y| {
        let Some(p) = pieces.iter().find(|p| text(p, "square") == name) else { return String::new() };
        let Some(letter) = text(p, "piece").chars().next() else { return String::new() };
        let colour = text(p, "colour");
        let flag = |key: &str| p.get(key).and_then(Value::as_bool).unwrap_or(false);
        let hp = p.get("hp").and_then(Value::as_i64).unwrap_or(0);
        let max = p.get("max_hp").and_then(Value::as_i64).unwrap_or(0);
        let mut g = String::from("<g class=\"lunch-piece\">");
        let stunned = flag("stunned").then_some(lunch.stunned_opacity);
        g.push_str(&chess_piece(letter, colour, x + SIZE * 0.04, y + SIZE * 0.08, SIZE * 0.9, stunned));
        // Hit points: a pill in the top right corner, coloured by health.
        let share = if max > 0 { hp as f64 / max as f64 } else { 1.0 };
        let fill = lunch.health.iter().find(|band| share >= band.from).map(|b| b.colour.as_str()).unwrap_or("#c62828");
        let label = hp.to_string();
        let w = SIZE * if label.len() > 1 { 0.42 } else { 0.3 };
        let _ = write!(
            g,
            "<rect class=\"hp-badge\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"{fill}\" stroke=\"#fff\" stroke-width=\"{}\"/><text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"700\" text-anchor=\"middle\" fill=\"#fff\" font-family=\"{}\">{label}</text>",
            num(x + SIZE - w - SIZE * 0.03),
            num(y + SIZE * 0.03),
            num(w),
            num(SIZE * 0.27),
            num(SIZE * 0.13),
            num(SIZE * 0.025),
            num(x + SIZE - w / 2.0 - SIZE * 0.03),
            num(y + SIZE * 0.235),
            num(SIZE * 0.2),
            art.board.coord_font
        );
        if stunned.is_some() {
            let _ = write!(
                g,
                "<path d=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>",
                star_path(x + SIZE * 0.2, y + SIZE * 0.18, SIZE * 0.12),
                lunch.star.fill,
                lunch.star.stroke,
                num(SIZE * 0.015)
            );
        }
        if flag("stomped") {
            let _ = write!(
                g,
                "<path d=\"M{} {}h{}\" stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"round\"/>",
                num(x + SIZE * 0.08),
                num(y + SIZE * 0.9),
                num(SIZE * 0.22),
                lunch.stomp,
                num(SIZE * 0.06)
            );
        }
        g.push_str("</g>");
        g
    });
    for hold in view.get("holds").and_then(Value::as_array).into_iter().flatten() {
        picture.arrow(text(hold, "holder"), text(hold, "held"), &art.board.hold);
    }
    if let Some(battle) = view.get("battle").filter(|b| !b.is_null()) {
        picture.arrow(text(battle, "a"), text(battle, "t"), &art.board.arrow);
    }
    picture
}
