//! How search hits are ordered for people: the text index's rank, boosts for the query's
//! words in a slug or display name, and a small popularity prior. One place for the API's
//! `/api/v1/search` and the web page's search box.
//!
//! Scoring runs on every candidate of every search (fifty for the API's default page), so
//! it reads the row's text in place: no word is lowercased into a new string.

use std::sync::Arc;

use crate::db::{SearchRow, SkillRow};

/// Most words of a query that are searched for.
const MAX_TERMS: usize = 16;
/// Longest word kept, in characters.
const MAX_TERM_CHARS: usize = 64;

/// A query's search terms: its alphanumeric words, lowercased, distinct, at most
/// [`MAX_TERMS`].
pub fn search_terms(query: &str) -> Vec<String> {
    let mut terms: Vec<String> = Vec::new();
    for word in words(query) {
        let word: String = word.to_lowercase().chars().take(MAX_TERM_CHARS).collect();
        if !terms.contains(&word) {
            terms.push(word);
        }
        if terms.len() == MAX_TERMS {
            break;
        }
    }
    terms
}

/// One query's relevance function, prepared once and applied to each candidate.
#[derive(Debug)]
pub struct Relevance<'q> {
    /// The query as a slug would be written (`mode=exact` style match).
    slug: String,
    /// Every word of the query, lowercased, in order.
    whole: Vec<String>,
    /// The distinct search terms.
    terms: &'q [String],
}

impl<'q> Relevance<'q> {
    /// The relevance of hits for `query`, whose search terms are `terms`.
    pub fn new(query: &str, terms: &'q [String]) -> Self {
        Self {
            slug: query.trim().to_lowercase(),
            whole: words(query).map(str::to_lowercase).collect(),
            terms,
        }
    }

    /// Final relevance: the text rank squashed to 0..1, slug and name word boosts, and a
    /// small log-capped popularity prior.
    pub fn score(&self, row: &SkillRow, text_rank: f64) -> f64 {
        let rank = text_rank.max(0.0);
        let mut score = rank / (1.0 + rank);
        // An exact slug or display name (`PDF Tools` for `pdf-tools`) always comes first.
        if row.slug == self.slug
            || same_words(&row.slug, &self.whole)
            || same_words(&row.display_name, &self.whole)
        {
            score += 5.0;
        }
        for term in self.terms {
            score += match word_match(&row.slug, term) {
                WordMatch::Whole => 1.5,
                WordMatch::Prefix => 0.75,
                WordMatch::None => 0.0,
            };
            score += match word_match(&row.display_name, term) {
                WordMatch::Whole => 1.0,
                WordMatch::Prefix => 0.5,
                WordMatch::None => 0.0,
            };
        }
        let popularity = (row.downloads + 2 * row.stars + row.installs_all_time).max(0) as f64;
        score + ((1.0 + popularity).log10() / 4.0).min(0.5)
    }

    /// `hits` scored and ordered best first: relevance, then the most recently updated,
    /// then by slug, so equal scores always come in the same order.
    pub fn rank(&self, hits: Vec<SearchRow>) -> Vec<(f64, Arc<SkillRow>)> {
        let mut scored: Vec<(f64, Arc<SkillRow>)> = hits
            .into_iter()
            .map(|hit| (self.score(&hit.skill, hit.text_rank), hit.skill))
            .collect();
        scored.sort_by(|a, b| {
            b.0.total_cmp(&a.0)
                .then_with(|| b.1.updated_at.cmp(&a.1.updated_at))
                .then_with(|| a.1.slug.cmp(&b.1.slug))
        });
        scored
    }
}

/// The alphanumeric words of `text`, as written.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
}

/// Whether `word` lowercased equals `lower`. Slugs and most names are ASCII: compared
/// bytewise, the rest char by char.
fn lower_eq(word: &str, lower: &str) -> bool {
    if word.is_ascii() {
        return word.eq_ignore_ascii_case(lower);
    }
    word.chars().flat_map(char::to_lowercase).eq(lower.chars())
}

/// Whether `word` lowercased starts with `lower`.
fn lower_starts_with(word: &str, lower: &str) -> bool {
    if word.is_ascii() {
        return word
            .as_bytes()
            .get(..lower.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(lower.as_bytes()));
    }
    let mut chars = word.chars().flat_map(char::to_lowercase);
    lower.chars().all(|c| chars.next() == Some(c))
}

/// Whether the words of `text` are exactly `whole` (lowercase), in order.
fn same_words(text: &str, whole: &[String]) -> bool {
    let mut own = words(text);
    whole
        .iter()
        .all(|word| own.next().is_some_and(|w| lower_eq(w, word)))
        && own.next().is_none()
}

enum WordMatch {
    Whole,
    Prefix,
    None,
}

/// How `term` meets the words of `text`: one of them whole, or only as a prefix.
fn word_match(text: &str, term: &str) -> WordMatch {
    let mut prefix = false;
    for word in words(text) {
        if lower_eq(word, term) {
            return WordMatch::Whole;
        }
        prefix = prefix || lower_starts_with(word, term);
    }
    if prefix {
        WordMatch::Prefix
    } else {
        WordMatch::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skills::visibility::tests::public_row;

    fn row(slug: &str, name: &str) -> SkillRow {
        SkillRow {
            slug: slug.into(),
            display_name: name.into(),
            ..public_row()
        }
    }

    #[test]
    fn terms_are_distinct_lowercase_words() {
        assert_eq!(search_terms("PDF  pdf-Tools!"), vec!["pdf", "tools"]);
        assert!(search_terms("  --  ").is_empty());
        assert_eq!(search_terms(&"w ".repeat(40)).len(), 1);
    }

    #[test]
    fn an_exact_slug_or_name_outranks_word_matches() {
        let terms = search_terms("PDF Tools");
        let relevance = Relevance::new("PDF Tools", &terms);
        let exact = relevance.score(&row("pdf-tools", "Something"), 1.0);
        let by_name = relevance.score(&row("x", "pdf tools"), 1.0);
        let words = relevance.score(&row("pdf-tools-pro", "PDF Tools Pro"), 50.0);
        assert!(
            exact > words && by_name > words,
            "{exact} {by_name} {words}"
        );
    }

    #[test]
    fn whole_words_count_more_than_prefixes() {
        let terms = search_terms("pdf");
        let relevance = Relevance::new("pdf", &terms);
        let whole = relevance.score(&row("pdf-merge", "Merge PDF"), 1.0);
        let prefix = relevance.score(&row("pdfkit-merge", "PDFKit merge"), 1.0);
        let none = relevance.score(&row("merge", "Merge"), 1.0);
        assert!(whole > prefix && prefix > none, "{whole} {prefix} {none}");
    }

    #[test]
    fn uppercase_and_non_ascii_names_meet_lowercase_terms() {
        assert!(lower_eq("Größe", "größe"));
        assert!(lower_starts_with("Ärger", "är"));
        assert!(!lower_starts_with("ab", "abc"));
        assert!(lower_starts_with("PDFKit", "pdf") && lower_eq("PDF", "pdf"));
        assert!(!lower_eq("pdf", "pdfs") && !lower_starts_with("Pdf", "pé"));
        assert!(same_words("Café-Tools", &["café".into(), "tools".into()]));
        assert!(!same_words(
            "Café Tools Pro",
            &["café".into(), "tools".into()]
        ));
    }
}
