//! Turning views into HTML responses: the embedded minijinja templates, SKILL.md as
//! sanitised HTML, and the security headers every page carries.
//!
//! The templates are compiled into the binary (`include_str!` of `templates/web/`), so the
//! server renders the same pages from any working directory. Every template auto-escapes
//! HTML; the only markup passed in unescaped is SKILL.md after `ammonia` has cleaned it.

use std::sync::LazyLock;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use minijinja::{AutoEscape, Environment, UndefinedBehavior};
use serde::Serialize;

macro_rules! web_template {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../templates/web/",
                $name,
                ".j2"
            )),
        )
    };
}

const TEMPLATES: [(&str, &str); 7] = [
    web_template!("base.html"),
    web_template!("error.html"),
    web_template!("home.html"),
    web_template!("skill_card.html"),
    web_template!("owner.html"),
    web_template!("skill.html"),
    web_template!("package.html"),
];

/// The stylesheet served at `/-/style.css`.
pub const STYLE_CSS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../templates/web/style.css"
));

/// The pages' policy: no script at all, styles and images only from this origin, forms
/// only to this origin, never framed.
pub const PAGE_CSP: &str = "default-src 'none'; style-src 'self'; img-src 'self' data:; \
    form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

static ENVIRONMENT: LazyLock<Environment<'static>> = LazyLock::new(|| {
    let mut environment = Environment::new();
    environment.set_auto_escape_callback(|_| AutoEscape::Html);
    environment.set_undefined_behavior(UndefinedBehavior::Chainable);
    for (name, source) in TEMPLATES {
        environment
            .add_template(name, source)
            .expect("the embedded page templates compile");
    }
    environment
});

/// Renders template `name` with `context` into a page response with `status`.
pub fn page(status: StatusCode, name: &str, context: impl Serialize) -> Response {
    let rendered = ENVIRONMENT
        .get_template(name)
        .and_then(|template| template.render(minijinja::value::Serde(&context)));
    match rendered {
        Ok(html) => html_response(status, html, PAGE_CSP),
        Err(error) => {
            tracing::error!(error = %error, template = name, "failed to render a page");
            crate::error::text_response(StatusCode::INTERNAL_SERVER_ERROR, "Internal Server Error")
        }
    }
}

/// An HTML response with the pages' security headers and `csp`.
pub fn html_response(status: StatusCode, html: String, csp: &str) -> Response {
    let mut response = (status, html).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    if let Ok(value) = HeaderValue::from_str(csp) {
        headers.insert(header::CONTENT_SECURITY_POLICY, value);
    }
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("strict-origin-when-cross-origin"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// SKILL.md without its frontmatter, rendered from Markdown and sanitised: whatever HTML
/// the author wrote, only `ammonia`'s safe subset (no script, no event handlers, no
/// `javascript:` links) reaches the page.
pub fn markdown(text: &str) -> String {
    use pulldown_cmark::{Options, Parser, html};
    let body = strip_frontmatter(text);
    let mut options = Options::empty();
    options.insert(Options::ENABLE_TABLES);
    options.insert(Options::ENABLE_STRIKETHROUGH);
    options.insert(Options::ENABLE_TASKLISTS);
    let mut unsafe_html = String::with_capacity(body.len() * 2);
    html::push_html(&mut unsafe_html, Parser::new_ext(body, options));
    ammonia::Builder::default()
        .link_rel(Some("nofollow noopener noreferrer"))
        .clean(&unsafe_html)
        .to_string()
}

fn strip_frontmatter(text: &str) -> &str {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut offset = 0;
    let mut lines = text.split_inclusive('\n');
    match lines.next() {
        Some(first) if first.trim_end() == "---" => offset += first.len(),
        _ => return text,
    }
    for line in lines {
        offset += line.len();
        if line.trim_end() == "---" {
            return &text[offset..];
        }
    }
    text
}

/// A Unix-ms time as `YYYY-MM-DD` (UTC).
pub fn date(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|time| time.format("%Y-%m-%d").to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_is_sanitised_and_frontmatter_dropped() {
        let html = markdown(
            "---\nname: x\n---\n# Hi\n\n<script>alert(1)</script>\n<img src=x onerror=alert(1)>\n\n[a](javascript:alert(1)) and <a href=\"javascript:alert(2)\">b</a>\n",
        );
        assert!(html.contains("<h1>Hi</h1>"), "{html}");
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("onerror"), "{html}");
        // The link text stays; only a `javascript:` target would be active content.
        assert!(html.contains(">a<") && html.contains(">b<"), "{html}");
        assert!(!html.contains("href=\"javascript"), "{html}");
        assert!(!html.contains("name: x"), "{html}");
    }

    #[test]
    fn every_template_compiles() {
        for (name, _) in TEMPLATES {
            assert!(ENVIRONMENT.get_template(name).is_ok(), "{name}");
        }
    }
}
