//! Text helpers of the generator: casing names into running text, finding a name in a
//! prompt, and telling near-duplicate prompts apart.

use std::collections::BTreeSet;

/// Turns a title such as `Trail running shoes` into running text (`trail running
/// shoes`): the first letter is lowered unless the first word looks like a name or an
/// acronym (more capitals inside it) or is one of `keep` (brands, places, channels).
pub fn phrase(title: &str, keep: &[&str]) -> String {
    let title = title.trim();
    let first_word = title.split_whitespace().next().unwrap_or_default();
    let has_inner_capital = first_word.chars().skip(1).any(char::is_uppercase);
    let is_kept = keep.iter().any(|k| {
        let k = k.trim();
        !k.is_empty()
            && title
                .get(..k.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(k))
    });
    // A run of capitalised words is a name ("Making Tax Digital compliance", "Black
    // Friday deals", "Google Ads management"), not a sentence-case title; an acronym
    // after the first word is not (`Bird ID guides`, `School ERPs` read `bird ID guides`).
    // `Sixth Form`, `First Aid Kits`: an ordinal starts a title-cased term, not a name.
    const ORDINALS: &[&str] = &[
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth",
    ];
    let second_capital = !ORDINALS.contains(&first_word.to_lowercase().as_str())
        && title.split_whitespace().nth(1).is_some_and(|w| {
            w.chars().next().is_some_and(char::is_uppercase)
                && !is_acronym(w.trim_end_matches(['s', ',', ':']))
        });
    if has_inner_capital || is_kept || second_capital || is_proper_word(first_word) {
        return title.to_owned();
    }
    // Only the title-cased run the ordinal starts is lowered: `First Aid Kits in London`
    // keeps its place.
    if ORDINALS.contains(&first_word.to_lowercase().as_str()) {
        let mut run = true;
        return title
            .split(' ')
            .map(|w| {
                run = run && w.starts_with(char::is_uppercase);
                if run && !is_acronym(w.trim_end_matches('s')) {
                    w.to_lowercase()
                } else {
                    w.to_owned()
                }
            })
            .collect::<Vec<_>>()
            .join(" ");
    }
    let mut chars = title.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A word written in capitals (`ID`, `ERP`, `AI`).
pub fn is_acronym(word: &str) -> bool {
    word.chars().count() >= 2
        && word
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
}

/// Holidays, months, days and demonyms keep their capital in running text (`gifts for
/// Christmas`, not `gifts for christmas`).
pub(crate) fn is_proper_word(word: &str) -> bool {
    word.chars().next().is_some_and(char::is_uppercase) && is_proper_name(&word.to_lowercase())
}

/// Whether a lower-case word is one of [`is_proper_word`]'s names (`diwali`, `americans`).
pub(crate) fn is_proper_name(lower: &str) -> bool {
    const PROPER: &[&str] = &[
        "christmas",
        "easter",
        "halloween",
        "thanksgiving",
        "hanukkah",
        "diwali",
        "ramadan",
        "eid",
        "passover",
        "valentine's",
        "january",
        "february",
        "march",
        "april",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        // People named by where they are from (`Kiwi families`, `Texan homeowners`);
        // those named after a market already keep their capital through `keep`.
        "kiwi",
        "kiwis",
        "aussie",
        "aussies",
        "american",
        "british",
        "canadian",
        "irish",
        "scottish",
        "welsh",
        "english",
        "european",
        "indian",
        "german",
        "french",
        "spanish",
        "italian",
        "dutch",
        "texan",
        "californian",
        "londoner",
        "londoners",
        "australian",
        "chinese",
        "japanese",
        "korean",
        "mexican",
        "brazilian",
        "swiss",
        "swedish",
        "norwegian",
        "danish",
        "finnish",
        "african",
        "asian",
        "singaporean",
        "nigerian",
        "kenyan",
        "filipino",
        "portuguese",
        "greek",
        "turkish",
        "austrian",
        "belgian",
    ];
    let lower = lower.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'');
    // `Americans`, `Canadians`: the plural of a demonym is one too.
    let singular = lower.strip_suffix('s').unwrap_or(lower);
    PROPER.contains(&lower) || PROPER.contains(&singular)
}

