//! Wording for the German (`de`) and Spanish (`es`) banks: places with the article each
//! language needs (`in der Schweiz`, `en los Estados Unidos`), audiences in their short
//! form (`Hausbesitzer` for `Hausbesitzer, die im Bestand … nachrüsten wollen`), labels
//! without their asides, names for the topics the generator infers, and the slot context
//! the banks read.
//!
//! English phrasing (inflection, articles, word lists) is never applied to these
//! languages: a German or Spanish label is typed into a prompt as the brief writes it,
//! only in frames that accept any label (`zum Thema …`, `sobre …`).

use minijinja::Value;

use crate::brief::{Brief, BusinessModel, ChannelKind};
use crate::generate::text;
use crate::generate::topics::TopicPlan;
use crate::model::{Layer, TopicSource, TopicType};

/// Whether `language` is one of the banks this module words.
pub fn is_localized(language: &str) -> bool {
    matches!(language, "de" | "es")
}

/// Whether a brief that names `language` (`de`, `es`) among its languages writes its own
/// words (audiences, lines, topics, category) in English all the same (`languages: [de-DE]`
/// beside `Climbing and bouldering shoes`): German or Spanish frames around English
/// labels read as neither, so such a brief keeps English prompts.
pub fn words_are_english(brief: &Brief, language: &str) -> bool {
    if !is_localized(language) {
        return false;
    }
    let mut texts: Vec<&str> = Vec::new();
    texts.extend(brief.target_customers.iter().map(String::as_str));
    texts.extend(brief.core_product_lines.iter().map(|l| l.name.as_str()));
    texts.extend(brief.priority_topics.iter().map(|t| t.name.as_str()));
    texts.extend(
        brief
            .optional_context
            .get("category")
            .and_then(|v| v.as_str()),
    );
    let joined = texts.join(". ");
    let scores = crate::lint::language::scores(&joined);
    let own = if language == "de" {
        scores.german
    } else {
        scores.spanish
    };
    scores.english >= 2 && scores.english > own
}

/// The language's name, for the key inferences.
pub fn language_name(language: &str) -> Option<&'static str> {
    match language {
        "de" => Some("German"),
        "es" => Some("Spanish"),
        "zh" => Some("Chinese"),
        "en" => Some("English"),
        _ => None,
    }
}

/// A market as a sentence names it: `name` alone (`die Schweiz` is said `Schweiz` in a
/// label) and `locative` with its preposition and article (`in der Schweiz`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// The place's own name in the language.
    pub name: String,
    /// `in der Schweiz`, `en México`; empty for a market that is no place (`global`).
    pub locative: String,
}

/// German names of markets and the article they take after `in`: `(name, locative)`.
const GERMAN_PLACES: &[(&[&str], &str, &str)] = &[
    (
        &["deutschland", "germany", "de", "brd"],
        "Deutschland",
        "in Deutschland",
    ),
    (
        &["österreich", "oesterreich", "austria", "at"],
        "Österreich",
        "in Österreich",
    ),
    (
        &["schweiz", "die schweiz", "switzerland", "ch"],
        "Schweiz",
        "in der Schweiz",
    ),
    (
        &["dach", "dach-region", "dach-raum", "d-a-ch"],
        "DACH-Raum",
        "im DACH-Raum",
    ),
    (
        &[
            "usa",
            "us",
            "vereinigte staaten",
            "united states",
            "united states of america",
        ],
        "USA",
        "in den USA",
    ),
    (
        &["niederlande", "netherlands", "holland"],
        "Niederlande",
        "in den Niederlanden",
    ),
    (&["türkei", "turkey"], "Türkei", "in der Türkei"),
    (
        &["eu", "europäische union", "european union"],
        "EU",
        "in der EU",
    ),
    (&["europa", "europe"], "Europa", "in Europa"),
    (
        &[
            "uk",
            "united kingdom",
            "großbritannien",
            "vereinigtes königreich",
            "great britain",
        ],
        "Großbritannien",
        "in Großbritannien",
    ),
    (&["liechtenstein"], "Liechtenstein", "in Liechtenstein"),
    (&["luxemburg", "luxembourg"], "Luxemburg", "in Luxemburg"),
    (&["südtirol", "south tyrol"], "Südtirol", "in Südtirol"),
    (&["frankreich", "france"], "Frankreich", "in Frankreich"),
    (&["spanien", "spain"], "Spanien", "in Spanien"),
    (&["italien", "italy"], "Italien", "in Italien"),
    (&["polen", "poland"], "Polen", "in Polen"),
];

/// Spanish names of markets and the article they take after `en`.
const SPANISH_PLACES: &[(&[&str], &str, &str)] = &[
    (&["españa", "espana", "spain", "es"], "España", "en España"),
    (&["méxico", "mexico", "mx"], "México", "en México"),
    (
        &[
            "estados unidos",
            "ee. uu.",
            "ee.uu.",
            "eeuu",
            "usa",
            "us",
            "united states",
        ],
        "Estados Unidos",
        "en los Estados Unidos",
    ),
    (&["argentina", "ar"], "Argentina", "en Argentina"),
    (&["colombia", "co"], "Colombia", "en Colombia"),
    (&["chile", "cl"], "Chile", "en Chile"),
    (&["perú", "peru", "pe"], "Perú", "en Perú"),
    (&["uruguay"], "Uruguay", "en Uruguay"),
    (&["ecuador"], "Ecuador", "en Ecuador"),
    (
        &[
            "latinoamérica",
            "latinoamerica",
            "latam",
            "américa latina",
            "latin america",
        ],
        "Latinoamérica",
        "en Latinoamérica",
    ),
    (
        &["reino unido", "uk", "united kingdom"],
        "Reino Unido",
        "en el Reino Unido",
    ),
    (&["alemania", "germany"], "Alemania", "en Alemania"),
    (&["europa", "europe"], "Europa", "en Europa"),
    (
        &["unión europea", "ue", "eu", "european union"],
        "Unión Europea",
        "en la Unión Europea",
    ),
    (
        &["república dominicana", "dominican republic"],
        "República Dominicana",
        "en la República Dominicana",
    ),
    (&["portugal"], "Portugal", "en Portugal"),
];

/// Markets that are no place to be in.
const NOWHERE: &[&str] = &[
    "global",
    "worldwide",
    "weltweit",
    "international",
    "mundial",
    "todo el mundo",
    "online",
];

/// The market `market` as a place in `language`.
pub fn place(market: &str, language: &str) -> Place {
    let name = text::without_aside(market).trim().to_owned();
    let lower = name.to_lowercase();
    if name.is_empty() || NOWHERE.contains(&lower.as_str()) {
        return Place {
            name,
            locative: String::new(),
        };
    }
    let (table, preposition) = match language {
        "es" => (SPANISH_PLACES, "en"),
        _ => (GERMAN_PLACES, "in"),
    };
    match table
        .iter()
        .find(|(names, _, _)| names.contains(&lower.as_str()))
    {
        Some((_, own, locative)) => Place {
            name: (*own).to_owned(),
            locative: (*locative).to_owned(),
        },
        None => Place {
            locative: format!("{} {name}", with_article(&name, preposition, language)),
            name,
        },
    }
}

/// The preposition a place named by what it is takes with its article: `im Landkreis
/// München`, `in der Region Stuttgart`, `en la Comunidad Valenciana`; a place named by
/// its name takes the bare preposition.
fn with_article(name: &str, preposition: &str, language: &str) -> String {
    const GERMAN: &[(&str, &str)] = &[
        ("Landkreis ", "im"),
        ("Kreis ", "im"),
        ("Bezirk ", "im"),
        ("Kanton ", "im"),
        ("Großraum ", "im"),
        ("Raum ", "im"),
        ("Region ", "in der"),
        ("Metropolregion ", "in der"),
        ("Stadt ", "in der"),
    ];
    const SPANISH: &[(&str, &str)] = &[
        ("Comunidad ", "en la"),
        ("Región ", "en la"),
        ("Provincia ", "en la"),
        ("Costa ", "en la"),
        ("Área ", "en el"),
        ("País ", "en el"),
    ];
    let table = if language == "es" { SPANISH } else { GERMAN };
    table
        .iter()
        .find(|(head, _)| name.starts_with(head))
        .map_or_else(|| preposition.to_owned(), |(_, with)| (*with).to_owned())
}

/// Words that open a relative clause, which ends an audience's head (`dueños de bares
/// que …`); German ones follow a comma, which ends the head already.
fn relative_stops(language: &str) -> &'static [&'static str] {
    match language {
        "es" => &[
            " que ",
            " quienes ",
            " cuyo ",
            " cuya ",
            " cuyos ",
            " cuyas ",
            " donde ",
        ],
        _ => &[" welche ", " deren ", " dessen "],
    }
}

/// Prepositions that open a description, cut off a head still long after the relative
/// clause is gone (`Büros mit 10 bis 50 Mitarbeitern` → `Büros`).
fn description_stops(language: &str) -> &'static [&'static str] {
    match language {
        "es" => &[" con ", " sin ", " en ", " por ", " porque "],
        _ => &[
            " mit ", " ohne ", " wegen ", " im ", " in ", " aus ", " bei ", " auf ", " für ",
        ],
    }
}

/// Heads that say nothing alone (`Personas que cocinan …`): their description stays.
const GENERIC_PEOPLE: &[&str] = &[
    "personas", "gente", "clientes", "usuarios", "menschen", "leute", "personen", "kunden",
    "nutzer",
];

