//! Match arithmetic: a score with a 95% interval, Elo differences, and Elo
//! ratings fitted to a table of results (the ladder).
//!
//! Small and one-sided samples are the rule here (4 wins of 4 is a
//! common first result), where the textbook formulas give intervals of
//! zero width or infinite ratings. Every estimate below therefore counts
//! one virtual draw beside the real games (a pair of players: one virtual
//! draw between them), the weak prior that bayeselo also uses: estimates
//! stay finite and move little once real games are many.

use crate::stats::{wilson, Z95 as Z};

/// Elo points per natural-log unit of odds.
const ELO_PER_NATURAL_UNIT: f64 = 400.0 / std::f64::consts::LN_10;

/// A match score (wins plus half the draws, over the games) with a 95%
/// interval, all as fractions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreInterval {
    /// The score of the real games.
    pub score: f64,
    /// The estimate with the virtual draw (what the Elo figures use).
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
}

impl ScoreInterval {
    /// The Wilson score interval of the games plus one virtual draw. For 4
    /// wins of 4 it is about [46%, 99%]: finite in Elo, and wide, as four
    /// games deserve.
    pub fn new(wins: u32, draws: u32, losses: u32) -> ScoreInterval {
        let games = f64::from(wins + draws + losses);
        let points = f64::from(wins) + 0.5 * f64::from(draws);
        let score = if games > 0.0 { points / games } else { 0.5 };
        let with_virtual_draw = wilson(points + 0.5, games + 1.0);
        ScoreInterval {
            score,
            estimate: with_virtual_draw.value,
            low: with_virtual_draw.low,
            high: with_virtual_draw.high,
        }
    }
}

/// The Elo difference a score means. Scores of exactly 0 or 1 (which the
/// virtual draw never gives) are held a hair inside, so the answer is
/// always finite.
pub fn elo_of_score(score: f64) -> f64 {
    let s = score.clamp(1e-9, 1.0 - 1e-9);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score of a player rated `difference` Elo above the other.
pub fn expected_score(difference: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-difference / 400.0))
}

/// The games two players played against each other, from `a`'s view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairResult {
    pub a: usize,
    pub b: usize,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// A fitted rating with its 95% interval, in Elo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FitError {
    #[error("player {0} never played anyone connected to the anchor: no rating")]
    Disconnected(usize),
    #[error("the anchor {anchor} is not one of the {players} players")]
    NoAnchor { anchor: usize, players: usize },
}

/// Elo ratings of `players` players by maximum likelihood (the
/// Bradley–Terry model on the Elo scale, a draw counted as half a win
/// and half a loss, one virtual draw per pair that met), with `anchor`
/// fixed at 0. The 95% intervals come from the curvature of the
/// likelihood at its peak (the inverse Fisher information), relative to
/// the anchor.
pub fn fit_ratings(players: usize, results: &[PairResult], anchor: usize) -> Result<Vec<Rating>, FitError> {
    if anchor >= players {
        return Err(FitError::NoAnchor { anchor, players });
    }
    // Games and points per ordered pair, the virtual draws included.
    let mut games = vec![vec![0.0f64; players]; players];
    let mut points = vec![vec![0.0f64; players]; players];
    for r in results.iter().filter(|r| r.a != r.b && r.a < players && r.b < players) {
        let n = f64::from(r.wins + r.draws + r.losses);
        let won = f64::from(r.wins) + 0.5 * f64::from(r.draws);
        games[r.a][r.b] += n;
        games[r.b][r.a] += n;
        points[r.a][r.b] += won;
        points[r.b][r.a] += n - won;
    }
    for i in 0..players {
        for j in 0..players {
            if i != j && games[i][j] > 0.0 {
                games[i][j] += 1.0;
                points[i][j] += 0.5;
            }
        }
    }
    let free: Vec<usize> = (0..players).filter(|&i| i != anchor).collect();
    // theta: strengths in natural-log odds units.
    let mut theta = vec![0.0f64; players];
    let mut covariance = Vec::new();
    for _ in 0..100 {
        let (gradient, information) = derivatives(&theta, &games, &points, &free);
        let inverse = invert(&information).ok_or_else(|| disconnected(&games, anchor))?;
        let mut largest = 0.0f64;
        for (row, &i) in free.iter().enumerate() {
            let step: f64 = (0..free.len()).map(|col| inverse[row][col] * gradient[col]).sum();
            // Damped: a step of more than 2 units (870 Elo) at once overshoots.
            let step = step.clamp(-2.0, 2.0);
            theta[i] += step;
            largest = largest.max(step.abs());
        }
        covariance = inverse;
        if largest < 1e-10 {
            break;
        }
    }
    let (_, information) = derivatives(&theta, &games, &points, &free);
    if let Some(inverse) = invert(&information) {
        covariance = inverse;
    }
    let mut ratings = vec![Rating { elo: 0.0, low: 0.0, high: 0.0 }; players];
    for (row, &i) in free.iter().enumerate() {
        let elo = theta[i] * ELO_PER_NATURAL_UNIT;
        let half = Z * covariance[row][row].max(0.0).sqrt() * ELO_PER_NATURAL_UNIT;
        ratings[i] = Rating { elo, low: elo - half, high: elo + half };
    }
    Ok(ratings)
}

