//! `promptset skill init|pack|publish` from the command line: a new skill packs cleanly
//! into the exact bundle, and every kind of bad input (no SKILL.md, broken frontmatter,
//! bad version, files the registry refuses, invalid examples) is listed, all of it, with
//! file and place, exit 1, and nothing written or published.

use std::fs;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

use promptset::skill::rules::fingerprint;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `promptset ARGS` in `dir` with no registry settings from the environment.
fn promptset(dir: &Path, args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_promptset"))
        .args(args)
        .current_dir(dir)
        .env_remove("PROMPTSET_REGISTRY")
        .env_remove("PROMPTSET_TOKEN")
        .stdin(Stdio::null())
        .output()
        .expect("run promptset");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

impl std::fmt::Display for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// A fresh skill `geo-prompts` made by `skill init` in a temp dir.
fn new_skill() -> (tempfile::TempDir, std::path::PathBuf) {
    let work = tempfile::tempdir().expect("temp dir");
    let run = promptset(work.path(), &["skill", "init", "geo-prompts"]);
    assert_eq!(run.code, 0, "{run}");
    let dir = work.path().join("geo-prompts");
    (work, dir)
}

fn example_set(dir: &Path) -> std::path::PathBuf {
    dir.join("examples/northwind-roasters.promptset.json")
}

fn rewrite(path: &Path, from: &str, to: &str) {
    let text = fs::read_to_string(path).expect("read");
    assert!(text.contains(from), "`{from}` not in {}", path.display());
    fs::write(path, text.replacen(from, to, 1)).expect("write");
}

#[test]
fn init_makes_a_skill_that_packs_into_the_exact_bundle() {
    let (work, dir) = new_skill();
    for file in [
        "SKILL.md",
        "templates/generator-prompt.j2",
        "templates/prompts/en/non-brand-discovery/default/TOFU.j2",
        "schema/promptset.schema.json",
        "examples/northwind-roasters.brief.json",
        "examples/northwind-roasters.promptset.json",
    ] {
        assert!(dir.join(file).is_file(), "`{file}` is scaffolded");
    }
    let skill_md = fs::read_to_string(dir.join("SKILL.md")).expect("SKILL.md");
    assert!(
        skill_md.starts_with("---\nname: geo-prompts\n"),
        "{skill_md}"
    );
    assert!(skill_md.contains("\nversion: 1.0.0\n"), "{skill_md}");
    assert!(skill_md.contains("\ntags: ["), "{skill_md}");

    // the example is what the built-in generator makes from the example brief
    let regenerated = promptset(
        work.path(),
        &[
            "generate",
            "--brief",
            "geo-prompts/examples/northwind-roasters.brief.json",
            "--templates",
            "geo-prompts/templates",
            "-o",
            "-",
            "--quiet",
        ],
    );
    assert_eq!(regenerated.code, 0, "{regenerated}");
    assert_eq!(
        regenerated.stdout,
        fs::read_to_string(example_set(&dir)).expect("example set"),
        "the skill reproduces its example set"
    );
    // A new author's first lint of the example is clean: no warning, not even the
    // business-model gap the generator once left (issue 8).
    let lint = promptset(
        work.path(),
        &[
            "lint",
            "geo-prompts/examples/northwind-roasters.promptset.json",
        ],
    );
    assert_eq!(lint.code, 0, "{lint}");
    assert!(lint.stderr.contains(" 0 warnings"), "{lint}");

    let pack = promptset(
        work.path(),
        &["skill", "pack", "geo-prompts", "-o", "out.zip"],
    );
    assert_eq!(pack.code, 0, "{pack}");
    assert!(pack.stderr.contains("packed geo-prompts@1.0.0"), "{pack}");
    assert!(pack.stderr.contains("lint score"), "{pack}");

    // the archive holds every file of the folder, byte for byte, and nothing else
    let archive = fs::File::open(work.path().join("out.zip")).expect("bundle written");
    let mut zip = zip::ZipArchive::new(archive).expect("a ZIP");
    let mut entries = Vec::new();
    for index in 0..zip.len() {
        let mut entry = zip.by_index(index).expect("entry");
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).expect("entry bytes");
        let name = entry.name().expect("entry name").to_string();
        assert_eq!(
            bytes,
            fs::read(dir.join(&name)).expect("file exists in the folder"),
            "`{name}`"
        );
        entries.push((name, promptset::skill::rules::sha256_hex(&bytes)));
    }
    let mut on_disk = 0;
    count_files(&dir, &mut on_disk);
    assert_eq!(entries.len(), on_disk);
    // entries come in the registry's order and the printed fingerprint is theirs
    let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    let mut sorted = names.clone();
    sorted.sort_by(|a, b| promptset::skill::rules::locale_compare(a, b));
    assert_eq!(names, sorted);
    let expected = fingerprint(entries.iter().map(|(n, s)| (n.as_str(), s.as_str())));
    assert!(pack.stderr.contains(&expected), "{pack}");

    // packing twice gives the same bytes
    let again = promptset(
        work.path(),
        &["skill", "pack", "geo-prompts", "-o", "again.zip"],
    );
    assert_eq!(again.code, 0, "{again}");
    assert_eq!(
        fs::read(work.path().join("out.zip")).expect("first"),
        fs::read(work.path().join("again.zip")).expect("second")
    );

    // the default output name is NAME-VERSION.zip
    let default = promptset(work.path(), &["skill", "pack", "geo-prompts", "--quiet"]);
    assert_eq!(default.code, 0, "{default}");
    assert!(work.path().join("geo-prompts-1.0.0.zip").is_file());
    assert!(default.stderr.is_empty(), "{default}");
}