/// `phrase` cut before the first of `stops` that leaves a head worth saying.
fn cut_before(phrase: &str, stops: &[&str]) -> String {
    let padded = format!(" {phrase} ");
    let mut cuts: Vec<usize> = stops
        .iter()
        .filter_map(|stop| padded.find(stop))
        .filter(|&at| at > 0)
        .collect();
    cuts.sort_unstable();
    for at in cuts {
        let head = padded[..at].trim();
        if !GENERIC_PEOPLE.contains(&head.to_lowercase().as_str()) {
            return head.to_owned();
        }
    }
    phrase.to_owned()
}

/// An audience description in its short form: the head before a comma, a bracket, a
/// dash or a relative clause (`Hausbesitzer` of `Hausbesitzer, die im Bestand …`); an
/// adjective that opens it is written in lower case for running text (`kleine GmbHs`).
pub fn audience(description: &str, language: &str) -> String {
    let plain = text::without_aside(description);
    let mut head = plain
        .split([',', ';', ':', '–', '—', '/'])
        .next()
        .unwrap_or_default()
        .split(" - ")
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    head = cut_before(&head, relative_stops(language));
    // A head of a few words is kept whole (`Familien mit Kleinkindern`); a longer one is
    // cut before its description.
    if head.split_whitespace().count() > 4 {
        head = cut_before(&head, description_stops(language));
    }
    lower_leading(&head, language)
}

/// The first word in lower case where running text writes it so: a Spanish word that is
/// no acronym or name (`Dueños de bares` → `dueños de bares`), a German adjective before
/// a noun (`Kleine GmbHs` → `kleine GmbHs`); German nouns keep their capitals.
fn lower_leading(phrase: &str, language: &str) -> String {
    let mut words = phrase.split(' ');
    let Some(first) = words.next() else {
        return String::new();
    };
    let rest: Vec<&str> = words.collect();
    let acronym = first.chars().filter(|c| c.is_uppercase()).count() > 1;
    let lower = match language {
        "es" => !acronym,
        _ => {
            // An adjective: a declension ending, followed by a capitalised noun.
            let adjective = ["e", "er", "en", "es"]
                .iter()
                .any(|ending| first.ends_with(ending))
                && first.chars().count() > 3
                && rest
                    .first()
                    .and_then(|w| w.chars().next())
                    .is_some_and(char::is_uppercase)
                && (is_german_adjective(first) || has_adjective_suffix(first));
            adjective && !acronym
        }
    };
    let first = if lower {
        let mut chars = first.chars();
        chars
            .next()
            .map(|c| c.to_lowercase().chain(chars).collect::<String>())
            .unwrap_or_default()
    } else {
        first.to_owned()
    };
    std::iter::once(first.as_str())
        .chain(rest)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Stems of adjectives that open audience and product labels (`Kleine`, `Junge`,
/// `Neue`): a noun that ends like an adjective (`Hausbesitzer`, `Familie`) is not one.
fn is_german_adjective(word: &str) -> bool {
    const STEMS: &[&str] = &[
        "klein",
        "groß",
        "gross",
        "jung",
        "alt",
        "neu",
        "mittler",
        "mittelständisch",
        "lokal",
        "regional",
        "privat",
        "öffentlich",
        "gewerblich",
        "selbstständig",
        "selbständig",
        "berufstätig",
        "erfahren",
        "digital",
        "mobil",
        "modern",
        "international",
        "deutsch",
        "österreichisch",
        "schweizer",
        "preisbewusst",
        "umweltbewusst",
        "anspruchsvoll",
        "sportlich",
        "ambitioniert",
        "technikaffin",
        "vegan",
        "vegetarisch",
        "nachhaltig",
        "wachsend",
        "etabliert",
        "ländlich",
        "städtisch",
        "kommunal",
        "industriell",
        "handwerklich",
        "kreativ",
        "medizinisch",
        "gastronomisch",
        "werdend",
        "allein",
        "hobby",
        "ehrenamtlich",
        "gesundheitsbewusst",
        "qualitätsbewusst",
    ];
    let lower = word.to_lowercase();
    STEMS.iter().any(|stem| {
        lower
            .strip_prefix(stem)
            .is_some_and(|rest| ["e", "er", "en", "es", "em"].contains(&rest))
    })
}

/// A German word built as an adjective or participle before its declension ending
/// (`wasserführende`, `günstige`, `elektrische`, `tragbare`).
fn has_adjective_suffix(word: &str) -> bool {
    const SUFFIXES: &[&str] = &[
        "end", "ig", "lich", "isch", "bar", "los", "haft", "sam", "iert", "frei", "fähig",
    ];
    let lower = word.to_lowercase();
    ["e", "er", "en", "es", "em"].iter().any(|ending| {
        lower.strip_suffix(ending).is_some_and(|stem| {
            stem.chars().count() > 3 && SUFFIXES.iter().any(|s| stem.ends_with(s))
        })
    })
}

/// A label as the object of a verb (`reservar …`, `buchen`): a leading action noun
/// (`reserva de`, `compra de`, `Buchung von`) dropped, as the verb says it already; a
/// Spanish singular count noun takes its indefinite article (`una teleconsulta`).
pub fn object(label: &str, language: &str) -> String {
    const ACTIONS: &[&str] = &[
        "reserva de ",
        "reservas de ",
        "compra de ",
        "compras de ",
        "contratación de ",
        "búsqueda de ",
        "alquiler de ",
        "kauf von ",
        "buchung von ",
        "buchen von ",
        "vermittlung von ",
        "suche nach ",
    ];
    let lower = label.to_lowercase();
    let mut object = label.to_owned();
    for action in ACTIONS {
        if lower.starts_with(action) {
            object = label[action.len()..].to_owned();
            break;
        }
    }
    if language != "es" {
        return object;
    }
    let first = object.split(' ').next().unwrap_or_default();
    // A mass noun (`cosmética natural`, `ropa de bebé`) is bought without an article.
    const MASS: &[&str] = &["cosmética", "ropa", "comida", "fruta", "cerámica", "madera"];
    if first.chars().any(char::is_uppercase) || first.ends_with('s') || MASS.contains(&first) {
        return object;
    }
    const FEMININE: &[&str] = &[
        "clase",
        "sesión",
        "cita",
        "consulta",
        "mesa",
        "habitación",
        "visita",
    ];
    const MASCULINE: &[&str] = &[
        "servicio",
        "curso",
        "viaje",
        "tratamiento",
        "masaje",
        "corte",
        "paseo",
        "taller",
        "reportaje",
        "paquete",
        "pack",
        "plan",
        "sistema",
        "programa",
    ];
    let article = if FEMININE.contains(&first) {
        Some("una")
    } else if MASCULINE.contains(&first) {
        Some("un")
    } else if first.ends_with("ía") || first.ends_with("ia") {
        None
    } else if first.ends_with('a') && first.chars().count() > 3 {
        Some("una")
    } else if first.ends_with('o') && first.chars().count() > 3 {
        Some("un")
    } else {
        None
    };
    match article {
        Some(article) => format!("{article} {object}"),
        None => object,
    }
}

/// A Spanish plural with its definite article (`las clases online`, `los envases de
/// PET`), or `None` for a label that is no plural.
fn definite_plural(label: &str) -> Option<String> {
    const FEMININE: &[&str] = &["clases", "citas", "consultas", "mesas", "visitas", "cremas"];
    let first = label.split(' ').next().unwrap_or_default();
    if !first.ends_with('s') || first.chars().any(char::is_uppercase) {
        return None;
    }
    let feminine = FEMININE.contains(&first) || first.ends_with("as") || first.ends_with("ones");
    Some(format!("{} {label}", if feminine { "las" } else { "los" }))
}

/// Whether a Spanish brief writes for Latin America (`es-MX`, a market such as México),
/// whose words differ from Spain's (`confiables`, `vale la pena`).
fn latin_american(brief: &Brief) -> bool {
    let spain_language = brief
        .languages
        .iter()
        .any(|l| l.eq_ignore_ascii_case("es-ES"));
    let spain = spain_language
        || brief
            .target_markets
            .iter()
            .any(|m| place(m, "es").name == "España");
    let latam_language = brief.languages.iter().any(|l| {
        l.to_lowercase()
            .strip_prefix("es-")
            .is_some_and(|region| region != "es")
    });
    let latam_market = brief.target_markets.iter().any(|m| {
        matches!(
            place(m, "es").name.as_str(),
            "México"
                | "Argentina"
                | "Colombia"
                | "Chile"
                | "Perú"
                | "Uruguay"
                | "Ecuador"
                | "Latinoamérica"
                | "República Dominicana"
        )
    });
    // A Latin American language code wins over a market in Spain: an Argentine set for
    // `Argentinos en el exterior (España, …)` still speaks as Argentina does.
    (latam_language && !spain_language) || (latam_market && !spain)
}

/// Whether a Spanish brief writes for a country that says `vos` (Argentina, Uruguay,
/// Paraguay): its prompts avoid the `tú` forms (`recomiendas`, `¿Me haces…?`), which read
/// as Spain or Mexico there.
fn voseo(brief: &Brief) -> bool {
    brief
        .languages
        .iter()
        .any(|l| matches!(l.to_lowercase().as_str(), "es-ar" | "es-uy" | "es-py"))
}

/// Spain's words and the Latin American ones readers expect instead; the `tú` forms a
/// voseo country reads as foreign, asked in the conditional, which `tú` and `vos` share.
const LATAM_WORDS: &[(&str, &str)] = &[
    ("merece la pena", "vale la pena"),
    ("Merece la pena", "Vale la pena"),
    ("merecen la pena", "valen la pena"),
    ("Merecen la pena", "Valen la pena"),
    ("costes", "costos"),
    ("coste", "costo"),
    ("cualificación", "formación"),
    ("cualificado", "calificado"),
    ("ordenador", "computadora"),
    ("móvil", "celular"),
];
const VOSEO_WORDS: &[(&str, &str)] = &[
    ("recomiendas", "recomendarías"),
    ("Me haces", "Me podrías hacer"),
    ("me haces", "me podrías hacer"),
    ("puedes", "podrías"),
    ("Puedes", "Podrías"),
];

/// `text` in the spelling and words of the brief's region: Swiss German writes `ss` for
/// `ß` (`Grosskunden`, `gross`), and Latin American Spanish says `vale la pena` and
/// `costos` (see [`LATAM_WORDS`]). The templates are written once, in the spelling of
/// Germany and Spain; the region is applied here, to every prompt alike.
pub fn regional(text: &str, brief: &Brief, language: &str) -> String {
    match language {
        "de" if brief
            .languages
            .iter()
            .any(|l| matches!(l.to_lowercase().as_str(), "de-ch" | "de-li")) =>
        {
            text.replace('ß', "ss")
        }
        "es" if latin_american(brief) => {
            let mut out = text.to_owned();
            let words = LATAM_WORDS
                .iter()
                .chain(if voseo(brief) { VOSEO_WORDS } else { &[] });
            for (spain, latam) in words {
                out = replace_word(&out, spain, latam);
            }
            out
        }
        _ => text.to_owned(),
    }
}

/// `text` with every `from` that stands as words (not inside a longer word) replaced.
fn replace_word(text: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(from) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + from.len()..].chars().next();
        let bounded =
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric);
        out.push_str(&rest[..at]);
        out.push_str(if bounded { to } else { from });
        rest = &rest[at + from.len()..];
    }
    out.push_str(rest);
    out
}

