//! Skill downloads counted without a database write per request, and still exactly after
//! a crash.
//!
//! A download counts once per actor (user or IP) and UTC day. The request path only
//! appends the event as one line to a journal file on the instance's local disk (one
//! `write` call, which a `kill -9` cannot split or undo once it returned) and answers; a
//! background task moves the journal into the database every second in one transaction
//! per batch (`Store::record_downloads`). Exactness does not depend on bookkeeping: the
//! database dedupes on `(skill, actor, day)`, so replaying a journal that was already
//! applied (a crash between the commit and the file's removal) counts nothing twice, and
//! a journal left by a crashed process is applied when the next process starts (or by a
//! live sibling sharing the directory).
//!
//! Files under `<storage>/downloads/`:
//! - `live-<pid>-<nanos>.log`: the journal being appended to, exclusively locked by its
//!   process for as long as it lives (a lock that can be taken means its owner is gone);
//! - `batch-<nanos>-<pid>.log`: a rotated journal waiting to be applied; nobody appends.

use std::collections::HashSet;
use std::fs::{self, File, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use crate::db::{DownloadEvent, Store};
use crate::error::DbError;

/// Events per database transaction when a journal is applied.
const BATCH: usize = 500;
/// Repeats remembered per day before the set starts over (it only saves journal lines).
const SEEN_LIMIT: usize = 1_000_000;

/// The journal of one process and the downloads it already counted today.
#[derive(Debug)]
pub struct DownloadLedger {
    dir: PathBuf,
    live: Mutex<Option<Live>>,
    seen: Mutex<(i64, HashSet<(i64, String)>)>,
    /// One application at a time (the timer, a test, shutdown).
    applying: tokio::sync::Mutex<()>,
}

/// The open journal and whether anything was written to it since it was opened.
#[derive(Debug)]
struct Live {
    file: File,
    path: PathBuf,
    written: bool,
}

impl DownloadLedger {
    /// A ledger journaling under `dir` (created on first use).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self {
            dir: dir.into(),
            live: Mutex::new(None),
            seen: Mutex::new((i64::MIN, HashSet::new())),
            applying: tokio::sync::Mutex::new(()),
        }
    }

    /// Counts a download of `skill_id` by `actor` at `now` (Unix ms). Repeats of the day
    /// cost nothing; a new one is one journal line, or a direct database write when the
    /// journal cannot be written (a full disk loses no count).
    pub async fn count(&self, store: &dyn Store, skill_id: i64, actor: &str, now: i64) {
        let day = now.div_euclid(86_400_000);
        if let Ok(mut seen) = self.seen.lock() {
            if seen.0 != day || seen.1.len() >= SEEN_LIMIT {
                seen.0 = day;
                seen.1.clear();
            }
            if !seen.1.insert((skill_id, actor.to_owned())) {
                return;
            }
        }
        let event = DownloadEvent {
            skill_id,
            actor: actor.to_owned(),
            day,
            at: now,
        };
        if let Err(error) = self.append(&event) {
            tracing::warn!(error = %error, "download journal not writable; counting directly");
            if let Err(error) = store.record_downloads(std::slice::from_ref(&event)).await {
                tracing::warn!(error = %error, "failed to count a download");
            }
        }
    }

    fn append(&self, event: &DownloadEvent) -> std::io::Result<()> {
        let line = event.to_line();
        let mut live = self
            .live
            .lock()
            .map_err(|_| std::io::Error::other("journal lock poisoned"))?;
        if live.is_none() {
            *live = Some(self.open_live()?);
        }
        let journal = live.as_mut().expect("opened above");
        // One write call per line: O_APPEND places it whole at the end.
        journal.file.write_all(line.as_bytes())?;
        journal.written = true;
        Ok(())
    }

    fn open_live(&self) -> std::io::Result<Live> {
        fs::create_dir_all(&self.dir)?;
        let path = self
            .dir
            .join(format!("live-{}-{}.log", std::process::id(), nanos()));
        let file = OpenOptions::new().create(true).append(true).open(&path)?;
        file.try_lock().map_err(std::io::Error::other)?;
        Ok(Live {
            file,
            path,
            written: false,
        })
    }

    /// Moves every finished journal into the database: this process's live one (rotated
    /// first), those of processes that are gone, and batches a failed run left. Returns
    /// the number of events applied; a database error leaves the files for the next run.
    pub async fn apply(&self, store: &dyn Store) -> anyhow::Result<usize> {
        let _one = self.applying.lock().await;
        self.rotate()?;
        self.adopt_orphans();
        let mut applied = 0;
        for path in self.batches()? {
            applied += apply_file(store, &path).await?;
            fs::remove_file(&path)?;
        }
        Ok(applied)
    }

    /// Renames the live journal to a batch (when it has lines) and starts a new one.
    fn rotate(&self) -> std::io::Result<()> {
        let mut live = self
            .live
            .lock()
            .map_err(|_| std::io::Error::other("journal lock poisoned"))?;
        if let Some(journal) = live.as_ref()
            && journal.written
        {
            fs::rename(&journal.path, self.batch_path())?;
            *live = None;
        }
        Ok(())
    }

    /// Turns the live journals of dead processes into batches.
    fn adopt_orphans(&self) {
        let own = self
            .live
            .lock()
            .ok()
            .and_then(|live| live.as_ref().map(|journal| journal.path.clone()));
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let is_live = file_name(&path).is_some_and(|name| name.starts_with("live-"));
            if !is_live || Some(&path) == own.as_ref() {
                continue;
            }
            // A lock we can take belongs to nobody: its process is gone.
            let Ok(file) = File::open(&path) else {
                continue;
            };
            if file.try_lock().is_ok()
                && let Err(error) = fs::rename(&path, self.batch_path())
            {
                tracing::warn!(error = %error, path = %path.display(), "cannot adopt a journal");
            }
        }
    }

    /// Waiting batches, oldest first.
    fn batches(&self) -> std::io::Result<Vec<PathBuf>> {
        let entries = match fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => return Err(error),
        };
        let mut batches: Vec<PathBuf> = entries
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| file_name(path).is_some_and(|name| name.starts_with("batch-")))
            .collect();
        batches.sort();
        Ok(batches)
    }

    fn batch_path(&self) -> PathBuf {
        self.dir
            .join(format!("batch-{:020}-{}.log", nanos(), std::process::id()))
    }

    /// Applies the journal every `period` until the process ends; errors are logged and
    /// retried on the next tick.
    pub fn follow(
        self: &std::sync::Arc<Self>,
        store: std::sync::Weak<dyn Store>,
        period: Duration,
    ) {
        let ledger = self.clone();
        tokio::spawn(async move {
            let mut ticker = tokio::time::interval(period);
            ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                ticker.tick().await;
                let Some(store) = store.upgrade() else {
                    return;
                };
                if let Err(error) = ledger.apply(store.as_ref()).await {
                    tracing::warn!(error = %error, "download journal not applied; retrying");
                }
            }
        });
    }
}

