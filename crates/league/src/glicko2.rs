//! Glicko-2 ratings, as Glickman's paper "Example of the Glicko-2 system"
//! (2013) computes them, kept the way lichess keeps them.
//!
//! [`rate_period`] is the paper, steps 1 to 8, for one player and one rating
//! period, the new volatility found by the paper's Illinois iteration (step
//! 5.4). The only generalisation is step 6's number of elapsed rating periods,
//! which the paper fixes at one: `φ* = √(φ² + t·σ'²)`.
//!
//! Lichess rates each game as it ends rather than in batches, and lets time
//! rather than batches widen the deviation: a rating's deviation grows by
//! `√(φ² + t·σ²)` for `t` = 0.21436 rating periods a day since the player's
//! last rated game (fractional periods; lichess chose the rate so that a
//! typical deviation of 60 reaches 110 in a year). [`Rating::after_idle`] is
//! that growth, and [`rate_game`] a lichess game: both players' ratings as
//! they stand at the game, one rating period of one game each with no further
//! step-6 growth (the idle time already paid for it), then lichess's bounds:
//! rating at least 400 and moving at most 700 in a game, deviation between 45
//! and 500, volatility at most 0.1. Lichess also gives the first player a few
//! points of colour advantage in some variants; Menagerie's variants have no
//! measured first-move advantage, so there is none here.
//!
//! Why not a crate: `skillratings` widens the deviation only by whole rating
//! periods and caps it at 350 (lichess starts players at 500), and `glicko2`
//! has neither time nor bounds; lichess's way lies in the parts they leave
//! out, and the paper is a page of arithmetic. `tests/glicko2_reference.py`,
//! written apart from this file, checks it on a few hundred random cases.

use crate::Outcome;

/// Rating points per unit of the Glicko-2 scale (the paper's 173.7178).
pub const GLICKO2_SCALE: f64 = 173.7178;
/// A new player's rating (lichess).
pub const START_RATING: f64 = 1500.0;
/// A new player's deviation (lichess), also the largest a deviation grows to.
pub const START_DEVIATION: f64 = 500.0;
/// A new player's volatility (lichess).
pub const START_VOLATILITY: f64 = 0.09;
/// The system constant τ, which limits how fast volatility changes (lichess).
pub const TAU: f64 = 0.75;
/// Rating periods per day since a player's last rated game (lichess).
pub const RATING_PERIODS_PER_DAY: f64 = 0.21436;
/// The smallest deviation (lichess).
pub const MIN_DEVIATION: f64 = 45.0;
/// The largest deviation (lichess).
pub const MAX_DEVIATION: f64 = START_DEVIATION;
/// The largest volatility: past it a rating may never settle again (lichess).
pub const MAX_VOLATILITY: f64 = 0.1;
/// The lowest rating (lichess).
pub const MIN_RATING: f64 = 400.0;
/// The most a rating moves in one game (lichess).
pub const MAX_RATING_DELTA: f64 = 700.0;
/// A rating is provisional (shown with `?`) while its deviation is at least
/// this (lichess).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// Step 5.4 stops when the bracket on `ln σ'²` is this narrow (the paper's
/// suggestion, and lichess's).
pub const CONVERGENCE_TOLERANCE: f64 = 0.000_001;
/// A bound on step 5.4's iterations, which the Illinois method never reaches
/// on finite input (it converges in a few dozen); it keeps bad input (NaN,
/// infinities) from looping.
const MAX_ITERATIONS: u32 = 1000;
/// How many games a rating's progress looks back over (lichess's `prog`).
pub const PROGRESS_GAMES: usize = 12;

