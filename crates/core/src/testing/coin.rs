//! A tiny game of chance for testing code that lets chance act: the first
//! player calls heads or tails, then chance tosses a coin that lands heads
//! with the variant's probability (`coin:heads=30`: 30 %); a right call wins
//! for the first player, a wrong one for the second. Calling the likelier
//! side is right, and a driver that tossed a fair coin could not tell.
//! Text: `<call> <toss>`, each `heads`, `tails` or `-`; moves: `heads`, `tails`.

use crate::{
    Actor, Game, MoveError, OptionInfo, Outcome, Player, PositionError, VariantError, VariantInfo, VariantSpec,
};

/// A side of the coin: what the first player calls and what chance tosses.
pub type Side = bool;
pub const HEADS: Side = true;
pub const TAILS: Side = false;

#[derive(Clone, Debug, PartialEq)]
pub struct Coin {
    variant: CoinVariant,
    call: Option<Side>,
    toss: Option<Side>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CoinVariant {
    /// The probability that the coin lands heads.
    pub heads: f64,
}

fn side_text(side: Option<Side>) -> &'static str {
    match side {
        Some(HEADS) => "heads",
        Some(TAILS) => "tails",
        None => "-",
    }
}

fn parse_side(text: &str) -> Option<Option<Side>> {
    match text {
        "heads" => Some(Some(HEADS)),
        "tails" => Some(Some(TAILS)),
        "-" => Some(None),
        _ => None,
    }
}

impl Coin {
    /// The start of a game with a coin that lands heads with probability `heads`.
    pub fn new(heads: f64) -> Coin {
        Coin { variant: CoinVariant { heads }, call: None, toss: None }
    }
}

impl Game for Coin {
    type Move = Side;
    type Variant = CoinVariant;

    const VARIANTS: &'static [VariantInfo] = &[VariantInfo {
        id: "coin",
        name: "Coin",
        summary: "call a biased coin (for tests)",
        options: &[OptionInfo { name: "heads", summary: "percent of tosses that land heads", value: Some("N") }],
    }];

    fn parse_variant(spec: &VariantSpec) -> Result<CoinVariant, VariantError> {
        spec.check_options(&Self::VARIANTS[0])?;
        let percent: u8 = match spec.value("heads") {
            Some(v) => v.parse().ok().filter(|&p| p <= 100).ok_or_else(|| spec.bad_option("heads", "0 to 100"))?,
            None => 50,
        };
        Ok(CoinVariant { heads: f64::from(percent) / 100.0 })
    }

    fn start(variant: &CoinVariant, _seed: u64) -> Self {
        Coin::new(variant.heads)
    }

    fn from_text(variant: &CoinVariant, text: &str) -> Result<Self, PositionError> {
        let fields: Vec<&str> = text.split(' ').collect();
        let [call, toss] = fields.as_slice() else {
            return Err(PositionError::syntax("position text", "expected `<call> <toss>`"));
        };
        let call = parse_side(call).ok_or_else(|| PositionError::syntax("field 1 (call)", "heads, tails or -"))?;
        let toss = parse_side(toss).ok_or_else(|| PositionError::syntax("field 2 (toss)", "heads, tails or -"))?;
        if call.is_none() && toss.is_some() {
            return Err(PositionError::invalid("the coin is tossed after the call"));
        }
        Ok(Coin { variant: variant.clone(), call, toss })
    }

    fn to_text(&self) -> String {
        format!("{} {}", side_text(self.call), side_text(self.toss))
    }

    fn variant(&self) -> &CoinVariant {
        &self.variant
    }

    fn to_act(&self) -> Actor {
        match self.call {
            None => Actor::Player(Player::First),
            Some(_) => Actor::Chance,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let (call, toss) = (self.call?, self.toss?);
        let winner = if call == toss { Player::First } else { Player::Second };
        Some(Outcome::Win { winner, reason: "the toss" })
    }

    fn legal_moves(&self, moves: &mut Vec<Side>) {
        moves.clear();
        if self.toss.is_none() {
            moves.extend([HEADS, TAILS]);
        }
    }

    fn play(&mut self, side: Side) {
        match self.call {
            None => self.call = Some(side),
            Some(_) => self.toss = Some(side),
        }
    }

    fn undo(&mut self) {
        if self.toss.take().is_none() {
            self.call = None;
        }
    }

    fn hash(&self) -> u64 {
        let code = |side: Option<Side>| side.map_or(0, |s| 1 + u64::from(s));
        code(self.call) * 3 + code(self.toss)
    }

    fn move_text(&self, side: Side) -> String {
        side_text(Some(side)).to_owned()
    }

    fn parse_move(&self, text: &str) -> Result<Side, MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        match parse_side(text) {
            Some(Some(side)) => Ok(side),
            _ => Err(MoveError::syntax(text, "expected heads or tails")),
        }
    }

    fn chance_probability(&self, side: Side) -> f64 {
        if side == HEADS {
            self.variant.heads
        } else {
            1.0 - self.variant.heads
        }
    }
}

/// The coin's actions: 0 heads, 1 tails (the call and the toss alike).
/// The observation is the call and the toss, one-hot.
impl crate::Encode for Coin {
    fn has_chance() -> bool {
        true
    }

    fn num_distinct_actions(_variant: &CoinVariant) -> usize {
        2
    }
    fn action(&self, side: Side) -> usize {
        usize::from(side == TAILS)
    }
    fn action_text(_variant: &CoinVariant, action: usize) -> Option<String> {
        [HEADS, TAILS].get(action).map(|&side| side_text(Some(side)).to_owned())
    }
    fn max_game_length(_variant: &CoinVariant) -> usize {
        2
    }
    fn observation_shape(_variant: &CoinVariant) -> Vec<usize> {
        vec![2, 2]
    }
    fn observe(&self, _viewer: Player, out: &mut [f32]) {
        for (row, side) in [self.call, self.toss].into_iter().enumerate() {
            if let Some(side) = side {
                out[row * 2 + usize::from(side == TAILS)] = 1.0;
            }
        }
    }
}

/// The coin's board part of the view: the call and the toss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CoinBoard {
    pub call: &'static str,
    pub toss: &'static str,
}

impl crate::Present for Coin {
    type Board = CoinBoard;

    fn board(&self, _viewer: Option<Player>) -> CoinBoard {
        CoinBoard { call: side_text(self.call), toss: side_text(self.toss) }
    }

    fn render(&self, _viewer: Option<Player>) -> String {
        format!("call {}, toss {}\n", side_text(self.call), side_text(self.toss))
    }
}

impl crate::Evaluate for Coin {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{perft, testing};

    #[test]
    fn a_call_then_a_toss() {
        let mut coin = Coin::new(0.3);
        assert_eq!(coin.to_act(), Actor::Player(Player::First));
        assert_eq!(perft::perft(&mut coin, 2), 4);
        coin.play(TAILS);
        assert_eq!(coin.to_act(), Actor::Chance);
        assert!((coin.chance_probability(TAILS) - 0.7).abs() < 1e-12);
        coin.play(TAILS);
        assert_eq!(coin.outcome().and_then(|o| o.winner()), Some(Player::First));
        assert_eq!(coin.to_text(), "tails tails");
    }

    #[test]
    fn generic_properties_hold() {
        let variant = Coin::parse_variant(&VariantSpec::parse("coin:heads=30").unwrap()).unwrap();
        testing::random_play::<Coin>(&variant, testing::Soak::default());
        testing::mutated_texts::<Coin>(&variant, &["- -", "heads -", "tails heads"], 300, 3);
    }
}
