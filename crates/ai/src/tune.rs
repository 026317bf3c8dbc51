//! Fitting an evaluation's weights to game results (the Texel method):
//! over positions with the result of the game they came from, minimise the
//! mean squared error between the result and a sigmoid of the static
//! evaluation, `1 / (1 + 10^(-K·E/400))`.
//!
//! The evaluation is linear in its weights (`Evaluate::features`), so each
//! position is kept as its sparse feature vector and the error and its
//! gradient are exact and cheap. First the scale `K` is fitted to the
//! starting weights (so that the error measures the weights, not the
//! units), then the weights by gradient descent (Adam), with a light pull
//! towards the starting weights so that a feature the positions hardly
//! show keeps its value.

use menagerie_core::{Evaluate, FeatureVector, WEIGHT_SCALE};

/// One position: its non-zero features and the result for its actor
/// (1 won, 0.5 drawn, 0 lost).
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub features: Vec<(u32, f64)>,
    pub result: f64,
}

impl Sample {
    /// The position's features and the result for the player who acts in it.
    pub fn of<G: Evaluate>(game: &G, result_for_actor: f64) -> Sample {
        let vector = FeatureVector::of(game);
        let features =
            vector.0.iter().enumerate().filter(|(_, &v)| v != 0).map(|(i, &v)| (i as u32, f64::from(v))).collect();
        Sample { features, result: result_for_actor.clamp(0.0, 1.0) }
    }

    fn evaluation(&self, weights: &[f64]) -> f64 {
        self.features.iter().map(|&(i, v)| weights.get(i as usize).copied().unwrap_or(0.0) * v).sum()
    }
}

/// A game's weights in centi-units per unit of feature (as the data files
/// hold them).
pub fn weights_in_centi_units<G: Evaluate>() -> Vec<f64> {
    let weights = G::weights();
    (0..G::FEATURES.len()).map(|i| f64::from(weights.get(i).copied().unwrap_or(0)) / f64::from(WEIGHT_SCALE)).collect()
}

/// How the fit goes: the settings of the descent.
#[derive(Clone, Debug)]
pub struct TuneSettings {
    pub iterations: u32,
    /// The step size, in centi-units.
    pub learning_rate: f64,
    /// Strength of the pull towards the starting weights (per centi-unit
    /// squared, relative to the error).
    pub regularisation: f64,
    /// Fit only these features (indices); the others keep their starting
    /// weights. Empty: fit them all.
    pub only: Vec<usize>,
}

impl Default for TuneSettings {
    fn default() -> Self {
        TuneSettings { iterations: 2000, learning_rate: 1.0, regularisation: 1e-7, only: Vec::new() }
    }
}

/// What a fit found.
#[derive(Clone, Debug)]
pub struct Fit {
    pub scale: f64,
    pub error_before: f64,
    pub error_after: f64,
    pub weights: Vec<f64>,
}

pub struct Tuner {
    samples: Vec<Sample>,
    features: usize,
}

