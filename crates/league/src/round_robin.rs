//! Round robins for small events (an inventors' club): everyone plays
//! everyone once, and the table is points, then Sonneborn-Berger.
//!
//! The schedule is the circle method: one seat stays put while the others
//! turn one place a round, and each round pairs the seats across the circle.
//! With an even number of players the first seed holds the fixed seat; with
//! an odd number a bye does, so each player sits out exactly one round. Who
//! moves first alternates so that, with an odd number of players, everyone
//! moves first and second in turn and equally often; with an even number
//! (an odd number of games each, so everyone is one off) nobody's firsts and
//! seconds differ by more than one, nor come three in a row.
//!
//! Points are 1 a win, ½ a draw, 0 a loss, and a bye scores nothing (everyone
//! has one). Ties are broken by Sonneborn-Berger, the points of the players
//! one beat plus half the points of those one drew with, which rewards
//! results against the stronger field; players equal on both share a place.

use std::collections::BTreeMap;

use crate::Outcome;

/// One round of the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round<Id> {
    /// The games, the player to move first first.
    pub games: Vec<(Id, Id)>,
    /// Who sits out this round, when the number of players is odd.
    pub bye: Option<Id>,
}

/// The whole schedule for `players` in seed order: one round fewer than the
/// players (as many as the players when they are odd). Fewer than two
/// players have no games and no rounds.
pub fn schedule<Id: Clone>(players: &[Id]) -> Vec<Round<Id>> {
    if players.len() < 2 {
        return Vec::new();
    }
    // Seats: None is the bye, which takes the fixed seat when it exists.
    let mut seats: Vec<Option<&Id>> = players.iter().map(Some).collect();
    if seats.len() % 2 == 1 {
        seats.insert(0, None);
    }
    let n = seats.len();
    let (fixed, turning) = (seats[0], &seats[1..]);
    (0..n - 1)
        .map(|round| {
            // The turning seats, moved on by one place a round.
            let circle: Vec<Option<&Id>> =
                std::iter::once(fixed).chain((0..n - 1).map(|k| turning[(k + n - 1 - round) % (n - 1)])).collect();
            let mut games = Vec::with_capacity(n / 2);
            let mut bye = None;
            for across in 0..n / 2 {
                let (left, right) = (circle[across], circle[n - 1 - across]);
                // The fixed seat alternates by round, the others by place.
                let left_first = if across == 0 { round % 2 == 0 } else { across % 2 == 0 };
                match (left, right) {
                    (Some(left), Some(right)) if left_first => games.push((left.clone(), right.clone())),
                    (Some(left), Some(right)) => games.push((right.clone(), left.clone())),
                    (None, Some(player)) | (Some(player), None) => bye = Some(player.clone()),
                    (None, None) => unreachable!("one bye seat at most"),
                }
            }
            Round { games, bye }
        })
        .collect()
}

/// A finished round-robin game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult<Id> {
    pub first: Id,
    pub second: Id,
    /// How the game went for `first`.
    pub first_outcome: Outcome,
}

/// One line of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing<Id> {
    pub id: Id,
    /// Shared by players equal on points and Sonneborn-Berger: 1, 2, 2, 4...
    pub place: usize,
    pub points: f64,
    pub sonneborn_berger: f64,
    pub games: u32,
}

/// Why a table could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StandingsError {
    #[error("a result names a player who is not in the tournament")]
    UnknownPlayer,
    #[error("a result has a player playing themselves")]
    SelfPlay,
}

