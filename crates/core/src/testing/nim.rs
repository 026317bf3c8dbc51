//! A tiny game for testing code that works on any [`Game`]: one pile of
//! stones, each move takes 1, 2 or 3, whoever takes the last stone wins.
//! Positions with a multiple of 4 stones are lost for the player to move.
//! Text: `<stones> <first|second>`; moves: `1`, `2`, `3`.

use crate::{
    Actor, Game, MoveError, OptionInfo, Outcome, Player, PositionError, VariantError, VariantInfo, VariantSpec,
};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nim {
    stones: u32,
    to_move: Player,
    start_stones: u32,
    history: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NimVariant {
    pub stones: u32,
}

impl Game for Nim {
    type Move = u8;
    type Variant = NimVariant;

    const VARIANTS: &'static [VariantInfo] = &[VariantInfo {
        id: "nim",
        name: "Nim",
        summary: "take 1-3 stones; whoever takes the last stone wins (for tests)",
        options: &[OptionInfo { name: "stones", summary: "stones in the pile", value: Some("N") }],
    }];

    fn parse_variant(spec: &VariantSpec) -> Result<NimVariant, VariantError> {
        spec.check_options(&Self::VARIANTS[0])?;
        let stones = match spec.value("stones") {
            Some(v) => v.parse().map_err(|_| spec.bad_option("stones", "must be a number"))?,
            None => 21,
        };
        Ok(NimVariant { stones })
    }

    fn start(variant: &NimVariant, _seed: u64) -> Self {
        Nim { stones: variant.stones, to_move: Player::First, start_stones: variant.stones, history: Vec::new() }
    }

    fn from_text(variant: &NimVariant, text: &str) -> Result<Self, PositionError> {
        let mut fields = text.split(' ');
        let stones = fields
            .next()
            .and_then(|s| s.parse::<u32>().ok())
            .ok_or_else(|| PositionError::syntax("field 1 (stones)", "expected a number"))?;
        let to_move = match fields.next() {
            Some("first") => Player::First,
            Some("second") => Player::Second,
            _ => return Err(PositionError::syntax("field 2 (to move)", "expected `first` or `second`")),
        };
        if fields.next().is_some() {
            return Err(PositionError::syntax("field 3", "unexpected text after the player"));
        }
        let _ = variant;
        Ok(Nim { stones, to_move, start_stones: stones, history: Vec::new() })
    }

    fn to_text(&self) -> String {
        let side = if self.to_move == Player::First { "first" } else { "second" };
        format!("{} {side}", self.stones)
    }

    fn variant(&self) -> &NimVariant {
        // Nim's only parameter is already in the position.
        const DEFAULT: NimVariant = NimVariant { stones: 21 };
        &DEFAULT
    }

    fn to_act(&self) -> Actor {
        Actor::Player(self.to_move)
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.stones == 0).then_some(Outcome::Win { winner: self.to_move.other(), reason: "took the last stone" })
    }

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        moves.clear();
        moves.extend((1..=3u8).filter(|&n| u32::from(n) <= self.stones));
    }

    fn play(&mut self, mv: u8) {
        self.stones -= u32::from(mv);
        self.to_move = self.to_move.other();
        self.history.push(mv);
    }

    fn undo(&mut self) {
        let mv = self.history.pop().expect("a move to undo");
        self.stones += u32::from(mv);
        self.to_move = self.to_move.other();
    }

    fn hash(&self) -> u64 {
        u64::from(self.stones) * 2 + self.to_move.index() as u64
    }

    fn move_text(&self, mv: u8) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        let n: u8 = text.parse().map_err(|_| MoveError::syntax(text, "expected 1, 2 or 3"))?;
        if !(1..=3).contains(&n) || u32::from(n) > self.stones {
            return Err(MoveError::illegal(text, format!("{} stones left", self.stones)));
        }
        Ok(n)
    }

    fn check_invariants(&self) -> Result<(), String> {
        if self.stones > self.start_stones.max(self.stones) {
            return Err("more stones than at the start".into());
        }
        Ok(())
    }
}

/// Nim's board part of the view: the pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct NimBoard {
    pub stones: u32,
}

impl crate::Present for Nim {
    type Board = NimBoard;

    fn board(&self, _viewer: Option<Player>) -> NimBoard {
        NimBoard { stones: self.stones }
    }

    fn render(&self, _viewer: Option<Player>) -> String {
        format!("{} stones\n", self.stones)
    }
}

/// Nim's actions: index `n - 1` takes `n` stones. The observation is the
/// pile and whose turn it is.
impl crate::Encode for Nim {
    fn num_distinct_actions(_variant: &NimVariant) -> usize {
        3
    }
    fn action(&self, mv: u8) -> usize {
        usize::from(mv) - 1
    }
    fn action_text(_variant: &NimVariant, action: usize) -> Option<String> {
        (action < 3).then(|| (action + 1).to_string())
    }
    fn max_game_length(variant: &NimVariant) -> usize {
        variant.stones as usize
    }
    fn observation_shape(_variant: &NimVariant) -> Vec<usize> {
        vec![2]
    }
    fn observe(&self, _viewer: Player, out: &mut [f32]) {
        out[0] = self.stones as f32;
        out[1] = self.to_move.index() as f32;
    }
}

/// Nim's perfect evaluation: a multiple of 4 is lost for the player to move.
impl crate::Evaluate for Nim {
    fn evaluate(&self) -> i32 {
        if self.stones.is_multiple_of(4) {
            -100
        } else {
            100
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{perft, testing};

    #[test]
    fn perft_counts_paths() {
        let mut nim = Nim::from_text(&NimVariant { stones: 4 }, "4 first").unwrap();
        // Compositions of 4 into parts 1..=3 that end exactly at 0: 7.
        assert_eq!(perft::perft(&mut nim, 4), 1);
        assert_eq!(perft::perft(&mut nim, 1), 3);
        let divide = perft::divide(&mut nim, 2);
        assert_eq!(divide, vec![("1".into(), 3), ("2".into(), 2), ("3".into(), 1)]);
    }

    #[test]
    fn generic_properties_hold() {
        let variant = Nim::parse_variant(&VariantSpec::parse("nim:stones=30").unwrap()).unwrap();
        testing::random_play::<Nim>(&variant, testing::Soak::default());
        testing::mutated_texts::<Nim>(&variant, &["30 first", "7 second"], 300, 3);
    }
}
