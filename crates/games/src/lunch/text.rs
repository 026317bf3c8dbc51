//! The full-state position text (see README.md for the grammar), and the
//! per-player view text that hides the other hand and the draw pile.

use super::piece::{flag, Kind, Piece};
use super::square::{parse_square, square_name, Square, NO_SQUARE};
use super::deck::{Deck, MAX_CARDS};
use super::position::{
    Battle, BattleStage, Frame, GameResult, Hold, HoldKind, Role, State, Strike, StrikeStage, TurnStage, MAX_FRAMES,
    MAX_HOLDS, MAX_LIMBO, NO_CARD,
};
use super::LunchVariant;
use menagerie_core::{Player, PositionError};

pub const FIELDS: [&str; 15] = [
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

fn sq_or_dash(sq: Square) -> String {
    if sq == NO_SQUARE {
        "-".into()
    } else {
        square_name(sq)
    }
}

fn card_or_dash(deck: &Deck, card: u8) -> String {
    if card == NO_CARD || card as usize >= deck.len() {
        "-".into()
    } else {
        deck.card(card).code.clone()
    }
}

pub fn board_text(s: &State) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match s.board[rank * 8 + file] {
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

pub fn cards_text(deck: &Deck, counts: &[u8]) -> String {
    let mut names = Vec::new();
    for (i, &n) in counts.iter().enumerate().take(deck.len()) {
        for _ in 0..n {
            names.push(deck.card(i as u8).code.as_str());
        }
    }
    if names.is_empty() {
        "-".into()
    } else {
        names.join(",")
    }
}

pub fn draw_text(deck: &Deck, s: &State) -> String {
    if s.draw_len == 0 {
        return "-".into();
    }
    let names: Vec<&str> = s.draw[..s.draw_len as usize].iter().rev().map(|&c| deck.card(c).code.as_str()).collect();
    names.join(",")
}

fn frame_text(deck: &Deck, frame: &Frame) -> String {
    match *frame {
        Frame::Turn(stage) => format!("turn.{}", turn_stage_name(stage)),
        Frame::Round => "round".into(),
        Frame::Battle(stage) => format!("battle.{}", battle_stage_name(stage)),
        Frame::FirstAid { square, card, count, opened, cancelled } => format!(
            "aid.{}.{}.{count}.{}.{}",
            square_name(square),
            card_or_dash(deck, card),
            opened as u8,
            cancelled as u8
        ),
        Frame::Strike(st) => format!(
            "strike.{}.{}.{}.{}.{}.{}.{}.{}.{}.{}.{}.{}.{}.{}.{}.{}",
            role_name(st.role),
            player_letter(st.player),
            card_or_dash(deck, st.card),
            sq_or_dash(st.from),
            sq_or_dash(st.to),
            st.damage,
            strike_stage_name(st.stage),
            st.answers,
            st.cancelled as u8,
            card_or_dash(deck, st.answer),
            card_or_dash(deck, st.aid_card),
            st.aid_count,
            match st.spin {
                1 => "cw",
                -1 => "ccw",
                _ => "-",
            },
            st.ring_pos,
            st.ring_left,
            st.spun as u8
        ),
        Frame::Window { owner, chain, via } => format!("window.{}.{chain}.{}", player_letter(owner), sq_or_dash(via)),
        Frame::FreeOffer { player, from, to } => {
            format!("free.{}.{}.{}", player_letter(player), sq_or_dash(from), sq_or_dash(to))
        }
    }
}

const TURN_STAGES: [(TurnStage, &str); 7] = [
    (TurnStage::Start, "start"),
    (TurnStage::Headlock, "headlock"),
    (TurnStage::StartRound, "startround"),
    (TurnStage::StartCheck, "startcheck"),
    (TurnStage::Action, "action"),
    (TurnStage::EndRound, "endround"),
    (TurnStage::EndCheck, "endcheck"),
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

fn turn_stage_name(s: TurnStage) -> &'static str {
    name_of(&TURN_STAGES, s)
}
fn battle_stage_name(s: BattleStage) -> &'static str {
    name_of(&BATTLE_STAGES, s)
}
fn role_name(r: Role) -> &'static str {
    name_of(&ROLES, r)
}
fn strike_stage_name(s: StrikeStage) -> &'static str {
    name_of(&STRIKE_STAGES, s)
}

pub fn stack_text(deck: &Deck, s: &State) -> String {
    s.frames().iter().map(|f| frame_text(deck, f)).collect::<Vec<_>>().join("/")
}

pub fn battle_text(deck: &Deck, s: &State) -> String {
    let b = s.battle;
    if b.a == NO_SQUARE {
        return "-".into();
    }
    format!(
        "{}.{}.{}.{}.{}.{}.{}.{}",
        player_letter(b.attacker),
        square_name(b.a),
        square_name(b.t),
        sq_or_dash(b.a_from),
        card_or_dash(deck, b.card),
        sq_or_dash(b.result),
        b.blocked as u8,
        b.void as u8
    )
}

