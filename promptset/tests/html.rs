//! The HTML report: self-contained, escaped, and really rendered by headless Chromium.

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use promptset::PromptSet;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn baseline_text() -> String {
    std::fs::read_to_string(root().join("fixtures/flawed/baseline.json")).expect("baseline fixture")
}

fn render_file(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("fixture");
    let set: PromptSet<'_> = serde_json::from_str(&text).expect("fixture parses");
    promptset::html::render(
        &set,
        &path.file_name().unwrap_or_default().to_string_lossy(),
    )
    .expect("renders")
}

#[test]
fn report_is_self_contained() {
    let html = render_file(&root().join("fixtures/flawed/baseline.json"));
    for forbidden in ["http://", "https://", "<link", "src=", "@import", "url("] {
        assert!(
            !html.contains(forbidden),
            "the report must not reference outside resources: found `{forbidden}`"
        );
    }
    for expected in [
        "Tallyflow",
        "Layer mix against target",
        "Prompts by funnel stage",
        "Topic × layer heatmap",
        "Top competitor comparison",
        "Business-model fit",
        "id=\"filter\"",
        "<svg",
        // Every prompt is in the table.
        "Is Tallyflow GDPR compliant and where is its data stored?",
        "How do freelancers usually send invoices and get paid on time?",
    ] {
        assert!(html.contains(expected), "the report lacks `{expected}`");
    }
}

#[test]
fn report_escapes_everything_from_the_document() {
    let mut set: PromptSet<'static> = serde_json::from_str::<PromptSet<'_>>(&baseline_text())
        .expect("parses")
        .into_owned();
    set.client_summary.brand_name = "<script>alert('brand')</script>".into();
    set.prompts[0].prompt = "Is <b>bold</b> & \"quoted\" safe?".into();
    set.topic_map[0].why_this_topic_exists = "</td></tr></table><img onerror=x>".into();
    let html = promptset::html::render(&set, "<title>").expect("renders");
    assert!(
        !html.contains("<script>alert"),
        "brand name must be escaped"
    );
    assert!(
        html.contains("&lt;script&gt;alert("),
        "escaped brand name is shown"
    );
    assert!(!html.contains("<b>bold</b>"));
    assert!(html.contains("Is &lt;b&gt;bold&lt;&#x2f;b&gt; &amp; &quot;quoted&quot; safe?"));
    assert!(!html.contains("<img onerror"));
    assert!(!html.contains("<title><title>"));
}

#[test]
fn key_inferences_render_inline_code_escaped() {
    let mut set: PromptSet<'static> = serde_json::from_str::<PromptSet<'_>>(&baseline_text())
        .expect("parses")
        .into_owned();
    set.client_summary.key_inferences = Some(vec![
        "audience inferred from `target_customers` as `<b>teams</b>`".into(),
        "an unpaired ` stays as written".into(),
    ]);
    let html = promptset::html::render(&set, "set.json").expect("renders");
    assert!(
        html.contains(
            "audience inferred from <code>target_customers</code> as <code>&lt;b&gt;teams&lt;&#x2f;b&gt;</code>"
        ),
        "backticked values in key inferences become escaped inline code"
    );
    assert!(!html.contains("`target_customers`"));
    assert!(html.contains("an unpaired ` stays as written"));
}

#[test]
fn report_renders_every_flawed_fixture() {
    for entry in std::fs::read_dir(root().join("fixtures/flawed")).expect("fixtures") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "json") {
            let html = render_file(&path);
            assert!(html.starts_with("<!DOCTYPE html>"), "{}", path.display());
            assert!(html.trim_end().ends_with("</html>"), "{}", path.display());
        }
    }
}

const CHROMIUM: &str = "/usr/bin/chromium";

/// Runs headless Chromium on `html_path` and returns the PNG screenshot's bytes.
fn screenshot(html_path: &Path, dir: &Path) -> Vec<u8> {
    assert!(
        Path::new(CHROMIUM).exists(),
        "headless Chromium is required for this test but `{CHROMIUM}` is missing; install it with \
         `apt-get install -y chromium` (.ci/run does this in CI)"
    );
    let profile = tempfile::tempdir_in(dir).expect("profile dir");
    let png_path = dir.join("report.png");
    let mut child = Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--screenshot={}", png_path.display()))
        .arg("--window-size=1280,2000")
        .arg(format!("file://{}", html_path.display()))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start chromium");
    // Chromium normally exits within seconds; a hung browser must not hang the suite.
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    loop {
        match child.try_wait().expect("wait for chromium") {
            Some(_) => break,
            None if std::time::Instant::now() > deadline => {
                let _ = child.kill();
                panic!("chromium did not finish within 120 s");
            }
            None => std::thread::sleep(Duration::from_millis(100)),
        }
    }
    let output = child.wait_with_output().expect("chromium output");
    std::fs::read(&png_path).unwrap_or_else(|e| {
        panic!(
            "chromium wrote no screenshot ({e}); status {:?}, stderr:\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

#[test]
fn chromium_renders_the_report() {
    let dir = tempfile::tempdir().expect("temp dir");
    let html_path = dir.path().join("report.html");
    std::fs::write(
        &html_path,
        render_file(&root().join("fixtures/flawed/baseline.json")),
    )
    .expect("write html");
    let png = screenshot(&html_path, dir.path());
    // For looking at the report by hand: keep the screenshot and the page.
    if let Ok(target) = std::env::var("PROMPTSET_REPORT_SCREENSHOT") {
        std::fs::write(&target, &png).expect("keep the screenshot");
        std::fs::copy(&html_path, Path::new(&target).with_extension("html"))
            .expect("keep the page");
    }

    let mut decoder = png::Decoder::new(Cursor::new(&png));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("buffer size")];
    let info = reader.next_frame(&mut pixels).expect("a frame");
    assert_eq!((info.width, info.height), (1280, 2000));
    let channels = info.color_type.samples();
    let mut colours = std::collections::HashSet::new();
    let mut non_white = 0usize;
    let mut dark = 0usize;
    for pixel in pixels[..info.line_size * info.height as usize].chunks(channels) {
        let rgb = (pixel[0], pixel[1], pixel[2.min(channels - 1)]);
        colours.insert(rgb);
        if rgb != (255, 255, 255) {
            non_white += 1;
        }
        if u32::from(rgb.0) + u32::from(rgb.1) + u32::from(rgb.2) < 200 {
            dark += 1;
        }
    }
    let total = (info.width * info.height) as usize;
    assert!(
        colours.len() > 200,
        "a rendered report has many colours, got {}",
        colours.len()
    );
    assert!(
        non_white * 4 > total,
        "too little is drawn: {non_white} of {total} pixels are not white"
    );
    // Text and the dark header are drawn, not just a background.
    assert!(
        dark > 10_000,
        "only {dark} dark pixels: text or header missing"
    );
}
