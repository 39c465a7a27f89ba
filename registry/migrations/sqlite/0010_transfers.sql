-- Skill transfers: the owner offers a skill to another user, who accepts or rejects it; the
-- sender may cancel. Rows are never deleted, so the history stays; `status` moves from
-- `pending` to exactly one of `accepted`, `rejected`, `cancelled` or `expired`, always by a
-- conditional update on `status = 'pending'`, so two racing actions have one winner.
-- Timestamps are Unix milliseconds bound from Rust.

CREATE TABLE skill_transfers (
    id INTEGER PRIMARY KEY,
    skill_id INTEGER NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
    from_user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    to_user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    message TEXT,
    status TEXT NOT NULL DEFAULT 'pending',
    requested_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    resolved_at INTEGER
);

-- At most one pending transfer per skill; an expired one is marked `expired` before a new
-- request is inserted.
CREATE UNIQUE INDEX skill_transfers_one_pending ON skill_transfers (skill_id) WHERE status = 'pending';
CREATE INDEX skill_transfers_to ON skill_transfers (to_user_id, status);
CREATE INDEX skill_transfers_from ON skill_transfers (from_user_id, status);
