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
        let (_, document) = crate::routes::documented_routes().split_for_parts();
        document
            .to_pretty_json()
            .unwrap_or_else(|error| format!("{{\"error\": \"{error}\"}}"))
    })
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
