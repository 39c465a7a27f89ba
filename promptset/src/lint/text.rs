//! Text heuristics shared by the lint rules: normalisation, tokens, question shape,
//! brand and competitor mentions.
//!
//! Everything here is deliberately simple and explainable, because an analyst has to
//! be able to predict why a prompt was flagged:
//!
//! - **Normalised text** is lowercase, with every run of characters that are not
//!   letters or digits turned into one space and apostrophes dropped (`What's` becomes
//!   `whats`), padded with a space on both ends so that ` word ` is a whole-word match.
//! - **Content tokens** (for near-duplicate detection) are the normalised words minus
//!   stop words and question words, with a light plural stemming; Chinese, Japanese
//!   and Korean runs, which have no spaces, become character bigrams.
//! - **A brand mention** is a whole-word match of the brand name, of the name without
//!   corporate suffixes (`Inc`, `GmbH`, `Labs`, ...), or of the name without spaces;
//!   for CJK names a substring match.
//! - **A competitor mention** is a whole-word match of a known competitor name (see
//!   [`competitor_names`]) or a comparison cue (`vs`, `alternatives to`, `compared to`,
//!   `better than`, `instead of`, `switch from`, `competitors`, ...).

use std::collections::BTreeSet;

/// Lowercases `text`, keeps letters and digits, turns everything else into single
/// spaces, and pads the result with one space on each side.
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push(' ');
    let mut pending_space = false;
    for ch in text.chars() {
        if ch == '\'' || ch == '\u{2019}' {
            continue;
        }
        // Most prompts are ASCII: lowercase those bytes without the Unicode case tables.
        if ch.is_ascii_alphanumeric() {
            if pending_space && !out.ends_with(' ') {
                out.push(' ');
            }
            pending_space = false;
            out.push(ch.to_ascii_lowercase());
            continue;
        }
        if ch.is_alphanumeric() {
            if pending_space && !out.ends_with(' ') {
                out.push(' ');
            }
            pending_space = false;
            for lower in ch.to_lowercase() {
                out.push(lower);
            }
        } else {
            pending_space = true;
        }
    }
    if !out.ends_with(' ') {
        out.push(' ');
    }
    out
}

/// Whether `ch` belongs to a script written without spaces between words.
pub fn is_cjk(ch: char) -> bool {
    matches!(ch as u32,
        0x3040..=0x30FF   // Hiragana, Katakana
        | 0x3400..=0x4DBF // CJK extension A
        | 0x4E00..=0x9FFF // CJK unified ideographs
        | 0xAC00..=0xD7AF // Hangul syllables
        | 0xF900..=0xFAFF)
}

/// Words too common to tell two prompts apart.
const STOP_WORDS: &[&str] = &[
    "a", "about", "am", "an", "and", "any", "are", "as", "at", "be", "been", "by", "can", "could",
    "did", "do", "does", "for", "from", "had", "has", "have", "how", "hows", "i", "if", "im", "in",
    "into", "is", "it", "its", "me", "my", "of", "on", "or", "our", "should", "so", "some", "than",
    "that", "the", "their", "them", "there", "these", "this", "those", "to", "us", "was", "we",
    "were", "what", "whats", "when", "where", "which", "who", "whos", "why", "will", "with",
    "would", "you", "your",
];

/// A light English plural stemmer: enough to make `businesses` and `business` meet.
fn stem(word: &str) -> &str {
    if word.len() > 4 && word.ends_with("sses") {
        return &word[..word.len() - 2];
    }
    if word.len() > 4 && word.ends_with("ies") {
        // `companies` and `company` both become `compan`.
        return &word[..word.len() - 3];
    }
    if word.len() > 3 && word.ends_with('y') {
        return &word[..word.len() - 1];
    }
    if word.len() > 3 && word.ends_with('s') && !word.ends_with("ss") && !word.ends_with("us") {
        return &word[..word.len() - 1];
    }
    word
}

