//! Lint rules and scorecard: every deliberately flawed fixture trips its own rule, the
//! clean baseline trips none, scores are monotone, and the scorecard schema is committed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use promptset::PromptSet;
use promptset::lint::{self, RULES, Scorecard};
use promptset::validate::Validator;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn flawed_dir() -> PathBuf {
    root().join("fixtures/flawed")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Validates `text` (it must be valid) and lints it with positions.
fn lint_text(name: &str, text: &str) -> lint::LintReport {
    let validator = Validator::default();
    let validation = validator.validate(text.as_bytes());
    let set = validation
        .document
        .unwrap_or_else(|| panic!("{name} must be valid, got {:#?}", validation.diagnostics));
    lint::lint(&set, Some(text))
}

fn rules_fired(report: &lint::LintReport) -> BTreeSet<&'static str> {
    report.diagnostics.iter().map(|d| d.rule).collect()
}

fn flawed_fixtures() -> Vec<(String, PathBuf)> {
    let mut fixtures: Vec<(String, PathBuf)> = std::fs::read_dir(flawed_dir())
        .expect("fixtures/flawed exists")
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .filter(|path| path.file_stem().is_some_and(|s| s != "baseline"))
        .map(|path| {
            (
                path.file_stem()
                    .and_then(|s| s.to_str())
                    .unwrap_or_default()
                    .to_owned(),
                path,
            )
        })
        .collect();
    fixtures.sort();
    fixtures
}

#[test]
fn baseline_trips_no_rule_and_scores_high() {
    let text = read(&flawed_dir().join("baseline.json"));
    let report = lint_text("baseline", &text);
    assert!(
        report.diagnostics.is_empty(),
        "the clean baseline must trip no rule: {:#?}",
        report.diagnostics
    );
    assert!(
        report.scorecard.overall_score >= 95,
        "baseline scores {}",
        report.scorecard.overall_score
    );
}

#[test]
fn every_rule_has_a_flawed_fixture_that_trips_it() {
    let fixtures = flawed_fixtures();
    let names: BTreeSet<&str> = fixtures.iter().map(|(name, _)| name.as_str()).collect();
    let ids: BTreeSet<&str> = RULES.iter().map(|rule| rule.id).collect();
    assert_eq!(
        names, ids,
        "fixtures/flawed/ must hold exactly one `<rule-id>.json` per lint rule"
    );

    let mut fired_by_fixture = BTreeMap::new();
    for (name, path) in &fixtures {
        let report = lint_text(name, &read(path));
        let fired = rules_fired(&report);
        assert!(
            fired.contains(name.as_str()),
            "{name}.json must trip `{name}`, tripped {fired:?}"
        );
        for diagnostic in report.diagnostics.iter().filter(|d| d.rule == name) {
            assert!(
                diagnostic.line > 0 && diagnostic.column > 0,
                "{name}: no position for {diagnostic:?}"
            );
            assert_eq!(
                diagnostic.severity,
                promptset::diagnostic::Severity::Warning
            );
        }
        fired_by_fixture.insert(name.clone(), fired.into_iter().collect::<Vec<_>>());
    }
    // Which other rules each flaw drags along (e.g. a missing layer also moves the mix).
    insta::assert_yaml_snapshot!("rules_fired_by_flawed_fixture", fired_by_fixture);
}

fn sub_scores(scorecard: &Scorecard) -> Vec<(&'static str, u32)> {
    scorecard
        .sub_scores
        .named()
        .iter()
        .map(|(name, sub)| (*name, sub.score))
        .collect()
}

#[test]
fn a_flaw_never_raises_a_sub_score() {
    let baseline = lint_text("baseline", &read(&flawed_dir().join("baseline.json"))).scorecard;
    for (name, path) in flawed_fixtures() {
        let flawed = lint_text(&name, &read(&path)).scorecard;
        for ((sub, good), (_, bad)) in sub_scores(&baseline).into_iter().zip(sub_scores(&flawed)) {
            assert!(bad <= good, "{name}: {sub} rose from {good} to {bad}");
        }
        assert!(
            flawed.overall_score <= baseline.overall_score,
            "{name}: overall rose"
        );
    }
}

