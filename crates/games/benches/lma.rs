//! Criterion benchmarks for LMA Chess: perft from the start and from a
//! middle game (bulk counting at the last ply), and move listing.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use menagerie_core::{perft, Game, VariantSpec};
use menagerie_games::lma::Lma;

fn game(variant: &str, text: Option<&str>) -> Lma {
    let variant = Lma::parse_variant(&VariantSpec::parse(variant).unwrap()).unwrap();
    match text {
        Some(text) => Lma::from_text(&variant, text).unwrap(),
        None => Lma::start(&variant, 0),
    }
}

fn perft_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("lma");
    group.sample_size(10);
    let mut start = game("lma", None);
    group.bench_function("perft 4 start", |b| b.iter(|| perft::perft(black_box(&mut start), 4)));
    let mut middle = game("lma", Some("r5/1qk1p1/4c1/Ppp3/2PP2/6/1C4|6/5r/3p1p/4C1/6/P2QPP/R2K1R w KQ 7 13"));
    group.bench_function("perft 3 middle game", |b| b.iter(|| perft::perft(black_box(&mut middle), 3)));
    let mut double = game("lma-double", None);
    group.bench_function("perft 3 lma-double start", |b| b.iter(|| perft::perft(black_box(&mut double), 3)));
    let mut moves = Vec::with_capacity(256);
    group.bench_function("legal moves middle game", |b| {
        b.iter(|| {
            black_box(&middle).legal_moves(&mut moves);
            moves.len()
        })
    });
    group.finish();
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
