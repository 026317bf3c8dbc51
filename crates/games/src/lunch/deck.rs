//! The deck is data: a TOML file lists every card with its kind, count and
//! numbers. The standard deck (`data/lunch/standard-deck.toml` at the
//! repository root) is compiled into the binary under the name `standard`;
//! `deck=NAME` names another, and whoever builds the game says what the name
//! means (a [`menagerie_core::Resolver`]: a file for the CLI, a deck its
//! operator offers for the server). This module never touches files.
//!
//! Cards of one name are indistinguishable, so the engine works with *card
//! types* ([`Card`]): a hand, the draw pile and the discard pile are counts
//! per type (`pile.rs`).

use menagerie_core::{shown, Resolved, Resolver};
use std::fmt;

/// The standard deck, embedded so that the program works from any folder.
pub const STANDARD_DECK: &str = include_str!("../../../../data/lunch/standard-deck.toml");

/// The name of the embedded deck in `deck=NAME`, and the deck a variant
/// without `deck=` plays with.
pub const STANDARD_NAME: &str = "standard";

/// The option that names a deck.
pub const DECK_OPTION: &str = "deck";

/// A deck file larger than this is refused unread: the standard deck is
/// about 4 KiB, and every resolver reads at most this much.
pub const MAX_DECK_BYTES: u64 = 64 * 1024;

/// The decks built into the program: `standard` only. Every resolver that
/// serves Lunch Chess starts from it.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuiltinDecks;

impl Resolver for BuiltinDecks {
    fn resolve(&self, option: &str, value: &str) -> Result<Resolved, String> {
        match (option, value) {
            (DECK_OPTION, STANDARD_NAME) => Ok(Resolved { name: STANDARD_NAME.to_owned(), text: STANDARD_DECK.into() }),
            (DECK_OPTION, other) => Err(format!("unknown deck {}; offered decks: {STANDARD_NAME}", shown(other))),
            (other, _) => Err(format!("option {other:?} names no data")),
        }
    }
}

/// At most this many card types (names) in a deck: piles are `[u8; MAX_TYPES]`.
pub const MAX_TYPES: usize = 32;
/// At most this many cards in a deck (so that every count fits a byte).
pub const MAX_CARDS: usize = 160;

/// A card type of a deck: its index in the deck file (the order of hands in
/// texts). Cards of one type are indistinguishable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The card type at `index` in the deck (below [`MAX_TYPES`]).
    #[inline]
    pub const fn new(index: u8) -> Card {
        debug_assert!((index as usize) < MAX_TYPES);
        Card(index)
    }

    /// Masked to the table size (every card is below it: see [`Card::new`]),
    /// so that the piles' counts and the keys are read without a bounds
    /// check.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize % MAX_TYPES
    }
}

/// A set of card types (bit `i` for the type of index `i`), iterated in
/// deck order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CardSet(u32);

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);

    #[inline]
    pub fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.index()) != 0
    }

    #[inline]
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.index();
    }

    #[inline]
    pub fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.index());
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The types in both sets.
    #[inline]
    pub fn and(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    /// The types in either set.
    #[inline]
    pub fn or(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    /// The types in deck order.
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut rest = self.0;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let card = Card::new(rest.trailing_zeros() as u8);
            rest &= rest - 1;
            Some(card)
        })
    }
}

/// What a card does in the engine; the deck maps names to kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CardKind {
    Attack,
    Weapon,
    BigCombo,
    Poke,
    Stomp,
    Uppercut2,
    Choke,
    Headlock,
    Grab,
    Dodge,
    Block,
    Disarm,
    Freedom,
    FirstAid,
    Humiliation,
}

impl CardKind {
    const ALL: [(CardKind, &'static str); 15] = [
        (CardKind::Attack, "attack"),
        (CardKind::Weapon, "weapon"),
        (CardKind::BigCombo, "big_combo"),
        (CardKind::Poke, "poke"),
        (CardKind::Stomp, "stomp"),
        (CardKind::Uppercut2, "uppercut2"),
        (CardKind::Choke, "choke"),
        (CardKind::Headlock, "headlock"),
        (CardKind::Grab, "grab"),
        (CardKind::Dodge, "dodge"),
        (CardKind::Block, "block"),
        (CardKind::Disarm, "disarm"),
        (CardKind::Freedom, "freedom"),
        (CardKind::FirstAid, "first_aid"),
        (CardKind::Humiliation, "humiliation"),
    ];

    pub fn name(self) -> &'static str {
        Self::ALL.iter().find(|(k, _)| *k == self).map_or("?", |(_, n)| n)
    }

