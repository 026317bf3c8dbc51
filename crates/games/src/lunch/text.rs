//! The full-state position text (see README.md for the grammar), and the
//! per-player view text that hides the other hand and the draw pile.

use super::deck::{Card, CardKind, Deck};
use super::frame::{Battle, BattleStage, Frame, Hold, HoldKind, Role, Spin, Strike, StrikeStage, TurnStage};
use super::piece::{flag, Kind, Piece};
use super::pile::Pile;
use super::position::{GameResult, State, Zone, MAX_FRAMES, MAX_HOLDS, MAX_LIMBO};
use super::square::Square;
use super::LunchVariant;
use menagerie_core::{Actor, Player, PositionError};

/// The fields of a position text, in order.
pub const FIELDS: [&str; 14] = [
    "board",
    "side to move",
    "castling",
    "white hand",
    "black hand",
    "draw pile",
    "discard pile",
    "weapons in play",
    "holds",
    "battle",
    "stack",
    "counters",
    "result",
    "to act",
];

/// The optional last field of the current version: the cards both
/// players know to be in a hand (written only when there are some).
const KNOWN_FIELD: &str = "known cards";

/// The fields of a text with the optional known cards.
const FIELDS_KNOWN: [&str; 15] = [
    "board",
    "side to move",
    "castling",
    "white hand",
    "black hand",
    "draw pile",
    "discard pile",
    "weapons in play",
    "holds",
    "battle",
    "stack",
    "counters",
    "result",
    "to act",
    KNOWN_FIELD,
];

/// The fields of the first version of the text, which carried the draw
/// pile's order and the generator of its shuffles (still read: see [`parse`]).
const FIELDS_V1: [&str; 15] = [
    "board",
    "side to move",
    "castling",
    "white hand",
    "black hand",
    "draw pile",
    "discard pile",
    "weapons in play",
    "holds",
    "battle",
    "stack",
    "counters",
    "random state",
    "result",
    "to act",
];

fn player_letter(p: Player) -> &'static str {
    if p == Player::First {
        "w"
    } else {
        "b"
    }
}

pub fn player_word(p: Player) -> &'static str {
    if p == Player::First {
        "white"
    } else {
        "black"
    }
}

/// `white`, `black` or `chance`.
pub fn actor_word(actor: Actor) -> &'static str {
    match actor {
        Actor::Player(p) => player_word(p),
        Actor::Chance => "chance",
    }
}

fn sq_or_dash(sq: Option<Square>) -> String {
    sq.map_or_else(|| "-".into(), |sq| sq.to_string())
}

fn card_or_dash(deck: &Deck, card: Option<Card>) -> String {
    card.map_or_else(|| "-".into(), |card| deck.code(card).to_owned())
}

pub fn board_text(s: &State) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match Square::at(file, rank).and_then(|sq| s.piece(sq)) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let letter = p.kind.letter();
                    out.push(if p.color == Player::First { letter } else { letter.to_ascii_lowercase() });
                    if p.hp != p.kind.value() {
                        out.push_str(&format!("({})", p.hp));
                    }
                    if p.flags != 0 {
                        out.push('{');
                        for (bit, c) in flag::LETTERS {
                            if p.flags & bit != 0 {
                                out.push(c);
                            }
                        }
                        out.push('}');
                    }
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// A pile as a text: card codes in deck order, `code*n` for n cards of a
/// type, comma-separated; `-` when empty.
pub fn pile_text(deck: &Deck, pile: &Pile) -> String {
    let items: Vec<String> = pile
        .cards()
        .map(|(card, n)| if n == 1 { deck.code(card).to_owned() } else { format!("{}*{n}", deck.code(card)) })
        .collect();
    if items.is_empty() {
        "-".into()
    } else {
        items.join(",")
    }
}

/// The codes of a pile's cards, one per card, in deck order.
pub fn pile_codes(deck: &Deck, pile: &Pile) -> Vec<String> {
    pile.cards().flat_map(|(card, n)| std::iter::repeat_n(deck.code(card).to_owned(), n as usize)).collect()
}

