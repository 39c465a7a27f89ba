-- Users, API tokens, skills with their versions, files, tags and counters, upload tickets,
-- and the search index. Timestamps are Unix milliseconds bound from Rust.

CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    handle TEXT NOT NULL UNIQUE,
    display_name TEXT,
    image TEXT,
    role TEXT NOT NULL DEFAULT 'user',
    created_at INTEGER NOT NULL
);

CREATE TABLE api_tokens (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
);

CREATE TABLE upload_tickets (
    id INTEGER PRIMARY KEY,
    ticket TEXT NOT NULL UNIQUE,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    content_type TEXT,
    storage_id TEXT,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    uploaded_at INTEGER,
    used_at INTEGER
);

CREATE TABLE skills (
    id INTEGER PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    owner_id INTEGER NOT NULL REFERENCES users (id),
    display_name TEXT NOT NULL,
    summary TEXT,
    latest_version_id INTEGER,
    tags_json TEXT NOT NULL DEFAULT '{}',
    downloads INTEGER NOT NULL DEFAULT 0,
    stars INTEGER NOT NULL DEFAULT 0,
    installs_current INTEGER NOT NULL DEFAULT 0,
    installs_all_time INTEGER NOT NULL DEFAULT 0,
    versions_count INTEGER NOT NULL DEFAULT 0,
    highlighted BOOLEAN NOT NULL DEFAULT FALSE,
    is_suspicious BOOLEAN NOT NULL DEFAULT FALSE,
    is_malware_blocked BOOLEAN NOT NULL DEFAULT FALSE,
    moderation_version_id INTEGER,
    moderation_updated_at INTEGER,
    soft_deleted_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE INDEX skills_updated ON skills (updated_at DESC, id DESC);
CREATE INDEX skills_created ON skills (created_at DESC, id DESC);
CREATE INDEX skills_downloads ON skills (downloads DESC, id DESC);
CREATE INDEX skills_stars ON skills (stars DESC, id DESC);
CREATE INDEX skills_installs_current ON skills (installs_current DESC, id DESC);
CREATE INDEX skills_installs_all_time ON skills (installs_all_time DESC, id DESC);
CREATE INDEX skills_recommended ON skills (stars DESC, downloads DESC, updated_at DESC, id DESC);

CREATE TABLE skill_versions (
    id INTEGER PRIMARY KEY,
    skill_id INTEGER NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
    version TEXT NOT NULL,
    changelog TEXT NOT NULL,
    changelog_source TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    summary TEXT,
    metadata_json TEXT,
    verdict TEXT NOT NULL,
    published_by INTEGER NOT NULL REFERENCES users (id),
    created_at INTEGER NOT NULL,
    soft_deleted_at INTEGER,
    -- Large texts last: SQLite reads a row only up to the last column a query needs.
    skill_md TEXT NOT NULL,
    scan_json TEXT NOT NULL,
    UNIQUE (skill_id, version)
);

CREATE INDEX skill_versions_listing ON skill_versions (skill_id, created_at DESC, id DESC);
CREATE INDEX skill_versions_fingerprint ON skill_versions (skill_id, fingerprint);

CREATE TABLE version_files (
    version_id INTEGER NOT NULL REFERENCES skill_versions (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    content_type TEXT,
    PRIMARY KEY (version_id, path)
);

CREATE TABLE skill_tags (
    skill_id INTEGER NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    version_id INTEGER NOT NULL REFERENCES skill_versions (id) ON DELETE CASCADE,
    PRIMARY KEY (skill_id, tag)
);

CREATE TABLE stars (
    skill_id INTEGER NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (skill_id, user_id)
);

CREATE TABLE download_events (
    skill_id INTEGER NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
    actor TEXT NOT NULL,
    day INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (skill_id, actor, day)
);

CREATE INDEX download_events_recent ON download_events (created_at);

CREATE TABLE install_events (
    id INTEGER PRIMARY KEY,
    skill_id INTEGER NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
    user_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    version TEXT,
    created_at INTEGER NOT NULL
);

CREATE INDEX install_events_recent ON install_events (created_at);

CREATE TABLE rate_limit_buckets (
    bucket TEXT NOT NULL,
    window_start INTEGER NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (bucket, window_start)
);

CREATE VIRTUAL TABLE skills_search USING fts5 (
    slug, display_name, summary, tags, body,
    tokenize = 'unicode61 remove_diacritics 2'
);