/// The content tokens of a normalised text: stop words removed, plurals stemmed, CJK
/// runs split into character bigrams. Sorted and deduplicated.
pub fn content_tokens(normalized: &str) -> Vec<String> {
    let mut tokens = BTreeSet::new();
    for word in normalized.split(' ').filter(|w| !w.is_empty()) {
        if word.chars().any(is_cjk) {
            let chars: Vec<char> = word.chars().collect();
            if chars.len() == 1 {
                tokens.insert(word.to_owned());
            }
            for pair in chars.windows(2) {
                tokens.insert(pair.iter().collect::<String>());
            }
        } else if STOP_WORDS.binary_search(&word).is_err() {
            tokens.insert(stem(word).to_owned());
        }
    }
    tokens.into_iter().collect()
}

/// The number of words of a text (CJK characters count one each).
pub fn word_count(text: &str) -> usize {
    let mut count = 0;
    for word in text.split_whitespace() {
        let cjk = word.chars().filter(|&c| is_cjk(c)).count();
        count += if cjk > 0 { cjk.div_ceil(2) } else { 1 };
    }
    count
}

/// First words that make a prompt a question.
const QUESTION_STARTS: &[&str] = &[
    "am", "are", "arent", "can", "cant", "could", "couldnt", "did", "do", "does", "doesnt", "dont",
    "has", "have", "how", "hows", "is", "isnt", "may", "might", "shall", "should", "shouldnt",
    "was", "were", "what", "whats", "when", "where", "wheres", "which", "who", "whom", "whos",
    "whose", "why", "will", "wont", "would",
];

/// First words that make a prompt a request to an assistant.
const REQUEST_STARTS: &[&str] = &[
    "advise",
    "assess",
    "break",
    "choose",
    "compare",
    "create",
    "describe",
    "draft",
    "evaluate",
    "explain",
    "find",
    "give",
    "guide",
    "help",
    "identify",
    "list",
    "looking",
    "name",
    "need",
    "outline",
    "pick",
    "plan",
    "please",
    "provide",
    "rank",
    "recommend",
    "review",
    "share",
    "shortlist",
    "show",
    "suggest",
    "summarise",
    "summarize",
    "tell",
    "walk",
    "want",
    "write",
];

/// First words of a prompt written as a first-person situation ("I run a bakery and need ...").
const FIRST_PERSON: &[&str] = &[
    "i", "id", "ill", "im", "ive", "my", "our", "we", "were", "weve",
];

/// Markers that make a Chinese, Japanese or Korean prompt a question or a request.
const CJK_QUESTION_MARKERS: &[&str] = &[
    "吗",
    "呢",
    "什么",
    "哪",
    "如何",
    "怎么",
    "怎样",
    "为什么",
    "是否",
    "多少",
    "推荐",
    "比较",
    "请",
    "有没有",
    "可以",
    "能否",
    "ですか",
    "ますか",
    "어떤",
    "무엇",
];

/// Whether a prompt reads as a question or a request, rather than a keyword fragment.
///
/// A prompt qualifies when it ends with a question mark and has at least three words,
/// starts with a question word (`what`, `is`, `should`, ...), starts with a request verb
/// (`recommend`, `compare`, `explain`, ...), describes a first-person situation of at
/// least six words (`we are a 20-person agency looking for ...`), or, for CJK text,
/// holds a question or request marker (`吗`, `什么`, `推荐`, ...).
pub fn is_question_or_request(text: &str, normalized: &str) -> bool {
    let trimmed = text.trim();
    let words = word_count(trimmed);
    if trimmed.chars().any(is_cjk) {
        return trimmed.ends_with('?')
            || trimmed.ends_with('？')
            || CJK_QUESTION_MARKERS.iter().any(|m| trimmed.contains(m));
    }
    if words < 3 {
        return false;
    }
    if trimmed.ends_with('?') {
        return true;
    }
    let first = normalized.split(' ').find(|w| !w.is_empty()).unwrap_or("");
    if QUESTION_STARTS.binary_search(&first).is_ok() || REQUEST_STARTS.binary_search(&first).is_ok()
    {
        return true;
    }
    FIRST_PERSON.binary_search(&first).is_ok() && words >= 6
}

/// Phrases that tie a prompt to a moment, which makes its answers drift for reasons
/// that have nothing to do with visibility.
const MOMENT_PHRASES: &[&str] = &[
    " right now ",
    " this week ",
    " this month ",
    " this year ",
    " today ",
    " tonight ",
    " tomorrow ",
    " yesterday ",
    " breaking news ",
];