fn frame_text(deck: &Deck, frame: &Frame) -> String {
    match *frame {
        Frame::Turn(stage) => format!("turn.{}", name_of(&TURN_STAGES, stage)),
        Frame::Round => "round".into(),
        Frame::Battle(stage) => format!("battle.{}", name_of(&BATTLE_STAGES, stage)),
        Frame::FirstAid { square, card, count, opened, cancelled } => {
            format!("aid.{square}.{}.{count}.{}.{}", deck.code(card), opened as u8, cancelled as u8)
        }
        Frame::Strike(st) => format!(
            "strike.{}.{}.{}.{}.{}.{}.{}.{}.{}.{}.{}.{}.{}.{}.{}.{}",
            name_of(&ROLES, st.role),
            player_letter(st.player),
            deck.code(st.card),
            sq_or_dash(st.from),
            st.to,
            st.damage,
            name_of(&STRIKE_STAGES, st.stage),
            st.answers,
            st.cancelled as u8,
            card_or_dash(deck, st.answer),
            card_or_dash(deck, st.aid_card),
            st.aid_count,
            match st.spin {
                Some(Spin::Clockwise) => "cw",
                Some(Spin::CounterClockwise) => "ccw",
                None => "-",
            },
            st.ring_pos,
            st.ring_left,
            st.spun as u8
        ),
        Frame::Window { owner, chain, via } => format!("window.{}.{chain}.{}", player_letter(owner), sq_or_dash(via)),
        Frame::FreeOffer { player, from, to } => format!("free.{}.{}.{to}", player_letter(player), sq_or_dash(from)),
    }
}

const TURN_STAGES: [(TurnStage, &str); 9] = [
    (TurnStage::Deal, "deal"),
    (TurnStage::Start, "start"),
    (TurnStage::Headlock, "headlock"),
    (TurnStage::StartRound, "startround"),
    (TurnStage::StartCheck, "startcheck"),
    (TurnStage::Action, "action"),
    (TurnStage::EndRound, "endround"),
    (TurnStage::EndCheck, "endcheck"),
    (TurnStage::Draw, "draw"),
];
const BATTLE_STAGES: [(BattleStage, &str); 4] = [
    (BattleStage::AfterOpening, "after"),
    (BattleStage::GrabTarget, "grabt"),
    (BattleStage::GrabAttacker, "graba"),
    (BattleStage::End, "end"),
];
const ROLES: [(Role, &str); 4] =
    [(Role::Opening, "open"), (Role::Free, "free"), (Role::Grab, "grab"), (Role::Headlock, "headlock")];
const STRIKE_STAGES: [(StrikeStage, &str); 9] = [
    (StrikeStage::Window, "window"),
    (StrikeStage::AfterWindow, "afterwindow"),
    (StrikeStage::Answer, "answer"),
    (StrikeStage::AnswerWindow, "answerwindow"),
    (StrikeStage::Spin, "spin"),
    (StrikeStage::SpinAnswer, "spinanswer"),
    (StrikeStage::LastChance, "lastchance"),
    (StrikeStage::AidWindow, "aidwindow"),
    (StrikeStage::Hit, "hit"),
];