/// The trade a German category names with a trade word (`Modelleisenbahn-Fachhandel
/// (online)`, `Kaminofenhersteller`) and the goods it sells (`Modelleisenbahnen`), or
/// `None` for a category that names goods (`Kaminöfen`).
fn trade_goods(category: &str) -> Option<(String, String)> {
    const TRADES: &[&str] = &[
        "fachhandel",
        "versandhandel",
        "onlinehandel",
        "handel",
        "fachhändler",
        "händler",
        "onlineshop",
        "shop",
        "hersteller",
    ];
    let plain = text::without_aside(category);
    let plain = plain.trim();
    let lower = plain.to_lowercase();
    let cut = TRADES
        .iter()
        .find_map(|t| lower.strip_suffix(t).map(|rest| rest.len()))?;
    let trade = plain[..cut].trim_end_matches('-');
    if trade.chars().count() < 4
        || trade.contains(' ')
        || !trade.chars().next().is_some_and(char::is_uppercase)
    {
        return None;
    }
    let lower = trade.to_lowercase();
    let goods = if ["bahn", "ung", "ion", "tür", "uhr"]
        .iter()
        .any(|e| lower.ends_with(e))
    {
        format!("{trade}en")
    } else if lower.ends_with('e') {
        format!("{trade}n")
    } else {
        format!("{trade}-Artikel")
    };
    Some((trade.to_owned(), goods))
}

/// `label` with its trade in front where it lacks it: `Startsets` is
/// `Modelleisenbahn-Startsets`, `Lokomotiven und Wagen` is `Modelleisenbahn-Lokomotiven
/// und -Wagen`. A label that names the trade already (`Modellbahn-Zubehör`) or opens with
/// an adjective is kept.
fn with_trade(label: &str, trade: &str) -> String {
    let stem: String = trade.to_lowercase().chars().take(6).collect();
    if label.to_lowercase().contains(&stem)
        || !label.chars().next().is_some_and(char::is_uppercase)
        || label.contains(' ') && !label.contains(" und ")
    {
        return label.to_owned();
    }
    match label.split_once(" und ") {
        Some((first, second))
            if !first.contains(' ')
                && !second.contains(' ')
                && second.chars().next().is_some_and(char::is_uppercase) =>
        {
            format!("{trade}-{first} und -{second}")
        }
        Some(_) => label.to_owned(),
        None => format!("{trade}-{label}"),
    }
}

/// `label`, a lone Spanish adjective, with the noun of the line's keyword that uses it
/// (`hidráulico` with `baldosa hidraulica` is `baldosa hidráulica`); any other label as
/// it is.
fn with_keyword_noun(label: &str, brief: &Brief, line: &str) -> String {
    let adjective = ["ico", "ica", "ado", "ada", "ivo", "iva"]
        .iter()
        .any(|e| label.ends_with(e));
    if label.contains(' ') || !adjective || label.chars().any(char::is_uppercase) {
        return label.to_owned();
    }
    let plain = |s: &str| {
        s.chars()
            .map(|c| match c {
                'á' => 'a',
                'é' => 'e',
                'í' => 'i',
                'ó' => 'o',
                'ú' => 'u',
                c => c,
            })
            .collect::<String>()
    };
    let stem: String = label.chars().take(label.chars().count() - 1).collect();
    let keywords = brief
        .core_product_lines
        .iter()
        .filter(|l| l.name == line)
        .flat_map(|l| l.priority_keywords.iter());
    for keyword in keywords {
        let words: Vec<&str> = keyword.split_whitespace().collect();
        if let [noun, adjective] = words.as_slice()
            && plain(adjective).starts_with(&plain(&stem))
            && let Some(ending) = adjective.chars().last()
        {
            return format!("{noun} {stem}{ending}");
        }
    }
    label.to_owned()
}

/// Who buys, read from German or Spanish audiences (`Hausbesitzer`, `Ofenbauer`,
/// `pacientes`, `pymes`), as the generator reads English ones: `consumers`,
/// `businesses`, `both`, or empty.
fn own_buyers(brief: &Brief) -> &'static str {
    const PEOPLE: &[&str] = &[
        "hausbesitzer",
        "eigentümer",
        "bauherr",
        "familie",
        "eltern",
        "mieter",
        "privat",
        "verbraucher",
        "haushalt",
        "paare",
        "senioren",
        "studenten",
        "hobby",
        "besitzer",
        "halter",
        "anfänger",
        "liebhaber",
        "genießer",
        "patienten",
        "sparer",
        "reisende",
        "familias",
        "pacientes",
        "padres",
        "mamás",
        "papás",
        "personas",
        "particulares",
        "hogar",
        "estudiantes",
        "dueños de mascota",
        "jubilados",
        "aficionados",
        "amantes",
        "viajeros",
        "parejas",
        "mujeres",
        "hombres",
        "jóvenes",
    ];
    const BUSINESS: &[&str] = &[
        "unternehmen",
        "firmen",
        "gmbh",
        "betrieb",
        "händler",
        "fachhandel",
        "ofenbauer",
        "handwerk",
        "industrie",
        "hersteller",
        "praxen",
        "kanzlei",
        "büros",
        "studios",
        "gastronomie",
        "hotels",
        "einkäufer",
        "konstrukteur",
        "empresas",
        "pymes",
        "negocios",
        "restaurantes",
        "clínicas",
        "consultorios",
        "distribuidores",
        "fabricantes",
        "talleres",
        "despachos",
        "tiendas",
        "hoteles",
        "industria",
        "médicos",
        "compradores",
    ];
    let mut people = false;
    let mut business = false;
    for customer in &brief.target_customers {
        let lower = customer.to_lowercase();
        if BUSINESS.iter().any(|w| lower.contains(w)) {
            business = true;
        } else if PEOPLE.iter().any(|w| lower.contains(w)) {
            people = true;
        }
    }
    match (people, business) {
        (true, false) => "consumers",
        (false, true) => "businesses",
        (true, true) => "both",
        (false, false) => "",
    }
}

/// Whether a label names heating appliances (`Kaminöfen`, `estufas de leña`).
fn is_heating(label: &str) -> bool {
    const STEMS: &[&str] = &[
        "ofen",
        "öfen",
        "kamin",
        "heiz",
        "pellet",
        "wärmepumpe",
        "estufa",
        "chimenea",
        "calefac",
        "caldera",
    ];
    let lower = label.to_lowercase();
    STEMS.iter().any(|s| lower.contains(s))
}

/// A label as running text types it: its aside in brackets dropped, its spaces tidied;
/// a Spanish label in lower case unless it opens with a name or acronym.
pub fn label(label: &str, language: &str) -> String {
    // `Foto + vídeo` is said `foto y vídeo` (`&` alike); `Kaffee Abo / Bohnen im Abo` names one
    // thing twice and is said by its first name (see [`slash_read`]).
    let and = if language == "es" { " y " } else { " und " };
    let plain = without_model_code(&slash_read(&text::without_aside(label), language))
        .replace(" + ", and)
        .replace(" & ", and)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    match language {
        "es" => {
            let first = plain.split(' ').next().unwrap_or_default();
            let later_capital = first.chars().skip(1).any(char::is_uppercase);
            if later_capital {
                plain
            } else {
                lower_leading(&plain, language)
            }
        }
        // `ESG-Software Vergleich` is a search phrase: the thing is `ESG-Software`.
        _ => {
            let thing = [" Vergleich", " vergleich", " Test", " test"]
                .iter()
                .find_map(|w| plain.strip_suffix(w))
                .filter(|rest| !rest.is_empty())
                .unwrap_or(&plain);
            lower_leading(thing, language)
        }
    }
}

