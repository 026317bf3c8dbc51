//! The training loop: the float network of `menagerie_core::nnue`'s shape,
//! fitted by AdamW to the targets' win chances, then quantized.
//!
//! The first layer is sparse: a batch's accumulators are the biases plus
//! the weight rows of the active inputs, gathered (`index_select`) and
//! summed per position (`index_add`), so a step costs the active inputs
//! times the hidden units, not every input. The output, read as a win
//! chance with the game's scale `K` (`1 / (1 + 10^(−K·E/400))`, `E` in
//! centi-units), is fitted to the target by mean squared error.
//!
//! Weights are clipped after every step to what 16 bits hold at their
//! quantization scale. Everything random (the first weights, the order of
//! the positions) comes from the seed, so the same data and settings give
//! the same network.

use crate::samples::{chance, Samples, Set};
use candle_core::{DType, Device, Tensor, Var, D};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use menagerie_core::nnue::{Base, FloatNetwork, OUTPUT_SCALE, QA, QB};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::time::Instant;

/// How to train.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub hidden: usize,
    pub epochs: usize,
    pub batch: usize,
    /// The first learning rate; it falls along a cosine to a twentieth.
    pub learning_rate: f64,
    pub seed: u64,
    /// What the output is added to: with [`Base::Tuned`] the network
    /// learns a correction to the tuned evaluation, and starts as it.
    pub base: Base,
    /// The weights to start from (a network trained before, to go on with
    /// new data) instead of random ones; its shape must be the one trained.
    pub start: Option<FloatNetwork>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { hidden: 64, epochs: 12, batch: 1024, learning_rate: 0.002, seed: 1, base: Base::Tuned, start: None }
    }
}

/// What training measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The mean squared error of the win chances, per epoch, on the
    /// training positions (during the epoch) and the held-out ones (after).
    pub train_loss: Vec<f64>,
    pub validation_loss: Vec<f64>,
    /// The held-out positions' loss of the tuned evaluation (its score as a
    /// win chance on the same scale): the yardstick the network should beat.
    pub tuned_validation_loss: f64,
    /// The integer network's loss on the held-out positions.
    pub quantized_validation_loss: f64,
    /// The held-out loss of the weights kept (the best epoch's, or the
    /// starting network's).
    pub kept_validation_loss: f64,
    /// The epoch (from 1) whose weights were kept: the one with the lowest
    /// validation loss (later ones fitted the training positions better
    /// and the held-out ones worse); 0 when training went on from a network
    /// and no epoch improved on it.
    pub best_epoch: usize,
    pub seconds: f64,
}