    fn from_name(name: &str) -> Option<CardKind> {
        Self::ALL.iter().find(|(_, n)| *n == name).map(|(k, _)| *k)
    }

    /// Kinds that deal damage and so need a `damage` number.
    fn hits(self) -> bool {
        matches!(
            self,
            CardKind::Attack
                | CardKind::Weapon
                | CardKind::BigCombo
                | CardKind::Poke
                | CardKind::Stomp
                | CardKind::Uppercut2
                | CardKind::Choke
        )
    }

    /// Cards that can open a battle.
    pub fn is_opening(self) -> bool {
        self.hits()
    }

    /// Cards usable for a free attack (and with a Grab): basic attacks and weapons.
    pub fn is_free_attack(self) -> bool {
        matches!(self, CardKind::Attack | CardKind::Weapon)
    }
}

/// Whether a number of the deck is known from Lunch Money or our guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Confirmed,
    Reconstructed,
}

impl Status {
    fn from_name(name: &str) -> Option<Status> {
        match name {
            "confirmed" => Some(Status::Confirmed),
            "reconstructed" => Some(Status::Reconstructed),
            _ => None,
        }
    }
}

/// The status of each number a card has (`damage` only for cards that hit,
/// `heal` only for First Aid).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NumberStatus {
    pub count: Status,
    pub damage: Option<Status>,
    pub heal: Option<Status>,
}

/// One card type of the deck.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardType {
    pub name: String,
    /// The name in move and position texts (`jab`, `firstaid`).
    pub code: String,
    pub kind: CardKind,
    pub count: u8,
    pub damage: i8,
    pub heal: i8,
    pub spinning: bool,
    pub breaks_choke: bool,
    pub headlock_free: bool,
    /// Whether each of the card's numbers is confirmed or reconstructed.
    pub status: NumberStatus,
}

/// A whole deck: card types in file order (the order of hands in texts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deck {
    pub types: Vec<CardType>,
    /// Where it came from, for messages (`standard` or the file name).
    pub source: String,
    /// The types of each kind and of some of the card's features, worked
    /// out once: random playouts ask for them at every action.
    sets: DeckSets,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct DeckSets {
    /// By [`CardKind`] in declaration order.
    kinds: [CardSet; CardKind::ALL.len()],
    openings: CardSet,
    spinning: CardSet,
}

impl DeckSets {
    fn of(types: &[CardType]) -> DeckSets {
        let mut sets = DeckSets::default();
        for (index, t) in types.iter().enumerate().take(MAX_TYPES) {
            let card = Card::new(index as u8);
            sets.kinds[t.kind as usize].insert(card);
            if t.kind.is_opening() {
                sets.openings.insert(card);
            }
            if t.spinning {
                sets.spinning.insert(card);
            }
        }
        sets
    }
}

/// A deck file that cannot be used: names the file, the card and the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeckError {
    pub file: String,
    pub card: Option<String>,
    pub field: Option<String>,
    pub problem: String,
}

impl fmt::Display for DeckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "deck file {}", self.file)?;
        if let Some(card) = &self.card {
            write!(f, ", card {card}")?;
        }
        if let Some(field) = &self.field {
            write!(f, ", field `{field}`")?;
        }
        write!(f, ": {}", self.problem)
    }
}

impl Deck {
    /// The embedded standard deck.
    pub fn standard() -> Deck {
        Deck::parse(STANDARD_DECK, "standard").expect("the embedded standard deck is valid")
    }

