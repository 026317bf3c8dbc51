//! Kelasu move generation speed: perft from the start and from the bench
//! middle game, the bulk count of a large Blank group's merges, and listing
//! the actions of a position with merges.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use menagerie_core::{perft, Game};
use menagerie_games::kelasu::{Kelasu, KelasuVariant};

/// 30 Blue Blanks on ranks C-E: some 52 million merges.
const LARGE_GROUP: &str = "SSSS6/10/BBBBBBBBBB/BBBBBBBBBB/BBBBBBBBBB/10/10/10/4w5/s8s blue 4 - 0 5";

fn kelasu(c: &mut Criterion) {
    let variant = KelasuVariant;
    let mut start = Kelasu::start(&variant, 0);
    c.bench_function("kelasu perft 5 start", |b| b.iter(|| perft::perft(black_box(&mut start), 5)));
    let middle = Kelasu::bench_positions(&variant)[0];
    let mut middle = Kelasu::from_text(&variant, middle).unwrap();
    c.bench_function("kelasu perft 3 middle game", |b| b.iter(|| perft::perft(black_box(&mut middle), 3)));
    let large = Kelasu::from_text(&variant, LARGE_GROUP).unwrap();
    let mut scratch = Vec::new();
    let mut slow = c.benchmark_group("kelasu large group");
    slow.sample_size(10);
    slow.bench_function("count merges of 30 Blanks", |b| b.iter(|| black_box(&large).count_legal_moves(&mut scratch)));
    slow.finish();
    let merges = Kelasu::bench_positions(&variant)[1];
    let merges = Kelasu::from_text(&variant, merges).unwrap();
    let mut moves = Vec::with_capacity(4096);
    c.bench_function("kelasu list actions with merges", |b| {
        b.iter(|| {
            black_box(&merges).legal_moves(&mut moves);
            moves.len()
        })
    });
}

criterion_group!(benches, kelasu);
criterion_main!(benches);