/// The log-likelihood's gradient and the Fisher information (minus its
/// Hessian), over the free players.
fn derivatives(theta: &[f64], games: &[Vec<f64>], points: &[Vec<f64>], free: &[usize]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let k = free.len();
    let mut gradient = vec![0.0; k];
    let mut information = vec![vec![0.0; k]; k];
    let position: Vec<Option<usize>> = (0..theta.len()).map(|i| free.iter().position(|&f| f == i)).collect();
    for (row, &i) in free.iter().enumerate() {
        for j in 0..theta.len() {
            if i == j || games[i][j] == 0.0 {
                continue;
            }
            let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp());
            gradient[row] += points[i][j] - games[i][j] * p;
            let w = games[i][j] * p * (1.0 - p);
            information[row][row] += w;
            if let Some(col) = position[j] {
                information[row][col] -= w;
            }
        }
    }
    (gradient, information)
}

/// The first player not linked to the anchor by games.
fn disconnected(games: &[Vec<f64>], anchor: usize) -> FitError {
    let mut reached = vec![false; games.len()];
    let mut stack = vec![anchor];
    reached[anchor] = true;
    while let Some(i) = stack.pop() {
        for j in 0..games.len() {
            if games[i][j] > 0.0 && !reached[j] {
                reached[j] = true;
                stack.push(j);
            }
        }
    }
    FitError::Disconnected(reached.iter().position(|r| !r).unwrap_or(anchor))
}

