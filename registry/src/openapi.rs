//! The OpenAPI 3.1 document, generated from the annotated handlers of
//! [`crate::routes::documented_routes`].

use std::sync::OnceLock;

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use utoipa::openapi::{InfoBuilder, OpenApi, OpenApiBuilder};

/// Title, version and description of the document; paths are added by the router.
pub fn base_document() -> OpenApi {
    OpenApiBuilder::new()
        .info(
            InfoBuilder::new()
                .title("Skill registry API")
                .version("1.0.0")
                .description(Some(
                    "Skill registry API v1. Public reads need no token; writes need `Authorization: Bearer <token>`. \
                     Every error body is plain text (`text/plain; charset=utf-8`). Unknown query parameters are ignored.",
                ))
                .build(),
        )
        .build()
}

/// The document as JSON text, built once.
pub fn document_json() -> &'static str {
    static DOCUMENT: OnceLock<String> = OnceLock::new();
    DOCUMENT.get_or_init(|| {
        let (_, mut document) = crate::routes::documented_routes().split_for_parts();
        add_legacy_aliases(&mut document);
        add_common_responses(&mut document);
        document
            .to_pretty_json()
            .unwrap_or_else(|error| format!("{{\"error\": \"{error}\"}}"))
    })
}

/// Describes the legacy surface: every `/api/*` route outside `/api/v1/` (and the npm
/// surface, `/api/npm/`) is marked
/// deprecated, and each legacy path served by a v1 handler gets a deprecated copy of that
/// operation (with an operation id of its own, since ids must be unique).
fn add_legacy_aliases(document: &mut OpenApi) {
    use utoipa::openapi::{Deprecated, PathItem, path::Operation};
    fn operations(item: &mut PathItem) -> [(&'static str, &mut Option<Operation>); 5] {
        [
            ("get", &mut item.get),
            ("put", &mut item.put),
            ("post", &mut item.post),
            ("delete", &mut item.delete),
            ("patch", &mut item.patch),
        ]
    }
    for (legacy, v1, methods) in crate::routes::legacy::ALIASES {
        let Some(source) = document.paths.paths.get(v1).cloned() else {
            continue;
        };
        let mut copy = source;
        for (method, operation) in operations(&mut copy) {
            if !methods.contains(&method) {
                *operation = None;
            } else if let Some(operation) = operation.as_mut() {
                let id = operation.operation_id.take().unwrap_or_default();
                operation.operation_id = Some(format!("legacy_{id}"));
                operation.description = Some(format!(
                    "Deprecated alias of `{} {v1}` (see `docs/deprecations.md`).",
                    method.to_uppercase()
                ));
            }
        }
        document.paths.paths.insert(legacy.to_owned(), copy);
    }
    for (path, item) in document.paths.paths.iter_mut() {
        let legacy = (path.starts_with("/api/")
            && !path.starts_with("/api/v1/")
            && !path.starts_with("/api/npm/"))
            || crate::routes::legacy::ALIASES
                .iter()
                .any(|(alias, _, _)| alias == path);
        if legacy {
            for (_, operation) in operations(item) {
                if let Some(operation) = operation.as_mut() {
                    operation.deprecated = Some(Deprecated::True);
                }
            }
        }
    }
}

/// Statuses any operation can answer, whatever its handler: the layers in front of every
/// handler refuse bad input, oversize bodies and callers over their limit, and a database
/// that is away answers 503. Listed once here rather than on every handler, so a client
/// (and schemathesis) finds each of them documented, with its plain-text body.
const COMMON_RESPONSES: [(&str, &str, bool); 6] = [
    ("400", "bad input: a malformed path, query or body", false),
    ("401", "missing, invalid or revoked token", false),
    ("413", "request body over the configured limit", true),
    (
        "415",
        "a body that is not of the expected content type",
        true,
    ),
    ("429", "rate limit exceeded (see `Retry-After`)", false),
    ("503", "the database is unavailable; retry later", false),
];

/// Adds [`COMMON_RESPONSES`] to every operation that does not document them itself; the
/// body-related ones only to operations that take a body.
fn add_common_responses(document: &mut OpenApi) {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    use utoipa::openapi::{Content, RefOr, ResponseBuilder};
    for item in document.paths.paths.values_mut() {
        let operations = [
            (&mut item.get, false),
            (&mut item.put, true),
            (&mut item.post, true),
            (&mut item.delete, true),
            (&mut item.patch, true),
        ];
        for (operation, takes_body) in operations {
            let Some(operation) = operation.as_mut() else {
                continue;
            };
            for (status, description, needs_body) in COMMON_RESPONSES {
                if needs_body && !takes_body {
                    continue;
                }
                operation
                    .responses
                    .responses
                    .entry(status.to_owned())
                    .or_insert_with(|| {
                        let text = ObjectBuilder::new().schema_type(Type::String).build();
                        RefOr::T(
                            ResponseBuilder::new()
                                .description(description)
                                .content("text/plain", Content::new(Some(text)))
                                .build(),
                        )
                    });
            }
        }
    }
}

/// This server's OpenAPI document.
#[utoipa::path(get, path = "/api/v1/openapi.json", tag = "meta",
    responses((status = 200, description = "OpenAPI 3.1 document", content_type = "application/json")))]
pub async fn openapi_document() -> Response {
    let mut response = document_json().to_owned().into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}
