//! The web surface: server-rendered HTML pages of what the API serves, with no JavaScript.
//!
//! | route | page |
//! |---|---|
//! | `/` | search box, the list in any of the API's sorts, keyset paging (`?q=`, `?sort=`, `?cursor=`) |
//! | `/<owner>` | the owner's listed skills and public packages |
//! | `/<owner>/<slug>` | a skill (the canonical page the API links as `canonicalUrl`), else the owner's package of that name |
//! | `/<owner>/<slug>/-/file?path=` | one file of the latest version, always as `text/plain` |
//! | `/<owner>/<slug>/-/report?path=` | the HTML report of one of its prompt sets (`promptset`'s report writer) |
//! | `/-/style.css` | the stylesheet |
//!
//! Only what the API lists is shown: a skill page exists only for a listed skill
//! ([`Visibility::is_listed`]), a package page only for a public package with a release.
//! Everything else — hidden, private, deleted, blocked, unknown — is the same 404 page.
//! Pages send a strict `Content-Security-Policy` (no script; styles from `/-/style.css`),
//! `X-Content-Type-Options: nosniff` and `X-Frame-Options: DENY`; every text a user wrote
//! is escaped by the templates, and SKILL.md is sanitised after Markdown rendering.
//!
//! Static API routes win over these captures (the router prefers static segments), and
//! the reserved first segments (`api`, `.well-known`, `-`) answer the API's plain-text 404.

mod render;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::app::AppState;
use crate::bundle::normalize_slug;
use crate::db::package_store::PackageRow;
use crate::db::{ListQuery, ListSort, SearchQuery, SkillDetailRow, SkillRow};
use crate::error::{AppError, AppResult};
use crate::extract::Params;
use crate::moderation::ScanReport;
use crate::packages::name::PackageName;
use crate::packages::scan::PackageScan;
use crate::pagination;
use crate::rate_limit;
use crate::routes::{base_url, views};
use crate::skills::Visibility;
use crate::skills::promptsets::{self, PromptSetsReport};

/// Most skills or packages on one list page.
const PAGE_SIZE: i64 = 24;
/// Most versions listed on a skill page.
const MAX_VERSIONS: i64 = 50;
/// Largest prompt set rendered as an HTML report (the API serves files up to 10 MB too).
const MAX_REPORT_BYTES: i64 = 10 * 1024 * 1024;
/// The sorts offered on `/`, as the API names them.
const SORTS: [(&str, &str); 8] = [
    ("updated", "Recently updated"),
    ("newest", "Newest"),
    ("downloads", "Downloads"),
    ("stars", "Stars"),
    ("installs", "Installs"),
    ("installsAllTime", "All-time installs"),
    ("trending", "Trending"),
    ("name", "Name"),
];
/// First path segments that belong to other surfaces, never to an owner.
const RESERVED: [&str; 4] = ["api", ".well-known", "-", "favicon.ico"];

/// The page routes, rate limited as reads.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(home))
        .route("/{owner}", get(owner_page))
        .route("/{owner}/{name}", get(skill_or_package_page))
        .route("/{owner}/{name}/-/file", get(skill_file))
        .route("/{owner}/{name}/-/report", get(prompt_set_report))
        .route_layer(middleware::from_fn(rate_limit::by_method))
        .route("/-/style.css", get(style_css))
}

/// What every page template gets besides its own view.
fn site(base: &str) -> Value {
    json!({ "name": "ClawRegistry", "base": base })
}

/// The 404 page.
fn not_found_page(base: &str, what: &str) -> Response {
    render::page(
        StatusCode::NOT_FOUND,
        "error.html",
        json!({
            "site": site(base),
            "heading": "Not found",
            "message": format!("There is no public {what} at this address."),
        }),
    )
}

/// Answers an error of a page: 404 and 400 as pages, the rest as the API's plain text.
fn error_page(base: &str, error: AppError) -> Response {
    match error {
        AppError::NotFound(_) => not_found_page(base, "page"),
        AppError::BadRequest(message) => render::page(
            StatusCode::BAD_REQUEST,
            "error.html",
            json!({ "site": site(base), "heading": "Bad request", "message": message }),
        ),
        other => other.into_response(),
    }
}

async fn style_css() -> Response {
    let mut response = render::STYLE_CSS.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/css; charset=utf-8"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=300"),
    );
    response
}

