//! Criterion benchmarks: one group per dataset sample (the first puzzles of each public set in
//! ../shared/datasets), throughput in puzzles. Skips a dataset that is absent.
//!
//!     cargo bench --bench solver

use std::path::Path;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sudoku_batch::engines::solver::{Algorithm, Limits};
use sudoku_batch::io::{load_puzzles, ReaderOptions};

const SAMPLES: &[(&str, usize)] = &[
    ("puzzles2_17_clue", 2000),
    ("puzzles3_magictour_top1465", 1465),
    ("puzzles5_forum_hardest_1905_11+", 500),
    ("puzzles6_forum_hardest_1106", 375),
    ("puzzles7_serg_benchmark", 2000),
    ("kaggle1m_sample_first24997.csv", 2000),
];

fn solver(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets");
    for &(name, take) in SAMPLES {
        let puzzles = match load_puzzles(&dir.join(name), &ReaderOptions::default()) {
            Ok((p, _)) => p.into_iter().take(take).collect::<Vec<_>>(),
            Err(e) => {
                eprintln!("skipped {name}: {e}");
                continue;
            }
        };
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.sample_size(10);
        for limit in [1, 2] {
            group.bench_with_input(
                BenchmarkId::new("fast", format!("limit{limit}")),
                &limit,
                |b, &limit| {
                    let limits = Limits::solutions(limit);
                    b.iter(|| {
                        puzzles
                            .iter()
                            .map(|p| Algorithm::Fast.solve(p, &limits).guesses)
                            .sum::<u64>()
                    })
                },
            );
        }
        group.finish();
    }
}

criterion_group!(benches, solver);
criterion_main!(benches);