/// The inverse of a small symmetric positive-definite matrix (Gauss–Jordan
/// with partial pivoting); `None` when it is singular.
fn invert(matrix: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = matrix.len();
    let mut a: Vec<Vec<f64>> = matrix
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut extended = row.clone();
            extended.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            extended
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        let divisor = a[col][col];
        a[col].iter_mut().for_each(|x| *x /= divisor);
        for row in 0..n {
            if row != col {
                let factor = a[row][col];
                if factor != 0.0 {
                    let pivot_row = a[col].clone();
                    a[row].iter_mut().zip(&pivot_row).for_each(|(x, p)| *x -= factor * p);
                }
            }
        }
    }
    Some(a.into_iter().map(|row| row[n..].to_vec()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_wins_of_four_give_a_finite_sensible_interval() {
        let s = ScoreInterval::new(4, 0, 0);
        assert_eq!(s.score, 1.0);
        assert!((s.estimate - 0.9).abs() < 1e-12);
        // Four games cannot rule out equal strength (1 in 16 by luck alone)...
        assert!(s.low > 0.40 && s.low < 0.5, "{s:?}");
        // ...nor an overwhelming edge, but the bound stays below 100%.
        assert!(s.high > 0.97 && s.high < 1.0, "{s:?}");
        let (low, high) = (elo_of_score(s.low), elo_of_score(s.high));
        assert!(low.is_finite() && high.is_finite());
        assert!(low > -100.0 && low < 0.0 && high > 600.0 && high < 1000.0, "[{low}, {high}]");
        let none = ScoreInterval::new(0, 0, 4);
        assert!((none.low + s.high - 1.0).abs() < 1e-12 && (none.high + s.low - 1.0).abs() < 1e-12);
    }

    #[test]
    fn large_samples_approach_the_plain_interval() {
        let s = ScoreInterval::new(600, 200, 200);
        assert!((s.score - 0.7).abs() < 1e-12);
        // The normal approximation: sd of one game's score is about 0.39.
        let plain = Z * (0.7f64 * 0.3 / 1000.0).sqrt();
        assert!((s.high - s.low - 2.0 * plain).abs() < 0.01, "{s:?}");
        assert!((elo_of_score(0.75) - 190.85).abs() < 0.01);
        assert!(elo_of_score(0.5).abs() < 1e-9);
        assert!(elo_of_score(0.0).is_finite() && elo_of_score(1.0).is_finite());
        let empty = ScoreInterval::new(0, 0, 0);
        assert_eq!(empty.score, 0.5);
        assert!(empty.low < 0.5 && empty.high > 0.5);
    }

    #[test]
    fn ratings_of_a_hand_made_table() {
        // 0 is the anchor. 1 scores 75% against 0 over 400 games and 2
        // scores 75% against 1: about +191 and +382.
        let results = [
            PairResult { a: 1, b: 0, wins: 250, draws: 100, losses: 50 },
            PairResult { a: 2, b: 1, wins: 250, draws: 100, losses: 50 },
        ];
        let ratings = fit_ratings(3, &results, 0).unwrap();
        assert_eq!(ratings[0], Rating { elo: 0.0, low: 0.0, high: 0.0 });
        assert!((ratings[1].elo - 190.0).abs() < 3.0, "{ratings:?}");
        assert!((ratings[2].elo - 380.0).abs() < 6.0, "{ratings:?}");
        // 2 is measured only through 1: its interval is wider.
        let width = |r: Rating| r.high - r.low;
        assert!(width(ratings[2]) > width(ratings[1]) * 1.3, "{ratings:?}");
        assert!(ratings[1].low > 150.0 && ratings[1].high < 230.0, "{ratings:?}");
        // The same table from the other side gives the same ratings.
        let flipped: Vec<PairResult> = results
            .iter()
            .map(|r| PairResult { a: r.b, b: r.a, wins: r.losses, draws: r.draws, losses: r.wins })
            .collect();
        let again = fit_ratings(3, &flipped, 0).unwrap();
        for (x, y) in ratings.iter().zip(&again) {
            assert!((x.elo - y.elo).abs() < 1e-6);
        }
    }

    #[test]
    fn a_clean_sweep_stays_finite_and_agrees_with_the_score_interval() {
        let results = [PairResult { a: 1, b: 0, wins: 4, draws: 0, losses: 0 }];
        let ratings = fit_ratings(2, &results, 0).unwrap();
        let r = ratings[1];
        assert!(r.elo.is_finite() && r.low.is_finite() && r.high.is_finite());
        // One virtual draw: 4.5 of 5, the Elo of 90%.
        assert!((r.elo - elo_of_score(0.9)).abs() < 1e-6, "{r:?}");
        assert!(r.low < 0.0 && r.high > 700.0, "{r:?}");
    }

    #[test]
    fn a_player_nobody_met_has_no_rating() {
        let results = [PairResult { a: 1, b: 0, wins: 3, draws: 1, losses: 2 }];
        assert_eq!(fit_ratings(3, &results, 0), Err(FitError::Disconnected(2)));
        assert_eq!(fit_ratings(2, &results, 5), Err(FitError::NoAnchor { anchor: 5, players: 2 }));
    }
}