fn name_of<T: PartialEq + Copy>(table: &[(T, &'static str)], value: T) -> &'static str {
    table.iter().find(|(v, _)| *v == value).map_or("?", |(_, n)| n)
}

fn value_of<T: Copy>(table: &[(T, &'static str)], name: &str) -> Option<T> {
    table.iter().find(|(_, n)| *n == name).map(|(v, _)| *v)
}

pub fn stack_text(deck: &Deck, s: &State) -> String {
    s.frames().iter().map(|f| frame_text(deck, f)).collect::<Vec<_>>().join("/")
}

pub fn battle_text(deck: &Deck, s: &State) -> String {
    let Some(b) = s.battle() else { return "-".into() };
    format!(
        "{}.{}.{}.{}.{}.{}.{}.{}",
        player_letter(b.attacker),
        b.a,
        b.t,
        sq_or_dash(b.a_from),
        deck.code(b.card),
        sq_or_dash(b.result),
        b.blocked as u8,
        b.void as u8
    )
}

pub fn holds_text(s: &State) -> String {
    if s.holds().is_empty() {
        return "-".into();
    }
    s.holds()
        .iter()
        .map(|h| {
            let kind = if h.kind == HoldKind::Choke { "choke" } else { "headlock" };
            format!("{kind}.{}.{}", h.holder, h.held)
        })
        .collect::<Vec<_>>()
        .join(",")
}

pub fn limbo_text(deck: &Deck, s: &State) -> String {
    if s.limbo().is_empty() {
        return "-".into();
    }
    s.limbo().iter().map(|&(p, c)| format!("{}.{}", player_letter(p), deck.code(c))).collect::<Vec<_>>().join(",")
}

pub fn result_text(s: &State) -> &'static str {
    match s.result() {
        GameResult::Ongoing => "-",
        GameResult::Won(Player::First) => "white",
        GameResult::Won(Player::Second) => "black",
        GameResult::NoKings => "nokings",
        GameResult::Quiet => "quiet",
        GameResult::TurnLimit => "turnlimit",
    }
}

/// The known cards of both hands: `w.hammer,b.chain,b.block*2` (White's
/// first, each in deck order), or `None` when nothing is known.
fn known_text(deck: &Deck, known: [Pile; 2]) -> Option<String> {
    let items: Vec<String> = Player::BOTH
        .iter()
        .flat_map(|&p| {
            known[p.index()].cards().map(move |(card, n)| {
                let code = deck.code(card);
                if n == 1 {
                    format!("{}.{code}", player_letter(p))
                } else {
                    format!("{}.{code}*{n}", player_letter(p))
                }
            })
        })
        .collect();
    (!items.is_empty()).then(|| items.join(","))
}

/// The full text, or a player's view of it (`viewer`: the other hand and the
/// draw pile become their sizes `#n`). `known`: the cards both players know
/// to be in each hand (public, so in every view too).
pub fn to_text(deck: &Deck, s: &State, known: [Pile; 2], actor: Option<Actor>, viewer: Option<Player>) -> String {
    let hidden = |pile: &Pile| format!("#{}", pile.total());
    let hand = |p: Player| {
        if viewer.is_some_and(|v| v != p) {
            hidden(s.hand(p))
        } else {
            pile_text(deck, s.hand(p))
        }
    };
    let draw = s.pile(Zone::DRAW);
    let fields = [
        board_text(s),
        player_letter(s.side()).to_owned(),
        castling_text(s.castling()),
        hand(Player::First),
        hand(Player::Second),
        if viewer.is_some() { hidden(draw) } else { pile_text(deck, draw) },
        pile_text(deck, s.pile(Zone::DISCARD)),
        limbo_text(deck, s),
        holds_text(s),
        battle_text(deck, s),
        stack_text(deck, s),
        format!("{},{},{}", s.quiet(), s.turns(), s.eventful() as u8),
        result_text(s).to_owned(),
        actor.map_or("-", actor_word).to_owned(),
    ];
    let mut text = fields.join(" ");
    if let Some(known) = known_text(deck, known) {
        text.push(' ');
        text.push_str(&known);
    }
    text
}

fn castling_text(c: u8) -> String {
    let mut out = String::new();
    for (bit, ch) in [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')] {
        if c & bit != 0 {
            out.push(ch);
        }
    }
    if out.is_empty() {
        out.push('-');
    }
    out
}

// ----------------------------------------------------------------------
// Parsing
// ----------------------------------------------------------------------

struct Parser<'a> {
    deck: &'a Deck,
    /// The names of the text's fields (by the version read).
    names: &'static [&'static str],
    /// The field being read, by its index in the text.
    field: usize,
}

impl Parser<'_> {
    fn err(&self, problem: impl Into<String>) -> PositionError {
        PositionError::syntax(format!("field {} ({})", self.field + 1, self.names[self.field]), problem)
    }

    fn card(&self, code: &str) -> Result<Card, PositionError> {
        self.deck.find(code).ok_or_else(|| self.err(format!("unknown card {code:?}")))
    }

    fn card_or_none(&self, code: &str) -> Result<Option<Card>, PositionError> {
        if code == "-" {
            Ok(None)
        } else {
            self.card(code).map(Some)
        }
    }

    fn square(&self, text: &str) -> Result<Square, PositionError> {
        Square::parse(text).ok_or_else(|| self.err(format!("{text:?} is not a square")))
    }

    fn square_or_none(&self, text: &str) -> Result<Option<Square>, PositionError> {
        if text == "-" {
            Ok(None)
        } else {
            self.square(text).map(Some)
        }
    }

    fn player(&self, text: &str) -> Result<Player, PositionError> {
        match text {
            "w" => Ok(Player::First),
            "b" => Ok(Player::Second),
            _ => Err(self.err(format!("{text:?}: expected w or b"))),
        }
    }

    fn number<T: std::str::FromStr>(&self, text: &str, what: &str) -> Result<T, PositionError> {
        text.parse().map_err(|_| self.err(format!("{what} {text:?} is not a valid number")))
    }

    fn flag(&self, text: &str) -> Result<bool, PositionError> {
        match text {
            "0" => Ok(false),
            "1" => Ok(true),
            _ => Err(self.err(format!("{text:?}: expected 0 or 1"))),
        }
    }

    /// A pile: `-`, or comma-separated `code` and `code*n` items (any order,
    /// a code may repeat).
    fn pile(&self, text: &str) -> Result<Pile, PositionError> {
        let mut pile = Pile::EMPTY;
        if text == "-" {
            return Ok(pile);
        }
        for item in text.split(',') {
            let (code, count) = match item.split_once('*') {
                Some((code, n)) => match n.parse::<u8>() {
                    Ok(count) if count >= 1 && n.bytes().all(|b| b.is_ascii_digit()) => (code, count),
                    _ => return Err(self.err(format!("{item:?}: the count after `*` must be a number 1..255"))),
                },
                None => (item, 1),
            };
            let card = self.card(code)?;
            for _ in 0..count {
                if pile.count(card) == u8::MAX {
                    return Err(self.err(format!("too many {code:?} cards")));
                }
                pile.add(card);
            }
        }
        Ok(pile)
    }
}

/// Reads the board field; a Princess needs the `princess` option.
fn parse_board(text: &str, princess: bool, s: &mut State) -> Result<(), PositionError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(PositionError::syntax("field 1 (board)", format!("expected 8 ranks, found {}", ranks.len())));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as i8;
        let location = format!("field 1 (board), rank {}", rank + 1);
        let chars: Vec<char> = rank_text.chars().collect();
        let mut file = 0i8;
        let mut k = 0usize;
        while k < chars.len() {
            let c = chars[k];
            if let Some(d) = c.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(PositionError::syntax(location, format!("bad empty-square count {c:?}")));
                }
                file += d as i8;
                k += 1;
                continue;
            }
            let kind = Kind::from_letter(c)
                .ok_or_else(|| PositionError::syntax(location.clone(), format!("unknown piece letter {c:?}")))?;
            if kind == Kind::Princess && !princess {
                return Err(PositionError::syntax(
                    location,
                    format!("a Princess ({c:?}) needs the variant option `princess`"),
                ));
            }
            let Some(sq) = Square::at(file, rank) else {
                return Err(PositionError::syntax(location, "more than 8 squares"));
            };
            let color = if c.is_ascii_uppercase() { Player::First } else { Player::Second };
            let mut piece = Piece::new(kind, color);
            k += 1;
            if chars.get(k) == Some(&'(') {
                let end = chars[k..]
                    .iter()
                    .position(|&c| c == ')')
                    .ok_or_else(|| PositionError::syntax(location.clone(), "unclosed `(`"))?;
                let number: String = chars[k + 1..k + end].iter().collect();
                piece.hp = number
                    .parse::<i8>()
                    .ok()
                    .filter(|&hp| (1..=99).contains(&hp))
                    .ok_or_else(|| PositionError::syntax(location.clone(), format!("bad hit points {number:?}")))?;
                k += end + 1;
            }
            if chars.get(k) == Some(&'{') {
                let end = chars[k..]
                    .iter()
                    .position(|&c| c == '}')
                    .ok_or_else(|| PositionError::syntax(location.clone(), "unclosed `{`"))?;
                for &f in &chars[k + 1..k + end] {
                    let bit =
                        flag::LETTERS.iter().find(|(_, l)| *l == f).map(|(b, _)| *b).ok_or_else(|| {
                            PositionError::syntax(location.clone(), format!("unknown piece flag {f:?}"))
                        })?;
                    if piece.flags & bit != 0 {
                        return Err(PositionError::syntax(location.clone(), format!("flag {f:?} given twice")));
                    }
                    piece.flags |= bit;
                }
                if end == 1 {
                    return Err(PositionError::syntax(location, "empty flags `{}`"));
                }
                k += end + 1;
            }
            s.set_piece(sq, Some(piece));
            file += 1;
        }
        if file != 8 {
            return Err(PositionError::syntax(location, format!("{file} squares instead of 8")));
        }
    }
    Ok(())
}

