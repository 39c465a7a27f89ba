-- Staged ClawPack uploads, the CLI's route for tarballs too big for the 18 MB multipart
-- publish: `POST /api/cli/upload-url` stores a ticket, the raw tarball is posted to the
-- ticket's upload URL and stored as a blob (`storage_id`, its SHA-256), and a package
-- publish names that blob and the ticket, which it consumes (`used_at`).
-- Timestamps are Unix milliseconds bound from Rust.

CREATE TABLE package_uploads (
    id INTEGER PRIMARY KEY,
    ticket TEXT NOT NULL UNIQUE,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    storage_id TEXT,
    size INTEGER,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    uploaded_at INTEGER,
    used_at INTEGER
);