/// A player's Glicko-2 rating on the usual scale (1500 ± deviation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Rating {
    /// Where every player starts, in every variant.
    pub const START: Rating = Rating { rating: START_RATING, deviation: START_DEVIATION, volatility: START_VOLATILITY };

    /// Whether the rating is still provisional: shown with `?`, left off
    /// leaderboards.
    pub fn provisional(&self) -> bool {
        self.deviation >= PROVISIONAL_DEVIATION
    }

    /// The rating as it stands `idle_days` after the player's last rated game:
    /// the deviation grown by that many days' rating periods (step 6 for a
    /// player without games, fractional), within lichess's bounds. Negative
    /// or NaN days count as none.
    pub fn after_idle(self, idle_days: f64) -> Rating {
        let periods = idle_days.max(0.0) * RATING_PERIODS_PER_DAY;
        let phi = self.deviation / GLICKO2_SCALE;
        let grown = GLICKO2_SCALE * (phi * phi + periods * self.volatility * self.volatility).sqrt();
        Rating { deviation: grown, ..self }.bounded()
    }

    /// The rating within lichess's bounds.
    pub fn bounded(self) -> Rating {
        Rating {
            rating: self.rating.max(MIN_RATING),
            deviation: self.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: self.volatility.min(MAX_VOLATILITY),
        }
    }
}

/// One game of a rating period, from the rated player's side: the opponent's
/// rating and the player's score (1 a win, ½ a draw, 0 a loss).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    pub opponent: Rating,
    pub score: f64,
}

/// Steps 1 to 8 of the paper: `player`'s rating after one rating period in
/// which they played `games`, with system constant `tau` and `elapsed_periods`
/// in step 6 (the paper's 1; 0 when the time is already in the deviation, as
/// in [`rate_game`]). No bounds. Without games only step 6 applies.
pub fn rate_period(player: Rating, games: &[Game], tau: f64, elapsed_periods: f64) -> Rating {
    // Step 2: to the Glicko-2 scale.
    let mu = (player.rating - START_RATING) / GLICKO2_SCALE;
    let phi = player.deviation / GLICKO2_SCALE;
    let sigma = player.volatility;
    if games.is_empty() {
        let phi_new = (phi * phi + elapsed_periods * sigma * sigma).sqrt();
        return Rating { deviation: GLICKO2_SCALE * phi_new, ..player };
    }
    // Steps 3 and 4: the estimated variance v and the sum Σ g(φⱼ)(sⱼ − E),
    // of which the improvement Δ is v times.
    let Estimate { v, improvement_sum } = estimate(mu, games);
    let delta = v * improvement_sum;
    // Step 5.
    let sigma_new = new_volatility(phi, sigma, delta, v, tau);
    // Steps 6 and 7.
    let phi_star = (phi * phi + elapsed_periods * sigma_new * sigma_new).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * improvement_sum;
    // Step 8: back to the usual scale.
    Rating { rating: GLICKO2_SCALE * mu_new + START_RATING, deviation: GLICKO2_SCALE * phi_new, volatility: sigma_new }
}

/// One rated game as lichess rates it: `first` and `second` are the two
/// players' stored ratings and the days since each one's last rated game
/// (their own, in this variant), `first_outcome` how the game went for
/// `first`. Returns both new ratings, to be stored with the game's end.
pub fn rate_game(
    first: Rating,
    first_idle_days: f64,
    second: Rating,
    second_idle_days: f64,
    first_outcome: Outcome,
) -> [Rating; 2] {
    let first = first.after_idle(first_idle_days);
    let second = second.after_idle(second_idle_days);
    let one_game = |player: Rating, opponent: Rating, outcome: Outcome| {
        let rated = rate_period(player, &[Game { opponent, score: outcome.score() }], TAU, 0.0);
        let rating = rated.rating.clamp(player.rating - MAX_RATING_DELTA, player.rating + MAX_RATING_DELTA);
        Rating { rating, ..rated }.bounded()
    };
    [one_game(first, second, first_outcome), one_game(second, first, first_outcome.reversed())]
}

/// A rating's progress as lichess shows it (`prog`): the rating after the
/// latest game less the rating after the game [`PROGRESS_GAMES`] − 1 games
/// before it, in whole points. `ratings_after_games` is the rating after each
/// rated game, oldest first; fewer games look back to the first.
pub fn progress(ratings_after_games: &[f64]) -> i32 {
    let recent = &ratings_after_games[ratings_after_games.len().saturating_sub(PROGRESS_GAMES)..];
    match (recent.first(), recent.last()) {
        // Lichess keeps recent ratings as whole points, dropping the fraction.
        (Some(&oldest), Some(&latest)) => latest as i32 - oldest as i32,
        _ => 0,
    }
}

