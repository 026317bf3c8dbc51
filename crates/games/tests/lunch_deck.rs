//! The deck file: each number of a card carries its own status (confirmed by
//! what is known of Lunch Money, or our reconstruction), and the loader is
//! strict about what it reads.

use menagerie_games::lunch::deck::{Deck, DeckError, NumberStatus, Status};

const CONFIRMED: Status = Status::Confirmed;
const RECONSTRUCTED: Status = Status::Reconstructed;

fn status(deck: &Deck, code: &str) -> NumberStatus {
    deck.card(deck.find(code).unwrap_or_else(|| panic!("no card {code}"))).status
}

#[test]
fn the_standard_deck_confirms_damage_and_heal_but_not_the_counts() {
    let deck = Deck::standard();
    for code in ["hammer", "chain", "knife", "poke", "choke"] {
        let expected = NumberStatus { count: RECONSTRUCTED, damage: Some(CONFIRMED), heal: None };
        assert_eq!(status(&deck, code), expected, "{code}");
    }
    let first_aid = NumberStatus { count: RECONSTRUCTED, damage: None, heal: Some(CONFIRMED) };
    assert_eq!(status(&deck, "firstaid"), first_aid);
    let guessed = NumberStatus { count: RECONSTRUCTED, damage: Some(RECONSTRUCTED), heal: None };
    for code in ["jab", "kick", "backfist", "combo", "stomp", "uppercut2"] {
        assert_eq!(status(&deck, code), guessed, "{code}");
    }
    for t in &deck.types {
        assert_eq!(t.status.count, RECONSTRUCTED, "no count is confirmed ({})", t.name);
    }
}

const HAMMER: &str = "[[card]]\nname = \"Hammer\"\ncode = \"hammer\"\nkind = \"weapon\"\ncount = 1\ndamage = 3\n";

fn parse(numbers: &str) -> Result<Deck, DeckError> {
    Deck::parse(&format!("{HAMMER}numbers = {numbers}\n"), "my.toml")
}

fn error(numbers: &str) -> String {
    parse(numbers).expect_err(numbers).to_string()
}

#[test]
fn one_status_stands_for_every_number_of_the_card() {
    let deck = parse("\"confirmed\"").unwrap();
    assert_eq!(status(&deck, "hammer"), NumberStatus { count: CONFIRMED, damage: Some(CONFIRMED), heal: None });
}

#[test]
fn a_table_gives_each_number_its_status() {
    let deck = parse("{ count = \"reconstructed\", damage = \"confirmed\" }").unwrap();
    assert_eq!(status(&deck, "hammer"), NumberStatus { count: RECONSTRUCTED, damage: Some(CONFIRMED), heal: None });
}

#[test]
fn the_statuses_must_match_the_cards_numbers_exactly() {
    let prefix = "deck file my.toml, card #1 (\"Hammer\"), field `numbers`: ";
    assert_eq!(error("{ count = \"reconstructed\" }"), format!("{prefix}the status of `damage` is missing"));
    assert_eq!(
        error("{ count = \"reconstructed\", damage = \"confirmed\", heal = \"confirmed\" }"),
        format!("{prefix}`heal`: this card has no heal")
    );
    assert_eq!(
        error("{ count = \"reconstructed\", dmg = \"confirmed\" }"),
        format!("{prefix}unknown number `dmg` (numbers: count, damage, heal)")
    );
    assert_eq!(
        error("{ count = \"reconstructed\", damage = \"sure\" }"),
        format!("{prefix}`damage`: \"sure\": expected \"confirmed\" or \"reconstructed\"")
    );
    assert_eq!(error("true"), format!("{prefix}must be a string: expected \"confirmed\" or \"reconstructed\""));
    let missing = Deck::parse(HAMMER, "my.toml").unwrap_err().to_string();
    assert_eq!(missing, format!("{prefix}is missing"));
}
