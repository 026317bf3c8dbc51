//! An SVG picture of a board, built as text in the layers of the page's
//! `Picture` (web/board.js): squares, marks, pieces, coordinates, arrows;
//! so that a diagram looks like the board people play on.

use super::art::{drawing, Part, Side};
use std::collections::HashMap;
use std::fmt::Write as _;

/// A number for an SVG attribute: at most two decimals, no trailing zeros.
pub fn num(value: f64) -> String {
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_owned()
    } else {
        text.to_owned()
    }
}

/// Text for SVG and HTML content and attribute values.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[derive(Clone, Copy, Debug)]
pub enum Cell {
    Rect { x: f64, y: f64, w: f64, h: f64 },
    Circle { cx: f64, cy: f64, r: f64 },
}

impl Cell {
    fn centre(self) -> (f64, f64) {
        match self {
            Cell::Rect { x, y, w, h } => (x + w / 2.0, y + h / 2.0),
            Cell::Circle { cx, cy, .. } => (cx, cy),
        }
    }
    fn size(self) -> f64 {
        match self {
            Cell::Rect { w, .. } => w,
            Cell::Circle { r, .. } => r * 2.0,
        }
    }
}

/// A square of a grid, with the coordinate labels it carries.
pub struct Labelled {
    pub x: f64,
    pub y: f64,
    pub light: bool,
    pub rank_label: Option<String>,
    pub file_label: Option<String>,
}

pub struct Picture {
    width: f64,
    height: f64,
    squares: String,
    marks: String,
    pieces: String,
    coords: String,
    arrows: String,
    cells: HashMap<String, Cell>,
}

impl Picture {
    pub fn new(width: f64, height: f64) -> Picture {
        Picture {
            width,
            height,
            squares: String::new(),
            marks: String::new(),
            pieces: String::new(),
            coords: String::new(),
            arrows: String::new(),
            cells: HashMap::new(),
        }
    }

    pub fn has_cell(&self, name: &str) -> bool {
        self.cells.contains_key(name)
    }

    /// A square cell named `name`, with an optional outline.
    pub fn square(&mut self, name: &str, x: f64, y: f64, size: f64, fill: &str, stroke: Option<(&str, f64)>) {
        let outline = stroke.map(|(s, w)| format!(" stroke=\"{s}\" stroke-width=\"{}\"", num(w))).unwrap_or_default();
        let _ = write!(
            self.squares,
            "<rect data-square=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\"{outline}/>",
            escape(name),
            num(x),
            num(y),
            num(size),
            num(size)
        );
        self.cells.insert(name.to_owned(), Cell::Rect { x, y, w: size, h: size });
    }

    /// A round cell (a Lichen slot).
    pub fn slot(&mut self, name: &str, cx: f64, cy: f64, r: f64, fill: &str, stroke: &str) {
        let _ = write!(
            self.squares,
            "<circle data-square=\"{}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\"/>",
            escape(name),
            num(cx),
            num(cy),
            num(r),
            num(r * 0.18)
        );
        self.cells.insert(name.to_owned(), Cell::Circle { cx, cy, r });
    }

    /// Something drawn under the pieces (a tint, a tile's frame).
    pub fn mark_raw(&mut self, svg: &str) {
        self.marks.push_str(svg);
    }

    /// A piece or anything drawn over a cell.
    pub fn piece_raw(&mut self, svg: &str) {
        self.pieces.push_str(svg);
    }

    /// A label over everything but the arrows.
    pub fn coord(&mut self, x: f64, y: f64, text: &str, size: f64, fill: &str, anchor: &str) {
        let font = &drawing().board.coord_font;
        let _ = write!(
            self.coords,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{fill}\" font-family=\"{font}\" font-weight=\"600\" text-anchor=\"{anchor}\">{}</text>",
            num(x),
            num(y),
            num(size),
            escape(text)
        );
    }

    /// Coordinates inside the edge squares, as the page draws them:
    /// ranks top left in the first column, files bottom right in the last
    /// row, each in the other shade's colour.
    pub fn edge_coords(&mut self, cells: &[Labelled], size: f64, on_light: &str, on_dark: &str, scale: f64) {
        let font = size * scale;
        for c in cells {
            let ink = if c.light { on_light } else { on_dark };
            if let Some(label) = &c.rank_label {
                self.coord(c.x + size * 0.05, c.y + size * 0.03 + font, label, font, ink, "start");
            }
            if let Some(label) = &c.file_label {
                self.coord(c.x + size * 0.95, c.y + size * 0.95, label, font, ink, "end");
            }
        }
    }

    /// A tint over a cell (a marked square), under its piece.
    pub fn tint(&mut self, name: &str, colour: &str) -> bool {
        match self.cells.get(name).copied() {
            Some(Cell::Rect { x, y, w, h }) => {
                let _ = write!(
                    self.marks,
                    "<rect class=\"mark\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{colour}\"/>",
                    num(x),
                    num(y),
                    num(w),
                    num(h)
                );
                true
            }
            Some(Cell::Circle { cx, cy, r }) => {
                let _ = write!(
                    self.marks,
                    "<circle class=\"mark\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{colour}\"/>",
                    num(cx),
                    num(cy),
                    num(r * 1.5)
                );
                true
            }
            None => false,
        }
    }