/// A label without its asides in brackets (`Japanese chef knives (gyuto and santoku)` →
/// `Japanese chef knives`, `Defibrillators (AEDs)` → `Defibrillators`): a note to the
/// reader of the brief, never typed into a question.
pub fn without_aside(label: &str) -> std::borrow::Cow<'_, str> {
    if !label.contains('(') {
        return std::borrow::Cow::Borrowed(label);
    }
    let mut out = String::with_capacity(label.len());
    let mut depth = 0usize;
    for c in label.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    let out = out.split_whitespace().collect::<Vec<_>>().join(" ");
    if out.is_empty() {
        std::borrow::Cow::Borrowed(label)
    } else {
        std::borrow::Cow::Owned(out)
    }
}

/// A brief's label as running text reads it: without asides in brackets (see
/// [`without_aside`]) and with `&` written as `and` (`Used & graded vinyl`, `RV & boat
/// parking`), so that labels joined either way are read alike. Names (brands, rivals)
/// never pass through here: `Needle & Groove` keeps its `&`.
pub fn plain_label(label: &str) -> std::borrow::Cow<'_, str> {
    let label = match label.split_once(" / ") {
        Some((first, second)) => match slash_choice(first.trim(), second.trim()) {
            Some(chosen) => std::borrow::Cow::Owned(chosen),
            None => std::borrow::Cow::Borrowed(label),
        },
        None => std::borrow::Cow::Borrowed(label),
    };
    let plain = without_aside(&label).into_owned();
    // `regional/local news publishers`: two words typed as alternatives, said as the first.
    let plain = if plain.contains('/') {
        plain
            .split(' ')
            .map(|word| match word.split_once('/') {
                // `Find/pay an architect`: the first may be capitalised for the label.
                Some((a, b))
                    if !a.is_empty()
                        && !b.is_empty()
                        && word != "and/or"
                        && a.chars().skip(1).all(|c| c.is_lowercase())
                        && a.chars().all(char::is_alphabetic)
                        && b.chars().all(|c| c.is_lowercase()) =>
                {
                    a
                }
                _ => word,
            })
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        plain
    };
    // `Quoting + invoicing`, `PPF + tint`: `+` joins as `&` does.
    if plain.contains(" & ") || plain.contains(" + ") {
        std::borrow::Cow::Owned(plain.replace(" & ", " and ").replace(" + ", " and "))
    } else if plain == label {
        label
    } else {
        std::borrow::Cow::Owned(plain)
    }
}

/// Which side of a label's ` / ` running text says, or `None` to keep both: a label in two
/// languages by its first (`Mortgages / Prêts hypothécaires`), letters by the words
/// they stand for (`PPF / paint protection film`), a label and a word added to it by the
/// label (`Green pool cleanup / algae`, `Locksmith prices / call out fees`), two words as both (`cars / bikes` → `cars and
/// bikes`). Two names (`Docebo / TalentLMS`) stay whole. The readings of issue 8 rejected
/// every prompt that pasted such a label with its slash.
fn slash_choice(first: &str, second: &str) -> Option<String> {
    if second.chars().any(|c| c.is_alphabetic() && !c.is_ascii()) {
        return Some(first.to_owned());
    }
    let (a, b) = (
        first.split_whitespace().count(),
        second.split_whitespace().count(),
    );
    let named = |part: &str| part.starts_with(|c: char| c.is_uppercase());
    if second.contains(" / ") || a == 0 || b == 0 {
        return None;
    }
    if a == 1 && b == 1 {
        // `Docebo / TalentLMS`, `Xero / QuickBooks`: two names.
        if named(second) {
            return None;
        }
        return Some(format!("{first} and {second}"));
    }
    if is_acronym(first) && b >= 2 {
        return Some(second.to_owned());
    }
    // `field service / job management software for trades`: the first shares the
    // second's head (`field service software`).
    let second_core = second.split(" for ").next().unwrap_or(second);
    if let Some(head) = second_core.split_whitespace().last()
        && b >= 2
        && matches!(
            head.to_lowercase().as_str(),
            "software"
                | "app"
                | "apps"
                | "platform"
                | "platforms"
                | "tool"
                | "tools"
                | "system"
                | "systems"
        )
        && !first.to_lowercase().ends_with(&head.to_lowercase())
    {
        return Some(format!("{first} {head}"));
    }
    if is_acronym(second) && a >= 2 {
        return Some(first.to_owned());
    }
    // `Alternatives to Docebo / TalentLMS`: a name on either side of the slash. A lone
    // first word is capitalised for the label (`Boost / Premium listing`).
    if a >= 2 && named(second) && first.split_whitespace().last().is_some_and(named) {
        return None;
    }
    // `boost / Premium listings`: a lone word is a fragment of the other side; else the
    // first says it (`Locksmith prices / call out fees`).
    Some(if a == 1 && b > 1 { second } else { first }.to_owned())
}