/// Whether a normalised prompt names a calendar year (1990-2099) or a moment such as
/// `today` or `this week`.
pub fn is_time_sensitive(normalized: &str) -> bool {
    if MOMENT_PHRASES.iter().any(|p| normalized.contains(p)) {
        return true;
    }
    normalized.split(' ').any(|word| {
        word.len() == 4
            && word.bytes().all(|b| b.is_ascii_digit())
            && matches!(word.parse::<u32>(), Ok(1990..=2099))
    })
}

/// Comparison cues, matched against normalised text (so they carry their spaces).
const COMPARISON_CUES: &[&str] = &[
    " alternative",
    " better than ",
    " cheaper than ",
    " compare ",
    " compared ",
    " compares ",
    " comparing ",
    " comparison",
    " competing ",
    " competitor",
    " instead of ",
    " migrate from ",
    " migrating from ",
    " move from ",
    " moving from ",
    " other than ",
    " replace ",
    " replacement",
    " rival",
    " similar to ",
    " switch from ",
    " switching from ",
    " versus ",
    " vs ",
    " worse than ",
    " 替代",
    " 对比",
    " 比较",
    " 竞品",
    " 相比",
    " 哪个好",
    " 还是",
];

/// Whether a normalised prompt holds a comparison cue such as `vs` or `alternatives to`.
pub fn has_comparison_cue(normalized: &str) -> bool {
    COMPARISON_CUES.iter().any(|cue| {
        if cue.chars().nth(1).is_some_and(is_cjk) {
            normalized.contains(cue.trim_start())
        } else {
            normalized.contains(cue)
        }
    })
}

/// Whether `normalized` (a padded normalised text) mentions the normalised `name`: a
/// whole-word match, or a substring match when the name is written in CJK.
pub fn mentions(normalized: &str, name: &str) -> bool {
    if name.is_empty() {
        return false;
    }
    if name.chars().any(is_cjk) {
        return normalized.contains(name.trim());
    }
    let bytes = normalized.as_bytes();
    memchr::memmem::find_iter(bytes, name.as_bytes()).any(|at| {
        let after = at + name.len();
        at > 0
            && bytes[at - 1] == b' '
            // `Thumbtack's guarantee` normalises to `thumbtacks guarantee`.
            && (bytes.get(after) == Some(&b' ')
                || (bytes.get(after) == Some(&b's') && bytes.get(after + 1) == Some(&b' ')))
    })
}

/// Whether a rival's normalised `name` is also a common word of the set (`spaces` for
/// the rival Spaces in a set about coworking spaces): then only its capitalised form
/// (`Spaces`, `SPACES`) in the raw text names the rival, and `coworking spaces` does not.
/// `common_text` is text of the set where the word is used as a noun (topic names).
pub fn is_common_word<'t>(name: &str, common_text: impl IntoIterator<Item = &'t str>) -> bool {
    let word = name.trim();
    !word.is_empty()
        && word.chars().all(|c| c.is_ascii_lowercase())
        && common_text.into_iter().any(|text| {
            text.split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| w == word)
        })
}

/// Whether the raw `text` names the rival whose normalised name is the common word
/// `word`, capitalised (`Spaces`) or in capitals (`SPACES`).
pub fn mentions_capitalised(text: &str, word: &str) -> bool {
    let mut chars = word.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    let capitalised: String = first.to_uppercase().chain(chars).collect();
    let upper = word.to_uppercase();
    text.split(|c: char| !c.is_alphanumeric())
        .any(|w| w == capitalised || w == upper)
}

/// Corporate suffixes people leave out when they name a brand.
const CORPORATE_SUFFIXES: &[&str] = &[
    "ag",
    "co",
    "company",
    "corp",
    "corporation",
    "gmbh",
    "group",
    "hq",
    "inc",
    "io",
    "labs",
    "limited",
    "llc",
    "ltd",
    "plc",
    "sa",
    "sas",
    "srl",
    "technologies",
];

