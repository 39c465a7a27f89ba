//! Writing, copying and comparing file trees, and printing a process's output.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use anyhow::{Context as _, Result};

/// Writes `(relative path, text)` pairs below `dir`, creating parent folders.
pub fn write_files(dir: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let target = dir.join(path);
        fs::create_dir_all(target.parent().expect("a file path has a parent")).expect("dir");
        fs::write(&target, text).expect("write");
    }
}

/// Copies a directory tree.
pub fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    fs::create_dir_all(to).with_context(|| format!("failed to create `{}`", to.display()))?;
    for entry in
        fs::read_dir(from).with_context(|| format!("failed to read `{}`", from.display()))?
    {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            fs::copy(entry.path(), &target)
                .with_context(|| format!("failed to copy `{}`", entry.path().display()))?;
        }
    }
    Ok(())
}

/// A path as a command-line argument (temp paths are UTF-8 here).
pub fn path_arg(path: &Path) -> &str {
    path.to_str().expect("temp paths are UTF-8")
}

/// Exit status, stdout and stderr of a finished process, for assertion messages.
pub fn show(output: &Output) -> String {
    format!(
        "exit: {}\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Every publishable file of `source` (dotfiles excluded: no client publishes them)
/// exists below `installed` with the same bytes.
pub fn assert_same_files(source: &Path, installed: &Path) {
    let files = publishable_files(source);
    assert!(!files.is_empty(), "`{}` has no files", source.display());
    for relative in files {
        let expected = fs::read(source.join(&relative)).expect("source file");
        let actual = fs::read(installed.join(&relative)).unwrap_or_else(|error| {
            panic!(
                "`{}` was not installed in `{}`: {error}",
                relative.display(),
                installed.display()
            )
        });
        assert!(
            expected == actual,
            "`{}` differs between the published folder and the installed copy in `{}`",
            relative.display(),
            installed.display()
        );
    }
}

/// The relative paths of the files below `root`, dotfiles and dot-folders excluded.
pub fn publishable_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    collect_files(root, Path::new(""), &mut files);
    files.sort();
    files
}

fn collect_files(root: &Path, relative: &Path, files: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(root.join(relative)).expect("readable dir") {
        let entry = entry.expect("dir entry");
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        let path = relative.join(&name);
        if entry.file_type().expect("file type").is_dir() {
            collect_files(root, &path, files);
        } else {
            files.push(path);
        }
    }
}
