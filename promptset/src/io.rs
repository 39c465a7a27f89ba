//! Input and output helpers of the binary: `-` for stdin/stdout, context on every error.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

/// Writes `bytes` to `path`, or to stdout when `path` is `None` or `-`.
pub fn write_output(path: Option<&Path>, bytes: &[u8]) -> Result<()> {
    match path {
        Some(path) if path != Path::new("-") => std::fs::write(path, bytes)
            .with_context(|| format!("failed to write `{}`", path.display())),
        _ => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(bytes)
                .and_then(|()| stdout.flush())
                .context("failed to write to stdout")
        }
    }
}

/// One document to check: a file, or stdin (`-`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A file on disk, with the path as the user gave it (or as found in a directory).
    File(std::path::PathBuf),
    /// Standard input.
    Stdin,
}

impl Input {
    /// The input a command-line path names: `-` is stdin, anything else a file.
    pub fn from_arg(path: &Path) -> Input {
        if path == Path::new("-") {
            Input::Stdin
        } else {
            Input::File(path.to_path_buf())
        }
    }

    /// The name used in messages: the path, or `-` for stdin.
    pub fn name(&self) -> String {
        match self {
            Input::File(path) => path.display().to_string(),
            Input::Stdin => "-".to_owned(),
        }
    }

    /// Reads the whole input into memory (one allocation of the file's size).
    pub fn read(&self) -> Result<Vec<u8>> {
        match self {
            Input::File(path) => {
                std::fs::read(path).with_context(|| format!("failed to read `{}`", path.display()))
            }
            Input::Stdin => {
                let mut bytes = Vec::new();
                std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)
                    .context("failed to read stdin")?;
                Ok(bytes)
            }
        }
    }
}

/// Expands the paths of the command line: files as given, directories recursively to
/// their `*.json` files (sorted, so output is stable), `-` to stdin. Paths that cannot
/// be read are returned as errors beside the inputs, so one bad path does not hide the
/// findings of the others.
pub fn collect_inputs(paths: &[std::path::PathBuf]) -> (Vec<Input>, Vec<anyhow::Error>) {
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        let input = Input::from_arg(path);
        if matches!(input, Input::Stdin) {
            inputs.push(input);
            continue;
        }
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => walk_dir(path, &mut inputs, &mut errors),
            Ok(_) => inputs.push(input),
            Err(err) => errors
                .push(anyhow::Error::new(err).context(format!("cannot read `{}`", path.display()))),
        }
    }
    (inputs, errors)
}

fn walk_dir(dir: &Path, inputs: &mut Vec<Input>, errors: &mut Vec<anyhow::Error>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) => {
            errors.push(
                anyhow::Error::new(err)
                    .context(format!("cannot read directory `{}`", dir.display())),
            );
            return;
        }
    };
    let mut paths: Vec<std::path::PathBuf> = Vec::new();
    for entry in entries {
        match entry {
            Ok(entry) => paths.push(entry.path()),
            Err(err) => errors
                .push(anyhow::Error::new(err).context(format!("cannot list `{}`", dir.display()))),
        }
    }
    paths.sort();
    for path in paths {
        // Follow the entry's own type so a symlink loop cannot recurse forever.
        let is_dir = std::fs::symlink_metadata(&path)
            .map(|m| m.is_dir())
            .unwrap_or(false);
        if is_dir {
            walk_dir(&path, inputs, errors);
        } else if path
            .extension()
            .is_some_and(|ext| ext.eq_ignore_ascii_case("json"))
        {
            inputs.push(Input::File(path));
        }
    }
}

/// Whether to draw progress bars: only when a person is watching stdout.
pub fn interactive() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal() && std::io::stderr().is_terminal()
}
