//! Version ordering rules.

/// True when `candidate` becomes `latest` over `current`: strictly greater semver, or no
/// valid current latest. The one place this is decided; the store applies it inside the
/// publish transaction so two publishes cannot both move `latest` past each other.
pub fn becomes_latest(current: Option<&str>, candidate: &str) -> bool {
    let Ok(candidate) = semver::Version::parse(candidate) else {
        return false;
    };
    match current.map(semver::Version::parse) {
        Some(Ok(current)) => candidate > current,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latest_moves_only_forward() {
        assert!(becomes_latest(None, "1.0.0"));
        assert!(becomes_latest(Some("1.0.0"), "1.0.1"));
        assert!(!becomes_latest(Some("1.0.1"), "1.0.0"));
        assert!(!becomes_latest(Some("1.0.0"), "1.0.0"));
        assert!(becomes_latest(Some("garbage"), "0.1.0"));
        assert!(!becomes_latest(None, "not-semver"));
    }
}
