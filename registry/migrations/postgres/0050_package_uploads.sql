-- Staged ClawPack uploads, the CLI's route for tarballs too big for the 18 MB multipart
-- publish: `POST /api/cli/upload-url` stores a ticket, the raw tarball is posted to the
-- ticket's upload URL and stored as a blob (`storage_id`, its SHA-256), and a package
-- publish names that blob and the ticket, which it consumes (`used_at`).
-- Timestamps are Unix milliseconds bound from Rust.

CREATE TABLE package_uploads (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    ticket TEXT NOT NULL UNIQUE,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    storage_id TEXT,
    size BIGINT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    uploaded_at BIGINT,
    used_at BIGINT
);
