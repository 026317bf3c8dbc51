//! Fluid Chess perft throughput (bulk counting at the last ply).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use menagerie_core::{perft, Game, VariantSpec};
use menagerie_games::fluid::Fluid;

fn fluid_perft(c: &mut Criterion) {
    let variant = Fluid::parse_variant(&VariantSpec::plain("fluid")).unwrap();
    let mut group = c.benchmark_group("fluid");
    let mut start = Fluid::start(&variant, 0);
    group.throughput(Throughput::Elements(perft::perft(&mut start, 4)));
    group.bench_function("perft 4 start", |b| b.iter(|| perft::perft(&mut start, 4)));
    for (index, text) in Fluid::bench_positions(&variant).into_iter().enumerate() {
        let mut game = Fluid::from_text(&variant, text).unwrap();
        group.throughput(Throughput::Elements(perft::perft(&mut game, 3)));
        group.bench_function(format!("perft 3 middle game {}", index + 1), |b| b.iter(|| perft::perft(&mut game, 3)));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = fluid_perft
}
criterion_main!(benches);
