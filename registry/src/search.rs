//! The search index: skills' text in a tantivy index held in memory, kept in step with the
//! database, which stays the source of truth.
//!
//! Why: the databases' full-text search scores every match (bm25 over all skills sharing a
//! common word), so an uncached search got slower with every skill. tantivy ranks top-k
//! over compact postings and answers in about a millisecond at 100,000 skills.
//!
//! How it stays honest:
//! - it is built from the database on the first search (or the warm-up at start) and then
//!   follows the database by change stamp: every skill row whose `(updated_at, id)` is past
//!   the watermark is re-indexed (or dropped when no longer listed);
//! - [`crate::cache::CachingStore`] marks it stale after every write that changes a public
//!   read, and a search on a stale index catches up first (or waits for the catch-up under
//!   way to finish), so a skill just published on this instance is found at once and no
//!   handler can forget; the first search of a process waits for the first build;
//! - a background task catches up every [`POLL_INTERVAL`], so writes made by another
//!   instance on the same PostgreSQL database are searchable within a second;
//! - hits are only ids: the rows shown are read back from the database with the listing
//!   predicate and the query's filters, so a hidden, deleted or blocked skill is never
//!   returned even when the index has not caught up yet. Where this process is the only
//!   writer (SQLite), [`crate::cache::CachingStore`] keeps those rows in the response
//!   cache, invalidated per skill by the same writes, so a search reads no row twice.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, STRING, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, TantivyDocument, Term};

use crate::db::search_store::SearchDocument;
use crate::db::{SearchQuery, SearchRow, Store};
use crate::error::DbError;

/// How often the background task follows writes of other instances.
pub const POLL_INTERVAL: Duration = Duration::from_millis(500);

/// Rows read per page while catching up (the first build pages through every skill).
const PAGE: i64 = 2000;

/// Change stamps are taken by the writer before its transaction commits, so a row can
/// become visible with a stamp older than one already seen. Re-reading this far behind the
/// watermark catches such late commits; rows already indexed at the same stamp are skipped.
const LATE_COMMIT_MARGIN_MS: i64 = 5_000;

/// Indexing memory of the single writer thread (tantivy's minimum is 15 MB).
const WRITER_MEMORY: usize = 32 * 1024 * 1024;

/// Field weights: a slug or name word says more than a word of the summary, tags or body.
const WEIGHTS: [(usize, f32); 6] = [
    (FIELD_SLUG, 10.0),
    (FIELD_NAME, 8.0),
    (FIELD_PREFIXES, 3.0),
    (FIELD_SUMMARY, 3.0),
    (FIELD_TAGS, 2.0),
    (FIELD_BODY, 1.0),
];
const FIELD_SLUG: usize = 0;
const FIELD_NAME: usize = 1;
const FIELD_PREFIXES: usize = 2;
const FIELD_SUMMARY: usize = 3;
const FIELD_TAGS: usize = 4;
const FIELD_BODY: usize = 5;

/// Weight of a whole-query match of a slug or display name: above any sum of word matches,
/// so the exact skill is always among the candidates.
const EXACT_WEIGHT: f32 = 100.0;

/// Inverse document frequency below which a word clause is left out of a query that has
/// enough other matches. Such a word is in more than 99 % of the field's documents (as
/// `skill` is in nearly every SKILL.md): its clause adds at most `weight × 0.022` to any
/// score, so it cannot change which documents rank first when another clause matches at
/// least the candidates wanted, yet scoring it meant visiting every document.
const UNINFORMATIVE_IDF: f32 = 0.01;

/// The BM25 inverse document frequency tantivy scores with.
fn idf(matches: u64, documents: u64) -> f32 {
    let (matches, documents) = (matches as f32, documents as f32);
    (1.0 + (documents - matches + 0.5) / (matches + 0.5)).ln()
}

