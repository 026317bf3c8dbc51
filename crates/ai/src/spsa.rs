//! Tuning weights by play (SPSA: simultaneous perturbation stochastic
//! approximation, as chess engines' testing frameworks do it): each step
//! nudges every weight at once up or down by a random sign, plays the
//! weights nudged one way against the same weights nudged the other way,
//! and moves the weights towards the side that scored better.
//!
//! A fit to game results (the Texel method in [`crate::tune`]) lowers the
//! error of a prediction, which is not always the same as playing better:
//! in Lichen, fits with a clearly smaller error played worse. SPSA asks
//! only what wins. It needs many games, each of which says little, so
//! the steps are small and shrink slowly.
//!
//! The schedule is the usual one (Spall): at step `k` of `n`, a weight is
//! nudged by `c_k = c · (n / k)^0.101` and moved by
//! `a_k · result · sign / c_k`, with `a_k = a · (A + n)^0.602 / (A + k)^0.602`
//! and `A = n / 10`; `c` is the weight's nudge at the last step, and
//! `a = rate · c²` (so a weight moves about `rate · c` a game won).

use rand::Rng;

/// The settings of a run.
#[derive(Clone, Debug)]
pub struct SpsaSettings {
    /// Steps the run will take (each one pair of games).
    pub steps: u64,
    /// A weight's nudge at the last step: this share of the weight...
    pub nudge_share: f64,
    /// ...but at least this much (centi-units), so that small weights move too.
    pub min_nudge: f64,
    /// How far a weight moves for a game's worth of result, in nudges.
    pub rate: f64,
    /// Tune only these weights (indices); empty: all.
    pub only: Vec<usize>,
}

impl Default for SpsaSettings {
    fn default() -> Self {
        SpsaSettings { steps: 1000, nudge_share: 0.1, min_nudge: 2.0, rate: 0.02, only: Vec::new() }
    }
}

/// The weights being tuned and the state of the schedule.
#[derive(Clone, Debug)]
pub struct Spsa {
    weights: Vec<f64>,
    /// Each weight's nudge at the last step (0: not tuned).
    final_nudge: Vec<f64>,
    settings: SpsaSettings,
    /// Steps taken so far.
    taken: u64,
}

/// One step's two sides: the weights nudged up (`plus`) and down (`minus`)
/// by the signs of `signs`, at the step the nudge was drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
    signs: Vec<f64>,
    step: u64,
}

