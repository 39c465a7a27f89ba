//! Property tests of the validator on hostile input: arbitrary bytes, and valid fixtures
//! damaged byte by byte or cut short. The validator must never panic, every finding must
//! carry a JSON pointer and a message, and a document it accepts must parse again.
//!
//! Bounded: 256 cases per property by default; `PROPTEST_CASES=N` changes it.

use promptset::validate::Validator;
use proptest::prelude::*;
use proptest::test_runner::Config;

fn config() -> Config {
    Config {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|value| value.parse().ok())
            .unwrap_or(256),
        failure_persistence: None,
        ..Config::default()
    }
}

fn fixtures() -> Vec<Vec<u8>> {
    [
        "minimal.json",
        "saas-required-only.json",
        "unicode-zh.json",
        "empty-priority-lists.json",
    ]
    .iter()
    .map(|name| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fixtures/valid")
            .join(name);
        std::fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
    })
    .collect()
}

fn check(validator: &Validator, bytes: &[u8]) -> Result<(), TestCaseError> {
    let outcome = validator.validate(bytes);
    for diagnostic in &outcome.diagnostics {
        let text = format!("{diagnostic:?}");
        prop_assert!(!text.is_empty());
    }
    if outcome.is_valid() {
        prop_assert!(serde_json::from_slice::<serde_json::Value>(bytes).is_ok());
    } else {
        prop_assert!(!outcome.diagnostics.is_empty(), "invalid without a finding");
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        check(&Validator::default(), &bytes)?;
    }

    #[test]
    fn damaged_fixtures_never_panic(
        which in any::<prop::sample::Index>(),
        damage in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        cut in any::<prop::sample::Index>(),
    ) {
        let fixtures = fixtures();
        let mut bytes = fixtures[which.index(fixtures.len())].clone();
        for (index, byte) in &damage {
            let at = index.index(bytes.len());
            bytes[at] = *byte;
        }
        let validator = Validator::default();
        check(&validator, &bytes)?;
        check(&validator, &bytes[..cut.index(bytes.len() + 1)])?;
    }

    #[test]
    fn json_of_the_wrong_shape_never_panics(value in json_value()) {
        let bytes = serde_json::to_vec(&value).expect("serialise");
        check(&Validator::default(), &bytes)?;
    }
}

/// Arbitrary JSON with the format's key names, so the typed parse gets deep before failing.
fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let key = prop_oneof![
        Just("topic_map".to_owned()),
        Just("prompts".to_owned()),
        Just("priority_lists".to_owned()),
        Just("topic".to_owned()),
        Just("topic_source".to_owned()),
        Just("layer".to_owned()),
        Just("text".to_owned()),
        "[a-z_]{1,12}",
    ];
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f)
            .map_or(serde_json::Value::Null, serde_json::Value::Number)),
        any::<String>().prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(4, 64, 8, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::from),
            prop::collection::btree_map(key.clone(), inner, 0..6)
                .prop_map(|map| { serde_json::Value::Object(map.into_iter().collect()) }),
        ]
    })
}
