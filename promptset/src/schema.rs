//! The JSON Schemas derived from [`crate::model`]: `canonical` and `openai-strict`.
//!
//! Both are generated, never hand-written. `canonical` is committed as
//! `schemas/promptset.schema.json` (a test fails when it drifts from the types);
//! `openai-strict` is derived from `canonical` mechanically so that OpenAI structured
//! outputs accept it in strict mode.

use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

use crate::model::PromptSet;

/// Which schema variant to produce or validate against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Variant {
    /// The format as specified: optional fields are absent, never `null`.
    #[default]
    Canonical,
    /// Every property required, optional ones nullable: what OpenAI strict mode accepts.
    OpenAiStrict,
}

impl Variant {
    /// The name used on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Variant::Canonical => "canonical",
            Variant::OpenAiStrict => "openai-strict",
        }
    }
}

/// The `$id` of the canonical schema.
pub const SCHEMA_ID: &str = "https://promptset.dev/schemas/promptset.schema.json";

/// The schema of `variant` as a JSON value.
pub fn schema(variant: Variant) -> Value {
    let canonical = canonical();
    match variant {
        Variant::Canonical => canonical,
        Variant::OpenAiStrict => openai_strict(&canonical),
    }
}

/// The schema of `variant` as the pretty-printed text `promptset schema` prints (with a
/// trailing newline), byte-identical to the committed file for `canonical`.
pub fn schema_text(variant: Variant) -> String {
    let mut text =
        serde_json::to_string_pretty(&schema(variant)).expect("a schema always serializes");
    text.push('\n');
    text
}

fn canonical() -> Value {
    let generator = SchemaSettings::draft2020_12()
        .with(|settings| {
            // Generic tools and LLM APIs choke on `$ref` indirection: inline everything.
            settings.inline_subschemas = true;
        })
        .into_generator();
    let root = generator.into_root_schema_for::<PromptSet<'static>>();
    let mut value = root.to_value();
    if let Value::Object(map) = &mut value {
        let mut ordered = Map::new();
        ordered.insert(
            "$schema".into(),
            map.remove("$schema").unwrap_or(Value::Null),
        );
        ordered.insert("$id".into(), Value::String(SCHEMA_ID.into()));
        ordered.append(map);
        value = Value::Object(ordered);
    }
    strip_null_from_optionals(&mut value);
    value
}

/// schemars types `Option<T>` as `T | null`; the format wants optional fields absent,
/// never `null`, so the `null` comes out of every property that is not required.
fn strip_null_from_optionals(schema: &mut Value) {
    walk_objects(schema, &mut |object| {
        let required: Vec<String> = required_names(object);
        if let Some(Value::Object(properties)) = object.get_mut("properties") {
            for (name, property) in properties.iter_mut() {
                if required.contains(name) {
                    continue;
                }
                if let Some(Value::Array(types)) = property.get_mut("type") {
                    types.retain(|t| t != "null");
                    if types.len() == 1 {
                        let single = types[0].clone();
                        property["type"] = single;
                    }
                }
                if let Some(Value::Array(values)) = property.get_mut("enum") {
                    values.retain(|v| !v.is_null());
                }
            }
        }
    });
}

/// Derives the OpenAI strict-mode variant: every property required, the optional ones
/// nullable, and only keywords strict mode accepts.
fn openai_strict(canonical: &Value) -> Value {
    let mut schema = canonical.clone();
    if let Value::Object(map) = &mut schema {
        // Strict mode rejects meta keywords it does not know; the name travels in the request.
        map.remove("$schema");
        map.remove("$id");
    }
    walk_objects(&mut schema, &mut |object| {
        let required = required_names(object);
        let Some(Value::Object(properties)) = object.get_mut("properties") else {
            return;
        };
        let mut all = Vec::with_capacity(properties.len());
        for (name, property) in properties.iter_mut() {
            all.push(Value::String(name.clone()));
            if !required.contains(name) {
                make_nullable(property);
            }
        }
        object.insert("required".into(), Value::Array(all));
    });
    schema
}

fn make_nullable(property: &mut Value) {
    match property.get_mut("type") {
        Some(Value::String(single)) => {
            let single = std::mem::take(single);
            property["type"] =
                Value::Array(vec![Value::String(single), Value::String("null".into())]);
        }
        Some(Value::Array(types)) if !types.iter().any(|t| t == "null") => {
            types.push(Value::String("null".into()));
        }
        _ => {}
    }
    if let Some(Value::Array(values)) = property.get_mut("enum")
        && !values.iter().any(Value::is_null)
    {
        values.push(Value::Null);
    }
}

fn required_names(object: &Map<String, Value>) -> Vec<String> {
    match object.get("required") {
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(|n| n.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    }
}

/// Calls `visit` on every object schema (one with `properties`), depth first.
fn walk_objects(schema: &mut Value, visit: &mut dyn FnMut(&mut Map<String, Value>)) {
    match schema {
        Value::Object(map) => {
            if map.contains_key("properties") {
                visit(map);
            }
            for (_, child) in map.iter_mut() {
                walk_objects(child, visit);
            }
        }
        Value::Array(items) => {
            for item in items {
                walk_objects(item, visit);
            }
        }
        _ => {}
    }
}
