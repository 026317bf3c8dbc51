//! Lichen Chess perft throughput: the start positions and a middle game.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use menagerie_core::{perft::perft, Game};
use menagerie_games::lichen::{Lichen, LichenVariant};

fn bench(c: &mut Criterion) {
    let cases = [
        ("lichen start depth 3", LichenVariant::WIDE, None, 3),
        ("lichen-3x3 start depth 3", LichenVariant::SQUARE, None, 3),
        (
            "lichen middle game depth 3",
            LichenVariant::WIDE,
            Lichen::bench_positions(&LichenVariant::WIDE).first().copied(),
            3,
        ),
    ];
    let mut group = c.benchmark_group("lichen perft");
    group.sample_size(10);
    for (name, variant, position, depth) in cases {
        let mut game = match position {
            Some(text) => Lichen::from_text(&variant, text).expect("bench position parses"),
            None => Lichen::start(&variant, 0),
        };
        group.throughput(Throughput::Elements(perft(&mut game, depth)));
        group.bench_function(name, |b| b.iter(|| perft(&mut game, depth)));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
