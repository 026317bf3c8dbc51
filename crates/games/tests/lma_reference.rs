//! An independent, deliberately simple LMA Chess move generator (a mailbox,
//! moves traced square by square, legality by making the move on a copy and
//! asking every enemy piece whether it can capture the king) used as an
//! oracle for the fast bitboard generator: divides must agree move by move.

use menagerie_core::{perft, Game, VariantSpec};
use menagerie_games::lma::Lma;

const FILES: i32 = 6;
const RANKS: i32 = 7;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Piece {
    white: bool,
    kind: char, // upper case letter
}

#[derive(Clone)]
struct Reference {
    board: [[Option<Piece>; 42]; 2],
    white_to_move: bool,
    rights: String,
}

fn cell(file: i32, rank: i32) -> Option<usize> {
    (0..FILES).contains(&file).then_some(())?;
    (0..RANKS).contains(&rank).then_some(())?;
    Some((rank * FILES + file) as usize)
}

fn even(c: usize) -> bool {
    (c % 6 + c / 6) & 1 == 0
}

fn name(b: usize, c: usize) -> String {
    format!("{}{}{}", b + 1, (b'a' + (c % 6) as u8) as char, c / 6 + 1)
}

const ROOK: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
const KNIGHT: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

/// A move: from (board, cell), target cell, landing board, promotion.
#[derive(Clone, Debug)]
struct Mv {
    from: (usize, usize),
    to: usize,
    land: usize,
    promo: Option<char>,
    castle_rook: Option<((usize, usize), (usize, usize))>,
}

impl Mv {
    fn text(&self) -> String {
        let mut t = name(self.from.0, self.from.1);
        t.push_str(&name(0, self.to)[1..]);
        if let Some(p) = self.promo {
            t.push(p.to_ascii_lowercase());
        }
        t
    }
}

impl Reference {
    fn parse(text: &str) -> Reference {
        let fields: Vec<&str> = text.split(' ').collect();
        let mut board = [[None; 42]; 2];
        for (b, layout) in fields[0].split('|').enumerate() {
            for (row, rank) in layout.split('/').enumerate() {
                let r = 6 - row as i32;
                let mut f = 0;
                for ch in rank.chars() {
                    if let Some(d) = ch.to_digit(10) {
                        f += d as i32;
                    } else {
                        board[b][cell(f, r).unwrap()] =
                            Some(Piece { white: ch.is_ascii_uppercase(), kind: ch.to_ascii_uppercase() });
                        f += 1;
                    }
                }
            }
        }
        Reference { board, white_to_move: fields[1] == "w", rights: fields[2].replace('-', "") }
    }

    /// Whether the piece on (b, c) may go to target cell t by the move
    /// rule; records (t, landing board) in `out`. Returns whether a slider
    /// may go on past t.
    fn try_target(&self, b: usize, c: usize, t: usize, out: &mut Vec<(usize, usize)>) -> bool {
        let mover = self.board[b][c].unwrap();
        let occupant = self.board[b][t];
        if occupant.is_some_and(|o| o.white == mover.white) {
            return false;
        }
        let land = if even(t) == even(c) { b } else { 1 - b };
        if land == b || self.board[land][t].is_none() {
            out.push((t, land));
        }
        occupant.is_none()
    }

    fn slide(&self, b: usize, c: usize, dirs: &[(i32, i32)], out: &mut Vec<(usize, usize)>) {
        let (f, r) = ((c % 6) as i32, (c / 6) as i32);
        for &(df, dr) in dirs {
            let (mut x, mut y) = (f + df, r + dr);
            while let Some(t) = cell(x, y) {
                if !self.try_target(b, c, t, out) {
                    break;
                }
                x += df;
                y += dr;
            }
        }
    }

    fn leap(&self, b: usize, c: usize, steps: &[(i32, i32)], out: &mut Vec<(usize, usize)>) {
        let (f, r) = ((c % 6) as i32, (c / 6) as i32);
        for &(df, dr) in steps {
            if let Some(t) = cell(f + df, r + dr) {
                self.try_target(b, c, t, out);
            }
        }
    }

