//! Every valid fixture validates on both paths; every invalid one fails with the exact
//! findings snapshotted.

use std::path::Path;

use promptset::diagnostic::rules::{self, Category};
use promptset::output::{FileReport, Format, Tool, render};
use promptset::schema::Variant;
use promptset::validate::Validator;

fn relative(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    path.strip_prefix(root).unwrap().display().to_string()
}

fn text_report(path: &Path, validator: &Validator) -> String {
    let bytes = std::fs::read(path).unwrap();
    let validation = validator.validate(&bytes);
    let report = FileReport::new(relative(path), validation.diagnostics);
    let mut out = Vec::new();
    render(
        Format::Text,
        Tool::new(
            "promptset validate",
            &rules::of(&[Category::Document, Category::Integrity]),
        ),
        &[report],
        &mut out,
    )
    .unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn valid_fixtures_pass_on_both_paths() {
    let validator = Validator::new(Variant::Canonical);
    insta::glob!("../../fixtures/valid", "*.json", |path| {
        let bytes = std::fs::read(path).unwrap();
        let fast = validator.validate(&bytes);
        assert!(
            fast.diagnostics.is_empty(),
            "{}: {:#?}",
            path.display(),
            fast.diagnostics
        );
        let slow = validator.validate_slow(&bytes);
        assert!(
            slow.diagnostics.is_empty(),
            "{}: {:#?}",
            path.display(),
            slow.diagnostics
        );
        assert_eq!(
            fast.document,
            slow.document,
            "{}: both paths read the same document",
            path.display()
        );
    });
}

#[test]
fn invalid_fixtures_fail_with_exact_findings() {
    let validator = Validator::new(Variant::Canonical);
    insta::glob!("../../fixtures/invalid", "*.json", |path| {
        let text = text_report(path, &validator);
        assert!(!text.is_empty(), "{} should be invalid", path.display());
        insta::assert_snapshot!(text);
    });
}

#[test]
fn fast_and_slow_paths_agree_on_invalid_fixtures() {
    // The typed parse stops at the first problem and falls back to the schema; for
    // documents that parse as typed data but break minItems or integrity, both paths
    // must report the same findings.
    let validator = Validator::new(Variant::Canonical);
    insta::glob!("../../fixtures/invalid", "*.json", |path| {
        let bytes = std::fs::read(path).unwrap();
        let fast = validator.validate(&bytes);
        let slow = validator.validate_slow(&bytes);
        assert_eq!(fast.diagnostics, slow.diagnostics, "{}", path.display());
    });
}

#[test]
fn openai_strict_documents_validate_only_under_their_variant() {
    let canonical = Validator::new(Variant::Canonical);
    let strict = Validator::new(Variant::OpenAiStrict);
    insta::glob!("../../fixtures/openai-strict", "*.json", |path| {
        let bytes = std::fs::read(path).unwrap();
        assert!(
            !canonical.validate(&bytes).is_valid(),
            "{} has nulls",
            path.display()
        );
        let validation = strict.validate(&bytes);
        assert!(
            validation.diagnostics.is_empty(),
            "{}: {:#?}",
            path.display(),
            validation.diagnostics
        );
    });
    // And canonical documents stay valid under the strict variant.
    insta::glob!("../../fixtures/valid", "*.json", |path| {
        assert!(
            strict.validate(&std::fs::read(path).unwrap()).is_valid(),
            "{}",
            path.display()
        );
    });
}
