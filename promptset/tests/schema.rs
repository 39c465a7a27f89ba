//! The committed schema matches the types, and the openai-strict variant keeps its promises.

use promptset::schema::{Variant, schema, schema_text};
use serde_json::Value;

const COMMITTED: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../schemas/promptset.schema.json"
));

#[test]
fn committed_schema_matches_the_types() {
    assert!(
        COMMITTED == schema_text(Variant::Canonical),
        "schemas/promptset.schema.json is out of date with the Rust types in promptset/src/model.rs\n\
         hint: regenerate it with `cargo run -p promptset -- schema -o schemas/promptset.schema.json`"
    );
}

/// Visits every object schema (one with `properties`).
fn objects(value: &Value, visit: &mut dyn FnMut(&serde_json::Map<String, Value>)) {
    match value {
        Value::Object(map) => {
            if map.contains_key("properties") {
                visit(map);
            }
            map.values().for_each(|v| objects(v, visit));
        }
        Value::Array(items) => items.iter().for_each(|v| objects(v, visit)),
        _ => {}
    }
}

fn keywords(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                // Property names under `properties` are names, not keywords.
                if key == "properties" {
                    child
                        .as_object()
                        .into_iter()
                        .flat_map(|m| m.values())
                        .for_each(|v| keywords(v, out));
                } else {
                    out.push(key.clone());
                    keywords(child, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| keywords(v, out)),
        _ => {}
    }
}

#[test]
fn canonical_schema_is_strict_and_flat() {
    let canonical = schema(Variant::Canonical);
    assert_eq!(
        canonical["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    let mut count = 0;
    objects(&canonical, &mut |object| {
        count += 1;
        assert_eq!(
            object.get("additionalProperties"),
            Some(&Value::Bool(false)),
            "{object:?}"
        );
    });
    assert_eq!(
        count, 7,
        "client_summary, topic, strategy, layer_mix, prompt, priority_lists and the root"
    );
    let text = canonical.to_string();
    for banned in ["$ref", "$defs", "oneOf", "anyOf", "null"] {
        assert!(
            !text.contains(banned),
            "canonical schema contains `{banned}`"
        );
    }
    assert_eq!(canonical["properties"]["topic_map"]["minItems"], 1);
    assert_eq!(canonical["properties"]["prompts"]["minItems"], 1);
    let required: Vec<&str> = canonical["properties"]["prompts"]["items"]["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(
        required,
        [
            "prompt",
            "topic",
            "topic_source",
            "layer",
            "funnel_stage",
            "category",
            "business_value",
            "geo_priority",
            "monitoring_value",
            "answer_entry_mode",
            "why_it_matters"
        ]
    );
}

#[test]
fn openai_strict_requires_everything_and_makes_optionals_nullable() {
    let canonical = schema(Variant::Canonical);
    let strict = schema(Variant::OpenAiStrict);
    objects(&strict, &mut |object| {
        let properties: Vec<&String> = object["properties"].as_object().unwrap().keys().collect();
        let required: Vec<&str> = object["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(
            properties, required,
            "every property is required in strict mode"
        );
        assert_eq!(object["additionalProperties"], Value::Bool(false));
    });
    // Optional fields became nullable, required ones did not.
    let prompt = &strict["properties"]["prompts"]["items"]["properties"];
    assert_eq!(
        prompt["product_line"]["type"],
        serde_json::json!(["string", "null"])
    );
    assert_eq!(prompt["prompt"]["type"], "string");
    assert_eq!(
        strict["properties"]["priority_lists"]["type"],
        serde_json::json!(["object", "null"])
    );
    // Only keywords OpenAI structured outputs accept in strict mode.
    let allowed = [
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "description",
        "title",
        "minItems",
    ];
    let mut used = Vec::new();
    keywords(&strict, &mut used);
    for keyword in used {
        assert!(
            allowed.contains(&keyword.as_str()),
            "strict schema uses `{keyword}`"
        );
    }
    // Same properties as canonical: derived, not written by hand.
    let mut canonical_count = 0;
    objects(&canonical, &mut |_| canonical_count += 1);
    let mut strict_count = 0;
    objects(&strict, &mut |_| strict_count += 1);
    assert_eq!(canonical_count, strict_count);
}

#[test]
fn both_variants_compile_as_draft_2020_12() {
    for variant in [Variant::Canonical, Variant::OpenAiStrict] {
        jsonschema::draft202012::new(&schema(variant)).expect("schema compiles");
    }
}