/// One skill as a card on a list page.
fn skill_card(row: &SkillRow) -> Value {
    json!({
        "url": format!("/{}/{}", row.owner_handle, row.slug),
        "slug": row.slug,
        "display_name": row.display_name,
        "summary": row.summary,
        "owner": row.owner_handle,
        "version": row.latest_version,
        "downloads": row.downloads,
        "stars": row.stars,
        "updated": render::date(row.updated_at),
        "suspicious": row.is_suspicious,
        "prompt_sets": row.prompt_sets_status,
    })
}

fn package_card(row: &PackageRow) -> Value {
    json!({
        "url": package_page_path(row),
        "name": row.name,
        "display_name": row.display_name,
        "summary": row.summary,
        "family": row.family,
        "version": row.latest_version,
        "downloads": row.downloads,
        "updated": render::date(row.updated_at),
    })
}

/// `/<owner>/<name>` of a package: its name without the owner's own scope.
fn package_page_path(row: &PackageRow) -> String {
    let scope = format!("@{}/", row.owner_handle);
    let short = row.name.strip_prefix(&scope).unwrap_or(&row.name);
    format!("/{}/{}", row.owner_handle, encode_segment(short))
}

/// Everything but RFC 3986's unreserved characters, so `my-skill_v2.x` stays readable in a
/// link while `/`, `?`, `#`, `%`, spaces and non-ASCII are escaped.
const ESCAPED: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

fn encode_segment(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, ESCAPED).to_string()
}

fn encode_query(text: &str) -> String {
    encode_segment(text)
}

async fn home(State(state): State<AppState>, headers: HeaderMap, params: Params) -> Response {
    let base = base_url(&state, &headers);
    match home_page(&state, &params, &base).await {
        Ok(response) => response,
        Err(error) => error_page(&base, error),
    }
}

async fn home_page(state: &AppState, params: &Params, base: &str) -> AppResult<Response> {
    let query = params.text("q").map(str::trim).unwrap_or("");
    let sort_key = params.text("sort").unwrap_or("updated");
    let sort = ListSort::parse(sort_key).ok_or_else(|| {
        AppError::bad_request(format!("`{sort_key}` is not a sort this registry knows"))
    })?;
    let sorts: Vec<Value> = SORTS
        .iter()
        .map(|(key, label)| json!({ "key": key, "label": label }))
        .collect();
    if !query.is_empty() {
        let terms = crate::skills::ranking::search_terms(query);
        let hits = state
            .store
            .search_skills(&SearchQuery {
                terms: terms.clone(),
                limit: PAGE_SIZE * 2,
                highlighted_only: false,
                non_suspicious_only: false,
                valid_prompt_sets_only: false,
            })
            .await?;
        let scored = crate::skills::ranking::Relevance::new(query, &terms).rank(hits);
        let skills: Vec<Value> = scored
            .iter()
            .take(PAGE_SIZE as usize)
            .map(|(_, row)| skill_card(row))
            .collect();
        // More matches than one page: say these are the best, not how many there are.
        let more = scored.len() > skills.len();
        return Ok(render::page(
            StatusCode::OK,
            "home.html",
            json!({ "site": site(base), "query": query, "skills": skills, "sorts": sorts, "more": more }),
        ));
    }
    let canonical_key = SORTS
        .iter()
        .map(|(key, _)| *key)
        .find(|key| ListSort::parse(key) == Some(sort))
        .unwrap_or("updated");
    let cursor = params.text("cursor");
    let mut rows = state
        .store
        .list_skills(&ListQuery {
            sort,
            after: pagination::decode_skill_cursor(sort, cursor),
            limit: PAGE_SIZE,
            non_suspicious_only: false,
            valid_prompt_sets_only: false,
            prefix: None,
            trending_since: chrono::Utc::now().timestamp_millis() - 7 * 24 * 60 * 60 * 1000,
        })
        .await?;
    let more = rows.len() > PAGE_SIZE as usize;
    rows.truncate(PAGE_SIZE as usize);
    let next_url = match (more, rows.last()) {
        (true, Some(last)) if sort != ListSort::Trending => {
            pagination::encode_skill_cursor(sort, last)
                .map(|next| format!("/?sort={canonical_key}&cursor={}", encode_query(&next)))
        }
        _ => None,
    };
    let first_url = cursor.map(|_| format!("/?sort={canonical_key}"));
    let skills: Vec<Value> = rows.iter().map(skill_card).collect();
    Ok(render::page(
        StatusCode::OK,
        "home.html",
        json!({
            "site": site(base),
            "skills": skills,
            "sorts": sorts,
            "sort": canonical_key,
            "next_url": next_url,
            "first_url": first_url,
        }),
    ))
}

