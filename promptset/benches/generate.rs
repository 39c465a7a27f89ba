//! Generation benchmarks: the default pack (5 topics x 10 prompts) from one brief, and
//! 1,000 briefs read from a directory and generated in parallel, as
//! `promptset generate --brief DIR -o OUT` does.
//!
//! Run with `cargo bench -p promptset --bench generate`.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use promptset::brief::{BriefFormat, parse_brief};
use promptset::generate::{Generator, Options, to_json};
use rayon::prelude::*;

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/briefs");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("fixtures/briefs exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| promptset::brief::is_brief_path(p))
        .collect();
    paths.sort();
    paths
}

fn single_brief(c: &mut Criterion) {
    let generator = Generator::new(None).expect("templates compile");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/briefs/saas-analytics.json");
    let bytes = std::fs::read(&path).expect("fixture");
    let brief = parse_brief(&bytes, BriefFormat::from_path(&path)).expect("valid brief");
    let options = Options::default();
    c.bench_function("default pack from one brief (generate + serialize)", |b| {
        b.iter(|| {
            to_json(
                &generator
                    .generate(black_box(&brief), &options)
                    .expect("generates")
                    .set,
            )
        });
    });
    c.bench_function(
        "default pack from one brief file (parse + generate + serialize)",
        |b| {
            b.iter(|| {
                let brief = parse_brief(black_box(&bytes), Some(BriefFormat::Json)).expect("valid");
                to_json(&generator.generate(&brief, &options).expect("generates").set)
            });
        },
    );
}

fn thousand_briefs(c: &mut Criterion) {
    // 1,000 briefs: the fixtures, renamed so every brand and topic differs.
    let input = tempfile::tempdir().expect("temp dir");
    let sources: Vec<(PathBuf, String)> = fixtures()
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("fixture");
            (p, text)
        })
        .collect();
    for index in 0..1000 {
        let (path, text) = &sources[index % sources.len()];
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("json");
        let text = text
            .replacen(
                "\"brand_name\": \"",
                &format!("\"brand_name\": \"B{index} "),
                1,
            )
            .replacen("brand_name: ", &format!("brand_name: B{index} "), 1);
        std::fs::write(
            input.path().join(format!("brief-{index:04}.{extension}")),
            text,
        )
        .expect("write");
    }
    let output = tempfile::tempdir().expect("temp dir");
    let generator = Generator::new(None).expect("templates compile");
    let options = Options::default();
    let mut group = c.benchmark_group("directory");
    group.sample_size(10);
    group.bench_function(
        "1,000 briefs from a directory (read, parse, generate, write; rayon)",
        |b| {
            b.iter(|| {
                let mut paths: Vec<PathBuf> = std::fs::read_dir(input.path())
                    .expect("dir")
                    .map(|e| e.expect("entry").path())
                    .collect();
                paths.sort();
                paths.par_iter().for_each(|path| {
                    let bytes = std::fs::read(path).expect("read");
                    let brief = parse_brief(&bytes, BriefFormat::from_path(path)).expect("valid");
                    let json =
                        to_json(&generator.generate(&brief, &options).expect("generates").set);
                    let target = output
                        .path()
                        .join(path.file_stem().expect("stem"))
                        .with_extension("json");
                    std::fs::write(target, json).expect("write");
                });
            });
        },
    );
    group.finish();
}

criterion_group!(benches, single_brief, thousand_briefs);
criterion_main!(benches);
