//! What people see: the terminal drawing, the board part of the view, and
//! a description of the pending decision.

use super::deck::{Card, CardKind};
use super::frame::{BattleStage, Frame, HoldKind, Role, StrikeStage, TurnStage};
use super::moves::Move;
use super::piece::{flag, Kind};
use super::position::{State, Zone};
use super::rules::Rules;
use super::square::Square;
use super::text::{self, actor_word, player_word};
use super::Lunch;
use menagerie_core::{Counters, Player, Present};
use serde::Serialize;

/// What the game waits for, in plain words (`black may answer Kick on a5
/// with a card, or take the hit`): the page shows it above the choices.
pub fn pending(game: &Lunch, s: &State) -> String {
    if let Some(outcome) = s.outcome() {
        return format!("game over: {outcome}");
    }
    let who = actor_word(game.rules().actor(s));
    let deck = game.deck();
    match s.top() {
        Frame::Turn(TurnStage::Deal | TurnStage::Draw) => {
            let drawer = Rules::drawer(s).map_or("nobody", player_word);
            format!("chance to draw a card for {drawer}")
        }
        Frame::Turn(TurnStage::Headlock) => format!("{who} may make Headlock free attacks, or stop"),
        Frame::Turn(_) => format!("{who} to choose the action"),
        Frame::Round => format!("{who} to choose what a piece becomes (Knight or Bishop, or a promotion)"),
        Frame::Battle(BattleStage::GrabTarget | BattleStage::GrabAttacker) => format!("{who} may Grab, or not"),
        Frame::Battle(_) | Frame::FirstAid { .. } => format!("{who} to go on with the battle"),
        Frame::Strike(st) => {
            let card = &deck.card(st.card).name;
            match st.stage {
                StrikeStage::Answer => format!("{who} may answer {card} on {} with a card, or take the hit", st.to),
                StrikeStage::SpinAnswer => {
                    format!("{who} may Dodge or Block the spinning {card} on {}, or take the hit", st.to)
                }
                StrikeStage::LastChance => {
                    format!("{who} may save {} with First Aid ({card} deals {}), or not", st.to, st.damage)
                }
                _ => format!("{who} to go on with {card}"),
            }
        }
        Frame::Window { owner, chain: 0, .. } => {
            format!("{who} may Humiliate {}'s card, or let it stand", player_word(owner))
        }
        Frame::Window { .. } => format!("{who} may Humiliate the Humiliation back, or let it stand"),
        Frame::FreeOffer { to, .. } => format!("{who} may make a free attack on {to}, or not"),
    }
}

/// What passing declines now, in plain words: a move list's label of `pass`.
fn pass_label(s: &State) -> &'static str {
    match s.top() {
        Frame::Window { chain: 0, .. } => "no Humiliation",
        Frame::Window { .. } => "no Humiliation back",
        Frame::Strike(st) => match st.stage {
            StrikeStage::Answer | StrikeStage::SpinAnswer => "no answer",
            StrikeStage::LastChance => "no First Aid",
            _ => "pass",
        },
        Frame::Battle(BattleStage::GrabTarget | BattleStage::GrabAttacker) => "no Grab",
        Frame::FreeOffer { .. } => "no free attack",
        Frame::Turn(TurnStage::Headlock) => "no more Headlock attacks",
        Frame::Turn(_) => "no action possible",
        _ => "pass",
    }
}

fn piece_label(s: &State, sq: Square) -> String {
    match s.piece(sq) {
        None => " .  ".to_owned(),
        Some(p) => {
            let letter = p.kind.letter();
            let letter = if p.color == Player::First { letter } else { letter.to_ascii_lowercase() };
            let mark = if p.has(flag::STUNNED) {
                '!'
            } else if p.has(flag::STOMPED) {
                '*'
            } else if s.in_hold(sq) {
                '#'
            } else {
                ' '
            };
            format!("{letter}{:<2}{mark}", p.hp)
        }
    }
}

fn render(game: &Lunch, viewer: Option<Player>) -> String {
    let s = game.state();
    let deck = game.deck();
    let mut out = String::new();
    for rank in (0..8u8).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..8u8 {
            out.push_str(&piece_label(s, Square::new(rank * 8 + file)));
            out.push(' ');
        }
        out.push('\n');
    }
    out.push_str("   a    b    c    d    e    f    g    h\n");
    out.push_str("(piece letter, hit points; ! stunned, * stomped, # in a hold)\n");
    for p in Player::BOTH {
        let hand = if viewer.is_none() || viewer == Some(p) {
            text::pile_text(deck, s.hand(p))
        } else {
            format!("{} cards", s.hand_size(p))
        };
        out.push_str(&format!("{} hand: {hand}\n", player_word(p)));
    }
    out.push_str(&format!(
        "Draw pile: {} cards; discard pile: {}\n",
        s.pile(Zone::DRAW).total(),
        text::pile_text(deck, s.pile(Zone::DISCARD))
    ));
    if !s.holds().is_empty() {
        out.push_str(&format!("Holds: {}\n", text::holds_text(s)));
    }
    if let Some(b) = s.battle() {
        out.push_str(&format!(
            "Battle: {} {} attacks {} with {}\n",
            player_word(b.attacker),
            b.a,
            b.t,
            deck.card(b.card).name
        ));
    }
    out.push_str(&format!("Turn {} ({} to move)\n", s.turns() + 1, player_word(s.side())));
    out.push_str(&format!("Pending: {}\n", pending(game, s)));
    out
}

