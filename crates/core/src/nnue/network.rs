//! A network's weights, quantized, and its file (`data/nnue/<game>.bin`).
//!
//! The file, little-endian:
//!
//! | field | type | |
//! |---|---|---|
//! | magic | 8 bytes | `MNGRNNUE` |
//! | version | u16 | 1 |
//! | features | u16 length + UTF-8 | the inputs' name and version (`lma-1`): a network is refused by a game whose inputs are not the ones it was trained on |
//! | about | u32 length + UTF-8 | how it was made: `key: value` lines (data command, seed, positions, epochs, loss, commit) |
//! | inputs | u32 | |
//! | hidden | u32 | units per perspective |
//! | scales | u16, u16 | [`QA`] and [`QB`] (a file of other scales is refused) |
//! | base | u8 | 0: the network is the evaluation; 1: it is added to the game's tuned evaluation ([`Base`]) |
//! | input weights | i16 × inputs × hidden | row by row: an input's row is contiguous, as an accumulator adds it |
//! | hidden biases | i16 × hidden | |
//! | output weights | i16 × 2 × hidden | the side to act's units, then the other's |
//! | output bias | i32 | |
//! | check | u64 | FNV-1a of every byte before it |
//!
//! Quantization: the input weights and biases are the trained values times
//! [`QA`] (a hidden unit's activation 1.0 is `QA`), the output weights times
//! [`QB`], the output bias times `QA·QB`; the output, `QA·QB` for 1.0, is
//! scaled to centi-units by [`OUTPUT_SCALE`].

use std::fmt;
use std::sync::OnceLock;

/// A hidden unit's 1.0 in the integer accumulators.
pub const QA: i32 = 255;
/// An output weight's 1.0. Finer than the 64 of engines that multiply in
/// 16-bit lanes: the output sums in 64 bits, and at 64 the rounding of the
/// output weights alone moved scores by a tenth of a pawn.
pub const QB: i32 = 1024;
/// Centi-units of the network's output 1.0: the evaluation is
/// `OUTPUT_SCALE × output`, on the scale of the game's tuned evaluation.
pub const OUTPUT_SCALE: i32 = 400;

const MAGIC: &[u8; 8] = b"MNGRNNUE";
const VERSION: u16 = 1;
/// More would be a mistake, not a network (and would let a damaged file ask
/// for gigabytes).
const MAX_INPUTS: usize = 1 << 16;
const MAX_HIDDEN: usize = 4096;

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkError(pub String);

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "network file: {}", self.0)
    }
}

impl std::error::Error for NetworkError {}

fn bad(what: impl Into<String>) -> NetworkError {
    NetworkError(what.into())
}

/// What a network's output is added to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Base {
    /// Nothing: the network alone is the evaluation.
    #[default]
    Nothing,
    /// The game's tuned evaluation: the network learns what the tuned
    /// features miss (threats, mobility and the like, which piece-square
    /// inputs see only through many units) and starts from a known good
    /// evaluation rather than from zero.
    Tuned,
}

/// A network with integer weights, as the engine evaluates it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// What the output is added to.
    pub base: Base,
    /// The inputs' name and version (`lma-1`).
    pub features: String,
    /// How it was made, `key: value` lines.
    pub about: String,
    inputs: usize,
    hidden: usize,
    input_weights: Vec<i16>,
    hidden_biases: Vec<i16>,
    output_weights: Vec<i16>,
    output_bias: i32,
}

/// A network with the trained floating-point weights, before quantization.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    pub inputs: usize,
    pub hidden: usize,
    /// `inputs × hidden`, row by row.
    pub input_weights: Vec<f32>,
    pub hidden_biases: Vec<f32>,
    /// `2 × hidden`: the side to act's units, then the other's.
    pub output_weights: Vec<f32>,
    pub output_bias: f32,
}

impl FloatNetwork {
    /// The output in centi-units, in floating point: what training fits,
    /// and what the integer network approximates.
    pub fn evaluate(&self, own: &[u16], theirs: &[u16]) -> f32 {
        let mut sum = self.output_bias;
        for (half, active) in [own, theirs].into_iter().enumerate() {
            let mut units = self.hidden_biases.clone();
            for &input in active {
                let row = &self.input_weights[usize::from(input) * self.hidden..][..self.hidden];
                units.iter_mut().zip(row).for_each(|(unit, weight)| *unit += weight);
            }
            let weights = &self.output_weights[half * self.hidden..][..self.hidden];
            sum += units.iter().zip(weights).map(|(unit, weight)| unit.clamp(0.0, 1.0).powi(2) * weight).sum::<f32>();
        }
        sum * OUTPUT_SCALE as f32
    }

    /// Whether it has `inputs` inputs and `hidden` units, and weights of
    /// those lengths.
    pub fn is_shaped(&self, inputs: usize, hidden: usize) -> bool {
        (self.inputs, self.hidden) == (inputs, hidden)
            && self.input_weights.len() == inputs * hidden
            && self.hidden_biases.len() == hidden
            && self.output_weights.len() == 2 * hidden
    }