    /// The (target cell, landing board) pairs of the piece on (b, c);
    /// with `captures_only`, pawns give only their diagonal captures.
    fn piece_moves(&self, b: usize, c: usize, captures_only: bool) -> Vec<(usize, usize)> {
        let p = self.board[b][c].unwrap();
        let (f, r) = ((c % 6) as i32, (c / 6) as i32);
        let mut out = Vec::new();
        match p.kind {
            'Q' => {
                self.slide(b, c, &ROOK, &mut out);
                self.slide(b, c, &BISHOP, &mut out);
            }
            'R' => self.slide(b, c, &ROOK, &mut out),
            'C' => {
                self.slide(b, c, &BISHOP, &mut out);
                self.leap(b, c, &KNIGHT, &mut out);
            }
            'K' => {
                self.leap(b, c, &ROOK, &mut out);
                self.leap(b, c, &BISHOP, &mut out);
            }
            'P' => {
                let dir = if p.white { 1 } else { -1 };
                for df in [-1, 1] {
                    if let Some(t) = cell(f + df, r + dir) {
                        if self.board[b][t].is_some_and(|o| o.white != p.white) {
                            out.push((t, b));
                        }
                    }
                }
                if !captures_only {
                    if let Some(t) = cell(f, r + dir) {
                        if self.board[b][t].is_none() && self.board[1 - b][t].is_none() {
                            out.push((t, 1 - b));
                        }
                        let start = if p.white { 1 } else { 5 };
                        if r == start && self.board[b][t].is_none() {
                            if let Some(t2) = cell(f, r + 2 * dir) {
                                if self.board[b][t2].is_none() {
                                    out.push((t2, b));
                                }
                            }
                        }
                    }
                }
            }
            _ => unreachable!(),
        }
        out
    }

    /// Whether a piece of the `white` side (if `by_white`) can capture on
    /// (b, c).
    fn attacked(&self, b: usize, c: usize, by_white: bool) -> bool {
        // "Could capture there": put a target on an empty square (it does
        // not change what reaches the square).
        let mut probe = self.clone();
        if probe.board[b][c].is_none() {
            probe.board[b][c] = Some(Piece { white: !by_white, kind: 'P' });
        }
        (0..42).any(|p| {
            probe.board[b][p].is_some_and(|piece| piece.white == by_white)
                && probe.piece_moves(b, p, true).iter().any(|&(t, _)| t == c)
        })
    }

    fn king(&self, white: bool) -> (usize, usize) {
        for b in 0..2 {
            for c in 0..42 {
                if self.board[b][c] == Some(Piece { white, kind: 'K' }) {
                    return (b, c);
                }
            }
        }
        panic!("no king");
    }

    fn apply(&mut self, m: &Mv) {
        if let Some((rf, rt)) = m.castle_rook {
            let rook = self.board[rf.0][rf.1].take();
            self.board[rt.0][rt.1] = rook;
        }
        let piece = self.board[m.from.0][m.from.1].take().unwrap();
        if m.castle_rook.is_none() {
            self.board[m.from.0][m.to] = None; // capture on the source board
        }
        let placed = match m.promo {
            Some(k) => Piece { white: piece.white, kind: k },
            None => piece,
        };
        self.board[m.land][m.to] = Some(placed);
        let homes = [
            ("K", (1, 3)),
            ("Q", (1, 3)),
            ("K", (1, 5)),
            ("Q", (1, 0)),
            ("k", (0, 39)),
            ("q", (0, 39)),
            ("k", (0, 41)),
            ("q", (0, 36)),
        ];
        for (right, sq) in homes {
            if [m.from, (m.land, m.to), (m.from.0, m.to)].contains(&sq) {
                self.rights = self.rights.replace(right, "");
            }
        }
        self.white_to_move = !self.white_to_move;
    }

