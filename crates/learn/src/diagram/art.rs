//! The board's drawing rules, read from the file the page draws with
//! (`web/drawing.js`): one source for the page's board and the diagrams.
//! What follows `export default` in that file is plain JSON.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

const SOURCE: &str = include_str!("../../../../web/drawing.js");

#[derive(Debug, Deserialize)]
pub struct Drawing {
    pub board: BoardColours,
    pub sides: BTreeMap<String, Side>,
    pub chess: PieceSet,
    pub kelasu: Kelasu,
    pub lichen: Lichen,
    pub lunch: Lunch,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BoardColours {
    pub light: String,
    pub dark: String,
    pub last: String,
    pub arrow: String,
    pub hold: String,
    pub mark: String,
    pub coord_font: String,
}

#[derive(Debug, Deserialize)]
pub struct Side {
    pub fill: String,
    pub stroke: String,
    pub detail: String,
}

/// One part of a piece's drawing in its 100×100 box (pieces.js says how
/// each kind is painted).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Part {
    pub body: Option<String>,
    pub circle: Option<[f64; 3]>,
    pub line: Option<String>,
    pub dot: Option<[f64; 3]>,
    pub emblem: Option<String>,
    pub emblem_line: Option<String>,
    pub emblem_cut: Option<String>,
    pub width: Option<f64>,
}

#[derive(Debug, Deserialize)]
pub struct PieceSet {
    pub parts: BTreeMap<String, Vec<Part>>,
    pub names: BTreeMap<String, String>,
}

#[derive(Debug, Deserialize)]
pub struct Shades {
    pub light: String,
    pub dark: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CoordInk {
    pub on_light: String,
    pub on_dark: String,
}

#[derive(Debug, Deserialize)]
pub struct Tile {
    pub fill: String,
    pub stroke: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Kelasu {
    pub parts: BTreeMap<String, Vec<Part>>,
    pub names: BTreeMap<String, String>,
    pub shades: Shades,
    pub coords: CoordInk,
    pub tile: Tile,
    pub spent_opacity: f64,
}

#[derive(Debug, Deserialize)]
pub struct StoneColours {
    pub fill: String,
    pub stroke: String,
    pub shine: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Lichen {
    pub pebble: String,
    pub crown: String,
    pub crown_base: String,
    pub shine: String,
    pub stone: StoneColours,
    pub shades: Shades,
    pub grid: String,
    pub halo: BTreeMap<String, String>,
    pub coords: String,
    pub harvest: String,
    pub slot: Tile,
}

#[derive(Debug, Deserialize)]
pub struct HealthBand {
    pub from: f64,
    pub colour: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Lunch {
    pub health: Vec<HealthBand>,
    pub star: Tile,
    pub stomp: String,
    pub stunned_opacity: f64,
}

/// The JSON after `export default` (up to the last `}`).
fn json_part(source: &str) -> Result<&str, String> {
    let start = source.find("export default").ok_or("no `export default` in web/drawing.js")?;
    let rest = &source[start..];
    let open = rest.find('{').ok_or("no object after `export default`")?;
    let close = rest.rfind('}').ok_or("the object is not closed")?;
    Ok(&rest[open..=close])
}

/// Reads a drawing file's text.
pub fn parse(source: &str) -> Result<Drawing, String> {
    serde_json::from_str(json_part(source)?).map_err(|e| format!("web/drawing.js: {e}"))
}

/// The drawing rules built into this binary.
pub fn drawing() -> &'static Drawing {
    static DRAWING: OnceLock<Drawing> = OnceLock::new();
    DRAWING.get_or_init(|| parse(SOURCE).expect("web/drawing.js is checked by the tests"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_s_drawing_file_reads() {
        let drawing = parse(SOURCE).unwrap();
        for letter in ["k", "q", "r", "b", "n", "p", "c", "i"] {
            assert!(!drawing.chess.parts[letter].is_empty(), "{letter}");
        }
        for letter in ["B", "W", "R", "D", "C", "G", "S"] {
            assert!(!drawing.kelasu.parts[letter].is_empty(), "{letter}");
        }
        for side in ["white", "black", "blue", "red"] {
            assert!(drawing.sides[side].fill.starts_with('#'));
        }
        assert!(parse("export default {\"board\": 1}").is_err());
        assert!(parse("nothing here").unwrap_err().contains("export default"));
    }
}