/// The in-memory search index of one server process.
pub struct SearchIndex {
    reader: IndexReader,
    id: Field,
    exact: Field,
    text: [Field; 6],
    /// Writer, watermark and what is indexed; also serialises catching up.
    live: tokio::sync::Mutex<Live>,
    /// Counts writes through the caching store (`mark_stale`).
    marks: AtomicU64,
    /// The cache of hit rows to drop a row from when its skill is re-indexed.
    responses: std::sync::OnceLock<Arc<crate::cache::ResponseCache>>,
    /// The count of marks the index has caught up with: a search that finds it behind
    /// the marks catches up (or waits for the catch-up under way) before it answers.
    synced: AtomicU64,
}

struct Live {
    writer: IndexWriter,
    /// The last `(updated_at, id)` read.
    watermark: (i64, i64),
    /// Stamp each indexed skill was indexed at, to skip re-reads inside the margin.
    indexed: HashMap<i64, i64>,
    /// Whether the first full build ran.
    built: bool,
}

impl std::fmt::Debug for SearchIndex {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("SearchIndex")
            .finish_non_exhaustive()
    }
}

impl SearchIndex {
    /// An empty index; it fills itself from the store on first use.
    pub fn new() -> anyhow::Result<Self> {
        let mut schema = Schema::builder();
        // Indexed to replace a skill's document, fast to read a hit's id from its column;
        // nothing is stored, so the index keeps no document store at all.
        let id = schema.add_u64_field("id", INDEXED | FAST);
        let exact = schema.add_text_field("exact", STRING);
        // Frequencies without positions: ranking needs term frequencies, no query here is
        // a phrase, and positions would double the index.
        let words = TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer("default")
                .set_index_option(IndexRecordOption::WithFreqs),
        );
        let text = [
            schema.add_text_field("slug", words.clone()),
            schema.add_text_field("name", words.clone()),
            schema.add_text_field("prefixes", STRING),
            schema.add_text_field("summary", words.clone()),
            schema.add_text_field("tags", words.clone()),
            schema.add_text_field("body", words),
        ];
        let index = Index::create_in_ram(schema.build());
        let writer = index.writer_with_num_threads(1, WRITER_MEMORY)?;
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        Ok(Self {
            reader,
            id,
            exact,
            text,
            live: tokio::sync::Mutex::new(Live {
                writer,
                watermark: (i64::MIN, i64::MIN),
                indexed: HashMap::new(),
                built: false,
            }),
            // Behind from the start: the first search waits for the first build.
            marks: AtomicU64::new(1),
            responses: std::sync::OnceLock::new(),
            synced: AtomicU64::new(0),
        })
    }

    /// Drops the kept row of every skill this index re-indexes after its first build.
    pub fn drop_rows_in(&self, responses: Arc<crate::cache::ResponseCache>) {
        let _ = self.responses.set(responses);
    }

    /// Marks the index behind the database: the next search catches up first.
    pub fn mark_stale(&self) {
        self.marks.fetch_add(1, Ordering::AcqRel);
    }

    /// Follows the store every [`POLL_INTERVAL`] while `index` is alive (needs a runtime).
    pub fn follow(index: &Arc<Self>, store: Weak<dyn Store>) {
        let weak = Arc::downgrade(index);
        tokio::spawn(async move {
            loop {
                let (Some(index), Some(store)) = (weak.upgrade(), store.upgrade()) else {
                    return;
                };
                if let Err(error) = index.catch_up(store.as_ref()).await {
                    tracing::warn!(error = %error, "search index: catching up failed");
                }
                drop((index, store));
                tokio::time::sleep(POLL_INTERVAL).await;
            }
        });
    }

    /// Reads every skill changed since the watermark and re-indexes it.
    pub async fn catch_up(&self, store: &dyn Store) -> Result<(), DbError> {
        self.catch_up_past(store, None).await
    }

    /// [`Self::catch_up`], skipped when a catch-up that finished while this one waited
    /// for the lock already covered the marks up to `wanted`.
    async fn catch_up_past(&self, store: &dyn Store, wanted: Option<u64>) -> Result<(), DbError> {
        let mut live = self.live.lock().await;
        if wanted.is_some_and(|wanted| self.synced.load(Ordering::Acquire) >= wanted) {
            return Ok(());
        }
        // Read before the database is: a write marked while we read is not covered, and
        // the next search catches up again.
        let covers = self.marks.load(Ordering::Acquire);
        let first_build = !live.built;
        let mut after = if live.built {
            (
                live.watermark.0.saturating_sub(LATE_COMMIT_MARGIN_MS),
                i64::MIN,
            )
        } else {
            (i64::MIN, i64::MIN)
        };
        let mut changed = false;
        loop {
            let page = store.search_documents(after, PAGE).await?;
            let Some(last) = page.last() else {
                break;
            };
            after = (last.updated_at, last.id);
            let full = i64::try_from(page.len()).unwrap_or(i64::MAX) >= PAGE;
            for document in page {
                if live.indexed.get(&document.id) == Some(&document.updated_at) {
                    continue;
                }
                changed = true;
                self.apply(&mut live, &document)?;
                // A second line behind PostgreSQL's announcements: whatever changed a
                // skill's stamp also drops its kept row, even if the announcement was lost.
                if !first_build && let Some(responses) = self.responses.get() {
                    responses.invalidate_skill(document.id);
                }
            }
            if after > live.watermark {
                live.watermark = after;
            }
            if !full {
                break;
            }
        }
        live.built = true;
        if changed {
            live.writer.commit().map_err(index_error)?;
            self.reader.reload().map_err(index_error)?;
            let searcher = self.reader.searcher();
            tracing::debug!(
                segments = searcher.segment_readers().len(),
                documents = searcher.num_docs(),
                "search index caught up"
            );
        }
        // Only now: searches that came in while this ran waited rather than answering
        // from an index without the writes they should see (or, at start, an empty one).
        self.synced.fetch_max(covers, Ordering::AcqRel);
        if first_build {
            self.merge_segments(&mut live).await;
        }
        Ok(())
    }

    /// Merges the first build's segments into one. The writer flushes a segment per
    /// [`WRITER_MEMORY`] of text, so 100,000 skills came out as three, and each segment
    /// ranks on its own from a zero threshold: one segment lets block-WAND skip more.
    /// Searches go on meanwhile on the segments as they are.
    async fn merge_segments(&self, live: &mut Live) {
        let segments: Vec<_> = self
            .reader
            .searcher()
            .segment_readers()
            .iter()
            .map(tantivy::SegmentReader::segment_id)
            .collect();
        if segments.len() < 2 {
            return;
        }
        let merged = match live.writer.merge(&segments).await {
            Ok(_) => self.reader.reload(),
            Err(error) => Err(error),
        };
        match merged {
            Ok(()) => tracing::debug!(
                segments = self.reader.searcher().segment_readers().len(),
                "search index segments merged"
            ),
            // The index stays usable as it was; merging again later is the writer's
            // own merge policy's job.
            Err(error) => tracing::warn!(error = %error, "search index: merging failed"),
        }
    }

    fn apply(&self, live: &mut Live, document: &SearchDocument) -> Result<(), DbError> {
        let id = u64::try_from(document.id).unwrap_or_default();
        live.writer.delete_term(Term::from_field_u64(self.id, id));
        live.indexed.insert(document.id, document.updated_at);
        if !document.listed {
            return Ok(());
        }
        let mut doc = TantivyDocument::default();
        doc.add_u64(self.id, id);
        doc.add_text(self.exact, exact_key(&document.slug));
        doc.add_text(self.exact, exact_key(&document.display_name));
        // Slugs are words joined by `-`; the word tokenizer splits them.
        doc.add_text(self.text[FIELD_SLUG], &document.slug);
        doc.add_text(self.text[FIELD_NAME], &document.display_name);
        for prefix in prefixes(&document.slug) {
            doc.add_text(self.text[FIELD_PREFIXES], prefix);
        }
        doc.add_text(self.text[FIELD_SUMMARY], &document.summary);
        doc.add_text(self.text[FIELD_TAGS], &document.tags_json);
        doc.add_text(self.text[FIELD_BODY], &document.body);
        live.writer.add_document(doc).map_err(index_error)?;
        Ok(())
    }

    /// Search candidates: the index's top hits re-read from the store (listed rows passing
    /// the filters only), best first, with the index score as text relevance.
    pub async fn search(
        &self,
        store: &dyn Store,
        query: &SearchQuery,
    ) -> Result<Vec<SearchRow>, DbError> {
        let hits = self.hits(store, query).await?;
        if hits.is_empty() {
            return Ok(Vec::new());
        }
        let ids: Vec<i64> = hits.iter().map(|(id, _)| *id).collect();
        let mut rows: HashMap<i64, _> = store
            .find_search_hits(&ids, query)
            .await?
            .into_iter()
            .map(|row| (row.id, row))
            .collect();
        Ok(hits
            .into_iter()
            .filter_map(|(id, score)| {
                rows.remove(&id).map(|skill| SearchRow {
                    skill: Arc::new(skill),
                    text_rank: f64::from(score),
                })
            })
            .collect())
    }

    /// The index's top hits for `query` as skill ids and scores, best first, after
    /// catching up when a write marked the index stale. Not yet checked against the
    /// database: callers show a hit only when its row is listed and passes the filters.
    pub async fn hits(
        &self,
        store: &dyn Store,
        query: &SearchQuery,
    ) -> Result<Vec<(i64, f32)>, DbError> {
        if query.terms.is_empty() {
            return Ok(Vec::new());
        }
        let marks = self.marks.load(Ordering::Acquire);
        if self.synced.load(Ordering::Acquire) < marks {
            self.catch_up_past(store, Some(marks)).await?;
        }
        // Filters drop hits after ranking: ask for more when they may drop many.
        let filtered =
            query.highlighted_only || query.non_suspicious_only || query.valid_prompt_sets_only;
        let wanted = usize::try_from(query.limit).unwrap_or(50).clamp(1, 1000);
        let wanted = if filtered { wanted * 4 } else { wanted };
        self.top_ids(&query.terms, wanted)
    }

    /// Ids and scores of the best `limit` documents for `terms`.
    fn top_ids(&self, terms: &[String], limit: usize) -> Result<Vec<(i64, f32)>, DbError> {
        let searcher = self.reader.searcher();
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        // `pdf tools` and `pdf-tools` give the same key: one clause.
        clauses.push((
            Occur::Should,
            boosted(
                Term::from_field_text(self.exact, &exact_key(&terms.join("-"))),
                EXACT_WEIGHT,
            ),
        ));
        // Word clauses with the number of documents each matches; clauses that match
        // nothing are left out.
        let mut words = Vec::with_capacity(terms.len() * WEIGHTS.len());
        for term in terms {
            for (field, weight) in WEIGHTS {
                let term = Term::from_field_text(self.text[field], term);
                let matches = searcher.doc_freq(&term).map_err(index_error)?;
                if matches > 0 {
                    words.push((term, weight, matches));
                }
            }
        }
        let documents: u64 = searcher
            .segment_readers()
            .iter()
            .map(|segment| u64::from(segment.max_doc()))
            .sum();
        let informative = |matches: u64| idf(matches, documents) >= UNINFORMATIVE_IDF;
        let enough_without = words
            .iter()
            .filter(|(_, _, matches)| informative(*matches))
            .any(|(_, _, matches)| *matches >= limit as u64);
        for (term, weight, matches) in words {
            if enough_without && !informative(matches) {
                continue;
            }
            clauses.push((Occur::Should, boosted(term, weight)));
        }
        let query = BooleanQuery::new(clauses);
        let top = searcher
            .search(&query, &TopDocs::with_limit(limit).order_by_score())
            .map_err(index_error)?;
        let mut hits = Vec::with_capacity(top.len());
        // The id column is opened once per segment, not once per hit.
        let mut columns: Vec<Option<tantivy::columnar::Column<u64>>> =
            vec![None; searcher.segment_readers().len()];
        for (score, address) in top {
            let ordinal = usize::try_from(address.segment_ord).unwrap_or(usize::MAX);
            let Some(slot) = columns.get_mut(ordinal) else {
                continue;
            };
            if slot.is_none() {
                *slot = Some(
                    searcher
                        .segment_reader(address.segment_ord)
                        .fast_fields()
                        .u64("id")
                        .map_err(index_error)?,
                );
            }
            if let Some(id) = slot.as_ref().and_then(|ids| ids.first(address.doc_id)) {
                hits.push((i64::try_from(id).unwrap_or_default(), score));
            }
        }
        Ok(hits)
    }

    /// Documents in the index (for tests and logs).
    pub fn len(&self) -> u64 {
        self.reader.searcher().num_docs()
    }

    /// Whether the index holds no document.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn boosted(term: Term, weight: f32) -> Box<dyn Query> {
    Box::new(BoostQuery::new(
        Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs)),
        weight,
    ))
}