async fn owner_page(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(owner): Path<String>,
) -> Response {
    if RESERVED.contains(&owner.as_str()) {
        return AppError::not_found("Not found").into_response();
    }
    let base = base_url(&state, &headers);
    let result = async {
        let handle = owner.trim().trim_start_matches('@').to_ascii_lowercase();
        let user = state
            .store
            .find_user(&handle)
            .await?
            .ok_or_else(|| AppError::not_found("Owner not found"))?;
        let skills = state.store.list_owner_skills(user.id, 200).await?;
        let packages = state.store.list_owner_packages(user.id, 200).await?;
        if user.handle != owner {
            return Ok(Redirect::permanent(&format!("/{}", user.handle)).into_response());
        }
        Ok::<_, AppError>(render::page(
            StatusCode::OK,
            "owner.html",
            json!({
                "site": site(&base),
                "owner": { "handle": user.handle, "display_name": user.display_name },
                "skills": skills.iter().map(skill_card).collect::<Vec<_>>(),
                "packages": packages.iter().map(package_card).collect::<Vec<_>>(),
            }),
        ))
    }
    .await;
    result.unwrap_or_else(|error| error_page(&base, error))
}

/// A skill the pages may show: listed, and owned by `owner`.
async fn listed_skill(state: &AppState, owner: &str, slug: &str) -> AppResult<SkillDetailRow> {
    let slug = normalize_slug(slug);
    if slug.is_empty() || slug.len() > 200 {
        return Err(AppError::not_found("Skill not found"));
    }
    let detail = state
        .store
        .find_skill(&slug)
        .await?
        .ok_or_else(|| AppError::not_found("Skill not found"))?;
    if !Visibility::of(&detail.skill).is_listed()
        || !detail.skill.owner_handle.eq_ignore_ascii_case(owner)
    {
        return Err(AppError::not_found("Skill not found"));
    }
    Ok(detail)
}

async fn skill_or_package_page(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((owner, name)): Path<(String, String)>,
) -> Response {
    if RESERVED.contains(&owner.as_str()) {
        return AppError::not_found("Not found").into_response();
    }
    let base = base_url(&state, &headers);
    match listed_skill(&state, &owner, &name).await {
        Ok(detail) => {
            let canonical = format!("/{}/{}", detail.skill.owner_handle, detail.skill.slug);
            if owner != detail.skill.owner_handle || name != detail.skill.slug {
                return Redirect::permanent(&canonical).into_response();
            }
            skill_page(&state, &detail, &base)
                .await
                .unwrap_or_else(|error| error_page(&base, error))
        }
        Err(AppError::NotFound(_)) => package_page(&state, &owner, &name, &base)
            .await
            .unwrap_or_else(|error| error_page(&base, error)),
        Err(error) => error_page(&base, error),
    }
}

async fn skill_page(state: &AppState, detail: &SkillDetailRow, base: &str) -> AppResult<Response> {
    let row = &detail.skill;
    let latest_id = row
        .latest_version_id
        .ok_or_else(|| AppError::not_found("Skill not found"))?;
    let latest = state
        .store
        .find_version_by_id(latest_id)
        .await?
        .ok_or_else(|| AppError::not_found("Skill not found"))?;
    let versions = state
        .store
        .list_versions(row.id, None, MAX_VERSIONS)
        .await?;
    let files = state.store.version_files(latest.id).await?;
    let page_path = format!("/{}/{}", row.owner_handle, row.slug);
    let readme = render::markdown(detail.latest_skill_md.as_deref().unwrap_or(""));
    let scan: Option<ScanReport> = views::scan_report(&latest.scan_json);
    let prompt_sets: Option<PromptSetsReport> = latest
        .prompt_sets_json
        .as_deref()
        .and_then(promptsets::parse);
    let prompt_sets_view = prompt_sets.as_ref().map(|report| {
        let sets: Vec<Value> = report
            .sets
            .iter()
            .map(|set| {
                let mut value = serde_json::to_value(set).unwrap_or(Value::Null);
                if let Some(object) = value.as_object_mut() {
                    object.insert(
                        "report_url".into(),
                        json!(format!("{page_path}/-/report?path={}", encode_query(&set.path))),
                    );
                    object.insert(
                        "csv_url".into(),
                        json!(format!(
                            "/api/v1/skills/{}/file?path={}&version={}&format=csv",
                            row.slug,
                            encode_query(&set.path),
                            latest.version
                        )),
                    );
                }
                value
            })
            .collect();
        json!({ "status": report.status, "checked": report.checked, "invalid": report.invalid, "sets": sets })
    });
    let view = json!({
        "site": site(base),
        "skill": {
            "slug": row.slug,
            "display_name": row.display_name,
            "summary": row.summary,
            "owner": row.owner_handle,
            "owner_name": row.owner_display_name,
            "version": latest.version,
            "updated": render::date(row.updated_at),
            "downloads": row.downloads,
            "stars": row.stars,
            "installs": row.installs_all_time,
            "suspicious": row.is_suspicious,
            "canonical_url": views::canonical_url(base, row),
        },
        "versions": versions.iter().take(MAX_VERSIONS as usize).map(|version| json!({
            "version": version.version,
            "date": render::date(version.created_at),
            "changelog": version.changelog,
        })).collect::<Vec<_>>(),
        "files": files.iter().map(|file| json!({
            "path": file.path,
            "size": file.size,
            "url": format!("{page_path}/-/file?path={}", encode_query(&file.path)),
        })).collect::<Vec<_>>(),
        "scan": {
            "status": scan.as_ref().map_or(latest.verdict.as_str(), |report| report.verdict.as_str()),
            "engine": scan.as_ref().map(ScanReport::engine_label),
            "reasons": scan.as_ref().map(|report| report.reason_codes.clone()).unwrap_or_default(),
            "summary": scan.as_ref().map(|report| report.summary.clone()),
        },
        "scan_url": format!("/api/v1/skills/{}/scan?version={}", row.slug, latest.version),
        "prompt_sets": prompt_sets_view,
        "install": {
            "clawhub": format!("clawhub --registry {base} install {}", row.slug),
            "openclaw": format!("openclaw skills install @{}/{}", row.owner_handle, row.slug),
        },
        "download_url": format!("/api/v1/download?slug={}&version={}", row.slug, latest.version),
    });
    Ok(render::page(
        StatusCode::OK,
        "skill.html",
        minijinja::context! {
            readme => minijinja::Value::from_safe_string(readme),
            ..minijinja::Value::from(minijinja::value::Serde(&view))
        },
    ))
}