/// `p` with the accusative article a countable German service takes (`einen
/// Intensivkurs`, `den Führerschein Klasse B`, `ein Coaching-Paket`); a mass noun or
/// plural (`Steuerberatung`, `Jahresabschlüsse`) stays bare.
fn with_german_article(p: &str) -> String {
    const HEADS: &[(&str, &str)] = &[
        ("führerschein", "den"),
        ("kurs", "einen"),
        ("termin", "einen"),
        ("abo", "ein"),
        ("paket", "ein"),
    ];
    let head = p
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_lowercase();
    HEADS
        .iter()
        .find(|(end, _)| head.ends_with(end))
        .map_or_else(|| p.to_owned(), |(_, article)| format!("{article} {p}"))
}

/// A product line without the maker's model code that ends it (`Holz-Alu-Fenster KB
/// 90`): the code is the brand's own, and a question about the category does not name it.
fn without_model_code(label: &str) -> String {
    let words: Vec<&str> = label.split_whitespace().collect();
    match words.as_slice() {
        [head @ .., code, number]
            if !head.is_empty()
                && (1..=3).contains(&code.chars().count())
                && code.chars().all(|c| c.is_ascii_uppercase())
                && number.chars().all(|c| c.is_ascii_digit()) =>
        {
            head.join(" ")
        }
        _ => label.to_owned(),
    }
}

/// A label written two ways with a slash as running text says it: by its first side
/// (`Digitaltechnik / Decoder-Einbauservice`, `Intensivkurs / Führerschein in 2 Wochen`),
/// save that one word after a longer first is an alternative to its last word
/// (`botellas de vidrio para aceite / vino` → `… para aceite o vino`). Native readers
/// rejected every prompt that pasted the slash.
fn slash_read(label: &str, language: &str) -> String {
    let Some((first, second)) = label.split_once(" / ") else {
        return label.trim().to_owned();
    };
    let (first, second) = (first.trim(), second.trim());
    let or = if language == "es" { "o" } else { "oder" };
    let one_word = second.split_whitespace().count() == 1 && !second.contains('/');
    if one_word
        && first.split_whitespace().count() > 1
        && second.chars().next().is_some_and(char::is_lowercase)
    {
        format!("{first} {or} {second}")
    } else {
        first.to_owned()
    }
}

/// A label or name written two ways with a slash (`Bodas de Cuento / Fotógrafos de Boda
/// España`, `Estilo natural / documental`) by its first, where that first says enough
/// alone (two words and more); a first of one word (`Kosten / Preise`) keeps the whole.
pub fn first_name(label: &str) -> String {
    match label.split_once(" / ") {
        Some((first, _)) if first.split_whitespace().count() > 1 => first.trim().to_owned(),
        _ => label.trim().to_owned(),
    }
}

/// What a topic the brief names asks about, where its name says so: `price`
/// (`Precio fotógrafo de boda`, `Führerschein Kosten München`), `local` (`Fotógrafo de
/// bodas cerca de mí`, `Fensterbauer in der Nähe`), `choose` (`Cómo elegir fotógrafo`,
/// `Gute Fahrschule finden`); empty for any other. The banks ask such a topic's
/// questions only, as the English keyword questions keep a topic on its words.
pub fn focus(topic: &crate::generate::topics::PlannedTopic) -> &'static str {
    if topic.source != TopicSource::Provided
        || topic.rival.is_some()
        || topic.audience.is_some()
        || topic.channel.is_some()
    {
        return "";
    }
    let name = format!(" {} ", topic.name.to_lowercase());
    let has = |words: &[&str]| words.iter().any(|w| name.contains(w));
    if has(&[
        "precio",
        "precios",
        "cuánto cuesta",
        "cuanto cuesta",
        "coste",
        "costo",
        "presupuesto",
        "tarifa",
        "kosten",
        "preis",
        "was kostet",
        "stundenlohn",
    ]) {
        "price"
    } else if has(&[
        "cerca de mí",
        "cerca de mi",
        "in der nähe",
        "vor ort",
        " de confianza en ",
    ]) {
        "local"
    } else if has(&[
        "elegir",
        "escoger",
        "encontrar",
        "buscar ",
        "finden",
        "auswählen",
        " wählen",
        "erkennen",
    ]) {
        "choose"
    } else if has(&[
        " wechseln ",
        " wechsel ",
        "umsteigen",
        "umstieg",
        "cambiar de ",
        "migrar",
    ]) {
        "switch"
    } else if alternatives(&topic.name).len() > 1 {
        "compare"
    } else if has(&[
        "vorschrift",
        "pflicht",
        "gesetz",
        "verordnung",
        "richtlinie",
        "licencia",
        "permiso",
        "normativa",
        " ley ",
        "obligaci",
        "verifactu",
        "ticketbai",
    ]) {
        "rules"
    } else if has(&[
        "pedido mínimo",
        "plazos de entrega",
        "mindestmenge",
        "lieferzeit",
    ]) {
        "lead"
    } else if has(&[" estilo ", " stil "]) {
        "style"
    } else {
        ""
    }
}

/// The things a comparison topic weighs (`Kunststoff vs. Holz vs. Holz-Alu`, `Clases
/// online vs presenciales`); fewer than two for a topic that compares nothing. The aside
/// is dropped: `Depot eröffnen (Neobroker vs. Bank)` is about opening one.
pub fn alternatives(name: &str) -> Vec<String> {
    const CUTS: &[&str] = &[" vs. ", " vs ", " versus ", " frente a "];
    let mut sides = vec![text::without_aside(name).trim().to_owned()];
    for cut in CUTS {
        sides = sides
            .iter()
            .flat_map(|side| {
                let lower = side.to_lowercase();
                if lower.len() != side.len() {
                    return vec![side.clone()];
                }
                let mut parts = Vec::new();
                let mut from = 0;
                for (at, _) in lower.match_indices(cut) {
                    parts.push(side[from..at].trim().to_owned());
                    from = at + cut.len();
                }
                parts.push(side[from..].trim().to_owned());
                parts
            })
            .filter(|s| !s.is_empty())
            .collect();
    }
    sides
}

/// `sides` as running text lists them: `Kunststoff, Holz oder Holz-Alu`.
fn listed(sides: &[String], joiner: &str) -> String {
    match sides.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} {joiner} {last}", rest.join(", ")),
        _ => sides.join(" "),
    }
}

/// The person or firm a trade is bought from, for a services brief: `(singular,
/// plural, feminine, dative plural)`. A services set asks for `un fotógrafo de bodas`,
/// not `un proveedor de fotografía de bodas`; the noun is found in the brief's own words.
const PRACTITIONERS: &[(&str, &str, &str, bool, &str)] = &[
    // (stem searched, singular, plural, feminine, German dative plural)
    ("fotógrafo", "fotógrafo", "fotógrafos", false, ""),
    ("fotografo", "fotógrafo", "fotógrafos", false, ""),
    (
        "empresa de reformas",
        "empresa de reformas",
        "empresas de reformas",
        true,
        "",
    ),
    (
        "reformas",
        "empresa de reformas",
        "empresas de reformas",
        true,
        "",
    ),
    ("abogado", "abogado", "abogados", false, ""),
    ("gestoría", "gestoría", "gestorías", true, ""),
    ("asesoría", "asesoría", "asesorías", true, ""),
    ("fisioterap", "fisioterapeuta", "fisioterapeutas", false, ""),
    // A patient looks for a psychologist, not a `proveedor de terapia`.
    ("psicolog", "psicólogo", "psicólogos", false, ""),
    ("psicólog", "psicólogo", "psicólogos", false, ""),
    ("psicoterap", "psicoterapeuta", "psicoterapeutas", false, ""),
    ("traductor", "traductor", "traductores", false, ""),
    ("autoescuela", "autoescuela", "autoescuelas", true, ""),
    (
        "profesor particular",
        "profesor particular",
        "profesores particulares",
        false,
        "",
    ),
    (
        "steuerberater",
        "Steuerberater",
        "Steuerberater",
        false,
        "Steuerberatern",
    ),
    (
        "steuerberatung",
        "Steuerberater",
        "Steuerberater",
        false,
        "Steuerberatern",
    ),
    ("fotograf", "Fotograf", "Fotografen", false, "Fotografen"),
    (
        "fahrschule",
        "Fahrschule",
        "Fahrschulen",
        true,
        "Fahrschulen",
    ),
    (
        "rechtsanwalt",
        "Rechtsanwalt",
        "Rechtsanwälte",
        false,
        "Rechtsanwälten",
    ),
    ("übersetz", "Übersetzer", "Übersetzer", false, "Übersetzern"),
    (
        "physiotherap",
        "Physiotherapeut",
        "Physiotherapeuten",
        false,
        "Physiotherapeuten",
    ),
    (
        "pflegedienst",
        "Pflegedienst",
        "Pflegedienste",
        false,
        "Pflegediensten",
    ),
];

/// The practitioner of a services (or other) brief in `language`, from its category,
/// topics and product lines, with the trade it is of where a topic names it so
/// (`fotógrafo` found in `Precio fotógrafo de boda` is `fotógrafo de boda`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Practitioner {
    pub one: String,
    pub many: String,
    pub feminine: bool,
    pub many_dative: String,
}

