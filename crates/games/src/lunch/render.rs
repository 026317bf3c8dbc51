//! The terminal drawing, the JSON view for the web page, and a description
//! of the pending decision.

use super::board::{flag, square_name, Kind, NO_SQUARE};
use super::state::{BattleStage, Frame, HoldKind, Role, State, StrikeStage, TurnStage};
use super::text::{self, player_word};
use super::Lunch;
use menagerie_core::{Game, Player};
use serde_json::{json, Value};

/// What the game waits for, in words.
pub fn pending(game: &Lunch, s: &State) -> String {
    if let Some(outcome) = s.outcome() {
        return format!("game over: {outcome}");
    }
    let who = player_word(game.rules().actor(s));
    let deck = game.deck();
    let what = match s.top() {
        Frame::Turn(TurnStage::Headlock) => "Headlock free attacks or pass".to_owned(),
        Frame::Turn(_) => "the action".to_owned(),
        Frame::Round => "a Knight-or-Bishop or promotion choice".to_owned(),
        Frame::Battle(BattleStage::GrabTarget | BattleStage::GrabAttacker) => "a Grab or pass".to_owned(),
        Frame::Battle(_) | Frame::FirstAid { .. } => "the battle".to_owned(),
        Frame::Strike(st) => {
            let card = &deck.card(st.card).name;
            match st.stage {
                StrikeStage::Answer => format!("an answer to {card} on {} or pass", square_name(st.to)),
                StrikeStage::SpinAnswer => {
                    format!("Dodge or Block the spinning {card} on {} or pass", square_name(st.to))
                }
                StrikeStage::LastChance => {
                    format!("last-chance First Aid for {} ({card} deals {}) or pass", square_name(st.to), st.damage)
                }
                _ => card.to_string(),
            }
        }
        Frame::Window { owner, chain, .. } => {
            format!(
                "to Humiliate {}'s card (chain of {chain}) or pass",
                player_word(if chain.is_multiple_of(2) { owner } else { owner.other() })
            )
        }
        Frame::FreeOffer { to, .. } => format!("a free attack on {} or pass", square_name(to)),
    };
    format!("{who} to choose {what}")
}

fn piece_label(s: &State, sq: u8) -> String {
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

pub fn render(game: &Lunch, viewer: Option<Player>) -> String {
    let s = game.state();
    let deck = game.deck();
    let mut out = String::new();
    for rank in (0..8u8).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..8u8 {
            out.push_str(&piece_label(s, rank * 8 + file));
            out.push(' ');
        }
        out.push('\n');
    }
    out.push_str("   a    b    c    d    e    f    g    h\n");
    out.push_str("(piece letter, hit points; ! stunned, * stomped, # in a hold)\n");
    for p in Player::BOTH {
        let hand = if viewer.is_none() || viewer == Some(p) {
            text::cards_text(deck, &s.hands[p.index()])
        } else {
            format!("{} cards", s.hand_size(p))
        };
        out.push_str(&format!("{} hand: {hand}\n", player_word(p)));
    }
    out.push_str(&format!("Draw pile: {} cards; discard pile: {}\n", s.draw_len, text::cards_text(deck, &s.discard)));
    if s.holds_len > 0 {
        out.push_str(&format!("Holds: {}\n", text::holds_text(s)));
    }
    if s.battle.a != NO_SQUARE {
        out.push_str(&format!(
            "Battle: {} {} attacks {} with {}\n",
            player_word(s.battle.attacker),
            square_name(s.battle.a),
            square_name(s.battle.t),
            deck.card(s.battle.card).name
        ));
    }
    out.push_str(&format!("Turn {} ({} to move)\n", s.turns + 1, player_word(s.side)));
    out.push_str(&format!("Pending: {}\n", pending(game, s)));
    out
}

pub fn view_json(game: &Lunch, viewer: Option<Player>) -> Value {
    let s = game.state();
    let deck = game.deck();
    let squares: Vec<Value> = (0..64u8)
        .filter_map(|sq| {
            s.piece(sq).map(|p| {
                let letter = p.kind.letter();
                json!({
                    "square": square_name(sq),
                    "piece": if p.color == Player::First { letter } else { letter.to_ascii_lowercase() }.to_string(),
                    "kind": format!("{:?}", p.kind).to_lowercase(),
                    "color": player_word(p.color),
                    "hp": p.hp,
                    "max_hp": if p.kind == Kind::King { 15 } else { p.kind.value() },
                    "stunned": p.has(flag::STUNNED),
                    "stomped": p.has(flag::STOMPED),
                })
            })
        })
        .collect();
    // `None` is the public view (a spectator's): both hands as counts.
    let hand = |p: Player| -> Value {
        if viewer == Some(p) {
            let mut cards = Vec::new();
            for (i, &n) in s.hands[p.index()].iter().enumerate().take(deck.len()) {
                for _ in 0..n {
                    cards.push(Value::from(deck.card(i as u8).code.clone()));
                }
            }
            Value::Array(cards)
        } else {
            Value::from(s.hand_size(p))
        }
    };
    let discard: Vec<Value> = (0..deck.len())
        .flat_map(|i| std::iter::repeat_n(Value::from(deck.card(i as u8).code.clone()), s.discard[i] as usize))
        .collect();
    let holds: Vec<Value> = s
        .holds()
        .iter()
        .map(|h| {
            json!({
                "kind": if h.kind == HoldKind::Choke { "choke" } else { "headlock" },
                "holder": square_name(h.holder),
                "held": square_name(h.held),
            })
        })
        .collect();
    let battle = if s.battle.a == NO_SQUARE {
        Value::Null
    } else {
        json!({
            "attacker": player_word(s.battle.attacker),
            "a": square_name(s.battle.a),
            "t": square_name(s.battle.t),
            "card": deck.card(s.battle.card).code,
        })
    };
    let strike = s.frames().iter().rev().find_map(|f| match f {
        Frame::Strike(st) => Some(json!({
            "card": deck.card(st.card).code,
            "from": if st.from == NO_SQUARE { Value::Null } else { Value::from(square_name(st.from)) },
            "to": square_name(st.to),
            "damage": st.damage,
            "free": st.role == Role::Free,
        })),
        _ => None,
    });
    json!({
        "squares": squares,
        "side": player_word(s.side),
        "to_act": s.outcome().is_none().then(|| player_word(game.rules().actor(s))),
        "result": s.outcome().map(|o| o.to_string()),
        "hands": { "white": hand(Player::First), "black": hand(Player::Second) },
        "draw_pile": s.draw_len,
        "discard": discard,
        "weapons_in_play": text::limbo_text(deck, s),
        "holds": holds,
        "battle": battle,
        "strike": strike,
        "pending": pending(game, s),
        "text": viewer.map(|p| game.view_text(p)),
    })
}
