//! Arena tournaments as lichess runs them: for a fixed time, players who have
//! finished a game are paired again at once, and the one with the most points
//! at the end wins.
//!
//! Scoring ([`Sheet`]): 2 points a win, 1 a draw, 0 a loss. Two wins in a row
//! set a player on fire: from the next game on, a win scores 4 and a draw 2,
//! until a game that is not a win puts the fire out. A player who berserked
//! (halved their own clock) gets one more point for a win, if they played at
//! least [`ArenaRules::berserk_min_moves`] moves in it (lichess: 7), so that
//! berserking and then winning on a quick flag or resignation earns nothing.
//! Lichess has two more rules this leaves out for now: a draw in under ten
//! moves scores nothing, and only the first of consecutive draws scores
//! unless it lasts thirty moves.
//!
//! Pairing ([`pair`]): the players waiting for a game are paired so that
//! opponents' scores are as near as they can be, and then their places among
//! the waiting (lichess pairs by rank), never with the opponent one of
//! them just played while the tournament has anyone else to offer: lichess
//! then leaves them waiting for the next pairing rather than make an
//! immediate rematch, and allows one only when they are its only two active
//! players. With an odd number, one waits. Each pair is oriented so that the
//! player who has had fewer first moves moves first.
//!
//! Everything here is a pure function of the standings the caller stores, so
//! whichever node pairs a round, it pairs it the same way.

use std::cmp::Ordering;
use std::collections::BTreeSet;

use crate::Outcome;

/// The arena's adjustable rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaRules {
    /// A berserk win earns its extra point only if the berserking player made
    /// at least this many moves (turns of their own) in the game.
    pub berserk_min_moves: u32,
}

impl Default for ArenaRules {
    /// Lichess's: at least 7 moves for a berserk point.
    fn default() -> Self {
        ArenaRules { berserk_min_moves: 7 }
    }
}

/// One finished arena game, from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    pub outcome: Outcome,
    /// The player halved their own clock for this game.
    pub berserk: bool,
    /// The moves (turns) the player made in the game.
    pub moves: u32,
}

/// What one game scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    pub points: u32,
    /// The player was on fire: the win or draw counted double.
    pub doubled: bool,
    /// The point for a berserk win is among `points`.
    pub berserk_point: bool,
}

/// A player's arena score sheet: every game scored, in the order played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sheet {
    pub scores: Vec<Score>,
    pub points: u32,
    /// The player's last two games were wins: their next win or draw counts
    /// double (lichess shows a flame).
    pub on_fire: bool,
}

impl Sheet {
    /// Scores `games`, oldest first.
    pub fn new(games: &[PlayedGame], rules: &ArenaRules) -> Sheet {
        let mut scores = Vec::with_capacity(games.len());
        let mut wins_in_a_row = 0;
        for game in games {
            let doubled = wins_in_a_row >= 2 && game.outcome != Outcome::Loss;
            let base = match game.outcome {
                Outcome::Win => 2,
                Outcome::Draw => 1,
                Outcome::Loss => 0,
            };
            let berserk_point = game.berserk && game.outcome == Outcome::Win && game.moves >= rules.berserk_min_moves;
            let points = base * if doubled { 2 } else { 1 } + u32::from(berserk_point);
            scores.push(Score { points, doubled, berserk_point });
            wins_in_a_row = if game.outcome == Outcome::Win { wins_in_a_row + 1 } else { 0 };
        }
        let points = scores.iter().map(|score| score.points).sum();
        Sheet { scores, points, on_fire: wins_in_a_row >= 2 }
    }
}

/// A player as the standings and the pairing see them.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry<Id> {
    pub id: Id,
    pub points: u32,
    /// What orders players with equal points, higher first: their rating
    /// while the tournament runs; lichess's final table uses the tournament
    /// performance, which the caller may pass instead.
    pub tiebreak: f64,
}

/// The standings order: more points first, then the higher tiebreak, then
/// the smaller id, so that the order is total and the same on every node.
pub fn standings_order<Id: Ord>(a: &Entry<Id>, b: &Entry<Id>) -> Ordering {
    b.points.cmp(&a.points).then(b.tiebreak.total_cmp(&a.tiebreak)).then_with(|| a.id.cmp(&b.id))
}

