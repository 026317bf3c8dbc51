//! Lunch Chess decision generation speed: perft from a dealt start and from
//! the bench middle game, and listing the actions of the middle game.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use menagerie_core::{perft, Game, VariantSpec};
use menagerie_games::lunch::Lunch;

fn lunch(c: &mut Criterion) {
    let variant = Lunch::parse_variant(&VariantSpec::plain("lunch")).unwrap();
    let mut start = Lunch::start(&variant, 1);
    c.bench_function("lunch perft 3 start seed 1", |b| b.iter(|| perft::perft(black_box(&mut start), 3)));
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
}

criterion_group!(benches, lunch);
criterion_main!(benches);