    /// A ring round a cell, over its piece: a marked square of a diagram.
    pub fn ring(&mut self, name: &str, colour: &str) -> bool {
        let Some(cell) = self.cells.get(name).copied() else { return false };
        let (cx, cy) = cell.centre();
        let r = cell.size() * 0.46;
        let _ = write!(
            self.arrows,
            "<circle class=\"ring\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{}\"/>",
            num(cx),
            num(cy),
            num(if matches!(cell, Cell::Circle { .. }) { r * 1.6 } else { r }),
            num(cell.size() * 0.07)
        );
        true
    }

    /// An arrow from one cell's centre to another's (web/board.js's shape).
    pub fn arrow(&mut self, from: &str, to: &str, colour: &str) -> bool {
        let (Some(a), Some(b)) = (self.cells.get(from).copied(), self.cells.get(to).copied()) else { return false };
        let (x1, y1) = a.centre();
        let (x2, y2) = b.centre();
        let len = (x2 - x1).hypot(y2 - y1).max(1e-9);
        let w = a.size() * 0.14;
        let (ux, uy) = ((x2 - x1) / len, (y2 - y1) / len);
        let (tip_x, tip_y) = (x2 - ux * w * 1.5, y2 - uy * w * 1.5);
        let head = w * 2.2;
        let (bx, by) = (tip_x - ux * head, tip_y - uy * head);
        let _ = write!(
            self.arrows,
            "<g class=\"arrow\" opacity=\"0.85\"><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{colour}\" stroke-width=\"{}\" stroke-linecap=\"round\"/><path d=\"M{} {}L{} {}L{} {}Z\" fill=\"{colour}\"/></g>",
            num(x1 + ux * w),
            num(y1 + uy * w),
            num(bx),
            num(by),
            num(w),
            num(tip_x),
            num(tip_y),
            num(bx - uy * head * 0.6),
            num(by + ux * head * 0.6),
            num(bx + uy * head * 0.6),
            num(by - ux * head * 0.6)
        );
        true
    }

    /// The finished `<svg>`: as wide as its container up to `max_width`
    /// pixels (a `width` attribute, held down by the style sheet's
    /// `max-width: 100%`: pages allow no inline style), its height following
    /// from the board's proportions.
    pub fn finish(self, label: &str, max_width: u32) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board-svg diagram-board\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\" width=\"{max_width}\"><g class=\"layer-squares\">{}</g><g class=\"layer-marks\">{}</g><g class=\"layer-pieces\">{}</g><g class=\"layer-coords\">{}</g><g class=\"layer-arrows\">{}</g></svg>",
            num(self.width),
            num(self.height),
            escape(label),
            self.squares,
            self.marks,
            self.pieces,
            self.coords,
            self.arrows
        )
    }
}

/// A piece drawing placed in the box `(x, y, size)`, as pieces.js places it.
pub fn place(
    parts: &[Part],
    side: &Side,
    (x, y, size): (f64, f64, f64),
    title: &str,
    stroke_width: f64,
    opacity: Option<f64>,
) -> String {
    let mut out = format!(
        "<g class=\"piece\" transform=\"translate({} {}) scale({})\"{}><title>{}</title>",
        num(x),
        num(y),
        num(size / 100.0),
        opacity.map(|o| format!(" opacity=\"{}\"", num(o))).unwrap_or_default(),
        escape(title)
    );
    let common = "stroke-linejoin=\"round\" stroke-linecap=\"round\"";
    let sw = num(stroke_width);
    for part in parts {
        if let Some(d) = &part.body {
            let _ = write!(
                out,
                "<path {common} d=\"{d}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{sw}\"/>",
                side.fill, side.stroke
            );
        } else if let Some([cx, cy, r]) = part.circle {
            let _ = write!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{sw}\"/>",
                num(cx),
                num(cy),
                num(r),
                side.fill,
                side.stroke
            );
        } else if let Some(d) = &part.line {
            let _ = write!(
                out,
                "<path {common} d=\"{d}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{sw}\"/>",
                side.detail
            );
        } else if let Some([cx, cy, r]) = part.dot {
            let _ = write!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"/>",
                num(cx),
                num(cy),
                num(r),
                side.detail
            );
        } else if let Some(d) = &part.emblem {
            let _ = write!(out, "<path {common} d=\"{d}\" fill=\"{}\" stroke=\"none\"/>", side.detail);
        } else if let Some(d) = &part.emblem_line {
            let width = part.width.map(num).unwrap_or_else(|| sw.clone());
            let _ = write!(
                out,
                "<path {common} d=\"{d}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{width}\"/>",
                side.detail
            );
        } else if let Some(d) = &part.emblem_cut {
            let _ = write!(out, "<path {common} d=\"{d}\" fill=\"{}\" stroke=\"none\"/>", side.fill);
        }
    }
    out.push_str("</g>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(10.0), "10");
        assert_eq!(num(2.5), "2.5");
        assert_eq!(num(1.0 / 3.0), "0.33");
        assert_eq!(num(-0.001), "0");
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }

    #[test]
    fn arrows_and_rings_need_cells() {
        let mut picture = Picture::new(20.0, 10.0);
        picture.square("a1", 0.0, 0.0, 10.0, "#fff", None);
        picture.square("b1", 10.0, 0.0, 10.0, "#000", None);
        assert!(picture.arrow("a1", "b1", "red"));
        assert!(!picture.arrow("a1", "c1", "red"));
        assert!(picture.ring("b1", "green"));
        let svg = picture.finish("two squares", 300);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert!(
            svg.contains("viewBox=\"0 0 20 10\"") && svg.contains("class=\"arrow\"") && svg.contains("class=\"ring\"")
        );
    }
}