/// The standings: `entries` in [`standings_order`], the first three the
/// podium.
pub fn standings<Id: Ord + Clone>(entries: &[Entry<Id>]) -> Vec<Entry<Id>> {
    let mut sorted = entries.to_vec();
    sorted.sort_by(standings_order);
    sorted
}

/// A player waiting for an arena game.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting<Id> {
    pub entry: Entry<Id>,
    /// Whom they played last in this tournament, if anyone.
    pub last_opponent: Option<Id>,
    /// Their games moving first less their games moving second, so far.
    pub first_move_balance: i32,
}

/// What a pairing decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing<Id> {
    /// The new games, the player to move first first.
    pub games: Vec<(Id, Id)>,
    /// Who waits for the next pairing, in standings order.
    pub unpaired: Vec<Id>,
}

/// How far down the standings of the waiting a player's opponent may be
/// sought. An optimal pairing by nearest rank never reaches far (each player
/// has at most a few forbidden opponents), and the window keeps the search
/// linear in the number waiting.
const WINDOW: usize = 8;

/// Pairs the players waiting for a game; `active_players` is how many
/// players the tournament has now, playing or waiting (an immediate rematch
/// is allowed only when it is two). Among pairings with the most games and
/// no rematch, it takes the one with the least sum of the score differences
/// between opponents, then of their distances in the standings of the
/// waiting; on ties, the lower-placed wait. A player listed twice counts once.
pub fn pair<Id: Ord + Clone>(waiting: &[Waiting<Id>], active_players: usize) -> Pairing<Id> {
    let mut seen = BTreeSet::new();
    let mut players: Vec<&Waiting<Id>> = waiting.iter().filter(|player| seen.insert(&player.entry.id)).collect();
    players.sort_by(|a, b| standings_order(&a.entry, &b.entry));
    let n = players.len();
    let rematches_allowed = active_players <= 2;
    let may_meet = |i: usize, j: usize| {
        let (a, b) = (players[i], players[j]);
        rematches_allowed
            || (a.last_opponent.as_ref() != Some(&b.entry.id) && b.last_opponent.as_ref() != Some(&a.entry.id))
    };

    // A pair costs its score difference, weighed above any sum of standings
    // distances, plus its distance; a player left waiting costs more than any
    // sum of pairs, so the pairing with the most games always wins.
    let distance_sums = (n * WINDOW + 1) as u128;
    let pair_cost = |i: usize, d: usize| {
        let gap = players[i].entry.points.abs_diff(players[i + d].entry.points);
        u128::from(gap) * distance_sums + d as u128
    };
    let widest_gap = players.iter().map(|p| p.entry.points).max().unwrap_or(0)
        - players.iter().map(|p| p.entry.points).min().unwrap_or(0);
    let wait_cost = (u128::from(widest_gap) * distance_sums + WINDOW as u128) * n as u128 + 1;
    // cost[i][mask]: the least cost of settling players i.. when the players
    // i + k with bit k of mask set are already paired with someone before i.
    let masks = 1usize << WINDOW;
    let unreachable = u128::MAX;
    let mut cost = vec![unreachable; (n + 1) * masks];
    cost[n * masks] = 0;
    // The choices at (i, mask) with their costs: None waits, Some(d) pairs
    // player i with player i + d.
    let choices = |cost: &[u128], i: usize, mask: usize| -> Vec<(Option<usize>, u128)> {
        let next = |new_mask: usize| cost[(i + 1) * masks + (new_mask >> 1)];
        if mask & 1 == 1 {
            return vec![(None, next(mask))];
        }
        let mut options = Vec::new();
        for d in 1..=WINDOW.min(n - 1 - i) {
            if mask & (1 << d) == 0 && may_meet(i, i + d) {
                let rest = next(mask | (1 << d));
                if rest != unreachable {
                    options.push((Some(d), pair_cost(i, d) + rest));
                }
            }
        }
        let rest = next(mask);
        if rest != unreachable {
            options.push((None, wait_cost + rest));
        }
        options
    };
    for i in (0..n).rev() {
        for mask in 0..masks {
            // Bits past the last player can never be set.
            if mask >> (n - i).min(WINDOW) != 0 {
                continue;
            }
            let best = choices(&cost, i, mask).iter().map(|&(_, c)| c).min().unwrap_or(unreachable);
            cost[i * masks + mask] = best;
        }
    }

    // Walk the cheapest choices forward; among equal costs the first choice
    // (the nearest opponent, waiting last) wins.
    let mut games = Vec::new();
    let mut unpaired = Vec::new();
    let mut mask = 0;
    for i in 0..n {
        let target = cost[i * masks + mask];
        let (choice, _) = choices(&cost, i, mask)
            .into_iter()
            .find(|&(_, c)| c == target)
            .expect("the cost of a reachable state comes from one of its choices");
        match choice {
            Some(d) => {
                games.push(oriented(players[i], players[i + d]));
                mask |= 1 << d;
            }
            None if mask & 1 == 0 => unpaired.push(players[i].entry.id.clone()),
            None => {}
        }
        mask >>= 1;
    }
    Pairing { games, unpaired }
}

