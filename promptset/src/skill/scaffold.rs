//! `skill init`: a new prompt skill folder that already packs cleanly. It carries the
//! templates the binary embeds (so the skill reproduces its sets with
//! `promptset generate --templates templates/`), the canonical schema, and an example
//! brief with the prompt set the built-in generator makes from it.

use std::path::{Path, PathBuf};

use crate::brief::{Brief, parse_brief};
use crate::generate::templates::EMBEDDED;
use crate::generate::{Generator, Options, to_json};
use crate::schema::{Variant, schema_text};

use super::{Problem, SkillError};

/// The brief the example set is generated from when the author gives none: a fictional
/// roastery, small enough to read and rich enough to fill every layer and stage.
const EXAMPLE_BRIEF: &str = r#"{
  "brand_name": "Northwind Roasters",
  "website_url": "https://northwind-roasters.example",
  "business_model": "ecommerce",
  "target_markets": ["United States", "Canada"],
  "languages": ["en"],
  "target_customers": ["home espresso enthusiasts", "small offices buying coffee in bulk"],
  "priority_topics": [
    {
      "name": "Coffee subscriptions",
      "seed_keywords": ["coffee subscription", "fresh roasted coffee delivery"]
    }
  ],
  "core_product_lines": [
    { "name": "Single-origin beans", "priority_keywords": ["single origin coffee beans"] },
    { "name": "Office coffee plans" }
  ],
  "competitors": [
    { "name": "Blue Bottle", "overlap_tier": "high" },
    { "name": "Trade Coffee", "overlap_tier": "medium-high" }
  ],
  "priority_channels": ["Amazon"],
  "business_goals": ["be recommended when people look for a coffee subscription"],
  "optional_context": { "category": "specialty coffee" }
}
"#;

/// What `skill init` should write.
#[derive(Debug, Clone, Default)]
pub struct InitOptions {
    /// The skill's name (slug); defaults to the folder's name.
    pub name: Option<String>,
    /// A brief of the author's own for the example; the built-in one otherwise.
    pub brief: Option<PathBuf>,
    /// Write into a folder that already has files (files of the skill are replaced).
    pub force: bool,
}

/// What `skill init` wrote.
#[derive(Debug, Clone)]
pub struct Scaffolded {
    /// The skill's name.
    pub name: String,
    /// Every file written, relative to the folder, sorted.
    pub files: Vec<String>,
}

/// Writes a new prompt skill into `dir` (created when missing).
pub fn init(dir: &Path, options: &InitOptions) -> Result<Scaffolded, SkillError> {
    let io = |action: &'static str, path: &Path| {
        let path = path.to_path_buf();
        move |source| SkillError::Io {
            action,
            path,
            source,
        }
    };
    if dir.exists() && !options.force {
        let mut entries = std::fs::read_dir(dir).map_err(io("read", dir))?;
        if entries.next().is_some() {
            return Err(SkillError::NotEmpty {
                path: dir.to_path_buf(),
            });
        }
    }
    let name = match &options.name {
        Some(name) => name.clone(),
        None => default_name(dir),
    };
    super::rules::check_slug(&name).map_err(SkillError::Name)?;
    let (brief_text, brief_extension) = match &options.brief {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(io("read", path))?;
            let extension = match path.extension().and_then(|e| e.to_str()) {
                Some("yaml" | "yml") => "yaml",
                _ => "json",
            };
            (bytes, extension)
        }
        None => (EXAMPLE_BRIEF.as_bytes().to_vec(), "json"),
    };
    let brief: Brief = parse_brief(&brief_text, None).map_err(|diagnostics| SkillError::Brief {
        path: options
            .brief
            .clone()
            .unwrap_or_else(|| PathBuf::from("built-in brief")),
        problems: diagnostics
            .into_iter()
            .map(|d| Problem {
                rule: d.rule,
                path: "brief".into(),
                line: d.line,
                column: d.column,
                message: d.message,
            })
            .collect(),
    })?;
    let generated = Generator::new(None)?.generate(&brief, &Options::default())?;
    let example = example_stem(&brief.brand_name);

    let mut files: Vec<(String, Vec<u8>)> = vec![
        ("SKILL.md".into(), skill_md(&name, &example).into_bytes()),
        (
            "schema/promptset.schema.json".into(),
            schema_text(Variant::Canonical).into_bytes(),
        ),
        (
            format!("examples/{example}.brief.{brief_extension}"),
            brief_text,
        ),
        (
            format!("examples/{example}.promptset.json"),
            to_json(&generated.set).into_bytes(),
        ),
    ];
    for (template, text) in EMBEDDED {
        files.push((format!("templates/{template}"), text.as_bytes().to_vec()));
    }
    for (relative, bytes) in &files {
        let path = dir.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io("create", parent))?;
        }
        std::fs::write(&path, bytes).map_err(io("write", &path))?;
    }
    let mut written: Vec<String> = files.into_iter().map(|(path, _)| path).collect();
    written.sort();
    Ok(Scaffolded {
        name,
        files: written,
    })
}

/// The folder's name made into a slug: lowercase, runs of other characters as one hyphen.
fn default_name(dir: &Path) -> String {
    let base = dir
        .canonicalize()
        .ok()
        .and_then(|path| path.file_name().map(|n| n.to_string_lossy().into_owned()))
        .or_else(|| dir.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default();
    slugify(&base)
}

fn slugify(text: &str) -> String {
    let mut slug = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    slug.trim_end_matches('-').to_owned()
}

fn example_stem(brand: &str) -> String {
    let stem = slugify(brand);
    if stem.is_empty() {
        "example".into()
    } else {
        stem
    }
}

fn skill_md(name: &str, example: &str) -> String {
    format!(
        "---
name: {name}
description: Builds topic-first GEO prompt sets from a client brief, for monitoring how AI assistants answer questions in a brand's market.
version: 1.0.0
tags: [geo, prompt-set, monitoring]
---

# {name}

A prompt skill: it turns a client brief (brand, business model, markets, customers,
product lines, competitors) into a prompt set that tracks how ChatGPT, Perplexity, Claude
and Google AI Overviews answer questions in the brand's market.

## Use it

1. Write a brief like `examples/{example}.brief.json`.
2. Generate the set with this skill's templates:
   `promptset generate --brief brief.json --templates templates/ -o set.json`
3. Check it: `promptset validate set.json` and `promptset lint set.json`.

An agent without the `promptset` binary can follow `templates/generator-prompt.j2`: it is
the prompt `promptset generate --llm` sends to a model, and the output must validate
against `schema/promptset.schema.json`.

## What is inside

- `templates/`: the generator prompt and the phrasing templates
  (`prompts/<lang>/<layer>/<topic-type>/<stage>.j2`).
- `schema/promptset.schema.json`: the JSON Schema every set must satisfy.
- `examples/`: a brief and the prompt set generated from it with the templates above.
"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_come_from_names() {
        assert_eq!(slugify("My Prompt Skill!"), "my-prompt-skill");
        assert_eq!(example_stem("Northwind Roasters"), "northwind-roasters");
        assert_eq!(example_stem("茶"), "example");
    }
}