/// A public package of `owner` named `name` (`@owner/name` first, then an unscoped name).
async fn package_page(
    state: &AppState,
    owner: &str,
    name: &str,
    base: &str,
) -> AppResult<Response> {
    let mut found = None;
    for candidate in [format!("@{owner}/{name}"), name.to_owned()] {
        if PackageName::parse(&candidate).is_err() {
            continue;
        }
        if let Some(row) = state.store.find_package(&candidate).await?
            && row.deleted_at.is_none()
            && row.channel != "private"
            && row.latest_release_id.is_some()
            && row.owner_handle.eq_ignore_ascii_case(owner)
        {
            found = Some(row);
            break;
        }
    }
    let Some(package) = found else {
        return Ok(not_found_page(base, "skill or package"));
    };
    let releases = state.store.list_releases(package.id).await?;
    let latest = releases
        .iter()
        .find(|release| Some(release.id) == package.latest_release_id);
    let scan: Option<PackageScan> =
        latest.and_then(|release| serde_json::from_str(&release.scan_json).ok());
    let files: Vec<Value> = latest
        .and_then(|release| serde_json::from_str::<Vec<Value>>(&release.files_json).ok())
        .unwrap_or_default()
        .into_iter()
        .map(|file| json!({ "path": file.get("path"), "size": file.get("size") }))
        .collect();
    let url_path = PackageName::parse(&package.name)
        .map(|name| name.url_path())
        .unwrap_or_else(|_| package.name.clone());
    let version = package.latest_version.clone().unwrap_or_default();
    let plugin = matches!(package.family.as_str(), "code-plugin" | "bundle-plugin");
    // A release the scanner found malicious cannot be downloaded (the API answers 403), so
    // the page offers neither its files nor a way to install it, only the verdict.
    let blocked = latest.is_some_and(|release| release.scan_status == "malicious");
    let view = json!({
        "site": site(base),
        "package": {
            "name": package.name,
            "display_name": package.display_name,
            "summary": package.summary,
            "family": package.family,
            "owner": package.owner_handle,
            "version": version,
            "updated": render::date(package.updated_at),
            "downloads": package.downloads,
            "canonical_url": format!("{base}{}", package_page_path(&package)),
        },
        "releases": releases.iter().rev().map(|release| json!({
            "version": release.version,
            "date": render::date(release.created_at),
            "changelog": release.changelog,
            "scan": release.scan_status,
        })).collect::<Vec<_>>(),
        "files": if blocked { Vec::new() } else { files },
        "blocked": blocked,
        "scan": {
            "status": scan.as_ref().map_or("unknown", |scan| scan.status.as_str()),
            "overview": scan.as_ref().map(|scan| scan.overview.clone()),
        },
        "install": {
            "openclaw": plugin.then(|| format!("openclaw plugins install clawhub:{}", package.name)),
            "npm": format!("npm install {} --registry {base}/api/npm/", package.name),
        },
        "download_url": format!("/api/v1/packages/{url_path}/versions/{version}/artifact/download"),
    });
    Ok(render::page(StatusCode::OK, "package.html", view))
}

