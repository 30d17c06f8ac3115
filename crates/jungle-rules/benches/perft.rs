//! Perft speed: `cargo bench -p jungle-rules`.

use criterion::{Criterion, criterion_group, criterion_main};
use jungle_rules::{Position, Rules, perft};

fn perft_start(c: &mut Criterion) {
    let rules = Rules::default();
    let start = Position::start(&rules);
    c.bench_function("perft 5 start", |b| b.iter(|| perft(&start, &rules, 5)));
}

criterion_group!(benches, perft_start);
criterion_main!(benches);
