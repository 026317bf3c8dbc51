//! Reading the text of records: tag pairs, comments, turn numbers, move
//! texts and result tokens. Nothing here knows the rules; [`super::replay`]
//! checks the moves.
//!
//! The syntax is PGN's, with one difference: move texts may hold `;`
//! (Lichen's `a2ne;c1>n`), so `;` begins a comment only where a token
//! would begin.
//!
//! Reading is linear in the text: each character is looked at a bounded
//! number of times, and a record's tag names are kept in a set. What no
//! real record holds (more than [`MAX_TAGS`] tags, a tag name or value
//! longer than [`MAX_TAG_NAME`] or [`MAX_TAG_VALUE`]) is an error at the
//! first tag past the limit, which names the limit.

use super::{Record, RecordError, RecordMove, RecordResult};
use crate::shown;
use std::collections::HashSet;

/// The most tags a record may have (a game's record has about a dozen).
pub const MAX_TAGS: usize = 100;

/// The longest tag name, in bytes.
pub const MAX_TAG_NAME: usize = 100;

/// The longest tag value, in bytes (a `FEN` holds a start position text,
/// which a server takes up to 10,000 bytes long).
pub const MAX_TAG_VALUE: usize = 10_000;

/// Reads every record of `text`, in order. The first fault is an error
/// naming the record and line; an empty text has no records.
pub fn read_records(text: &str) -> Result<Vec<Record>, RecordError> {
    let mut reader = Reader { rest: text, line: 1, at_line_start: true };
    let mut records = Vec::new();
    let mut current: Option<Partial> = None;
    loop {
        let game = records.len() + 1;
        let syntax = |line: usize, problem: String| RecordError::Syntax { game, line, problem };
        reader.skip_whitespace();
        let Some(c) = reader.peek() else { break };
        let line = reader.line;
        let partial = current.get_or_insert_with(|| Partial::new(line));
        match c {
            '[' => {
                if !partial.moves.is_empty() {
                    return Err(syntax(line, "the moves end without a result (1-0, 0-1, 1/2-1/2 or *)".into()));
                }
                if partial.tags.len() == MAX_TAGS {
                    return Err(syntax(line, format!("too many tags: a record has at most {MAX_TAGS}")));
                }
                let (name, value) = reader.tag().map_err(|p| syntax(reader.line, p))?;
                if !partial.names.insert(name.clone()) {
                    return Err(syntax(line, format!("tag {name} is given twice")));
                }
                partial.tags.push((name, value));
            }
            '{' => reader.comment().map_err(|p| syntax(line, p))?,
            ';' => reader.skip_line(),
            '%' if reader.at_line_start => reader.skip_line(),
            '(' | ')' => return Err(syntax(line, "variations (in parentheses) are not supported".into())),
            ']' | '}' | '"' => return Err(syntax(line, format!("unexpected {c:?}"))),
            '$' => {
                reader.advance(1);
                if reader.take_while(|c| c.is_ascii_digit()).is_empty() {
                    return Err(syntax(line, "a `$` must be followed by a number (an annotation)".into()));
                }
            }
            _ => {
                let token = reader.token();
                if let Some(result) = RecordResult::parse(token) {
                    let partial = current.take().unwrap_or_else(|| Partial::new(line));
                    records.push(partial.finish(game, result));
                    continue;
                }
                if let Some(text) = move_of(token) {
                    partial.moves.push(RecordMove { text: text.to_owned(), line });
                }
            }
        }
    }
    if let Some(partial) = current.filter(|p| !p.tags.is_empty() || !p.moves.is_empty()) {
        return Err(RecordError::Syntax {
            game: records.len() + 1,
            line: partial.line,
            problem: "the record ends without a result (1-0, 0-1, 1/2-1/2 or *)".into(),
        });
    }
    Ok(records)
}