/// The table of `players` (seed order, which orders players who share a
/// place) after `results`.
pub fn standings<Id: Ord + Clone>(
    players: &[Id],
    results: &[GameResult<Id>],
) -> Result<Vec<Standing<Id>>, StandingsError> {
    let seed: BTreeMap<&Id, usize> = players.iter().enumerate().map(|(index, id)| (id, index)).collect();
    let mut points = vec![0.0; players.len()];
    let mut games = vec![0u32; players.len()];
    // (player, opponent, player's score) for each side of each game.
    let mut scores = Vec::with_capacity(results.len() * 2);
    for result in results {
        let (Some(&first), Some(&second)) = (seed.get(&result.first), seed.get(&result.second)) else {
            return Err(StandingsError::UnknownPlayer);
        };
        if first == second {
            return Err(StandingsError::SelfPlay);
        }
        let score = result.first_outcome.score();
        scores.push((first, second, score));
        scores.push((second, first, 1.0 - score));
    }
    for &(player, _, score) in &scores {
        points[player] += score;
        games[player] += 1;
    }
    let mut sonneborn_berger = vec![0.0; players.len()];
    for &(player, opponent, score) in &scores {
        sonneborn_berger[player] += score * points[opponent];
    }
    let mut order: Vec<usize> = (0..players.len()).collect();
    let key = |index: usize| (points[index], sonneborn_berger[index]);
    // Halves and quarters are exact in f64: equal means equal.
    order.sort_by(|&a, &b| key(b).partial_cmp(&key(a)).expect("points are finite").then(a.cmp(&b)));
    let mut table: Vec<Standing<Id>> = Vec::with_capacity(players.len());
    for (position, &index) in order.iter().enumerate() {
        let place = match table.last() {
            Some(above) if (above.points, above.sonneborn_berger) == key(index) => above.place,
            _ => position + 1,
        };
        table.push(Standing {
            id: players[index].clone(),
            place,
            points: points[index],
            sonneborn_berger: sonneborn_berger[index],
            games: games[index],
        });
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use Outcome::{Draw, Loss, Win};

    /// Every player meets every other exactly once and plays at most once a
    /// round; returns each player's sequence of moving first (true) or second.
    fn check_schedule(n: usize) -> Vec<Vec<bool>> {
        let players: Vec<usize> = (0..n).collect();
        let rounds = schedule(&players);
        assert_eq!(
            rounds.len(),
            if n < 2 {
                0
            } else if n.is_multiple_of(2) {
                n - 1
            } else {
                n
            },
            "{n} players"
        );
        let mut met = BTreeSet::new();
        let mut colours = vec![Vec::new(); n];
        let mut byes = vec![0; n];
        for round in &rounds {
            let mut seated: Vec<usize> = round.games.iter().flat_map(|&(a, b)| [a, b]).chain(round.bye).collect();
            seated.sort();
            assert_eq!(seated, players, "everyone once a round");
            for &(first, second) in &round.games {
                assert!(met.insert((first.min(second), first.max(second))), "{first} and {second} met twice");
                colours[first].push(true);
                colours[second].push(false);
            }
            if let Some(bye) = round.bye {
                byes[bye] += 1;
            }
        }
        assert_eq!(met.len(), n * n.saturating_sub(1) / 2, "every pair met");
        if n >= 2 {
            assert_eq!(byes, vec![n % 2; n], "one bye each when odd, none when even");
        }
        colours
    }

    #[test]
    fn the_circle_meets_everyone_once_with_balanced_colours() {
        for n in 0..=20 {
            let colours = check_schedule(n);
            for (player, sequence) in colours.iter().enumerate() {
                let firsts = sequence.iter().filter(|&&first| first).count() as i64;
                let balance = 2 * firsts - sequence.len() as i64;
                let longest_run = sequence.chunk_by(|a, b| a == b).map(<[bool]>::len).max().unwrap_or(0);
                if n % 2 == 1 {
                    assert_eq!(balance, 0, "{n} players, player {player}: {sequence:?}");
                    assert!(longest_run <= 1, "{n} players, player {player}: {sequence:?}");
                } else {
                    assert!(balance.abs() <= 1, "{n} players, player {player}: {sequence:?}");
                    assert!(longest_run <= 2, "{n} players, player {player}: {sequence:?}");
                }
            }
        }
    }

    #[test]
    fn four_players_by_hand() {
        let rounds = schedule(&["ann", "ben", "cat", "dan"]);
        let expected = [
            vec![("ann", "dan"), ("cat", "ben")],
            vec![("cat", "ann"), ("ben", "dan")],
            vec![("ann", "ben"), ("dan", "cat")],
        ];
        for (round, games) in rounds.iter().zip(expected) {
            assert_eq!(round.games, games);
            assert_eq!(round.bye, None);
        }
    }

    #[test]
    fn three_players_take_turns_to_sit_out() {
        let rounds = schedule(&["ann", "ben", "cat"]);
        let byes: Vec<_> = rounds.iter().map(|round| round.bye.unwrap()).collect();
        assert_eq!(byes.len(), 3);
        assert_eq!(byes.iter().collect::<BTreeSet<_>>().len(), 3);
        assert!(rounds.iter().all(|round| round.games.len() == 1));
    }

    #[test]
    fn one_player_or_none_has_no_rounds() {
        assert!(schedule::<u8>(&[]).is_empty());
        assert!(schedule(&["solo"]).is_empty());
        assert_eq!(schedule(&["a", "b"]), [Round { games: vec![("a", "b")], bye: None }]);
    }

    fn result(first: &'static str, second: &'static str, first_outcome: Outcome) -> GameResult<&'static str> {
        GameResult { first, second, first_outcome }
    }

    #[test]
    fn points_then_sonneborn_berger() {
        // Ann beats Ben, draws Cat, loses to Dan: 1.5.
        // Ben beats Cat and Dan: 2.   Cat beats Dan, draws Ann: 1.5.
        // Dan beats Ann: 1.
        let results = [
            result("ann", "ben", Win),
            result("cat", "ann", Draw),
            result("ann", "dan", Loss),
            result("ben", "cat", Win),
            result("dan", "ben", Loss),
            result("cat", "dan", Win),
        ];
        let table = standings(&["ann", "ben", "cat", "dan"], &results).unwrap();
        let line = |id: &str| table.iter().find(|s| s.id == id).unwrap().clone();
        // Sonneborn-Berger: Ann = Ben 2 + ½·Cat 1.5 = 2.75; Cat = Dan 1 + ½·Ann 1.5 = 1.75.
        assert_eq!((line("ann").points, line("ann").sonneborn_berger), (1.5, 2.75));
        assert_eq!((line("cat").points, line("cat").sonneborn_berger), (1.5, 1.75));
        assert_eq!((line("ben").points, line("ben").sonneborn_berger), (2.0, 2.5));
        assert_eq!((line("dan").points, line("dan").sonneborn_berger), (1.0, 1.5));
        let order: Vec<_> = table.iter().map(|s| (s.id, s.place)).collect();
        assert_eq!(order, [("ben", 1), ("ann", 2), ("cat", 3), ("dan", 4)]);
        assert!(table.iter().all(|s| s.games == 3));
    }

    #[test]
    fn full_ties_share_a_place_in_seed_order() {
        // Three draws all round: everyone 1 point, SB 1.
        let results = [result("a", "b", Draw), result("b", "c", Draw), result("c", "a", Draw)];
        let table = standings(&["c", "a", "b"], &results).unwrap();
        let order: Vec<_> = table.iter().map(|s| (s.id, s.place, s.points, s.sonneborn_berger)).collect();
        assert_eq!(order, [("c", 1, 1.0, 1.0), ("a", 1, 1.0, 1.0), ("b", 1, 1.0, 1.0)]);
        // Before any game, everyone shares first place.
        let empty = standings(&["x", "y"], &[]).unwrap();
        assert!(empty.iter().all(|s| s.place == 1 && s.points == 0.0 && s.games == 0));
        // A place after a shared one skips: 1, 1, 3.
        let results = [result("a", "c", Win), result("b", "c", Win)];
        let places: Vec<_> = standings(&["a", "b", "c"], &results).unwrap().iter().map(|s| s.place).collect();
        assert_eq!(places, [1, 1, 3]);
    }

    #[test]
    fn results_about_strangers_or_self_play_are_errors() {
        assert_eq!(standings(&["a", "b"], &[result("a", "zed", Win)]), Err(StandingsError::UnknownPlayer));
        assert_eq!(standings(&["a", "b"], &[result("a", "a", Draw)]), Err(StandingsError::SelfPlay));
    }
}
