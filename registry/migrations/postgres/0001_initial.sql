-- Users, API tokens, skills with their versions, files, tags and counters, upload tickets,
-- and the search index. Timestamps are Unix milliseconds bound from Rust.

CREATE TABLE users (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    handle TEXT NOT NULL UNIQUE,
    display_name TEXT,
    image TEXT,
    role TEXT NOT NULL DEFAULT 'user',
    created_at BIGINT NOT NULL
);

CREATE TABLE api_tokens (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    revoked_at BIGINT
);

CREATE TABLE upload_tickets (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    ticket TEXT NOT NULL UNIQUE,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    size BIGINT NOT NULL,
    sha256 TEXT NOT NULL,
    content_type TEXT,
    storage_id TEXT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    uploaded_at BIGINT,
    used_at BIGINT
);

CREATE TABLE skills (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    owner_id BIGINT NOT NULL REFERENCES users (id),
    display_name TEXT NOT NULL,
    summary TEXT,
    latest_version_id BIGINT,
    tags_json TEXT NOT NULL DEFAULT '{}',
    downloads BIGINT NOT NULL DEFAULT 0,
    stars BIGINT NOT NULL DEFAULT 0,
    installs_current BIGINT NOT NULL DEFAULT 0,
    installs_all_time BIGINT NOT NULL DEFAULT 0,
    versions_count BIGINT NOT NULL DEFAULT 0,
    highlighted BOOLEAN NOT NULL DEFAULT FALSE,
    is_suspicious BOOLEAN NOT NULL DEFAULT FALSE,
    is_malware_blocked BOOLEAN NOT NULL DEFAULT FALSE,
    moderation_version_id BIGINT,
    moderation_updated_at BIGINT,
    soft_deleted_at BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE INDEX skills_updated ON skills (updated_at DESC, id DESC);
CREATE INDEX skills_created ON skills (created_at DESC, id DESC);
CREATE INDEX skills_downloads ON skills (downloads DESC, id DESC);
CREATE INDEX skills_stars ON skills (stars DESC, id DESC);
CREATE INDEX skills_installs_current ON skills (installs_current DESC, id DESC);
CREATE INDEX skills_installs_all_time ON skills (installs_all_time DESC, id DESC);
CREATE INDEX skills_recommended ON skills (stars DESC, downloads DESC, updated_at DESC, id DESC);

CREATE TABLE skill_versions (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    skill_id BIGINT NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
    version TEXT NOT NULL,
    changelog TEXT NOT NULL,
    changelog_source TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    summary TEXT,
    metadata_json TEXT,
    verdict TEXT NOT NULL,
    published_by BIGINT NOT NULL REFERENCES users (id),
    created_at BIGINT NOT NULL,
    soft_deleted_at BIGINT,
    -- Large texts last: SQLite reads a row only up to the last column a query needs.
    skill_md TEXT NOT NULL,
    scan_json TEXT NOT NULL,
    UNIQUE (skill_id, version)
);

CREATE INDEX skill_versions_listing ON skill_versions (skill_id, created_at DESC, id DESC);
CREATE INDEX skill_versions_fingerprint ON skill_versions (skill_id, fingerprint);

CREATE TABLE version_files (
    version_id BIGINT NOT NULL REFERENCES skill_versions (id) ON DELETE CASCADE,
    position BIGINT NOT NULL,
    path TEXT NOT NULL,
    size BIGINT NOT NULL,
    sha256 TEXT NOT NULL,
    content_type TEXT,
    PRIMARY KEY (version_id, path)
);

CREATE TABLE skill_tags (
    skill_id BIGINT NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    version_id BIGINT NOT NULL REFERENCES skill_versions (id) ON DELETE CASCADE,
    PRIMARY KEY (skill_id, tag)
);

CREATE TABLE stars (
    skill_id BIGINT NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (skill_id, user_id)
);

CREATE TABLE download_events (
    skill_id BIGINT NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
    actor TEXT NOT NULL,
    day BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (skill_id, actor, day)
);

CREATE INDEX download_events_recent ON download_events (created_at);

CREATE TABLE install_events (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    skill_id BIGINT NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
    user_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    version TEXT,
    created_at BIGINT NOT NULL
);

CREATE INDEX install_events_recent ON install_events (created_at);

CREATE TABLE rate_limit_buckets (
    bucket TEXT NOT NULL,
    window_start BIGINT NOT NULL,
    count BIGINT NOT NULL,
    PRIMARY KEY (bucket, window_start)
);

ALTER TABLE skills ADD COLUMN search_document TSVECTOR NOT NULL DEFAULT ''::tsvector;
CREATE INDEX skills_search ON skills USING GIN (search_document);
