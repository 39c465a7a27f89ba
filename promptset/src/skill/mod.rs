//! Prompt skills: a folder a registry can publish (SKILL.md with frontmatter, the
//! generator and phrasing templates, the prompt-set schema and example sets), made by
//! [`scaffold`], checked and bundled by [`pack`] under the registry's own file rules
//! ([`rules`]), and published through registry API v1 by [`client`].
//!
//! Nothing here prints: the CLI (`promptset skill`) reports problems and progress.

pub mod client;
pub mod frontmatter;
pub mod pack;
pub mod rules;
pub mod scaffold;

use std::fmt;
use std::path::PathBuf;

/// One problem with a skill folder, at a file and (when known) a line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The rule's id: one of [`rules::SKILL_RULES`], or the rule of a brief, validation
    /// or lint finding in an example (all in `crate::diagnostic::rules::catalogue`).
    pub rule: &'static str,
    /// The file, relative to the skill folder (`.` for the folder itself).
    pub path: String,
    /// 1-based line, 0 when the problem concerns the whole file.
    pub line: usize,
    /// 1-based column, 0 when unknown.
    pub column: usize,
    /// A sentence for people.
    pub message: String,
}

impl Problem {
    /// A problem with a whole file.
    pub fn file(rule: &'static str, path: impl Into<String>, message: impl Into<String>) -> Self {
        Problem {
            rule,
            path: path.into(),
            line: 0,
            column: 0,
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => write!(formatter, "{}: ", self.path)?,
            (line, 0) => write!(formatter, "{}:{line}: ", self.path)?,
            (line, column) => write!(formatter, "{}:{line}:{column}: ", self.path)?,
        }
        write!(formatter, "{} [{}]", self.message, self.rule)
    }
}

/// What can stop a skill command before it gets to judge the skill.
#[derive(Debug, thiserror::Error)]
pub enum SkillError {
    /// A file or folder could not be read or written.
    #[error("failed to {action} `{}`", path.display())]
    Io {
        /// What was being done (`read`, `write`, `create`).
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// `skill init` would overwrite files.
    #[error("`{}` is not empty; pass --force to write the skill into it anyway", path.display())]
    NotEmpty {
        /// The folder.
        path: PathBuf,
    },
    /// The built-in generator failed on the example brief.
    #[error("failed to generate the example prompt set: {0}")]
    Generate(#[from] crate::generate::GenerateError),
    /// The example brief given to `skill init` is not a valid brief.
    #[error("the brief `{}` is invalid:\n{}", path.display(), problems.iter().map(|p| format!("  {p}")).collect::<Vec<_>>().join("\n"))]
    Brief {
        /// The brief file.
        path: PathBuf,
        /// What is wrong with it.
        problems: Vec<Problem>,
    },
    /// The name given for a new skill is not a valid slug.
    #[error("invalid skill name: {0}")]
    Name(String),
    /// Writing the bundle archive failed.
    #[error("failed to build the bundle archive: {0}")]
    Archive(String),
}
