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
use tantivy::query::{BooleanQuery, BoostQuery, EnableScoring, Occur, Query, TermQuery};
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, STRING, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::{
    DocAddress, Index, IndexReader, IndexWriter, ReloadPolicy, Score, TantivyDocument, Term,
};

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

/// BM25's term-frequency saturation as tantivy scores with it (its `K1`); the score
/// ceiling of [`WordClause::most`] depends on it, and the test
/// `the_score_floor_changes_no_hit` would catch a tantivy that scored with another.
const BM25_K1: f32 = 1.2;

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
    ///
    /// Why in two steps: where the query's words are common and scores nearly flat (the
    /// benchmark's corpus: each word is in a quarter of all summaries), block-WAND has
    /// nothing to skip with until the `limit`-th best score so far is high, which comes
    /// near the end of the scan; ranking every match took 0.5 ms a query at 100,000
    /// skills. The documents that have every word are a subset of the matches, score the
    /// same in both queries, and their intersection is cheap to rank. Their `limit`-th
    /// best score is then a floor: often provably above anything a document missing a
    /// word could reach, and the answer is complete; otherwise the full query starts
    /// from it and skips from its first document. The hits are the same either way
    /// (test `the_score_floor_changes_no_hit`).
    fn top_ids(&self, terms: &[String], limit: usize) -> Result<Vec<(i64, f32)>, DbError> {
        let searcher = self.reader.searcher();
        let (exact, words) = self.clauses(&searcher, terms, limit)?;
        let floor = match self.every_word(&searcher, &words, limit)? {
            Some(every) if every.complete => {
                // Only a whole-query match can score without every word: add it.
                let named = searcher
                    .search(
                        &full_query(exact, Occur::Must, words),
                        &TopDocs::with_limit(limit).order_by_score(),
                    )
                    .map_err(index_error)?;
                let mut best = Best::new(limit, Score::MIN);
                for (score, address) in every.hits {
                    if !named.iter().any(|(_, named)| *named == address) {
                        best.push(score, address);
                    }
                }
                for (score, address) in named {
                    best.push(score, address);
                }
                return self.ids(&searcher, best.into_sorted());
            }
            Some(every) => every.floor,
            None => Score::MIN,
        };
        let weight = full_query(exact, Occur::Should, words)
            .weight(EnableScoring::enabled_from_searcher(&searcher))
            .map_err(index_error)?;
        let mut best = Best::new(limit, floor);
        for (ordinal, segment) in searcher.segment_readers().iter().enumerate() {
            let ordinal = u32::try_from(ordinal).unwrap_or(u32::MAX);
            let alive = segment.alive_bitset();
            let mut threshold = best.threshold();
            weight
                .for_each_pruning(threshold, segment, &mut |doc, score| {
                    if !alive.is_some_and(|alive| alive.is_deleted(doc)) {
                        best.push(score, DocAddress::new(ordinal, doc));
                        threshold = best.threshold();
                    }
                    threshold
                })
                .map_err(index_error)?;
        }
        self.ids(&searcher, best.into_sorted())
    }

    /// The skill ids of ranked documents, best first.
    fn ids(
        &self,
        searcher: &tantivy::Searcher,
        ranked: Vec<(Score, DocAddress)>,
    ) -> Result<Vec<(i64, f32)>, DbError> {
        let mut hits = Vec::with_capacity(ranked.len());
        // The id column is opened once per segment, not once per hit.
        let mut columns: Vec<Option<tantivy::columnar::Column<u64>>> =
            vec![None; searcher.segment_readers().len()];
        for (score, address) in ranked {
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

    /// The query's clauses: the whole-query match of a slug or display name, and the word
    /// clauses with the query word each stands for and the number of documents it
    /// matches. Clauses that match nothing are left out, and so are words in nearly
    /// every document when others match enough.
    fn clauses(
        &self,
        searcher: &tantivy::Searcher,
        terms: &[String],
        limit: usize,
    ) -> Result<(Box<dyn Query>, Vec<WordClause>), DbError> {
        // `pdf tools` and `pdf-tools` give the same key: one clause.
        let exact = boosted(
            Term::from_field_text(self.exact, &exact_key(&terms.join("-"))),
            EXACT_WEIGHT,
        );
        let mut words = Vec::with_capacity(terms.len() * WEIGHTS.len());
        for (word, term) in terms.iter().enumerate() {
            for (field, weight) in WEIGHTS {
                let term = Term::from_field_text(self.text[field], term);
                let matches = searcher.doc_freq(&term).map_err(index_error)?;
                if matches > 0 {
                    words.push((word, term, weight, matches));
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
            .filter(|(_, _, _, matches)| informative(*matches))
            .any(|(_, _, _, matches)| *matches >= limit as u64);
        let words = words
            .into_iter()
            .filter(|(_, _, _, matches)| !enough_without || informative(*matches))
            .map(|(word, term, weight, matches)| WordClause {
                word,
                term,
                weight,
                // BM25's ceiling, reached by no document: weight × idf × (1 + k1) as the
                // term frequency grows without bound, whatever the length.
                most: weight * idf(matches, documents) * (1.0 + BM25_K1),
            })
            .collect();
        Ok((exact, words))
    }

    /// The best `limit` documents that have every query word (in any field), when the
    /// query has two words or more and at least `limit` such documents exist.
    fn every_word(
        &self,
        searcher: &tantivy::Searcher,
        words: &[WordClause],
        limit: usize,
    ) -> Result<Option<EveryWord>, DbError> {
        // Per query word: its clauses, and the most they can add together.
        let mut groups: Vec<(Clauses, Score)> = Vec::new();
        for clause in words {
            if groups.len() <= clause.word {
                groups.resize_with(clause.word + 1, || (Vec::new(), 0.0));
            }
            let (clauses, most) = &mut groups[clause.word];
            clauses.push((Occur::Should, boosted(clause.term.clone(), clause.weight)));
            *most += clause.most;
        }
        groups.retain(|(clauses, _)| !clauses.is_empty());
        if groups.len() < 2 {
            return Ok(None);
        }
        let most: Vec<Score> = groups.iter().map(|(_, most)| *most).collect();
        let every_word = BooleanQuery::new(
            groups
                .into_iter()
                .map(|(mut clauses, _)| {
                    let clause: Box<dyn Query> = if clauses.len() == 1 {
                        clauses.remove(0).1
                    } else {
                        Box::new(BooleanQuery::new(clauses))
                    };
                    (Occur::Must, clause)
                })
                .collect(),
        );
        let hits = searcher
            .search(&every_word, &TopDocs::with_limit(limit).order_by_score())
            .map_err(index_error)?;
        let Some(&(last, _)) = hits.last() else {
            return Ok(None);
        };
        if hits.len() < limit {
            return Ok(None);
        }
        // Sums taken in another order may differ in their last bits: keep a margin.
        let floor = last - last.abs() * 1e-4;
        let all: Score = most.iter().sum();
        let least = most.iter().copied().fold(Score::MAX, Score::min);
        Ok(Some(EveryWord {
            hits,
            floor,
            // A document missing a word scores at most what the other words add.
            complete: (all - least) * (1.0 + 1e-4) < floor,
        }))
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

/// Clauses of a boolean query.
type Clauses = Vec<(Occur, Box<dyn Query>)>;

/// A word clause: the query word's position, its term in one field, and the field's
/// weight.
struct WordClause {
    word: usize,
    term: Term,
    weight: f32,
    /// The most the clause can add to a document's score.
    most: Score,
}

/// The best documents that have every query word.
struct EveryWord {
    hits: Vec<(Score, DocAddress)>,
    /// A score the full query's last hit is sure to reach.
    floor: Score,
    /// Whether no document missing a word can reach the floor: then these hits, with
    /// any whole-query match, are the answer.
    complete: bool,
}

/// The best `limit` documents seen, and the score a new one has to beat.
struct Best {
    limit: usize,
    floor: Score,
    /// Worst first: the entry to drop when a better one comes.
    heap: std::collections::BinaryHeap<Worst>,
}

/// A hit ordered so that the worse score, then the later document, is greater.
struct Worst(Score, DocAddress);

impl PartialEq for Worst {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Worst {}

impl PartialOrd for Worst {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Worst {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other
            .0
            .total_cmp(&self.0)
            .then_with(|| self.1.cmp(&other.1))
    }
}

impl Best {
    fn new(limit: usize, floor: Score) -> Self {
        Self {
            limit,
            floor,
            heap: std::collections::BinaryHeap::with_capacity(limit + 1),
        }
    }

    /// Documents scoring at or below this cannot enter (block-WAND's threshold).
    fn threshold(&self) -> Score {
        match self.heap.peek() {
            Some(Worst(score, _)) if self.heap.len() >= self.limit => score.max(self.floor),
            _ => self.floor,
        }
    }

    fn push(&mut self, score: Score, address: DocAddress) {
        self.heap.push(Worst(score, address));
        if self.heap.len() > self.limit {
            self.heap.pop();
        }
    }

    /// Best first; equal scores in document order.
    fn into_sorted(self) -> Vec<(Score, DocAddress)> {
        self.heap
            .into_sorted_vec()
            .into_iter()
            .map(|Worst(score, address)| (score, address))
            .collect()
    }
}

/// The whole-query clause (`exact`, required or not) and every word clause.
fn full_query(exact: Box<dyn Query>, occur: Occur, words: Vec<WordClause>) -> BooleanQuery {
    let mut clauses: Clauses = vec![(occur, exact)];
    for WordClause { term, weight, .. } in words {
        clauses.push((Occur::Should, boosted(term, weight)));
    }
    BooleanQuery::new(clauses)
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
        index_with((1..=count).map(|id| SearchDocument {
            id,
            slug: format!("skill-{id}"),
            display_name: format!("Skill {id}"),
            summary: if id <= rare { "a rare find" } else { "plain" }.into(),
            tags_json: "{}".into(),
            body: "common words here".into(),
            listed: true,
            updated_at: id,
        }))
    }

    /// An index of `documents`, committed at once.
    fn index_with(documents: impl Iterator<Item = SearchDocument>) -> SearchIndex {
        let index = SearchIndex::new().expect("index");
        let mut live = index.live.try_lock().expect("writer");
        for document in documents {
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

    /// The plain top-k of the same clauses, without the floor.
    fn reference_top(index: &SearchIndex, terms: &[String], limit: usize) -> Vec<(i64, f32)> {
        let searcher = index.reader.searcher();
        let (exact, words) = index.clauses(&searcher, terms, limit).expect("clauses");
        let top = searcher
            .search(
                &full_query(exact, Occur::Should, words),
                &TopDocs::with_limit(limit).order_by_score(),
            )
            .expect("search");
        top.into_iter()
            .map(|(score, address)| {
                let ids = searcher
                    .segment_reader(address.segment_ord)
                    .fast_fields()
                    .u64("id")
                    .expect("ids");
                let id = ids.first(address.doc_id).expect("id");
                (i64::try_from(id).expect("id"), score)
            })
            .collect()
    }

    /// A small deterministic generator (a linear congruential one) for test corpora.
    struct Draw(u64);

    impl Draw {
        fn below(&mut self, bound: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            usize::try_from(self.0 >> 33).expect("small") % bound
        }

        fn text(&mut self, vocabulary: &[&str], words: usize) -> String {
            (0..words)
                .map(|_| vocabulary[self.below(vocabulary.len())])
                .collect::<Vec<_>>()
                .join(" ")
        }
    }

    /// Compares `top_ids` with the plain top-k on random queries over `vocabulary`: the
    /// same scores, and the same documents above the last place (ties there may be broken
    /// either way). Returns how many queries were answered from the every-word hits
    /// alone, how many ran the full query from a floor, and how many had a whole-query
    /// match first.
    fn matches_plain_top(
        index: &SearchIndex,
        vocabulary: &[&str],
        draw: &mut Draw,
    ) -> (usize, usize, usize) {
        let (mut complete, mut floored, mut whole) = (0, 0, 0);
        for _ in 0..300 {
            let words = 1 + draw.below(3);
            let mut terms: Vec<String> = (0..words)
                .map(|_| vocabulary[draw.below(vocabulary.len())].to_owned())
                .collect();
            if draw.below(4) == 0 {
                terms.push("nowhere".to_owned());
            }
            terms.dedup();
            let limit = [1, 3, 10, 50][draw.below(4)];
            let hits = index.top_ids(&terms, limit).expect("hits");
            let plain = reference_top(index, &terms, limit);
            assert_eq!(hits.len(), plain.len(), "{terms:?} limit {limit}");
            let close = |a: f32, b: f32| (a - b).abs() <= a.abs().max(b.abs()) * 1e-5;
            for ((_, got), (_, want)) in hits.iter().zip(&plain) {
                assert!(
                    close(*got, *want),
                    "{terms:?} limit {limit}: {hits:?} != {plain:?}"
                );
            }
            if let Some(&(_, last)) = plain.last() {
                let above = |list: &[(i64, f32)]| {
                    let mut ids: Vec<i64> = list
                        .iter()
                        .filter(|(_, score)| *score > last && !close(*score, last))
                        .map(|(id, _)| *id)
                        .collect();
                    ids.sort_unstable();
                    ids
                };
                assert_eq!(above(&hits), above(&plain), "{terms:?} limit {limit}");
            }
            let searcher = index.reader.searcher();
            let (_, words) = index.clauses(&searcher, &terms, limit).expect("clauses");
            match index
                .every_word(&searcher, &words, limit)
                .expect("every word")
            {
                Some(every) if every.complete => complete += 1,
                Some(_) => floored += 1,
                None => {}
            }
            whole += usize::from(
                plain
                    .first()
                    .is_some_and(|(_, score)| *score >= EXACT_WEIGHT),
            );
        }
        (complete, floored, whole)
    }

    /// The shortcuts change no hit. First over a varied index (deleted documents,
    /// several segments, skewed words in every field, varied lengths), where the full
    /// query mostly runs from a floor; then over one like the benchmark's (summaries of
    /// eleven common words, bodies with every word), where the every-word hits are
    /// provably the answer.
    #[test]
    fn the_score_floor_changes_no_hit() {
        let vocabulary = [
            "pdf", "tools", "weather", "notes", "report", "invoice", "email", "chart", "audio",
            "image", "backup", "deploy", "query", "tasks", "calendar", "market", "token", "brand",
            "topic", "prompt",
        ];
        // Skewed: earlier words are drawn more often.
        let skewed: Vec<&str> = vocabulary
            .iter()
            .enumerate()
            .flat_map(|(rank, word)| std::iter::repeat_n(*word, 20 / (rank + 1) + 1))
            .collect();
        let mut draw = Draw(11);
        let index = SearchIndex::new().expect("index");
        let mut live = index.live.try_lock().expect("writer");
        for round in 0..3 {
            for id in 1..=1500i64 {
                // Later rounds re-index a third of the skills: deleted documents remain.
                if round > 0 && draw.below(3) != 0 {
                    continue;
                }
                let slug = format!("{}-{id}", draw.text(&skewed, 2).replace(' ', "-"));
                let summary_words = 1 + draw.below(12);
                let body_words = 5 + draw.below(60);
                let document = SearchDocument {
                    id,
                    display_name: slug.replace('-', " "),
                    slug,
                    summary: draw.text(&skewed, summary_words),
                    tags_json: format!("{{\"{}\":\"1.0.0\"}}", draw.text(&skewed, 1)),
                    body: draw.text(&skewed, body_words),
                    listed: draw.below(10) != 0,
                    updated_at: round * 10_000 + id,
                };
                index.apply(&mut live, &document).expect("indexed");
            }
            live.writer.commit().expect("commit");
        }
        index.reader.reload().expect("reload");
        drop(live);
        assert!(index.reader.searcher().segment_readers().len() > 1);
        let (_, floored, _) = matches_plain_top(&index, &vocabulary, &mut draw);
        assert!(floored > 30, "too few queries had a floor: {floored}");

        // Every tenth skill is named after two of the first four words, so whole-query
        // matches (`weather-notes` for `weather notes`) are among the hits; queries of
        // the other words have them in summaries and bodies only, as in the benchmark.
        let index = index_with((1..=3000i64).map(|id| SearchDocument {
            id,
            slug: if id % 10 == 0 {
                format!(
                    "{}-{}",
                    vocabulary[draw.below(4)],
                    vocabulary[draw.below(4)]
                )
            } else {
                format!("bench-skill-{id:05}")
            },
            display_name: format!("Bench Skill {id}"),
            summary: draw.text(&vocabulary, 11),
            tags_json: "{\"latest\":\"1.0.0\"}".into(),
            body: draw.text(&vocabulary, 150),
            listed: true,
            updated_at: id,
        }));
        let (complete, _, whole) = matches_plain_top(&index, &vocabulary, &mut draw);
        assert!(
            complete > 30,
            "too few answers from the every-word hits: {complete}"
        );
        assert!(whole > 3, "too few queries named a skill: {whole}");
    }
}