pub fn holds_text(s: &State) -> String {
    if s.holds_len == 0 {
        return "-".into();
    }
    s.holds()
        .iter()
        .map(|h| {
            let kind = if h.kind == HoldKind::Choke { "choke" } else { "headlock" };
            format!("{kind}.{}.{}", square_name(h.holder), square_name(h.held))
        })
        .collect::<Vec<_>>()
        .join(",")
}

pub fn limbo_text(deck: &Deck, s: &State) -> String {
    if s.limbo_len == 0 {
        return "-".into();
    }
    s.limbo()
        .iter()
        .map(|&(p, c)| format!("{}.{}", player_letter(p), card_or_dash(deck, c)))
        .collect::<Vec<_>>()
        .join(",")
}

pub fn result_text(s: &State) -> &'static str {
    match s.result {
        GameResult::Ongoing => "-",
        GameResult::Won(Player::First) => "white",
        GameResult::Won(Player::Second) => "black",
        GameResult::NoKings => "nokings",
        GameResult::Quiet => "quiet",
        GameResult::TurnLimit => "turnlimit",
    }
}

/// The full text, or a player's view of it (`viewer`: the other hand and the
/// draw pile become counts `#n`, the random state `?`).
pub fn to_text(deck: &Deck, s: &State, actor: Option<Player>, viewer: Option<Player>) -> String {
    let hand = |p: Player| {
        if viewer.is_some_and(|v| v != p) {
            format!("#{}", s.hand_size(p))
        } else {
            cards_text(deck, &s.hands[p.index()])
        }
    };
    let fields = [
        board_text(s),
        player_letter(s.side).to_owned(),
        castling_text(s.castling),
        hand(Player::First),
        hand(Player::Second),
        if viewer.is_some() { format!("#{}", s.draw_len) } else { draw_text(deck, s) },
        cards_text(deck, &s.discard),
        limbo_text(deck, s),
        holds_text(s),
        battle_text(deck, s),
        stack_text(deck, s),
        format!("{},{},{}", s.quiet, s.turns, s.eventful as u8),
        if viewer.is_some() { "?".into() } else { format!("{:016x}", s.rng) },
        result_text(s).to_owned(),
        actor.map_or("-", player_word).to_owned(),
    ];
    fields.join(" ")
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
    field: usize,
}

