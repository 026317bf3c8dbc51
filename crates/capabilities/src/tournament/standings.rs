//! A tournament's table and its next pairing, from what the store holds:
//! plain functions of the stored rows, so that every node computes the
//! same table and whichever node pairs, pairs the same way. The rules
//! themselves are `menagerie_league`'s.

use crate::store::tournaments::{Entrant, GameOutcome, Kind, Paired, TournamentGame};
use menagerie_league::arena::{self, ArenaRules, Entry, PlayedGame, Sheet, Waiting};
use menagerie_league::round_robin::{self, GameResult};
use menagerie_league::Outcome;
use std::collections::HashMap;

/// One line of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub account: String,
    pub username: String,
    /// 1 for the first line; a round robin's equal lines share a rank.
    pub rank: usize,
    /// An arena's points, or twice a round robin's (whole numbers: a draw
    /// is 1).
    pub score: u32,
    /// Each scored game's points, oldest first (an arena's sheet).
    pub sheet: Vec<u32>,
    /// Two wins in a row: the next win or draw counts double.
    pub fire: bool,
    pub rating: i64,
    pub games: usize,
    pub withdrawn: bool,
    /// The game they are playing, if any.
    pub playing: Option<String>,
}

/// How `game` went for the seat `seat`, once scored.
fn outcome_for(game: &TournamentGame, seat: usize) -> Option<Outcome> {
    let first = match game.outcome? {
        GameOutcome::First => Outcome::Win,
        GameOutcome::Second => Outcome::Loss,
        GameOutcome::Draw => Outcome::Draw,
    };
    Some(if seat == 0 { first } else { first.reversed() })
}

/// The table of a tournament of `kind`: `entrants`, their `ratings` (by
/// account, the tiebreak of an arena) and the `games` so far, in the order
/// they were paired.
pub fn table(kind: Kind, entrants: &[Entrant], ratings: &HashMap<String, i64>, games: &[TournamentGame]) -> Vec<Line> {
    let rating = |account: &str| ratings.get(account).copied().unwrap_or(1500);
    let playing = |account: &str| {
        games.iter().find(|g| g.outcome.is_none() && g.seat_of(account).is_some()).map(|g| g.game.clone())
    };
    let mut lines: Vec<Line> = entrants
        .iter()
        .map(|entrant| {
            let played: Vec<PlayedGame> = games
                .iter()
                .filter_map(|g| {
                    let seat = g.seat_of(&entrant.account)?;
                    Some(PlayedGame {
                        outcome: outcome_for(g, seat)?,
                        berserk: g.berserk[seat],
                        moves: g.moves[seat].max(0) as u32,
                    })
                })
                .collect();
            let sheet = Sheet::new(&played, &ArenaRules::default());
            Line {
                account: entrant.account.clone(),
                username: entrant.username.clone(),
                rank: 0,
                score: sheet.points,
                sheet: sheet.scores.iter().map(|s| s.points).collect(),
                fire: sheet.on_fire,
                rating: rating(&entrant.account),
                games: played.len(),
                withdrawn: entrant.withdrawn.is_some(),
                playing: playing(&entrant.account),
            }
        })
        .collect();
    match kind {
        Kind::Arena => {
            let entries: Vec<Entry<String>> = lines
                .iter()
                .map(|l| Entry { id: l.account.clone(), points: l.score, tiebreak: l.rating as f64 })
                .collect();
            let order: Vec<String> = arena::standings(&entries).into_iter().map(|e| e.id).collect();
            lines.sort_by_key(|l| order.iter().position(|id| *id == l.account));
            for (index, line) in lines.iter_mut().enumerate() {
                line.rank = index + 1;
            }
        }
        Kind::RoundRobin => {
            let players: Vec<String> = entrants.iter().map(|e| e.account.clone()).collect();
            let results: Vec<GameResult<String>> = games
                .iter()
                .filter_map(|g| {
                    Some(GameResult {
                        first: g.first.clone(),
                        second: g.second.clone(),
                        first_outcome: outcome_for(g, 0)?,
                    })
                })
                .collect();
            // Results name entrants only (the store's keys): never an error.
            let table = round_robin::standings(&players, &results).unwrap_or_default();
            let mut ordered = Vec::with_capacity(lines.len());
            for standing in table {
                if let Some(index) = lines.iter().position(|l| l.account == standing.id) {
                    let mut line = lines.swap_remove(index);
                    line.rank = standing.place;
                    line.score = (standing.points * 2.0).round() as u32;
                    line.sheet = Vec::new();
                    line.fire = false;
                    ordered.push(line);
                }
            }
            lines = ordered;
        }
    }
    lines
}