/// The board part of Lunch Chess's view, as one viewer may see it.
///
/// ```json
/// { "squares": [{"square": "e1", "piece": "K", "kind": "king", "colour": "white", "hp": 15,
///                "max_hp": 15, "stunned": false, "stomped": false}],
///   "on_turn": "white",
///   "hands": {"white": ["jab", ...] | 5, "black": ... (a count when hidden:
///             the other player's hand, and both in the public view)},
///   "draw_pile": 92, "discard": ["jab"], "weapons_in_play": "w.hammer" | "-",
///   "holds": [{"kind": "choke", "holder": "e4", "held": "e5"}],
///   "battle": null | {"attacker": "white", "a": "d4", "t": "d5", "card": "kick"},
///   "strike": null | {"card": "kick", "from": "d4" | null, "to": "d5", "damage": 3, "free": false},
///   "pending": "white to choose the action", "pass": "no action possible",
///   "deck": [{"code": "kick", "name": "Kick", "kind": "attack", "damage": 4, "heal": null,
///             "spinning": false, "breaks_choke": false, "headlock_free": false}, ...] }
/// ```
///
/// `deck` lists every card type of the game's deck (the standard one or a
/// `deck=FILE`), so that a page can explain the codes it shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LunchBoard {
    /// Occupied squares, a1 to h8.
    pub squares: Vec<PieceView>,
    /// Whose turn it is (who acts may be the other player, answering).
    pub on_turn: &'static str,
    pub hands: Hands,
    /// Cards in the draw pile (never which: that would tell the other hand).
    pub draw_pile: u32,
    /// The discard pile's cards, in deck order.
    pub discard: Vec<String>,
    /// As in the position text.
    pub weapons_in_play: String,
    pub holds: Vec<HoldView>,
    pub battle: Option<BattleView>,
    /// The innermost strike being resolved.
    pub strike: Option<StrikeView>,
    /// What the game waits for, in words.
    pub pending: String,
    /// What a `pass` would decline now, in words (`no answer`): its label.
    pub pass: &'static str,
    /// The card types of this game's deck, in deck order.
    pub deck: Vec<CardView>,
}

