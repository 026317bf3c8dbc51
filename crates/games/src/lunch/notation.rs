//! Move texts (see README.md): `e2e4`, `discard:jab+block`, `aid:e4:firstaid*2`,
//! `attack:d1d5:kick`, `attack:d1d5:roundhouse:cw`, `break:e5:freedom`,
//! `humiliate:humiliation`, `humiliate:humiliation:c3`, `answer:dodge`,
//! `free:e5:jab`, `grab:grab+headlock`, `choose:e4:b`, `promote:e8:q`, `pass`,
//! and chance's `draw:jab`.

use super::deck::{Card, Deck};
use super::frame::Spin;
use super::moves::Move;
use super::square::Square;
use menagerie_core::MoveError;

fn code(deck: &Deck, card: Card) -> &str {
    deck.code(card)
}

/// The text of a move; `promotion` tells `promote:` from `choose:`.
pub fn move_text(deck: &Deck, mv: Move, promotion: bool) -> String {
    match mv {
        Move::Step { from, to } => format!("{from}{to}"),
        Move::Discard(cards) => {
            let names: Vec<&str> = cards.cards().iter().map(|&c| code(deck, c)).collect();
            format!("discard:{}", names.join("+"))
        }
        Move::Aid { square, card, count } => {
            if count == 1 {
                format!("aid:{square}:{}", code(deck, card))
            } else {
                format!("aid:{square}:{}*{count}", code(deck, card))
            }
        }
        Move::Attack { from, to, card, spin } => {
            let dir = match spin {
                Some(Spin::Clockwise) => ":cw",
                Some(Spin::CounterClockwise) => ":ccw",
                None => "",
            };
            format!("attack:{from}{to}:{}{dir}", code(deck, card))
        }
        Move::Break { square, card } => format!("break:{square}:{}", code(deck, card)),
        Move::Humiliate { card, via: None } => format!("humiliate:{}", code(deck, card)),
        Move::Humiliate { card, via: Some(via) } => format!("humiliate:{}:{via}", code(deck, card)),
        Move::Answer { card } => format!("answer:{}", code(deck, card)),
        Move::Free { to, card } => format!("free:{to}:{}", code(deck, card)),
        Move::Grab { grab, with } => format!("grab:{}+{}", code(deck, grab), code(deck, with)),
        Move::Choose { square, kind } => format!(
            "{}:{square}:{}",
            if promotion { "promote" } else { "choose" },
            kind.letter().to_ascii_lowercase()
        ),
        Move::Draw { card } => format!("draw:{}", code(deck, card)),
        Move::Pass => "pass".into(),
    }
}

/// Checks the shape of a move text (words, squares, card codes, numbers),
/// so that a malformed text gets a precise error before the legality check.
pub fn check_syntax(deck: &Deck, text: &str) -> Result<(), MoveError> {
    let bad = |problem: &str| Err(MoveError::syntax(text, problem));
    let square = |s: &str, what: &str| -> Result<Square, MoveError> {
        Square::parse(s).ok_or_else(|| MoveError::syntax(text, format!("{what} {s:?} is not a square (a1..h8)")))
    };
    let card = |s: &str| -> Result<Card, MoveError> {
        deck.find(s).ok_or_else(|| {
            let codes: Vec<&str> = deck.types.iter().map(|t| t.code.as_str()).collect();
            MoveError::syntax(text, format!("unknown card {s:?}; cards: {}", codes.join(", ")))
        })
    };
    let parts: Vec<&str> = text.split(':').collect();
    match parts.as_slice() {
        ["pass"] => Ok(()),
        [step] if step.len() == 4 && step.is_ascii() => {
            square(&step[..2], "from-square")?;
            square(&step[2..], "to-square")?;
            Ok(())
        }
        ["discard", cards] => {
            let list: Vec<&str> = cards.split('+').collect();
            if list.len() > 5 {
                return bad("at most 5 cards may be discarded");
            }
            for c in list {
                card(c)?;
            }
            Ok(())
        }
        ["aid", sq, group] => {
            square(sq, "square")?;
            let (c, n) = group.split_once('*').unwrap_or((group, "1"));
            card(c)?;
            match n.parse::<u8>() {
                Ok(n) if (1..=9).contains(&n) => Ok(()),
                _ => bad("the First Aid count after `*` must be a number 1..9"),
            }
        }
        ["attack", squares, c, rest @ ..] => {
            if squares.len() != 4 || !squares.is_ascii() {
                return bad("expected attack:<from><to>:<card>, e.g. attack:d1d5:kick");
            }
            square(&squares[..2], "attacker square")?;
            square(&squares[2..], "target square")?;
            card(c)?;
            match rest {
                [] | ["cw"] | ["ccw"] => Ok(()),
                _ => bad("the spin direction must be `cw` or `ccw`"),
            }
        }
        ["break", sq, c] | ["free", sq, c] => {
            square(sq, "square")?;
            card(c)?;
            Ok(())
        }
        ["humiliate", c] | ["answer", c] | ["draw", c] => {
            card(c)?;
            Ok(())
        }
        ["humiliate", c, sq] => {
            card(c)?;
            square(sq, "square")?;
            Ok(())
        }
        ["grab", pair] => {
            let Some((g, w)) = pair.split_once('+') else {
                return bad("expected grab:<grab card>+<card>, e.g. grab:grab+jab");
            };
            card(g)?;
            card(w)?;
            Ok(())
        }
        ["choose", sq, k] | ["promote", sq, k] => {
            square(sq, "square")?;
            match *k {
                "n" | "b" | "r" | "q" => Ok(()),
                _ => bad("the piece must be n, b, r or q"),
            }
        }
        [word, ..] => bad(&format!(
            "unknown move word {word:?}; expected a movement like e2e4 or one of discard, aid, attack, break, humiliate, answer, free, grab, choose, promote, draw, pass"
        )),
        [] => bad("empty move"),
    }
}