    /// Reads a deck from TOML text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Deck, DeckError> {
        let err = |card: Option<String>, field: Option<&str>, problem: String| DeckError {
            file: file.to_owned(),
            card,
            field: field.map(str::to_owned),
            problem,
        };
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| err(None, None, format!("is not valid TOML: {}", e.message())))?;
        for key in table.keys() {
            if key != "card" {
                return Err(err(None, Some(key), "unknown top-level key (expected only [[card]] tables)".into()));
            }
        }
        let cards = table
            .get("card")
            .and_then(|v| v.as_array())
            .ok_or_else(|| err(None, Some("card"), "no [[card]] tables".into()))?;
        let mut types = Vec::new();
        let mut total = 0usize;
        for (index, value) in cards.iter().enumerate() {
            let number = index + 1;
            let table =
                value.as_table().ok_or_else(|| err(Some(format!("#{number}")), None, "is not a table".into()))?;
            let name = match table.get("name") {
                Some(toml::Value::String(s)) if !s.trim().is_empty() => s.clone(),
                Some(_) => {
                    return Err(err(Some(format!("#{number}")), Some("name"), "must be a non-empty string".into()))
                }
                None => return Err(err(Some(format!("#{number}")), Some("name"), "is missing".into())),
            };
            let label = format!("#{number} ({name:?})");
            let fail = |field: &str, problem: &str| err(Some(label.clone()), Some(field), problem.to_owned());
            for key in table.keys() {
                const KNOWN: [&str; 10] = [
                    "name",
                    "code",
                    "kind",
                    "count",
                    "damage",
                    "heal",
                    "spinning",
                    "breaks_choke",
                    "headlock_free",
                    "numbers",
                ];
                if !KNOWN.contains(&key.as_str()) {
                    return Err(fail(key, &format!("unknown field; known fields: {}", KNOWN.join(", "))));
                }
            }
            let string = |field: &str| -> Result<String, DeckError> {
                match table.get(field) {
                    Some(toml::Value::String(s)) => Ok(s.clone()),
                    Some(_) => Err(fail(field, "must be a string")),
                    None => Err(fail(field, "is missing")),
                }
            };
            let integer = |field: &str, min: i64, max: i64| -> Result<Option<i64>, DeckError> {
                match table.get(field) {
                    Some(toml::Value::Integer(n)) if (min..=max).contains(n) => Ok(Some(*n)),
                    Some(toml::Value::Integer(n)) => Err(fail(field, &format!("{n} is out of range {min}..={max}"))),
                    Some(_) => Err(fail(field, "must be an integer")),
                    None => Ok(None),
                }
            };
            let flag = |field: &str| -> Result<bool, DeckError> {
                match table.get(field) {
                    Some(toml::Value::Boolean(b)) => Ok(*b),
                    Some(_) => Err(fail(field, "must be true or false")),
                    None => Ok(false),
                }
            };
            let code = string("code")?;
            if code.is_empty() || !code.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()) {
                return Err(fail("code", "must be lowercase ASCII letters and digits"));
            }
            if code == "pass" {
                return Err(fail("code", "`pass` is a move word"));
            }
            if types.iter().any(|t: &CardType| t.code == code) {
                return Err(fail("code", &format!("{code:?} is used by another card")));
            }
            let kind_name = string("kind")?;
            let kind = CardKind::from_name(&kind_name).ok_or_else(|| {
                let valid: Vec<&str> = CardKind::ALL.iter().map(|(_, n)| *n).collect();
                fail("kind", &format!("unknown kind {kind_name:?}; valid kinds: {}", valid.join(", ")))
            })?;
            let count = integer("count", 1, 99)?.ok_or_else(|| fail("count", "is missing"))?;
            let damage = integer("damage", 0, 20)?;
            let heal = integer("heal", 1, 20)?;
            if kind.hits() && damage.is_none() {
                return Err(fail("damage", &format!("is missing (a {} card deals damage)", kind.name())));
            }
            if !kind.hits() && damage.is_some() {
                return Err(fail("damage", &format!("a {} card deals no damage", kind.name())));
            }
            if kind == CardKind::FirstAid && heal.is_none() {
                return Err(fail("heal", "is missing (a first_aid card heals)"));
            }
            if kind != CardKind::FirstAid && heal.is_some() {
                return Err(fail("heal", &format!("a {} card does not heal", kind.name())));
            }
            let spinning = flag("spinning")?;
            if spinning && kind != CardKind::Attack {
                return Err(fail("spinning", "only `attack` cards spin"));
            }
            let breaks_choke = flag("breaks_choke")?;
            let headlock_free = flag("headlock_free")?;
            if headlock_free && damage.is_none() {
                return Err(fail("headlock_free", "only cards that deal damage can be Headlock free attacks"));
            }
            let status = number_status(table.get("numbers"), damage.is_some(), heal.is_some())
                .map_err(|problem| fail("numbers", &problem))?;
            total += count as usize;
            types.push(CardType {
                name,
                code,
                kind,
                count: count as u8,
                damage: damage.unwrap_or(0) as i8,
                heal: heal.unwrap_or(0) as i8,
                spinning,
                breaks_choke,
                headlock_free,
                status,
            });
        }
        if types.len() > MAX_TYPES {
            return Err(err(None, None, format!("has {} card types; at most {MAX_TYPES} are supported", types.len())));
        }
        if total > MAX_CARDS {
            return Err(err(None, None, format!("has {total} cards; at most {MAX_CARDS} are supported")));
        }
        let sets = DeckSets::of(&types);
        Ok(Deck { types, source: file.to_owned(), sets })
    }

    pub fn len(&self) -> usize {
        self.types.len()
    }

    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    /// A card type of this deck (`card` comes from this deck).
    pub fn card(&self, card: Card) -> &CardType {
        &self.types[card.index()]
    }

    pub fn kind(&self, card: Card) -> CardKind {
        self.types[card.index()].kind
    }

    /// The name of a card type in texts.
    pub fn code(&self, card: Card) -> &str {
        &self.types[card.index()].code
    }

    /// The card type of a code.
    pub fn find(&self, code: &str) -> Option<Card> {
        self.types.iter().position(|t| t.code == code).map(|i| Card::new(i as u8))
    }

    /// The card types of a kind.
    #[inline]
    pub fn of_kind(&self, kind: CardKind) -> CardSet {
        self.sets.kinds[kind as usize]
    }

    /// The card types that can open a battle ([`CardKind::is_opening`]).
    #[inline]
    pub fn openings(&self) -> CardSet {
        self.sets.openings
    }

    /// The spinning card types.
    #[inline]
    pub fn spinning(&self) -> CardSet {
        self.sets.spinning
    }

    /// Every card type, in deck order.
    pub fn cards(&self) -> impl Iterator<Item = Card> {
        (0..self.types.len() as u8).map(Card::new)
    }

    pub fn total_cards(&self) -> usize {
        self.types.iter().map(|t| t.count as usize).sum()
    }
}

