//! Package names: npm's rules (lowercase, URL-safe, at most 214 characters, optionally
//! scoped as `@scope/name`), ClawHub's tarball file names, and how a name is found in a
//! request path, where a scoped name arrives as one encoded segment (`%40alice%2Fplug`),
//! raw (`@alice/plug`), or encoded twice.

use percent_encoding::percent_decode_str;

/// Longest package name npm accepts.
const MAX_NAME_LENGTH: usize = 214;

/// A valid package name, split into its scope and bare name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageName {
    full: String,
    scope: Option<String>,
}

impl PackageName {
    /// Parses and validates a name; the error is a sentence for the publisher.
    pub fn parse(name: &str) -> Result<Self, String> {
        if name.is_empty() {
            return Err("Package name required".to_owned());
        }
        if name.len() > MAX_NAME_LENGTH {
            return Err(format!(
                "Package name must be at most {MAX_NAME_LENGTH} characters"
            ));
        }
        if name.trim() != name {
            return Err("Package name cannot contain leading or trailing spaces".to_owned());
        }
        let (scope, bare) = match name.strip_prefix('@') {
            Some(rest) => match rest.split_once('/') {
                Some((scope, bare)) => (Some(scope), bare),
                None => {
                    return Err(format!(
                        "Package name `{name}` has a scope but no name after it"
                    ));
                }
            },
            None => (None, name),
        };
        if let Some(scope) = scope {
            check_part(name, scope, "scope")?;
        }
        check_part(name, bare, "name")?;
        if scope.is_none() && matches!(bare, "node_modules" | "favicon.ico") {
            return Err(format!("Package name `{name}` is not allowed"));
        }
        Ok(Self {
            full: name.to_owned(),
            scope: scope.map(str::to_owned),
        })
    }

    /// The whole name, e.g. `@alice/code-plug`.
    pub fn as_str(&self) -> &str {
        &self.full
    }

    /// The scope without its `@`, for scoped names.
    pub fn scope(&self) -> Option<&str> {
        self.scope.as_deref()
    }

    /// ClawHub's tarball file name: the leading `@` dropped, the scope joined with `-`,
    /// then `-<version>.tgz` (`@alice/code-plug` 1.2.3 → `alice-code-plug-1.2.3.tgz`).
    pub fn tarball_file_name(&self, version: &str) -> String {
        let flat = self.full.trim_start_matches('@').replacen('/', "-", 1);
        format!("{flat}-{version}.tgz")
    }

    /// The name as a URL path: each part percent-encoded, `@` and `/` kept literal.
    pub fn url_path(&self) -> String {
        match &self.scope {
            Some(scope) => format!(
                "@{}/{}",
                encode_part(scope),
                encode_part(&self.full[scope.len() + 2..])
            ),
            None => encode_part(&self.full),
        }
    }
}

impl std::fmt::Display for PackageName {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(&self.full)
    }
}

fn encode_part(part: &str) -> String {
    percent_encoding::utf8_percent_encode(part, percent_encoding::NON_ALPHANUMERIC)
        .to_string()
        .replace("%2D", "-")
        .replace("%2E", ".")
        .replace("%5F", "_")
        .replace("%7E", "~")
}

fn check_part(name: &str, part: &str, what: &str) -> Result<(), String> {
    if part.is_empty() {
        return Err(format!("Package name `{name}` has an empty {what}"));
    }
    if part.starts_with(['.', '_']) {
        return Err(format!(
            "Package name `{name}`: the {what} cannot start with a period or underscore"
        ));
    }
    if let Some(bad) = part.chars().find(|c| {
        !(c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '.' | '_' | '~'))
    }) {
        let hint = if bad.is_ascii_uppercase() {
            " (package names are lowercase)"
        } else {
            ""
        };
        return Err(format!(
            "Package name `{name}` contains the character `{bad}`, which is not allowed{hint}"
        ));
    }
    Ok(())
}

/// Splits the part of a request path after a package prefix (`/api/v1/packages/` or
/// `/api/npm/`) into the package name and the remaining segments.
///
/// Segments are percent-decoded up to twice (clients encode the whole name with
/// `encodeURIComponent`, some proxies encode again); a first segment that then starts
/// with `@` takes the name from itself when it holds a `/`, else from the next segment.
/// Empty segments are dropped, so `//` and a trailing `/` are tolerated.
pub fn split_name_path(rest: &str) -> Option<(String, Vec<String>)> {
    let mut segments = rest
        .split('/')
        .filter(|segment| !segment.is_empty())
        .map(decode_twice);
    let first = segments.next()?.trim().to_owned();
    let mut remaining: Vec<String> = segments.map(|segment| segment.trim().to_owned()).collect();
    let name = if first.starts_with('@') {
        if let Some((scope, tail)) = first.split_once('/') {
            // `@scope/name/more` inside one decoded segment: the rest are path segments.
            let mut parts = tail.split('/').filter(|part| !part.is_empty());
            let bare = parts.next()?.to_owned();
            let extra: Vec<String> = parts.map(str::to_owned).collect();
            remaining.splice(0..0, extra);
            format!("{scope}/{bare}")
        } else if remaining.is_empty() {
            return None;
        } else {
            let bare = remaining.remove(0);
            format!("{first}/{bare}")
        }
    } else {
        first
    };
    Some((name, remaining))
}