/// Upper-cases the first letter, for topic names built from running text.
pub fn title(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Whether `name` occurs in `text`, ignoring case. Latin names must stand as words
/// (`Go` is not found in `good`); names in other scripts match anywhere.
pub fn mentions(text: &str, name: &str) -> bool {
    let name = name.trim();
    if name.is_empty() {
        return false;
    }
    let haystack = text.to_lowercase();
    let needle = name.to_lowercase();
    let is_word_char = |c: char| c.is_alphanumeric() && c.is_ascii();
    let mut from = 0;
    while let Some(found) = haystack[from..].find(&needle) {
        let start = from + found;
        let end = start + needle.len();
        let before = haystack[..start].chars().next_back();
        let after = haystack[end..].chars().next();
        let starts_word = needle.chars().next().is_some_and(is_word_char);
        let ends_word = needle.chars().next_back().is_some_and(is_word_char);
        let left_ok = !starts_word || before.is_none_or(|c| !is_word_char(c));
        let right_ok = !ends_word || after.is_none_or(|c| !is_word_char(c));
        if left_ok && right_ok {
            return true;
        }
        from = start + needle.chars().next().map_or(1, char::len_utf8);
    }
    false
}

/// The comparison tokens of a prompt: lower-case words of latin text, and character
/// bigrams of CJK text (which has no spaces between words).
pub fn tokens(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut word = String::new();
    let mut previous_cjk: Option<char> = None;
    for c in text.chars() {
        if is_cjk(c) {
            if !word.is_empty() {
                out.insert(std::mem::take(&mut word));
            }
            if let Some(p) = previous_cjk {
                out.insert(format!("{p}{c}"));
            } else {
                out.insert(c.to_string());
            }
            previous_cjk = Some(c);
        } else if c.is_alphanumeric() {
            previous_cjk = None;
            word.extend(c.to_lowercase());
        } else {
            previous_cjk = None;
            if !word.is_empty() {
                out.insert(std::mem::take(&mut word));
            }
        }
    }
    if !word.is_empty() {
        out.insert(word);
    }
    out
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF)
}

/// Jaccard similarity of two token sets (1.0 for identical sets).
pub fn similarity(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let shared = a.intersection(b).count();
    let union = a.len() + b.len() - shared;
    shared as f64 / union as f64
}

/// Whether `similarity(a, b) >= threshold`, without intersecting sets whose sizes alone
/// rule it out (the intersection can hold at most the smaller set, the union at least the
/// larger): the generator asks this of every candidate against every prompt taken.
pub fn similar(a: &BTreeSet<String>, b: &BTreeSet<String>, threshold: f64) -> bool {
    let (small, large) = if a.len() <= b.len() {
        (a.len(), b.len())
    } else {
        (b.len(), a.len())
    };
    if large > 0 && (small as f64 / large as f64) < threshold {
        return false;
    }
    similarity(a, b) >= threshold
}

