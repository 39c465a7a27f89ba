//! Skill changes announced by PostgreSQL as they commit (migration
//! `0100_skill_change_notices.sql`), so each server instance can drop what it keeps in
//! memory about a skill another instance changed.

use sqlx::postgres::PgListener;

use crate::error::DbError;

/// The channel the triggers announce on.
pub const CHANNEL: &str = "registry_skill_changes";

/// One announced change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkillChange {
    /// The row of this skill changed.
    Skill(i64),
    /// A change whose reach is not one skill (a user's row).
    Everything,
}

/// A listening connection to the database.
pub struct SkillChanges {
    listener: PgListener,
}

impl std::fmt::Debug for SkillChanges {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("SkillChanges")
            .finish_non_exhaustive()
    }
}

impl SkillChanges {
    /// Listens on [`CHANNEL`] with a connection of its own.
    pub async fn listen(pool: &sqlx::PgPool) -> Result<Self, DbError> {
        let mut listener = PgListener::connect_with(pool).await?;
        listener.listen(CHANNEL).await?;
        Ok(Self { listener })
    }

    /// The next change; `None` when the connection was lost, so announcements may have
    /// been missed: the caller must assume anything changed and listen anew.
    pub async fn next(&mut self) -> Result<Option<SkillChange>, DbError> {
        let Some(notice) = self.listener.try_recv().await? else {
            return Ok(None);
        };
        Ok(Some(parse(notice.payload())))
    }
}

/// A payload as the trigger writes it; anything else is taken as a change of everything.
fn parse(payload: &str) -> SkillChange {
    payload
        .parse()
        .map_or(SkillChange::Everything, SkillChange::Skill)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_name_a_skill_or_everything() {
        assert_eq!(parse("42"), SkillChange::Skill(42));
        assert_eq!(parse("*"), SkillChange::Everything);
        assert_eq!(parse(""), SkillChange::Everything);
    }
}
