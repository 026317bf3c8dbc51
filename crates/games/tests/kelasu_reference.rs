//! A slow, independent reading of the Kelasu movement and merge rules
//! (square by square, no bitboards; merges grown set by set with a hash set),
//! compared with the engine's legal actions along random games.

use menagerie_core::Game;
use menagerie_games::kelasu::{Kelasu, KelasuVariant};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;

/// (is_blue, letter upper case) per square, from the position text.
struct Reference {
    board: [[Option<(bool, char)>; 10]; 10],
    blue_to_move: bool,
    energy: u32,
    spent: HashSet<(i32, i32)>,
}

fn parse(text: &str) -> Reference {
    let fields: Vec<&str> = text.split(' ').collect();
    let mut board = [[None; 10]; 10];
    for (r, row) in fields[0].split('/').enumerate() {
        let mut f = 0;
        let mut digits = String::new();
        for c in row.chars().chain(std::iter::once('.')) {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            if !digits.is_empty() {
                f += digits.parse::<usize>().unwrap();
                digits.clear();
            }
            if c != '.' {
                board[r][f] = Some((c.is_ascii_uppercase(), c.to_ascii_uppercase()));
                f += 1;
            }
        }
    }
    let spent = if fields[3] == "-" { HashSet::new() } else { fields[3].split(',').map(square).collect() };
    Reference { board, blue_to_move: fields[1] == "blue", energy: fields[2].parse().unwrap(), spent }
}

fn square(s: &str) -> (i32, i32) {
    let b = s.as_bytes();
    (i32::from(b[0] - b'A'), i32::from(b[1] - b'0'))
}

fn name((r, f): (i32, i32)) -> String {
    format!("{}{}", (b'A' + r as u8) as char, f)
}

fn on_board((r, f): (i32, i32)) -> bool {
    (0..10).contains(&r) && (0..10).contains(&f)
}

impl Reference {
    fn at(&self, (r, f): (i32, i32)) -> Option<(bool, char)> {
        self.board[r as usize][f as usize]
    }

    fn actions(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.energy == 0 {
            return out;
        }
        let us = self.blue_to_move;
        let fwd = if us { 1 } else { -1 };
        let empty = |sq| self.at(sq).is_none();
        let enemy = |sq| self.at(sq).is_some_and(|(c, _)| c != us);
        for r in 0..10 {
            for f in 0..10 {
                let from = (r, f);
                let Some((colour, kind)) = self.at(from) else { continue };
                if colour != us || self.spent.contains(&from) {
                    continue;
                }
                let mut targets: Vec<(i32, i32)> = Vec::new();
                // Walks a ray up to `limit` squares: `take` = may capture,
                // `take_from` = the first distance at which capture is allowed.
                let mut ray = |dr: i32, df: i32, limit: i32, take: bool, take_from: i32| {
                    for d in 1..=limit {
                        let sq = (r + dr * d, f + df * d);
                        if !on_board(sq) {
                            break;
                        }
                        if empty(sq) {
                            targets.push(sq);
                            continue;
                        }
                        if take && enemy(sq) && d >= take_from {
                            targets.push(sq);
                        }
                        break;
                    }
                };
                match kind {
                    'B' => {
                        ray(fwd, 0, 1, false, 1);
                        ray(0, 1, 1, false, 1);
                        ray(0, -1, 1, false, 1);
                    }
                    'W' => {
                        ray(fwd, 0, 1, true, 1);
                        ray(0, 1, 1, true, 1);
                        ray(0, -1, 1, true, 1);
                        for df in [-1, 1] {
                            let sq = (r + fwd, f + df);
                            if on_board(sq) && enemy(sq) {
                                targets.push(sq);
                            }
                        }
                        let (far, home) = if us { (9, 0) } else { (0, 9) };
                        if r == far && self.at((home, f)).is_none_or(|(c, _)| c != us) {
                            targets.push((home, f));
                        }
                    }
                    'R' => {
                        for (dr, df) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                            ray(dr, df, 9, true, 2);
                        }
                    }
                    'D' => {
                        for (dr, df) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                            ray(dr, df, 3, false, 1);
                        }
                        for (dr, df) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                            let sq = (r + dr, f + df);
                            if on_board(sq) && enemy(sq) {
                                targets.push(sq);
                            }
                        }
                    }
                    'C' => {
                        ray(fwd, 0, 9, true, 1);
                        ray(fwd, 1, 1, true, 1);
                        ray(fwd, -1, 1, true, 1);
                        ray(0, 1, 3, true, 1);
                        ray(0, -1, 3, true, 1);
                        ray(-fwd, 0, 9, false, 1);
                    }
                    'G' => {
                        for (dr, df) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
                            ray(dr, df, 9, true, 1);
                        }
                    }
                    _ => {}
                }
                for to in targets {
                    out.push(format!("{}-{}", name(from), name(to)));
                }
            }
        }
        // Merges: grow connected sets one Blank at a time, deduplicated.
        let home = if us { 0..=1 } else { 8..=9 };
        let eligible: Vec<(i32, i32)> = (0..10)
            .flat_map(|r| (0..10).map(move |f| (r, f)))
            .filter(|&sq| self.at(sq) == Some((us, 'B')) && !self.spent.contains(&sq) && !home.contains(&sq.0))
            .collect();
        let eligible_set: HashSet<(i32, i32)> = eligible.iter().copied().collect();
        let mut sets: HashSet<Vec<(i32, i32)>> = eligible.iter().map(|&sq| vec![sq]).collect();
        for size in 2..=21 {
            let mut next = HashSet::new();
            for set in &sets {
                for &(r, f) in set {
                    for n in [(r + 1, f), (r - 1, f), (r, f + 1), (r, f - 1)] {
                        if eligible_set.contains(&n) && !set.contains(&n) {
                            let mut grown = set.clone();
                            grown.push(n);
                            grown.sort();
                            next.insert(grown);
                        }
                    }
                }
            }
            sets = next;
            let letters: &[char] = match size {
                2 => &['W'],
                4 => &['R', 'D'],
                5 => &['C'],
                10 => &['G'],
                21 => &['S'],
                _ => &[],
            };
            for set in &sets {
                let list = set.iter().map(|&sq| name(sq)).collect::<Vec<_>>().join(",");
                for &target in set {
                    for letter in letters {
                        out.push(format!("{letter}@{}:{list}", name(target)));
                    }
                }
            }
        }
        out.sort();
        out
    }
}

