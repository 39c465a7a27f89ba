//! `sqlx::FromRow` for the row structs, by column name, on both backends.
//!
//! This is what `#[derive(sqlx::FromRow)]` generates; written as a small macro because the
//! derive needs sqlx's `macros` feature, whose host build (a second sqlx with both drivers
//! and SQLite's C sources) costs every clean build minutes. See `migrations.rs` for the
//! other half of that trade.

/// `from_row!(Type { column, … } flatten { field, … })`: each listed field is read from
/// the column of the same name; each `flatten` field is a nested row struct read from the
/// same row.
macro_rules! from_row {
    ($type:ty { $($column:ident),* $(,)? } $(flatten { $($nested:ident),* $(,)? })?) => {
        $crate::db::row::from_row!(@impl sqlx::sqlite::SqliteRow, $type { $($column),* } $(flatten { $($nested),* })?);
        $crate::db::row::from_row!(@impl sqlx::postgres::PgRow, $type { $($column),* } $(flatten { $($nested),* })?);
    };
    (@impl $row:ty, $type:ty { $($column:ident),* } $(flatten { $($nested:ident),* })?) => {
        impl<'r> sqlx::FromRow<'r, $row> for $type {
            fn from_row(row: &'r $row) -> Result<Self, sqlx::Error> {
                use sqlx::Row as _;
                Ok(Self {
                    $($column: row.try_get(stringify!($column))?,)*
                    $($($nested: sqlx::FromRow::from_row(row)?,)*)?
                })
            }
        }
    };
}

pub(crate) use from_row;
