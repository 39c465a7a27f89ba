-- File contents in the database, for deployments where PostgreSQL is the only thing the
-- instances share (several `registry serve` processes, each with its own local disk).
-- A blob is content-addressed by its SHA-256 and split into chunks of at most 1 MiB, so
-- neither a write nor a read needs one statement holding the whole file. The `blobs` row
-- is inserted in the same transaction as the chunks: a blob is visible complete or not at
-- all. `created_at` (Unix milliseconds, bound from Rust) is the collector's age guard.

CREATE TABLE blobs (
    sha256 TEXT PRIMARY KEY,
    size BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE blob_chunks (
    sha256 TEXT NOT NULL REFERENCES blobs (sha256) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    bytes BYTEA NOT NULL,
    PRIMARY KEY (sha256, seq)
);
