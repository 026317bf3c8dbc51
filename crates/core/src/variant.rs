use std::fmt;
use thiserror::Error;

/// A variant id and what it means, for `menagerie variants` and the web page.
#[derive(Clone, Copy, Debug)]
pub struct VariantInfo {
    pub id: &'static str,
    pub name: &'static str,
    pub summary: &'static str,
    pub options: &'static [OptionInfo],
}

impl VariantInfo {
    /// The game the variant belongs to: its id up to the first `-`
    /// (`lma-double` -> `lma`). A game's folder, corpus, web renderer and
    /// rules page are named by it.
    pub fn game(&self) -> &'static str {
        self.id.split('-').next().unwrap_or(self.id)
    }

    /// The variant strings tests play: the id, and the id with every option
    /// that takes no value switched on, when there are such options
    /// (`lunch:princess,no-spinning,...`).
    pub fn test_strings(&self) -> Vec<String> {
        let flags: Vec<&str> = self.options.iter().filter(|o| o.value.is_none()).map(|o| o.name).collect();
        let mut strings = vec![self.id.to_owned()];
        if !flags.is_empty() {
            strings.push(format!("{}:{}", self.id, flags.join(",")));
        }
        strings
    }
}

/// One option a variant accepts after the colon: `princess` or `deck=FILE`.
#[derive(Clone, Copy, Debug)]
pub struct OptionInfo {
    pub name: &'static str,
    pub summary: &'static str,
    /// `Some("FILE")` when the option takes a value (`deck=FILE`).
    pub value: Option<&'static str>,
}

/// A variant string split up: `lunch:princess,deck=d.toml` is the id `lunch`
/// with the options `princess` and `deck` = `d.toml`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VariantSpec {
    pub id: String,
    pub options: Vec<VariantOption>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VariantOption {
    pub name: String,
    pub value: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum VariantError {
    #[error("unknown variant {id:?}; valid ids: {valid}")]
    UnknownId { id: String, valid: String },
    #[error("variant {id:?} has no option {option:?}; valid options: {valid}")]
    UnknownOption { id: String, option: String, valid: String },
    #[error("variant {id:?}: option {option:?} {problem}")]
    BadOption { id: String, option: String, problem: String },
    #[error("malformed variant string {text:?}: {problem}")]
    Syntax { text: String, problem: String },
}

impl VariantSpec {
    pub fn parse(text: &str) -> Result<VariantSpec, VariantError> {
        let text = text.trim();
        let syntax = |problem: &str| VariantError::Syntax { text: text.to_owned(), problem: problem.to_owned() };
        let (id, rest) = match text.split_once(':') {
            Some((id, rest)) => (id, Some(rest)),
            None => (text, None),
        };
        if id.is_empty() {
            return Err(syntax("the variant id is empty"));
        }
        let mut options = Vec::new();
        if let Some(rest) = rest {
            for part in rest.split(',') {
                let (name, value) = match part.split_once('=') {
                    Some((n, v)) => (n, Some(v.to_owned())),
                    None => (part, None),
                };
                if name.is_empty() {
                    return Err(syntax("an option name is empty"));
                }
                if options.iter().any(|o: &VariantOption| o.name == name) {
                    return Err(syntax(&format!("option {name:?} is given twice")));
                }
                options.push(VariantOption { name: name.to_owned(), value });
            }
        }
        Ok(VariantSpec { id: id.to_owned(), options })
    }

    pub fn plain(id: &str) -> VariantSpec {
        VariantSpec { id: id.to_owned(), options: Vec::new() }
    }

    /// Checks every option against `info`: known names, a value exactly where
    /// one is expected.
    pub fn check_options(&self, info: &VariantInfo) -> Result<(), VariantError> {
        for option in &self.options {
            let Some(known) = info.options.iter().find(|o| o.name == option.name) else {
                let valid = if info.options.is_empty() {
                    "none".to_owned()
                } else {
                    info.options.iter().map(|o| o.name).collect::<Vec<_>>().join(", ")
                };
                return Err(VariantError::UnknownOption { id: self.id.clone(), option: option.name.clone(), valid });
            };
            match (known.value, &option.value) {
                (Some(kind), None) => {
                    return Err(self.bad_option(&option.name, format!("needs a value: {}={kind}", option.name)))
                }
                (None, Some(_)) => return Err(self.bad_option(&option.name, "takes no value")),
                _ => {}
            }
        }
        Ok(())
    }

    pub fn has(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.name == name)
    }

    pub fn value(&self, name: &str) -> Option<&str> {
        self.options.iter().find(|o| o.name == name).and_then(|o| o.value.as_deref())
    }

    pub fn bad_option(&self, option: &str, problem: impl Into<String>) -> VariantError {
        VariantError::BadOption { id: self.id.clone(), option: option.to_owned(), problem: problem.into() }
    }
}

impl fmt::Display for VariantSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id)?;
        for (i, option) in self.options.iter().enumerate() {
            f.write_str(if i == 0 { ":" } else { "," })?;
            f.write_str(&option.name)?;
            if let Some(value) = &option.value {
                write!(f, "={value}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INFO: VariantInfo = VariantInfo {
        id: "lunch",
        name: "Lunch Chess",
        summary: "",
        options: &[
            OptionInfo { name: "princess", summary: "", value: None },
            OptionInfo { name: "deck", summary: "", value: Some("FILE") },
        ],
    };

    #[test]
    fn game_and_test_strings() {
        assert_eq!(INFO.game(), "lunch");
        assert_eq!(INFO.test_strings(), ["lunch", "lunch:princess"]);
        let double = VariantInfo { id: "lma-double", name: "", summary: "", options: &[] };
        assert_eq!(double.game(), "lma");
        assert_eq!(double.test_strings(), ["lma-double"]);
    }

    #[test]
    fn parses_options_and_round_trips() {
        let spec = VariantSpec::parse("lunch:princess,deck=a/b.toml").unwrap();
        assert_eq!(spec.id, "lunch");
        assert!(spec.has("princess"));
        assert_eq!(spec.value("deck"), Some("a/b.toml"));
        assert_eq!(spec.to_string(), "lunch:princess,deck=a/b.toml");
        spec.check_options(&INFO).unwrap();
    }

    #[test]
    fn rejects_unknown_and_malformed_options() {
        let err = VariantSpec::parse("lunch:queen").unwrap().check_options(&INFO).unwrap_err();
        assert_eq!(err.to_string(), "variant \"lunch\" has no option \"queen\"; valid options: princess, deck");
        let err = VariantSpec::parse("lunch:deck").unwrap().check_options(&INFO).unwrap_err();
        assert!(err.to_string().contains("needs a value"), "{err}");
        assert!(VariantSpec::parse("lunch:princess,princess").is_err());
        assert!(VariantSpec::parse(":x").is_err());
        assert!(VariantSpec::parse("lunch:,x").is_err());
    }
}
