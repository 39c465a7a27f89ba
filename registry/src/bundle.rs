//! Rules over a skill bundle: slugs, paths, file limits, SKILL.md and its frontmatter,
//! runtime metadata, tags and the bundle fingerprint.

use std::collections::HashSet;

use serde_json::{Map, Value};

pub use promptset::skill::rules::{
    MAX_BUNDLE_BYTES, MAX_FILE_BYTES, MAX_FILES, MAX_PATH_CHARS, MAX_TAGS, PathProblem,
    fingerprint, is_skill_md, is_slug_shape, is_text, locale_compare, normalize_path,
};
use promptset::skill::rules::{SlugProblem, slug_problem};

/// Validates a new slug with the reference's messages (the rule itself is shared with
/// `promptset skill pack` in [`promptset::skill::rules`]).
pub fn validate_new_slug(slug: &str) -> Result<(), String> {
    match slug_problem(slug) {
        None => Ok(()),
        Some(SlugProblem::Empty) => Err("Slug is required.".into()),
        Some(SlugProblem::TooShort) => Err("Slug must be at least 3 characters.".into()),
        Some(SlugProblem::TooLong(_)) => Err("Slug must be at most 96 characters.".into()),
        Some(SlugProblem::Shape) => Err("Slug must start and end with a letter or digit, contain only lowercase letters, digits, and single hyphens, and not contain consecutive hyphens.".into()),
        Some(SlugProblem::Reserved) => Err(format!(
            "\"{slug}\" is reserved and cannot be used as a slug."
        )),
        Some(SlugProblem::Protected(affix)) => Err(format!(
            "\"{slug}\" uses the protected \"{affix}\" slug namespace. Choose a slug that does not start with \"{affix}-\" or end with \"-{affix}\"."
        )),
    }
}

/// Normalises a slug from a path or query: trimmed, lowercase.
pub fn normalize_slug(slug: &str) -> String {
    slug.trim().to_lowercase()
}

/// Normalises a content type: the part before `;`, trimmed, lowercase; empty → `None`.
pub fn normalize_content_type(content_type: Option<&str>) -> Option<String> {
    let value = content_type?.split(';').next()?.trim().to_ascii_lowercase();
    let printable = value.len() <= 255 && value.bytes().all(|b| (0x21..0x7f).contains(&b));
    (!value.is_empty() && printable).then_some(value)
}

/// What the registry reads from SKILL.md.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SkillDocument {
    /// `description` (or `metadata.description`) from the frontmatter.
    pub description: Option<String>,
    /// The `metadata` block, when present.
    pub metadata: Option<Value>,
    /// Prompt-set files the frontmatter declares (`promptsets: [path, …]`), checked on
    /// publish together with the sets under `examples/`.
    pub prompt_sets: Vec<String>,
}

/// Parses SKILL.md's optional YAML frontmatter (`---` fenced at the top).
pub fn parse_skill_md(path: &str, text: &str) -> Result<SkillDocument, String> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = body.split_inclusive('\n');
    let Some(first) = lines.next() else {
        return Ok(SkillDocument::default());
    };
    if first.trim_end() != "---" {
        return Ok(SkillDocument::default());
    }
    let mut yaml = String::new();
    let mut closed = false;
    for line in lines {
        if line.trim_end() == "---" {
            closed = true;
            break;
        }
        yaml.push_str(line);
    }
    if !closed {
        return Err(format!(
            "{path}:1:1: the frontmatter starts with `---` but is never closed"
        ));
    }
    let value = yaml_to_json(&yaml).map_err(|(line, column, message)| {
        format!(
            "{path}:{}:{column}: invalid frontmatter: {message}",
            line + 1
        )
    })?;
    let Value::Object(map) = value else {
        return Ok(SkillDocument::default());
    };
    let metadata = match map.get("metadata") {
        Some(Value::String(text)) => serde_json::from_str::<Value>(text).ok(),
        Some(value @ Value::Object(_)) => Some(value.clone()),
        _ => None,
    };
    let description = map
        .get("description")
        .and_then(Value::as_str)
        .or_else(|| metadata.as_ref()?.get("description")?.as_str())
        .map(|text| text.trim().to_owned())
        .filter(|text| !text.is_empty());
    let prompt_sets = match map.get("promptsets") {
        Some(Value::String(path)) => vec![path.clone()],
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    };
    Ok(SkillDocument {
        description,
        metadata,
        prompt_sets,
    })
}

fn yaml_to_json(text: &str) -> Result<Value, (usize, usize, String)> {
    use saphyr::{LoadableYamlNode, MarkedYaml};
    let documents = MarkedYaml::load_from_str(text).map_err(|error| {
        let marker = error.marker();
        (marker.line(), marker.col() + 1, error.info().to_owned())
    })?;
    Ok(documents.first().map(convert_yaml).unwrap_or(Value::Null))
}

fn convert_yaml(node: &saphyr::MarkedYaml<'_>) -> Value {
    use saphyr::{Scalar, YamlData};
    match &node.data {
        YamlData::Value(scalar) => match scalar {
            Scalar::Null => Value::Null,
            Scalar::Boolean(b) => Value::Bool(*b),
            Scalar::Integer(i) => Value::from(*i),
            Scalar::FloatingPoint(f) => serde_json::Number::from_f64(f.into_inner())
                .map_or_else(|| Value::String(f.to_string()), Value::Number),
            Scalar::String(s) => Value::String(s.to_string()),
        },
        YamlData::Representation(text, _, _) => Value::String(text.to_string()),
        YamlData::Tagged(_, inner) => convert_yaml(inner),
        YamlData::Sequence(items) => Value::Array(items.iter().map(convert_yaml).collect()),
        YamlData::Mapping(members) => {
            let mut map = Map::new();
            for (key, value) in members {
                let key = match &key.data {
                    YamlData::Value(Scalar::String(s)) => s.to_string(),
                    YamlData::Value(other) => format!("{other:?}"),
                    YamlData::Representation(text, _, _) => text.to_string(),
                    _ => continue,
                };
                map.insert(key, convert_yaml(value));
            }
            Value::Object(map)
        }
        YamlData::Alias(_) | YamlData::BadValue => Value::Null,
    }
}

