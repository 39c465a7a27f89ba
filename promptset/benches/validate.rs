//! Validation and CSV throughput: `cargo bench -p promptset --bench validate`.
//!
//! Whole-process figures against the peers (jsonschema-cli, ajv, check-jsonschema, jq,
//! Miller) and our own whole-process runs (`scripts/bench-validate.sh`) are in docs/benchmarks.md.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use promptset::report::{Table, write_csv};
use promptset::schema::Variant;
use promptset::validate::Validator;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../fixtures/{name}", env!("CARGO_MANIFEST_DIR")))
        .expect("fixture exists")
}

fn bench(c: &mut Criterion) {
    let validator = Validator::new(Variant::Canonical);
    let mut group = c.benchmark_group("validate");
    for name in [
        "valid/saas-full.json",
        "valid/large-2000-prompts.json",
        "invalid/many-errors-at-once.json",
    ] {
        let bytes = fixture(name);
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                black_box(validator.validate(black_box(&bytes)))
                    .diagnostics
                    .len()
            })
        });
    }
    group.finish();

    let bytes = fixture("valid/large-2000-prompts.json");
    let mut group = c.benchmark_group("report");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("csv prompts (parse + write)", |b| {
        let mut out = Vec::with_capacity(bytes.len());
        b.iter(|| {
            out.clear();
            let set = validator.validate(&bytes).document.expect("valid");
            write_csv(&set, Table::Prompts, false, &mut out).expect("csv");
            black_box(out.len())
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
