//! SKILL.md and its YAML frontmatter: the fields a prompt skill must declare (`name`,
//! `description`, `version`, optional `tags` and `title`), each problem reported with
//! its line and column in SKILL.md.

use saphyr::{LoadableYamlNode, MarkedYaml, Scalar, YamlData};

use super::Problem;
use super::rules::{FRONTMATTER, check_slug};

/// What a prompt skill declares about itself at the top of SKILL.md.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frontmatter {
    /// The slug the skill is published under.
    pub name: String,
    /// One or two sentences for listings and search.
    pub description: String,
    /// Strict semver of this release.
    pub version: String,
    /// Keywords for people browsing the registry.
    pub tags: Vec<String>,
    /// Display name; defaults to the name in title case.
    pub title: Option<String>,
}

impl Frontmatter {
    /// The display name sent to the registry.
    pub fn display_name(&self) -> String {
        match &self.title {
            Some(title) => title.clone(),
            None => self
                .name
                .split('-')
                .map(|word| {
                    let mut chars = word.chars();
                    match chars.next() {
                        Some(first) => first.to_uppercase().chain(chars).collect::<String>(),
                        None => String::new(),
                    }
                })
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

/// Reads the frontmatter of SKILL.md (`path` names it in problems). Returns every
/// problem found, not just the first.
pub fn parse(path: &str, text: &str) -> Result<Frontmatter, Vec<Problem>> {
    let problem = |line: usize, column: usize, message: String| Problem {
        rule: FRONTMATTER,
        path: path.to_owned(),
        line,
        column,
        message,
    };
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = body.split_inclusive('\n');
    if lines.next().map(str::trim_end) != Some("---") {
        return Err(vec![problem(
            1,
            1,
            "SKILL.md must start with a `---` line opening the frontmatter (name, description, version, tags)".into(),
        )]);
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
        return Err(vec![problem(
            1,
            1,
            "the frontmatter opened by `---` is never closed by another `---` line".into(),
        )]);
    }
    // YAML line n is line n + 1 of SKILL.md: the opening `---` comes first.
    let documents = MarkedYaml::load_from_str(&yaml).map_err(|error| {
        let marker = error.marker();
        vec![problem(
            marker.line().max(1) + 1,
            marker.col() + 1,
            format!("invalid frontmatter YAML: {}", error.info()),
        )]
    })?;
    let Some(root) = documents.first() else {
        return Err(vec![problem(
            2,
            1,
            "the frontmatter is empty; it needs name, description and version".into(),
        )]);
    };
    let YamlData::Mapping(members) = &root.data else {
        return Err(vec![problem(
            2,
            1,
            "the frontmatter must be a mapping of `key: value` lines".into(),
        )]);
    };
    let at = |node: &MarkedYaml<'_>| (node.span.start.line().max(1) + 1, node.span.start.col() + 1);
    let find = |key: &str| {
        members.iter().find_map(|(name, value)| match &name.data {
            YamlData::Value(Scalar::String(text)) if text == key => Some(value),
            _ => None,
        })
    };
    let mut problems = Vec::new();
    let string = |key: &str, problems: &mut Vec<Problem>| -> Option<(String, (usize, usize))> {
        let Some(node) = find(key) else {
            problems.push(problem(1, 1, format!("the frontmatter has no `{key}`")));
            return None;
        };
        match scalar_text(node, &yaml) {
            Some(text) if !text.trim().is_empty() => Some((text.trim().to_owned(), at(node))),
            Some(_) => {
                let (line, column) = at(node);
                problems.push(problem(line, column, format!("`{key}` is empty")));
                None
            }
            None => {
                let (line, column) = at(node);
                problems.push(problem(line, column, format!("`{key}` must be a string")));
                None
            }
        }
    };
    let name = string("name", &mut problems);
    let description = string("description", &mut problems);
    let version = string("version", &mut problems);
    if let Some((name, (line, column))) = &name
        && let Err(message) = check_slug(name)
    {
        problems.push(problem(*line, *column, format!("`name`: {message}")));
    }
    if let Some((version, (line, column))) = &version
        && semver::Version::parse(version).is_err()
    {
        problems.push(problem(
            *line,
            *column,
            format!("`version` `{version}` is not a semantic version such as `1.0.0`"),
        ));
    }
    let mut tags = Vec::new();
    if let Some(node) = find("tags") {
        match &node.data {
            YamlData::Sequence(items) => {
                for item in items {
                    match scalar_text(item, &yaml) {
                        Some(tag) if !tag.trim().is_empty() => tags.push(tag.trim().to_owned()),
                        _ => {
                            let (line, column) = at(item);
                            problems.push(problem(
                                line,
                                column,
                                "every entry of `tags` must be a non-empty string".into(),
                            ));
                        }
                    }
                }
            }
            YamlData::Value(Scalar::Null) => {}
            _ => {
                let (line, column) = at(node);
                problems.push(problem(
                    line,
                    column,
                    "`tags` must be a list such as `[geo, prompts]`".into(),
                ));
            }
        }
    }
    let title = match find("title") {
        None => None,
        Some(node) => match scalar_text(node, &yaml) {
            Some(text) if !text.trim().is_empty() => Some(text.trim().to_owned()),
            _ => {
                let (line, column) = at(node);
                problems.push(problem(
                    line,
                    column,
                    "`title` must be a non-empty string".into(),
                ));
                None
            }
        },
    };
    match (name, description, version) {
        (Some((name, _)), Some((description, _)), Some((version, _))) if problems.is_empty() => {
            Ok(Frontmatter {
                name,
                description,
                version,
                tags,
                title,
            })
        }
        _ => Err(problems),
    }
}

/// The text of a scalar node. Numbers count, as written (a version `1.0` stays `1.0`
/// and then fails the semver check with a clear message instead of a type error).
fn scalar_text(node: &MarkedYaml<'_>, source: &str) -> Option<String> {
    match &node.data {
        YamlData::Value(Scalar::String(text)) => Some(text.to_string()),
        YamlData::Value(Scalar::Integer(_) | Scalar::FloatingPoint(_)) => {
            let (start, end) = (node.span.start.index(), node.span.end.index());
            let written: String = source
                .chars()
                .skip(start)
                .take(end.saturating_sub(start))
                .collect();
            Some(written.trim().to_owned())
        }
        YamlData::Representation(text, _, _) => Some(text.to_string()),
        YamlData::Tagged(_, inner) => scalar_text(inner, source),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_field() {
        let text = "---\nname: geo-prompts\ndescription: Builds prompt sets\nversion: 1.2.0\ntags: [geo, prompts]\n---\n# Usage\n";
        let frontmatter = parse("SKILL.md", text).expect("valid");
        assert_eq!(frontmatter.name, "geo-prompts");
        assert_eq!(frontmatter.version, "1.2.0");
        assert_eq!(frontmatter.tags, ["geo", "prompts"]);
        assert_eq!(frontmatter.display_name(), "Geo Prompts");
    }

    #[test]
    fn reports_every_problem_with_its_line() {
        let text = "---\nname: Bad Name\nversion: 1.0\ntags: geo\n---\n";
        let problems = parse("SKILL.md", text).expect_err("invalid");
        let rendered: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert!(
            rendered.iter().any(|p| p.contains("no `description`")),
            "{rendered:?}"
        );
        assert!(
            rendered
                .iter()
                .any(|p| p.starts_with("SKILL.md:2:7: `name`")),
            "{rendered:?}"
        );
        assert!(
            rendered
                .iter()
                .any(|p| p.starts_with("SKILL.md:3:10: `version`")),
            "{rendered:?}"
        );
        assert!(
            rendered
                .iter()
                .any(|p| p.starts_with("SKILL.md:4:7: `tags`")),
            "{rendered:?}"
        );
    }

    #[test]
    fn broken_yaml_has_a_position() {
        let problems = parse("SKILL.md", "---\nname: [unclosed\n---\n").expect_err("invalid");
        assert_eq!(problems.len(), 1);
        assert!(problems[0].line >= 2, "{problems:?}");
        let problems = parse("SKILL.md", "# no frontmatter\n").expect_err("invalid");
        assert_eq!(problems[0].line, 1);
    }
}