    fn legal(&self) -> Vec<Mv> {
        let us = self.white_to_move;
        let mut out = Vec::new();
        for b in 0..2 {
            for c in 0..42 {
                let Some(p) = self.board[b][c] else { continue };
                if p.white != us {
                    continue;
                }
                for (t, land) in self.piece_moves(b, c, false) {
                    let last = if us { 6 } else { 0 };
                    let promos: Vec<Option<char>> =
                        if p.kind == 'P' && t / 6 == last { vec![Some('Q'), Some('R'), Some('C')] } else { vec![None] };
                    for promo in promos {
                        let m = Mv { from: (b, c), to: t, land, promo, castle_rook: None };
                        let mut after = self.clone();
                        after.apply(&m);
                        let (kb, kc) = after.king(us);
                        if after.attacked(kb, kc, !us) {
                            continue;
                        }
                        if p.kind == 'K' && land != b {
                            // Falling through: the king on T of the source board.
                            let mut through = self.clone();
                            through.board[b][c] = None;
                            through.board[b][t] = Some(p);
                            if through.attacked(b, t, !us) {
                                continue;
                            }
                        }
                        out.push(m);
                    }
                }
            }
        }
        // Castling.
        let (kb, kc) = self.king(us);
        let home = if us { (1, 3) } else { (0, 39) };
        if (kb, kc) == home && !self.attacked(kb, kc, !us) {
            for (right, rook_file, dir) in [('K', 5, 1i32), ('Q', 0, -1)] {
                let right = if us { right } else { right.to_ascii_lowercase() };
                if !self.rights.contains(right) {
                    continue;
                }
                let rank0 = kc - kc % 6;
                let rook = rank0 + rook_file;
                if self.board[kb][rook] != Some(Piece { white: us, kind: 'R' }) {
                    continue;
                }
                let (lo, hi) = if dir > 0 { (kc + 1, rook) } else { (rook + 1, kc) };
                if (lo..hi).any(|x| self.board[kb][x].is_some()) {
                    continue;
                }
                let cross = (kc as i32 + dir) as usize;
                let king_to = (kc as i32 + 2 * dir) as usize;
                let rook_land = if even(cross) == even(rook) { kb } else { 1 - kb };
                if self.board[rook_land][cross].is_some() {
                    continue;
                }
                let mut lifted = self.clone();
                lifted.board[kb][kc] = None;
                if lifted.attacked(kb, cross, !us) || lifted.attacked(kb, king_to, !us) {
                    continue;
                }
                let m = Mv {
                    from: (kb, kc),
                    to: king_to,
                    land: kb,
                    promo: None,
                    castle_rook: Some(((kb, rook), (rook_land, cross))),
                };
                let mut after = self.clone();
                after.apply(&m);
                let (nkb, nkc) = after.king(us);
                assert!(!after.attacked(nkb, nkc, !us), "castling {} into check judged legal", m.text());
                out.push(m);
            }
        }
        out
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| {
                let mut next = self.clone();
                next.apply(m);
                next.perft(depth - 1)
            })
            .sum()
    }

    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        let mut out: Vec<(String, u64)> = self
            .legal()
            .iter()
            .map(|m| {
                let mut next = self.clone();
                next.apply(m);
                (m.text(), next.perft(depth - 1))
            })
            .collect();
        out.sort();
        out
    }
}

/// Compares divides, descending into the first differing move to report
/// the smallest position where the two disagree.
fn compare(variant: &str, text: &str, depth: u32) {
    let spec = VariantSpec::parse(variant).unwrap();
    let v = Lma::parse_variant(&spec).unwrap();
    let mut game = Lma::from_text(&v, text).unwrap();
    let reference = Reference::parse(text);
    let fast = perft::divide(&mut game, depth);
    let slow = reference.divide(depth);
    if fast == slow {
        return;
    }
    let fast_moves: Vec<&String> = fast.iter().map(|(m, _)| m).collect();
    let slow_moves: Vec<&String> = slow.iter().map(|(m, _)| m).collect();
    if fast_moves != slow_moves || depth == 1 {
        panic!("{text}: moves differ at depth {depth}\nfast: {fast:?}\nslow: {slow:?}");
    }
    for ((m, a), (_, b)) in fast.iter().zip(&slow) {
        if a != b {
            let mv = game.parse_move(m).unwrap();
            game.play(mv);
            let next = game.to_text();
            game.undo();
            compare(variant, &next, depth - 1);
            panic!("{text}: {m} gives {a} (fast) vs {b} (reference), but the subtree agrees");
        }
    }
}

#[test]
fn agrees_with_the_reference_from_the_starts() {
    compare("lma", "rcqkcr/pppppp/6/6/6/6/6|6/6/6/6/6/PPPPPP/RCQKCR w KQkq 0 1", 4);
    compare("lma-double", "rcqkcr/pppppp/6/6/6/PPPPPP/RCQ1CR|rcq1cr/pppppp/6/6/6/PPPPPP/RCQKCR w KQkq 0 1", 3);
}

