-- The same tables as on PostgreSQL, where they hold the blobs so that several instances
-- share them. SQLite deployments are one process with a local disk and keep the file
-- store (`--storage DIR`); the tables exist so both schemas stay in lockstep.

CREATE TABLE blobs (
    sha256 TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE blob_chunks (
    sha256 TEXT NOT NULL REFERENCES blobs (sha256) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    bytes BLOB NOT NULL,
    PRIMARY KEY (sha256, seq)
);
