//! Which language a prompt is written in, told by its common function words (`der`,
//! `wenn`, `qué`, `cuando`, `the`, `which`), not by its share of ASCII letters: German
//! and Spanish prompts are mostly ASCII, and the English rules misread them (`an` is a
//! German preposition, `a` a Spanish one).

/// A language the lint tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// English: every rule applies.
    English,
    /// German: the English wording rules do not apply.
    German,
    /// Spanish: the English wording rules do not apply.
    Spanish,
    /// Mostly other scripts (Chinese and the like): their own few rules.
    Other,
}

const ENGLISH: &[&str] = &[
    "the", "a", "an", "what", "which", "how", "is", "are", "for", "to", "of", "and", "best", "do",
    "does", "should", "i", "my", "with", "can", "who", "where", "when", "why", "or", "it", "there",
    "any", "most", "than", "you", "get",
];

const GERMAN: &[&str] = &[
    "der", "die", "das", "und", "ist", "sind", "für", "wie", "welche", "welcher", "welches", "was",
    "wenn", "es", "um", "geht", "man", "ich", "mit", "bei", "zum", "zur", "im", "von", "oder",
    "gibt", "sollte", "lohnt", "sich", "kann", "ein", "eine", "einen", "auf", "zu", "wo", "den",
    "dem", "nicht", "beim", "über", "woran", "worauf", "wer", "du", "mir", "mich", "kannst",
    "mein", "meine", "meinen", "wir", "uns", "unsere", "welchen", "welchem", "guter", "gute",
    "auch", "noch", "nach", "wird", "werden", "haben", "hat", "muss", "können", "sollten", "warum",
    "wann", "worin",
];

const SPANISH: &[&str] = &[
    "el", "la", "los", "las", "de", "que", "qué", "y", "es", "son", "para", "cómo", "cuál",
    "cuáles", "en", "por", "se", "un", "una", "con", "hay", "del", "al", "más", "cuando", "trata",
    "sobre", "dónde", "quién", "cuánto", "merece", "pena", "mejor", "o",
];

/// The language of one text.
pub fn detect(text: &str) -> Language {
    let letters = text.chars().filter(|c| c.is_alphabetic()).count();
    let ascii = text.chars().filter(|c| c.is_ascii_alphabetic()).count();
    // The rule the lint always had for English: nine letters in ten are ASCII.
    if letters == 0 || ascii * 10 < letters * 9 {
        return Language::Other;
    }
    let Scores {
        english,
        german,
        spanish,
    } = scores(text);
    if german > english && german >= spanish && german >= 2 {
        Language::German
    } else if spanish > english && spanish > german && spanish >= 2 {
        Language::Spanish
    } else {
        Language::English
    }
}

/// How many marks of each language a text holds: its function words, and the letters
/// only German (`ä`, `ß`) or Spanish (`ñ`, `¿`) writes, which count twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scores {
    /// English function words.
    pub english: usize,
    /// German function words and letters.
    pub german: usize,
    /// Spanish function words and letters.
    pub spanish: usize,
}

/// The [`Scores`] of `text`.
pub fn scores(text: &str) -> Scores {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let score = |list: &[&str]| words.iter().filter(|w| list.contains(w)).count();
    let mut german = score(GERMAN);
    let mut spanish = score(SPANISH);
    if lower.contains(['ä', 'ö', 'ü', 'ß']) {
        german += 2;
    }
    if lower.contains(['¿', '¡', 'ñ']) {
        spanish += 2;
    }
    Scores {
        english: score(ENGLISH),
        german,
        spanish,
    }
}

/// The language most of `texts` are written in (English on a tie or when there are none).
pub fn majority<'t>(texts: impl Iterator<Item = &'t str>) -> Language {
    let mut counts = [0usize; 4];
    for text in texts {
        counts[detect(text) as usize] += 1;
    }
    let best = counts.iter().copied().max().unwrap_or(0);
    [
        Language::English,
        Language::German,
        Language::Spanish,
        Language::Other,
    ]
    .into_iter()
    .find(|language| counts[*language as usize] == best)
    .unwrap_or(Language::English)
}

/// Words that make a German or Spanish prompt a comparison (the English ones are
/// [`super::text::has_comparison_cue`]'s), matched in a normalised text.
pub fn comparison_cues(language: Language) -> &'static [&'static str] {
    match language {
        Language::German => &[
            "alternative",
            "vergleich",
            " vs ",
            " oder ",
            "besser als",
            "günstiger als",
            "teurer als",
            "statt ",
            "anstelle",
            "wechsel",
            "gegenüber",
            "unterschied",
            "konkurrenz",
            "andere ",
            "anderen ",
        ],
        Language::Spanish => &[
            "alternativa",
            "compar",
            " frente a ",
            " vs ",
            " o ",
            "mejor que",
            "peor que",
            "más barat",
            "más car",
            "en lugar de",
            "en vez de",
            "cambiar de",
            "competencia",
            "diferencia",
            "otras ",
            "otros ",
        ],
        Language::English | Language::Other => &[],
    }
}

/// Whether a normalised German or Spanish text compares (see [`comparison_cues`]).
pub fn has_comparison_cue(normalized: &str, language: Language) -> bool {
    comparison_cues(language)
        .iter()
        .any(|cue| normalized.contains(cue))
}

/// Words too common to tell two German or Spanish prompts apart.
pub fn is_stop_word(word: &str, language: Language) -> bool {
    match language {
        Language::German => GERMAN.contains(&word),
        Language::Spanish => SPANISH.contains(&word),
        Language::English | Language::Other => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_are_told_by_their_function_words() {
        assert_eq!(
            detect("Welche Kritik gibt es an Kanzlei Brandt & Vogel?"),
            Language::German
        );
        assert_eq!(
            detect("Wer bietet in Deutschland Festpreise an, wenn es um Jahresabschlüsse geht?"),
            Language::German
        );
        assert_eq!(
            detect("¿Qué alternativas a Agora hay en México?"),
            Language::Spanish
        );
        assert_eq!(
            detect("Which die casting suppliers are best for aluminium parts?"),
            Language::English
        );
        assert_eq!(
            detect("Is a Tesla or an Ionity card better?"),
            Language::English
        );
        assert_eq!(detect("有什么好用的CRM推荐吗"), Language::Other);
    }
}
