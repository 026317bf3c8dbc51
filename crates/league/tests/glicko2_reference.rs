//! Glicko-2 checked against a second, independent computation: the table
//! `glicko2_reference.tsv`, written by `glicko2_reference.py` (a separate
//! transcription of the paper and of lichess's bounds, in Python), on 150
//! rating periods of up to six games and 150 lichess games, with the bounds
//! reached in dozens of them. Regenerate it with
//!
//!     python3 crates/league/tests/glicko2_reference.py > crates/league/tests/glicko2_reference.tsv

use menagerie_league::glicko2::{rate_game, rate_period, Game, Rating};
use menagerie_league::Outcome;

const TABLE: &str = include_str!("glicko2_reference.tsv");

/// Both stop the volatility's iteration at a 1e-6 bracket on ln σ'², where
/// rounding in a different order may take one step more or less: they agree
/// to about 1e-7 in σ' and far better than a thousandth of a rating point.
fn assert_agrees(case: usize, actual: Rating, expected: Rating) {
    let agrees = (actual.rating - expected.rating).abs() < 1e-3
        && (actual.deviation - expected.deviation).abs() < 1e-3
        && (actual.volatility - expected.volatility).abs() < 1e-6;
    assert!(agrees, "case {case}: computed {actual:?}, the reference has {expected:?}");
}

fn rating(fields: &[f64]) -> Rating {
    Rating { rating: fields[0], deviation: fields[1], volatility: fields[2] }
}

fn outcome(score: f64) -> Outcome {
    match score {
        1.0 => Outcome::Win,
        0.5 => Outcome::Draw,
        0.0 => Outcome::Loss,
        _ => panic!("score {score} in the table"),
    }
}

#[test]
fn agrees_with_the_reference_table() {
    let (mut periods, mut games) = (0, 0);
    for (case, line) in TABLE.lines().enumerate().filter(|(_, line)| !line.starts_with('#')) {
        let mut words = line.split_whitespace();
        let kind = words.next().unwrap();
        let numbers: Vec<f64> = words.map(|word| word.parse().unwrap()).collect();
        match kind {
            "period" => {
                let (tau, elapsed) = (numbers[0], numbers[1]);
                let played: Vec<Game> = numbers[8..]
                    .chunks(3)
                    .map(|game| Game { opponent: rating(&[game[0], game[1], 0.06]), score: game[2] })
                    .collect();
                let rated = rate_period(rating(&numbers[2..5]), &played, tau, elapsed);
                assert_agrees(case, rated, rating(&numbers[5..8]));
                periods += 1;
            }
            "game" => {
                let [first, second] = rate_game(
                    rating(&numbers[0..3]),
                    numbers[3],
                    rating(&numbers[4..7]),
                    numbers[7],
                    outcome(numbers[8]),
                );
                assert_agrees(case, first, rating(&numbers[9..12]));
                assert_agrees(case, second, rating(&numbers[12..15]));
                games += 1;
            }
            other => panic!("unknown line kind {other}"),
        }
    }
    assert_eq!((periods, games), (150, 150), "the whole table was checked");
}