/// Trains a network with `inputs` inputs on `samples`, for a game of scale
/// `k`. `progress` hears each epoch's report line.
pub fn train(
    samples: &Samples,
    inputs: usize,
    k: f64,
    settings: &Settings,
    mut progress: impl FnMut(&str),
) -> candle_core::Result<(FloatNetwork, Report)> {
    let started = Instant::now();
    let device = Device::Cpu;
    let hidden = settings.hidden;
    let mut rng = SmallRng::seed_from_u64(settings.seed);
    let mut uniform =
        |count: usize, bound: f32| -> Vec<f32> { (0..count).map(|_| rng.random_range(-bound..bound)).collect() };
    // On the tuned evaluation, the correction starts near zero.
    let out_bound = match settings.base {
        Base::Nothing => 1.0 / (2.0 * hidden as f32).sqrt(),
        Base::Tuned => 0.01,
    };
    let first = match &settings.start {
        Some(start) => {
            if !start.is_shaped(inputs, hidden) {
                return Err(candle_core::Error::Msg(format!(
                    "the network to start from has {} inputs and {} hidden units, not {inputs} and {hidden}",
                    start.inputs, start.hidden
                )));
            }
            start.clone()
        }
        None => FloatNetwork {
            inputs,
            hidden,
            input_weights: uniform(inputs * hidden, 0.1),
            hidden_biases: uniform(hidden, 0.1),
            output_weights: uniform(2 * hidden, out_bound),
            output_bias: 0.0,
        },
    };
    let w1 = Var::from_tensor(&Tensor::from_vec(first.input_weights, (inputs, hidden), &device)?)?;
    let b1 = Var::from_tensor(&Tensor::from_vec(first.hidden_biases, (1, hidden), &device)?)?;
    let w2 = Var::from_tensor(&Tensor::from_vec(first.output_weights, (2 * hidden, 1), &device)?)?;
    let b2 = Var::from_tensor(&Tensor::from_vec(vec![first.output_bias], (1, 1), &device)?)?;
    let params = ParamsAdamW { lr: settings.learning_rate, weight_decay: 0.0, ..ParamsAdamW::default() };
    let mut optimizer = AdamW::new(vec![w1.clone(), b1.clone(), w2.clone(), b2.clone()], params)?;
    let model = Model { w1: &w1, b1: &b1, w2: &w2, b2: &b2, k, base: settings.base, device: &device };
    // Clipped so that quantization fits 16 bits (with a margin for rounding).
    let first_bound = f64::from(i16::MAX) / f64::from(QA) - 0.5;
    let output_bound = f64::from(i16::MAX) / f64::from(QB) - 0.5;

    let mut order: Vec<usize> = (0..samples.train.len()).collect();
    let mut order_rng = SmallRng::seed_from_u64(settings.seed ^ 0x5eed);
    let mut report = Report {
        train_loss: Vec::new(),
        validation_loss: Vec::new(),
        tuned_validation_loss: tuned_loss(&samples.validation, k),
        quantized_validation_loss: 0.0,
        kept_validation_loss: f64::NAN,
        best_epoch: 0,
        seconds: 0.0,
    };
    let snapshot = || -> candle_core::Result<FloatNetwork> {
        Ok(FloatNetwork {
            inputs,
            hidden,
            input_weights: w1.as_tensor().flatten_all()?.to_vec1()?,
            hidden_biases: b1.as_tensor().flatten_all()?.to_vec1()?,
            output_weights: w2.as_tensor().flatten_all()?.to_vec1()?,
            output_bias: b2.as_tensor().flatten_all()?.to_vec1::<f32>()?[0],
        })
    };
    // Going on from a network, its own loss is the one to beat: if no epoch
    // does better, it is kept as it was (epoch 0).
    let mut best: Option<(f64, FloatNetwork)> = None;
    if settings.start.is_some() {
        let validation_loss = model.set_loss(&samples.validation, settings.batch)?;
        progress(&format!(
            "epoch 0 (the network started from): validation loss {validation_loss:.6} (the tuned evaluation's {:.6})",
            report.tuned_validation_loss
        ));
        best = Some((validation_loss, snapshot()?));
    }
    let steps_per_epoch = order.len().div_ceil(settings.batch.max(1));
    let total_steps = (steps_per_epoch * settings.epochs).max(1);
    let mut step = 0;
    for epoch in 0..settings.epochs {
        order.shuffle(&mut order_rng);
        let (mut loss_sum, mut seen) = (0.0, 0usize);
        for batch in order.chunks(settings.batch.max(1)) {
            let progress = step as f64 / total_steps as f64;
            let rate = settings.learning_rate * (0.05 + 0.95 * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos()));
            optimizer.set_learning_rate(rate);
            let loss = model.loss(&samples.train, batch)?;
            optimizer.backward_step(&loss)?;
            w1.set(&w1.as_tensor().clamp(-first_bound, first_bound)?)?;
            b1.set(&b1.as_tensor().clamp(-first_bound, first_bound)?)?;
            w2.set(&w2.as_tensor().clamp(-output_bound, output_bound)?)?;
            loss_sum += f64::from(loss.to_scalar::<f32>()?) * batch.len() as f64;
            seen += batch.len();
            step += 1;
        }
        let train_loss = loss_sum / seen.max(1) as f64;
        let validation_loss = model.set_loss(&samples.validation, settings.batch)?;
        report.train_loss.push(train_loss);
        report.validation_loss.push(validation_loss);
        if best.as_ref().is_none_or(|(loss, _)| validation_loss < *loss) {
            best = Some((validation_loss, snapshot()?));
            report.best_epoch = epoch + 1;
        }
        progress(&format!(
            "epoch {}/{}: training loss {train_loss:.6}, validation loss {validation_loss:.6} (the tuned evaluation's {:.6}), {:.0} s",
            epoch + 1,
            settings.epochs,
            report.tuned_validation_loss,
            started.elapsed().as_secs_f64()
        ));
    }
    let network = match best {
        Some((loss, network)) => {
            report.kept_validation_loss = loss;
            network
        }
        None => snapshot()?,
    };
    report.seconds = started.elapsed().as_secs_f64();
    Ok((network, report))
}

