//! Evaluation weights as data: each game's `data/eval/<game>.toml`, built
//! into the binary (`include_str!`) and read once, at first use. The file
//! holds a `[weights]` table of feature name = centi-units per unit of the
//! feature, as `menagerie tune` writes it (with the command that fitted
//! them in its header).

use menagerie_core::WEIGHT_SCALE;
use std::sync::OnceLock;

/// The weights of one game, read from their file's text when first asked.
pub struct Weights {
    text: &'static str,
    names: &'static [&'static str],
    parsed: OnceLock<Vec<i32>>,
    scale: OnceLock<f64>,
}

impl Weights {
    pub const fn new(text: &'static str, names: &'static [&'static str]) -> Weights {
        Weights { text, names, parsed: OnceLock::new(), scale: OnceLock::new() }
    }

    /// The weights in feature order, in 1/[`WEIGHT_SCALE`] centi-units.
    pub fn get(&self) -> &[i32] {
        // Each game's test reads its file with `parse`: a broken file
        // fails the build's tests, never a running program.
        self.parsed.get_or_init(|| parse(self.text, self.names).expect("the built-in weights file is valid"))
    }

    /// The fitted scale `K` of these weights ([`parse_scale`]).
    pub fn scale(&self) -> f64 {
        *self.scale.get_or_init(|| parse_scale(self.text).expect("the built-in weights file is valid"))
    }
}

/// Reads a weights file's `win_scale`: the `K` the tuner fitted, with which
/// an evaluation `E` (centi-units) predicts the first player's score as
/// `1 / (1 + 10^(-K·E/400))`. A file without one says 1.
pub fn parse_scale(text: &str) -> Result<f64, String> {
    let table: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
    match table.get("win_scale") {
        None => Ok(1.0),
        Some(toml::Value::Float(k)) if k.is_finite() && *k > 0.0 && *k <= 100.0 => Ok(*k),
        Some(toml::Value::Integer(k)) if (1..=100).contains(k) => Ok(*k as f64),
        Some(other) => Err(format!("win_scale {other}: not a number from 0 to 100")),
    }
}

/// Reads a weights file: every feature in `names` must have a number, and
/// no other name may appear (a misspelt feature would silently count 0).
pub fn parse(text: &str, names: &[&str]) -> Result<Vec<i32>, String> {
    let table: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
    let weights = match table.get("weights") {
        Some(toml::Value::Table(weights)) => weights,
        _ => return Err("no [weights] table".into()),
    };
    if let Some(unknown) = weights.keys().find(|key| !names.contains(&key.as_str())) {
        return Err(format!("unknown feature {unknown:?}"));
    }
    names
        .iter()
        .map(|name| {
            let value = match weights.get(*name) {
                Some(toml::Value::Float(x)) => *x,
                Some(toml::Value::Integer(n)) => *n as f64,
                Some(_) => return Err(format!("feature {name:?}: not a number")),
                None => return Err(format!("feature {name:?} has no weight")),
            };
            if !value.is_finite() || value.abs() > 1e6 {
                return Err(format!("feature {name:?}: weight {value} out of range"));
            }
            Ok((value * f64::from(WEIGHT_SCALE)).round() as i32)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_are_read_in_feature_order() {
        let text = "# header\n[weights]\nb = 2.5\na = -100\n";
        assert_eq!(parse(text, &["a", "b"]), Ok(vec![-100 * WEIGHT_SCALE, 40]));
        assert!(parse(text, &["a"]).unwrap_err().contains("unknown feature \"b\""));
        assert!(parse(text, &["a", "b", "c"]).unwrap_err().contains("\"c\" has no weight"));
        assert!(parse("[weights]\na = \"x\"\n", &["a"]).is_err());
        assert!(parse("a = 1\n", &["a"]).is_err());
        assert!(parse("[weights]\na = 1e9\n", &["a"]).is_err());
    }

    #[test]
    fn the_scale_is_read_or_one() {
        assert_eq!(parse_scale("[weights]\na = 1\n"), Ok(1.0));
        assert_eq!(parse_scale("win_scale = 0.074\n[weights]\na = 1\n"), Ok(0.074));
        assert_eq!(parse("win_scale = 0.074\n[weights]\na = 1\n", &["a"]), Ok(vec![WEIGHT_SCALE]));
        for bad in ["win_scale = 0.0", "win_scale = -1", "win_scale = \"big\"", "win_scale = 1e9"] {
            assert!(parse_scale(bad).is_err(), "{bad}");
        }
    }
}