/// The list/detail `metadata` object from the frontmatter's runtime block
/// (`metadata.openclaw|clawdbot|clawdis`), or `None` when there is none.
pub fn runtime_metadata(metadata: Option<&Value>) -> Option<Value> {
    let metadata = metadata?;
    let block = ["openclaw", "clawdbot", "clawdis"]
        .iter()
        .find_map(|key| metadata.get(*key))?
        .as_object()?;
    let mut setup: Vec<Value> = Vec::new();
    let mut seen = HashSet::new();
    let mut add = |key: &str, required: bool, setup: &mut Vec<Value>| {
        if !key.is_empty() && seen.insert(key.to_owned()) {
            setup.push(serde_json::json!({ "key": key, "required": required }));
        }
    };
    if let Some(requires) = block.get("requires").and_then(Value::as_object) {
        for list in ["env", "config"] {
            for item in requires
                .get(list)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(key) = item.as_str() {
                    add(key, true, &mut setup);
                }
            }
        }
    }
    for item in block
        .get("envVars")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        match item {
            Value::String(key) => add(key, true, &mut setup),
            Value::Object(entry) => {
                if let Some(key) = entry
                    .get("name")
                    .or_else(|| entry.get("key"))
                    .and_then(Value::as_str)
                {
                    let required = entry
                        .get("required")
                        .and_then(Value::as_bool)
                        .unwrap_or(true);
                    add(key, required, &mut setup);
                }
            }
            _ => {}
        }
    }
    let strings = |value: Option<&Value>| -> Value {
        match value.and_then(Value::as_array) {
            Some(items) => Value::Array(
                items
                    .iter()
                    .filter_map(|item| item.as_str().map(|s| Value::String(s.to_owned())))
                    .collect(),
            ),
            None => Value::Null,
        }
    };
    let os = strings(block.get("os"));
    let systems = strings(block.get("nix").and_then(|nix| nix.get("systems")));
    Some(serde_json::json!({ "setup": setup, "os": os, "systems": systems }))
}

/// Normalises publish tags: trimmed, de-duplicated, without `$`/`_` prefixes or
/// characters outside printable ASCII.
pub fn normalize_tags(tags: &[String]) -> Vec<String> {
    let mut seen = HashSet::new();
    tags.iter()
        .map(|tag| tag.trim())
        .filter(|tag| {
            !tag.is_empty()
                && !tag.starts_with('$')
                && !tag.starts_with('_')
                && tag.len() <= 64
                && tag.bytes().all(|b| (0x21..0x7f).contains(&b))
        })
        .filter(|tag| seen.insert(tag.to_string()))
        .take(MAX_TAGS)
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_follow_the_reference_rules() {
        assert!(validate_new_slug("demo-skill").is_ok());
        assert_eq!(
            validate_new_slug("ab").unwrap_err(),
            "Slug must be at least 3 characters."
        );
        assert!(validate_new_slug("Demo").is_err());
        assert!(validate_new_slug("a--b").is_err());
        assert!(validate_new_slug("admin").unwrap_err().contains("reserved"));
        assert!(
            validate_new_slug("clawhub-tools")
                .unwrap_err()
                .contains("protected")
        );
    }

    #[test]
    fn paths_are_confined() {
        assert_eq!(
            normalize_path("scripts/run.sh"),
            Ok("scripts/run.sh".into())
        );
        for bad in [
            "../x",
            "/etc/passwd",
            "a//b",
            "a\\b",
            "a/./b",
            "a\0b",
            "C:/x",
            "",
        ] {
            assert_eq!(normalize_path(bad), Err(PathProblem::Invalid), "{bad:?}");
        }
        assert_eq!(normalize_path("__MACOSX/x"), Err(PathProblem::Junk));
        assert_eq!(normalize_path("dir/.DS_Store"), Err(PathProblem::Junk));
        assert_eq!(normalize_path("skill-card.md"), Err(PathProblem::SkillCard));
    }

    #[test]
    fn frontmatter_yields_description_and_metadata() {
        let text = "---\nname: demo\ndescription: Says hello\nmetadata: {\"openclaw\": {\"requires\": {\"env\": [\"DEMO_KEY\"]}, \"os\": [\"linux\"]}}\n---\n# Demo\n";
        let document = parse_skill_md("SKILL.md", text).expect("valid");
        assert_eq!(document.description.as_deref(), Some("Says hello"));
        let metadata = runtime_metadata(document.metadata.as_ref()).expect("runtime block");
        assert_eq!(
            metadata,
            serde_json::json!({"setup": [{"key": "DEMO_KEY", "required": true}], "os": ["linux"], "systems": null})
        );
        let error = parse_skill_md("SKILL.md", "---\nname: [unclosed\n---\n").unwrap_err();
        assert!(error.starts_with("SKILL.md:"), "{error}");
        assert!(parse_skill_md("SKILL.md", "---\nname: x\n").is_err());
        assert_eq!(
            parse_skill_md("SKILL.md", "# no frontmatter").expect("ok"),
            SkillDocument::default()
        );
    }

    #[test]
    fn tags_are_cleaned() {
        let tags = ["latest", " stable ", "stable", "$x", "_y", "bad tag", ""].map(String::from);
        assert_eq!(normalize_tags(&tags), ["latest", "stable"]);
    }
}