/// The loss of an integer network on a set of positions: the mean squared
/// error of its scores' win chances.
pub fn quantized_loss(network: &menagerie_core::nnue::Network, set: &Set, k: f64) -> f64 {
    let sum: f64 = (0..set.len())
        .map(|i| {
            let (own, theirs) = set.position(i);
            let base = match network.base {
                Base::Nothing => 0.0,
                Base::Tuned => f64::from(set.tuned[i]),
            };
            let predicted = chance(f64::from(network.evaluate(own, theirs)) + base, k);
            (predicted - f64::from(set.targets[i])).powi(2)
        })
        .sum();
    sum / set.len().max(1) as f64
}

fn tuned_loss(set: &Set, k: f64) -> f64 {
    let sum: f64 = set
        .tuned
        .iter()
        .zip(&set.targets)
        .map(|(&score, &target)| (chance(f64::from(score), k) - f64::from(target)).powi(2))
        .sum();
    sum / set.len().max(1) as f64
}

struct Model<'a> {
    w1: &'a Var,
    b1: &'a Var,
    w2: &'a Var,
    b2: &'a Var,
    k: f64,
    base: Base,
    device: &'a Device,
}

impl Model<'_> {
    /// One perspective's activations of a batch: [batch, hidden].
    fn half(&self, set: &Set, batch: &[usize], theirs: bool) -> candle_core::Result<Tensor> {
        let (mut rows, mut inputs) = (Vec::new(), Vec::new());
        for (row, &i) in batch.iter().enumerate() {
            let (own, other) = set.position(i);
            let active = if theirs { other } else { own };
            rows.extend(std::iter::repeat_n(row as u32, active.len()));
            inputs.extend(active.iter().map(|&input| u32::from(input)));
        }
        let hidden = self.w1.dim(1)?;
        let count = inputs.len();
        let inputs = Tensor::from_vec(inputs, count, self.device)?;
        let rows = Tensor::from_vec(rows, count, self.device)?;
        let gathered = self.w1.as_tensor().index_select(&inputs, 0)?;
        let summed = Tensor::zeros((batch.len(), hidden), DType::F32, self.device)?.index_add(&rows, &gathered, 0)?;
        summed.broadcast_add(self.b1.as_tensor())?.clamp(0f32, 1f32)?.sqr()
    }

    /// The predicted win chances of a batch: [batch, 1].
    fn predict(&self, set: &Set, batch: &[usize]) -> candle_core::Result<Tensor> {
        let both = Tensor::cat(&[self.half(set, batch, false)?, self.half(set, batch, true)?], D::Minus1)?;
        let output = both.matmul(self.w2.as_tensor())?.broadcast_add(self.b2.as_tensor())?;
        // chance(E) = sigmoid(ln 10 · K · E / 400), E = OUTPUT_SCALE · output (+ the tuned score).
        let centi_units = output.affine(f64::from(OUTPUT_SCALE), 0.0)?;
        let centi_units = match self.base {
            Base::Nothing => centi_units,
            Base::Tuned => {
                let tuned: Vec<f32> = batch.iter().map(|&i| set.tuned[i]).collect();
                (centi_units + Tensor::from_vec(tuned, (batch.len(), 1), self.device)?)?
            }
        };
        let logit = centi_units.affine(std::f64::consts::LN_10 * self.k / 400.0, 0.0)?;
        candle_nn::ops::sigmoid(&logit)
    }

    fn loss(&self, set: &Set, batch: &[usize]) -> candle_core::Result<Tensor> {
        let predicted = self.predict(set, batch)?;
        let targets: Vec<f32> = batch.iter().map(|&i| set.targets[i]).collect();
        let targets = Tensor::from_vec(targets, (batch.len(), 1), self.device)?;
        (predicted - targets)?.sqr()?.mean_all()
    }

    fn set_loss(&self, set: &Set, batch: usize) -> candle_core::Result<f64> {
        let all: Vec<usize> = (0..set.len()).collect();
        let mut sum = 0.0;
        for chunk in all.chunks(batch.max(1)) {
            sum += f64::from(self.loss(set, chunk)?.to_scalar::<f32>()?) * chunk.len() as f64;
        }
        Ok(sum / set.len().max(1) as f64)
    }
}