/// True for the package routes in the download rate-limit class, as the reference
/// registry classes them: under `/api/v1/packages/{name}/` the paths `download`,
/// `versions/{v}/download`, `versions/{v}/artifact` and `versions/{v}/artifact/download`,
/// and npm tarballs `/api/npm/{package}/-/{file}`.
pub fn is_download_route(path: &str) -> bool {
    if let Some(rest) = path.strip_prefix("/api/v1/packages/") {
        let Some((_, segments)) = split_name_path(rest) else {
            return false;
        };
        let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
        return matches!(
            segments.as_slice(),
            ["download"]
                | ["versions", _, "download"]
                | ["versions", _, "artifact"]
                | ["versions", _, "artifact", "download"]
        );
    }
    if let Some(rest) = path.strip_prefix("/api/npm/") {
        return split_name_path(rest)
            .is_some_and(|(_, segments)| segments.len() == 2 && segments[0] == "-");
    }
    false
}

fn decode_twice(segment: &str) -> String {
    let once = percent_decode_str(segment).decode_utf8_lossy().into_owned();
    if once.contains('%') {
        percent_decode_str(&once).decode_utf8_lossy().into_owned()
    } else {
        once
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_npm_names_and_splits_scopes() {
        let scoped = PackageName::parse("@alice/code-plug").expect("valid");
        assert_eq!(scoped.scope(), Some("alice"));
        assert_eq!(
            scoped.tarball_file_name("1.2.3"),
            "alice-code-plug-1.2.3.tgz"
        );
        assert_eq!(scoped.url_path(), "@alice/code-plug");
        let plain = PackageName::parse("demo-plugin").expect("valid");
        assert_eq!(plain.scope(), None);
        assert_eq!(plain.tarball_file_name("0.1.0"), "demo-plugin-0.1.0.tgz");
    }

    #[test]
    fn rejects_bad_names_with_reasons() {
        for (name, needle) in [
            ("", "required"),
            ("Upper", "lowercase"),
            ("has space", "` `"),
            ("@alice", "no name"),
            ("@/x", "empty scope"),
            (".hidden", "period"),
            ("_under", "underscore"),
            ("node_modules", "not allowed"),
            ("a/b", "`/`"),
        ] {
            let error = PackageName::parse(name).expect_err(name);
            assert!(error.contains(needle), "{name}: {error}");
        }
        assert!(PackageName::parse(&"a".repeat(215)).is_err());
    }

    #[test]
    fn finds_scoped_names_in_every_encoding() {
        let expected = Some((
            "@alice/code-plug".to_owned(),
            vec!["versions".to_owned(), "1.0.0".to_owned()],
        ));
        assert_eq!(
            split_name_path("%40alice%2Fcode-plug/versions/1.0.0"),
            expected
        );
        assert_eq!(split_name_path("@alice/code-plug/versions/1.0.0"), expected);
        assert_eq!(
            split_name_path("%2540alice%252Fcode-plug/versions/1.0.0/"),
            expected
        );
        assert_eq!(
            split_name_path("@alice%2fcode-plug//versions/1.0.0"),
            expected
        );
        assert_eq!(
            split_name_path("plain"),
            Some(("plain".to_owned(), Vec::new()))
        );
        assert_eq!(split_name_path("@alice"), None);
        assert!(is_download_route(
            "/api/v1/packages/%40a%2Fb/versions/1.0.0/artifact"
        ));
        assert!(is_download_route(
            "/api/v1/packages/@a/b/versions/1.0.0/artifact/download"
        ));
        assert!(is_download_route("/api/v1/packages/b/download"));
        assert!(!is_download_route(
            "/api/v1/packages/b/versions/1.0.0/security"
        ));
        assert!(!is_download_route("/api/v1/packages/b"));
        assert!(is_download_route("/api/npm/@a%2fb/-/a-b-1.0.0.tgz"));
        assert!(!is_download_route("/api/npm/@a%2fb"));
        assert_eq!(split_name_path(""), None);
    }
}