fn engine_actions(g: &Kelasu) -> Vec<String> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&m| g.move_text(m)).collect();
    texts.sort();
    texts
}

fn compare_along_random_games(start: &str, games: u64, plies: usize) {
    for seed in 0..games {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut g = Kelasu::from_text(&KelasuVariant, start).unwrap();
        for _ in 0..plies {
            let text = g.to_text();
            let engine = engine_actions(&g);
            if g.outcome().is_some() {
                assert!(engine.is_empty());
                break;
            }
            let reference = Reference::actions(&parse(&text));
            assert_eq!(engine, reference, "actions differ in {text}");
            // Prefer merges and captures now and then so that they happen.
            let pick = if rng.random_bool(0.3) {
                engine.iter().filter(|m| m.contains('@')).min_by_key(|m| m.len()).unwrap_or(&engine[0]).clone()
            } else {
                engine[rng.random_range(0..engine.len())].clone()
            };
            let mover = g.to_act();
            let mv = g.parse_move(&pick).unwrap();
            g.play(mv);
            if g.outcome().is_none() && g.to_act() == mover {
                // Still the same turn: the mover must have Energy and an action.
                assert!(!Reference::actions(&parse(&g.to_text())).is_empty(), "{pick} in {text}");
            }
        }
    }
}

#[test]
fn engine_matches_the_reference_from_the_start() {
    compare_along_random_games(
        "BBBBBBBBBB/BBBBBBBBBB/S1S4S1S/10/10/10/10/s1s4s1s/bbbbbbbbbb/bbbbbbbbbb blue 4 - 0 1",
        30,
        400,
    );
}

#[test]
fn engine_matches_the_reference_in_middle_games() {
    for text in Kelasu::bench_positions(&KelasuVariant).into_iter().take(1) {
        compare_along_random_games(text, 20, 200);
    }
    compare_along_random_games("SS1b4B1/10/5w4/10/4C5/3BBBB3/1D1BBBBG2/s1s3R3/5b1w2/9s blue 2 - 0 3", 20, 200);
}
