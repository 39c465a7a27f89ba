-- The audit log: one row per state change (who, what, which record, from -> to, when).
-- Rows are written in the same transaction as the change they describe and never updated.
-- The actor's handle is copied so the row still reads after the user is gone; the target
-- keeps its id and its name (slug or package name) at the time of the change.

CREATE TABLE audit_events (
    id INTEGER PRIMARY KEY,
    actor_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    actor_handle TEXT,
    action TEXT NOT NULL,
    target_kind TEXT NOT NULL,
    target_id INTEGER,
    target_name TEXT,
    from_json TEXT,
    to_json TEXT,
    created_at INTEGER NOT NULL
);

CREATE INDEX audit_events_actor ON audit_events (actor_handle, id DESC);
CREATE INDEX audit_events_target ON audit_events (target_name, id DESC);
CREATE INDEX audit_events_action ON audit_events (action, id DESC);
