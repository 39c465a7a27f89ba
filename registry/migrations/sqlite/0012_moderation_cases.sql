-- What people ask moderators to look at: reports (any signed-in user flags a skill with a
-- reason) and appeals (an owner asks for a hidden or flagged skill to be reviewed). Each
-- stays `open` until a moderator resolves it (`resolved`) or dismisses it (`dismissed`).
-- One open case per kind, skill and user: a second report while the first is open is
-- answered `alreadyReported`.

CREATE TABLE moderation_cases (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    skill_id INTEGER NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    version TEXT,
    text TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'open',
    created_at INTEGER NOT NULL,
    resolved_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    resolved_at INTEGER,
    note TEXT
);

CREATE UNIQUE INDEX moderation_cases_one_open ON moderation_cases (kind, skill_id, user_id) WHERE status = 'open';
CREATE INDEX moderation_cases_queue ON moderation_cases (kind, status, id DESC);