/// Steps 3 and 4's sums over a period's games.
struct Estimate {
    /// The estimated variance of the rating from the game outcomes.
    v: f64,
    /// Σ g(φⱼ)(sⱼ − E(μ, μⱼ, φⱼ)).
    improvement_sum: f64,
}

fn estimate(mu: f64, games: &[Game]) -> Estimate {
    let mut inverse_v = 0.0;
    let mut improvement_sum = 0.0;
    for game in games {
        let mu_j = (game.opponent.rating - START_RATING) / GLICKO2_SCALE;
        let phi_j = game.opponent.deviation / GLICKO2_SCALE;
        let g = g(phi_j);
        let expected = 1.0 / (1.0 + (-g * (mu - mu_j)).exp());
        inverse_v += g * g * expected * (1.0 - expected);
        improvement_sum += g * (game.score - expected);
    }
    Estimate { v: 1.0 / inverse_v, improvement_sum }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// Step 5: the new volatility σ', the root of the paper's f(x) (x = ln σ'²)
/// by the Illinois algorithm. The iteration is part of the definition, not
/// just a way to a root: after an extreme upset f has more than one root
/// between A and B, and the paper's iteration, starting from A = ln σ², finds
/// the one near the old volatility (bisection can find another, thousands).
fn new_volatility(phi: f64, sigma: f64, delta: f64, v: f64, tau: f64) -> f64 {
    // 5.1
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2)) - (x - a) / (tau * tau)
    };
    // 5.2: the initial bracket [A, B].
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        // f(x) grows without bound as x falls, so this ends on finite input.
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < f64::from(MAX_ITERATIONS) {
            k += 1.0;
        }
        a - k * tau
    };
    // 5.3
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    // 5.4
    let mut iterations = 0;
    while (big_b - big_a).abs() > CONVERGENCE_TOLERANCE && iterations < MAX_ITERATIONS {
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
        iterations += 1;
    }
    // 5.5
    (big_a / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, tolerance: f64) -> bool {
        (actual - expected).abs() <= tolerance
    }

    fn rating(rating: f64, deviation: f64, volatility: f64) -> Rating {
        Rating { rating, deviation, volatility }
    }

    fn paper_games() -> [Game; 3] {
        [
            Game { opponent: rating(1400.0, 30.0, 0.06), score: 1.0 },
            Game { opponent: rating(1550.0, 100.0, 0.06), score: 0.0 },
            Game { opponent: rating(1700.0, 300.0, 0.06), score: 0.0 },
        ]
    }

    /// The paper's worked example, step by step. The paper computes from
    /// intermediate values rounded to three or four places (its v = 1.7785 is
    /// 1.77898 unrounded, its 1464.06 is 1464.0507; the reference script
    /// agrees), hence tolerances of a unit in its last places.
    #[test]
    fn the_papers_worked_example() {
        let player = rating(1500.0, 200.0, 0.06);
        let games = paper_games();
        let Estimate { v, improvement_sum } = estimate(0.0, &games);
        assert!(close(v, 1.7785, 0.001), "v = {v}");
        assert!(close(v * improvement_sum, -0.4834, 0.001), "Δ = {}", v * improvement_sum);
        let sigma = new_volatility(200.0 / GLICKO2_SCALE, 0.06, v * improvement_sum, v, 0.5);
        assert!(close(sigma, 0.05999, 0.00001), "σ' = {sigma}");

        let rated = rate_period(player, &games, 0.5, 1.0);
        assert!(close(rated.rating, 1464.06, 0.01), "{rated:?}");
        assert!(close(rated.deviation, 151.52, 0.005), "{rated:?}");
        assert!(close(rated.volatility, 0.05999, 0.00001), "{rated:?}");
        assert!(close((rated.rating - START_RATING) / GLICKO2_SCALE, -0.2069, 0.0001));
        assert!(close(rated.deviation / GLICKO2_SCALE, 0.8722, 0.0001));
    }

    /// A 2891 losing twice and drawing once against players under 650: f
    /// has a second root near x = 22 (σ' in the tens of thousands) that a
    /// root finder other than the paper's can land on.
    #[test]
    fn an_extreme_upset_keeps_the_volatility_near_where_it_was() {
        let player = rating(2891.32, 45.0, 0.071);
        let games = [
            Game { opponent: rating(474.23, 45.0, 0.06), score: 0.0 },
            Game { opponent: rating(413.02, 58.88, 0.06), score: 0.5 },
            Game { opponent: rating(625.73, 120.19, 0.06), score: 0.0 },
        ];
        let rated = rate_period(player, &games, 1.2, 1.0);
        assert!(close(rated.volatility, 0.071, 0.002), "{rated:?}");
        assert!(rated.rating > 2800.0, "a settled rating moves little: {rated:?}");
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation() {
        let player = rating(1500.0, 200.0, 0.06);
        let rated = rate_period(player, &[], 0.5, 1.0);
        let phi = 200.0 / GLICKO2_SCALE;
        assert_eq!(rated.rating, 1500.0);
        assert_eq!(rated.volatility, 0.06);
        assert!(close(rated.deviation, GLICKO2_SCALE * (phi * phi + 0.06 * 0.06).sqrt(), 1e-9));
        assert_eq!(rate_period(player, &[], 0.5, 0.0), player);
    }

    #[test]
    fn new_players_start_at_lichess_values_and_are_provisional() {
        assert_eq!(Rating::START, rating(1500.0, 500.0, 0.09));
        assert!(Rating::START.provisional());
        assert!(rating(1500.0, 110.0, 0.09).provisional());
        assert!(!rating(1500.0, 109.9, 0.09).provisional());
    }

    #[test]
    fn deviation_grows_with_fractional_rating_periods() {
        let settled = rating(1800.0, 60.0, 0.06);
        let phi = 60.0 / GLICKO2_SCALE;
        // Half a day is 0.10718 of a rating period: no rounding to whole periods.
        let half_day = settled.after_idle(0.5);
        let expected = GLICKO2_SCALE * (phi * phi + 0.5 * RATING_PERIODS_PER_DAY * 0.06 * 0.06).sqrt();
        assert!(close(half_day.deviation, expected, 1e-9), "{half_day:?}");
        assert!(half_day.deviation > 60.0);
        assert_eq!((half_day.rating, half_day.volatility), (1800.0, 0.06));
        // Growth is monotone in time and a day is a day however it is cut.
        assert!(settled.after_idle(0.25).deviation < half_day.deviation);
        assert!(close(settled.after_idle(30.0).deviation, settled.after_idle(10.0).after_idle(20.0).deviation, 1e-9));
        // Lichess chose the rate so that 60 becomes provisional in about a year.
        assert!(!settled.after_idle(300.0).provisional());
        assert!(settled.after_idle(366.0).provisional());
        // No time, or a clock gone backwards, changes nothing.
        for no_time in [0.0, -3.0, f64::NAN] {
            let same = settled.after_idle(no_time);
            assert!(close(same.deviation, 60.0, 1e-9), "{no_time} days: {same:?}");
        }
    }

    #[test]
    fn deviation_stays_within_45_and_500() {
        assert_eq!(rating(1500.0, 480.0, 0.09).after_idle(10_000.0).deviation, MAX_DEVIATION);
        assert_eq!(rating(1500.0, 30.0, 0.09).after_idle(0.0).deviation, MIN_DEVIATION);
        // A long run of games against settled opponents would take it below 45.
        let mut player = rating(1500.0, 50.0, 0.03);
        let opponent = rating(1500.0, 45.0, 0.03);
        for _ in 0..50 {
            player = rate_game(player, 0.0, opponent, 0.0, Outcome::Draw)[0];
            assert!(player.deviation >= MIN_DEVIATION);
        }
        assert_eq!(player.deviation, MIN_DEVIATION);
    }

    #[test]
    fn volatility_stays_at_most_0_1() {
        // Upsets against settled opponents push volatility up.
        let mut player = rating(1500.0, 45.0, 0.099);
        let mut rose_past_the_bound = false;
        for round in 0..40 {
            let outcome = if round % 2 == 0 { Outcome::Win } else { Outcome::Loss };
            let opponent = if round % 2 == 0 { rating(2600.0, 45.0, 0.06) } else { rating(600.0, 45.0, 0.06) };
            let unbounded = rate_period(player.after_idle(0.0), &[Game { opponent, score: outcome.score() }], TAU, 0.0);
            rose_past_the_bound |= unbounded.volatility > MAX_VOLATILITY;
            player = rate_game(player, 0.0, opponent, 0.0, outcome)[0];
            assert!(player.volatility <= MAX_VOLATILITY, "{player:?}");
        }
        assert!(rose_past_the_bound, "the test must reach the bound");
        assert_eq!(player.volatility, MAX_VOLATILITY);
    }

    #[test]
    fn rating_stays_at_least_400() {
        let mut player = rating(450.0, 200.0, 0.09);
        for _ in 0..10 {
            player = rate_game(player, 0.0, rating(420.0, 45.0, 0.06), 0.0, Outcome::Loss)[0];
            assert!(player.rating >= MIN_RATING, "{player:?}");
        }
        assert_eq!(player.rating, MIN_RATING);
        // A rating stored below the floor is rated from the floor.
        let [low, _] = rate_game(rating(100.0, 100.0, 0.06), 0.0, Rating::START, 0.0, Outcome::Draw);
        assert!(low.rating >= MIN_RATING);
    }

    #[test]
    fn a_game_moves_a_rating_at_most_700() {
        // A new player beating a settled 2900: unbounded, step 7 would add
        // about φ'²·g·(1 − E) ≈ 1400 points.
        let newcomer = Rating::START;
        let champion = rating(2900.0, 45.0, 0.06);
        let unbounded = rate_period(newcomer, &[Game { opponent: champion, score: 1.0 }], TAU, 0.0);
        assert!(unbounded.rating > START_RATING + MAX_RATING_DELTA, "{unbounded:?}");
        let [newcomer_after, champion_after] = rate_game(newcomer, 0.0, champion, 0.0, Outcome::Win);
        assert_eq!(newcomer_after.rating, START_RATING + MAX_RATING_DELTA);
        assert!(champion_after.rating < 2900.0);
    }

    #[test]
    fn a_game_rates_both_players_from_where_they_stood() {
        let first = rating(1700.0, 80.0, 0.06);
        let second = rating(1650.0, 150.0, 0.07);
        let [a, b] = rate_game(first, 40.0, second, 2.0, Outcome::Loss);
        // Each is one game of a period at the other's rating as it stood
        // after idling, with no further widening.
        let first_then = first.after_idle(40.0);
        let second_then = second.after_idle(2.0);
        assert_eq!(a, rate_period(first_then, &[Game { opponent: second_then, score: 0.0 }], TAU, 0.0).bounded());
        assert_eq!(b, rate_period(second_then, &[Game { opponent: first_then, score: 1.0 }], TAU, 0.0).bounded());
        assert!(a.rating < 1700.0 && b.rating > 1650.0);
        assert!(a.deviation < first_then.deviation && b.deviation < second_then.deviation);
        // A draw between equals moves neither.
        let [c, d] = rate_game(first, 0.0, first, 0.0, Outcome::Draw);
        assert!(close(c.rating, 1700.0, 1e-9) && close(d.rating, 1700.0, 1e-9));
    }

    #[test]
    fn bad_numbers_do_not_hang_or_panic() {
        let nan = rating(f64::NAN, f64::NAN, f64::NAN);
        let _ = rate_game(nan, 0.0, Rating::START, 0.0, Outcome::Win);
        let infinite = rating(f64::INFINITY, 100.0, 0.06);
        let _ = rate_game(infinite, f64::INFINITY, Rating::START, 0.0, Outcome::Loss);
        let _ = rate_period(Rating::START, &[Game { opponent: infinite, score: 1.0 }], TAU, 1.0);
    }

    #[test]
    fn progress_is_the_change_over_the_last_twelve_games() {
        assert_eq!(progress(&[]), 0);
        assert_eq!(progress(&[1500.0]), 0);
        assert_eq!(progress(&[1500.9, 1520.2, 1511.7]), 11);
        // Thirteen games: the first falls out of the window.
        let ratings: Vec<f64> = (0..13).map(|game| 1500.0 + 10.0 * f64::from(game)).collect();
        assert_eq!(progress(&ratings), 110);
        assert_eq!(progress(&[1600.0, 1480.5]), -120);
    }
}
