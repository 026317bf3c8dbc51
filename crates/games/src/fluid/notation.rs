//! Move texts, `<unit><from><to>[x<captured>][=<promotion>]`: `BRd1h5`,
//! `Bd1h5`, `Nd4e6xB`, `Pe7e8=BR`, castling `Ke1g1`.

use super::moves::Move;
use super::square::Square;
use menagerie_core::MoveError;

impl Move {
    /// The unit letters: one, or two in alphabetical order.
    pub fn unit_text(self) -> String {
        let first = self.first_kind().letter();
        match self.second_kind() {
            None => first.to_string(),
            Some(second) => {
                let second = second.letter();
                let (a, b) = if first <= second { (first, second) } else { (second, first) };
                format!("{a}{b}")
            }
        }
    }

    /// `<unit><from><to>[x<captured>][=<promotion>]`.
    pub fn text(self) -> String {
        let mut text = format!("{}{}{}", self.unit_text(), self.from(), self.to());
        if self.shows_capture() {
            if let Some(kind) = self.captured() {
                text.push('x');
                text.push(kind.letter());
            }
        }
        if let Some(promotion) = self.promotion() {
            text.push('=');
            text.push_str(promotion.text());
        }
        text
    }
}

/// Checks the shape `<unit><from><to>[x<captured>][=<promotion>]` and says
/// precisely what is wrong with a malformed text.
pub fn check_move_syntax(text: &str) -> Result<(), MoveError> {
    let chars: Vec<char> = text.chars().collect();
    let mut at = 0;
    let is_unit_letter = |c: char| matches!(c, 'B' | 'K' | 'N' | 'P' | 'R');
    while at < chars.len() && is_unit_letter(chars[at]) {
        at += 1;
    }
    match at {
        0 => {
            return Err(MoveError::syntax(text, "expected the moving piece letters (B, K, N, P, R; upper case) first"))
        }
        1 => {}
        2 => {
            if chars[0] > chars[1] {
                return Err(MoveError::syntax(
                    text,
                    "the two letters of a pair go in alphabetical order (BR, KR, BN...)",
                ));
            }
            if chars.contains(&'P') {
                return Err(MoveError::syntax(text, "a pawn never moves in a pair"));
            }
        }
        _ => return Err(MoveError::syntax(text, "a unit is one or two piece letters")),
    }
    for which in ["from", "to"] {
        let name: String = chars.iter().skip(at).take(2).collect();
        if Square::parse(&name).is_none() {
            return Err(MoveError::syntax(
                text,
                format!("expected the {which} square (a1..h8) at character {}", at + 1),
            ));
        }
        at += 2;
    }
    if chars.get(at) == Some(&'x') {
        match chars.get(at + 1) {
            Some(&c) if is_unit_letter(c) => at += 2,
            _ => return Err(MoveError::syntax(text, "'x' must be followed by the captured piece's letter")),
        }
    }
    if chars.get(at) == Some(&'=') {
        let letters: Vec<char> =
            chars[at + 1..].iter().copied().take_while(|&c| matches!(c, 'B' | 'N' | 'R')).collect();
        let valid = match letters.as_slice() {
            [_] => true,
            [a, b] => a < b,
            _ => false,
        };
        if !valid {
            return Err(MoveError::syntax(text, "'=' must be followed by B, N, R, or a pair BN, BR, NR"));
        }
        at += 1 + letters.len();
    }
    if at != chars.len() {
        return Err(MoveError::syntax(
            text,
            format!("unexpected text {:?} at the end", chars[at..].iter().collect::<String>()),
        ));
    }
    Ok(())
}