    /// The integer network: every weight rounded to its scale, refused if
    /// one does not fit 16 bits (training clips them so that they do).
    pub fn quantize(&self, features: &str, about: &str, base: Base) -> Result<Network, NetworkError> {
        if !self.is_shaped(self.inputs, self.hidden) {
            return Err(bad("the weights do not match the shape"));
        }
        let to_i16 = |value: f32, scale: i32, what: &str| -> Result<i16, NetworkError> {
            let scaled = (value * scale as f32).round();
            if scaled.is_finite() && (f32::from(i16::MIN)..=f32::from(i16::MAX)).contains(&scaled) {
                Ok(scaled as i16)
            } else {
                Err(bad(format!("{what} {value} does not fit 16 bits at scale {scale}")))
            }
        };
        let input_weights =
            self.input_weights.iter().map(|&w| to_i16(w, QA, "an input weight")).collect::<Result<_, _>>()?;
        let hidden_biases =
            self.hidden_biases.iter().map(|&w| to_i16(w, QA, "a hidden bias")).collect::<Result<_, _>>()?;
        let output_weights =
            self.output_weights.iter().map(|&w| to_i16(w, QB, "an output weight")).collect::<Result<_, _>>()?;
        let output_bias = (self.output_bias * (QA * QB) as f32).round();
        if !output_bias.is_finite() || output_bias.abs() > 1e9 {
            return Err(bad("the output bias is out of range"));
        }
        Ok(Network {
            base,
            features: features.to_owned(),
            about: about.to_owned(),
            inputs: self.inputs,
            hidden: self.hidden,
            input_weights,
            hidden_biases,
            output_weights,
            output_bias: output_bias as i32,
        })
    }
}

impl Network {
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The weights as floating-point values: where training starts when it
    /// goes on from this network (`menagerie train --from`). Quantizing the
    /// result gives these very weights back.
    pub fn dequantize(&self) -> FloatNetwork {
        let scaled = |weights: &[i16], scale: i32| weights.iter().map(|&w| f32::from(w) / scale as f32).collect();
        FloatNetwork {
            inputs: self.inputs,
            hidden: self.hidden,
            input_weights: scaled(&self.input_weights, QA),
            hidden_biases: scaled(&self.hidden_biases, QA),
            output_weights: scaled(&self.output_weights, QB),
            output_bias: self.output_bias as f32 / (QA * QB) as f32,
        }
    }

    /// The value of `key` in [`Network::about`] (`positions`, `loss`, ...).
    pub fn about_value(&self, key: &str) -> Option<&str> {
        self.about.lines().find_map(|line| line.strip_prefix(key)?.strip_prefix(": "))
    }

    /// The hidden biases: an accumulator's start.
    #[inline]
    pub(super) fn biases(&self) -> &[i16] {
        &self.hidden_biases
    }

    /// The weight row of `input`.
    #[inline]
    pub(super) fn row(&self, input: u16) -> &[i16] {
        let start = usize::from(input) * self.hidden;
        &self.input_weights[start..start + self.hidden]
    }

    /// The evaluation in centi-units from both perspectives' accumulated
    /// hidden units (the side to act's first).
    #[inline]
    pub fn output(&self, own: &[i32], theirs: &[i32]) -> i32 {
        let (own_weights, their_weights) = self.output_weights.split_at(self.hidden);
        // Each term is at most QA² · 2^15 ≈ 2^31: summed in 64 bits.
        let sum: i64 = screlu_dot(own, own_weights) + screlu_dot(theirs, their_weights);
        let output = sum / i64::from(QA) + i64::from(self.output_bias);
        (output * i64::from(OUTPUT_SCALE) / i64::from(QA * QB)) as i32
    }

    /// The evaluation of a position given its active inputs, with no
    /// accumulator kept: what the incremental one must always equal.
    pub fn evaluate(&self, own: &[u16], theirs: &[u16]) -> i32 {
        let own = self.accumulate(own);
        let theirs = self.accumulate(theirs);
        self.output(&own, &theirs)
    }