/// Applies `degrade(set, k)` for k = 0..=steps and checks that no sub-score ever rises.
fn assert_monotone(label: &str, steps: usize, degrade: impl Fn(&mut PromptSet<'static>, usize)) {
    let text = read(&flawed_dir().join("baseline.json"));
    let base: PromptSet<'static> = serde_json::from_str::<PromptSet<'_>>(&text)
        .expect("baseline parses")
        .into_owned();
    let mut previous: Option<Vec<(&str, u32)>> = None;
    let mut first_total = None;
    let mut last_total = 0;
    for k in 0..=steps {
        let mut set = base.clone();
        degrade(&mut set, k);
        let scorecard = lint::score(&set);
        let scores = sub_scores(&scorecard);
        if let Some(previous) = &previous {
            for ((sub, before), (_, after)) in previous.iter().zip(&scores) {
                assert!(
                    after <= before,
                    "{label}: {sub} rose from {before} to {after} at step {k}"
                );
            }
        }
        first_total.get_or_insert(scorecard.overall_score);
        last_total = scorecard.overall_score;
        previous = Some(scores);
    }
    assert!(
        last_total < first_total.unwrap_or(0),
        "{label}: {steps} steps of damage must cost points"
    );
}

#[test]
fn scores_fall_monotonically_as_flaws_accumulate() {
    assert_monotone("keyword fragments", 25, |set, k| {
        for prompt in set.prompts.iter_mut().take(k) {
            let words: Vec<String> = prompt
                .prompt
                .split_whitespace()
                .skip(2)
                .map(|w| w.trim_end_matches('?').to_lowercase())
                .collect();
            prompt.prompt = words.join(" ").into();
        }
    });
    assert_monotone("duplicates", 25, |set, k| {
        let copies: Vec<_> = set.prompts.iter().take(k).cloned().collect();
        set.prompts.extend(copies);
    });
    assert_monotone("brand leaks", 20, |set, k| {
        let brand = set.client_summary.brand_name.to_string();
        let mut leaked = 0;
        for prompt in set.prompts.iter_mut() {
            if leaked == k {
                break;
            }
            if prompt.layer == promptset::model::Layer::NonBrandDiscovery {
                prompt.prompt =
                    format!("{} with {brand}?", prompt.prompt.trim_end_matches('?')).into();
                leaked += 1;
            }
        }
    });
    assert_monotone("everything at one stage", 30, |set, k| {
        for prompt in set
            .prompts
            .iter_mut()
            .filter(|p| p.funnel_stage != promptset::model::FunnelStage::Bofu)
            .take(k)
        {
            prompt.funnel_stage = promptset::model::FunnelStage::Bofu;
        }
    });
}

#[test]
fn scorecard_adds_up() {
    for (name, path) in flawed_fixtures() {
        let scorecard = lint_text(&name, &read(&path)).scorecard;
        let named = scorecard.sub_scores.named();
        let maxima: Vec<u32> = named.iter().map(|(_, sub)| sub.max).collect();
        assert_eq!(maxima, vec![20, 15, 15, 20, 15, 10, 5]);
        let total: u32 = named.iter().map(|(_, sub)| sub.score).sum();
        assert_eq!(total, scorecard.overall_score, "{name}");
        for (sub_name, sub) in named {
            let checks: f64 = sub.checks.iter().map(|c| c.max).sum();
            assert!(
                (checks - f64::from(sub.max)).abs() < 1e-9,
                "{name}: {sub_name} checks add to {checks}"
            );
            assert!(sub.score <= sub.max);
        }
        assert!(
            !scorecard.top_findings.is_empty(),
            "{name}: a flawed set has top findings"
        );
        assert!(
            !scorecard.recommended_actions.is_empty(),
            "{name}: a flawed set has recommended actions"
        );
    }
}

#[test]
fn scorecard_schema_is_committed() {
    let path = root().join("schemas/scorecard.schema.json");
    let generated = lint::scorecard::schema_text();
    if std::env::var_os("PROMPTSET_UPDATE_SCHEMAS").is_some() {
        std::fs::write(&path, &generated).expect("write schemas/scorecard.schema.json");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "schemas/scorecard.schema.json is out of date with the Scorecard types; regenerate it with \
         `PROMPTSET_UPDATE_SCHEMAS=1 cargo test -p promptset --test lint scorecard_schema_is_committed` and commit it"
    );
}

#[test]
fn scorecards_validate_against_the_committed_schema() {
    let schema: serde_json::Value =
        serde_json::from_str(&read(&root().join("schemas/scorecard.schema.json")))
            .expect("schema is JSON");
    let validator = jsonschema::draft202012::new(&schema).expect("schema compiles");
    for (name, path) in flawed_fixtures().into_iter().take(5) {
        let scorecard = lint_text(&name, &read(&path)).scorecard;
        let value = serde_json::to_value(&scorecard).expect("serializes");
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        let back: Scorecard = serde_json::from_value(value).expect("round trip");
        assert_eq!(back, scorecard);
    }
}

#[test]
fn large_sets_find_exactly_the_planted_duplicate() {
    // 20,000 distinct prompts over 5 topics plus a handful of planted duplicates: the
    // near-duplicate search must find exactly the planted ones. (Speed is measured in
    // the benchmarks; this only proves the result on a large input.)
    let text = read(&flawed_dir().join("baseline.json"));
    let mut set: PromptSet<'static> = serde_json::from_str::<PromptSet<'_>>(&text)
        .expect("parses")
        .into_owned();
    let template = set.prompts.clone();
    let nouns = [
        "ledger", "invoice", "receipt", "payslip", "budget", "quote", "refund", "audit", "tax",
        "bank",
    ];
    set.prompts.clear();
    for i in 0..20_000usize {
        let mut prompt = template[i % template.len()].clone();
        prompt.prompt = format!(
            "{} for team{} with {} workflow{}?",
            prompt.prompt.trim_end_matches('?'),
            i,
            nouns[i % nouns.len()],
            i / 7
        )
        .into();
        set.prompts.push(prompt);
    }
    let planted = set.prompts[123].clone();
    set.prompts.push(planted);
    let report = lint::lint(&set, None);
    let duplicates = report
        .diagnostics
        .iter()
        .filter(|d| d.rule == "duplicate-prompt")
        .count();
    assert_eq!(duplicates, 1);
    let near = report
        .diagnostics
        .iter()
        .filter(|d| d.rule == "near-duplicate-prompt")
        .count();
    assert_eq!(
        near,
        0,
        "{:?}",
        report
            .diagnostics
            .iter()
            .find(|d| d.rule == "near-duplicate-prompt")
    );
}