/// The pair with the player who has moved first less often first; on a tie,
/// the higher-placed.
fn oriented<Id: Clone>(higher: &Waiting<Id>, lower: &Waiting<Id>) -> (Id, Id) {
    if lower.first_move_balance < higher.first_move_balance {
        (lower.entry.id.clone(), higher.entry.id.clone())
    } else {
        (higher.entry.id.clone(), lower.entry.id.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Outcome::{Draw, Loss, Win};

    fn game(outcome: Outcome) -> PlayedGame {
        PlayedGame { outcome, berserk: false, moves: 30 }
    }

    fn berserk(outcome: Outcome, moves: u32) -> PlayedGame {
        PlayedGame { outcome, berserk: true, moves }
    }

    fn points(games: &[PlayedGame]) -> Vec<u32> {
        Sheet::new(games, &ArenaRules::default()).scores.iter().map(|score| score.points).collect()
    }

    #[test]
    fn wins_draws_and_losses_score_two_one_and_nothing() {
        let sheet = Sheet::new(&[game(Win), game(Draw), game(Loss), game(Win)], &ArenaRules::default());
        assert_eq!(sheet.scores.iter().map(|s| s.points).collect::<Vec<_>>(), [2, 1, 0, 2]);
        assert_eq!(sheet.points, 5);
        assert!(!sheet.on_fire);
        assert_eq!(Sheet::new(&[], &ArenaRules::default()).points, 0);
    }

    #[test]
    fn two_wins_in_a_row_double_what_follows_until_a_game_is_not_won() {
        // Win, win (fire), win 4, draw 2 (fire out), win 2, win 2, loss 0, win 2.
        let games = [game(Win), game(Win), game(Win), game(Draw), game(Win), game(Win), game(Loss), game(Win)];
        assert_eq!(points(&games), [2, 2, 4, 2, 2, 2, 0, 2]);
        let sheet = Sheet::new(&games, &ArenaRules::default());
        let doubled: Vec<bool> = sheet.scores.iter().map(|s| s.doubled).collect();
        assert_eq!(doubled, [false, false, true, true, false, false, false, false]);
        assert_eq!(sheet.points, 16);
        // A loss on fire scores nothing and is not marked doubled.
        let sheet = Sheet::new(&[game(Win), game(Win), game(Loss)], &ArenaRules::default());
        assert_eq!(sheet.scores[2], Score { points: 0, doubled: false, berserk_point: false });
        assert!(!sheet.on_fire);
    }

    #[test]
    fn the_flame_shows_after_two_wins_and_stays_while_winning() {
        let rules = ArenaRules::default();
        assert!(!Sheet::new(&[game(Win)], &rules).on_fire);
        assert!(Sheet::new(&[game(Win), game(Win)], &rules).on_fire);
        assert!(Sheet::new(&[game(Win), game(Win), game(Win)], &rules).on_fire);
        assert!(!Sheet::new(&[game(Win), game(Win), game(Draw)], &rules).on_fire);
        assert!(!Sheet::new(&[game(Win), game(Draw), game(Win)], &rules).on_fire);
    }

    #[test]
    fn a_berserk_win_earns_one_more_point_with_enough_moves() {
        assert_eq!(points(&[berserk(Win, 7)]), [3]);
        assert_eq!(points(&[berserk(Win, 6)]), [2], "too quick a win");
        assert_eq!(points(&[berserk(Draw, 40)]), [1]);
        assert_eq!(points(&[berserk(Loss, 40)]), [0]);
        // On fire the berserk point is added to the doubled win, not doubled.
        assert_eq!(points(&[game(Win), game(Win), berserk(Win, 20)]), [2, 2, 5]);
        let sheet = Sheet::new(&[berserk(Win, 20)], &ArenaRules::default());
        assert!(sheet.scores[0].berserk_point);
        // The threshold is a rule of the tournament.
        let short = ArenaRules { berserk_min_moves: 3 };
        assert_eq!(Sheet::new(&[berserk(Win, 3)], &short).points, 3);
    }

    fn entry(id: &'static str, points: u32, tiebreak: f64) -> Entry<&'static str> {
        Entry { id, points, tiebreak }
    }

    #[test]
    fn standings_order_points_then_tiebreak_then_id() {
        let table = standings(&[
            entry("carol", 6, 1500.0),
            entry("alice", 9, 1400.0),
            entry("dave", 6, 1700.0),
            entry("bob", 6, 1500.0),
        ]);
        let ids: Vec<_> = table.iter().map(|e| e.id).collect();
        assert_eq!(ids, ["alice", "dave", "bob", "carol"]);
    }

    fn waiting(id: &'static str, points: u32, last_opponent: Option<&'static str>) -> Waiting<&'static str> {
        Waiting { entry: entry(id, points, 1500.0), last_opponent, first_move_balance: 0 }
    }

    /// The games as unordered pairs, sorted, for comparing.
    fn games(pairing: &Pairing<&'static str>) -> Vec<[&'static str; 2]> {
        let mut games: Vec<[&str; 2]> = pairing
            .games
            .iter()
            .map(|&(a, b)| {
                let mut pair = [a, b];
                pair.sort();
                pair
            })
            .collect();
        games.sort();
        games
    }

    #[test]
    fn nearest_scores_meet() {
        let pool = [
            waiting("a", 12, None),
            waiting("b", 3, None),
            waiting("c", 10, None),
            waiting("d", 0, None),
            waiting("e", 7, None),
            waiting("f", 5, None),
        ];
        let pairing = pair(&pool, 10);
        assert_eq!(games(&pairing), [["a", "c"], ["b", "d"], ["e", "f"]]);
        assert!(pairing.unpaired.is_empty());
    }

    #[test]
    fn equal_scores_pair_in_standings_order() {
        // All on 4 points: the tiebreak orders them, and neighbours meet.
        let pool: Vec<_> = [("p", 1600.0), ("q", 1400.0), ("r", 1700.0), ("s", 1500.0)]
            .into_iter()
            .map(|(id, rating)| Waiting { entry: entry(id, 4, rating), last_opponent: None, first_move_balance: 0 })
            .collect();
        assert_eq!(games(&pair(&pool, 4)), [["p", "r"], ["q", "s"]]);
    }

    #[test]
    fn an_odd_player_out_waits_the_lowest_placed_on_a_tie() {
        let pool = [waiting("a", 6, None), waiting("b", 4, None), waiting("c", 2, None)];
        let pairing = pair(&pool, 3);
        assert_eq!(games(&pairing), [["a", "b"]]);
        assert_eq!(pairing.unpaired, ["c"]);
        // Nearer scores decide who waits when they differ.
        let pool = [waiting("a", 20, None), waiting("b", 4, None), waiting("c", 2, None)];
        let pairing = pair(&pool, 3);
        assert_eq!(games(&pairing), [["b", "c"]]);
        assert_eq!(pairing.unpaired, ["a"]);
    }

    #[test]
    fn one_player_or_none_waits() {
        let pairing = pair(&[waiting("solo", 8, None)], 5);
        assert!(pairing.games.is_empty());
        assert_eq!(pairing.unpaired, ["solo"]);
        let empty: Pairing<&str> = pair(&[], 0);
        assert!(empty.games.is_empty() && empty.unpaired.is_empty());
    }

    #[test]
    fn the_last_opponent_is_avoided_when_another_exists() {
        // a and b just played each other and stand side by side: each meets
        // its next neighbour instead.
        let pool =
            [waiting("a", 8, Some("b")), waiting("b", 7, Some("a")), waiting("c", 6, None), waiting("d", 5, None)];
        assert_eq!(games(&pair(&pool, 4)), [["a", "c"], ["b", "d"]]);
        // Only one side remembering the game is enough.
        let pool =
            [waiting("a", 8, Some("b")), waiting("b", 7, Some("x")), waiting("c", 6, None), waiting("d", 5, None)];
        assert_eq!(games(&pair(&pool, 5)), [["a", "c"], ["b", "d"]]);
        // Three waiting, two of them just played: the third plays the nearer.
        let pool = [waiting("a", 8, Some("b")), waiting("b", 7, Some("a")), waiting("c", 2, None)];
        let pairing = pair(&pool, 3);
        assert_eq!(games(&pairing), [["b", "c"]]);
        assert_eq!(pairing.unpaired, ["a"]);
    }

    #[test]
    fn a_rematch_only_between_the_last_two_players() {
        let pool = [waiting("a", 8, Some("b")), waiting("b", 7, Some("a"))];
        // Others are still playing: wait for them rather than rematch.
        let pairing = pair(&pool, 6);
        assert!(pairing.games.is_empty());
        assert_eq!(pairing.unpaired, ["a", "b"]);
        // The tournament's only two players play again.
        assert_eq!(games(&pair(&pool, 2)), [["a", "b"]]);
    }

    #[test]
    fn forbidden_neighbours_deeper_in_a_long_queue_are_routed_around() {
        // Twelve waiting on distinct scores, each pair of neighbours (first
        // and second, third and fourth...) fresh from a game together: each
        // meets the neighbour but one instead.
        let ids = ["p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11"];
        let pool: Vec<_> = ids
            .iter()
            .enumerate()
            .map(|(rank, &id)| {
                let partner = if rank % 2 == 0 { ids[rank + 1] } else { ids[rank - 1] };
                waiting(id, 100 - rank as u32, Some(partner))
            })
            .collect();
        let pairing = pair(&pool, 12);
        assert!(pairing.unpaired.is_empty());
        assert_eq!(pairing.games.len(), 6);
        let mut gaps = 0;
        for &(a, b) in &pairing.games {
            let [ra, rb] = [a, b].map(|id| ids.iter().position(|&x| x == id).unwrap());
            assert!(ra / 2 != rb / 2, "{a} and {b} just played");
            gaps += ra.abs_diff(rb);
        }
        // The best there is: six pairs two points apart (or, as good, three
        // and one).
        assert_eq!(gaps, 12, "{:?}", pairing.games);
    }

    #[test]
    fn the_player_who_moved_first_less_moves_first() {
        let mut a = waiting("a", 8, None);
        let mut b = waiting("b", 7, None);
        a.first_move_balance = 1;
        b.first_move_balance = -1;
        assert_eq!(pair(&[a.clone(), b.clone()], 2).games, [("b", "a")]);
        b.first_move_balance = 2;
        assert_eq!(pair(&[a.clone(), b.clone()], 2).games, [("a", "b")]);
        // Equal: the higher-placed moves first.
        b.first_move_balance = 1;
        assert_eq!(pair(&[b, a], 2).games, [("a", "b")]);
    }

    #[test]
    fn a_player_listed_twice_is_paired_once() {
        let pool = [waiting("a", 8, None), waiting("a", 8, None), waiting("b", 7, None)];
        let pairing = pair(&pool, 3);
        assert_eq!(games(&pairing), [["a", "b"]]);
        assert!(pairing.unpaired.is_empty());
    }

    #[test]
    fn every_player_is_placed_once_in_large_pools() {
        // A deterministic pseudo-random mix of scores and last opponents.
        for size in 0..60u32 {
            let pool: Vec<Waiting<u32>> = (0..size)
                .map(|id| Waiting {
                    entry: Entry { id, points: (id * 7919 + size) % 23, tiebreak: 1500.0 },
                    last_opponent: if id % 3 == 0 { Some((id * 31 + 5) % size.max(1)) } else { None },
                    first_move_balance: (id % 3) as i32 - 1,
                })
                .collect();
            // More active players than waiting: no rematch is ever allowed.
            let pairing = pair(&pool, size as usize + 2);
            let mut placed: Vec<u32> =
                pairing.games.iter().flat_map(|&(a, b)| [a, b]).chain(pairing.unpaired.iter().copied()).collect();
            placed.sort();
            assert_eq!(placed, (0..size).collect::<Vec<_>>(), "size {size}");
            assert!(pairing.unpaired.len() <= 1 + pool.iter().filter(|p| p.last_opponent.is_some()).count());
            for &(a, b) in &pairing.games {
                let (pa, pb) = (&pool[a as usize], &pool[b as usize]);
                assert!(pa.last_opponent != Some(b) && pb.last_opponent != Some(a), "a rematch in size {size}");
            }
        }
    }
}