/// The normalised spellings of a brand name that count as a mention of it.
pub fn brand_variants(brand: &str) -> Vec<String> {
    let full = normalize(brand).trim().to_owned();
    let mut variants = BTreeSet::new();
    if full.is_empty() {
        return Vec::new();
    }
    variants.insert(full.clone());
    let words: Vec<&str> = full.split(' ').collect();
    let mut core: Vec<&str> = words.clone();
    while core.len() > 1 && core.last().is_some_and(|w| CORPORATE_SUFFIXES.contains(w)) {
        core.pop();
    }
    // `acme.com` normalises to `acme com`: the domain's name part is the brand.
    if core.len() > 1
        && matches!(
            core.last(),
            Some(&("com" | "net" | "org" | "ai" | "app" | "io" | "co"))
        )
    {
        core.pop();
    }
    variants.insert(core.join(" "));
    if words.len() > 1 {
        variants.insert(words.concat());
        variants.insert(core.concat());
    }
    variants
        .into_iter()
        .filter(|v| v.chars().count() >= 2)
        .collect()
}

/// Words that are capitalised in prose but never name a competitor.
const GENERIC_CAPITALISED: &[&str] = &[
    "a",
    "ai",
    "all",
    "also",
    "alternative",
    "alternatives",
    "an",
    "and",
    "are",
    "assumed",
    "b2b",
    "b2c",
    "based",
    "best",
    "both",
    "brand",
    "but",
    "can",
    "compare",
    "compared",
    "comparison",
    "competitor",
    "competitors",
    "crm",
    "does",
    "eu",
    "europe",
    "for",
    "from",
    "how",
    "if",
    "in",
    "inferred",
    "is",
    "it",
    "main",
    "major",
    "most",
    "no",
    "not",
    "of",
    "on",
    "or",
    "other",
    "our",
    "rival",
    "rivals",
    "saas",
    "should",
    "so",
    "some",
    "the",
    "their",
    "these",
    "they",
    "this",
    "to",
    "top",
    "uk",
    "us",
    "usa",
    "versus",
    "vs",
    "we",
    "what",
    "when",
    "where",
    "which",
    "who",
    "why",
    "with",
    "you",
];

fn is_generic(word: &str) -> bool {
    GENERIC_CAPITALISED.binary_search(&word).is_ok()
}

/// A word as written, without the punctuation around it.
fn strip_punctuation(word: &str) -> &str {
    word.trim_matches(|c: char| !c.is_alphanumeric() && c != '.' && c != '&' && c != '+')
        .trim_end_matches('.')
}

/// Whether a word as written looks like a proper name: it starts with an uppercase
/// letter and has a lowercase letter (so acronyms such as `CRM` do not count), or it
/// looks like a domain (`monday.com`).
fn looks_like_name(word: &str) -> bool {
    let mut chars = word.chars();
    let starts_upper = chars.next().is_some_and(char::is_uppercase);
    let has_lower = word.chars().any(char::is_lowercase);
    let domain = word.contains('.') && word.split('.').all(|part| !part.is_empty());
    (starts_upper && has_lower) || domain
}

/// Names next to a comparison pattern: `X vs Y`, `alternatives to X`, `X alternatives`,
/// `compared to X`, `better than X`, `instead of X`, `switch(ing) from X`,
/// `X competitors`. Only words that look like names count.
pub fn names_in_patterns(text: &str) -> Vec<String> {
    let words: Vec<&str> = text.split_whitespace().map(strip_punctuation).collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let mut names = Vec::new();
    let mut take = |index: usize, forward: bool| {
        let mut picked: Vec<&str> = Vec::new();
        let mut at = index;
        while let Some(word) = words.get(at) {
            if !looks_like_name(word) || is_generic(&lower[at]) {
                break;
            }
            picked.push(word);
            if picked.len() == 3 {
                break;
            }
            if forward {
                at += 1;
            } else if at == 0 {
                break;
            } else {
                at -= 1;
            }
        }
        if !forward {
            picked.reverse();
        }
        if !picked.is_empty() {
            names.push(picked.join(" "));
        }
    };
    for (index, word) in lower.iter().enumerate() {
        let next = lower.get(index + 1).map(String::as_str);
        match word.as_str() {
            "vs" | "versus" | "v" => {
                if index > 0 {
                    take(index - 1, false);
                }
                take(index + 1, true);
            }
            "alternative" | "alternatives" | "competitor" | "competitors" | "rivals"
            | "compared" | "comparable" | "similar"
                if matches!(next, Some("to" | "of" | "for")) =>
            {
                take(index + 2, true);
            }
            "than" => take(index + 1, true),
            "from"
                if index > 0
                    && matches!(
                        lower[index - 1].as_str(),
                        "switch" | "switching" | "migrate" | "migrating" | "move" | "moving"
                    ) =>
            {
                take(index + 1, true);
            }
            "instead" if next == Some("of") => take(index + 2, true),
            _ => {}
        }
        if matches!(
            word.as_str(),
            "alternative" | "alternatives" | "competitors" | "rivals"
        ) && index > 0
        {
            take(index - 1, false);
        }
    }
    names
}