fn parse_frame(p: &Parser, text: &str) -> Result<Frame, PositionError> {
    let parts: Vec<&str> = text.split('.').collect();
    let bad = || p.err(format!("unreadable frame {text:?}"));
    Ok(match parts.as_slice() {
        ["turn", stage] => Frame::Turn(value_of(&TURN_STAGES, stage).ok_or_else(bad)?),
        ["round"] => Frame::Round,
        ["battle", stage] => Frame::Battle(value_of(&BATTLE_STAGES, stage).ok_or_else(bad)?),
        ["aid", sq, card, count, opened, cancelled] => Frame::FirstAid {
            square: p.square(sq)?,
            card: p.card(card)?,
            count: p.number(count, "count")?,
            opened: p.flag(opened)?,
            cancelled: p.flag(cancelled)?,
        },
        ["strike", role, player, card, from, to, damage, stage, answers, cancelled, answer, aid_card, aid_count, spin, ring_pos, ring_left, spun] =>
        {
            let ring_pos: u8 = p.number(ring_pos, "ring position")?;
            let ring_left: u8 = p.number(ring_left, "ring squares left")?;
            if ring_pos > 7 || ring_left > 7 {
                return Err(p.err("ring positions are 0..7"));
            }
            Frame::Strike(Strike {
                role: value_of(&ROLES, role).ok_or_else(bad)?,
                player: p.player(player)?,
                card: p.card(card)?,
                from: p.square_or_none(from)?,
                to: p.square(to)?,
                damage: p.number::<i8>(damage, "damage").and_then(|d| {
                    if d >= 0 {
                        Ok(d)
                    } else {
                        Err(p.err("negative damage"))
                    }
                })?,
                stage: value_of(&STRIKE_STAGES, stage).ok_or_else(bad)?,
                answers: p.number(answers, "answers")?,
                cancelled: p.flag(cancelled)?,
                answer: p.card_or_none(answer)?,
                aid_card: p.card_or_none(aid_card)?,
                aid_count: p.number(aid_count, "First Aid count")?,
                spin: match *spin {
                    "cw" => Some(Spin::Clockwise),
                    "ccw" => Some(Spin::CounterClockwise),
                    "-" => None,
                    _ => return Err(bad()),
                },
                ring_pos,
                ring_left,
                spun: p.flag(spun)?,
            })
        }
        ["window", owner, chain, via] => {
            Frame::Window { owner: p.player(owner)?, chain: p.number(chain, "chain")?, via: p.square_or_none(via)? }
        }
        ["free", player, from, to] => {
            Frame::FreeOffer { player: p.player(player)?, from: p.square_or_none(from)?, to: p.square(to)? }
        }
        _ => return Err(bad()),
    })
}

