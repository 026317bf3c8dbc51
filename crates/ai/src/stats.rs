//! Honest intervals for match results: a score (wins + draws/2 over games)
//! with Wilson's 95% interval, which stays inside [0, 1], is never empty at
//! the edges (4 wins of 4 gives [51%, 100%], not [100%, 100%]) and keeps
//! its nominal coverage on small samples where the normal approximation
//! does not. Draws count half: Wilson's binomial variance p(1 - p) bounds
//! the per-game variance of a score with draws from above, so the interval
//! is, if anything, a little wide when games are drawn.

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A proportion (or a score) with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// Wilson's score interval for `successes` (draws may count half) out of
/// `trials`; an empty sample knows nothing: 0.5 in [0, 1].
pub fn wilson(successes: f64, trials: f64) -> Estimate {
    if trials <= 0.0 {
        return Estimate { value: 0.5, low: 0.0, high: 1.0 };
    }
    let p = (successes / trials).clamp(0.0, 1.0);
    let z2 = Z95 * Z95;
    let denominator = 1.0 + z2 / trials;
    let centre = (p + z2 / (2.0 * trials)) / denominator;
    let half = Z95 / denominator * (p * (1.0 - p) / trials + z2 / (4.0 * trials * trials)).sqrt();
    Estimate { value: p, low: (centre - half).max(0.0), high: (centre + half).min(1.0) }
}

/// A match score from one side's wins, draws and losses.
pub fn score(wins: u64, draws: u64, losses: u64) -> Estimate {
    wilson(wins as f64 + 0.5 * draws as f64, (wins + draws + losses) as f64)
}

/// The difference `a - b` of two independent proportions with Newcombe's
/// interval (his method 10: the two Wilson intervals combined), which is
/// honest where the proportions sit near 0 or 1.
pub fn difference(a: Estimate, b: Estimate) -> Estimate {
    let value = a.value - b.value;
    let low = value - ((a.value - a.low).powi(2) + (b.high - b.value).powi(2)).sqrt();
    let high = value + ((a.high - a.value).powi(2) + (b.value - b.low).powi(2)).sqrt();
    Estimate { value, low: low.max(-1.0), high: high.min(1.0) }
}

/// The Elo difference a score means: infinite at 0 and 1 (a score bound of
/// 100% says only that the gap has no upper bound).
pub fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        400.0 * (score / (1.0 - score)).log10()
    }
}

/// An Elo difference for people: `+191`, `-inf`.
pub fn show_elo(value: f64) -> String {
    if value.is_finite() {
        format!("{value:+.0}")
    } else if value > 0.0 {
        "+inf".to_owned()
    } else {
        "-inf".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-4
    }

    #[test]
    fn four_wins_of_four_do_not_prove_a_certain_win() {
        let e = score(4, 0, 0);
        assert_eq!(e.value, 1.0);
        // Wilson's lower bound for 4/4: 1 / (1 + z^2/4) = 0.5101.
        assert!(close(e.low, 0.5101), "{e:?}");
        assert_eq!(e.high, 1.0);
        assert!(elo(e.low).is_finite() && elo(e.low) > 0.0);
        let none = score(0, 0, 4);
        assert!(close(none.high, 1.0 - 0.5101) && none.low == 0.0, "{none:?}");
    }

    #[test]
    fn wilson_matches_published_values() {
        // 81 of 263 (Newcombe 1998, table I): 0.2553 to 0.3662.
        let e = wilson(81.0, 263.0);
        assert!(close(e.low, 0.2553) && close(e.high, 0.3662), "{e:?}");
        // Even scores give symmetric intervals around one half.
        let even = score(10, 4, 10);
        assert!(close(even.value, 0.5) && close(even.high - 0.5, 0.5 - even.low));
        assert_eq!(wilson(0.0, 0.0), Estimate { value: 0.5, low: 0.0, high: 1.0 });
    }

    #[test]
    fn newcombe_difference_matches_his_example() {
        // Newcombe 1998, table II, example (a): 56/70 - 48/80 = 0.2, 95%
        // interval 0.0524 to 0.3339 (method 10).
        let d = difference(wilson(56.0, 70.0), wilson(48.0, 80.0));
        assert!(close(d.value, 0.2) && close(d.low, 0.0524) && close(d.high, 0.3339), "{d:?}");
    }

    #[test]
    fn elo_of_scores() {
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.8).abs() < 0.1);
        assert_eq!(show_elo(elo(1.0)), "+inf");
        assert_eq!(show_elo(elo(0.0)), "-inf");
        assert_eq!(show_elo(elo(0.75)), "+191");
    }
}
