//! The committed OpenAPI document (`registry/openapi.json`) must be exactly what the
//! server serves at `/api/v1/openapi.json`, so clients and reviewers can read the API
//! without running it.

#[test]
fn committed_openapi_document_matches_the_server() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("openapi.json");
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let generated = format!("{}\n", registry::openapi::document_json());
    // Compared as JSON values: key order may differ with the features a test build unifies
    // (serde_json's `preserve_order`), the content may not.
    let parse = |text: &str| serde_json::from_str::<serde_json::Value>(text).ok();
    assert!(
        parse(&committed).is_some() && parse(&committed) == parse(&generated),
        "{} is out of date with the annotated handlers; \
         regenerate it with `cargo run -p registry -- openapi > registry/openapi.json`",
        path.display()
    );
}

#[test]
fn openapi_document_lists_the_api_routes() {
    let document: serde_json::Value =
        serde_json::from_str(registry::openapi::document_json()).expect("valid JSON");
    let paths = document["paths"].as_object().expect("paths object");
    for route in [
        "/api/v1/search",
        "/api/v1/skills",
        "/api/v1/skills/{slug}",
        "/api/v1/skills/{slug}/versions",
        "/api/v1/skills/{slug}/file",
        "/api/v1/download",
        "/api/v1/resolve",
        "/api/v1/whoami",
        "/api/v1/openapi.json",
    ] {
        assert!(
            paths.contains_key(route),
            "{route} missing from the document"
        );
    }
}