    /// A perspective's hidden units from scratch.
    pub fn accumulate(&self, active: &[u16]) -> Vec<i32> {
        let mut units: Vec<i32> = self.hidden_biases.iter().map(|&b| i32::from(b)).collect();
        for &input in active {
            for (unit, &weight) in units.iter_mut().zip(self.row(input)) {
                *unit += i32::from(weight);
            }
        }
        units
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + self.about.len() + 2 * self.input_weights.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.features.len() as u16).to_le_bytes());
        out.extend_from_slice(self.features.as_bytes());
        out.extend_from_slice(&(self.about.len() as u32).to_le_bytes());
        out.extend_from_slice(self.about.as_bytes());
        out.extend_from_slice(&(self.inputs as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        out.extend_from_slice(&(QA as u16).to_le_bytes());
        out.extend_from_slice(&(QB as u16).to_le_bytes());
        out.push(match self.base {
            Base::Nothing => 0,
            Base::Tuned => 1,
        });
        for weights in [&self.input_weights, &self.hidden_biases, &self.output_weights] {
            for weight in weights.iter() {
                out.extend_from_slice(&weight.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        let check = fnv1a(&out);
        out.extend_from_slice(&check.to_le_bytes());
        out
    }

    /// Reads a network file: any damage, truncation or shape the reader
    /// cannot trust is an error, never a panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < MAGIC.len() + 8 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(bad("not a Menagerie network (no MNGRNNUE magic)"));
        }
        let (body, check) = bytes.split_at(bytes.len() - 8);
        if fnv1a(body).to_le_bytes() != check {
            return Err(bad("damaged: its check does not match its bytes"));
        }
        let mut reader = Reader { bytes: body, at: MAGIC.len() };
        let version = u16::from_le_bytes(reader.take()?);
        if version != VERSION {
            return Err(bad(format!("version {version}; this build reads version {VERSION}")));
        }
        let features_len = usize::from(u16::from_le_bytes(reader.take()?));
        let features = reader.text(features_len)?;
        let about_len = u32::from_le_bytes(reader.take()?) as usize;
        let about = reader.text(about_len)?;
        let inputs = u32::from_le_bytes(reader.take()?) as usize;
        let hidden = u32::from_le_bytes(reader.take()?) as usize;
        let scales = (u16::from_le_bytes(reader.take()?), u16::from_le_bytes(reader.take()?));
        if scales != (QA as u16, QB as u16) {
            return Err(bad(format!("quantized at scales {scales:?}; this build's are ({QA}, {QB})")));
        }
        let base = match reader.take::<1>()?[0] {
            0 => Base::Nothing,
            1 => Base::Tuned,
            other => return Err(bad(format!("base {other}: not 0 (nothing) or 1 (the tuned evaluation)"))),
        };
        if inputs == 0 || inputs > MAX_INPUTS || hidden == 0 || hidden > MAX_HIDDEN {
            return Err(bad(format!("{inputs} inputs and {hidden} hidden units: out of range")));
        }
        let weights = (inputs + 1) * hidden + 2 * hidden;
        if reader.left() != 2 * weights + 4 {
            return Err(bad(format!(
                "{} bytes of weights for {inputs} inputs and {hidden} hidden units, which take {}",
                reader.left(),
                2 * weights + 4
            )));
        }
        let mut read_i16s = |count: usize| -> Result<Vec<i16>, NetworkError> {
            (0..count).map(|_| reader.take().map(i16::from_le_bytes)).collect()
        };
        let input_weights = read_i16s(inputs * hidden)?;
        let hidden_biases = read_i16s(hidden)?;
        let output_weights = read_i16s(2 * hidden)?;
        let output_bias = i32::from_le_bytes(reader.take()?);
        Ok(Network { base, features, about, inputs, hidden, input_weights, hidden_biases, output_weights, output_bias })
    }
}

/// Σ clamp(unit, 0, QA)² · weight.
#[inline]
fn screlu_dot(units: &[i32], weights: &[i16]) -> i64 {
    units
        .iter()
        .zip(weights)
        .map(|(&unit, &weight)| {
            let clipped = unit.clamp(0, QA);
            i64::from(clipped * clipped) * i64::from(weight)
        })
        .sum()
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N], NetworkError> {
        let slice = self.bytes.get(self.at..self.at + N).ok_or_else(|| bad("cut short"))?;
        self.at += N;
        Ok(slice.try_into().expect("N bytes"))
    }

    fn text(&mut self, len: usize) -> Result<String, NetworkError> {
        let slice = self.bytes.get(self.at..self.at + len).ok_or_else(|| bad("cut short"))?;
        self.at += len;
        String::from_utf8(slice.to_vec()).map_err(|_| bad("a text is not UTF-8"))
    }
}

/// A game's built-in network (`include_bytes!` of its file), read at first
/// use. An empty file is a game without a network yet.
pub struct LazyNetwork {
    bytes: &'static [u8],
    features: &'static str,
    inputs: usize,
    parsed: OnceLock<Option<Network>>,
}

impl LazyNetwork {
    /// A game's network file, for inputs named `features` numbering `inputs`.
    pub const fn new(bytes: &'static [u8], features: &'static str, inputs: usize) -> LazyNetwork {
        LazyNetwork { bytes, features, inputs, parsed: OnceLock::new() }
    }

    /// The network, or `None` for an empty file. Each game's tests read
    /// its file with [`LazyNetwork::check`]: a broken file fails the tests,
    /// never a running program.
    pub fn get(&self) -> Option<&Network> {
        self.parsed.get_or_init(|| self.check().expect("the built-in network file is valid")).as_ref()
    }

    /// Reads the file: `None` when empty, an error when damaged or trained
    /// on other inputs.
    pub fn check(&self) -> Result<Option<Network>, NetworkError> {
        if self.bytes.is_empty() {
            return Ok(None);
        }
        let network = Network::from_bytes(self.bytes)?;
        if network.features != self.features {
            return Err(bad(format!(
                "trained on inputs {:?}; this build's are {:?}: train it again",
                network.features, self.features
            )));
        }
        if network.inputs != self.inputs {
            return Err(bad(format!("{} inputs; the game has {}", network.inputs, self.inputs)));
        }
        Ok(Some(network))
    }
}
