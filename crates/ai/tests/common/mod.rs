//! Toy games for testing the searches: Nim with two actions a turn (a
//! player moves twice in a row, as in Kelasu) and Hi-Lo, a two-card game of
//! hidden information (as in Lunch Chess).
#![allow(dead_code)]

use menagerie_core::{Actor, Evaluate, Game, Outcome, Player, PositionError, VariantError, VariantInfo, VariantSpec};
use rand::seq::SliceRandom;
use rand::RngCore;

/// Nim where a turn is two actions (take 1-3 each) by the same player,
/// unless the pile runs out first; whoever takes the last stone wins.
/// Text: `<stones> <first|second> <actions left>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DoubleNim {
    pub stones: u32,
    pub to_move: Player,
    pub actions_left: u8,
    history: Vec<(u8, Player, u8)>,
}

impl DoubleNim {
    pub fn new(stones: u32, to_move: Player, actions_left: u8) -> Self {
        DoubleNim { stones, to_move, actions_left, history: Vec::new() }
    }
}

impl Game for DoubleNim {
    type Move = u8;
    type Variant = ();
    const VARIANTS: &'static [VariantInfo] =
        &[VariantInfo { id: "double-nim", name: "Double Nim", summary: "two takes a turn", options: &[] }];
    fn parse_variant(_: &VariantSpec) -> Result<(), VariantError> {
        Ok(())
    }
    fn start(_: &(), _: u64) -> Self {
        DoubleNim::new(21, Player::First, 2)
    }
    fn from_text(_: &(), text: &str) -> Result<Self, PositionError> {
        let f: Vec<&str> = text.split(' ').collect();
        let bad = || PositionError::syntax("text", "expected `<stones> <first|second> <actions>`");
        if f.len() != 3 {
            return Err(bad());
        }
        let player = match f[1] {
            "first" => Player::First,
            "second" => Player::Second,
            _ => return Err(bad()),
        };
        Ok(DoubleNim::new(f[0].parse().map_err(|_| bad())?, player, f[2].parse().map_err(|_| bad())?))
    }
    fn to_text(&self) -> String {
        format!(
            "{} {} {}",
            self.stones,
            if self.to_move == Player::First { "first" } else { "second" },
            self.actions_left
        )
    }
    fn variant(&self) -> &() {
        &()
    }
    fn to_act(&self) -> Actor {
        Actor::Player(self.to_move)
    }
    fn outcome(&self) -> Option<Outcome> {
        // The last taker is the player who moved last: the mover, unless the
        // turn just passed.
        (self.stones == 0).then(|| {
            let winner = self.history.last().map_or(self.to_move.other(), |&(_, p, _)| p);
            Outcome::Win { winner, reason: "took the last stone" }
        })
    }
    fn legal_moves(&self, moves: &mut Vec<u8>) {
        moves.clear();
        moves.extend((1..=3u8).filter(|&n| u32::from(n) <= self.stones));
    }
    fn play(&mut self, mv: u8) {
        self.history.push((mv, self.to_move, self.actions_left));
        self.stones -= u32::from(mv);
        if self.stones > 0 {
            self.actions_left -= 1;
            if self.actions_left == 0 {
                self.actions_left = 2;
                self.to_move = self.to_move.other();
            }
        }
    }
    fn undo(&mut self) {
        let (mv, player, actions) = self.history.pop().expect("a move to undo");
        self.stones += u32::from(mv);
        self.to_move = player;
        self.actions_left = actions;
    }
    fn hash(&self) -> u64 {
        u64::from(self.stones) * 8 + self.to_move.index() as u64 * 4 + u64::from(self.actions_left)
    }
    fn move_text(&self, mv: u8) -> String {
        mv.to_string()
    }
}

impl Evaluate for DoubleNim {}

/// Whether the player to act in `game` wins with best play, by plain
/// minimax that follows the actor (no pruning, no tables).
pub fn wins_by_minimax<G: Game>(game: &mut G) -> bool {
    let me = match game.to_act() {
        Actor::Player(p) => p,
        Actor::Chance => panic!("no chance here"),
    };
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.into_iter().any(|mv| {
        game.play(mv);
        let good = match (game.outcome(), game.to_act()) {
            (Some(o), _) => o.winner() == Some(me),
            (None, Actor::Player(p)) if p == me => wins_by_minimax(game),
            (None, _) => !wins_by_minimax(game),
        };
        game.undo();
        good
    })
}