/// A slug or display name as one lowercase key of alphanumeric words joined by `-`, so
/// `PDF Tools`, `pdf-tools` and the query `pdf tools` meet.
fn exact_key(text: &str) -> String {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join("-")
}

/// Prefixes (two characters and up) of each word of a slug, so `pd` finds `pdf-tools`.
fn prefixes(slug: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in slug.split('-').filter(|word| word.len() >= 2) {
        let word = word.to_lowercase();
        for (end, _) in word.char_indices().skip(2) {
            out.push(word[..end].to_owned());
        }
        out.push(word);
    }
    out.sort();
    out.dedup();
    out
}

fn index_error(error: tantivy::TantivyError) -> DbError {
    DbError::Other(anyhow::anyhow!("search index: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_keys_meet() {
        assert_eq!(exact_key("PDF Tools"), "pdf-tools");
        assert_eq!(exact_key("pdf-tools"), "pdf-tools");
    }

    /// An index of `count` skills whose bodies all say `common`; the first `rare` of them
    /// also have `rare` in their summary.
    fn index_of(count: i64, rare: i64) -> SearchIndex {
        let index = SearchIndex::new().expect("index");
        let mut live = index.live.try_lock().expect("writer");
        for id in 1..=count {
            let document = SearchDocument {
                id,
                slug: format!("skill-{id}"),
                display_name: format!("Skill {id}"),
                summary: if id <= rare { "a rare find" } else { "plain" }.into(),
                tags_json: "{}".into(),
                body: "common words here".into(),
                listed: true,
                updated_at: id,
            };
            index.apply(&mut live, &document).expect("indexed");
        }
        live.writer.commit().expect("commit");
        index.reader.reload().expect("reload");
        drop(live);
        index
    }

    fn ids(hits: &[(i64, f32)]) -> Vec<i64> {
        let mut ids: Vec<i64> = hits.iter().map(|(id, _)| *id).collect();
        ids.sort_unstable();
        ids
    }

    #[test]
    fn a_word_in_every_document_is_left_out_only_when_others_match_enough() {
        let index = index_of(300, 3);
        assert!(idf(300, 300) < UNINFORMATIVE_IDF && idf(3, 300) > UNINFORMATIVE_IDF);
        let terms = ["rare".to_owned(), "common".to_owned()];
        // Two wanted, three documents say `rare`: `common` adds nothing to the ranking.
        let hits = index.top_ids(&terms, 2).expect("search");
        assert_eq!(hits.len(), 2);
        assert!(ids(&hits).iter().all(|id| *id <= 3), "{hits:?}");
        // Ten wanted: `common` is kept to fill the candidates, after the `rare` ones.
        let kept = index.top_ids(&terms, 10).expect("search");
        assert_eq!(kept.len(), 10);
        assert_eq!(ids(&kept[..3]), [1, 2, 3], "{kept:?}");
        // The clause was left out of the first query: its scores lack its share.
        assert!(hits[0].1 < kept[0].1, "{hits:?} {kept:?}");
        // Alone, the common word still finds documents.
        let common = ["common".to_owned()];
        assert_eq!(index.top_ids(&common, 5).expect("search").len(), 5);
    }

    #[test]
    fn prefixes_of_each_word() {
        let all = prefixes("pdf-tools");
        for expected in ["pd", "pdf", "to", "too", "tool", "tools"] {
            assert!(all.iter().any(|p| p == expected), "{expected} missing");
        }
        assert!(!all.iter().any(|p| p == "p"));
    }
}