pub fn practitioner(brief: &Brief, language: &str) -> Option<Practitioner> {
    if !matches!(
        brief.business_model,
        BusinessModel::Services | BusinessModel::Other
    ) {
        return None;
    }
    let texts = brief.offer_labels_lower();
    let german = language == "de";
    for (stem, one, many, feminine, dative) in PRACTITIONERS {
        if (german && dative.is_empty()) || (!german && !dative.is_empty()) {
            continue;
        }
        if !texts.iter().any(|t| t.contains(stem)) {
            continue;
        }
        // `fotógrafo de boda(s)`: the trade after the noun, as a topic writes it.
        let trade = (!german)
            .then(|| {
                brief.priority_topics.iter().find_map(|t| {
                    let lower = t.name.to_lowercase();
                    let at = lower.find(one)?;
                    let rest = lower[at + one.len()..].strip_prefix(" de ")?;
                    let word = rest.split_whitespace().next()?;
                    (word.chars().count() > 3).then(|| format!(" de {word}"))
                })
            })
            .flatten()
            .filter(|_| !one.contains(" de "))
            .unwrap_or_default();
        return Some(Practitioner {
            one: format!("{one}{trade}"),
            many: format!("{many}{trade}"),
            feminine: *feminine,
            many_dative: dative.to_string(),
        });
    }
    None
}

/// What a channel the brief names in German or Spanish is, where its words say so
/// (`Technischer Großhandel`, `Eigene Website`, `ferias del sector`); else the kind the
/// generator read.
pub fn channel_kind(name: &str, read: Option<ChannelKind>) -> Option<ChannelKind> {
    let lower = name.to_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    if has(&[
        "großhandel",
        "grosshandel",
        "fachhandel",
        "händler",
        "distributor",
        "distribuidor",
        "mayorista",
    ]) {
        Some(ChannelKind::Distributor)
    } else if has(&["messe", "feria"]) {
        Some(ChannelKind::TradeShow)
    } else if has(&[
        "eigene",
        "eigener",
        "eigenes",
        "propia",
        "propio",
        "nuestra web",
        "nuestro sitio",
    ]) {
        Some(ChannelKind::OwnWebsite)
    } else if has(&["app store", "play store", "google play"]) {
        Some(ChannelKind::AppStore)
    } else {
        read
    }
}

/// Whether a German or Spanish label names goods that are used up (food, drink, care
/// products): no models, materials, warranties or assembly are asked of them.
pub fn is_consumable(label: &str) -> bool {
    const STEMS: &[&str] = &[
        "kaffee",
        "espresso",
        "tee",
        "bohnen",
        "futter",
        "snack",
        "wein",
        "bier",
        "öl",
        "gewürz",
        "kosmetik",
        "creme",
        "pflege",
        "shampoo",
        "seife",
        "kapseln",
        "nahrung",
        "lebensmittel",
        "schokolade",
        "honig",
        "müsli",
        "saft",
        "brot",
        "käse",
        "leckerli",
        "vitamin",
        "café",
        "té ",
        "vino",
        "cerveza",
        "comida",
        "aceite",
        "cosmétic",
        "crema",
        "champú",
        "jabón",
        "alimento",
        "pienso",
        "chocolate",
        "miel",
        "galleta",
        "suplemento",
        "especia",
        "zumo",
        "queso",
        "golosina",
        "premios para",
    ];
    let lower = format!("{} ", label.to_lowercase());
    STEMS.iter().any(|stem| lower.contains(stem))
}

/// Marketplaces and chains that sell every maker's goods, by the first word of their
/// name (`Amazon.de`, `eBay Kleinanzeigen`, `Conrad Electronic`).
const MARKETS_AND_CHAINS: &[&str] = &[
    "amazon",
    "ebay",
    "kleinanzeigen",
    "etsy",
    "aliexpress",
    "temu",
    "conrad",
    "mediamarkt",
    "otto",
    "zalando",
    "galaxus",
    "idealo",
    "mercadolibre",
    "carrefour",
    "fnac",
    "pccomponentes",
];

/// Whether a German or Spanish label names a material or packaging (`azulejos`,
/// `botellas de vidrio`, `Fliesen`): laid or filled once, it has no spare parts, service
/// or running costs to ask about.
pub fn is_material(label: &str) -> bool {
    const STEMS: &[&str] = &[
        "azulejo",
        "baldosa",
        "porcelánic",
        "cerámic",
        "revestimiento",
        "pavimento",
        "hidráulico",
        "envase",
        "botella",
        "tarro",
        "frasco",
        "embalaje",
        "fliese",
        "verpackung",
        "flasche",
        "ziegel",
    ];
    let lower = label.to_lowercase();
    STEMS.iter().any(|stem| lower.contains(stem))
}

/// The subject of a publication's label named by its format: `Geldanlage` of `Ratgeber
/// zur Geldanlage`, `finanzas personales` of `guías de finanzas personales`; a label that
/// is only a format (`Newsletter`) speaks of the `category`.
pub fn subject(label: &str, category: &str) -> String {
    const FORMATS: &[&str] = &[
        "ratgeber",
        "tipps",
        "guide",
        "guides",
        "artikel",
        "newsletter",
        "podcast",
        "podcasts",
        "magazin",
        "blog",
        "videos",
        "kurse",
        "news",
        "guía",
        "guías",
        "consejos",
        "noticias",
        "reseñas",
        "boletín",
        "pódcast",
        "revista",
        "artículos",
        "cursos",
        "vídeos",
    ];
    const LINKS: &[&str] = &[
        "zur ", "zum ", "zu ", "für ", "über ", "rund um ", "de ", "sobre ", "para ", "del ",
    ];
    let trimmed = label.trim();
    let lower = trimmed.to_lowercase();
    if FORMATS.contains(&lower.as_str()) {
        return category.to_owned();
    }
    for format in FORMATS {
        if let Some(rest) = lower.strip_prefix(format).and_then(|r| r.strip_prefix(' ')) {
            for link in LINKS {
                if let Some(subject) = rest.strip_prefix(link) {
                    let at = trimmed.len() - subject.len();
                    return trimmed[at..].to_owned();
                }
            }
        }
    }
    trimmed.to_owned()
}

/// Words that make a German or Spanish prompt a comparison: the lint's, so that the
/// generator's reading and the lint's agree.
pub fn comparison_words(language: &str) -> &'static [&'static str] {
    crate::lint::language::comparison_cues(match language {
        "es" => crate::lint::language::Language::Spanish,
        _ => crate::lint::language::Language::German,
    })
}

/// The category the banks name the offering by: the brief's `category`, else its first
/// product line, else the offering the plan inferred.
pub fn category(brief: &Brief, plan: &TopicPlan, language: &str) -> String {
    brief
        .optional_context
        .get("category")
        .and_then(|v| v.as_str())
        .map(str::to_owned)
        .or_else(|| brief.core_product_lines.first().map(|l| l.name.clone()))
        .map(|c| label(&c, language))
        .unwrap_or_else(|| plan.offer.bare.clone())
}

/// The short form of the brief's `index`th audience: the brief's own `audience_labels`
/// first, else [`audience`].
pub fn audience_of(brief: &Brief, description: &str, language: &str) -> String {
    match brief.audience_labels.get(description.trim()) {
        Some(own) => own.trim().to_owned(),
        None => audience(description, language),
    }
}