#[test]
fn agrees_with_the_reference_on_tricky_positions() {
    let positions = [
        // Castling both ways, both colours; crossing or landing attacked; an
        // off-colour attack on the crossed square blocked by its twin.
        ("lma", "r2k1r/6/6/6/6/6/6|6/6/6/6/6/6/R2K1R w KQkq 0 1"),
        ("lma", "r2k1r/6/6/6/6/6/6|6/6/6/6/6/6/R2K1R b KQkq 0 1"),
        ("lma", "r2k1r/6/6/6/6/6/6|2r1r1/6/6/6/6/6/R2K1R w KQkq 0 1"),
        ("lma", "r2k1r/6/6/6/6/6/2P3|6/2r3/6/6/6/6/R2K1R w KQkq 0 1"),
        ("lma-double", "r2k1r/6/6/6/6/6/R4R|r4r/6/6/6/6/6/R2K1R w KQkq 0 1"),
        // Promotions, falling through, off-colour captures.
        ("lma", "3k2/6/6/6/6/6/6|1r4/P5/6/6/6/6/5K w - 0 1"),
        ("lma", "3k2/6/6/6/6/2p3/6|6/6/6/6/6/6/1R3K b - 0 1"),
        ("lma", "k5/6/6/6/6/6/6|6/6/6/5r/2K3/6/6 w - 0 1"),
        ("lma", "k5/6/6/6/6/6/1P4|6/6/6/6/6/p5/Rc3K w - 0 1"),
        // Middle games with pieces on both boards.
        ("lma", "r5/1qk1p1/4c1/Ppp3/2PP2/6/1C4|6/5r/3p1p/4C1/6/P2QPP/R2K1R w KQ 7 13"),
        ("lma", "r1q1cr/4kp/P5/ppppp1/4P1/2Q3/6|6/6/R1c3/2PP2/5C/1P3P/3KCR w K 4 13"),
        ("lma", "4cr/1pp2p/2P1q1/p2pp1/6/5K/1CR3|2k3/5c/3r2/5P/3C2/P2PP1/R5 w - 5 13"),
        ("lma-double", "r1q1cr/ppkpp1/3p2/P1pP2/R5/1Pc2C/1CQ2R|rc3r/pp2pp/P3qp/2p3/3CPP/P1PPPP/R1QKCR w KQ 0 13"),
        ("lma-double", "rrqkcr/pppppp/cc1pp1/C2P1P/C4P/P1P1P1/R1Q2R|3r2/pppq1p/6/6/1P4/PPPPP1/RCQKCR w KQkq 3 13"),
    ];
    for (variant, text) in positions {
        compare(variant, text, 3);
    }
}

/// Random games: at every ply the legal move lists must be equal.
fn random_games(variant: &str, games: u64, plies: usize) {
    use rand::{Rng, SeedableRng};
    let v = Lma::parse_variant(&VariantSpec::parse(variant).unwrap()).unwrap();
    // `MENAGERIE_SOAK=<factor>` plays more games.
    let factor = std::env::var("MENAGERIE_SOAK").ok().and_then(|f| f.parse::<u64>().ok()).unwrap_or(1).max(1);
    for seed in 0..games * factor {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut game = Lma::start(&v, 0);
        let mut list = Vec::new();
        for _ in 0..plies {
            let text = game.to_text();
            game.legal_moves(&mut list);
            if list.is_empty()
                && game.outcome().is_some_and(|o| ["threefold repetition", "fifty-move rule"].contains(&o.reason()))
            {
                break;
            }
            let mut fast: Vec<String> = list.iter().map(|&m| game.move_text(m)).collect();
            fast.sort();
            let mut slow: Vec<String> = Reference::parse(&text).legal().iter().map(Mv::text).collect();
            slow.sort();
            assert_eq!(fast, slow, "legal moves differ in {text}");
            if list.is_empty() {
                break;
            }
            game.play(list[rng.random_range(0..list.len())]);
        }
    }
}

#[test]
fn agrees_with_the_reference_in_random_games() {
    random_games("lma", 60, 200);
    random_games("lma-double", 30, 200);
}