fn count_files(dir: &Path, count: &mut usize) {
    for entry in fs::read_dir(dir).expect("dir") {
        let entry = entry.expect("entry");
        if entry.file_type().expect("type").is_dir() {
            count_files(&entry.path(), count);
        } else {
            *count += 1;
        }
    }
}

#[test]
fn init_refuses_a_folder_with_files_unless_forced() {
    let (work, dir) = new_skill();
    let refused = promptset(work.path(), &["skill", "init", "geo-prompts"]);
    assert_eq!(refused.code, 2, "{refused}");
    assert!(refused.stderr.contains("is not empty"), "{refused}");
    assert!(refused.stderr.contains("--force"), "{refused}");
    fs::write(dir.join("SKILL.md"), "changed").expect("write");
    let forced = promptset(
        work.path(),
        &[
            "skill",
            "init",
            "geo-prompts",
            "--force",
            "--name",
            "other-name",
        ],
    );
    assert_eq!(forced.code, 0, "{forced}");
    let skill_md = fs::read_to_string(dir.join("SKILL.md")).expect("SKILL.md");
    assert!(skill_md.contains("name: other-name"), "{skill_md}");

    let bad_name = promptset(work.path(), &["skill", "init", "x", "--name", "Bad Name"]);
    assert_eq!(bad_name.code, 2, "{bad_name}");
    assert!(bad_name.stderr.contains("invalid skill name"), "{bad_name}");
    assert!(
        !work.path().join("x").exists(),
        "nothing is written for a bad name"
    );
}

#[test]
fn init_uses_the_authors_brief() {
    let work = tempfile::tempdir().expect("temp dir");
    let brief =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/briefs/other-coworking.json");
    let run = promptset(
        work.path(),
        &[
            "skill",
            "init",
            "desk-skill",
            "--brief",
            brief.to_str().expect("utf-8"),
        ],
    );
    assert_eq!(run.code, 0, "{run}");
    assert_eq!(
        fs::read(work.path().join("desk-skill/examples/hive-desk.brief.json"))
            .expect("brief copied"),
        fs::read(&brief).expect("fixture")
    );
    let pack = promptset(work.path(), &["skill", "pack", "desk-skill", "-o", "d.zip"]);
    assert_eq!(pack.code, 0, "{pack}");
}

#[test]
fn a_folder_without_skill_md_is_refused() {
    let (work, dir) = new_skill();
    fs::remove_file(dir.join("SKILL.md")).expect("remove");
    let run = promptset(
        work.path(),
        &["skill", "pack", "geo-prompts", "-o", "out.zip"],
    );
    assert_eq!(run.code, 1, "{run}");
    assert!(
        run.stderr
            .contains("geo-prompts/SKILL.md: the skill has no SKILL.md"),
        "{run}"
    );
    assert!(
        run.stderr.contains("nothing was written or published"),
        "{run}"
    );
    assert!(!work.path().join("out.zip").exists());
}