/// How many games each entrant has in the tournament (the slot its next
/// game takes).
fn games_of(account: &str, games: &[TournamentGame]) -> i64 {
    games.iter().filter(|g| g.seat_of(account).is_some()).count() as i64
}

/// The arena's next games: the entrants still in and not playing, paired
/// by `menagerie_league::arena::pair` from `table` (ids from `new_id`).
pub fn arena_pairing(table: &[Line], games: &[TournamentGame], mut new_id: impl FnMut() -> String) -> Vec<Paired> {
    let active: Vec<&Line> = table.iter().filter(|l| !l.withdrawn).collect();
    let waiting: Vec<Waiting<String>> = active
        .iter()
        .filter(|l| l.playing.is_none())
        .map(|line| {
            let mine: Vec<&TournamentGame> = games.iter().filter(|g| g.seat_of(&line.account).is_some()).collect();
            let last_opponent =
                mine.last().map(|g| if g.first == line.account { &g.second } else { &g.first }).cloned();
            let firsts = mine.iter().filter(|g| g.first == line.account).count() as i32;
            Waiting {
                entry: Entry { id: line.account.clone(), points: line.score, tiebreak: line.rating as f64 },
                last_opponent,
                first_move_balance: 2 * firsts - mine.len() as i32,
            }
        })
        .collect();
    if waiting.len() < 2 {
        return Vec::new();
    }
    arena::pair(&waiting, active.len())
        .games
        .into_iter()
        .map(|(first, second)| {
            let nth = [games_of(&first, games), games_of(&second, games)];
            Paired { game: new_id(), first, second, nth }
        })
        .collect()
}

/// A round robin's players: those who entered before it started and had
/// not left by then, in the order they joined.
pub fn round_robin_players(entrants: &[Entrant], started: i64) -> Vec<String> {
    entrants
        .iter()
        .filter(|e| e.joined <= started && e.withdrawn.is_none_or(|at| at > started))
        .map(|e| e.account.clone())
        .collect()
}