/// Reads a card's `numbers`: one status for all its numbers
/// (`"reconstructed"`), or a table with the status of each number it has
/// (`{ count = "reconstructed", damage = "confirmed" }`), no more, no fewer.
fn number_status(value: Option<&toml::Value>, has_damage: bool, has_heal: bool) -> Result<NumberStatus, String> {
    const EXPECTED: &str = "expected \"confirmed\" or \"reconstructed\"";
    let status = |value: &toml::Value, what: &str| -> Result<Status, String> {
        match value {
            toml::Value::String(name) => Status::from_name(name).ok_or_else(|| format!("{what}{name:?}: {EXPECTED}")),
            _ => Err(format!("{what}must be a string: {EXPECTED}")),
        }
    };
    match value {
        None => Err("is missing".into()),
        Some(toml::Value::Table(table)) => {
            let present = [("count", true), ("damage", has_damage), ("heal", has_heal)];
            for key in table.keys() {
                match present.iter().find(|(name, _)| name == key) {
                    Some((_, true)) => {}
                    Some((_, false)) => return Err(format!("`{key}`: this card has no {key}")),
                    None => return Err(format!("unknown number `{key}` (numbers: count, damage, heal)")),
                }
            }
            let get = |name: &str| -> Result<Status, String> {
                let value = table.get(name).ok_or_else(|| format!("the status of `{name}` is missing"))?;
                status(value, &format!("`{name}`: "))
            };
            Ok(NumberStatus {
                count: get("count")?,
                damage: has_damage.then(|| get("damage")).transpose()?,
                heal: has_heal.then(|| get("heal")).transpose()?,
            })
        }
        Some(value) => {
            let all = status(value, "")?;
            Ok(NumberStatus { count: all, damage: has_damage.then_some(all), heal: has_heal.then_some(all) })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_deck_loads() {
        let deck = Deck::standard();
        assert_eq!(deck.len(), 24);
        assert_eq!(deck.total_cards(), 102);
        let jab = deck.card(deck.find("jab").unwrap());
        assert_eq!((jab.kind, jab.damage, jab.headlock_free), (CardKind::Attack, 1, true));
        let reconstructed =
            NumberStatus { count: Status::Reconstructed, damage: Some(Status::Reconstructed), heal: None };
        assert_eq!(jab.status, reconstructed);
    }

    #[test]
    fn malformed_deck_names_file_card_and_field() {
        let text = "[[card]]\nname = \"Jab\"\ncode = \"jab\"\nkind = \"attack\"\ncount = 4\ndamage = \"lots\"\nnumbers = \"confirmed\"\n";
        let e = Deck::parse(text, "my.toml").unwrap_err().to_string();
        assert_eq!(e, "deck file my.toml, card #1 (\"Jab\"), field `damage`: must be an integer");
    }
}
