//! Scores as win chances, one scale for every game.
//!
//! A search scores a position in the game's own centi-units, and a
//! centi-unit means something different in each game (a pawn of LMA, a
//! token of Lichen). The tuner fitted each game's `win_scale` `K`
//! ([`menagerie_core::Evaluate::win_scale`]) so that a score `E` predicts
//! the player's expected score as `1 / (1 + 10^(-K·E/400))`. Through it a
//! score becomes a win chance, and one threshold (a puzzle's "clearly
//! better", a review's "Mistake") serves all five games.
//!
//! lichess speaks of *winning chances* from -1 to 1 (`2·expected - 1`) and
//! of *win percent* from 0 to 100 (`100·expected`); its thresholds are
//! written on those scales, and so are they here.

use menagerie_ai::Score;

/// A game's fitted scale `K`: what turns its scores into win chances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WinScale(pub f64);

impl WinScale {
    /// The expected score (0 lost .. 1 won) of the player a score belongs to.
    /// A forced win is 1 and a forced loss 0, whatever their distance.
    pub fn expected(self, score: Score) -> f64 {
        match score {
            Score::Win(_) => 1.0,
            Score::Loss(_) => 0.0,
            Score::Cp(cp) => 1.0 / (1.0 + 10f64.powf(-self.0 * f64::from(cp) / 400.0)),
        }
    }

    /// lichess's winning chances, -1 .. 1.
    pub fn winning_chances(self, score: Score) -> f64 {
        2.0 * self.expected(score) - 1.0
    }

    /// lichess's win percent, 0 .. 100.
    pub fn win_percent(self, score: Score) -> f64 {
        100.0 * self.expected(score)
    }
}

/// A score seen from the other player (a win for one is a loss for the other).
pub fn negate(score: Score) -> Score {
    match score {
        Score::Cp(cp) => Score::Cp(-cp),
        Score::Win(n) => Score::Loss(n),
        Score::Loss(n) => Score::Win(n),
    }
}

/// Orders scores for the player they belong to: a nearer win is better, a
/// farther loss is better.
pub fn rank(score: Score) -> (i32, i64) {
    match score {
        Score::Loss(n) => (0, i64::from(n)),
        Score::Cp(cp) => (1, i64::from(cp)),
        Score::Win(n) => (2, -i64::from(n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_is_half_and_the_scale_sets_the_steepness() {
        let k = WinScale(0.5);
        assert!((k.expected(Score::Cp(0)) - 0.5).abs() < 1e-12);
        // 800 centi-units at K = 0.5 is a factor of 10 in odds.
        assert!((k.expected(Score::Cp(800)) - 10.0 / 11.0).abs() < 1e-12);
        assert!((WinScale(1.0).expected(Score::Cp(400)) - 10.0 / 11.0).abs() < 1e-12);
        assert!((k.winning_chances(Score::Cp(-800)) + 9.0 / 11.0).abs() < 1e-12);
        assert_eq!(k.win_percent(Score::Win(7)), 100.0);
        assert_eq!(k.win_percent(Score::Loss(2)), 0.0);
    }

    #[test]
    fn negation_and_rank_agree() {
        for score in [Score::Cp(-30), Score::Cp(250), Score::Win(3), Score::Loss(4)] {
            assert_eq!(negate(negate(score)), score);
            let k = WinScale(0.3);
            assert!((k.expected(score) + k.expected(negate(score)) - 1.0).abs() < 1e-12);
        }
        assert!(rank(Score::Win(1)) > rank(Score::Win(5)));
        assert!(rank(Score::Win(9)) > rank(Score::Cp(5000)));
        assert!(rank(Score::Loss(9)) > rank(Score::Loss(1)));
        assert!(rank(Score::Cp(-5000)) > rank(Score::Loss(9)));
    }
}