/// A round robin's round `round` (from 1) of the circle method over
/// `players`, leaving out the games of players who have withdrawn since
/// (`withdrawn`): `None` past the last round.
pub fn round_robin_round(
    players: &[String],
    round: usize,
    withdrawn: &[String],
    games: &[TournamentGame],
    mut new_id: impl FnMut() -> String,
) -> Option<Vec<Paired>> {
    let schedule = round_robin::schedule(players);
    let this = schedule.get(round.checked_sub(1)?)?;
    Some(
        this.games
            .iter()
            .filter(|(a, b)| !withdrawn.contains(a) && !withdrawn.contains(b))
            .map(|(first, second)| Paired {
                game: new_id(),
                first: first.clone(),
                second: second.clone(),
                nth: [games_of(first, games), games_of(second, games)],
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrant(account: &str, seed: i64, withdrawn: Option<i64>) -> Entrant {
        Entrant { account: account.into(), username: account.to_uppercase(), seed, joined: 0, withdrawn }
    }

    fn game(id: &str, first: &str, second: &str, outcome: Option<GameOutcome>) -> TournamentGame {
        TournamentGame {
            game: id.into(),
            tournament: "t".into(),
            round: 1,
            first: first.into(),
            second: second.into(),
            paired: 0,
            berserk: [false, false],
            outcome,
            moves: [10, 10],
        }
    }

    fn ids() -> impl FnMut() -> String {
        let mut n = 0;
        move || {
            n += 1;
            format!("g{n}")
        }
    }

    fn pairs(paired: &[Paired]) -> Vec<(String, String)> {
        let mut pairs: Vec<_> = paired
            .iter()
            .map(|p| {
                if p.first < p.second {
                    (p.first.clone(), p.second.clone())
                } else {
                    (p.second.clone(), p.first.clone())
                }
            })
            .collect();
        pairs.sort();
        pairs
    }

    #[test]
    fn the_arena_table_scores_streaks_and_berserk_from_the_stored_games() {
        let entrants = [entrant("a", 0, None), entrant("b", 1, None), entrant("c", 2, None)];
        let mut games = vec![
            game("1", "a", "b", Some(GameOutcome::First)),
            game("2", "c", "a", Some(GameOutcome::Second)),
            game("3", "a", "b", Some(GameOutcome::First)),
            game("4", "b", "c", Some(GameOutcome::Draw)),
            game("5", "c", "b", None),
        ];
        games[2].berserk = [true, false];
        let table = table(Kind::Arena, &entrants, &HashMap::new(), &games);
        let a = &table[0];
        // Win 2, win 2 (fire), win on fire 4 + berserk 1.
        assert_eq!((a.account.as_str(), a.rank, a.score, a.sheet.clone(), a.fire), ("a", 1, 9, vec![2, 2, 5], true));
        let rest: Vec<_> = table[1..].iter().map(|l| (l.account.as_str(), l.score, l.playing.clone())).collect();
        assert_eq!(rest, [("b", 1, Some("5".into())), ("c", 1, Some("5".into()))]);
    }

    #[test]
    fn a_withdrawn_player_is_not_paired_and_busy_players_wait() {
        let entrants = [
            entrant("a", 0, None),
            entrant("b", 1, Some(5)),
            entrant("c", 2, None),
            entrant("d", 3, None),
            entrant("e", 4, None),
        ];
        let games = vec![game("1", "d", "e", None)];
        let table = table(Kind::Arena, &entrants, &HashMap::new(), &games);
        let paired = arena_pairing(&table, &games, ids());
        assert_eq!(pairs(&paired), [("a".into(), "c".into())]);
        assert_eq!(paired[0].nth, [0, 0]);
    }

    #[test]
    fn no_immediate_rematch_while_others_play_but_one_with_two_players_only() {
        // a and b just finished; c and d still play: a and b wait.
        let games = vec![game("1", "a", "b", Some(GameOutcome::Draw)), game("2", "c", "d", None)];
        let four = [entrant("a", 0, None), entrant("b", 1, None), entrant("c", 2, None), entrant("d", 3, None)];
        let table_four = table(Kind::Arena, &four, &HashMap::new(), &games);
        assert!(arena_pairing(&table_four, &games, ids()).is_empty());
        // With only the two of them in the tournament, they meet again,
        // each in their second slot, the colours swapped.
        let two = &four[..2];
        let games = &games[..1];
        let table_two = table(Kind::Arena, two, &HashMap::new(), games);
        let paired = arena_pairing(&table_two, games, ids());
        assert_eq!(pairs(&paired), [("a".into(), "b".into())]);
        assert_eq!((paired[0].first.as_str(), paired[0].nth), ("b", [1, 1]));
        // A third player in the tournament and not waiting (withdrawn
        // counts out): the two still meet.
        let mut three = four[..3].to_vec();
        three[2].withdrawn = Some(1);
        let table_three = table(Kind::Arena, &three, &HashMap::new(), games);
        assert_eq!(arena_pairing(&table_three, games, ids()).len(), 1);
    }

    #[test]
    fn round_robin_rounds_follow_the_schedule_and_skip_the_withdrawn() {
        let entrants = [entrant("a", 0, None), entrant("b", 1, None), entrant("c", 2, None), entrant("late", 3, None)];
        let mut entrants = entrants.to_vec();
        entrants[3].joined = 100;
        let players = round_robin_players(&entrants, 50);
        assert_eq!(players, ["a", "b", "c"]);
        let mut all = Vec::new();
        for round in 1..=3 {
            let paired = round_robin_round(&players, round, &[], &[], ids()).unwrap();
            assert_eq!(paired.len(), 1, "three players: one game and a bye a round");
            all.extend(pairs(&paired));
        }
        all.sort();
        assert_eq!(all, [("a".into(), "b".into()), ("a".into(), "c".into()), ("b".into(), "c".into())]);
        assert_eq!(round_robin_round(&players, 4, &[], &[], ids()), None);
        let round_one = round_robin_round(&players, 1, &[], &[], ids()).unwrap();
        let gone = vec![round_one[0].first.clone()];
        assert!(round_robin_round(&players, 1, &gone, &[], ids()).unwrap().is_empty());
        // The table: 1 a win, ½ a draw, doubled to whole numbers.
        let games = vec![game("1", "a", "b", Some(GameOutcome::First)), game("2", "b", "c", Some(GameOutcome::Draw))];
        let table = table(Kind::RoundRobin, &entrants[..3], &HashMap::new(), &games);
        let seen: Vec<_> = table.iter().map(|l| (l.account.as_str(), l.rank, l.score)).collect();
        assert_eq!(seen, [("a", 1, 2), ("b", 2, 1), ("c", 2, 1)]);
    }
}