/// Hi-Lo: cards 0..7; each player holds one card, unseen by the other, and
/// the other five form a face-down pile. First, then Second, either keeps
/// (`keep`) or swaps (`swap`: the held card is shown and discarded, the top
/// of the pile is taken). Then the higher card wins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HiLo {
    pub hands: [u8; 2],
    pub pile: Vec<u8>,
    pub discards: Vec<u8>,
    pub acted: u8,
    history: Vec<Snapshot>,
}

/// Hands, pile and discards before a move (undo restores them).
type Snapshot = ([u8; 2], Vec<u8>, Vec<u8>);

pub const KEEP: bool = false;
pub const SWAP: bool = true;

impl HiLo {
    pub fn new(hands: [u8; 2], pile: Vec<u8>) -> Self {
        HiLo { hands, pile, discards: Vec::new(), acted: 0, history: Vec::new() }
    }
}

impl Game for HiLo {
    type Move = bool;
    type Variant = ();
    const VARIANTS: &'static [VariantInfo] =
        &[VariantInfo { id: "hi-lo", name: "Hi-Lo", summary: "keep or swap a hidden card", options: &[] }];
    fn parse_variant(_: &VariantSpec) -> Result<(), VariantError> {
        Ok(())
    }
    fn start(_: &(), _: u64) -> Self {
        HiLo::new([3, 4], vec![0, 1, 2, 5, 6])
    }
    fn from_text(_: &(), _: &str) -> Result<Self, PositionError> {
        Err(PositionError::syntax("text", "Hi-Lo has no position text"))
    }
    fn to_text(&self) -> String {
        format!("{:?} {:?} {:?} {}", self.hands, self.pile, self.discards, self.acted)
    }
    fn view_text(&self, viewer: Player) -> String {
        format!("{} {:?} {}", self.hands[viewer.index()], self.discards, self.acted)
    }
    fn variant(&self) -> &() {
        &()
    }
    fn to_act(&self) -> Actor {
        Actor::Player(Player::from_index(usize::from(self.acted.min(1))))
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.acted == 2).then(|| Outcome::Win {
            winner: if self.hands[0] > self.hands[1] { Player::First } else { Player::Second },
            reason: "higher card",
        })
    }
    fn legal_moves(&self, moves: &mut Vec<bool>) {
        moves.clear();
        if self.acted < 2 {
            moves.extend([KEEP, SWAP]);
        }
    }
    fn play(&mut self, swap: bool) {
        self.history.push((self.hands, self.pile.clone(), self.discards.clone()));
        let who = usize::from(self.acted);
        if swap {
            self.discards.push(self.hands[who]);
            self.hands[who] = self.pile.pop().expect("the pile never runs out");
        }
        self.acted += 1;
    }
    fn undo(&mut self) {
        let (hands, pile, discards) = self.history.pop().expect("a move to undo");
        self.hands = hands;
        self.pile = pile;
        self.discards = discards;
        self.acted -= 1;
    }
    fn hash(&self) -> u64 {
        let mut h = u64::from(self.acted);
        for &c in self.hands.iter().chain(&self.pile).chain(&self.discards) {
            h = h.wrapping_mul(31).wrapping_add(u64::from(c) + 1);
        }
        h
    }
    fn move_text(&self, swap: bool) -> String {
        if swap { "swap" } else { "keep" }.to_owned()
    }
    fn has_hidden_information() -> bool {
        true
    }
    /// Keeps the observer's card and the public discards; deals everything
    /// else anew.
    fn determinize(&self, observer: Player, rng: &mut dyn RngCore) -> Self {
        let mine = self.hands[observer.index()];
        let mut unseen: Vec<u8> = (0..7).filter(|c| *c != mine && !self.discards.contains(c)).collect();
        unseen.shuffle(rng);
        let mut hands = [0; 2];
        hands[observer.index()] = mine;
        hands[observer.other().index()] = unseen.pop().expect("an unseen card");
        HiLo { hands, pile: unseen, discards: self.discards.clone(), acted: self.acted, history: Vec::new() }
    }
}

impl Evaluate for HiLo {}