/// Names in a sentence that talks about competition: every capitalised word that is
/// not the sentence's first word and not a generic word, plus the pattern names.
pub fn names_in_competition_sentence(sentence: &str) -> Vec<String> {
    let lower = sentence.to_lowercase();
    let about_competition = [
        "compet",
        "rival",
        "alternative",
        " vs",
        "versus",
        "compared",
    ]
    .iter()
    .any(|cue| lower.contains(cue));
    if !about_competition {
        return Vec::new();
    }
    let mut names = names_in_patterns(sentence);
    // A name quoted in backticks is taken whole when every word of it is capitalised,
    // acronyms too (`SMA`), which the runs below do not take; a quote with a lowercase
    // word is a product line (`SEO audits`).
    for quoted in sentence.split('`').skip(1).step_by(2) {
        let capitalised = !quoted.trim().is_empty()
            && quoted.split_whitespace().all(|word| {
                word.chars()
                    .next()
                    .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
            });
        if capitalised {
            names.push(quoted.trim().to_owned());
        }
    }
    // A run of capitalised words is one name (`Runners Need`), not two: `Need` alone
    // would be found in every "what do beginners need" prompt.
    let mut run: Vec<&str> = Vec::new();
    for (index, raw) in sentence.split_whitespace().enumerate() {
        let word = strip_punctuation(raw);
        if index > 0 && looks_like_name(word) && !is_generic(&word.to_lowercase()) {
            run.push(word);
            // A name ends at punctuation after it (`Need,` or `` Need` ``).
            if raw.ends_with(|c: char| !c.is_alphanumeric()) {
                names.push(run.join(" "));
                run.clear();
            }
        } else if !run.is_empty() {
            names.push(run.join(" "));
            run.clear();
        }
    }
    if !run.is_empty() {
        names.push(run.join(" "));
    }
    names
}

/// Competitor names of a German or Spanish set: the names its competition sentences
/// quote in backticks (not a product line they are compared on: `` line `O-Ringe` ``)
/// and the rival of each `Alternativen zu X` or `Alternativas a X` topic, normalised,
/// without the brand's own spellings.
pub fn quoted_competitor_names<'t>(
    competitor_topics: impl Iterator<Item = &'t str>,
    competition_sentences: impl Iterator<Item = &'t str>,
    brand_variants: &[String],
) -> Vec<String> {
    let mut raw: Vec<String> = Vec::new();
    for topic in competitor_topics {
        for lead in ["Alternativen zu ", "Alternativas a ", "Alternatives to "] {
            if let Some(rest) = topic.strip_prefix(lead) {
                raw.push(rest.trim().to_owned());
            }
        }
    }
    for text in competition_sentences {
        for sentence in sentences(text) {
            let lower = sentence.to_lowercase();
            if !["compet", "rival", "alternative", "compared"]
                .iter()
                .any(|cue| lower.contains(cue))
            {
                continue;
            }
            let parts: Vec<&str> = sentence.split('`').collect();
            for (index, quoted) in parts.iter().enumerate().skip(1).step_by(2) {
                let before = parts[index - 1].trim_end().to_lowercase();
                let a_line = before.ends_with("line") || before.ends_with("lines");
                let capitalised = quoted.chars().next().is_some_and(char::is_uppercase);
                if !a_line && capitalised {
                    raw.push(quoted.trim().to_owned());
                }
            }
        }
    }
    let mut names = BTreeSet::new();
    for name in raw {
        let normalized = normalize(&name).trim().to_owned();
        if normalized.chars().count() < 2 || brand_variants.contains(&normalized) {
            continue;
        }
        names.insert(normalized);
    }
    names.into_iter().collect()
}