/// The move a token holds: none for a turn number (`12.`, `12...`), the
/// rest for a number glued to a move (`12.e4`), else the token itself.
/// (No move text of a game is digits then a dot.)
fn move_of(token: &str) -> Option<&str> {
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let after_digits = &token[digits..];
    if digits > 0 && after_digits.starts_with('.') {
        let rest = after_digits.trim_start_matches('.');
        (!rest.is_empty()).then_some(rest)
    } else {
        Some(token)
    }
}

struct Partial {
    line: usize,
    tags: Vec<(String, String)>,
    /// The names in `tags`, to find one given twice without a scan.
    names: HashSet<String>,
    moves: Vec<RecordMove>,
}

impl Partial {
    fn new(line: usize) -> Partial {
        Partial { line, tags: Vec::new(), names: HashSet::new(), moves: Vec::new() }
    }

    fn finish(self, index: usize, result: RecordResult) -> Record {
        Record { index, line: self.line, tags: self.tags, moves: self.moves, result }
    }
}

struct Reader<'a> {
    rest: &'a str,
    line: usize,
    at_line_start: bool,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<char> {
        self.rest.chars().next()
    }

    /// Moves on by `bytes` bytes (a whole number of characters), counting lines.
    fn advance(&mut self, bytes: usize) {
        let (gone, rest) = self.rest.split_at(bytes);
        let newlines = gone.matches('\n').count();
        self.line += newlines;
        if !gone.is_empty() {
            self.at_line_start = gone.ends_with('\n');
        }
        self.rest = rest;
    }

    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> &'a str {
        let end = self.rest.find(|c: char| !keep(c)).unwrap_or(self.rest.len());
        let taken = &self.rest[..end];
        self.advance(end);
        taken
    }

    fn skip_whitespace(&mut self) {
        self.take_while(char::is_whitespace);
    }

    fn skip_line(&mut self) {
        self.take_while(|c| c != '\n');
    }

    /// A token: up to whitespace or a character that begins something else.
    fn token(&mut self) -> &'a str {
        self.take_while(|c| !c.is_whitespace() && !matches!(c, '[' | ']' | '{' | '}' | '(' | ')' | '"'))
    }

    /// `{ ... }`, which may span lines.
    fn comment(&mut self) -> Result<(), String> {
        match self.rest.find('}') {
            Some(end) => {
                self.advance(end + 1);
                Ok(())
            }
            None => Err("a comment `{` is never closed".into()),
        }
    }

    /// `[Name "value"]`, the value with `\"` and `\\` escaped.
    fn tag(&mut self) -> Result<(String, String), String> {
        self.advance(1);
        self.take_while(|c| c == ' ' || c == '\t');
        let name = self.take_while(|c| c.is_ascii_alphanumeric() || c == '_');
        if name.is_empty() {
            return Err("a tag name (letters, digits, _) must follow `[`".into());
        }
        if name.len() > MAX_TAG_NAME {
            return Err(format!("a tag name is longer than {MAX_TAG_NAME} bytes"));
        }
        self.take_while(|c| c == ' ' || c == '\t');
        if self.peek() != Some('"') {
            return Err(format!("tag {name}: its value must be in double quotes"));
        }
        self.advance(1);
        let mut value = String::new();
        loop {
            if value.len() > MAX_TAG_VALUE {
                return Err(format!("tag {name}: the value is longer than {MAX_TAG_VALUE} bytes"));
            }
            let Some(c) = self.peek() else { return Err(format!("tag {name}: the value is never closed")) };
            self.advance(c.len_utf8());
            match c {
                '"' => break,
                '\n' => return Err(format!("tag {name}: the value is never closed on its line")),
                '\\' => match self.peek() {
                    Some(escaped @ ('"' | '\\')) => {
                        self.advance(1);
                        value.push(escaped);
                    }
                    _ => value.push('\\'),
                },
                c => value.push(c),
            }
        }
        self.take_while(|c| c == ' ' || c == '\t');
        if self.peek() != Some(']') {
            let after = self.rest.chars().take(20).collect::<String>();
            return Err(format!("tag {name}: expected `]` after the value, found {}", shown(&after)));
        }
        self.advance(1);
        Ok((name.to_owned(), value))
    }
}