#[test]
fn broken_frontmatter_is_located() {
    let (work, dir) = new_skill();
    rewrite(
        &dir.join("SKILL.md"),
        "tags: [geo, prompt-set, monitoring]",
        "tags: [geo, prompt-set",
    );
    let run = promptset(work.path(), &["skill", "pack", "geo-prompts"]);
    assert_eq!(run.code, 1, "{run}");
    assert!(run.stderr.contains("geo-prompts/SKILL.md:"), "{run}");
    assert!(run.stderr.contains("invalid frontmatter YAML"), "{run}");

    fs::write(dir.join("SKILL.md"), "# no frontmatter\n").expect("write");
    let run = promptset(work.path(), &["skill", "pack", "geo-prompts"]);
    assert_eq!(run.code, 1, "{run}");
    assert!(
        run.stderr
            .contains("geo-prompts/SKILL.md:1:1: SKILL.md must start with a `---` line"),
        "{run}"
    );

    fs::write(
        dir.join("SKILL.md"),
        "---\nname: geo-prompts\n# never closed\n",
    )
    .expect("write");
    let run = promptset(work.path(), &["skill", "pack", "geo-prompts"]);
    assert_eq!(run.code, 1, "{run}");
    assert!(run.stderr.contains("never closed"), "{run}");
}

#[test]
fn every_frontmatter_problem_is_listed() {
    let (work, dir) = new_skill();
    let skill_md = dir.join("SKILL.md");
    rewrite(&skill_md, "name: geo-prompts", "name: Geo Prompts");
    rewrite(&skill_md, "version: 1.0.0", "version: 1.0");
    rewrite(
        &skill_md,
        "tags: [geo, prompt-set, monitoring]",
        "tags: geo",
    );
    let text = fs::read_to_string(&skill_md).expect("read");
    let description = text
        .lines()
        .find(|l| l.starts_with("description:"))
        .expect("line");
    fs::write(&skill_md, text.replace(&format!("{description}\n"), "")).expect("write");
    let run = promptset(work.path(), &["skill", "pack", "geo-prompts"]);
    assert_eq!(run.code, 1, "{run}");
    for expected in [
        "geo-prompts/SKILL.md:1:1: the frontmatter has no `description`",
        "geo-prompts/SKILL.md:2:7: `name`: `Geo Prompts` is not a valid name",
        "geo-prompts/SKILL.md:3:10: `version` `1.0` is not a semantic version",
        "geo-prompts/SKILL.md:4:7: `tags` must be a list",
        "has 4 problems",
    ] {
        assert!(run.stderr.contains(expected), "missing `{expected}`\n{run}");
    }
}

#[test]
fn files_the_registry_refuses_are_listed() {
    let (work, dir) = new_skill();
    fs::write(dir.join("logo.png"), [0x89, b'P', b'N', b'G', 0, 0, 0, 13]).expect("binary");
    fs::write(dir.join("skill-card.md"), "# card\n").expect("card");
    fs::write(dir.join("notes\\draft.md"), "draft\n").expect("backslash");
    fs::write(dir.join("big.txt"), vec![b'a'; 10 * 1024 * 1024 + 1]).expect("big");
    fs::write(dir.join("Skill.md"), "---\n").expect("case clash");
    fs::create_dir_all(dir.join(".git")).expect("dot dir");
    fs::write(dir.join(".git/config"), [0u8, 1, 2]).expect("dotfiles stay local");
    let run = promptset(
        work.path(),
        &["skill", "pack", "geo-prompts", "-o", "out.zip"],
    );
    assert_eq!(run.code, 1, "{run}");
    for expected in [
        "geo-prompts/logo.png: not a text file",
        "geo-prompts/skill-card.md: `skill-card.md` is generated by the registry",
        "geo-prompts/notes\\draft.md: the file name contains a backslash",
        "geo-prompts/big.txt: the file has 10485761 bytes; the registry takes at most 10485760",
        "the registry treats this path and",
        "has 5 problems",
    ] {
        assert!(run.stderr.contains(expected), "missing `{expected}`\n{run}");
    }
    assert!(
        !run.stderr.contains(".git"),
        "dotfiles are skipped, not refused\n{run}"
    );
    assert!(!work.path().join("out.zip").exists());
}