/// The sentences of `text`: split at `;`, line ends and at a `.` that ends a word, not
/// inside a name (`Booking.com`).
fn sentences(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut out = Vec::new();
    for (at, &byte) in bytes.iter().enumerate() {
        let ends = match byte {
            b';' | b'\n' => true,
            b'.' => bytes
                .get(at + 1)
                .is_none_or(|next| next.is_ascii_whitespace()),
            _ => false,
        };
        if ends {
            out.push(&text[start..at]);
            start = at + 1;
        }
    }
    out.push(&text[start..]);
    out.into_iter()
}

/// Whether a topic name is written in title case (most words capitalised), in which case
/// capitalisation says nothing about names and only patterns are trusted.
pub fn is_title_case(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    let capitalised = words
        .iter()
        .filter(|w| w.chars().next().is_some_and(char::is_uppercase))
        .count();
    words.len() >= 2 && capitalised * 3 >= words.len() * 2
}

/// Competitor names from every place a prompt set states them, normalised, without the
/// brand's own spellings, the target markets or generic words.
///
/// Sources: the names of `competitor-alternative` topics (patterns, plus capitalised
/// words when the name is not in title case), sentences of `key_inferences` and
/// `why_this_topic_exists` that talk about competition, and comparison patterns in
/// prompts of the competitor layer (`X vs Y`, `alternatives to X`).
pub fn competitor_names<'t>(
    competitor_topics: impl Iterator<Item = &'t str>,
    competition_sentences: impl Iterator<Item = &'t str>,
    competitor_prompts: impl Iterator<Item = &'t str>,
    brand_variants: &[String],
    markets: &[String],
) -> Vec<String> {
    let mut raw: Vec<String> = Vec::new();
    for topic in competitor_topics {
        raw.extend(names_in_patterns(topic));
        if !is_title_case(topic) {
            for (index, word) in topic.split_whitespace().map(strip_punctuation).enumerate() {
                if (index > 0 || !is_generic(&word.to_lowercase())) && looks_like_name(word) {
                    raw.push(word.to_owned());
                }
            }
        }
    }
    for text in competition_sentences {
        for sentence in sentences(text) {
            raw.extend(names_in_competition_sentence(sentence));
        }
    }
    for prompt in competitor_prompts {
        raw.extend(names_in_patterns(prompt));
    }
    let market_names: Vec<String> = markets
        .iter()
        .map(|m| normalize(m).trim().to_owned())
        .collect();
    let mut names = BTreeSet::new();
    for name in raw {
        let normalized = normalize(&name).trim().to_owned();
        if normalized.chars().count() < 2 || is_generic(&normalized) {
            continue;
        }
        let padded = format!(" {normalized} ");
        if brand_variants.iter().any(|b| {
            b == &normalized || mentions(&padded, b) || mentions(&format!(" {b} "), &normalized)
        }) {
            continue;
        }
        if market_names.iter().any(|m| m == &normalized) {
            continue;
        }
        names.insert(normalized);
    }
    names.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_names_and_possessives_name_rivals() {
        let names = names_in_competition_sentence(
            "competitor-comparison prompts name the brief's competitors: `SMA`, `Fronius`; compared on `hybrid inverters` and `SEO audits`",
        );
        assert!(names.contains(&"SMA".to_owned()), "{names:?}");
        assert!(names.contains(&"Fronius".to_owned()), "{names:?}");
        assert!(!names.contains(&"hybrid inverters".to_owned()), "{names:?}");
        assert!(!names.iter().any(|n| n.contains("audits")), "{names:?}");
        let split: Vec<&str> =
            sentences("`Airbnb`, `Booking.com` are rivals. Next; last").collect();
        assert_eq!(
            split,
            ["`Airbnb`, `Booking.com` are rivals", " Next", " last"]
        );
        assert!(mentions(
            &normalize("What does Thumbtack's guarantee cover?"),
            "thumbtack"
        ));
        assert!(!mentions(
            &normalize("What does Thumbtacker cover?"),
            "thumbtack"
        ));
    }

    #[test]
    fn a_run_of_capitalised_words_is_one_name() {
        let names = names_in_competition_sentence(
            "competitors were typed from their notes: `Runners Need` as retailer, `BarkBox` as subscription",
        );
        assert!(names.contains(&"Runners Need".to_owned()), "{names:?}");
        assert!(names.contains(&"BarkBox".to_owned()), "{names:?}");
        assert!(!names.contains(&"Need".to_owned()), "{names:?}");
    }

    #[test]
    fn word_lists_are_sorted_for_binary_search() {
        for list in [
            STOP_WORDS,
            QUESTION_STARTS,
            REQUEST_STARTS,
            FIRST_PERSON,
            GENERIC_CAPITALISED,
        ] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "unsorted: {list:?}");
        }
    }

    #[test]
    fn normalizes_to_padded_words() {
        assert_eq!(
            normalize("What's the best CRM?  (2025)"),
            " whats the best crm 2025 "
        );
        assert_eq!(normalize("¿Qué CRM?"), " qué crm ");
    }

    #[test]
    fn a_rival_named_with_a_common_word_is_named_only_capitalised() {
        let topics = [
            "Quality and reviews of coworking spaces",
            "Meeting room rental",
        ];
        assert!(is_common_word("spaces", topics));
        assert!(!is_common_word("wework", topics));
        assert!(mentions_capitalised(
            "How does Spaces compare with WeWork?",
            "spaces"
        ));
        assert!(!mentions_capitalised(
            "Which coworking spaces are best for startups?",
            "spaces"
        ));
    }

    #[test]
    fn tokens_ignore_phrasing() {
        let a = content_tokens(&normalize("What is the best CRM for small businesses?"));
        let b = content_tokens(&normalize("Which is the best CRM for a small business?"));
        assert_eq!(a, b);
    }

    #[test]
    fn questions_and_fragments() {
        for q in [
            "What is the best CRM for startups?",
            "Recommend a CRM for a 10-person agency",
            "We are a 20-person agency looking for a CRM",
            "best CRM for startups?",
            "有什么好用的CRM推荐吗",
        ] {
            assert!(is_question_or_request(q, &normalize(q)), "{q}");
        }
        for f in [
            "best crm startups",
            "CRM pricing",
            "crm?",
            "Top 10 CRM tools 2025",
        ] {
            assert!(!is_question_or_request(f, &normalize(f)), "{f}");
        }
    }

    #[test]
    fn brand_spellings() {
        let variants = brand_variants("Acme Analytics Inc.");
        assert!(variants.contains(&"acme analytics".to_owned()));
        assert!(variants.contains(&"acmeanalytics".to_owned()));
        assert!(mentions(
            &normalize("Is Acme Analytics legit?"),
            "acme analytics"
        ));
        assert!(!mentions(
            &normalize("Is Acmeanalyticsx legit?"),
            "acmeanalytics"
        ));
    }

    #[test]
    fn competitor_patterns() {
        let names = names_in_patterns("Is HubSpot better than Zoho CRM for startups?");
        assert_eq!(names, vec!["Zoho".to_owned()]);
        let names = names_in_patterns("Pipedrive vs HubSpot: which is cheaper?");
        assert_eq!(names, vec!["Pipedrive".to_owned(), "HubSpot".to_owned()]);
        let names = names_in_patterns("Best alternatives to monday.com for agencies");
        assert_eq!(names, vec!["monday.com".to_owned()]);
        assert!(has_comparison_cue(&normalize("Acme vs. Globex")));
        assert!(!has_comparison_cue(&normalize("How do I pick a CRM?")));
    }

    #[test]
    fn time_sensitivity() {
        assert!(is_time_sensitive(&normalize("best CRM in 2025")));
        assert!(is_time_sensitive(&normalize("what CRM deals are on today")));
        assert!(!is_time_sensitive(&normalize("CRM for 500 people")));
    }
}