/// One card type: what a page needs to explain a card code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CardView {
    pub code: String,
    pub name: String,
    /// The kind as in deck files (`attack`, `weapon`, `first_aid`...).
    pub kind: &'static str,
    /// Damage, for the kinds that hit.
    pub damage: Option<i8>,
    /// Healing, for First Aid.
    pub heal: Option<i8>,
    pub spinning: bool,
    pub breaks_choke: bool,
    pub headlock_free: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PieceView {
    pub square: String,
    /// The letter, White upper case.
    pub piece: char,
    pub kind: String,
    pub colour: &'static str,
    pub hp: i8,
    pub max_hp: i8,
    pub stunned: bool,
    pub stomped: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hands {
    pub white: Hand,
    pub black: Hand,
}

/// A hand: its cards' codes when the viewer may see them, else their number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Hand {
    Cards(Vec<String>),
    Hidden(u32),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HoldView {
    pub kind: &'static str,
    pub holder: String,
    pub held: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BattleView {
    pub attacker: &'static str,
    /// The attacker's square.
    pub a: String,
    /// The target's square.
    pub t: String,
    pub card: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StrikeView {
    pub card: String,
    pub from: Option<String>,
    pub to: String,
    pub damage: i8,
    pub free: bool,
}

impl Present for Lunch {
    type Board = LunchBoard;

    fn board(&self, viewer: Option<Player>) -> LunchBoard {
        let s = self.state();
        let deck = self.deck();
        let squares = s
            .board()
            .pieces()
            .map(|(sq, p)| {
                let letter = p.kind.letter();
                PieceView {
                    square: sq.to_string(),
                    piece: if p.color == Player::First { letter } else { letter.to_ascii_lowercase() },
                    kind: format!("{:?}", p.kind).to_lowercase(),
                    colour: player_word(p.color),
                    hp: p.hp,
                    max_hp: if p.kind == Kind::King { 15 } else { p.kind.value() },
                    stunned: p.has(flag::STUNNED),
                    stomped: p.has(flag::STOMPED),
                }
            })
            .collect();
        // `None` is the public view (a spectator's): both hands as counts.
        let hand = |p: Player| {
            if viewer == Some(p) {
                Hand::Cards(text::pile_codes(deck, s.hand(p)))
            } else {
                Hand::Hidden(s.hand_size(p))
            }
        };
        let holds = s
            .holds()
            .iter()
            .map(|h| HoldView {
                kind: if h.kind == HoldKind::Choke { "choke" } else { "headlock" },
                holder: h.holder.to_string(),
                held: h.held.to_string(),
            })
            .collect();
        let battle = s.battle().map(|b| BattleView {
            attacker: player_word(b.attacker),
            a: b.a.to_string(),
            t: b.t.to_string(),
            card: deck.code(b.card).to_owned(),
        });
        let strike = s.frames().iter().rev().find_map(|f| match f {
            Frame::Strike(st) => Some(StrikeView {
                card: deck.code(st.card).to_owned(),
                from: st.from.map(|sq| sq.to_string()),
                to: st.to.to_string(),
                damage: st.damage,
                free: st.role == Role::Free,
            }),
            _ => None,
        });
        LunchBoard {
            squares,
            on_turn: player_word(s.side()),
            hands: Hands { white: hand(Player::First), black: hand(Player::Second) },
            draw_pile: s.pile(Zone::DRAW).total(),
            discard: text::pile_codes(deck, s.pile(Zone::DISCARD)),
            weapons_in_play: text::limbo_text(deck, s),
            holds,
            battle,
            strike,
            pending: pending(self, s),
            pass: pass_label(s),
            deck: deck
                .types
                .iter()
                .map(|card| CardView {
                    code: card.code.clone(),
                    name: card.name.clone(),
                    kind: card.kind.name(),
                    damage: card.kind.is_opening().then_some(card.damage),
                    heal: (card.kind == CardKind::FirstAid).then_some(card.heal),
                    spinning: card.spinning,
                    breaks_choke: card.breaks_choke,
                    headlock_free: card.headlock_free,
                })
                .collect(),
        }
    }

    /// Chess-like for movements (`Nf3`, a Pawn `e4`, castling `O-O`),
    /// the attacker's letter, `x`, the target and the card for an attack
    /// (`Rxa5 Kick`); the card for answers and Humiliations; the cards
    /// of a discard, First Aid, a free attack, a Grab, a break; `e4=B`
    /// for a choice or a promotion; for `pass`, what it declines (`no
    /// answer`, `no Humiliation`); the card chance draws.
    fn move_label(&self, mv: Move) -> String {
        let s = self.state();
        let deck = self.deck();
        let name = |card: Card| deck.card(card).name.clone();
        let letter = |square| s.piece(square).map(|p| p.kind.letter()).filter(|&l| l != 'P');
        match mv {
            Move::Step { from, to } => {
                let king = s.piece(from).is_some_and(|p| p.kind == Kind::King);
                let (df, dr) = (to.file() - from.file(), to.rank() - from.rank());
                if king && dr == 0 && df.abs() == 2 {
                    return (if df > 0 { "O-O" } else { "O-O-O" }).to_owned();
                }
                format!("{}{to}", letter(from).map(String::from).unwrap_or_default())
            }
            Move::Attack { from, to, card, .. } => format!("{}x{to} {}", letter(from).unwrap_or('P'), name(card)),
            // Every card named, however many: a discard is public, and a
            // count would read differently from the page's own wording.
            Move::Discard(discard) => {
                let names: Vec<String> = discard.cards().iter().map(|&c| name(c)).collect();
                format!("discard {}", names.join(", "))
            }
            Move::Aid { square, card, count } if count > 1 => format!("{} ×{count} {square}", name(card)),
            Move::Aid { square, card, .. } => format!("{} {square}", name(card)),
            Move::Break { square, card } => format!("{} frees {square}", name(card)),
            Move::Humiliate { card, via: None } => name(card),
            Move::Humiliate { card, via: Some(via) } => format!("{} by {via}", name(card)),
            Move::Answer { card } => name(card),
            Move::Free { to, card } => format!("free {} on {to}", name(card)),
            Move::Grab { grab, with } => format!("{} + {}", name(grab), name(with)),
            Move::Choose { square, kind } => format!("{square}={}", kind.letter()),
            Move::Draw { card } => format!("draws {}", name(card)),
            Move::Pass => pass_label(s).to_owned(),
        }
    }

    /// The player whose turn it is: an answer, a Humiliation or a last
    /// chance by the other side belongs to this turn.
    fn on_turn(&self) -> Option<Player> {
        let s = self.state();
        (s.outcome().is_none()).then_some(s.side())
    }

    fn counters(&self) -> Counters {
        let s = self.state();
        Counters { turn: Some(u32::from(s.turns()) + 1), quiet_turns: Some(s.quiet().into()), ..Counters::default() }
    }

    fn render(&self, viewer: Option<Player>) -> String {
        render(self, viewer)
    }
}