/// Names the topics the generator inferred (English patterns such as `Alternatives to
/// Crunch`) in `language`, and says in the key inferences how audiences are shortened.
pub fn localize_names(plan: &mut TopicPlan, brief: &Brief, language: &str) {
    if !is_localized(language) {
        return;
    }
    let category = category(brief, plan, language);
    let de = language == "de";
    let model = brief.business_model;
    // A name given twice would not validate: an inferred topic keeps its own name then.
    let mut taken: Vec<String> = plan.topics.iter().map(|t| t.name.clone()).collect();
    for topic in &mut plan.topics {
        if topic.source != TopicSource::Inferred {
            continue;
        }
        let name = if let Some(rival) = &topic.rival {
            if de {
                format!("Alternativen zu {rival}")
            } else {
                format!("Alternativas a {rival}")
            }
        } else if let Some(index) = topic.audience {
            let who = brief
                .target_customers
                .get(index)
                .map(|d| audience_of(brief, d, language))
                .unwrap_or_default();
            if de {
                format!("{category} für {who}")
            } else {
                format!("{category} para {who}")
            }
        } else if let Some(index) = topic.channel {
            let channel = brief
                .priority_channels
                .get(index)
                .map(|c| c.trim().to_owned())
                .unwrap_or_default();
            let kind = channel_kind(&channel, plan.lexicon.channel_kinds.get(index).copied());
            let way = match (kind, de) {
                (Some(ChannelKind::OwnWebsite | ChannelKind::OwnApp), true) => {
                    "direkt beim Anbieter".to_owned()
                }
                (Some(ChannelKind::OwnWebsite | ChannelKind::OwnApp), false) => {
                    "directamente con el proveedor".to_owned()
                }
                (Some(ChannelKind::Distributor), true) => "über den Fachhandel".to_owned(),
                (Some(ChannelKind::Distributor), false) => "a través de distribuidores".to_owned(),
                (Some(ChannelKind::AppStore), true) => "per App".to_owned(),
                (Some(ChannelKind::AppStore), false) => "por app".to_owned(),
                (Some(ChannelKind::TradeShow), true) => "auf Messen".to_owned(),
                (Some(ChannelKind::TradeShow), false) => "en ferias".to_owned(),
                (_, true) => format!("über {channel}"),
                (_, false) => format!("a través de {channel}"),
            };
            format!("{category} {way}")
        } else if let Some(index) = topic.market {
            let market = brief
                .target_markets
                .get(index)
                .map(|m| place(m, language).locative)
                .unwrap_or_default();
            format!("{category} {market}").trim().to_owned()
        } else {
            match (topic.topic_type, de) {
                (TopicType::CompetitorAlternative, true) => format!("{category} im Vergleich"),
                (TopicType::CompetitorAlternative, false) => format!("Comparativa de {category}"),
                (TopicType::TrustEvaluation, true) => match model {
                    BusinessModel::Saas => format!("Sicherheit und Datenschutz: {category}"),
                    BusinessModel::ContentMedia => format!("Seriöse Quellen: {category}"),
                    BusinessModel::Manufacturer => format!("Zertifizierungen: {category}"),
                    _ => format!("Qualität und Erfahrungen: {category}"),
                },
                (TopicType::TrustEvaluation, false) => match model {
                    BusinessModel::Saas => format!("Seguridad y privacidad: {category}"),
                    BusinessModel::ContentMedia => format!("Fuentes fiables: {category}"),
                    BusinessModel::Manufacturer => format!("Certificaciones: {category}"),
                    _ => format!("Calidad y opiniones: {category}"),
                },
                (TopicType::SeasonalTrend, true) => format!("Saisonale Nachfrage: {category}"),
                (TopicType::SeasonalTrend, false) => format!("Demanda de temporada: {category}"),
                (_, true) => match model {
                    BusinessModel::Saas => format!("Einführung und Integration: {category}"),
                    BusinessModel::Services => format!("Den richtigen Anbieter finden: {category}"),
                    BusinessModel::Marketplace => format!("Online buchen: {category}"),
                    BusinessModel::ContentMedia => format!("Gute Quellen finden: {category}"),
                    _ => format!("Auswahl und Kauf: {category}"),
                },
                (_, false) => match model {
                    BusinessModel::Saas => format!("Implementación e integración: {category}"),
                    BusinessModel::Services => format!("Cómo elegir proveedor: {category}"),
                    BusinessModel::Marketplace => format!("Reservar en línea: {category}"),
                    BusinessModel::ContentMedia => format!("Dónde informarse: {category}"),
                    _ => format!("Cómo elegir y comprar: {category}"),
                },
            }
        };
        let name = capitalised(&name);
        if !taken.contains(&name) {
            taken.push(name.clone());
            topic.name = name;
        }
    }
    // The English short forms of audiences say nothing of these prompts.
    plan.inferences
        .retain(|i| !i.starts_with("prompts name audiences in the short form"));
    let shortened: Vec<String> = brief
        .target_customers
        .iter()
        .filter_map(|d| {
            let short = audience_of(brief, d, language);
            (short != d.trim()).then(|| format!("`{}` as `{short}`", d.trim()))
        })
        .collect();
    if !shortened.is_empty() {
        plan.inferences.push(format!(
            "prompts name audiences in the short form people use: {} (set `audience_labels` to choose the wording)",
            shortened.join(", ")
        ));
    }
}