impl Parser<'_> {
    fn err(&self, problem: impl Into<String>) -> PositionError {
        PositionError::syntax(format!("field {} ({})", self.field + 1, FIELDS[self.field]), problem)
    }

    fn card(&self, code: &str) -> Result<u8, PositionError> {
        self.deck.find(code).ok_or_else(|| self.err(format!("unknown card {code:?}")))
    }

    fn card_or_none(&self, code: &str) -> Result<u8, PositionError> {
        if code == "-" {
            Ok(NO_CARD)
        } else {
            self.card(code)
        }
    }

    fn square(&self, text: &str) -> Result<Square, PositionError> {
        parse_square(text).ok_or_else(|| self.err(format!("{text:?} is not a square")))
    }

    fn square_or_none(&self, text: &str) -> Result<Square, PositionError> {
        if text == "-" {
            Ok(NO_SQUARE)
        } else {
            self.square(text)
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

    fn cards(&self, text: &str, counts: &mut [u8]) -> Result<(), PositionError> {
        if text == "-" {
            return Ok(());
        }
        for code in text.split(',') {
            let c = self.card(code)?;
            counts[c as usize] = counts[c as usize].saturating_add(1);
        }
        Ok(())
    }
}

/// Reads the board field; a Princess needs the `princess` option.
fn parse_board(text: &str, princess: bool, s: &mut State) -> Result<(), PositionError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(PositionError::syntax("field 1 (board)", format!("expected 8 ranks, found {}", ranks.len())));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i;
        let location = format!("field 1 (board), rank {}", rank + 1);
        let chars: Vec<char> = rank_text.chars().collect();
        let mut file = 0usize;
        let mut k = 0usize;
        while k < chars.len() {
            let c = chars[k];
            if let Some(d) = c.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(PositionError::syntax(location, format!("bad empty-square count {c:?}")));
                }
                file += d as usize;
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
            if file >= 8 {
                return Err(PositionError::syntax(location, "more than 8 squares"));
            }
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
            s.board[rank * 8 + file] = Some(piece);
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
                    "cw" => 1,
                    "ccw" => -1,
                    "-" => 0,
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

/// Reads a full-state text for a variant. The actor field is checked by the
/// caller (it depends on the rules).
pub fn parse(variant: &LunchVariant, text: &str) -> Result<(State, Option<Player>), PositionError> {
    let deck: &Deck = &variant.deck;
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != FIELDS.len() {
        return Err(PositionError::syntax(
            "position text",
            format!("expected {} space-separated fields ({}), found {}", FIELDS.len(), FIELDS.join(", "), fields.len()),
        ));
    }
    let mut s = State::empty();
    parse_board(fields[0], variant.options.princess, &mut s)?;
    let mut p = Parser { deck, field: 1 };
    s.side = p.player(fields[1])?;
    p.field = 2;
    if fields[2] != "-" {
        for c in fields[2].chars() {
            let bit = match c {
                'K' => 1,
                'Q' => 2,
                'k' => 4,
                'q' => 8,
                _ => return Err(p.err(format!("unknown castling right {c:?}"))),
            };
            if s.castling & bit != 0 {
                return Err(p.err(format!("castling right {c:?} given twice")));
            }
            s.castling |= bit;
        }
    }
    for (i, player) in [(3, Player::First), (4, Player::Second)] {
        p.field = i;
        if fields[i].starts_with('#') {
            return Err(p.err("a hidden hand (a view text) cannot be played from; give the cards"));
        }
        let mut counts = [0u8; super::deck::MAX_TYPES];
        p.cards(fields[i], &mut counts)?;
        s.hands[player.index()] = counts;
    }
    p.field = 5;
    if fields[5] != "-" {
        let codes: Vec<&str> = fields[5].split(',').collect();
        if codes.len() > MAX_CARDS {
            return Err(p.err(format!("more than {MAX_CARDS} cards")));
        }
        for (i, code) in codes.iter().rev().enumerate() {
            s.draw[i] = p.card(code)?;
        }
        s.draw_len = codes.len() as u8;
    }
    p.field = 6;
    p.cards(fields[6], &mut s.discard)?;
    p.field = 7;
    if fields[7] != "-" {
        for item in fields[7].split(',') {
            let Some((who, code)) = item.split_once('.') else {
                return Err(p.err(format!("{item:?}: expected w.<card>")));
            };
            if s.limbo_len as usize >= MAX_LIMBO {
                return Err(p.err(format!("more than {MAX_LIMBO} weapons")));
            }
            let card = p.card(code)?;
            if deck.kind(card) != super::deck::CardKind::Weapon {
                return Err(p.err(format!("{code:?} is not a weapon")));
            }
            s.limbo[s.limbo_len as usize] = (p.player(who)?, card);
            s.limbo_len += 1;
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
            if s.holds_len as usize >= MAX_HOLDS {
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
        s.battle = Battle {
            attacker: p.player(attacker)?,
            a: p.square(a)?,
            t: p.square(t)?,
            a_from: p.square_or_none(a_from)?,
            card: p.card(card)?,
            result: p.square_or_none(result)?,
            blocked: p.flag(blocked)?,
            void: p.flag(void)?,
        };
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
        s.stack[i] = frame;
    }
    s.stack_len = frames.len() as u8;
    let battles = s.frames().iter().filter(|f| matches!(f, Frame::Battle(_))).count();
    let aids = s.frames().iter().filter(|f| matches!(f, Frame::FirstAid { .. })).count();
    if battles + aids > 1 || (battles == 1) != (s.battle.a != NO_SQUARE) {
        return Err(p.err("a battle frame needs the battle field, and at most one battle or First Aid action"));
    }
    if battles == 1 && (s.piece(s.battle.a).is_none() && s.piece(s.battle.t).is_none()) {
        return Err(p.err("the battle's pieces are missing"));
    }
    if battles + aids > 0 && s.stack[0] != Frame::Turn(TurnStage::EndRound) {
        return Err(p.err("a battle or First Aid action belongs to the action: the turn frame must be turn.endround"));
    }
    p.field = 11;
    let counters: Vec<&str> = fields[11].split(',').collect();
    let [quiet, turns, eventful] = counters.as_slice() else {
        return Err(p.err("expected <quiet turns>,<turns>,<0|1>"));
    };
    s.quiet = p.number(quiet, "quiet turns")?;
    s.turns = p.number(turns, "turns")?;
    s.eventful = p.flag(eventful)?;
    p.field = 12;
    s.rng = u64::from_str_radix(fields[12], 16).map_err(|_| p.err("expected 16 hex digits"))?;
    if s.rng == 0 || fields[12].len() != 16 {
        return Err(p.err("expected 16 hex digits, not all zero"));
    }
    p.field = 13;
    s.result = match fields[13] {
        "-" => GameResult::Ongoing,
        "white" => GameResult::Won(Player::First),
        "black" => GameResult::Won(Player::Second),
        "nokings" => GameResult::NoKings,
        "quiet" => GameResult::Quiet,
        "turnlimit" => GameResult::TurnLimit,
        other => return Err(p.err(format!("unknown result {other:?}"))),
    };
    p.field = 14;
    let actor = match fields[14] {
        "white" => Some(Player::First),
        "black" => Some(Player::Second),
        "-" => None,
        other => return Err(p.err(format!("{other:?}: expected white, black or -"))),
    };
    // Every card is somewhere, at most as many as the deck has.
    for (i, t) in deck.types.iter().enumerate() {
        let in_play = s.limbo().iter().filter(|(_, c)| *c as usize == i).count() as u32;
        let in_draw = s.draw[..s.draw_len as usize].iter().filter(|&&c| c as usize == i).count() as u32;
        let total = s.hands[0][i] as u32 + s.hands[1][i] as u32 + s.discard[i] as u32 + in_play + in_draw;
        if total > t.count as u32 {
            return Err(PositionError::invalid(format!(
                "{} {:?} cards in the text, but the deck has {}",
                total, t.code, t.count
            )));
        }
    }
    Ok((s, actor))
}