#[test]
fn invalid_examples_list_every_problem_with_its_place() {
    let (work, dir) = new_skill();
    let set = example_set(&dir);
    rewrite(
        &set,
        "\"funnel_stage\": \"TOFU\"",
        "\"funnel_stage\": \"AWARENESS\"",
    );
    rewrite(&set, "\"priority\": \"high\"", "\"priority\": \"urgent\"");
    rewrite(
        &dir.join("examples/northwind-roasters.brief.json"),
        "\"business_model\": \"ecommerce\"",
        "\"business_model\": \"barter\"",
    );
    fs::write(dir.join("examples/broken.json"), "{ \"version\": ").expect("truncated");
    let run = promptset(work.path(), &["skill", "pack", "geo-prompts"]);
    assert_eq!(run.code, 1, "{run}");
    let errors: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.starts_with("error: "))
        .collect();
    let located = |file: &str| {
        errors
            .iter()
            .filter(|line| {
                line.strip_prefix("error: geo-prompts/")
                    .and_then(|rest| rest.strip_prefix(file))
                    .and_then(|rest| rest.strip_prefix(':'))
                    .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
            })
            .count()
    };
    assert!(
        located("examples/northwind-roasters.promptset.json") >= 2,
        "{run}"
    );
    assert!(run.stderr.contains("AWARENESS"), "{run}");
    assert!(run.stderr.contains("urgent"), "{run}");
    assert_eq!(
        located("examples/northwind-roasters.brief.json"),
        1,
        "{run}"
    );
    assert_eq!(located("examples/broken.json"), 1, "{run}");
}

#[test]
fn min_score_turns_lint_into_a_gate() {
    let (work, _dir) = new_skill();
    let run = promptset(
        work.path(),
        &[
            "skill",
            "pack",
            "geo-prompts",
            "--min-score",
            "100",
            "-o",
            "x.zip",
        ],
    );
    let score_line = run
        .stderr
        .lines()
        .find(|l| l.contains("lint score"))
        .map(str::to_owned);
    match score_line {
        Some(line) if line.contains("100/100") => assert_eq!(run.code, 0, "{run}"),
        _ => {
            assert_eq!(run.code, 1, "{run}");
            assert!(run.stderr.contains("below the minimum of 100"), "{run}");
        }
    }
}

#[test]
fn publish_checks_first_and_contacts_no_registry_for_a_bad_skill() {
    let (work, dir) = new_skill();
    fs::write(dir.join("data.bin"), [0u8, 159, 146, 150]).expect("binary");
    // Port 9 (discard) is closed here; reaching out would fail with exit 2, not 1.
    let run = promptset(
        work.path(),
        &[
            "skill",
            "publish",
            "geo-prompts",
            "--registry",
            "http://127.0.0.1:9",
            "--token",
            "t",
        ],
    );
    assert_eq!(run.code, 1, "{run}");
    assert!(run.stderr.contains("data.bin: not a text file"), "{run}");
    assert!(!run.stderr.contains("cannot reach"), "{run}");
}

#[test]
fn an_unreachable_registry_is_a_clear_error() {
    let (work, _dir) = new_skill();
    let run = promptset(
        work.path(),
        &[
            "skill",
            "publish",
            "geo-prompts",
            "--registry",
            "http://127.0.0.1:9",
            "--token",
            "t",
        ],
    );
    assert_eq!(run.code, 2, "{run}");
    assert!(
        run.stderr
            .contains("cannot reach the registry at `http://127.0.0.1:9/api/v1/resolve"),
        "{run}"
    );

    let missing = promptset(work.path(), &["skill", "publish", "geo-prompts"]);
    assert_eq!(missing.code, 2, "{missing}");
    assert!(missing.stderr.contains("--registry"), "{missing}");
}