/// The slot context of a German or Spanish template.
pub(super) fn context(
    values: &super::SlotValues,
    fill: &super::FillContext<'_>,
    layer: Layer,
) -> Value {
    let language = fill.language;
    let brief = fill.brief;
    let category = category(brief, fill.plan, language);
    let p = values
        .product_line
        .as_deref()
        .map(|line| label(line, language))
        .or_else(|| {
            (fill.topic.topic_type == TopicType::ProductCategory)
                .then(|| label(&fill.topic.name, language))
        })
        .unwrap_or_else(|| category.clone());
    // A Spanish line named by its adjective alone (`Hidráulico / decorados`) takes the
    // noun its keywords give it (`baldosa hidraulica`): `fabricantes de baldosa
    // hidráulica`, not `de hidráulico`.
    let p = match values.product_line.as_deref() {
        Some(line) if language == "es" => with_keyword_noun(&p, brief, line),
        _ => p,
    };
    let place = place(&values.market, language);
    let customer = audience_of(brief, &values.audience, language);
    // A rival named in lower case (`gestorías de barrio`) is a plural group, save one
    // with a singular article (`el portal gratuito del SAT`).
    let generic = |name: &str| {
        name.chars().next().is_some_and(char::is_lowercase)
            && !name.starts_with("el ")
            && !name.starts_with("la ")
    };
    let (channel, channel_kind) = match &values.channel {
        Some((name, kind)) => (
            Some(name.clone()),
            channel_kind(name, Some(*kind)).map_or("other", |k| k.as_str()),
        ),
        None => (None, "none"),
    };
    // An inferred topic is named for the topic map (`Qualität und Erfahrungen:
    // Kaffeebohnen`), but its prompts speak of the offering; an audience's topic reads
    // whole (`Steuerberatung für Selbstständige`).
    let topic = if fill.topic.source == TopicSource::Inferred {
        category.clone()
    } else {
        label(&fill.topic.name, language)
    };
    // A publication's line named by its format (`Ratgeber zur Geldanlage`) is about its
    // subject: `zum Thema Geldanlage`.
    let (topic, p) = if brief.business_model == BusinessModel::ContentMedia {
        (subject(&topic, &category), subject(&p, &category))
    } else {
        (topic, p)
    };
    let consumable = offer_kind_is(
        &fill
            .product_vars(&values.product, values.product_line.as_deref())
            .offer_kind,
        "consumable-goods",
    ) || is_consumable(&p)
        || is_consumable(&category);
    let offer_kind = fill
        .product_vars(&values.product, values.product_line.as_deref())
        .offer_kind
        .clone();
    let p_food = is_consumable(&p);
    let material = is_material(&p) || is_material(&category);
    // A shop most of whose named rivals are shops or marketplaces (`Modellbahnshop
    // Lippe`, `Amazon.de`) sells others' brands: it is compared with other shops.
    let shop = brief.business_model == BusinessModel::Ecommerce && {
        let named: Vec<(usize, &str)> = brief
            .competitors
            .iter()
            .enumerate()
            .map(|(i, c)| (i, c.name.trim()))
            // A group (`örtliche Fachhändler`) is no named rival; `eBay` is.
            .filter(|(_, name)| {
                name.split_whitespace()
                    .next()
                    .is_some_and(|w| w.chars().any(char::is_uppercase))
            })
            .collect();
        let shops = named
            .iter()
            .filter(|(i, name)| {
                let lower = name.to_lowercase();
                fill.plan
                    .lexicon
                    .rival_kinds
                    .get(*i)
                    .is_some_and(|k| *k != crate::brief::CompetitorKind::Brand)
                    || [
                        "shop",
                        "versand",
                        "markt",
                        "handel",
                        "händler",
                        "marketplace",
                        "tienda",
                        "store",
                    ]
                    .iter()
                    .any(|w| lower.contains(w))
                    || lower
                        .split([' ', '.'])
                        .next()
                        .is_some_and(|first| MARKETS_AND_CHAINS.contains(&first))
            })
            .count();
        shops * 2 > named.len()
    };
    // A material is bought by the metre or the lot, without an article: `comprar
    // porcelánico gran formato`, not `un porcelánico`.
    let p_obj = if is_material(&p) {
        p.clone()
    } else {
        object(&p, language)
    };
    let buyers = fill
        .plan
        .facts
        .buyers
        .map_or_else(|| own_buyers(brief), |b| b.as_str());
    // Trade questions (samples, volume prices, drawings) only where businesses buy.
    // A maker selling to both (households and the trade) asks the households' questions,
    // save of a line made for the trade (`Kamineinsätze für den Ofenbauer`).
    let for_trade = {
        let lower = p.to_lowercase();
        [
            "für den ",
            "für ofenbauer",
            "handwerk",
            "gewerb",
            "industri",
            "profi",
            "b2b",
            "para profesionales",
            "para el instalador",
            "para empresas",
        ]
        .iter()
        .any(|w| lower.contains(w))
    };
    let b2b = match buyers {
        "consumers" => false,
        "both" => brief.business_model != BusinessModel::Manufacturer || for_trade,
        _ => true,
    };
    let heating = is_heating(&p) || is_heating(&category);
    let latam = language == "es" && latin_american(brief);
    // A topic that is an action (`Kaminofen kaufen`, `buscar especialista`) is asked as
    // one, not pasted after `zum Thema` or `en cuanto a`.
    let topic_verb = match language {
        "es" => topic.split(' ').next().is_some_and(|w| {
            w.chars().count() > 3
                && ["ar", "er", "ir"].iter().any(|e| w.ends_with(e))
                && w.chars().all(char::is_lowercase)
        }),
        _ => {
            let words: Vec<&str> = topic.split(' ').collect();
            words.len() > 1
                && words.last().is_some_and(|w| {
                    w.ends_with("en") && w.chars().next().is_some_and(char::is_lowercase)
                })
        }
    };
    // A rival group is named without `otros`/`andere` (`Alternativas a los fotógrafos de
    // boda…`, not `a otros …`), and a rival written two ways by its first name.
    let rival = |c: &str| {
        let plain = first_name(&text::without_aside(c));
        ["otros ", "otras ", "andere "]
            .iter()
            .find_map(|w| plain.strip_prefix(w))
            .map_or_else(|| plain.clone(), str::to_owned)
    };
    // The practitioner and the ways the banks name one or several of them: `un fotógrafo
    // de boda`, `fotógrafos de boda`, `einen guten Steuerberater`; failing one, the
    // offering itself (`botellas de vidrio`, `Kaminöfen`).
    let pro = practitioner(brief, language);
    // A booking platform's and a publication's topics keep their own frames: their
    // offering is no thing one prices or finds nearby.
    // A booking platform asks its own questions about place and choice.
    let focus = match (brief.business_model, focus(fill.topic)) {
        (BusinessModel::ContentMedia, _) | (BusinessModel::Marketplace, "local" | "choose") => "",
        // The style questions are written in Spanish only (`estilo natural`).
        (_, "style") if language != "es" => "",
        (_, focus) => focus,
    };
    // A topic the brief names about a thing of its own (`Digitale Buchhaltung`,
    // `Envases sostenibles`) is asked about that thing, not about the slot's product
    // line: every prompt filed under it says its words. A topic that names a line
    // (`Mobile Zeiterfassung (App)`), an audience (`… für Handwerker`), a rival,
    // channel or market, or an action keeps the line.
    let own_subject = {
        let t = fill.topic;
        let flat = |s: &str| s.to_lowercase().replace('-', " ");
        let (named, line) = (flat(&topic), flat(&p));
        // A booking platform's frames book the slot's line (`Notdienst buchen`).
        focus.is_empty()
            && !matches!(
                brief.business_model,
                BusinessModel::ContentMedia | BusinessModel::Marketplace
            )
            && t.source == TopicSource::Provided
            && t.rival.is_none()
            && t.audience.is_none()
            && t.audience_phrase.is_none()
            && t.channel.is_none()
            && t.market.is_none()
            && !topic_verb
            && !named.contains(&line)
            && !line.contains(&named)
            && !named.contains(" für ")
            && named.split_whitespace().count() <= 4
            // A process (`Digitalisierung`) or the building goods go into
            // (`Niedrigenergie- und Passivhaus`) is no goods one buys.
            && !(matches!(
                brief.business_model,
                BusinessModel::Ecommerce | BusinessModel::Manufacturer
            ) && [
                "isierung", "ización", "haus", "häuser", "bau", "wohnung", "casa", "vivienda",
            ]
            .iter()
            .any(|e| named.ends_with(e)))
    };
    let (p, p_obj) = if own_subject {
        // `Startsets & Einstieg` is asked about its first thing.
        let and = if language == "es" { " y " } else { " und " };
        let named = topic
            .split_once(and)
            .filter(|(first, _)| !first.ends_with('-'))
            .map_or(topic.as_str(), |(first, _)| first)
            .to_owned();
        let named_obj = object(&named, language);
        (named, named_obj)
    } else {
        (p, p_obj)
    };
    // A topic that asks whether a law applies (`CSRD / VSME / OR 964 – bin ich
    // betroffen?`) is about that law, named in full (`CSRD, VSME oder OR 964`); its
    // prompts ask who must report under it and what helps, and the offering stays the
    // category, not the law (`Anbieter für CSRD` is no trade).
    let law = {
        let name = fill.topic.name.to_lowercase();
        let asks = [
            "betroffen",
            "berichtspflicht",
            "ab wann",
            "afectad",
            "obligad",
        ]
        .iter()
        .any(|w| name.contains(w));
        let rules: Vec<String> = fill
            .topic
            .name
            .split(['–', '?', ':'])
            .next()
            .unwrap_or_default()
            .split('/')
            .map(|r| r.trim().to_owned())
            .filter(|r| !r.is_empty())
            .collect();
        // Each named rule is a code (`CSRD`, `OR 964`), not a word of the trade.
        let codes = !rules.is_empty()
            && rules.iter().all(|r| {
                r.split_whitespace().next().is_some_and(|w| {
                    w.len() >= 2 && w.chars().all(|c| c.is_uppercase() || c.is_ascii_digit())
                })
            });
        if asks && codes {
            let or = if language == "es" { "o" } else { "oder" };
            listed(&rules, or)
        } else {
            String::new()
        }
    };
    let (p, p_obj) = if law.is_empty() {
        (p, p_obj)
    } else {
        let p = label(&category, language);
        let p_obj = object(&p, language);
        (p, p_obj)
    };
    // A German shop's or maker's goods say their trade: `Startsets` and `Digitaltechnik`
    // alone could be any hobby's, so they are `Modelleisenbahn-Startsets`; a category
    // that names the trade (`Modelleisenbahn-Fachhandel`) is no goods one buys, so its
    // prompts ask for the goods (`Modelleisenbahnen`).
    let trade = (language == "de"
        && matches!(
            brief.business_model,
            BusinessModel::Ecommerce | BusinessModel::Manufacturer
        ))
    .then(|| trade_goods(&category))
    .flatten();
    let (p, p_obj, topic) = match &trade {
        Some((trade, goods)) => {
            let p = if p == category {
                goods.clone()
            } else {
                with_trade(&p, trade)
            };
            let topic = if topic == category {
                goods.clone()
            } else {
                topic
            };
            let p_obj = object(&p, language);
            (p, p_obj, topic)
        }
        None => (p, p_obj, topic),
    };
    // A German service sold as one countable thing takes its article after `für`:
    // `für einen Intensivkurs`, `für den Führerschein Klasse B`.
    let p = if language == "de"
        && matches!(
            brief.business_model,
            BusinessModel::Services | BusinessModel::Other
        ) {
        with_german_article(&p)
    } else {
        p
    };
    // The sides of a comparison topic: `Kunststoff, Holz oder Holz-Alu`.
    let sides: Vec<String> = alternatives(&fill.topic.name)
        .iter()
        .map(|side| label(side, language))
        .collect();
    let (or, and) = if language == "es" {
        (" o ", " y ")
    } else {
        (" oder ", " und ")
    };
    // A rule is named by its own name (`Verifactu`), which a Spanish label's lower
    // case would lose.
    let topic = if focus == "rules" {
        ["Verifactu", "TicketBAI"]
            .iter()
            .fold(topic, |t, name| t.replace(&name.to_lowercase(), name))
    } else {
        topic
    };
    let sides_or = listed(&sides, or.trim());
    let sides_and = listed(&sides, and.trim());
    // A psychologist's topics are what brings a patient (`ansiedad y ataques de pánico`)
    // or what pays the sessions (`obras sociales o prepagas`): their prompts ask for a
    // psychologist for that, not for a `proveedor` one `contrata`.
    let therapy = language == "es" && pro.as_ref().is_some_and(|p| p.one.starts_with("psic"));
    let (cover, condition) = if therapy {
        let lower = topic.to_lowercase();
        let named = lower.contains(&p.to_lowercase())
            || ["terapia", "psic", "precio", "cómo elegir"]
                .iter()
                .any(|w| lower.contains(w));
        let plain = focus.is_empty()
            && fill.topic.source == TopicSource::Provided
            && fill.topic.rival.is_none()
            && fill.topic.market.is_none()
            && fill.topic.channel.is_none();
        let cover = [
            "obra social",
            "obras sociales",
            "prepaga",
            "seguro",
            "mutua",
            "aseguradora",
            "cobertura",
            "reintegro",
            "isapre",
        ]
        .iter()
        .any(|w| lower.contains(w));
        match (cover, plain && !named) {
            // `las obras sociales o prepagas`: the cover is named with its article.
            (true, _) => (
                definite_plural(&topic).unwrap_or_else(|| topic.clone()),
                String::new(),
            ),
            (false, true) => (String::new(), topic.clone()),
            _ => (String::new(), String::new()),
        }
    } else {
        (String::new(), String::new())
    };
    // What one changes when switching: `den Steuerberater wechseln`, `cambiar de
    // fotógrafo`.
    let switched = match (&pro, language) {
        (Some(pro), "es") => pro.one.clone(),
        (None, "es") => "proveedor".to_owned(),
        (Some(pro), _) => format!("{} {}", if pro.feminine { "die" } else { "den" }, pro.one),
        (None, _) => "den Anbieter".to_owned(),
    };
    // What a price is asked of: the work a firm does (`una reforma` of `una empresa de
    // reformas`), else the practitioner (`un fotógrafo de boda`).
    let work = match (&pro, language) {
        (Some(pro), "es") => pro.one.strip_prefix("empresa de ").map(|trade| {
            let one = trade.strip_suffix('s').unwrap_or(trade);
            format!("{} {one}", if one.ends_with('a') { "una" } else { "un" })
        }),
        // A plural takes its article: `el precio de las clases particulares`.
        (None, "es") => definite_plural(&p),
        _ => None,
    };
    let (what, whats, einen_guten, einem) = match (&pro, language) {
        (Some(pro), "es") => (
            format!("{} {}", if pro.feminine { "una" } else { "un" }, pro.one),
            pro.many.clone(),
            String::new(),
            String::new(),
        ),
        (Some(pro), _) => (
            format!(
                "{} {}",
                if pro.feminine { "eine" } else { "einen" },
                pro.one
            ),
            pro.many.clone(),
            format!(
                "{} {}",
                if pro.feminine {
                    "eine gute"
                } else {
                    "einen guten"
                },
                pro.one
            ),
            format!(
                "{} {}",
                if pro.feminine { "einer" } else { "einem" },
                pro.one
            ),
        ),
        (None, _) => (p.clone(), p.clone(), format!("gute {p}"), String::new()),
    };
    minijinja::context! {
        lang => language,
        brand => brief.brand_name.trim(),
        model => brief.business_model.as_str(),
        layer => layer.as_str(),
        kind => fill.topic.topic_type.as_str(),
        offer_kind => offer_kind,
        buyers => buyers,
        b2b => b2b,
        heating => heating,
        latam => latam,
        therapy => therapy,
        // `Digitaltechnik`, `Gleismaterial`: one mass, which `hält`, not `halten`.
        p_mass => language == "de" && {
            let lower = p.to_lowercase();
            ["technik", "material", "zubehör", "ausrüstung", "bedarf"]
                .iter()
                .any(|e| lower.ends_with(e))
        },
        law => law,
        cover => cover,
        condition => condition,
        topic_verb => topic_verb,
        p_obj => p_obj,
        category => category,
        topic => topic,
        consumable => consumable,
        p_food => p_food,
        material => material,
        shop => shop,
        topic_is_line => fill.topic.source == TopicSource::DerivedFromProductLine,
        p => p.clone(),
        product => p,
        customer => customer,
        market => place.name,
        place => place.locative.clone(),
        where => if place.locative.is_empty() { String::new() } else { format!(" {}", place.locative) },
        // A Spanish rival named by what it is (`supermercados`) takes its article:
        // `alternativas a los supermercados`.
        competitor => values.competitor.as_deref().map(rival).map(|c| {
            let has_article = ["los ", "las ", "el ", "la "].iter().any(|a| c.starts_with(a));
            if language == "es" && generic(&c) && !has_article {
                // `importaciones`, `ciudades` are feminine as `tiendas` is.
                let plural_feminine = c
                    .split(' ')
                    .next()
                    .is_some_and(|w| ["as", "ones", "dades"].iter().any(|e| w.ends_with(e)));
                format!("{} {c}", if plural_feminine { "las" } else { "los" })
            } else {
                c
            }
        }),
        c_generic => values.competitor.as_deref().is_some_and(generic),
        // A rival that is a channel or a habit (`Google Maps y reseñas`,
        // `Baumarkt-Öfen`), no provider one switches from.
        c_channel => values.competitor.as_deref().is_some_and(|c| {
            let lower = c.to_lowercase();
            [
                "google", "reseñas", "bewertungen", "baumarkt", "foros", "redes sociales",
                "boca a boca", "mundpropaganda", "empfehlung", "recomendaci", "directorio",
                "(portal", "marktplatz", "verzeichnis", "portal gratuito",
            ]
            .iter()
            .any(|w| lower.contains(w))
        }),
        rival2 => values.rival2.as_deref().map(rival),
        channel => channel,
        channel_kind => channel_kind,
        season => fill.season,
        focus => focus,
        own_subject => own_subject,
        sides_or => sides_or,
        sides_and => sides_and,
        switched => switched,
        pro => pro.as_ref().map(|p| p.one.clone()),
        pros => pro.as_ref().map(|p| p.many.clone()),
        pros_dat => pro.as_ref().map(|p| p.many_dative.clone()),
        pro_f => pro.as_ref().is_some_and(|p| p.feminine),
        work => work.unwrap_or_else(|| what.clone()),
        what => what,
        whats => whats,
        einen_guten => einen_guten,
        einem => einem,
    }
}

