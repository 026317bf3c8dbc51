//! Piece values fitted from outcomes: a logistic regression of the first
//! player's result (1, 1/2, 0) on the material difference by kind over
//! positions sampled from the games (Tomašev et al. 2020 fit AlphaZero's
//! games the same way). Positions of one game share its result, so the
//! intervals use the cluster-robust (sandwich) covariance with the game as
//! the cluster: treating them as independent would make them too narrow.
//! A weak ridge penalty keeps the fit finite when a kind's difference (or
//! the side) predicts every result (separation), as in small studies.

use menagerie_ai::stats::Z95;
use serde::Serialize;

/// The ridge penalty (on the intercept too, which diverges when one side
/// won every game).
const RIDGE: f64 = 0.01;
const ITERATIONS: usize = 50;

/// One sampled position.
pub struct Sample<'a> {
    pub cluster: u64,
    pub material: &'a [f64],
    /// The first player's result: 1, 0.5 or 0.
    pub result: f64,
}

/// A fitted coefficient: the change of the first player's log-odds per
/// unit of material difference of that kind.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Coefficient {
    pub name: String,
    pub value: f64,
    pub low: f64,
    pub high: f64,
    /// Positions in which this kind's difference was not zero.
    pub informative_positions: usize,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Fit {
    pub positions: usize,
    pub games: usize,
    /// The first player's log-odds at equal material.
    pub intercept: Coefficient,
    pub kinds: Vec<Coefficient>,
}

/// Fits the model; `None` without samples.
pub fn fit(names: &[String], samples: &[Sample]) -> Option<Fit> {
    if samples.is_empty() || names.is_empty() {
        return None;
    }
    let k = names.len() + 1;
    let row = |s: &Sample| -> Vec<f64> { std::iter::once(1.0).chain(s.material.iter().copied()).collect() };
    let mut beta = vec![0.0; k];
    let mut hessian = vec![vec![0.0; k]; k];
    for _ in 0..ITERATIONS {
        let mut gradient = vec![0.0; k];
        hessian = vec![vec![0.0; k]; k];
        for s in samples {
            let x = row(s);
            let mu = sigmoid(dot(&beta, &x));
            let weight = mu * (1.0 - mu);
            for i in 0..k {
                gradient[i] += (s.result - mu) * x[i];
                for j in 0..k {
                    hessian[i][j] += weight * x[i] * x[j];
                }
            }
        }
        for i in 0..k {
            gradient[i] -= RIDGE * beta[i];
            hessian[i][i] += RIDGE;
        }
        let step = solve(&hessian, &gradient)?;
        let size: f64 = step.iter().map(|v| v.abs()).sum();
        for (b, d) in beta.iter_mut().zip(&step) {
            *b += d;
        }
        if size < 1e-10 {
            break;
        }
    }
    // Sandwich: H^-1 (sum over games of s_g s_g^T) H^-1.
    let inverse = invert(&hessian)?;
    let mut scores: std::collections::BTreeMap<u64, Vec<f64>> = Default::default();
    for s in samples {
        let x = row(s);
        let residual = s.result - sigmoid(dot(&beta, &x));
        let sum = scores.entry(s.cluster).or_insert_with(|| vec![0.0; k]);
        for i in 0..k {
            sum[i] += residual * x[i];
        }
    }
    let mut meat = vec![vec![0.0; k]; k];
    for sum in scores.values() {
        for i in 0..k {
            for j in 0..k {
                meat[i][j] += sum[i] * sum[j];
            }
        }
    }
    let covariance = multiply(&multiply(&inverse, &meat), &inverse);
    let coefficient = |i: usize, name: &str| {
        let se = covariance[i][i].max(0.0).sqrt();
        Coefficient {
            name: name.to_owned(),
            value: beta[i],
            low: beta[i] - Z95 * se,
            high: beta[i] + Z95 * se,
            informative_positions: if i == 0 {
                samples.len()
            } else {
                samples.iter().filter(|s| s.material[i - 1] != 0.0).count()
            },
        }
    };
    Some(Fit {
        positions: samples.len(),
        games: scores.len(),
        intercept: coefficient(0, "first player at equal material"),
        kinds: names.iter().enumerate().map(|(i, name)| coefficient(i + 1, name)).collect(),
    })
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn multiply(a: &[Vec<f64>], b: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = a.len();
    (0..n).map(|i| (0..n).map(|j| (0..n).map(|m| a[i][m] * b[m][j]).sum()).collect()).collect()
}

/// Gauss-Jordan elimination with partial pivoting on a small symmetric
/// system (a dozen unknowns at most).
fn invert(matrix: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = matrix.len();
    let mut a: Vec<Vec<f64>> = matrix
        .iter()
        .enumerate()
        .map(|(i, row)| row.iter().copied().chain((0..n).map(|j| if i == j { 1.0 } else { 0.0 })).collect())
        .collect();
    for column in 0..n {
        let pivot = (column..n).max_by(|&x, &y| a[x][column].abs().total_cmp(&a[y][column].abs()))?;
        if a[pivot][column].abs() < 1e-12 {
            return None;
        }
        a.swap(column, pivot);
        let p = a[column][column];
        a[column].iter_mut().for_each(|v| *v /= p);
        let pivot_row = a[column].clone();
        for (r, row) in a.iter_mut().enumerate() {
            let factor = row[column];
            if r != column && factor != 0.0 {
                for (value, p) in row.iter_mut().zip(&pivot_row) {
                    *value -= factor * p;
                }
            }
        }
    }
    Some(a.into_iter().map(|row| row[n..].to_vec()).collect())
}

fn solve(matrix: &[Vec<f64>], vector: &[f64]) -> Option<Vec<f64>> {
    let inverse = invert(matrix)?;
    Some(inverse.iter().map(|row| dot(row, vector)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_a_known_material_effect() {
        // Outcomes drawn (deterministically) from logit P = 0.2 + 0.8 x.
        let mut samples_data = Vec::new();
        let mut state = 12345u64;
        for game in 0..4000u64 {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let x = ((state >> 33) % 5) as f64 - 2.0;
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let u = (state >> 11) as f64 / (1u64 << 53) as f64;
            let result = if u < sigmoid(0.2 + 0.8 * x) { 1.0 } else { 0.0 };
            samples_data.push((game, vec![x], result));
        }
        let samples: Vec<Sample> =
            samples_data.iter().map(|(g, m, r)| Sample { cluster: *g, material: m, result: *r }).collect();
        let fit = fit(&["pawn".to_owned()], &samples).expect("a fit");
        let pawn = &fit.kinds[0];
        assert!(pawn.low < 0.8 && 0.8 < pawn.high && pawn.high - pawn.low < 0.2, "{pawn:?}");
        assert!(fit.intercept.low < 0.2 && 0.2 < fit.intercept.high, "{:?}", fit.intercept);
    }

    #[test]
    fn inverts_a_small_matrix() {
        let m = vec![vec![4.0, 7.0], vec![2.0, 6.0]];
        let inv = invert(&m).unwrap();
        let id = multiply(&m, &inv);
        assert!((id[0][0] - 1.0).abs() < 1e-12 && id[0][1].abs() < 1e-12 && (id[1][1] - 1.0).abs() < 1e-12);
        assert!(invert(&[vec![1.0, 2.0], vec![2.0, 4.0]]).is_none());
    }
}
