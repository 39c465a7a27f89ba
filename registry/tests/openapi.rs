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
        "/api/v1/packages/{name}/download",
        "/.well-known/clawhub.json",
    ] {
        assert!(
            paths.contains_key(route),
            "{route} missing from the document"
        );
    }
}

/// Every JSON body the API takes or gives is described by a schema (a typed struct), not
/// by prose; the only exceptions are this document itself and the npm packument, whose
/// shape is npm's.
#[test]
fn every_json_body_has_a_schema() {
    let document: serde_json::Value =
        serde_json::from_str(registry::openapi::document_json()).expect("valid JSON");
    let typed = |schema: &serde_json::Value| {
        let text = schema.to_string();
        text.contains("$ref") || text.contains("\"properties\"") || text.contains("\"items\"")
    };
    let mut untyped = Vec::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        if path == "/api/v1/openapi.json" || path == "/api/npm/{package}" {
            continue;
        }
        for (method, operation) in item.as_object().expect("path item") {
            let mut bodies: Vec<(String, &serde_json::Value)> = Vec::new();
            if let Some(content) = operation["requestBody"]["content"].as_object() {
                bodies.extend(
                    content
                        .iter()
                        .map(|(kind, c)| (format!("request {kind}"), c)),
                );
            }
            for (status, response) in operation["responses"].as_object().into_iter().flatten() {
                if !status.starts_with('2') {
                    continue;
                }
                for (kind, content) in response["content"].as_object().into_iter().flatten() {
                    bodies.push((format!("{status} {kind}"), content));
                }
            }
            for (what, content) in bodies {
                let json = what.contains("json") || what.contains("multipart");
                if json && !typed(&content["schema"]) {
                    untyped.push(format!("{} {path}: {what}", method.to_uppercase()));
                }
            }
        }
    }
    assert!(untyped.is_empty(), "bodies without a schema: {untyped:#?}");
}

/// The legacy surface is documented, and documented as deprecated.
#[test]
fn legacy_routes_are_documented_as_deprecated() {
    let document: serde_json::Value =
        serde_json::from_str(registry::openapi::document_json()).expect("valid JSON");
    for (path, method) in [
        ("/api/search", "get"),
        ("/api/download", "get"),
        ("/api/skill", "get"),
        ("/api/cli/whoami", "get"),
        ("/api/cli/publish", "post"),
        ("/api/cli/telemetry/install", "post"),
        ("/api/cli/upload-url", "post"),
    ] {
        let operation = &document["paths"][path][method];
        assert_eq!(
            operation["deprecated"],
            serde_json::Value::Bool(true),
            "{method} {path} missing or not deprecated"
        );
    }
    assert!(document["paths"]["/api/v1/search"]["get"]["deprecated"].is_null());
}