/// What a full-state text says.
pub struct Parsed {
    pub state: State,
    /// Who acts (`None`: nobody, the game is over), checked by the caller
    /// (it depends on the rules).
    pub actor: Option<Actor>,
    /// The cards both players know to be in each hand (White's first).
    pub known: [Pile; 2],
    /// The number of the field that names who acts (from 1), for messages.
    pub actor_field: usize,
}

/// Whether a 15-field text is of the current version with its known cards
/// (its 13th field a result) rather than of the first version (a random
/// state there).
fn has_known_field(fields: &[&str]) -> bool {
    fields.len() == 15 && matches!(fields[12], "-" | "white" | "black" | "nokings" | "quiet" | "turnlimit")
}

/// Reads a full-state text for a variant.
///
/// A text of the first version (15 fields: the draw pile in order, then a
/// random state before the result) is converted: the draw pile's cards are
/// read as a pile, and the random state (16 hex digits) is checked and
/// dropped, since neither is part of the state any more. A text of the
/// current version has 14 fields, or 15 with the known cards last.
pub fn parse(variant: &LunchVariant, text: &str) -> Result<Parsed, PositionError> {
    let deck: &Deck = &variant.deck;
    let mut fields: Vec<&str> = text.split_whitespace().collect();
    let names: &'static [&'static str] = match fields.len() {
        14 => &FIELDS,
        15 if has_known_field(&fields) => &FIELDS_KNOWN,
        15 => &FIELDS_V1,
        n => {
            return Err(PositionError::syntax(
                "position text",
                format!(
                    "expected {} space-separated fields ({}), and optionally a 15th ({KNOWN_FIELD}), found {n}",
                    FIELDS.len(),
                    FIELDS.join(", ")
                ),
            ))
        }
    };
    // The field at `index` of the current version, by its index in the text.
    let first_version = std::ptr::eq(names, &FIELDS_V1[..]);
    let at = |index: usize| if first_version && index >= 12 { index + 1 } else { index };
    let mut p = Parser { deck, names, field: 0 };
    if first_version {
        p.field = 12;
        let random = fields[12];
        let valid = random.len() == 16 && u64::from_str_radix(random, 16).is_ok_and(|r| r != 0);
        if !valid {
            return Err(p.err("expected 16 hex digits, not all zero (a first-version text)"));
        }
        fields.remove(12);
    }
    let mut s = State::empty();
    parse_board(fields[0], variant.options.princess, &mut s)?;
    p.field = 1;
    s.set_side(p.player(fields[1])?);
    p.field = 2;
    let mut castling = 0u8;
    if fields[2] != "-" {
        for c in fields[2].chars() {
            let bit = match c {
                'K' => 1,
                'Q' => 2,
                'k' => 4,
                'q' => 8,
                _ => return Err(p.err(format!("unknown castling right {c:?}"))),
            };
            if castling & bit != 0 {
                return Err(p.err(format!("castling right {c:?} given twice")));
            }
            castling |= bit;
        }
    }
    s.set_castling(castling);
    for (i, zone) in [(3, Zone::hand(Player::First)), (4, Zone::hand(Player::Second)), (5, Zone::DRAW), (6, Zone::DISCARD)]
    {
        p.field = i;
        if fields[i].starts_with('#') {
            return Err(p.err("hidden cards (a view text) cannot be played from; give the cards"));
        }
        s.set_pile(zone, p.pile(fields[i])?);
    }
    p.field = 7;
    if fields[7] != "-" {
        for item in fields[7].split(',') {
            let Some((who, code)) = item.split_once('.') else {
                return Err(p.err(format!("{item:?}: expected w.<card>")));
            };
            let card = p.card(code)?;
            if deck.kind(card) != CardKind::Weapon {
                return Err(p.err(format!("{code:?} is not a weapon")));
            }
            if !s.push_limbo(p.player(who)?, card) {
                return Err(p.err(format!("more than {MAX_LIMBO} weapons")));
            }
        }
    }
    p.field = 8;
    if fields[8] != "-" {
        for item in fields[8].split(',') {
            let parts: Vec<&str> = item.split('.').collect();
            let [kind, holder, held] = parts.as_slice() else {
                return Err(p.err(format!("{item:?}: expected choke.<sq>.<sq> or headlock.<sq>.<sq>")));
            };
            let kind = match *kind {
                "choke" => HoldKind::Choke,
                "headlock" => HoldKind::Headlock,
                _ => return Err(p.err(format!("unknown hold {kind:?}"))),
            };
            let (holder, held) = (p.square(holder)?, p.square(held)?);
            if holder == held || s.piece(holder).is_none() || s.piece(held).is_none() {
                return Err(p.err(format!("hold {item:?} needs two pieces on two squares")));
            }
            if s.in_hold(holder) || s.in_hold(held) {
                return Err(p.err(format!("hold {item:?}: a piece can be in only one hold")));
            }
            if s.holds().len() >= MAX_HOLDS {
                return Err(p.err("too many holds"));
            }
            s.add_hold(Hold { kind, holder, held });
        }
    }
    p.field = 9;
    if fields[9] != "-" {
        let parts: Vec<&str> = fields[9].split('.').collect();
        let [attacker, a, t, a_from, card, result, blocked, void] = parts.as_slice() else {
            return Err(p.err("expected <w|b>.<attacker>.<target>.<from>.<card>.<result>.<blocked>.<void>"));
        };
        s.set_battle(Some(Battle {
            attacker: p.player(attacker)?,
            a: p.square(a)?,
            t: p.square(t)?,
            a_from: p.square_or_none(a_from)?,
            card: p.card(card)?,
            result: p.square_or_none(result)?,
            blocked: p.flag(blocked)?,
            void: p.flag(void)?,
        }));
    }
    p.field = 10;
    let frames: Vec<&str> = fields[10].split('/').collect();
    if frames.len() > MAX_FRAMES {
        return Err(p.err(format!("more than {MAX_FRAMES} frames")));
    }
    for (i, f) in frames.iter().enumerate() {
        let frame = parse_frame(&p, f)?;
        if matches!(frame, Frame::Turn(_)) != (i == 0) {
            return Err(p.err("the stack starts with exactly one turn frame"));
        }
        if i == 0 {
            s.set_top(frame);
        } else {
            s.push(frame);
        }
    }
    let battles = s.frames().iter().filter(|f| matches!(f, Frame::Battle(_))).count();
    let aids = s.frames().iter().filter(|f| matches!(f, Frame::FirstAid { .. })).count();
    if battles + aids > 1 || (battles == 1) != s.battle().is_some() {
        return Err(p.err("a battle frame needs the battle field, and at most one battle or First Aid action"));
    }
    if s.battle().is_some_and(|b| s.piece(b.a).is_none() && s.piece(b.t).is_none()) {
        return Err(p.err("the battle's pieces are missing"));
    }
    if battles + aids > 0 && s.frames()[0] != Frame::Turn(TurnStage::EndRound) {
        return Err(p.err("a battle or First Aid action belongs to the action: the turn frame must be turn.endround"));
    }
    p.field = 11;
    let counters: Vec<&str> = fields[11].split(',').collect();
    let [quiet, turns, eventful] = counters.as_slice() else {
        return Err(p.err("expected <quiet turns>,<turns>,<0|1>"));
    };
    s.set_counters(p.number(quiet, "quiet turns")?, p.number(turns, "turns")?, p.flag(eventful)?);
    p.field = at(12);
    s.set_result(match fields[12] {
        "-" => GameResult::Ongoing,
        "white" => GameResult::Won(Player::First),
        "black" => GameResult::Won(Player::Second),
        "nokings" => GameResult::NoKings,
        "quiet" => GameResult::Quiet,
        "turnlimit" => GameResult::TurnLimit,
        other => return Err(p.err(format!("unknown result {other:?}"))),
    });
    p.field = at(13);
    let actor = match fields[13] {
        "white" => Some(Actor::Player(Player::First)),
        "black" => Some(Actor::Player(Player::Second)),
        "chance" => Some(Actor::Chance),
        "-" => None,
        other => return Err(p.err(format!("{other:?}: expected white, black, chance or -"))),
    };
    let mut known = [Pile::EMPTY; 2];
    if let Some(field) = fields.get(14) {
        p.field = 14;
        for item in field.split(',') {
            let Some((who, cards)) = item.split_once('.') else {
                return Err(p.err(format!("{item:?}: expected w.<card> or b.<card>, optionally *<count>")));
            };
            let player = p.player(who)?;
            let pile = &mut known[player.index()];
            for (card, n) in p.pile(cards)?.cards() {
                for _ in 0..n {
                    pile.add(card);
                }
            }
        }
        for player in Player::BOTH {
            for (card, n) in known[player.index()].cards() {
                if n > s.hand(player).count(card) {
                    let code = deck.code(card);
                    return Err(p.err(format!("{n} {code:?} known in {}'s hand, which holds fewer", player_word(player))));
                }
            }
        }
    }
    // Every card is somewhere, at most as many as the deck has.
    for card in deck.cards() {
        let in_play = s.limbo().iter().filter(|(_, c)| *c == card).count() as u32;
        let piles = [Zone::hand(Player::First), Zone::hand(Player::Second), Zone::DRAW, Zone::DISCARD];
        let total = in_play + piles.iter().map(|&z| u32::from(s.pile(z).count(card))).sum::<u32>();
        let count = deck.card(card).count;
        if total > u32::from(count) {
            let code = deck.code(card);
            return Err(PositionError::invalid(format!("{total} {code:?} cards in the text, but the deck has {count}")));
        }
    }
    Ok(Parsed { state: s, actor, known, actor_field: at(13) + 1 })
}
