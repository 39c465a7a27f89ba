//! Headless Chromium opening the registry's pages: the DOM as a browser built it, a
//! screenshot, and a measure of how much of a screenshot is drawn (a blank or unstyled
//! page fails it).
//!
//! Chromium is the system package at `/usr/bin/chromium` (`.ci/run` installs it); without
//! it the test fails with that reason.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The browser binary.
pub const CHROMIUM: &str = "/usr/bin/chromium";
/// Width and height of every screenshot.
pub const WINDOW: (u32, u32) = (1280, 1600);
/// Longest a page may take; a hung browser must not hang the suite.
const TIMEOUT: Duration = Duration::from_secs(120);

/// Runs headless Chromium on `url` with `extra` arguments in a fresh profile below
/// `scratch` and returns its output.
fn run(url: &str, scratch: &Path, extra: &[String]) -> Output {
    assert!(
        Path::new(CHROMIUM).exists(),
        "the end-to-end test opens pages in headless Chromium but `{CHROMIUM}` is missing\n\
         hint: `apt-get install -y chromium` (.ci/run does this)"
    );
    let profile = tempfile::tempdir_in(scratch).expect("browser profile dir");
    let mut child = Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--no-proxy-server",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--window-size={},{}", WINDOW.0, WINDOW.1))
        .args(extra)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start chromium");
    // Read both pipes on threads so a chatty browser cannot block on a full pipe.
    let mut stdout = child.stdout.take().expect("stdout pipe");
    let mut stderr = child.stderr.take().expect("stderr pipe");
    let stdout = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut bytes);
        bytes
    });
    let stderr = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut bytes);
        bytes
    });
    let deadline = Instant::now() + TIMEOUT;
    let status = loop {
        match child.try_wait().expect("wait for chromium") {
            Some(status) => break status,
            None if Instant::now() > deadline => {
                let _ = child.kill();
                panic!("chromium did not finish `{url}` within {TIMEOUT:?}");
            }
            None => std::thread::sleep(Duration::from_millis(100)),
        }
    };
    Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    }
}

/// The page at `url` as Chromium serialises its DOM after loading it (`--dump-dom`).
pub fn dom(url: &str, scratch: &Path) -> String {
    let output = run(url, scratch, &["--dump-dom".to_owned()]);
    let dom = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success() && dom.contains("</html>"),
        "chromium could not load `{url}`: {}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    dom
}

/// A PNG screenshot of the page at `url`, written to `png` and returned.
pub fn screenshot(url: &str, png: &Path, scratch: &Path) -> Vec<u8> {
    let output = run(url, scratch, &[format!("--screenshot={}", png.display())]);
    std::fs::read(png).unwrap_or_else(|error| {
        panic!(
            "chromium wrote no screenshot of `{url}` ({error}); {}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// How much of a screenshot is drawn.
#[derive(Debug)]
pub struct Drawn {
    /// Distinct colours (text anti-aliasing and the stylesheet's colours give many).
    pub colours: usize,
    /// Pixels that are not pure white.
    pub non_white: usize,
    /// Nearly black pixels: text.
    pub dark: usize,
    /// Pixels of the stylesheet's brand colour family (teal: links, buttons, badges).
    pub brand: usize,
    /// All pixels.
    pub total: usize,
}

/// Measures a PNG screenshot of [`WINDOW`]'s size.
pub fn drawn(png: &[u8]) -> Drawn {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("buffer size")];
    let info = reader.next_frame(&mut pixels).expect("a frame");
    assert_eq!((info.width, info.height), WINDOW, "screenshot size");
    let channels = info.color_type.samples();
    let mut colours = std::collections::HashSet::new();
    let (mut non_white, mut dark, mut brand) = (0, 0, 0);
    for pixel in pixels[..info.line_size * info.height as usize].chunks(channels) {
        let (red, green, blue) = (pixel[0], pixel[1], pixel[2.min(channels - 1)]);
        colours.insert((red, green, blue));
        if (red, green, blue) != (255, 255, 255) {
            non_white += 1;
        }
        if u32::from(red) + u32::from(green) + u32::from(blue) < 200 {
            dark += 1;
        }
        // The brand teal (#0f766e) and its anti-aliased shades: green and blue well
        // above red.
        if green > 80 && blue > 70 && u32::from(red) + 50 < u32::from(green) {
            brand += 1;
        }
    }
    Drawn {
        colours: colours.len(),
        non_white,
        dark,
        brand,
        total: (info.width * info.height) as usize,
    }
}

/// Fails unless the screenshot shows a styled page with text on it. Measured on real
/// pages: the home page with one skill card draws about 2,500 dark pixels and 10,000 in
/// the brand colour; a blank page draws neither, and a page without its stylesheet has
/// default blue links and no teal at all.
pub fn assert_not_blank(png: &[u8], what: &str) {
    let drawn = drawn(png);
    assert!(
        drawn.colours > 40 && drawn.dark > 1_000 && drawn.brand > 500,
        "the screenshot of {what} looks blank or unstyled: {drawn:?}"
    );
}