/// The win probability of an evaluation `e` at scale `k`.
#[inline]
fn sigmoid(e: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

impl Tuner {
    pub fn new(samples: Vec<Sample>, features: usize) -> Tuner {
        Tuner { samples, features }
    }

    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// The mean squared error of `weights` at scale `k`.
    pub fn error(&self, weights: &[f64], k: f64) -> f64 {
        if self.samples.is_empty() {
            return 0.0;
        }
        let total: f64 = self
            .samples
            .iter()
            .map(|s| {
                let d = s.result - sigmoid(s.evaluation(weights), k);
                d * d
            })
            .sum();
        total / self.samples.len() as f64
    }

    /// The scale that fits `weights` best (golden-section search on
    /// log K between 1/64 and 64).
    pub fn fit_scale(&self, weights: &[f64]) -> f64 {
        let golden = (5f64.sqrt() - 1.0) / 2.0;
        let (mut lo, mut hi) = ((1.0f64 / 64.0).ln(), 64f64.ln());
        let error = |x: f64| self.error(weights, x.exp());
        let mut a = hi - golden * (hi - lo);
        let mut b = lo + golden * (hi - lo);
        let (mut fa, mut fb) = (error(a), error(b));
        for _ in 0..60 {
            if fa < fb {
                hi = b;
                b = a;
                fb = fa;
                a = hi - golden * (hi - lo);
                fa = error(a);
            } else {
                lo = a;
                a = b;
                fa = fb;
                b = lo + golden * (hi - lo);
                fb = error(b);
            }
        }
        ((lo + hi) / 2.0).exp()
    }

    /// The error's gradient with respect to the weights, at scale `k`.
    fn gradient(&self, weights: &[f64], k: f64) -> Vec<f64> {
        let mut gradient = vec![0.0; self.features];
        let c = k * std::f64::consts::LN_10 / 400.0;
        for s in &self.samples {
            let p = sigmoid(s.evaluation(weights), k);
            // d/dw (r - p)^2 = -2 (r - p) p (1 - p) c f
            let factor = -2.0 * (s.result - p) * p * (1.0 - p) * c;
            for &(i, v) in &s.features {
                if let Some(g) = gradient.get_mut(i as usize) {
                    *g += factor * v;
                }
            }
        }
        let n = self.samples.len().max(1) as f64;
        gradient.iter_mut().for_each(|g| *g /= n);
        gradient
    }

    /// Fits the scale to `initial`, then the weights; `progress` hears the
    /// iteration and the error now and then.
    pub fn tune(&self, initial: &[f64], settings: &TuneSettings, progress: &mut dyn FnMut(u32, f64)) -> Fit {
        let mut weights: Vec<f64> = (0..self.features).map(|i| initial.get(i).copied().unwrap_or(0.0)).collect();
        let scale = self.fit_scale(&weights);
        let error_before = self.error(&weights, scale);
        // Adam: steps of about `learning_rate` centi-units per iteration,
        // whatever the size of each feature's gradient.
        let (beta1, beta2, epsilon) = (0.9, 0.999, 1e-12);
        let mut m = vec![0.0; self.features];
        let mut v = vec![0.0; self.features];
        let mut best = (error_before, weights.clone());
        let free: Vec<bool> =
            (0..self.features).map(|i| settings.only.is_empty() || settings.only.contains(&i)).collect();
        for t in 1..=settings.iterations {
            let mut gradient = self.gradient(&weights, scale);
            for i in (0..self.features).filter(|&i| free[i]) {
                gradient[i] += 2.0 * settings.regularisation * (weights[i] - initial.get(i).copied().unwrap_or(0.0));
                m[i] = beta1 * m[i] + (1.0 - beta1) * gradient[i];
                v[i] = beta2 * v[i] + (1.0 - beta2) * gradient[i] * gradient[i];
                let m_hat = m[i] / (1.0 - beta1.powi(t as i32));
                let v_hat = v[i] / (1.0 - beta2.powi(t as i32));
                weights[i] -= settings.learning_rate * m_hat / (v_hat.sqrt() + epsilon);
            }
            if t % 50 == 0 || t == settings.iterations {
                let error = self.error(&weights, scale);
                progress(t, error);
                if error < best.0 {
                    best = (error, weights.clone());
                }
            }
        }
        let (error_after, weights) = best;
        Fit { scale, error_before, error_after, weights }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(features: &[(u32, f64)], result: f64) -> Sample {
        Sample { features: features.to_vec(), result }
    }

    #[test]
    fn the_fit_lowers_the_error_and_finds_the_weight_that_matters() {
        // Feature 0 (a material edge) decides the games; feature 1 is noise.
        let mut samples = Vec::new();
        for i in 0..200 {
            let edge = f64::from(i % 5) - 2.0;
            let noise = f64::from(i % 3) - 1.0;
            let result = if edge > 0.0 {
                1.0
            } else if edge < 0.0 {
                0.0
            } else {
                0.5
            };
            samples.push(sample(&[(0, edge), (1, noise)], result));
        }
        let tuner = Tuner::new(samples, 2);
        let initial = [10.0, 50.0];
        let fit = tuner.tune(
            &initial,
            &TuneSettings { iterations: 600, learning_rate: 2.0, ..Default::default() },
            &mut |_, _| {},
        );
        assert!(fit.error_after < fit.error_before * 0.5, "{fit:?}");
        assert!(fit.weights[0].abs() > 3.0 * fit.weights[1].abs(), "{fit:?}");
        assert!(fit.weights[0] > 0.0);
    }

    #[test]
    fn a_fit_of_only_some_features_keeps_the_others() {
        // Feature 1 decides the games and feature 0 is noise; only feature 0
        // may move.
        let samples: Vec<Sample> = (0..200)
            .map(|i| {
                let edge = f64::from(i % 5) - 2.0;
                sample(&[(0, f64::from(i % 3) - 1.0), (1, edge)], if edge > 0.0 { 1.0 } else { 0.0 })
            })
            .collect();
        let tuner = Tuner::new(samples, 2);
        let initial = [40.0, 10.0];
        let settings = TuneSettings { iterations: 300, learning_rate: 2.0, only: vec![0], ..Default::default() };
        let fit = tuner.tune(&initial, &settings, &mut |_, _| {});
        assert_eq!(fit.weights[1], 10.0, "{fit:?}");
        assert!(fit.weights[0].abs() < 20.0, "the free weight moved towards 0: {fit:?}");
        assert!(fit.error_after < fit.error_before, "{fit:?}");
    }

    #[test]
    fn the_scale_fits_the_evaluation_units() {
        // Results follow the sigmoid at K = 2 exactly: the fitted K is 2.
        let samples: Vec<Sample> =
            (-20..=20).map(|e| f64::from(e) * 20.0).map(|e| sample(&[(0, e)], sigmoid(e, 2.0))).collect();
        let tuner = Tuner::new(samples, 1);
        let k = tuner.fit_scale(&[1.0]);
        assert!((k - 2.0).abs() < 1e-3, "{k}");
        assert!(tuner.error(&[1.0], k) < 1e-9);
    }
}