/// A token set as sorted 64-bit hashes (FNV-1a), for [`similar_hashed`]: the generator
/// compares every candidate with every prompt taken, and comparing numbers is several
/// times faster than comparing strings in a `BTreeSet`.
pub fn hashed(set: &BTreeSet<String>) -> Vec<u64> {
    let mut out: Vec<u64> = set.iter().map(|token| hash_token(token)).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// One token's FNV-1a hash.
pub fn hash_token(token: &str) -> u64 {
    token.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The hashes of `set` that `drop` (sorted, from [`hashed`]) does not hold.
pub fn hashed_without(set: &[u64], drop: &[u64]) -> Vec<u64> {
    set.iter()
        .copied()
        .filter(|hash| drop.binary_search(hash).is_err())
        .collect()
}

/// [`similar`] on [`hashed`] sets.
pub fn similar_hashed(a: &[u64], b: &[u64], threshold: f64) -> bool {
    let (small, large) = if a.len() <= b.len() {
        (a.len(), b.len())
    } else {
        (b.len(), a.len())
    };
    if large == 0 {
        return true;
    }
    if (small as f64 / large as f64) < threshold {
        return false;
    }
    crate::lint::similar::jaccard(a, b) >= threshold
}

/// Prompts at least this similar count as near-duplicates and are not both kept.
pub const NEAR_DUPLICATE: f64 = 0.7;

/// Puts `the` before market names that take it in English (`the US`, `the Netherlands`).
pub fn place_name(market: &str) -> String {
    const WITH_THE: &[&str] = &[
        "us",
        "usa",
        "uk",
        "uae",
        "eu",
        "united states",
        "united kingdom",
        "united arab emirates",
        "netherlands",
        "philippines",
        "nordics",
        "middle east",
        "baltics",
        "dach region",
        "benelux",
        "czech republic",
        "gulf states",
        "americas",
        // Regions a keyword names (`hire a chef Algarve`) rather than a market.
        "algarve",
        "alps",
        "balkans",
        "caribbean",
        "cotswolds",
        "hamptons",
        "highlands",
        "lake district",
        "peak district",
        "riviera",
    ];
    let trimmed = market.trim();
    // People type the short forms: `in the US`, not `in the United States`, which
    // the readings of issue 8 rejected as a formal tail.
    let short = match trimmed.to_lowercase().as_str() {
        "united states" | "united states of america" | "usa" => Some("US"),
        "united kingdom" | "great britain" => Some("UK"),
        "united arab emirates" => Some("UAE"),
        _ => None,
    };
    if let Some(short) = short {
        return format!("the {short}");
    }
    if WITH_THE.contains(&trimmed.to_lowercase().as_str()) {
        format!("the {trimmed}")
    } else {
        trimmed.to_owned()
    }
}

/// Picks `a` or `an` for an English noun phrase.
pub fn with_article(noun: &str) -> String {
    format!("{} {noun}", if takes_an(noun) { "an" } else { "a" })
}

/// Whether a phrase starting with this word takes `an`: by its first sound, acronyms
/// letter by letter (`an SEO agency`, `an HR tool`, `a CRM`).
pub fn takes_an(noun: &str) -> bool {
    let lower = noun.trim_start().to_lowercase();
    let first_word = noun.split_whitespace().next().unwrap_or_default();
    if first_word.len() >= 2
        && first_word
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
    {
        return first_word
            .chars()
            .next()
            .is_some_and(|c| "AEFHILMNORSX".contains(c));
    }
    match lower.chars().next() {
        Some('a' | 'e' | 'i' | 'o') => !lower.starts_with("one") && !lower.starts_with("eu"),
        Some('u') => {
            // `a UK school` (typed `uk` before its casing is restored), `a ukulele`.
            !(lower.starts_with("uni")
                || lower.starts_with("use")
                || lower.starts_with("usu")
                || lower.starts_with("uk"))
        }
        Some('h') => lower.starts_with("hour") || lower.starts_with("honest"),
        _ => false,
    }
}

/// Sets each `a`/`an` by the word after it, since a template's article is written before
/// the value that follows it is known (`a {{ p_mod }} project` for `international
/// relocation`). Only a lower-case article or the sentence's first word is touched:
/// `Grade A eggs` names a grade.
pub fn fix_articles(words: &mut [&str]) {
    for i in 0..words.len().saturating_sub(1) {
        let next = words[i + 1];
        let article = matches!(words[i], "a" | "an") || (i == 0 && matches!(words[i], "A" | "An"));
        if !article || !next.starts_with(|c: char| c.is_alphabetic()) {
            continue;
        }
        let an = takes_an(next);
        words[i] = match words[i] {
            "a" if an => "an",
            "an" if !an => "a",
            "A" if i == 0 && an => "An",
            "An" if i == 0 && !an => "A",
            other => other,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashed_similarity_agrees_with_the_sets() {
        let sets: Vec<BTreeSet<String>> = [
            "which payroll software is best for a small charity",
            "which payroll software is best for a small business",
            "how much does payroll software cost",
            "",
            "best",
        ]
        .iter()
        .map(|text| tokens(text))
        .collect();
        for a in &sets {
            for b in &sets {
                for threshold in [0.5, 0.7, 0.85] {
                    assert_eq!(
                        similar(a, b, threshold),
                        similar_hashed(&hashed(a), &hashed(b), threshold),
                        "{a:?} {b:?} {threshold}"
                    );
                }
            }
        }
    }

    #[test]
    fn markets_read_as_places() {
        assert_eq!(place_name("UK"), "the UK");
        assert_eq!(place_name(" Netherlands "), "the Netherlands");
        assert_eq!(place_name("Germany"), "Germany");
    }

    #[test]
    fn articles_follow_the_word_after_them() {
        let mut words: Vec<&str> = "A international move with a HR firm and an tutor, Grade A eggs"
            .split(' ')
            .collect();
        fix_articles(&mut words);
        assert_eq!(
            words.join(" "),
            "An international move with an HR firm and a tutor, Grade A eggs"
        );
    }

    #[test]
    fn phrases_keep_names() {
        assert_eq!(phrase("Trail running shoes", &[]), "trail running shoes");
        assert_eq!(phrase("CRM software", &[]), "CRM software");
        assert_eq!(phrase("Shopify apps", &["Shopify"]), "Shopify apps");
        assert_eq!(phrase("iPhone cases", &[]), "iPhone cases");
        assert_eq!(phrase("Bird ID guides", &[]), "bird ID guides");
        assert_eq!(phrase("School ERPs", &[]), "school ERPs");
        assert_eq!(phrase("Kiwi families", &[]), "Kiwi families");
        assert_eq!(phrase("Sixth Form", &[]), "sixth form");
        assert_eq!(
            phrase("First Aid Kits in London", &[]),
            "first aid kits in London"
        );
        assert_eq!(
            phrase("Google Ads management", &[]),
            "Google Ads management"
        );
        assert_eq!(
            phrase("Making Tax Digital compliance", &[]),
            "Making Tax Digital compliance"
        );
        // Holidays and months are names.
        assert_eq!(phrase("Christmas", &[]), "Christmas");
        assert_eq!(phrase("December gifting", &[]), "December gifting");
        assert_eq!(phrase("Summer holidays", &[]), "summer holidays");
    }

    #[test]
    fn mentions_respects_words() {
        assert!(mentions("Is Acme legit?", "acme"));
        assert!(!mentions("Is it good?", "Go"));
        assert!(mentions("Go vs Rust?", "Go"));
        assert!(mentions("锐跑鞋业怎么样", "锐跑"));
    }

    #[test]
    fn near_duplicates_are_similar() {
        let a = tokens("What are the best trail running shoes in the UK?");
        let b = tokens("What are the best trail running shoes in Germany?");
        let c = tokens("How do I clean suede trail shoes after a muddy run?");
        assert!(similarity(&a, &b) >= NEAR_DUPLICATE);
        assert!(similarity(&a, &c) < NEAR_DUPLICATE);
        let zh_a = tokens("在中国选择跑鞋时要注意什么？");
        let zh_b = tokens("在中国选择跑鞋时需要注意什么？");
        assert!(similarity(&zh_a, &zh_b) >= NEAR_DUPLICATE);
    }

    #[test]
    fn articles() {
        assert_eq!(with_article("analytics tool"), "an analytics tool");
        assert_eq!(with_article("CRM"), "a CRM");
        assert_eq!(with_article("SEO agency"), "an SEO agency");
        assert_eq!(with_article("HR tool"), "an HR tool");
        assert_eq!(
            with_article("user research platform"),
            "a user research platform"
        );
    }

    #[test]
    fn business_model_names_take_the_right_article() {
        assert_eq!(with_article("ecommerce"), "an ecommerce");
        assert_eq!(with_article("other"), "an other");
        assert_eq!(with_article("saas"), "a saas");
        assert_eq!(with_article("services"), "a services");
        assert_eq!(with_article("manufacturer"), "a manufacturer");
        assert_eq!(with_article("marketplace"), "a marketplace");
        assert_eq!(with_article("content-media"), "a content-media");
        assert_eq!(with_article("EU distributor"), "an EU distributor");
        assert_eq!(with_article("European brand"), "a European brand");
        assert_eq!(with_article("hour-long call"), "an hour-long call");
    }
}

/// The capitals a brief writes that templates lose (`ux`, `cnc`, `diwali` after a `lower`
/// filter, issue 8: the readings of session 28 rejected them as grammar): acronyms, and
/// words written with a capital inside a sentence-case field (`for Americans and
/// Canadians`), by their lower-case form.
#[derive(Debug, Default)]
pub struct Casing(std::collections::HashMap<String, String>);

impl Casing {
    /// Reads the casing of every word of `texts` (the brief's fields).
    pub fn of<'a>(texts: impl IntoIterator<Item = &'a str>) -> Casing {
        // Acronyms that are also everyday words (`IT` services, the `US`), which a
        // prompt writes in lower case for the word.
        const WORDS: &[&str] = &[
            "it", "us", "am", "pm", "or", "as", "at", "be", "do", "go", "in", "is", "me", "no",
            "of", "on", "so", "to", "up", "we", "an", "and", "all", "art", "can", "car", "fit",
            "hot", "may", "men", "new", "now", "old", "one", "our", "out", "own", "per", "pet",
            "run", "set", "top", "two", "use", "van", "via", "way", "win", "who", "why", "you",
            "age", "aid", "air", "app", "bar", "big", "box", "bus", "day", "far", "get", "has",
            "how", "its", "key", "let", "low", "man", "mix", "net", "not", "off", "pay", "put",
            "see", "tea", "the", "too", "try", "buy", "cut", "due", "end", "fee", "fix", "gas",
            "job", "kit", "law", "map", "oil", "raw", "sea", "ski", "spa", "tip", "web", "gym",
            "hub", "lab", "pro", "max", "hi", "ok", "vs",
        ];
        let mut cased = std::collections::HashMap::new();
        // Words the brief also writes in lower case are words (`polish`).
        let mut lowered = std::collections::HashSet::new();
        for text in texts {
            let words: Vec<&str> = text.split_whitespace().collect();
            let capitals = words
                .iter()
                .filter(|w| w.chars().next().is_some_and(char::is_uppercase))
                .count();
            // A title-cased field (`Best Carry-On Luggage`) says nothing of its words.
            let title_case = words.len() >= 2 && capitals * 3 >= words.len() * 2;
            for (i, raw) in words.iter().enumerate() {
                let word = raw.trim_matches(|c: char| !c.is_alphanumeric());
                let lower = word.to_lowercase();
                if lower == word {
                    lowered.insert(lower);
                    continue;
                }
                if WORDS.contains(&lower.as_str()) {
                    continue;
                }
                // A sentence's first word (`… teams. These teams`) is capitalised for the
                // sentence, like a field's.
                let starts_sentence = i == 0 || words[i - 1].ends_with(['.', '!', '?', ':', ';']);
                let acronym = is_acronym(word)
                    && word.chars().filter(|c| c.is_ascii_uppercase()).count() >= 2;
                // Only words that are names wherever they stand: holidays, months,
                // demonyms (`Americans`, `Irish`); `History` or `Chef` in a name are not.
                let demonym = ["an", "ans", "ish", "ese"]
                    .iter()
                    .any(|end| lower.ends_with(end))
                    && lower.len() >= 5;
                let proper = !starts_sentence
                    && !title_case
                    && word.chars().next().is_some_and(char::is_uppercase)
                    && word
                        .chars()
                        .skip(1)
                        .all(|c| c.is_lowercase() || c == '-' || c == '\'')
                    && (demonym || is_proper_word(word));
                if acronym || proper {
                    cased
                        .entry(lower)
                        .or_insert_with(|| (word.to_owned(), acronym));
                }
            }
        }
        // Keywords are typed in lower case (`ux course`, `scottish records`): only a
        // proper word the brief also writes as a word (`nail polish`) is dropped, never
        // an acronym or a demonym.
        const ALSO_WORDS: &[&str] = &["polish"];
        Casing(
            cased
                .into_iter()
                .filter(|(lower, (_, acronym))| {
                    *acronym
                        || !lowered.contains(lower)
                        || (is_proper_name(lower) && !ALSO_WORDS.contains(&lower.as_str()))
                })
                .map(|(lower, (word, _))| (lower, word))
                .collect(),
        )
    }

    /// `text` with every all-lower-case word the brief writes with capitals restored, the
    /// holidays and demonyms of [`is_proper_word`] capitalised, and a lone `i` as `I`.
    pub fn restore(&self, text: &str) -> Option<String> {
        let mut out = String::with_capacity(text.len());
        let mut changed = false;
        for (i, piece) in text.split(' ').enumerate() {
            if i > 0 {
                out.push(' ');
            }
            let start = piece
                .find(|c: char| c.is_alphanumeric())
                .unwrap_or(piece.len());
            let end = piece
                .rfind(|c: char| c.is_alphanumeric())
                .map_or(start, |at| {
                    at + piece[at..].chars().next().map_or(1, char::len_utf8)
                });
            let word = &piece[start..end.max(start)];
            // Holidays and demonyms are names wherever a keyword types them (`diwali
            // gifts`), though the brief wrote them only first in a label.
            let capitalised;
            let restored = if word == "i" {
                Some("I")
            } else if !word.is_empty() && word.chars().all(|c| !c.is_uppercase()) {
                match self.0.get(word) {
                    Some(cased) => Some(cased.as_str()),
                    // `march` and `kiwi` (the fruit) are words as often.
                    None if !matches!(word, "march" | "kiwi" | "kiwis") && is_proper_name(word) => {
                        capitalised = title(word);
                        Some(capitalised.as_str())
                    }
                    None => None,
                }
            } else {
                None
            };
            match restored {
                Some(cased) => {
                    changed = true;
                    out.push_str(&piece[..start]);
                    out.push_str(cased);
                    out.push_str(&piece[end.max(start)..]);
                }
                None => out.push_str(piece),
            }
        }
        changed.then_some(out)
    }
}

#[cfg(test)]
mod casing_tests {
    use super::Casing;

    #[test]
    fn asides_are_dropped_from_labels() {
        use super::without_aside;
        assert_eq!(
            without_aside("Japanese chef knives (gyuto and santoku)"),
            "Japanese chef knives"
        );
        assert_eq!(without_aside("Defibrillators (AEDs)"), "Defibrillators");
        assert_eq!(
            without_aside("Tools (for pros) and parts"),
            "Tools and parts"
        );
        assert_eq!(without_aside("(AEDs)"), "(AEDs)");
        assert_eq!(without_aside("Plain label"), "Plain label");
        for (label, plain) in [
            (
                "Used & graded vinyl (sleeves graded)",
                "Used and graded vinyl",
            ),
            ("Mortgages / Prêts hypothécaires", "Mortgages"),
            (
                "Alternatives to Docebo / TalentLMS",
                "Alternatives to Docebo / TalentLMS",
            ),
            ("Green pool cleanup / algae", "Green pool cleanup"),
            (
                "PPF / paint protection film + tint",
                "paint protection film and tint",
            ),
            ("Cars / bikes", "Cars and bikes"),
            (
                "field service / job management software for trades",
                "field service software",
            ),
            ("Boost / Premium listing", "Premium listing"),
            ("regional/local news publishers", "regional news publishers"),
        ] {
            assert_eq!(super::plain_label(label), plain, "{label}");
        }
        assert_eq!(super::plain_label("Xero / QuickBooks"), "Xero / QuickBooks");
    }

    #[test]
    fn capitals_the_brief_writes_come_back() {
        let casing = Casing::of([
            "UX research and design training",
            "ux course with certificate",
            "CNC machining",
            "families in Greater Manchester",
            "Series A startups with a History podcast Chef",
            "For teams. These teams like Polish food and nail polish.",
            "for Americans and Canadians",
            "Irish and Scottish records subscription",
            "scottish records online",
            "IT services",
            "Best Carry-On Luggage",
        ]);
        let restored = |t: &str| casing.restore(t).unwrap_or_else(|| t.to_owned());
        assert_eq!(
            restored("Which ux courses are best?"),
            "Which UX courses are best?"
        );
        assert_eq!(
            restored("How much does cnc machining cost?"),
            "How much does CNC machining cost?"
        );
        assert_eq!(
            restored("Which tours suit americans?"),
            "Which tours suit Americans?"
        );
        assert_eq!(
            restored("What are the best diwali gifts for march?"),
            "What are the best Diwali gifts for march?"
        );
        // A demonym the brief's keywords type in lower case is still a demonym.
        assert_eq!(
            restored("How good is its scottish records subscription?"),
            "How good is its Scottish records subscription?"
        );
        assert_eq!(
            restored("Is it worth it, and can i cancel?"),
            "Is it worth it, and can I cancel?"
        );
        assert_eq!(
            restored("What is the best luggage?"),
            "What is the best luggage?"
        );
        assert_eq!(
            restored("Is it a good chef for history fans?"),
            "Is it a good chef for history fans?"
        );
        assert_eq!(
            restored("Do these plans cover nail polish?"),
            "Do these plans cover nail polish?"
        );
    }
}