impl Spsa {
    /// Starts from `weights` (centi-units).
    pub fn new(weights: Vec<f64>, settings: SpsaSettings) -> Spsa {
        let final_nudge = weights
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let tuned = settings.only.is_empty() || settings.only.contains(&i);
                if tuned {
                    (w.abs() * settings.nudge_share).max(settings.min_nudge)
                } else {
                    0.0
                }
            })
            .collect();
        Spsa { weights, final_nudge, settings, taken: 0 }
    }

    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// Steps taken so far.
    pub fn taken(&self) -> u64 {
        self.taken
    }

    fn stability(&self) -> f64 {
        self.settings.steps as f64 / 10.0
    }

    /// The nudge factor at step `k` (1-based): 1 at the last step, larger before.
    fn nudge_factor(&self, k: u64) -> f64 {
        (self.settings.steps.max(1) as f64 / k.max(1) as f64).powf(0.101)
    }

    /// The step factor at step `k`: 1 at the last step, larger before.
    fn step_factor(&self, k: u64) -> f64 {
        let a = self.stability();
        ((a + self.settings.steps.max(1) as f64) / (a + k.max(1) as f64)).powf(0.602)
    }

    /// Draws the next step's two sides.
    pub fn perturb(&self, rng: &mut impl Rng) -> Perturbation {
        let step = self.taken + 1;
        let factor = self.nudge_factor(step);
        let signs: Vec<f64> = self.final_nudge.iter().map(|_| if rng.random::<bool>() { 1.0 } else { -1.0 }).collect();
        let nudged = |direction: f64| {
            let steps = self.final_nudge.iter().zip(&signs).map(|(c, s)| direction * s * c * factor);
            self.weights.iter().zip(steps).map(|(w, d)| w + d).collect()
        };
        Perturbation { plus: nudged(1.0), minus: nudged(-1.0), signs, step }
    }

    /// Moves the weights by the result of a step: the `plus` side's score
    /// minus the `minus` side's, summed over its games (+2 for a pair of
    /// games the plus side won both of).
    pub fn update(&mut self, perturbation: &Perturbation, result: f64) {
        // a_k / c_k with a = rate · c²: the move, per unit of result and
        // sign, is rate · c times the two factors' ratio.
        let factor = self.step_factor(perturbation.step) / self.nudge_factor(perturbation.step);
        for ((weight, c), sign) in self.weights.iter_mut().zip(&self.final_nudge).zip(&perturbation.signs) {
            *weight += self.settings.rate * c * factor * result * sign;
        }
        self.taken += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    /// A stand-in for a match: the plus side wins a game with a chance
    /// that grows with how much closer it is to `target` than the minus side.
    fn play(p: &Perturbation, target: &[f64], rng: &mut SmallRng) -> f64 {
        let loss = |w: &[f64]| w.iter().zip(target).map(|(a, b)| (a - b) * (a - b)).sum::<f64>();
        let edge = (loss(&p.minus) - loss(&p.plus)) / 400.0;
        let chance = 1.0 / (1.0 + (-edge).exp());
        (0..2).map(|_| if rng.random::<f64>() < chance { 1.0 } else { -1.0 }).sum()
    }

    fn distance(a: &[f64], b: &[f64]) -> f64 {
        a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum()
    }

    #[test]
    fn noisy_matches_lead_the_weights_towards_the_better_ones() {
        let target = [120.0, -40.0, 15.0, 60.0];
        let start = vec![80.0, -10.0, 40.0, 60.0];
        let settings = SpsaSettings { steps: 6000, rate: 0.05, ..SpsaSettings::default() };
        let mut spsa = Spsa::new(start.clone(), settings);
        let mut rng = SmallRng::seed_from_u64(7);
        for _ in 0..6000 {
            let p = spsa.perturb(&mut rng);
            let result = play(&p, &target, &mut rng);
            spsa.update(&p, result);
        }
        let before = distance(&start, &target);
        let after = distance(spsa.weights(), &target);
        assert!(after < before / 2.0, "{before} -> {after}: {:?}", spsa.weights());
        assert_eq!(spsa.taken(), 6000);
    }

    #[test]
    fn only_the_named_weights_move() {
        let settings = SpsaSettings { steps: 10, only: vec![1], ..SpsaSettings::default() };
        let mut spsa = Spsa::new(vec![100.0, 50.0, -30.0], settings);
        let mut rng = SmallRng::seed_from_u64(1);
        for _ in 0..10 {
            let p = spsa.perturb(&mut rng);
            assert_eq!((p.plus[0], p.plus[2]), (100.0, -30.0));
            spsa.update(&p, 2.0);
        }
        assert_eq!((spsa.weights()[0], spsa.weights()[2]), (100.0, -30.0));
        assert_ne!(spsa.weights()[1], 50.0);
    }

    #[test]
    fn a_drawn_step_leaves_the_weights_and_the_nudges_shrink() {
        let settings = SpsaSettings { steps: 100, ..SpsaSettings::default() };
        let mut spsa = Spsa::new(vec![200.0, 1.0], settings);
        let mut rng = SmallRng::seed_from_u64(3);
        let first = spsa.perturb(&mut rng);
        spsa.update(&first, 0.0);
        assert_eq!(spsa.weights(), &[200.0, 1.0]);
        // The nudge at the last step: 10% of 200, and at least 2 for the
        // small weight; at the first of 100 steps, 100^0.101 times that.
        let early = 100f64.powf(0.101);
        assert!(((first.plus[0] - 200.0).abs() - 20.0 * early).abs() < 1e-9);
        assert!(((first.plus[1] - 1.0).abs() - 2.0 * early).abs() < 1e-9);
        for _ in 1..99 {
            let p = spsa.perturb(&mut rng);
            spsa.update(&p, 0.0);
        }
        let last = spsa.perturb(&mut rng);
        assert!(((last.plus[0] - 200.0).abs() - 20.0).abs() < 1e-9);
    }
}