/// Applies one journal file in transactions of [`BATCH`] events.
async fn apply_file(store: &dyn Store, path: &Path) -> anyhow::Result<usize> {
    let text = fs::read_to_string(path)?;
    let mut events = Vec::new();
    for line in text.lines().filter(|line| !line.is_empty()) {
        match DownloadEvent::from_line(line) {
            Some(event) => events.push(event),
            None => {
                tracing::warn!(line, path = %path.display(), "skipping a malformed journal line")
            }
        }
    }
    for chunk in events.chunks(BATCH) {
        store
            .record_downloads(chunk)
            .await
            .map_err(|error: DbError| anyhow::anyhow!("database: {error}"))?;
    }
    Ok(events.len())
}

fn file_name(path: &Path) -> Option<&str> {
    path.file_name().and_then(|name| name.to_str())
}

fn nanos() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos())
}

impl DownloadEvent {
    /// `skill_id \t day \t at \t actor \n` (actors are `user:<id>` or `ip:<address>`).
    fn to_line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\n",
            self.skill_id, self.day, self.at, self.actor
        )
    }

    fn from_line(line: &str) -> Option<Self> {
        let mut fields = line.splitn(4, '\t');
        let skill_id = fields.next()?.parse().ok()?;
        let day = fields.next()?.parse().ok()?;
        let at = fields.next()?.parse().ok()?;
        let actor = fields.next()?.to_owned();
        (!actor.is_empty()).then_some(Self {
            skill_id,
            actor,
            day,
            at,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_bad_lines_are_refused() {
        let event = DownloadEvent {
            skill_id: 42,
            actor: "ip:2001:db8::1".into(),
            day: 20_000,
            at: 1_728_000_000_123,
        };
        let line = event.to_line();
        assert_eq!(
            DownloadEvent::from_line(line.trim_end()),
            Some(event.clone())
        );
        for bad in ["", "42", "x\t1\t2\tip:1", "42\t1\t2\t", "42\t1\t2"] {
            assert_eq!(DownloadEvent::from_line(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn rotation_leaves_a_batch_and_a_dead_process_journal_is_adopted() {
        let dir = tempfile::tempdir().expect("temp dir");
        let ledger = DownloadLedger::new(dir.path());
        let event = DownloadEvent {
            skill_id: 1,
            actor: "user:1".into(),
            day: 1,
            at: 1,
        };
        ledger.append(&event).expect("append");
        ledger.rotate().expect("rotate");
        assert_eq!(ledger.batches().expect("list").len(), 1);
        // A journal nobody holds a lock on (its process died) becomes a batch too.
        fs::write(dir.path().join("live-1-1.log"), event.to_line()).expect("orphan");
        ledger.adopt_orphans();
        assert_eq!(ledger.batches().expect("list").len(), 2);
        // This process's own live journal is never adopted while it is open.
        ledger.append(&event).expect("append");
        ledger.adopt_orphans();
        assert_eq!(ledger.batches().expect("list").len(), 2);
    }
}