/// A question with its first letter in upper case, after an opening `¿` too: a rival
/// group that opens a question (`¿los fotógrafos … o Bodas.net?`) is written `¿Los …`.
/// A rival named with its article contracts as Spanish does: `alternativas al portal
/// gratuito del SAT`, not `a el portal` (a name such as `El Corte Inglés` keeps it).
pub fn sentence_case(question: &str) -> String {
    let opener = question.starts_with(['¿', '¡']);
    let (head, rest) = question.split_at(if opener { '¿'.len_utf8() } else { 0 });
    format!("{head}{}", capitalised(rest))
        .replace(" a el ", " al ")
        .replace(" de el ", " del ")
}

/// `name` with its first letter in upper case, as a topic map writes names.
fn capitalised(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn offer_kind_is(value: &Value, kind: &str) -> bool {
    value.as_str() == Some(kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_take_their_articles() {
        assert_eq!(place("Schweiz", "de").locative, "in der Schweiz");
        assert_eq!(place("Germany", "de").locative, "in Deutschland");
        assert_eq!(place("DACH", "de").locative, "im DACH-Raum");
        assert_eq!(place("USA", "de").locative, "in den USA");
        assert_eq!(place("Hamburg", "de").locative, "in Hamburg");
        assert_eq!(
            place("Estados Unidos", "es").locative,
            "en los Estados Unidos"
        );
        assert_eq!(place("Mexico", "es").locative, "en México");
        assert_eq!(place("España", "es").locative, "en España");
        assert_eq!(place("global", "es").locative, "");
        assert_eq!(
            place("Landkreis München", "de").locative,
            "im Landkreis München"
        );
        assert_eq!(
            place("Comunidad Valenciana", "es").locative,
            "en la Comunidad Valenciana"
        );
    }

    #[test]
    fn comparison_topics_list_their_sides() {
        let sides = alternatives("Kunststoff vs. Holz vs. Holz-Alu");
        assert_eq!(listed(&sides, "oder"), "Kunststoff, Holz oder Holz-Alu");
        let sides = alternatives("Clases online vs presenciales");
        assert_eq!(listed(&sides, "y"), "Clases online y presenciales");
        // The aside compares, the topic does not.
        assert_eq!(alternatives("Depot eröffnen (Neobroker vs. Bank)").len(), 1);
    }

    #[test]
    fn labels_read_one_side_and_drop_model_codes() {
        assert_eq!(
            label("Digitaltechnik / Decoder-Einbauservice", "de"),
            "Digitaltechnik"
        );
        assert_eq!(
            label("Botellas de vidrio para aceite / vino", "es"),
            "botellas de vidrio para aceite o vino"
        );
        assert_eq!(label("Holz-Alu-Fenster KB 90", "de"), "Holz-Alu-Fenster");
        assert_eq!(
            label("Führerschein Klasse B", "de"),
            "Führerschein Klasse B"
        );
        assert_eq!(label("Lokomotiven & Wagen", "de"), "Lokomotiven und Wagen");
    }

    #[test]
    fn countable_german_services_take_their_article() {
        assert_eq!(with_german_article("Intensivkurs"), "einen Intensivkurs");
        assert_eq!(
            with_german_article("Führerschein Klasse B"),
            "den Führerschein Klasse B"
        );
        assert_eq!(with_german_article("Jahresabschlüsse"), "Jahresabschlüsse");
        assert_eq!(
            sentence_case("¿Qué alternativas a el portal?"),
            "¿Qué alternativas al portal?"
        );
    }

    #[test]
    fn audiences_keep_their_head() {
        assert_eq!(
            audience(
                "Hausbesitzer, die im Bestand einen Kaminofen nachrüsten wollen und wegen BImSchV und Gaspreisen unsicher sind",
                "de"
            ),
            "Hausbesitzer"
        );
        assert_eq!(
            audience(
                "Kleine GmbHs (bis 20 Mitarbeiter) mit laufender Lohnbuchhaltung",
                "de"
            ),
            "kleine GmbHs"
        );
        assert_eq!(
            audience("Familien mit Kleinkindern", "de"),
            "Familien mit Kleinkindern"
        );
        assert_eq!(
            audience(
                "Dueños de restaurantes pequeños que quieren dejar el papel",
                "es"
            ),
            "dueños de restaurantes pequeños"
        );
    }

    #[test]
    fn objects_lose_their_action_noun_and_take_an_article() {
        assert_eq!(object("reserva de citas médicas", "es"), "citas médicas");
        assert_eq!(object("teleconsulta", "es"), "una teleconsulta");
        assert_eq!(object("clases de inglés", "es"), "clases de inglés");
        assert_eq!(object("fisioterapia", "es"), "fisioterapia");
        assert_eq!(object("Kaminöfen", "de"), "Kaminöfen");
    }

    #[test]
    fn german_adjectives_open_labels_in_lower_case() {
        assert_eq!(
            label("Wasserführende Kaminöfen", "de"),
            "wasserführende Kaminöfen"
        );
        assert_eq!(label("Hausbesitzer", "de"), "Hausbesitzer");
    }

    #[test]
    fn labels_drop_asides() {
        assert_eq!(label("Kaminöfen (Stahl & Speckstein)", "de"), "Kaminöfen");
        assert_eq!(
            label("Vorschriften (BImSchV, Schornsteinfeger)", "de"),
            "Vorschriften"
        );
        assert_eq!(label("Software de reservas", "es"), "software de reservas");
        assert_eq!(label("TPV para bares", "es"), "TPV para bares");
    }

    #[test]
    fn trades_name_their_goods() {
        assert_eq!(
            trade_goods("Modelleisenbahn-Fachhandel (online)"),
            Some(("Modelleisenbahn".to_owned(), "Modelleisenbahnen".to_owned()))
        );
        assert_eq!(trade_goods("Kaminöfen und Pelletöfen (Hersteller)"), None);
        assert_eq!(
            with_trade("Lokomotiven und Wagen", "Modelleisenbahn"),
            "Modelleisenbahn-Lokomotiven und -Wagen"
        );
        assert_eq!(
            with_trade("Modellbahn-Zubehör", "Modelleisenbahn"),
            "Modellbahn-Zubehör"
        );
    }

    #[test]
    fn words_stand_alone_when_replaced() {
        assert_eq!(
            replace_word("¿Qué costes hay?", "coste", "costo"),
            "¿Qué costes hay?"
        );
        assert_eq!(
            replace_word("¿Qué costes hay?", "costes", "costos"),
            "¿Qué costos hay?"
        );
        assert_eq!(label("ESG-Software Vergleich", "de"), "ESG-Software");
    }
}
