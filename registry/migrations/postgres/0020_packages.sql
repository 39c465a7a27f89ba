-- Packages (code plugins, bundle plugins, skills published as packages) and their
-- immutable releases. Each release has exactly one stored tarball (content-addressed by
-- SHA-256 in blob storage); timestamps are Unix milliseconds bound from Rust.

CREATE TABLE packages (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    display_name TEXT NOT NULL,
    family TEXT NOT NULL,
    channel TEXT NOT NULL DEFAULT 'community',
    owner_id BIGINT NOT NULL REFERENCES users (id),
    summary TEXT,
    tags_json TEXT NOT NULL DEFAULT '{}',
    categories_json TEXT NOT NULL DEFAULT '[]',
    topics_json TEXT NOT NULL DEFAULT '[]',
    latest_release_id BIGINT,
    versions_count BIGINT NOT NULL DEFAULT 0,
    downloads BIGINT NOT NULL DEFAULT 0,
    installs BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    deleted_at BIGINT
);

CREATE INDEX packages_updated ON packages (updated_at DESC, id DESC);

CREATE TABLE package_releases (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    package_id BIGINT NOT NULL REFERENCES packages (id) ON DELETE CASCADE,
    version TEXT NOT NULL,
    changelog TEXT NOT NULL DEFAULT '',
    publisher_id BIGINT NOT NULL REFERENCES users (id),
    artifact_sha256 TEXT NOT NULL,
    artifact_size BIGINT NOT NULL,
    integrity TEXT NOT NULL,
    shasum TEXT NOT NULL,
    tarball_name TEXT NOT NULL,
    unpacked_size BIGINT NOT NULL,
    file_count BIGINT NOT NULL,
    files_json TEXT NOT NULL,
    install_fields_json TEXT,
    has_install_script BOOLEAN NOT NULL DEFAULT FALSE,
    compatibility_json TEXT,
    source_json TEXT,
    bundle_json TEXT,
    scan_json TEXT NOT NULL,
    scan_status TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (package_id, version)
);

CREATE INDEX package_releases_tarball ON package_releases (package_id, tarball_name);