/// The bytes of file `path` of the latest version of a listed skill.
async fn latest_file(
    state: &AppState,
    owner: &str,
    name: &str,
    params: &Params,
    max_bytes: i64,
) -> AppResult<(SkillDetailRow, String, axum::body::Bytes)> {
    let path = params
        .text("path")
        .map(|path| path.trim_start_matches('/').to_owned())
        .filter(|path| !path.is_empty())
        .ok_or_else(|| AppError::bad_request("Missing path"))?;
    let detail = listed_skill(state, owner, name).await?;
    let latest = detail
        .skill
        .latest_version_id
        .ok_or_else(|| AppError::not_found("Skill not found"))?;
    let version = state
        .store
        .find_version_by_id(latest)
        .await?
        .ok_or_else(|| AppError::not_found("Skill not found"))?;
    if version.verdict == "malicious" {
        return Err(AppError::not_found("File not found"));
    }
    let files = state.store.version_files(version.id).await?;
    let file = files
        .into_iter()
        .find(|file| file.path == path)
        .ok_or_else(|| AppError::not_found("File not found"))?;
    if file.size > max_bytes {
        return Err(AppError::PayloadTooLarge(
            "File is too large to show".into(),
        ));
    }
    let bytes = state
        .storage
        .get(&file.sha256)
        .await?
        .ok_or_else(|| AppError::Gone("File missing in storage".into()))?;
    Ok((detail, file.path, bytes))
}

/// A file of a skill, always as UTF-8 text so nothing a user uploaded is ever interpreted
/// as HTML (or anything else) of this origin.
async fn skill_file(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((owner, name)): Path<(String, String)>,
    params: Params,
) -> Response {
    let base = base_url(&state, &headers);
    match latest_file(&state, &owner, &name, &params, 10 * 1024 * 1024).await {
        Ok((_, _, bytes)) => {
            let mut response = bytes.into_response();
            let headers = response.headers_mut();
            headers.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            );
            headers.insert(
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            );
            headers.insert(
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static("default-src 'none'; sandbox; frame-ancestors 'none'"),
            );
            response
        }
        Err(error) => error_page(&base, error),
    }
}

/// The HTML report of a prompt set of a skill, rendered by `promptset`'s report writer.
/// The report's own small inline script (the prompt-table filter) is allowed by its hash;
/// nothing else may run.
async fn prompt_set_report(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((owner, name)): Path<(String, String)>,
    params: Params,
) -> Response {
    let base = base_url(&state, &headers);
    let result = async {
        let (detail, path, bytes) =
            latest_file(&state, &owner, &name, &params, MAX_REPORT_BYTES).await?;
        let title = format!("{} · {path}", detail.skill.display_name);
        let html = tokio::task::spawn_blocking(move || -> Result<String, String> {
            let validation = promptset::validate::Validator::default().validate(&bytes);
            let set = validation.document.ok_or_else(|| {
                format!("`{path}` is not a valid prompt set, so it has no report; the skill page lists its errors")
            })?;
            promptset::html::render(&set, &title).map_err(|error| error.to_string())
        })
        .await
        .map_err(|error| AppError::Internal(error.into()))?
        .map_err(AppError::BadRequest)?;
        let csp = report_csp(&html);
        Ok::<_, AppError>(render::html_response(StatusCode::OK, html, &csp))
    }
    .await;
    result.unwrap_or_else(|error| error_page(&base, error))
}

/// The report's policy: its inline styles, `data:` images, and only its own scripts (by
/// SHA-256), which the report writer produces from a fixed template.
fn report_csp(html: &str) -> String {
    use base64::Engine as _;
    let mut hashes = String::new();
    let mut rest = html;
    while let Some(start) = rest.find("<script>") {
        let after = &rest[start + "<script>".len()..];
        let Some(end) = after.find("</script>") else {
            break;
        };
        let digest = Sha256::digest(&after.as_bytes()[..end]);
        hashes.push_str(&format!(
            " 'sha256-{}'",
            base64::engine::general_purpose::STANDARD.encode(digest)
        ));
        rest = &after[end..];
    }
    format!(
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src{}; \
         base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        if hashes.is_empty() {
            " 'none'"
        } else {
            &hashes
        }
    )
}
