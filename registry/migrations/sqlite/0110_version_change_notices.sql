-- PostgreSQL announces version changes to the other server instances on the same database
-- (see `migrations/postgres/0110_version_change_notices.sql`). A SQLite database has one
-- server process, which sees its own writes: nothing to announce.
SELECT 1;
