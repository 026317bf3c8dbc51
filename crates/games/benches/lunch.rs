//! Lunch Chess decision generation speed: perft from a dealt start and from
//! the bench middle game, listing the actions of the middle game, and
//! playing and undoing each of them.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use menagerie_core::{perft, Game, VariantSpec};
use menagerie_games::lunch::Lunch;

/// The start after a deal (`menagerie show lunch --seed 1 --text`).
const DEALT: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq kick,roundhouse,poke,block,humiliation combo,poke,grab,block,firstaid jab*4,slap*4,elbow*4,headbutt*4,kick*3,uppercut*4,roundhouse*3,backfist*4,hammer,chain,knife,combo*3,poke*2,stomp*4,uppercut2,choke,headlock*2,grab*7,dodge*10,block*11,disarm*4,freedom*4,firstaid*7,humiliation*3 - - - - turn.action 0,0,0 - white";

fn lunch(c: &mut Criterion) {
    let variant = Lunch::parse_variant(&VariantSpec::plain("lunch")).unwrap();
    let mut start = Lunch::from_text(&variant, DEALT).unwrap();
    c.bench_function("lunch perft 3 dealt start", |b| b.iter(|| perft::perft(black_box(&mut start), 3)));
    let middle = Lunch::bench_positions(&variant)[0];
    let mut middle = Lunch::from_text(&variant, middle).unwrap();
    c.bench_function("lunch perft 3 middle game", |b| b.iter(|| perft::perft(black_box(&mut middle), 3)));
    let mut moves = Vec::with_capacity(256);
    c.bench_function("lunch list actions of the middle game", |b| {
        b.iter(|| {
            black_box(&middle).legal_moves(&mut moves);
            moves.len()
        })
    });
    middle.legal_moves(&mut moves);
    c.bench_function("lunch play and undo each action of the middle game", |b| {
        b.iter(|| {
            for &mv in &moves {
                middle.play(mv);
                black_box(middle.hash());
                middle.undo();
            }
        })
    });
}

criterion_group!(benches, lunch);
criterion_main!(benches);
