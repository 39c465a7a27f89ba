//! English phrasing of the brief's facts: category nouns with the right number and
//! article, markets as places a sentence can stand in, channels by what they are, and
//! audiences in the short form people use.
//!
//! Templates never paste a brief's wording as it stands: `mens shirts` is the plural
//! count noun `men's shirts` (modifier `men's shirt`), `payroll software` a mass noun
//! that takes `is`, `Worldwide` no place at all (the sentence simply drops it), `Trade
//! shows` a place to see products rather than to buy them, and `men aged 25-45 who buy
//! clothing on Amazon` the audience `men`.

use crate::brief::{BusinessModel, ChannelKind, CompetitorKind};

/// Nouns that take no plural (`payroll software is`), as the last word of a phrase.
const MASS: &[&str] = &[
    "accounting",
    "administration",
    "advice",
    "analytics",
    "apparel",
    "art",
    "artwork",
    "automation",
    "beer",
    "bookkeeping",
    "broadband",
    "butter",
    "cabinetry",
    "caffeine",
    "care",
    "carpentry",
    "certification",
    "charging",
    "cheese",
    "childcare",
    "chocolate",
    "clearance",
    "clothing",
    "coffee",
    "collagen",
    "compliance",
    "compost",
    "content",
    "control",
    "creatine",
    "data",
    "decor",
    "dentistry",
    "design",
    "development",
    "education",
    "electricity",
    "energy",
    "equipment",
    "fabrication",
    "fashion",
    "feed",
    "fertiliser",
    "fertilizer",
    "fiber",
    "fibre",
    "finance",
    "firewood",
    "flour",
    "food",
    "freight",
    "fuel",
    "furniture",
    "gear",
    "governance",
    "granola",
    "haircare",
    "healthcare",
    "hire",
    "honey",
    "hosting",
    "installation",
    "insurance",
    "ironmongery",
    "jewellery",
    "jewelry",
    "joinery",
    "juice",
    "legal",
    "lingerie",
    "localisation",
    "localization",
    "logistics",
    "luggage",
    "machinery",
    "magnesium",
    "maintenance",
    "makeup",
    "management",
    "marketing",
    "masonry",
    "media",
    "merchandise",
    "milk",
    "muesli",
    "mulch",
    "news",
    "packaging",
    "pasta",
    "payroll",
    "photography",
    "physio",
    "physiotherapy",
    "placement",
    "pottery",
    "production",
    "protein",
    "recruitment",
    "refrigeration",
    "research",
    "rice",
    "saddlery",
    "salt",
    "seafood",
    "search",
    "security",
    "signage",
    "skincare",
    "soil",
    "soup",
    "stationery",
    "storage",
    "strategy",
    "sugar",
    "support",
    "tack",
    "tea",
    "therapy",
    "tracking",
    "training",
    "transport",
    "travel",
    "tuition",
    "upholstery",
    "videography",
    // Records collectively (`buy vinyl online`), as well as the material.
    "vinyl",
    "waste",
    "water",
    "whey",
    "wine",
    "wool",
    "yarn",
    "yoghurt",
    "yogurt",
];

/// A name as running text writes it: institutions named by what they are take `the`
/// (`the Marine Conservation Society`, `the Royal Horticultural Society`); brands and
/// acronyms do not.
pub fn name_in_text(name: &str) -> String {
    const INSTITUTIONS: &[&str] = &[
        "society",
        "foundation",
        "association",
        "institute",
        "institution",
        "council",
        "federation",
        "conservancy",
        "union",
        "guild",
        "museum",
        "alliance",
        "coalition",
        "commission",
        "authority",
        "academy",
        "observatory",
    ];
    let name = name.trim();
    let last = name.rsplit(' ').next().unwrap_or_default().to_lowercase();
    let first = name.split(' ').next().unwrap_or_default();
    if name.contains(' ')
        && INSTITUTIONS.contains(&last.as_str())
        && !first.eq_ignore_ascii_case("the")
    {
        format!("the {name}")
    } else {
        name.to_owned()
    }
}

/// The modifier of a noun of two plural kinds with both kinds (`hiking guide and gear
/// review`), where [`Noun::modifier`] keeps the first (`hiking guide`).
pub fn joined_modifier(noun: &Noun, keep: &[&str]) -> String {
    match noun.bare.split_once(" and ") {
        Some((first, rest)) if !noun.mass && !rest.contains(" and ") => {
            let (first, rest) = (Noun::parse(first, keep), Noun::parse(rest, keep));
            format!("{} and {}", first.modifier, rest.modifier)
        }
        _ => noun.modifier.clone(),
    }
}

/// `text` with `the` before each of `names` that [`name_in_text`] gives one, where the
/// text does not already have it (`The` at the start of the text).
pub fn articles_for_names(text: &str, names: &[&str]) -> String {
    let mut out = text.to_owned();
    for name in names {
        let with = name_in_text(name);
        if with == name.trim() {
            continue;
        }
        let name = name.trim();
        let mut rebuilt = String::with_capacity(out.len() + 8);
        let mut rest = out.as_str();
        while let Some(at) = rest.find(name) {
            let before = &rest[..at];
            rebuilt.push_str(before);
            let so_far = rebuilt.trim_end();
            let has_the =
                so_far.to_lowercase().ends_with(" the") || so_far.eq_ignore_ascii_case("the");
            if has_the {
                rebuilt.push_str(name);
            } else if rebuilt.is_empty() {
                rebuilt.push_str("The ");
                rebuilt.push_str(name);
            } else {
                rebuilt.push_str("the ");
                rebuilt.push_str(name);
            }
            rest = &rest[at + name.len()..];
        }
        rebuilt.push_str(rest);
        out = rebuilt;
    }
    out
}

/// Nouns used only in the plural for one thing.
const PAIRS: &[&str] = &[
    "glasses",
    "sunglasses",
    "spectacles",
    "goggles",
    "trousers",
    "jeans",
    "shorts",
    "pants",
    "leggings",
    "tights",
    "pyjamas",
    "pajamas",
    "overalls",
    "scissors",
    "pliers",
    "binoculars",
    "headphones",
];

/// Agents of [`AGENTS`] that are places, booked or rented rather than hired.
const PLACES: &[&str] = &[
    "space", "school", "nursery", "gym", "center", "centre", "clinic", "body", "venue", "airline",
    "theatre", "theater", "museum", "gallery", "cinema", "zoo", "park", "resort",
];

/// Heads of noun phrases that name who provides a service (`online accountants`).
const AGENTS: &[&str] = &[
    "accountant",
    "adviser",
    "advisor",
    "agency",
    "agent",
    // `ISO certification bodies`: bodies that certify.
    "body",
    // `plasma donation centers`, `dialysis centres`: places that provide the service.
    "center",
    "centre",
    "airline",
    "architect",
    "arborist",
    "assessor",
    "auctioneer",
    "auditor",
    "babysitter",
    // Banks and credit unions are chosen as providers (`credit unions`).
    "bank",
    "barber",
    "bookkeeper",
    "bricklayer",
    "broker",
    "builder",
    "carer",
    "carpenter",
    "carrier",
    "caterer",
    "charity",
    "chef",
    "chiropractor",
    "cleaner",
    "clinic",
    "coach",
    "company",
    "consultancy",
    "consultant",
    "contractor",
    "cook",
    "counsellor",
    "counselor",
    "courier",
    "dealer",
    "decorator",
    "dentist",
    "designer",
    "developer",
    "director",
    "distributor",
    "doctor",
    "electrician",
    "engineer",
    "estimator",
    "firm",
    "florist",
    "freelancer",
    "gardener",
    "glazier",
    "groomer",
    "gym",
    "hairdresser",
    "handyman",
    "haulier",
    "inspector",
    "installer",
    "instructor",
    "insurer",
    "interpreter",
    "investigator",
    "jeweller",
    "joiner",
    "landscaper",
    "lawyer",
    "lender",
    "locksmith",
    "manufacturer",
    "mechanic",
    "merchant",
    "midwife",
    "mover",
    "nanny",
    "notary",
    "nursery",
    "operator",
    "optician",
    "optometrist",
    "organiser",
    "organizer",
    "osteopath",
    "painter",
    "pharmacist",
    "photographer",
    "physiotherapist",
    "planner",
    "plasterer",
    "plumber",
    "producer",
    "provider",
    "publisher",
    "realtor",
    "recruiter",
    "registrar",
    "removalist",
    "retailer",
    "roofer",
    "school",
    "seller",
    "sitter",
    "solicitor",
    "space",
    "studio",
    "stylist",
    "supplier",
    "surgeon",
    "surveyor",
    "tailor",
    "teacher",
    "technician",
    // `regional producing theatres`, not `… theatre providers`: a venue is chosen itself.
    "park",
    "resort",
    "theatre",
    "theater",
    "museum",
    "gallery",
    "cinema",
    "zoo",
    "venue",
    "therapist",
    "tiler",
    "tradesperson",
    "trainer",
    "translator",
    "tutor",
    "union",
    "valuer",
    "vendor",
    "vet",
    "walker",
    "wholesaler",
];

/// A category or product noun in the forms English sentences need.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Noun {
    /// The bare form a sentence uses without an article: plural for count nouns
    /// (`trail running shoes`), the noun itself for mass nouns (`payroll software`).
    pub bare: String,
    /// The form before another noun (`trail running shoe brands`, `payroll software vendors`).
    pub modifier: String,
    /// The singular with its article (`a hydration vest`), for count nouns only.
    pub one: Option<String>,
    /// Whether it is a mass noun (takes `is`, `does`, `it`).
    pub mass: bool,
}

impl Noun {
    /// Reads a label from the brief (`Trail running shoes`, `mens shirts`, `Payroll
    /// software`, `Weekly investing newsletter`) as a noun; `keep` holds names whose
    /// capitals stay.
    pub fn parse(label: &str, keep: &[&str]) -> Noun {
        let text = fix_possessives(&crate::generate::text::phrase(label, keep));
        // Scripts without plurals (Chinese) are used as written.
        if !text.is_ascii() && text.chars().any(|c| c as u32 >= 0x2E80) {
            return Noun {
                bare: text.clone(),
                modifier: text,
                one: None,
                mass: true,
            };
        }
        // The head is the last word before a post-modifier (`executive search for
        // engineering leaders` is headed by `search`).
        let (head_part, tail) = split_post_modifier(&text);
        // Two kinds joined (`hiking guides and gear reviews`, `bedding and bath linens`):
        // plural together; each kind singular before a noun (`hiking guide and gear
        // review sites`); one of them is the first kind (`a hiking guide`), since `a
        // hiking guide and gear review` is not one thing. Joined in the singular
        // (`managed detection and response`, `pet sitting and dog walking`), they name one
        // service, used like a mass noun: never `a managed detection`.
        if let Some((first, rest)) = head_part.split_once(" and ")
            && !first.is_empty()
            && !rest.is_empty()
        {
            let last_of = |phrase: &str| phrase.rsplit(' ').next().unwrap_or(phrase).to_lowercase();
            if !is_plural(&last_of(rest)) {
                return Noun {
                    bare: text.clone(),
                    modifier: head_part.to_owned(),
                    one: None,
                    mass: true,
                };
            }
            // `managed detection and response providers`: two modifiers of one head,
            // read as one noun below.
            let first_last = last_of(first);
            if is_plural(&first_last) || is_mass(&first_last) {
                // Before another noun the first kind stands for both: `bedding brands`,
                // `property news sites`; the strict readings of issue 8 rejected `bedding
                // and bath linen brands` and `property news and review sites` as labels.
                let first = Noun::parse(first, keep);
                return Noun {
                    bare: text.clone(),
                    modifier: format!("{}{tail}", first.modifier),
                    one: first.one,
                    mass: false,
                };
            }
        }
        let words: Vec<&str> = head_part.split_whitespace().collect();
        let Some(last) = words.last() else {
            return Noun {
                bare: text.clone(),
                modifier: text,
                one: None,
                mass: true,
            };
        };
        let lower = last.to_lowercase();
        let stem = &words[..words.len() - 1];
        let join = |head: &str| {
            let mut parts: Vec<&str> = stem.to_vec();
            parts.push(head);
            format!("{}{tail}", parts.join(" "))
        };
        if is_mass(&lower) {
            return Noun {
                bare: text.clone(),
                modifier: head_part.to_owned(),
                one: None,
                mass: true,
            };
        }
        // Plural-only nouns (`prescription glasses`, `jeans`): one is `a pair of` them,
        // never `a good prescription glass`.
        if PAIRS.contains(&lower.as_str()) {
            return Noun {
                bare: text.clone(),
                modifier: head_part.to_owned(),
                one: Some(format!("a pair of {text}")),
                mass: false,
            };
        }
        // `luxury goods`: one of them is an item, and they stay `goods` before a noun.
        if lower == "goods" {
            return Noun {
                bare: text.clone(),
                modifier: head_part.to_owned(),
                one: Some(crate::generate::text::with_article(&join("item"))),
                mass: false,
            };
        }
        if is_plural(&lower) {
            let singular = singular(last);
            let mut parts: Vec<&str> = stem.to_vec();
            parts.push(&singular);
            // A French name keeps its tail before a noun (`eau de parfum brands`).
            let modifier = if tail.starts_with(" de ") {
                format!("{}{tail}", parts.join(" "))
            } else {
                parts.join(" ")
            };
            return Noun {
                bare: text.clone(),
                one: Some(crate::generate::text::with_article(&join(&singular))),
                modifier,
                mass: false,
            };
        }
        Noun {
            bare: join(&plural(last)),
            modifier: head_part.to_owned(),
            one: Some(crate::generate::text::with_article(&text)),
            mass: false,
        }
    }

    /// A plural for slots that need one (`Which … make good gifts`, `the best-reviewed
    /// … on Amazon`): the bare form of a count noun, and for a mass noun the kinds it
    /// comes in (`specialty coffee brands`, `payroll software tools`, `tax advice
    /// providers`), since `the best-reviewed specialty coffee are` is not English.
    pub fn many(&self) -> String {
        if !self.mass {
            return self.bare.clone();
        }
        let kinds = match self.head().as_str() {
            "software" | "analytics" | "hosting" | "security" | "storage" | "data" | "hardware" => {
                "tools"
            }
            "content" | "media" | "news" => "sources",
            "accounting" | "administration" | "advice" | "bookkeeping" | "care" | "charging"
            | "finance" | "insurance" | "maintenance" | "marketing" | "payroll" | "placement"
            | "recruitment" | "research" | "search" | "strategy" | "support" | "certification"
            | "fabrication" | "inspection" | "installation" | "production" | "translation"
            | "machining" | "manufacturing" => "providers",
            _ => "brands",
        };
        format!("{} {kinds}", self.modifier)
    }

    /// `is` or `are`, agreeing with [`Noun::bare`].
    pub fn be(&self) -> &'static str {
        if self.mass { "is" } else { "are" }
    }

    /// `does` or `do`.
    pub fn does(&self) -> &'static str {
        if self.mass { "does" } else { "do" }
    }

    /// `has` or `have`.
    pub fn has(&self) -> &'static str {
        if self.mass { "has" } else { "have" }
    }

    /// `it` or `them`.
    pub fn them(&self) -> &'static str {
        if self.mass { "it" } else { "them" }
    }

    /// The head word in the singular (`shoe`, `software`, `accountant`).
    pub fn head(&self) -> String {
        self.modifier
            .split_whitespace()
            .last()
            .unwrap_or_default()
            .to_lowercase()
    }

    /// Whether the noun names who provides a service (`accountants`, `SEO agencies`).
    pub fn is_agent(&self) -> bool {
        AGENTS.contains(&self.head().as_str())
    }

    /// Whether the noun names people one hires (`freelance developers`, `plumbers`,
    /// `design agencies`), not a place that provides (`storage spaces`, `gyms`).
    pub fn is_people(&self) -> bool {
        self.is_agent() && !PLACES.contains(&singular(&self.head()).as_str())
    }
}

/// The kinds a label joined by `and` names, each a label of its own; one when the label
/// joins a standard to what it governs (`NIS2 and compliance`); nothing when the label
/// names one thing (`managed detection and response`) or the reading is unsure.
/// Readers reject a joined label pasted into a question (`What should I look for in
/// vehicle and outdoor first aid kits?`); one kind at a time reads as people ask.
///
/// - two things in the plural: `Knitting needles and crochet hooks`, `Soft tops and
///   beginner boards`; a word that needs the first kind's subject takes it (`First aid
///   refills and consumables` → `first aid consumables`, `Laptops and accessories` →
///   `laptop accessories`);
/// - kinds of one head: `Vehicle and outdoor first aid kits` → `Vehicle first aid kits`,
///   `outdoor first aid kits`; `ISO 14001 and ISO 45001 certification`, `Diwali and
///   corporate gifting`, `Beginner knitting and crochet kits`;
/// - a material or activity beside a thing, each whole: `Yarn and knitting supplies`,
///   `Prototyping and low-volume production`, `Pet sitting and dog walking`.
pub fn kinds(label: &str) -> Vec<String> {
    /// Words that name a part of the first kind's field, not a thing of their own.
    const DEPENDENT: &[&str] = &[
        "accessories",
        "add-ons",
        "care",
        "certification",
        "certifications",
        "compliance",
        "consumables",
        "extras",
        "fees",
        "furnishings",
        "installation",
        "maintenance",
        "parts",
        "prices",
        "rates",
        "ratings",
        "refills",
        "repairs",
        "reviews",
        "servicing",
        "spares",
        "supplies",
        "upgrades",
    ];
    const NOT_KINDS: &[&str] = &[
        "the", "a", "an", "other", "more", "related", "similar", "all", "any", "much", "so",
    ];
    let label = label.trim();
    let (head, tail) = split_post_modifier(label);
    let Some((first, rest)) = head.split_once(" and ") else {
        return Vec::new();
    };
    let first_words: Vec<&str> = first.split_whitespace().collect();
    let rest_words: Vec<&str> = rest.split_whitespace().collect();
    let (Some(first_last), Some(rest_first), Some(rest_last)) =
        (first_words.last(), rest_words.first(), rest_words.last())
    else {
        return Vec::new();
    };
    // `Buying bedding and bath linens direct`: an action on two things is one topic.
    let action = first_words.len() > 1 && is_activity_phrase(&label.to_lowercase());
    // `Pros and cons of heat pumps` names one comparison, not two things.
    const PAIRS: &[(&str, &str)] = &[
        ("pros", "cons"),
        ("dos", "don'ts"),
        ("dos", "donts"),
        ("ins", "outs"),
        ("ups", "downs"),
    ];
    let pair = (first.to_lowercase(), rest_first.to_lowercase());
    if action
        || rest.contains(" and ")
        || first.contains(',')
        || rest.contains(',')
        || NOT_KINDS.contains(&pair.1.as_str())
        || PAIRS.iter().any(|(a, b)| pair.0 == *a && pair.1 == *b)
    {
        return Vec::new();
    }
    // `LPs` is told a plural by its capitals, before they are lowered.
    let acronym_plurals = (is_plural(first_last), is_plural(rest_last));
    let first_last = first_last.to_lowercase();
    let rest_last = rest_last.to_lowercase();
    let with_tail = |kind: String| format!("{kind}{tail}");
    // A word that can only be a modifier: a holiday, a standard's number, an acronym,
    // an adjective.
    let modifier_only = |word: &str| {
        let lower = word.to_lowercase();
        crate::generate::text::is_proper_word(word)
            || crate::generate::text::is_acronym(word)
            || word.chars().any(|c| c.is_ascii_digit())
            || ["al", "ic", "ous", "ive", "ful", "less", "'s", "s'"]
                .iter()
                .any(|end| lower.ends_with(end))
            || [
                "indoor",
                "outdoor",
                "front",
                "rear",
                "mens",
                "womens",
                "kids",
                "boys",
                "girls",
                "sales",
                "arts",
                "new",
                "used",
                "small",
                "large",
                "underbench",
                "undercounter",
                "countertop",
                "built-in",
                "freestanding",
                "portable",
                "wireless",
            ]
            .contains(&lower.as_str())
    };
    // A plural that is a modifier (`Men's and women's`, `Sales and marketing software`)
    // names no things of its own.
    let first_plural = (is_plural(&first_last) || acronym_plurals.0)
        && !(first_words.len() == 1 && modifier_only(first));
    if rest_words.len() == 1 {
        // A word that needs a subject takes the first kind's (`Wine ratings and reviews`
        // → `wine reviews`, `Laptops and accessories` → `laptop accessories`); a plural
        // of its own stands alone (`Plant pots and planters` → `planters`).
        let dependent = DEPENDENT.contains(&rest_last.as_str());
        if !(first_plural || is_mass(&first_last)) {
            // `NIS2 and compliance`: one kind, the standard's compliance.
            if dependent && first_words.len() == 1 && modifier_only(first) {
                return vec![with_tail(format!("{first} {rest}"))];
            }
            return Vec::new();
        }
        // `Reviews and ratings`, `Prices and fees`: the first is no subject for the second.
        let attribute = first_words.len() == 1
            && ["price", "cost", "review", "rating", "fee"]
                .contains(&singular(&first_last).as_str());
        if dependent && attribute {
            return if is_plural(&rest_last) {
                vec![with_tail(first.to_owned()), with_tail(rest.to_owned())]
            } else {
                Vec::new()
            };
        }
        if dependent {
            let subject = match first_words.split_last() {
                Some((_, stem)) if !stem.is_empty() => stem.join(" "),
                _ => singular(first),
            };
            return vec![
                with_tail(first.to_owned()),
                with_tail(format!("{subject} {rest}")),
            ];
        }
        if !first_plural || !(is_plural(&rest_last) || acronym_plurals.1) {
            return Vec::new();
        }
        // `Commercial fridges and freezers`, `Underbench fridges and freezers`: a modifier
        // stays with both, as does a material (`New vinyl LPs and reissues` → `new vinyl
        // reissues`); a noun does not (`Board games and puzzles`, `Plant pots and
        // planters`).
        let second = match first_words.split_last() {
            Some((_, stem))
                if !stem.is_empty()
                    && stem
                        .iter()
                        .all(|w| modifier_only(w) || MASS.contains(&w.to_lowercase().as_str())) =>
            {
                format!("{} {rest}", stem.join(" "))
            }
            _ => rest.to_owned(),
        };
        return vec![with_tail(first.to_owned()), with_tail(second)];
    }
    // Two phrases: whole things when the first is plural, a material beside supplies of
    // its own or another material (`Yarn and knitting supplies`, `Wool and merino yarn`;
    // but `Salt and pepper grinders` share), a thing in -ing beside things (`Bedding and
    // bath linens`; but `Wedding and event photography` share), or an activity beside
    // another (`Pet sitting and dog walking`); otherwise the first is a modifier that
    // shares the second's head. A gerund shares a counted head (`Knitting and crochet
    // kits`, `Cleaning and pest control services`).
    let ing = first_last.ends_with("ing");
    let rest_plural = is_plural(&rest_last);
    let first_whole = first_plural
        || (first_words.len() == 1
            && if ing {
                // `accounting and payroll services` and `Banking and SSC exams` share
                // their head; only goods named in -ing stand whole (`Bedding and bath
                // linens`).
                ING_GOODS.contains(&first_last.as_str()) && rest_plural
            } else {
                MASS.contains(&first_last.as_str())
                    && (is_mass(&rest_last) || DEPENDENT.contains(&rest_last.as_str()))
            })
        // An activity beside another thing (`production`, `shared inbox`), but not beside
        // goods of its own (`Climbing and mountaineering equipment` share `equipment`).
        || (!rest_plural
            && !["equipment", "gear", "clothing", "apparel", "furniture", "footwear", "hardware"]
                .contains(&rest_last.as_str())
            && (is_mass(&first_last) || is_gerund(&first_last)));
    if first_whole {
        return vec![with_tail(first.to_owned()), with_tail(rest.to_owned())];
    }
    // A head that does not count shares itself only with a word that can only be a
    // modifier (a holiday, a standard's number, an acronym, an adjective, a thing in -ing):
    // `Repository and renewal tracking` is two things, `Diwali and corporate gifting` and
    // `Wedding and event photography` one kind each.
    if !rest_plural && !ing && !first_words.iter().any(|w| modifier_only(w)) {
        return Vec::new();
    }
    // A phrase of its own before `and` shares nothing: `Egg freezing cost and success
    // rates` is no `egg freezing cost rates`.
    if first_words.len() > 1
        && !is_gerund(&first_last)
        && !modifier_only(first_words[first_words.len() - 1])
    {
        return Vec::new();
    }
    // The second phrase's words parallel to the first are its own and the rest is shared
    // (`ISO 14001` | `ISO 45001` | `certification`); after one word, a modifier is its own
    // (`Vehicle and outdoor | first aid kits`); else only the head is shared (`Cleaning
    // and pest control | services`).
    let shared = if first_words.len() >= 2 && rest_words.len() > first_words.len() {
        rest_words[first_words.len()..].join(" ")
    } else if first_words.len() == 1 && rest_words.len() > 2 && modifier_only(rest_words[0]) {
        rest_words[1..].join(" ")
    } else {
        rest_words[rest_words.len() - 1].to_owned()
    };
    vec![
        with_tail(format!("{first} {shared}")),
        with_tail(rest.to_owned()),
    ]
}

/// Whether a category names a shop (`Japanese kitchen knife store`, `climbing equipment
/// retailer`) rather than what it sells.
pub fn names_shop(category: &str) -> bool {
    category.split_whitespace().last().is_some_and(|last| {
        let last = last.to_lowercase();
        SHOP_WORDS.contains(&last.as_str()) || ["e-shop", "webshop"].contains(&last.as_str())
    })
}

/// Words that make a business a shop, in a category's last word (`climbing equipment
/// store`) or a rival's notes (`UK running retail chain`).
const SHOP_WORDS: &[&str] = &[
    "shop",
    "shops",
    "store",
    "stores",
    "retailer",
    "retailers",
    "stockist",
    "stockists",
    "boutique",
    "outlet",
    "supermarket",
];

/// What a shop's category sells when the category names the shop (`yarn and knitting
/// supplies shop` → `yarn and knitting supplies`); `None` when it names no shop, or no
/// goods a sentence can buy (`running shop`).
pub fn without_shop(category: &str) -> Option<String> {
    if !names_shop(category) {
        return None;
    }
    let words: Vec<&str> = category.split_whitespace().collect();
    let (_, rest) = words.split_last()?;
    let rest: Vec<&str> = rest
        .iter()
        .copied()
        .skip_while(|w| {
            matches!(
                w.to_lowercase().as_str(),
                "online" | "specialist" | "independent"
            )
        })
        .collect();
    let goods = rest.join(" ");
    // `running shop` or `online shop` says no goods a sentence can name; one thing of a
    // kind stands for the kind (`Japanese kitchen knife store` sells knives).
    let last = rest.last()?;
    let head = last.to_lowercase();
    if is_plural(&head) || MASS.contains(&head.as_str()) {
        return Some(goods);
    }
    // `pet shop`, `charity shop`, `department store`, `Le Creuset store`: one word or a
    // name before the shop is no goods.
    if is_mass(&head)
        || crate::generate::text::is_acronym(last)
        || rest.len() < 2
        || last.starts_with(char::is_uppercase)
    {
        return None;
    }
    let mut words = rest.clone();
    let plural_head = plural(last);
    *words.last_mut()? = &plural_head;
    Some(words.join(" "))
}

fn split_post_modifier(text: &str) -> (&str, &str) {
    // ` de ` heads French names English keeps (`eau de parfum`: `eaux de parfum`).
    for marker in [" for ", " with ", " of ", " to ", " in ", " de "] {
        if let Some(at) = text.find(marker) {
            return (&text[..at], &text[at..]);
        }
    }
    (text, "")
}

/// Whether a rival is a group named by what its members are, which takes a plural verb:
/// `local high-street accountants`, `local tree surgeons on Checkatrade and MyBuilder`,
/// `Craigslist and Facebook Marketplace listings`, `spreadsheets and Google Forms`. A name
/// (`Gristwood & Toms`, `Two Men and a Truck`, `Hays`) is one rival.
pub fn is_group_name(name: &str) -> bool {
    let name = name.trim();
    let plural_end = |text: &str| {
        text.split_whitespace()
            .last()
            .is_some_and(|last| last.starts_with(char::is_lowercase) && is_plural(last))
    };
    // `Local tree surgeons`, `Chinese suppliers on Alibaba`: a head in lower-case plural
    // before any place or channel, whatever the first letter.
    let head = [
        " on ", " in ", " from ", " with ", " via ", " at ", " like ",
    ]
    .iter()
    .filter_map(|m| name.find(m))
    .min()
    .map_or(name, |at| &name[..at]);
    if name.starts_with(char::is_lowercase) {
        return plural_end(head) || head.split(" and ").any(plural_end);
    }
    plural_end(head) || name.contains(" and ") && plural_end(name)
}

/// Goods named by a word in -ing (`bedding`, `flooring`), which stand as things of
/// their own beside others (`Bedding and bath linens`).
const ING_GOODS: &[&str] = &[
    "bedding",
    "clothing",
    "flooring",
    "lighting",
    "decking",
    "fencing",
    "siding",
    "shelving",
    "tubing",
    "piping",
    "packaging",
    "cladding",
    "tiling",
    "seating",
    "netting",
    "matting",
    "edging",
    "bunting",
    "railing",
    "roofing",
];

/// -ing nouns that count (`a freight briefing`, `two listings`).
const COUNTED_ING: &[&str] = &[
    "briefing",
    "listing",
    "meeting",
    "painting",
    "building",
    "recording",
    "offering",
    "wedding",
    "earring",
    "setting",
    "opening",
    "posting",
    "drawing",
    "finding",
    "warning",
    "fitting",
    "sibling",
    "seedling",
    "dumpling",
    "awning",
    "ending",
    "saying",
    "feeling",
    "rating",
    "sighting",
    "outing",
    "crossing",
    "landing",
    "filing",
    "marking",
    "reading",
    "saving",
    "cutting",
    "cooking class",
];

/// A topic as running text can use it: a search for advice on things is about the
/// things (`board game recommendations` → `board games`), and one thing of a kind that
/// counts stands for the kind (`parent communication app` → `parent communication apps`;
/// `What usually goes wrong with parent communication app?` lacks its article).
pub fn topic_subject(text: &str, keep: &[&str]) -> String {
    const SEARCHES: &[&str] = &[" recommendations", " ideas", " suggestions"];
    const COUNT_HEADS: &[&str] = &[
        "app",
        "newsletter",
        "podcast",
        "service",
        "tool",
        "platform",
        "device",
        "machine",
        "system",
        "course",
        "magazine",
        "channel",
        "card",
        "account",
        "membership",
        "subscription",
        "ticket",
        "pass",
        "venue",
        "hotel",
        "tour",
        "class",
        "kit",
        "box",
    ];
    if text.contains(" and ") || text.starts_with(char::is_uppercase) {
        return text.to_owned();
    }
    if let Some(rest) = SEARCHES.iter().find_map(|s| text.strip_suffix(s))
        && !rest.is_empty()
    {
        return Noun::parse(rest, keep).bare;
    }
    let (head, tail) = split_post_modifier(text);
    let last = head.rsplit(' ').next().unwrap_or(head).to_lowercase();
    if tail.is_empty() && COUNT_HEADS.contains(&last.as_str()) && !is_activity_phrase(text) {
        return Noun::parse(text, keep).bare;
    }
    text.to_owned()
}

/// A topic named as a search (`Tree surgeon near me`, `Cost of tree work`) as running
/// text says it: the choice of a provider (`choosing a tree surgeon`), the thing without
/// `near me` (`stump grinding`), or the price of the thing (`tree work costs`, which the
/// banks read as a price topic). `None` for a topic that is no such search. Goods and
/// software are searched for as themselves, so only a provider `near me` changes there.
pub fn search_topic(text: &str, keep: &[&str], keep_joined_price: bool) -> Option<String> {
    // Affixes are ASCII; `get` keeps a cut on a character boundary whatever the label.
    let prefix = |affix: &str| {
        text.get(..affix.len())
            .filter(|head| head.eq_ignore_ascii_case(affix))
            .and_then(|_| text.get(affix.len()..))
    };
    let suffix = |affix: &str| {
        let at = text.len().checked_sub(affix.len())?;
        text.get(at..)
            .filter(|tail| tail.eq_ignore_ascii_case(affix))
            .and_then(|_| text.get(..at))
    };
    for price in ["cost of ", "costs of ", "price of ", "prices of "] {
        // `Cost of living guides`, `cost of sales` name no price of a thing.
        if let Some(rest) = prefix(price)
            && !rest.contains(" and ")
            && !rest.is_empty()
            && !["living", "sales", "goods", "capital", "ownership"]
                .iter()
                .any(|w| rest.to_lowercase().starts_with(w))
        {
            return Some(format!("{} costs", without_place(rest)));
        }
    }
    // `Pallet racking price & lead times`: the price of the thing and what comes with
    // it is a price topic about the thing. (The services bank keeps the second part of
    // such a topic itself, so it gets the label as written.)
    if !keep_joined_price {
        for price in [" price and ", " prices and ", " cost and ", " costs and "] {
            if let Some(at) = text.to_lowercase().find(price)
                && let Some(thing) = text.get(..at)
                && thing.contains(' ')
            {
                return Some(format!("{} prices", without_place(thing)));
            }
        }
    }
    // `Home rooftop solar cost`: the price of the thing, as the banks' price topics name it.
    for (price, prices) in [
        (" cost", "costs"),
        (" price", "prices"),
        (" pricing", "prices"),
    ] {
        if let Some(rest) = suffix(price)
            && rest.contains(' ')
            && !rest.contains(" and ")
            && !rest.to_lowercase().ends_with(" total")
        {
            return Some(format!("{} {prices}", without_place(rest)));
        }
    }
    // `Emergency locksmith Dublin`, `Wedding photographer Madrid`: a provider searched
    // for in a place is the choice of one; the place is the market the prompts say.
    let words: Vec<&str> = text.split_whitespace().collect();
    let place = words
        .iter()
        .rev()
        .take_while(|w| w.starts_with(|c: char| c.is_uppercase()))
        .count();
    if place >= 1
        && place < words.len()
        && words[1..words.len() - place]
            .iter()
            .all(|w| !w.starts_with(|c: char| c.is_uppercase()))
    {
        let rest = words[..words.len() - place].join(" ");
        if Noun::parse(&rest, keep).is_people() && !rest.ends_with('s') {
            return Some(format!(
                "choosing {}",
                crate::generate::text::with_article(&rest.to_lowercase())
            ));
        }
    }
    // Only a search says `near me`: a topic named by providers alone (`Divorce
    // solicitors`) stays as the brief names it.
    let rest = [" near me", " nearby", " in my area"]
        .iter()
        .find_map(|tail| suffix(tail))
        .filter(|rest| !rest.is_empty())?;
    // `Switching power company near me` is a job; `Moving companies near me` are
    // providers of a trade in -ing.
    let first = rest
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_lowercase();
    if is_choosing_verb(&first)
        || ["switching", "changing", "getting", "applying"].contains(&first.as_str())
    {
        return Some(rest.to_owned());
    }
    if Noun::parse(rest, keep).is_people() {
        let one = match rest.rsplit_once(' ') {
            Some((stem, last)) => format!("{stem} {}", singular(last)),
            None => singular(rest),
        };
        return Some(format!(
            "choosing {}",
            crate::generate::text::with_article(&one)
        ));
    }
    Some(rest.to_owned())
}

/// `pool maintenance in Arizona` → `pool maintenance`: the place a price topic names is
/// the market the prompts already say (`pool maintenance in Arizona costs` is no phrase).
fn without_place(text: &str) -> &str {
    match text.rsplit_once(" in ") {
        Some((thing, place))
            if thing.contains(|c: char| c.is_alphabetic())
                && place
                    .split_whitespace()
                    .all(|w| w.starts_with(|c: char| c.is_uppercase())) =>
        {
            thing
        }
        _ => text,
    }
}

/// `Lock upgrades and security` → `lock upgrades`: a label that tacks one broad concern
/// onto its subject is about the subject (`What does lock upgrades and security usually
/// involve?` is no question); two subjects (`tree felling and stump grinding`) stay.
pub fn without_tacked_concern(text: &str) -> String {
    const CONCERNS: &[&str] = &[
        "security",
        "safety",
        "support",
        "maintenance",
        "compliance",
        "advice",
        "aftercare",
        "servicing",
        "care",
        "warranty",
        "warranties",
        "guarantees",
        "guidance",
        "help",
        "inspiration",
        "regulations",
        "rules",
        "trends",
    ];
    match text.rsplit_once(" and ") {
        Some((subject, concern))
            if CONCERNS.contains(&concern.trim().to_lowercase().as_str())
                && subject.split_whitespace().count() >= 2
                && !subject.contains(',') =>
        {
            subject.to_owned()
        }
        _ => text.to_owned(),
    }
}

/// A line the brand names after itself with one word as what it is: the aside when it
/// names things (`MedShelf Retail (billing + inventory)` → `billing + inventory`), else
/// the word when it names a kind (`Upskilla LMS` → `LMS`), else nothing (`ChartWell
/// Ambient` → ``: the caller names the brand's offer instead). A prompt that names the
/// brand cannot be a discovery prompt, and `MedShelf's medShelf Retail` is no phrase. Any
/// other label is returned as it is.
pub fn without_brand<'a>(label: &'a str, brand: &str) -> std::borrow::Cow<'a, str> {
    let brand = brand.trim();
    let label_trim = label.trim();
    let after = |name: &str| {
        label_trim
            .get(..name.len())
            .filter(|head| !name.is_empty() && head.eq_ignore_ascii_case(name))
            .and_then(|_| label_trim.get(name.len()..))
            .filter(|rest| rest.starts_with(' '))
    };
    // `ChartWell Ambient` of `ChartWell AI`: a line named by the brand's own first word.
    let first = brand.split_whitespace().next().unwrap_or_default();
    let rest = match after(brand).or_else(|| {
        (brand.contains(' ') && first.chars().count() >= 5)
            .then(|| after(first))
            .flatten()
    }) {
        Some(rest) => rest.trim(),
        None => return std::borrow::Cow::Borrowed(label),
    };
    let bare = crate::generate::text::without_aside(rest);
    let aside = rest
        .split_once('(')
        .and_then(|(_, inner)| inner.rsplit_once(')'))
        .map(|(inner, _)| inner.trim())
        .filter(|inner| !inner.is_empty());
    // Only an aside that names things (`billing + inventory`) stands for the line;
    // `(IAB certified)` describes it. A longer rest (`Verified inspections`, `Pass mock
    // test series`) is the product's own name and stays with its brand.
    match aside {
        Some(aside)
            if bare.split_whitespace().count() <= 1
                && !aside.contains(['>', '=', '→'])
                && aside.split_whitespace().last().is_some_and(|w| {
                    !w.ends_with("ed") && w.chars().all(|c| c.is_lowercase() || c == '-')
                }) =>
        {
            std::borrow::Cow::Owned(aside.to_owned())
        }
        // `Upskilla LMS`, `Acme Payroll`: the brand and the kind of thing it is; a word
        // that names no kind (`ChartWell Ambient`) keeps its brand.
        _ if bare.split_whitespace().count() == 1
            && (crate::generate::text::is_acronym(bare.trim())
                || is_mass_noun(&bare.to_lowercase())
                || is_gerund(&bare.to_lowercase())) =>
        {
            std::borrow::Cow::Owned(bare.into_owned())
        }
        // `ChartWell Ambient`: a product named by the brand and a word that names no kind
        // is the brand's offer, which the caller names (empty here).
        _ if bare.split_whitespace().count() == 1 => std::borrow::Cow::Borrowed(""),
        _ => std::borrow::Cow::Borrowed(label),
    }
}

/// The first of two subjects a label joins with `and` when it is a phrase of its own
/// (`gift pens` of `gift pens and engraving`); `None` for one subject (`bed and
/// breakfast`, `scams and safety`, whose first part is one word), for lists and for two
/// actions (`buying and selling used cars`).
pub fn first_subject(text: &str) -> Option<String> {
    let (first, second) = text.split_once(" and ")?;
    let first_words: Vec<&str> = first.split_whitespace().collect();
    let second_words = second.split_whitespace().count();
    // One word tacked onto a phrase (`engraving`); a second phrase (`job management
    // software`) may share the first one's head.
    (first_words.len() >= 2
        && first_words.len() <= 4
        && second_words == 1
        && !text.contains(',')
        && !second.contains(" and ")
        && !is_gerund(&first_words[0].to_lowercase()))
    .then(|| first.to_owned())
}

/// `Panto 2025` → `Panto`: the year ending a topic name is the search's, and dates the
/// question. `None` when no year ends it.
pub fn without_year(text: &str) -> Option<String> {
    let (rest, year) = text.rsplit_once(' ')?;
    (year.len() == 4
        && (year.starts_with("19") || year.starts_with("20"))
        && year.chars().all(|c| c.is_ascii_digit())
        && !rest.is_empty())
    .then(|| rest.to_owned())
}

/// A topic worded as an instruction (`Find an architect`, `Hire a nanny`) as the activity
/// running text names (`finding an architect`); `None` for any other topic.
pub fn gerund_topic(text: &str) -> Option<String> {
    const VERBS: &[(&str, &str)] = &[
        ("find", "finding"),
        ("choose", "choosing"),
        ("hire", "hiring"),
        ("buy", "buying"),
        ("pay", "paying"),
        ("book", "booking"),
        ("compare", "comparing"),
        ("pick", "picking"),
        ("sell", "selling"),
        ("rent", "renting"),
        ("plan", "planning"),
        ("fix", "fixing"),
        ("build", "building"),
        ("apply", "applying"),
        ("switch", "switching"),
        ("start", "starting"),
        ("learn", "learning"),
        ("renovate", "renovating"),
        ("extend", "extending"),
        ("manage", "managing"),
        ("improve", "improving"),
        ("prepare", "preparing"),
        ("reduce", "reducing"),
        ("avoid", "avoiding"),
    ];
    let (first, rest) = text.split_once(' ')?;
    let lower = first.to_lowercase();
    let (_, ing) = VERBS.iter().find(|(verb, _)| *verb == lower)?;
    // `Rent collection`, `Pick and pack`, `Plan B`: only an object with its determiner
    // makes the verb an instruction.
    let next = rest.split_whitespace().next()?;
    matches!(
        next.to_lowercase().as_str(),
        "a" | "an" | "the" | "my" | "your" | "our"
    )
    .then(|| format!("{ing} {rest}"))
}

/// Whether a topic's last word names a subject people follow rather than learn or buy
/// (`property market`, `the economy`, `election`); the content banks read the same list
/// as `cm_followed`.
pub fn is_followed_subject(word: &str) -> bool {
    matches!(
        word.to_lowercase().as_str(),
        "market"
            | "industry"
            | "economy"
            | "scene"
            | "sector"
            | "season"
            | "election"
            | "budget"
            | "curriculum"
    )
}

/// Words a publication names itself by (`portal`, `magazine`): the field before them
/// is what it covers.
pub const OUTLETS: &[&str] = &[
    "portal",
    "site",
    "website",
    "blog",
    "magazine",
    "publication",
    "newsletter",
    "podcast",
    "channel",
    "platform",
    "hub",
];

/// `government exam preparation and current affairs portal` → `government exam
/// preparation portals`: a publication's category of two fields joined by `and` before
/// one singular outlet word, as its first field's outlets; `None` for any other label
/// (`hiking guides and gear reviews` is read by [`Noun::parse`]).
pub fn first_field_outlets(category: &str) -> Option<String> {
    let category = crate::generate::text::plain_label(category);
    let (first, rest) = category.trim().split_once(" and ")?;
    let (_, outlet) = rest.rsplit_once(' ')?;
    let outlet_lower = outlet.to_lowercase();
    (first.contains(' ') && OUTLETS.contains(&outlet_lower.as_str()))
        .then(|| format!("{first} {}", plural(outlet)))
}

/// A brand's name as people say it, when the brief writes more: the first of two names
/// (`Rivebois Credit Union / Caisse Rivebois`) and no legal form (`Oakline Arboriculture
/// Ltd`, `Acme GmbH`). `None` when the name is already so.
pub fn spoken_name(name: &str) -> Option<String> {
    const FORMS: &[&str] = &[
        " pvt ltd",
        " pvt. ltd.",
        " private limited",
        " pty ltd",
        " pty. ltd.",
        " ltd",
        " ltd.",
        " limited",
        " llc",
        " l.l.c.",
        " llp",
        " inc",
        " inc.",
        " gmbh",
        " ag",
        " plc",
        " corp",
        " corp.",
        " co.",
        " s.a.",
        " s.l.",
        " sas",
        " srl",
        " s.p.a.",
        " b.v.",
        " oy",
        " ab",
        " as",
    ];
    let name = name.trim();
    let mut spoken = name
        .split_once(" / ")
        .map_or(name, |(first, _)| first.trim());
    // `Hart & Co Solicitors LLP`, `Docly Pvt Ltd`: forms may stack; one is cut at a
    // time, never down to a lone article (`The Limited`).
    while let Some(form) = FORMS.iter().find(|form| {
        spoken
            .len()
            .checked_sub(form.len())
            .and_then(|at| spoken.get(at..))
            .is_some_and(|tail| tail.eq_ignore_ascii_case(form))
    }) {
        let rest = spoken[..spoken.len() - form.len()].trim_end_matches([',', ' ']);
        // `Wayfarer & Co.` is the name itself.
        if rest.is_empty()
            || rest.eq_ignore_ascii_case("the")
            || rest.ends_with('&')
            || rest.to_lowercase().ends_with(" and")
        {
            break;
        }
        spoken = rest;
    }
    (spoken != name && !spoken.is_empty()).then(|| spoken.to_owned())
}

/// A rival's name as running text says it, and the asides the brief wrote with it (which
/// still tell what kind of business it is): `Bristol Hippodrome (ATG)` → `Bristol
/// Hippodrome`, `ChessBase / chess24` → `ChessBase`, `Tally + manual registers` →
/// `Tally`, `GothamChess & other YouTubers` → `GothamChess`, `ASP – America's Swimming
/// Pool Company` → `America's Swimming Pool Company`. `None` when the name is already so.
/// The readings of issue 8 rejected every prompt that pasted such a name whole.
pub fn spoken_rival(name: &str) -> Option<(String, String)> {
    let name = name.trim();
    let mut aside = String::new();
    let mut depth = 0usize;
    for c in name.chars() {
        match c {
            '(' => {
                if depth == 0 && !aside.is_empty() {
                    aside.push_str("; ");
                }
                depth += 1;
            }
            ')' if depth > 0 => depth -= 1,
            _ if depth > 0 => aside.push(c),
            _ => {}
        }
    }
    let mut spoken = crate::generate::text::without_aside(name).into_owned();
    // `driving / Intercape buses`: a way of doing without, then the company; the
    // company is the rival.
    if let Some((first, second)) = spoken.split_once(" / ")
        && first.starts_with(|c: char| c.is_lowercase())
        && second.trim().starts_with(|c: char| c.is_uppercase())
    {
        spoken = second.trim().to_owned();
    }
    // `ASP – America's Swimming Pool Company`: letters and the name they stand for.
    for dash in [" – ", " — ", " - "] {
        if let Some((letters, full)) = spoken.split_once(dash)
            && crate::generate::text::is_acronym(letters.trim())
            && full.split_whitespace().count() >= 2
        {
            spoken = full.trim().to_owned();
        }
    }
    if let Some((first, _)) = spoken.split_once(" + ") {
        spoken = first.trim().to_owned();
    }
    for others in [" & other ", " and other "] {
        if let Some(at) = spoken.to_lowercase().find(others) {
            spoken = spoken[..at].trim().to_owned();
        }
    }
    if let Some(plain) = spoken_name(&spoken) {
        spoken = plain;
    }
    (spoken != name && !spoken.is_empty()).then_some((spoken, aside.trim().to_owned()))
}

/// Whether a rival is doing without the offer rather than a company (`DIY homeowners`,
/// `paper job cards`, `spreadsheets and email`, `in-house teams`): named in lower case or
/// led by `DIY`, with a word of making do. `Paper Source` is a company.
pub fn is_status_quo(name: &str) -> bool {
    let name = name.trim();
    let lower = name.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .collect();
    let first = words.first().copied().unwrap_or_default();
    (first == "diy" || first == "do-it-yourself")
        || name.starts_with(|c: char| c.is_lowercase())
            && words.iter().any(|w| {
                matches!(
                    *w,
                    "diy"
                        | "spreadsheet"
                        | "spreadsheets"
                        | "paper"
                        | "manual"
                        | "in-house"
                        | "inhouse"
                        | "self-managed"
                        | "homemade"
                        | "home-made"
                        | "pen"
                        | "whiteboard"
                        | "whiteboards"
                )
            })
}

/// A product line named only by its pack (`Variety packs`, `Single bottles`, `Gift
/// sets`) as the goods in that pack (`hot sauce variety packs`, `single bottles of hot
/// sauce`); `None` when the line names goods of its own (`Hot sauce gift sets`, `Coffee
/// pods`) or no pack.
pub fn format_of_goods(label: &str, goods: &Noun) -> Option<String> {
    const PACKS: &[&str] = &[
        "pack",
        "packs",
        "bottle",
        "bottles",
        "set",
        "sets",
        "bundle",
        "bundles",
        "box",
        "boxes",
        "refill",
        "refills",
        "sampler",
        "samplers",
        "multipack",
        "multipacks",
        "jar",
        "jars",
        "tin",
        "tins",
        "pouch",
        "pouches",
        "sachet",
        "sachets",
    ];
    // A pack is said by its kind (`Variety packs`, `Gift sets`) or alone as a bundle
    // word (`Refills`); `Lunch boxes`, `Mason jars` or `Water bottles` are goods.
    const KINDS: &[&str] = &[
        "variety",
        "gift",
        "sample",
        "sampler",
        "multi",
        "refill",
        "single",
        "trial",
        "starter",
        "discovery",
        "travel",
        "mini",
        "subscription",
        "bundle",
        "tasting",
        "mixed",
        "family",
    ];
    const ALONE: &[&str] = &["refills", "bundles", "multipacks", "samplers", "sachets"];
    let words: Vec<&str> = label.split_whitespace().collect();
    let last = words.last()?.to_lowercase();
    let pack = match words.as_slice() {
        [one] => ALONE.contains(&one.to_lowercase().as_str()),
        [kind, _] => KINDS.contains(&kind.to_lowercase().as_str()),
        _ => false,
    };
    if !pack || !PACKS.contains(&last.as_str()) || goods.bare.is_empty() {
        return None;
    }
    let goods_words = crate::generate::text::tokens(&goods.bare);
    if crate::generate::text::tokens(label)
        .iter()
        .any(|w| goods_words.contains(w))
    {
        return None;
    }
    let lower = label.to_lowercase();
    // `Single bottles`: of the goods; `Variety packs`: the goods' packs.
    if words.len() == 2
        && [
            "single", "mini", "small", "large", "big", "travel", "family",
        ]
        .contains(&words[0].to_lowercase().as_str())
    {
        return Some(format!("{lower} of {}", goods.modifier));
    }
    Some(format!("{} {lower}", goods.modifier))
}

/// Whether a topic is an action (`switching payroll providers`, `hiking in winter`)
/// rather than a thing whose name starts with an -ing word (`birding gear and feeders`,
/// `cleaning products`): the first is asked about `when` doing it, the second `for`.
pub fn is_activity_phrase(text: &str) -> bool {
    // Pastimes and trades whose -ing word heads a compound (`hiking boots`) unless a
    // preposition or determiner follows (`hiking in the Alps` is the activity).
    const PASTIMES: &[&str] = &[
        "angling",
        "birding",
        "birdwatching",
        "boating",
        "bouldering",
        "bowling",
        "camping",
        "canoeing",
        "climbing",
        "crafting",
        "cycling",
        "diving",
        "fishing",
        "gaming",
        "golfing",
        "hiking",
        "hunting",
        "kayaking",
        "knitting",
        "mountaineering",
        "paddling",
        "quilting",
        "rowing",
        "sailing",
        "sewing",
        "sightseeing",
        "skating",
        "skiing",
        "snowboarding",
        "surfing",
        "swimming",
        "trekking",
    ];
    // -ing words that are as often verbs (`running payroll`, `tracking expenses`): a
    // compound only before a word naming things (`running shoes`, `tracking devices`).
    const EITHER: &[&str] = &[
        "baking",
        "charging",
        "cleaning",
        "cooking",
        "cutting",
        "dining",
        "heating",
        "packing",
        "parenting",
        "printing",
        "racing",
        "riding",
        "running",
        "shipping",
        "tracking",
        "training",
        "walking",
        "welding",
    ];
    const THINGS: &[&str] = &[
        "accessories",
        "advice",
        "apparel",
        "apps",
        "bags",
        "books",
        "boots",
        "cables",
        "classes",
        "clothes",
        "clothing",
        "clubs",
        "courses",
        "devices",
        "equipment",
        "gear",
        "guides",
        "kit",
        "kits",
        "lessons",
        "machines",
        "materials",
        "products",
        "recipes",
        "routes",
        "services",
        "shoes",
        "software",
        "solutions",
        "spots",
        "stations",
        "supplies",
        "systems",
        "tips",
        "tools",
        "tours",
        "trails",
        "trips",
    ];
    const LINKS: &[&str] = &[
        "a", "an", "the", "my", "your", "our", "their", "in", "on", "at", "with", "for", "to",
        "from", "around", "across", "through", "near", "abroad", "alone", "solo", "up", "out",
        "off", "down", "over",
    ];
    // -ing nouns that count (`meeting rooms`, `wedding venues`) are actions only before
    // a determiner or particle (`painting a room`, `building up stock`).
    const NOUN_ING: &[&str] = &[
        "briefing",
        "building",
        "drawing",
        "fitting",
        "listing",
        "meeting",
        "painting",
        "recording",
        "wedding",
    ];
    let words: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
    let Some(first) = words.first() else {
        return false;
    };
    if text.starts_with(char::is_uppercase) {
        return false;
    }
    let next = words
        .get(1)
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()));
    if NOUN_ING.contains(&first.as_str()) {
        return next.is_some_and(|next| LINKS.contains(&next));
    }
    if !is_gerund(first) {
        return false;
    }
    let Some(next) = next else {
        return true;
    };
    // `flatting costs`, `building regulations`: the -ing word names what the costs or
    // rules are of; nobody `flats costs`.
    if words.len() == 2
        && matches!(
            next,
            "costs"
                | "prices"
                | "fees"
                | "rules"
                | "laws"
                | "rates"
                | "regulations"
                | "requirements"
                | "trends"
                | "basics"
                | "etiquette"
                | "statistics"
                | "guidelines"
        )
    {
        return false;
    }
    if PASTIMES.contains(&first.as_str()) {
        return LINKS.contains(&next);
    }
    if EITHER.contains(&first.as_str()) {
        return !THINGS.contains(&next);
    }
    // `meeting and offsite venues`: an -ing word joined to a modifier that is no
    // action shares the head noun; `buying and selling used cars` joins two actions.
    if matches!(next, "and" | "or") {
        return words.get(2).is_none_or(|third| is_gerund(third));
    }
    true
}

/// Whether a phrase's first word makes it an action (`choosing a gym`, `switching
/// payroll providers`) rather than a thing (`marketing attribution`, `accounting`).
pub fn is_gerund(word: &str) -> bool {
    // Nouns that end in -ing but name no action (`Wedding photography prices`).
    const NOT_ACTIONS: &[&str] = &[
        "wedding",
        "evening",
        "morning",
        "ceiling",
        "pudding",
        "dumpling",
        "earring",
        "sibling",
        "seedling",
        "spring",
        "string",
        "thing",
        "king",
        "ring",
        "nothing",
        "something",
        "everything",
        "anything",
        "lightning",
        "icing",
        "awning",
        "railing",
        "stuffing",
        "offspring",
        "darling",
        "herring",
        "sapling",
        "duckling",
        "viking",
        "housing",
        "clothing",
        "bedding",
        "building",
        "wiring",
        "siding",
        "flooring",
        "roofing",
        "decking",
        "fencing",
        "paving",
        "tiling",
        "lighting",
        "seating",
        "packaging",
        "catering",
        "plumbing",
        "funding",
        "banking",
        "boarding",
    ];
    let lower = word.to_lowercase();
    lower.ends_with("ing")
        && lower.len() > 4
        && !MASS.contains(&lower.as_str())
        && !NOT_ACTIONS.contains(&lower.as_str())
}

/// Whether a word (any case) is a mass noun (`broadband`, `software`, `workwear`).
pub fn is_mass_noun(word: &str) -> bool {
    is_mass(&word.to_lowercase())
}

fn is_mass(word: &str) -> bool {
    MASS.contains(&word)
        // `workwear`, `menswear`, `kitchenware`: kinds of goods, never counted.
        || word.ends_with("wear")
        || word.ends_with("ware")
        || (word.ends_with("ing") && word.len() > 5 && !COUNTED_ING.contains(&word))
}

/// Whether a word is a regular English plural (`braais`, `shoes`; not `analysis`).
pub fn is_plural(word: &str) -> bool {
    // Nouns in -i take a plain `s` (`braais`, `taxis`, `skis`), unlike the singular
    // -is nouns (`analysis`, `tennis`, `iris`).
    const IN_I: &[&str] = &[
        "taxis", "skis", "safaris", "bikinis", "kiwis", "semis", "minis", "wikis", "emojis",
        "alibis", "khakis", "saris", "salamis", "yetis", "delis", "chilis", "maxis",
    ];
    // `LPs`, `CDs`, `SUVs`: an acronym's plural, however short.
    let acronym_plural = word
        .strip_suffix('s')
        .is_some_and(|stem| stem.len() >= 2 && stem.chars().all(|c| c.is_ascii_uppercase()));
    acronym_plural
        || word.ends_with("people")
        || word.ends_with("eaux")
        || IN_I.iter().any(|w| word.ends_with(w))
        || word.ends_with('s')
            && !word.ends_with("ss")
            && !word.ends_with("us")
            && (!word.ends_with("is") || word.ends_with("ais") || word.ends_with("eis"))
            && word.len() > 3
}

/// Word endings whose plural turns `f`/`fe` into `ves` (`knife` → `knives`, `bookshelf`
/// → `bookshelves`), read both ways by [`plural`] and [`singular`]; `cafe`, `roof`, `chef`
/// and `belief` keep their f, so only these endings change.
const F_TO_VES: [(&str, &str); 10] = [
    ("knife", "knives"),
    ("wife", "wives"),
    ("leaf", "leaves"),
    ("shelf", "shelves"),
    ("half", "halves"),
    ("loaf", "loaves"),
    ("wolf", "wolves"),
    ("thief", "thieves"),
    ("calf", "calves"),
    ("sheaf", "sheaves"),
];

/// The singular of a plural English noun (regular plurals and `-ies`, `-ches`, `-xes`).
pub fn singular(word: &str) -> String {
    let lower = word.to_lowercase();
    if let Some((one, many)) = F_TO_VES.iter().find(|(_, many)| lower.ends_with(many)) {
        return format!("{}{one}", &word[..word.len() - many.len()]);
    }
    if let Some(stem) = word.strip_suffix("people") {
        return format!("{stem}person");
    }
    if let Some(stem) = word.strip_suffix("eaux") {
        return format!("{stem}eau");
    }
    if let Some(stem) = word.strip_suffix("ies")
        && !lower.ends_with("series")
    {
        return format!("{stem}y");
    }
    for suffix in ["ches", "shes", "xes", "sses", "zes"] {
        if lower.ends_with(suffix) {
            return word[..word.len() - 2].to_owned();
        }
    }
    word.strip_suffix('s').unwrap_or(word).to_owned()
}

/// The plural of a singular English noun.
pub fn plural(word: &str) -> String {
    let lower = word.to_lowercase();
    // `LPs` is plural already.
    if word
        .strip_suffix('s')
        .is_some_and(|stem| stem.len() >= 2 && stem.chars().all(|c| c.is_ascii_uppercase()))
    {
        return word.to_owned();
    }
    // Greek -is nouns: `analysis` → `analyses`, `crisis` → `crises`.
    if lower.ends_with("sis") || lower.ends_with("xis") {
        return format!("{}es", &word[..word.len() - 2]);
    }
    if lower.ends_with('y')
        && !matches!(
            lower.chars().rev().nth(1),
            Some('a' | 'e' | 'i' | 'o' | 'u')
        )
    {
        return format!("{}ies", &word[..word.len() - 1]);
    }
    if ["ch", "sh", "x", "s", "z"]
        .iter()
        .any(|s| lower.ends_with(s))
    {
        return format!("{word}es");
    }
    if let Some(stem) = word.strip_suffix("person") {
        return format!("{stem}people");
    }
    if let Some((one, many)) = F_TO_VES.iter().find(|(one, _)| lower.ends_with(one)) {
        return format!("{}{many}", &word[..word.len() - one.len()]);
    }
    // French words in English perfume and cooking names: `eaux de parfum`, `gâteaux`.
    if lower.ends_with("eau") {
        return format!("{word}x");
    }
    format!("{word}s")
}

/// `mens shirts` → `men's shirts`: possessives brief writers leave out.
pub fn fix_possessives(text: &str) -> String {
    text.split(' ')
        .map(|word| match word.to_lowercase().as_str() {
            "mens" => "men's".to_owned(),
            "womens" => "women's".to_owned(),
            "childrens" => "children's".to_owned(),
            "kids" => "kids'".to_owned(),
            _ => word.to_owned(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Markets that are no place at all: the whole world.
const GLOBAL: &[&str] = &[
    "worldwide",
    "global",
    "globally",
    "international",
    "world",
    "the world",
    "all markets",
    "everywhere",
];

/// Whether the market means "everywhere".
pub fn is_global(market: &str) -> bool {
    GLOBAL.contains(&market.trim().to_lowercase().as_str())
}

/// A market as a place a sentence can name, and the locative to put after a noun.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// `the United Kingdom`, `Germany`; empty for a global market.
    pub name: String,
    /// ` in the United Kingdom`, with its leading space; empty for a global market so
    /// that the sentence simply drops it.
    pub locative: String,
    /// Whether the market is the whole world.
    pub global: bool,
}

/// Sales regions: territories of a sales team, not places people name in a question
/// (`the best invoicing software for freelancers in EMEA` was rejected by the readings
/// of issue 8). Where a sentence needs the place it gets the region's name; the
/// locative after a noun is dropped.
const REGIONS: &[(&str, &str)] = &[
    ("apac", "Asia-Pacific"),
    ("dach", "Germany, Austria and Switzerland"),
    ("emea", "Europe, the Middle East and Africa"),
    ("latam", "Latin America"),
    ("mena", "the Middle East and North Africa"),
];

/// Reads a market of the brief as a place.
pub fn place(market: &str) -> Place {
    if is_global(market) {
        return Place {
            name: String::new(),
            locative: String::new(),
            global: true,
        };
    }
    if let Some((_, region)) = REGIONS
        .iter()
        .find(|(code, _)| code.eq_ignore_ascii_case(market.trim()))
    {
        return Place {
            name: (*region).to_owned(),
            locative: String::new(),
            global: false,
        };
    }
    let name = match market.trim().to_lowercase().as_str() {
        "european union" => "the EU".to_owned(),
        _ => crate::generate::text::place_name(market),
    };
    Place {
        locative: if name.is_empty() {
            String::new()
        } else {
            format!(" in {name}")
        },
        name,
        global: false,
    }
}

/// What kind of business a competitor is, read from its notes and name: `UK running
/// retail chain` is a retailer, `BarkBox` a subscription. Only sellers of goods have
/// such rivals: a gym chain beside a gym, or Dropbox beside a software vendor, is a rival
/// of the same kind (`brand`), as is anything the words do not place.
pub fn competitor_kind(
    name: &str,
    notes: Option<&str>,
    model: BusinessModel,
    shop: bool,
) -> CompetitorKind {
    if !matches!(
        model,
        BusinessModel::Ecommerce | BusinessModel::Manufacturer
    ) {
        return CompetitorKind::Brand;
    }
    let notes = notes.unwrap_or_default().to_lowercase();
    let name = name.trim().to_lowercase();
    let said = |words: &[&str]| {
        words.iter().any(|w| {
            notes
                .split(|c: char| !c.is_alphanumeric())
                .any(|token| token == *w)
        })
    };
    let squashed: String = name.chars().filter(|c| c.is_alphanumeric()).collect();
    // Names everyone knows as a marketplace or a shop, when the notes do not say.
    const MARKETPLACES: &[&str] = &[
        "amazon",
        "ebay",
        "etsy",
        "flipkart",
        "aliexpress",
        "temu",
        "rakuten",
        "mercado libre",
        "mercadolibre",
        "back market",
        "vinted",
        "depop",
        "poshmark",
        "stockx",
        "goat",
        "noon",
        "trademe",
        "trade me",
        "bol.com",
        "allegro",
        "faire",
        "ankorstore",
    ];
    const SHOPS: &[&str] = &[
        "walmart",
        "target",
        "costco",
        "tesco",
        "sainsbury's",
        "asda",
        "argos",
        "currys",
        "john lewis",
        "boots",
        "superdrug",
        "sephora",
        "ulta",
        "best buy",
        "home depot",
        "lowe's",
        "b&q",
        "wayfair",
        "chewy",
        "petco",
        "petsmart",
        "pets at home",
        "nykaa",
        "myntra",
        "ajio",
        "healthkart",
        "lenscrafters",
        "specsavers",
        "zalando",
        "asos",
        "namshi",
        "ounass",
        "modanisa",
        "dunelm",
        "selfridges",
        "harrods",
        "nordstrom",
        "macy's",
        "kohl's",
        "halfords",
        "sports direct",
        "jd sports",
        "dobbies",
        "webstaurantstore",
        "katom",
        "bunnings",
        "kmart",
        "big w",
        "jb hi-fi",
    ];
    // Notes that only say where a rival is (`US, ships to UK`, `high street`, an aside of
    // its name) say nothing of its kind; notes calling it a maker do.
    let made = said(&[
        "brand",
        "brands",
        "maker",
        "makers",
        "manufacturer",
        "manufacturers",
        "label",
        "own-brand",
    ]);
    let known = |names: &[&str]| !made && names.contains(&name.as_str());
    if known(MARKETPLACES) {
        return CompetitorKind::Marketplace;
    }
    if known(SHOPS) {
        return CompetitorKind::Retailer;
    }
    if said(&["subscription", "subscriptions", "box", "boxes"])
        || ["box", "crate", "club"]
            .iter()
            .any(|end| squashed.ends_with(end))
    {
        CompetitorKind::Subscription
    } else if said(&["marketplace", "marketplaces"]) {
        CompetitorKind::Marketplace
    } else if said(SHOP_WORDS) || said(&["retail", "chain"]) {
        CompetitorKind::Retailer
    } else if shop && !made {
        // A shop's rivals whose notes say nothing are shops too (`Korin`, `Bergfreunde`):
        // they sell, they do not make.
        CompetitorKind::Retailer
    } else {
        CompetitorKind::Brand
    }
}

/// What a priority channel is, guessed from its name when the brief does not say.
pub fn channel_kind(name: &str) -> ChannelKind {
    let lower = name.trim().to_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    if has(&[
        "own website",
        "own site",
        "website",
        "webshop",
        "web shop",
        "online store",
    ]) {
        ChannelKind::OwnWebsite
    } else if has(&["mobile app", "own app", "our app", "the app"]) || lower == "app" {
        ChannelKind::OwnApp
    } else if has(&[
        "app store",
        "google play",
        "play store",
        "marketplace app",
        "chrome web store",
    ]) {
        ChannelKind::AppStore
    } else if has(&["distributor", "wholesale", "reseller", "dealer"]) {
        ChannelKind::Distributor
    } else if has(&[
        "trade show",
        "tradeshow",
        "trade fair",
        "expo",
        "exhibition",
        "conference",
    ]) {
        ChannelKind::TradeShow
    } else if has(&[
        "capterra",
        "g2",
        "trustpilot",
        "clutch",
        "yelp",
        "tripadvisor",
        "review",
    ]) {
        ChannelKind::ReviewSite
    } else if has(&[
        "google maps",
        "business profile",
        "google my business",
        "local search",
        "maps",
    ]) {
        ChannelKind::LocalListing
    } else if has(&[
        "youtube",
        "linkedin",
        "instagram",
        "tiktok",
        "facebook",
        "podcast",
        "spotify",
        "pinterest",
        "reddit",
        "x.com",
        "twitter",
        "social",
        // Where people read about the brand, not where they buy.
        "newsletter",
        "email",
        "blog",
    ]) {
        ChannelKind::Social
    } else if has(&[
        "referral",
        "word of mouth",
        "word-of-mouth",
        "recommendation",
    ]) {
        ChannelKind::Referral
    } else if has(&[
        "amazon",
        "ebay",
        "etsy",
        "walmart",
        "tmall",
        "天猫",
        "京东",
        "jd.com",
        "aliexpress",
        "zalando",
        "bol.com",
        "rakuten",
        "mercado",
        "target.com",
        "wayfair",
        "marketplace",
    ]) {
        ChannelKind::Marketplace
    } else if has(&["retail", "store", "shop", "supermarket", "pharmac", "chain"]) {
        ChannelKind::Retailer
    } else {
        ChannelKind::Other
    }
}

/// Words after which an audience description stops being the audience and starts
/// describing it (`men aged 25-45 who buy clothing …` → `men`).
const AUDIENCE_CUTS: &[&str] = &[
    " who ",
    " who'",
    " who’",
    " whose ",
    " that ",
    " which ",
    " aged ",
    " age ",
    " between ",
    " doing ",
    " looking ",
    " paying ",
    " building ",
    " shopping ",
    " getting ",
    " buying ",
    " running ",
    " travelling ",
    " traveling ",
    " using ",
    " wanting ",
    " needing ",
    " trying ",
    " working ",
    // `homeowners after a burglary`: the moment is the brief's note, not a group.
    " after ",
    " before ",
    " during ",
    " when ",
    " while ",
];

/// Post-modifiers dropped only from descriptions of five words or more (`procurement
/// managers in oil and gas` → `procurement managers`, `home cooks on a budget` → `home
/// cooks`), the length at which the lint's `pasted-audience` rule reads a phrase as the
/// brief's description rather than what people say; `families in Melbourne` stays.
const AUDIENCE_LONG_CUTS: &[&str] = &[" at ", " in ", " of ", " on ", " with ", " from "];

/// Heads too vague to stand alone as an audience.
const VAGUE: &[&str] = &[
    "people",
    "those",
    "anyone",
    "customers",
    "buyers",
    "users",
    "someone",
];

/// The short form of an audience description, as people say it in a question; `None`
/// when the description has no usable short form (it is then used as it stands, which
/// the generator notes in `key_inferences`).
pub fn short_audience(description: &str, keep: &[&str]) -> String {
    // `adult children (45-60)`: the aside is the brief's note, not what people say.
    let description = crate::generate::text::plain_label(description);
    let text = crate::generate::text::phrase(&description, keep);
    let padded = format!("{text} ");
    let mut cut = text.len();
    for marker in AUDIENCE_CUTS {
        if let Some(at) = padded.find(marker) {
            cut = cut.min(at);
        }
    }
    let mut short = text[..cut].trim().to_owned();
    // A participle after a plural head starts a description too, whatever the verb
    // (`weekend hikers planning their first overnight trip` → `weekend hikers`,
    // `tech companies sponsoring H-1B workers` → `tech companies`); `working parents`
    // keeps its `-ing` word, which comes first, and so does `B2B SaaS marketing teams`,
    // where the `-ing` word is a noun before another.
    let words: Vec<&str> = short.split(' ').collect();
    if let Some(at) = (1..words.len()).find(|&i| {
        let (before, word) = (words[i - 1].to_lowercase(), words[i].to_lowercase());
        // `marketing teams`: the -ing word modifies a head naming people; `brands
        // shipping goods`: it is a participle with its object.
        // Only a head naming people or a group follows such a modifier (`wine tourists
        // planning trips`, `surf shops stocking boards` are participles).
        let noun_follows = words.get(i + 1).is_some_and(|next| {
            [
                "teams",
                "managers",
                "departments",
                "professionals",
                "leads",
                "agencies",
                "companies",
                "firms",
                "businesses",
                "owners",
                "officers",
                "directors",
                "buyers",
                "specialists",
                "engineers",
                "students",
                "clubs",
                "schools",
                "centres",
                "centers",
                "groups",
                "coaches",
                "instructors",
                "consultants",
                "executives",
                "heads",
                "pros",
                "experts",
            ]
            .contains(&next.to_lowercase().as_str())
        });
        word.len() > 4
            && word.ends_with("ing")
            && !MASS.contains(&word.as_str())
            && !noun_follows
            && (before.ends_with('s') && !before.ends_with("ss")
                || matches!(before.as_str(), "children" | "people" | "men" | "women"))
    }) {
        short = words[..at].join(" ");
    }
    if short.split_whitespace().count() >= 5 {
        let padded = format!("{short} ");
        let mut cut = short.len();
        for marker in AUDIENCE_LONG_CUTS {
            if let Some(at) = padded.find(marker) {
                cut = cut.min(at);
            }
        }
        short = short[..cut].trim().to_owned();
    }
    // A cut can leave a dangling word (`people over 60 planning and`): drop trailing
    // joining words and the participle before them.
    loop {
        let words: Vec<&str> = short.split(' ').collect();
        let Some(last) = words.last().map(|w| w.to_lowercase()) else {
            break;
        };
        let dangling = matches!(
            last.as_str(),
            "and" | "or" | "for" | "to" | "with" | "of" | "in" | "on" | "who" | "that"
        ) || (words.len() > 2
            && last.len() > 4
            && last.ends_with("ing")
            && !MASS.contains(&last.as_str()));
        if !dangling || words.len() < 2 {
            break;
        }
        short = words[..words.len() - 1].join(" ");
    }
    // `nervous drivers and people returning to driving`: a vague second group cut to
    // its head says nothing; the first stands for the audience.
    if let Some((first, second)) = short.rsplit_once(" and ")
        && matches!(
            second.to_lowercase().as_str(),
            "people" | "those" | "anyone" | "someone" | "others"
        )
        && !first.is_empty()
    {
        short = first.to_owned();
    }
    if short.is_empty() || VAGUE.contains(&short.to_lowercase().as_str()) {
        // `people who took a DNA test and want to understand their matches`: the
        // clause that says who they are, without what else they want.
        if let Some(at) = text.find(" who ") {
            let clause = &text[at + 5..];
            let end = [" and ", ", ", " because ", " so "]
                .iter()
                .filter_map(|marker| clause.find(marker))
                .min()
                .unwrap_or(clause.len());
            return format!("{} who {}", text[..at].trim(), clause[..end].trim());
        }
        // `people trying to avoid fake products and bleaching creams and want …`: the
        // participle that says who they are, up to its first `and`.
        if !short.is_empty()
            && let Some(rest) = text.get(short.len()..)
            && rest
                .split_whitespace()
                .next()
                .is_some_and(|w| w.len() > 4 && w.ends_with("ing"))
        {
            let end = [" and ", ", ", " because ", " so "]
                .iter()
                .filter_map(|marker| rest.find(marker))
                .min()
                .unwrap_or(rest.len());
            return format!("{}{}", short, rest[..end].trim_end());
        }
        return text;
    }
    let short = list_audience(&short, &text).unwrap_or(short);
    // `women 18-35`, `families with kids 3-12`: an age range is the brief's note.
    let words: Vec<&str> = short
        .split_whitespace()
        .filter(|w| {
            let w = w.trim_matches(|c: char| c == '(' || c == ')');
            !(w.chars().next().is_some_and(|c| c.is_ascii_digit())
                && w.contains(['-', '–', '+'])
                && w.chars().all(|c| c.is_ascii_digit() || "-–+".contains(c)))
        })
        .collect();
    if words.is_empty() {
        short
    } else {
        words.join(" ")
    }
}

/// Job titles that a description lists before saying where those people work.
const ROLES: &[&str] = &[
    "admins",
    "administrators",
    "buyers",
    "directors",
    "executives",
    "founders",
    "heads",
    "leads",
    "managers",
    "officers",
    "owners",
    "principals",
    "trustees",
];

/// A list of roles or groups is no short form (`owners and ops managers`, `principals,
/// trustees and admin heads`): roles at an organisation are asked about as the
/// organisation (`small and mid-size fleets`, `private K-12 schools`), and two groups
/// (`Kiwi families and campervan travellers`) as the first.
fn list_audience(short: &str, text: &str) -> Option<String> {
    let parts: Vec<&str> = short
        .split(", ")
        .flat_map(|part| part.split(" and "))
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .collect();
    if parts.len() < 2 {
        return None;
    }
    let last_word = |part: &str| part.rsplit(' ').next().unwrap_or(part).to_lowercase();
    let roles = parts
        .iter()
        .all(|part| ROLES.contains(&last_word(part).as_str()));
    if roles && let Some((_, org)) = text.split_once(" at ") {
        let mut cut = org.len();
        for marker in [
            "(", ",", " in ", " with ", " who ", " that ", " across ", " of ",
        ] {
            if let Some(at) = org.find(marker) {
                cut = cut.min(at);
            }
        }
        let org = org[..cut].trim();
        let words = org.split_whitespace().count();
        if (1..=5).contains(&words) && is_plural(&last_word(org)) {
            return Some(org.to_owned());
        }
        return None;
    }
    let first = parts[0];
    // A list of three groups and more (`architects, architectural technologists and Part
    // 2/Part 3 students`): the first stands for them, as a short pair does not.
    if !roles && parts.len() >= 3 && is_plural(&last_word(first)) {
        return Some(first.to_owned());
    }
    // Two groups of two words or more, each a plural noun: the first stands for the
    // audience (`Kiwi families`); a short pair is what people say (`young couples and
    // families`, `Australian skiers and snowboarders`).
    (!roles
        && parts.len() == 2
        && parts
            .iter()
            .all(|part| part.contains(' ') && is_plural(&last_word(part))))
    .then(|| first.to_owned())
}

/// Whether content of this name is a source people subscribe to or follow (a
/// newsletter, podcast, channel, course, magazine or app) rather than what such sources
/// publish (recipes, reviews, advice).
pub fn is_content_source(label: &str) -> bool {
    let lower = label.to_lowercase();
    [
        "newsletter",
        "podcast",
        "channel",
        "course",
        "magazine",
        "app",
        "blog",
        "show",
        "video",
    ]
    .iter()
    .any(|w| lower.split_whitespace().any(|word| word.starts_with(w)))
}

/// Whether content of this name recommends or judges (reviews, news, advice, ratings),
/// so that sponsorship, bias and accuracy are what readers worry about; recipes and
/// how-to guides are judged by whether they work.
pub fn is_opinion_content(label: &str) -> bool {
    let lower = label.to_lowercase();
    [
        "review",
        "news",
        "advice",
        "rating",
        "comparison",
        "analysis",
        "opinion",
        "finance",
        "invest",
        "money",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

/// Whether manufactured goods of this name are used up or thrown away (packaging, cups,
/// labels, gloves, filters), so that warranties, service life and project
/// specifications do not apply; batches, consistency and certificates do.
pub fn is_consumable(label: &str) -> bool {
    // `packaging machinery` is capital equipment, not packaging.
    if is_machine(label) {
        return false;
    }
    let lower = label.to_lowercase();
    [
        "packaging",
        "container",
        "cup",
        "bag",
        "label",
        "film",
        "wrap",
        "glove",
        "wipe",
        "napkin",
        "straw",
        "cutlery",
        "tray",
        "carton",
        "box",
        "filter",
        "tape",
        "disposable",
        "compostable",
        "single-use",
        "ink",
        "consumable",
    ]
    .iter()
    .any(|w| {
        lower
            .split(|c: char| !c.is_alphanumeric() && c != '-')
            .any(|word| word.starts_with(w))
    })
}

/// The words of `label`, lower-cased.
fn words_of(label: &str) -> impl Iterator<Item = String> + '_ {
    label
        .split(|c: char| !c.is_alphanumeric() && c != '-' && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// Whether goods of this name are machines or plant (`packaging machines`, `case
/// packers`, `industrial robots`): bought as projects with installation, downtime,
/// changeovers and service contracts, never by the unit at volume.
pub fn is_machine(label: &str) -> bool {
    words_of(label).any(|w| {
        w.starts_with("machin")
            || matches!(
                w.as_str(),
                "equipment"
                    | "packer"
                    | "packers"
                    | "palletiser"
                    | "palletisers"
                    | "palletizer"
                    | "palletizers"
                    | "robot"
                    | "robots"
            )
    })
}

/// Whether goods of this name are worn (shirts, shoes, base layers, hydration vests):
/// bought with sizing, fit and care in mind.
pub fn is_wearable(label: &str) -> bool {
    const WORN: &[&str] = &[
        "shirt",
        "shoe",
        "chino",
        "trouser",
        "jacket",
        "boot",
        "dress",
        "jean",
        "sock",
        "legging",
        "layer",
        "hoodie",
        "jumper",
        "sweater",
        "shorts",
        "coat",
        "vest",
        "trainer",
        "sneaker",
        "hat",
        "cap",
        "scarf",
        "skirt",
        "blouse",
        "suit",
        "bra",
        "underwear",
        "swimwear",
        "activewear",
        "sportswear",
        "clothing",
        "apparel",
        "footwear",
        "tights",
    ];
    let lower = label.to_lowercase();
    !lower.contains("address")
        && words_of(label)
            .any(|w| WORN.contains(&w.as_str()) || WORN.contains(&singular(&w).as_str()))
}

/// Whether the goods are for pets (dog treats, cat food, puppy toys).
pub fn is_for_pets(label: &str) -> bool {
    words_of(label).any(|w| {
        matches!(
            singular(&w).as_str(),
            "dog" | "cat" | "pet" | "puppy" | "kitten" | "dog'" | "cat'"
        )
    })
}

/// Country codes that end a channel's name (`Amazon UK`, `eBay DE`).
const COUNTRY_CODES: &[&str] = &[
    "UK", "US", "USA", "DE", "FR", "IT", "ES", "NL", "CA", "AU", "IE", "JP", "IN", "MX", "BR",
];

/// Whether a channel's name already says its country (`Amazon UK`), so that a place
/// after it ("on Amazon UK in Ireland") stacks two slots and may contradict it.
pub fn names_country(channel: &str) -> bool {
    let channel = channel.trim();
    channel.contains(' ')
        && channel
            .rsplit(' ')
            .next()
            .is_some_and(|last| COUNTRY_CODES.contains(&last))
}

/// Whether the goods of this name are eaten or drunk (tea, coffee, wine, snacks, dog
/// treats), so that how they work, their functions and repair warranties do not apply;
/// origin, taste, freshness and storage do. Knows English and Chinese labels.
pub fn is_food_or_drink(label: &str) -> bool {
    let lower = label.to_lowercase();
    const ZH: &[&str] = &[
        "茶",
        "咖啡",
        "酒",
        "零食",
        "食品",
        "饼干",
        "巧克力",
        "奶粉",
        "月饼",
        "坚果",
    ];
    if ZH.iter().any(|w| lower.contains(w)) {
        return true;
    }
    [
        "tea",
        "teas",
        "coffee",
        "coffees",
        "wine",
        "wines",
        "beer",
        "beers",
        "spirits",
        "snack",
        "snacks",
        "treat",
        "treats",
        "chocolate",
        "chocolates",
        "food",
        "foods",
        "sauce",
        "sauces",
        "spice",
        "spices",
        "juice",
        "juices",
        "cheese",
        "cheeses",
    ]
    .iter()
    .any(|w| {
        lower
            .split(|c: char| !c.is_alphanumeric())
            .any(|word| word == *w)
    })
}

/// Whether the providers are local practitioners people visit or call out (dentists,
/// clinics, plumbers), who are compared by reviews and distance, not as national
/// "market leaders" or "up-and-coming" names.
pub fn is_local_practice(label: &str) -> bool {
    let lower = label.to_lowercase();
    [
        "dentist",
        "dental",
        "clinic",
        "doctor",
        "physio",
        "chiropract",
        "optician",
        "optometrist",
        "vet",
        "salon",
        "barber",
        "plumber",
        "electrician",
        "locksmith",
        "mechanic",
        "garage",
        "gp",
        "pharmac",
        "osteopath",
        "therapist",
        "tutor",
    ]
    .iter()
    .any(|w| lower.split_whitespace().any(|word| word.starts_with(w)))
}

/// Whether a marketplace audience is on the supply side (hosts, tradespeople, sellers,
/// the freelancers listed) rather than among those who book.
pub fn is_supply_side(audience: &str, offer: &Noun) -> bool {
    let lower = audience.to_lowercase();
    // `first-time car buyers` name the car but buy it.
    if [
        "buyer",
        "shopper",
        "renter",
        "guest",
        "traveller",
        "traveler",
        "tenant",
        "customer",
        "client",
        "learner",
        "student",
        "parent",
        "patient",
        "hirer",
    ]
    .iter()
    .any(|w| lower.contains(w))
    {
        return false;
    }
    let head = offer.head();
    [
        "owner",
        "host",
        "seller",
        "vendor",
        "tradespeople",
        "tradesperson",
        "landlord",
        "provider",
        "supplier",
        "contractor",
        "merchant",
        "freelance",
    ]
    .iter()
    .any(|w| lower.contains(w) && (*w != "owner" || owns_what_is_listed(&lower)))
        || (!head.is_empty() && lower.contains(&head))
}

/// Whether owners in an audience own what a marketplace lists (`property owners`,
/// `independent hotel owners`), rather than what its users book for (`dog owners` book
/// sitters, `homeowners` book plumbers).
fn owns_what_is_listed(audience: &str) -> bool {
    !audience.contains("homeowner")
        && [
            "property",
            "properties",
            "holiday home",
            "villa",
            "cottage",
            "apartment",
            "flat",
            "rental",
            "accommodation",
            "hotel",
            "guesthouse",
            "b&b",
            "cabin",
            "restaurant",
            "shop",
            "store",
            "salon",
            "studio",
        ]
        .iter()
        .any(|thing| audience.contains(thing))
}

/// Whether a marketplace's product line is sold to the side that lists (`Host
/// listings`, `Seller tools`), so its prompts speak from the host's or seller's seat.
pub fn is_supply_line(label: &str) -> bool {
    words_of(label).any(|w| {
        matches!(
            w.as_str(),
            "host"
                | "hosts"
                | "hosting"
                | "listing"
                | "listings"
                | "landlord"
                | "landlords"
                | "seller"
                | "sellers"
                | "selling"
                | "vendor"
                | "vendors"
                | "merchant"
                | "merchants"
        )
    })
}

/// How a customer gets what a marketplace lists: `book` stays and repairs, `hire` people.
pub fn marketplace_verb(noun: &Noun) -> (&'static str, &'static str) {
    // Made-to-order work (`CNC machining`, `sheet metal fabrication`) is ordered.
    if [
        "machining",
        "fabrication",
        "printing",
        "molding",
        "moulding",
        "casting",
        "manufacturing",
        "production",
        "prototyping",
        "forging",
        "engraving",
    ]
    .contains(&noun.head().as_str())
    {
        return ("order", "ordering");
    }
    // People to live with are found, not booked or hired.
    if ["flatmate", "roommate", "housemate", "lodger", "boarder"]
        .iter()
        .any(|w| noun.head().starts_with(w))
    {
        return ("find", "finding");
    }
    // An activity (`private tutoring`, `dog walking`) is booked; its people are hired.
    if is_gerund(&noun.head()) {
        return ("book", "booking");
    }
    // A place is rented (`storage spaces`, `parking spaces`) or booked (`coworking
    // spaces`), never hired.
    if noun.is_agent() && !noun.is_people() {
        let rented = ["storage", "parking", "garage", "locker", "warehouse"]
            .iter()
            .any(|w| noun.bare.to_lowercase().contains(w));
        return if rented {
            ("rent", "renting")
        } else {
            ("book", "booking")
        };
    }
    if noun.is_agent()
        || [
            "tradesperson",
            "tradespeople",
            "cleaner",
            "nanny",
            "tutor",
            "sitter",
            "walker",
        ]
        .iter()
        .any(|w| noun.bare.contains(w))
    {
        ("hire", "hiring")
    } else if ["project", "job", "task", "gig"]
        .iter()
        .any(|w| noun.head().starts_with(w))
    {
        ("post", "posting")
    } else if ["car", "product", "item", "good"]
        .iter()
        .any(|w| noun.head().starts_with(w))
        // Goods are bought (`second-hand furniture`, `handmade jewellery`).
        || matches!(
            crate::generate::offer::infer_kind(
                crate::brief::BusinessModel::Marketplace,
                &noun.bare
            ),
            Some(
                crate::brief::OfferKind::SecondHandGoods
                    | crate::brief::OfferKind::DurableGoods
                    | crate::brief::OfferKind::ConsumableGoods
            )
        )
    {
        ("buy", "buying")
    } else {
        ("book", "booking")
    }
}

/// Words that name a marketplace or platform rather than what is traded on it.
const PLATFORM_WORDS: &[&str] = &[
    "marketplaces",
    "marketplace",
    "platforms",
    "platform",
    "apps",
    "app",
    "sites",
    "site",
    "websites",
    "website",
    "booking",
    "bookings",
    "listings",
    "profiles",
    "online",
    // `sneaker resale`: what is bought is sneakers.
    "resale",
    "resales",
    // `horse classifieds`: what is bought is horses.
    "classifieds",
    "classified",
];

/// What a marketplace's users book, hire or buy through it, from a label such as `home
/// services marketplaces` (`home services`) or `Home repair bookings` (`home repairs`);
/// `None` when nothing is left once the platform words are gone.
pub fn marketplace_offer(label: &str) -> Option<String> {
    // `Ponies for sale`: the listing's wording, not what a buyer calls them.
    let label = label.trim();
    let label = label
        .len()
        .checked_sub(" for sale".len())
        .and_then(|at| label.get(at..).map(|tail| (at, tail)))
        .filter(|(_, tail)| tail.eq_ignore_ascii_case(" for sale"))
        .map_or(label, |(at, _)| &label[..at]);
    let words: Vec<&str> = label
        .split_whitespace()
        .filter(|w| !PLATFORM_WORDS.contains(&w.to_lowercase().as_str()))
        .collect();
    if words.is_empty()
        || (words.len() == 1
            && ["travel", "freelance", "local"].contains(&words[0].to_lowercase().as_str()))
    {
        return None;
    }
    let removed_head = label
        .split_whitespace()
        .last()
        .is_some_and(|w| PLATFORM_WORDS.contains(&w.to_lowercase().as_str()));
    let mut text = words.join(" ");
    // `horse and equestrian classifieds`: without its head, a joined label or a lone
    // adjective names no goods one can tell (`equestrian` is no thing).
    if removed_head
        && !is_plural(&text.to_lowercase())
        && (text.contains(" and ")
            || !text.contains(' ')
                && ["ian", "al", "ic", "ive", "ous"]
                    .iter()
                    .any(|end| text.to_lowercase().ends_with(end)))
    {
        return None;
    }
    // `pre-owned luxury` names a kind of goods by its adjective: `pre-owned luxury goods`.
    if text.rsplit(' ').next().is_some_and(|last| {
        [
            "luxury",
            "vintage",
            "designer",
            "pre-owned",
            "preloved",
            "secondhand",
            "second-hand",
            "used",
        ]
        .contains(&last.to_lowercase().as_str())
    }) {
        return Some(format!("{text} goods"));
    }
    // `home repair bookings` → `home repairs`: the bookings were of repairs.
    if removed_head
        && !is_plural(&text.to_lowercase())
        && !is_mass(
            &text
                .split_whitespace()
                .last()
                .unwrap_or_default()
                .to_lowercase(),
        )
    {
        if let Some((stem, last)) = text.rsplit_once(' ') {
            text = format!("{stem} {}", plural(last));
        } else {
            text = plural(&text);
        }
    }
    Some(text)
}

/// The category noun a business of this model is described by when the brief gives
/// nothing better, and the word in the brand's name it was taken from, if any.
pub fn fallback_offer(model: BusinessModel, brand: &str) -> (String, Option<String>) {
    const FROM_NAME: &[(&str, &str)] = &[
        ("dental", "dentists"),
        ("dentist", "dentists"),
        ("law", "lawyers"),
        ("legal", "lawyers"),
        ("accounting", "accountants"),
        ("accountants", "accountants"),
        ("physio", "physiotherapists"),
        ("vet", "vets"),
        ("plumbing", "plumbers"),
        ("fitness", "gyms"),
        ("gym", "gyms"),
        ("coffee", "coffee"),
        ("tea", "tea"),
        ("bakery", "bakeries"),
        ("clinic", "clinics"),
    ];
    for word in brand.split_whitespace() {
        let lower = word.to_lowercase();
        if let Some((_, noun)) = FROM_NAME.iter().find(|(w, _)| *w == lower) {
            return ((*noun).to_owned(), Some(word.to_owned()));
        }
    }
    let noun = match model {
        BusinessModel::Ecommerce => "products sold online",
        BusinessModel::Saas => "business software",
        BusinessModel::Services => "service providers",
        BusinessModel::Marketplace => "local services",
        BusinessModel::Manufacturer => "industrial components",
        BusinessModel::ContentMedia => "online guides",
        BusinessModel::Other => "local businesses",
    };
    (noun.to_owned(), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knives_and_shelves_lose_their_f() {
        assert_eq!(plural("knife"), "knives");
        assert_eq!(plural("shelf"), "shelves");
        assert_eq!(plural("cafe"), "cafes");
        assert_eq!(plural("roof"), "roofs");
        assert_eq!(plural("chef"), "chefs");
        assert_eq!(plural("bookshelf"), "bookshelves");
        assert_eq!(singular("knives"), "knife");
        assert_eq!(singular("bookshelves"), "bookshelf");
        assert_eq!(
            singular("Japanese kitchen knives"),
            "Japanese kitchen knife"
        );
    }

    #[test]
    fn a_shop_category_is_read_as_its_goods() {
        assert_eq!(
            without_shop("yarn and knitting supplies shop").as_deref(),
            Some("yarn and knitting supplies")
        );
        assert_eq!(
            without_shop("online furniture store").as_deref(),
            Some("furniture")
        );
        assert_eq!(
            without_shop("Specialist tea retailer").as_deref(),
            Some("tea")
        );
        assert_eq!(without_shop("running shop"), None);
        assert_eq!(without_shop("pet shop"), None);
        assert_eq!(without_shop("Le Creuset store"), None);
        assert_eq!(
            without_shop("Japanese kitchen knife store").as_deref(),
            Some("Japanese kitchen knives")
        );
        assert_eq!(without_shop("online shop"), None);
        assert_eq!(without_shop("shop"), None);
        assert_eq!(without_shop("first aid supplies"), None);
    }

    #[test]
    fn joined_labels_are_read_as_their_kinds() {
        let cases: &[(&str, &[&str])] = &[
            (
                "Climbing and mountaineering equipment",
                &["Climbing equipment", "mountaineering equipment"],
            ),
            (
                "Men's and women's running shoes",
                &["Men's running shoes", "women's running shoes"],
            ),
            (
                "Salt and pepper grinders",
                &["Salt grinders", "pepper grinders"],
            ),
            (
                "Wedding and event photography",
                &["Wedding photography", "event photography"],
            ),
            (
                "Building and contents insurance",
                &["Building insurance", "contents insurance"],
            ),
            (
                "Cleaning and pest control services",
                &["Cleaning services", "pest control services"],
            ),
            ("Board games and puzzles", &["Board games", "puzzles"]),
            ("Reviews and ratings", &["Reviews", "ratings"]),
            (
                "Vehicle and outdoor first aid kits",
                &["Vehicle first aid kits", "outdoor first aid kits"],
            ),
            (
                "EV and time-of-use plans",
                &["EV plans", "time-of-use plans"],
            ),
            (
                "ISO 14001 and ISO 45001 certification",
                &["ISO 14001 certification", "ISO 45001 certification"],
            ),
            (
                "Diwali and corporate gifting",
                &["Diwali gifting", "corporate gifting"],
            ),
            (
                "Beginner knitting and crochet kits",
                &["Beginner knitting kits", "crochet kits"],
            ),
            ("Natural and timber play", &["Natural play", "timber play"]),
            (
                "Knitting needles and crochet hooks",
                &["Knitting needles", "crochet hooks"],
            ),
            (
                "Soft tops and beginner boards",
                &["Soft tops", "beginner boards"],
            ),
            (
                "First aid refills and consumables",
                &["First aid refills", "First aid consumables"],
            ),
            (
                "Laptops and accessories",
                &["Laptops", "Laptop accessories"],
            ),
            ("Tents and awnings", &["Tents", "awnings"]),
            (
                "Freight market news and rates",
                &["Freight market news", "Freight market rates"],
            ),
            ("Plant pots and planters", &["Plant pots", "planters"]),
            (
                "Commercial fridges and freezers",
                &["Commercial fridges", "Commercial freezers"],
            ),
            (
                "Underbench fridges and freezers",
                &["Underbench fridges", "Underbench freezers"],
            ),
            ("NIS2 and compliance", &["NIS2 compliance"]),
            (
                "ELD and HOS compliance",
                &["ELD compliance", "HOS compliance"],
            ),
            (
                "Wine ratings and reviews",
                &["Wine ratings", "Wine reviews"],
            ),
            ("Yarn and knitting supplies", &["Yarn", "knitting supplies"]),
            ("Wool and merino yarn", &["Wool", "merino yarn"]),
            (
                "Prototyping and low-volume production",
                &["Prototyping", "low-volume production"],
            ),
            (
                "Pet sitting and dog walking",
                &["Pet sitting", "dog walking"],
            ),
            (
                "Knitting and crochet kits",
                &["Knitting kits", "crochet kits"],
            ),
            (
                "Accounting and payroll services",
                &["Accounting services", "payroll services"],
            ),
            (
                "Tax and accounting services",
                &["Tax services", "accounting services"],
            ),
            (
                "Indoor and outdoor furniture for schools",
                &[
                    "Indoor furniture for schools",
                    "outdoor furniture for schools",
                ],
            ),
        ];
        for (label, want) in cases {
            assert_eq!(kinds(label), *want, "{label}");
        }
        // One thing, or a reading we cannot be sure of: the label stays whole.
        for label in [
            "Managed detection and response",
            "Mid lengths and fish",
            "Pottery and terracotta",
            "Free articles and research",
            "Wool and the Gang",
            "Pets and other animals",
            "Bread, cakes and pastries",
            "Repository and renewal tracking",
            "Egg freezing cost and success rates",
            "Pros and cons of heat pumps",
            "Tents and awnings, gazebos",
            "Buying bedding and bath linens direct from the brand",
            "Booking pet sitting and dog walking in an app",
            "Brass and metal craft",
            "Trail running shoes",
            "Salt and pepper and spice",
            " and ",
            "and kits",
        ] {
            assert!(kinds(label).is_empty(), "{label}: {:?}", kinds(label));
        }
    }

    #[test]
    fn sales_regions_are_named_but_not_used_as_places() {
        let region = place("EMEA");
        assert_eq!(region.name, "Europe, the Middle East and Africa");
        assert_eq!(region.locative, "");
        assert!(!region.global);
        assert_eq!(place("UK").locative, " in the UK");
        assert!(place("Worldwide").global);
    }

    #[test]
    fn competitors_are_typed_from_notes_and_names() {
        use BusinessModel::{Ecommerce, Manufacturer, Saas, Services};
        let kind = |name, notes, model| competitor_kind(name, notes, model, false);
        assert_eq!(
            kind("Runners Need", Some("UK running retail chain"), Ecommerce),
            CompetitorKind::Retailer
        );
        assert_eq!(
            kind("BarkBox", None, Ecommerce),
            CompetitorKind::Subscription
        );
        assert_eq!(
            kind("Pawsome", Some("monthly treat subscription"), Ecommerce),
            CompetitorKind::Subscription
        );
        assert_eq!(
            kind(
                "Grainger",
                Some("sells on its own marketplace"),
                Manufacturer
            ),
            CompetitorKind::Marketplace
        );
        assert_eq!(kind("Zuke's", None, Ecommerce), CompetitorKind::Brand);
        // Only sellers of goods have such rivals: Dropbox is software, a chain of
        // accountants is a firm like the client.
        assert_eq!(kind("Dropbox", None, Saas), CompetitorKind::Brand);
        assert_eq!(
            kind("Crunch", Some("national chain of accountants"), Services),
            CompetitorKind::Brand
        );
        // `storefront` is not `store`.
        assert_eq!(
            kind("Shopify", Some("storefront builder"), Ecommerce),
            CompetitorKind::Brand
        );
    }

    #[test]
    fn goods_are_typed_by_what_they_are() {
        assert!(is_machine("Vertical form fill seal machines"));
        assert!(is_machine("Case packers"));
        assert!(!is_consumable("packaging machinery"));
        assert!(is_consumable("Compostable takeaway containers"));
        assert!(is_wearable("Merino running base layers"));
        assert!(is_wearable("mens shirts"));
        assert!(!is_wearable("Dog birthday cakes"));
        assert!(is_for_pets("Grain-free dog treats"));
        assert!(is_supply_line("Host listings"));
        assert!(!is_supply_line("Vetted freelance developers"));
    }

    #[test]
    fn nouns_know_number_and_modifier() {
        let shirts = Noun::parse("mens shirts", &[]);
        assert_eq!(shirts.bare, "men's shirts");
        assert_eq!(shirts.modifier, "men's shirt");
        assert_eq!(shirts.be(), "are");
        let payroll = Noun::parse("Payroll software", &[]);
        assert_eq!(payroll.bare, "payroll software");
        assert!(payroll.mass);
        assert_eq!(payroll.be(), "is");
        let newsletter = Noun::parse("Weekly investing newsletter", &[]);
        assert_eq!(newsletter.bare, "weekly investing newsletters");
        assert_eq!(
            newsletter.one.as_deref(),
            Some("a weekly investing newsletter")
        );
        let search = Noun::parse("Executive search for engineering leaders", &[]);
        assert!(search.mass, "{search:?}");
        let agencies = Noun::parse("tech recruitment agencies", &[]);
        assert_eq!(agencies.one.as_deref(), Some("a tech recruitment agency"));
        assert!(agencies.is_agent());
        assert!(Noun::parse("Expense tracking", &[]).mass);
        assert_eq!(
            Noun::parse("Dog birthday cakes", &[]).modifier,
            "dog birthday cake"
        );
        assert_eq!(
            Noun::parse("Fixed-price boxes", &[]).modifier,
            "fixed-price box"
        );
    }

    #[test]
    fn mass_nouns_have_a_plural_for_plural_slots() {
        assert_eq!(
            Noun::parse("specialty coffee", &[]).many(),
            "specialty coffee brands"
        );
        assert_eq!(
            Noun::parse("Payroll software", &[]).many(),
            "payroll software tools"
        );
        assert_eq!(
            Noun::parse("Tax advice", &[]).many(),
            "tax advice providers"
        );
        assert_eq!(
            Noun::parse("Trail running shoes", &[]).many(),
            "trail running shoes"
        );
    }

    #[test]
    fn goods_of_unseen_clients_take_the_right_number() {
        // Held-out briefs of session 26 read `braaises`, `workwears`, `refrigerations`
        // and `modest fashions`.
        assert_eq!(Noun::parse("Braais", &[]).bare, "braais");
        assert_eq!(Noun::parse("Braai", &[]).bare, "braais");
        assert_eq!(Noun::parse("Workwear", &[]).bare, "workwear");
        assert_eq!(
            Noun::parse("Commercial refrigeration", &[]).bare,
            "commercial refrigeration"
        );
        assert_eq!(Noun::parse("Modest fashion", &[]).bare, "modest fashion");
        assert_eq!(Noun::parse("Data analysis", &[]).bare, "data analyses");
    }

    #[test]
    fn firms_named_by_what_they_do_are_agents() {
        // `ferry operator providers` and `event organiser providers` name the firm twice.
        for firm in [
            "Ferry operator",
            "Event organisers",
            "Tour operators",
            "Removalists",
        ] {
            assert!(Noun::parse(firm, &[]).is_agent(), "{firm}");
        }
        for thing in ["Ferry crossings", "Cargo bikes", "Payroll software"] {
            assert!(!Noun::parse(thing, &[]).is_agent(), "{thing}");
        }
    }

    #[test]
    fn gerunds_are_actions() {
        assert!(is_gerund("Choosing"));
        assert!(is_gerund("switching"));
        assert!(!is_gerund("marketing"));
        assert!(!is_gerund("bookkeeping"));
        assert!(!is_gerund("ring"));
    }

    #[test]
    fn topics_name_their_subject() {
        assert_eq!(
            topic_subject("board game recommendations", &[]),
            "board games"
        );
        assert_eq!(
            topic_subject("parent communication app", &[]),
            "parent communication apps"
        );
        assert_eq!(topic_subject("ELD compliance", &[]), "ELD compliance");
        assert_eq!(topic_subject("weight loss", &[]), "weight loss");
        assert_eq!(
            topic_subject("gift ideas for dads", &[]),
            "gift ideas for dads"
        );
        assert_eq!(
            topic_subject("switching payroll service", &[]),
            "switching payroll service"
        );
    }

    #[test]
    fn topics_that_start_with_an_ing_word_are_actions_or_things() {
        for action in [
            "switching payroll providers",
            "hiking in winter",
            "running payroll",
            "cleaning a leather sofa",
            "buying and selling used cars",
            "building a website",
            "crossing Cook Strait with a car",
            "filing taxes",
            "cooking for a crowd",
            "camping",
        ] {
            assert!(is_activity_phrase(action), "{action}");
        }
        for thing in [
            "birding gear and feeders",
            "meeting and offsite venues",
            "building materials",
            "hiking boots",
            "running shoes",
            "cleaning products",
            "tracking devices",
            "marketing attribution",
            "Making Tax Digital compliance",
        ] {
            assert!(!is_activity_phrase(thing), "{thing}");
        }
    }

    #[test]
    fn people_are_plural() {
        let trades = Noun::parse("verified tradespeople", &[]);
        assert_eq!(trades.bare, "verified tradespeople");
        assert_eq!(trades.one.as_deref(), Some("a verified tradesperson"));
    }

    #[test]
    fn nouns_of_unseen_clients_read_as_english() {
        // Plural-only nouns count in pairs.
        let glasses = Noun::parse("Prescription glasses", &[]);
        assert_eq!(glasses.bare, "prescription glasses");
        assert_eq!(
            glasses.one.as_deref(),
            Some("a pair of prescription glasses")
        );
        // Mass nouns take no plural.
        assert_eq!(
            Noun::parse("Prescription eyewear", &[]).bare,
            "prescription eyewear"
        );
        assert!(Noun::parse("Bespoke joinery", &[]).mass);
        // A named kind of firm is its own provider noun.
        assert!(Noun::parse("moving companies", &[]).is_agent());
        assert!(Noun::parse("electricity retailers", &[]).is_agent());
        // An -ing noun that names a thing is no action, and one that counts is no mass.
        assert!(!is_gerund("Wedding"));
        assert!(is_gerund("Choosing"));
        assert!(!Noun::parse("freight news briefing", &[]).mass);
        // Institutions take `the`; brands and acronyms do not.
        assert_eq!(
            name_in_text("Marine Conservation Society"),
            "the Marine Conservation Society"
        );
        assert_eq!(name_in_text("RSPB"), "RSPB");
        let names = ["Marine Conservation Society", "WWF"];
        assert_eq!(
            articles_for_names(
                "Marine Conservation Society vs WWF: which is better?",
                &names
            ),
            "The Marine Conservation Society vs WWF: which is better?"
        );
        assert_eq!(
            articles_for_names(
                "Is WWF better than the Marine Conservation Society?",
                &names
            ),
            "Is WWF better than the Marine Conservation Society?"
        );
        assert_eq!(
            articles_for_names("What is Marine Conservation Society's record?", &names),
            "What is the Marine Conservation Society's record?"
        );
        assert_eq!(name_in_text("The Wine Society"), "The Wine Society");
        assert_eq!(
            short_audience("e-commerce brands shipping goods into Canada", &[]),
            "e-commerce brands"
        );
        assert_eq!(
            short_audience(
                "people over 60 planning and paying for their own funeral",
                &[]
            ),
            "people over 60"
        );
        assert!(!Noun::parse("whey protein", &[]).bare.ends_with('s'));
        // Buyers of a marketplace's goods are not its sellers.
        let cars = Noun::parse("used cars", &[]);
        assert!(!is_supply_side("first-time car buyers", &cars));
        assert!(is_supply_side("private sellers", &cars));
    }

    #[test]
    fn instructions_and_pairs_read_as_one_subject() {
        assert_eq!(
            gerund_topic("Find an architect").as_deref(),
            Some("finding an architect")
        );
        assert_eq!(gerund_topic("Rent collection"), None);
        assert_eq!(gerund_topic("Pick and pack efficiency"), None);
        assert_eq!(
            first_subject("gift pens and engraving").as_deref(),
            Some("gift pens")
        );
        assert_eq!(
            first_subject("field service and job management software"),
            None
        );
        assert_eq!(first_subject("scams and safety"), None);
        assert_eq!(first_subject("buying and selling used cars"), None);
    }

    #[test]
    fn searches_as_topics_read_as_what_they_ask() {
        let cases = [
            ("tree surgeon near me", Some("choosing a tree surgeon")),
            ("Cost of tree work", Some("tree work costs")),
            ("home rooftop solar cost", Some("home rooftop solar costs")),
            ("Dog grooming prices", None),
            ("stump grinding near me", Some("stump grinding")),
            (
                "moving companies near me",
                Some("choosing a moving company"),
            ),
            ("long-distance moving companies", None),
            ("Divorce solicitors", None),
            ("Cost of living guides", None),
            ("switching power company", None),
            ("emergency plumber", None),
            ("storage spaces", None),
            ("costs of X and Y", None),
            (
                "Pallet racking price and lead times",
                Some("Pallet racking prices"),
            ),
            (
                "Cost of pool maintenance in Arizona",
                Some("pool maintenance costs"),
            ),
            (
                "Emergency locksmith Dublin",
                Some("choosing an emergency locksmith"),
            ),
        ];
        for (topic, want) in cases {
            assert_eq!(search_topic(topic, &[], false).as_deref(), want, "{topic}");
        }
    }

    #[test]
    fn a_publication_of_two_fields_is_named_by_the_first() {
        assert_eq!(
            kinds("Banking and SSC exams"),
            ["Banking exams", "SSC exams"]
        );
        assert_eq!(
            first_field_outlets("government exam preparation and current affairs portal")
                .as_deref(),
            Some("government exam preparation portals")
        );
        assert_eq!(first_field_outlets("hiking guides and gear reviews"), None);
        assert_eq!(
            first_field_outlets("astronomy and stargazing publication"),
            None
        );
    }

    #[test]
    fn brands_are_named_as_people_say_them() {
        assert_eq!(
            spoken_name("Oakline Arboriculture Ltd").as_deref(),
            Some("Oakline Arboriculture")
        );
        assert_eq!(
            spoken_name("Rivebois Credit Union / Caisse Rivebois").as_deref(),
            Some("Rivebois Credit Union")
        );
        assert_eq!(spoken_name("Acme, Inc.").as_deref(), Some("Acme"));
        assert_eq!(spoken_name("Needle & Groove"), None);
        assert_eq!(spoken_name("Ltd"), None);
        assert_eq!(spoken_name("Docly Pvt Ltd").as_deref(), Some("Docly"));
        assert_eq!(
            spoken_name("Hart & Co Solicitors LLP").as_deref(),
            Some("Hart & Co Solicitors")
        );
        assert_eq!(spoken_name("The Limited"), None);
        assert_eq!(spoken_name("Wayfarer & Co."), None);
    }

    #[test]
    fn packs_are_packs_of_the_goods() {
        let sauce = Noun::parse("craft hot sauce", &[]);
        assert_eq!(
            format_of_goods("Variety packs", &sauce).as_deref(),
            Some("craft hot sauce variety packs")
        );
        assert_eq!(
            format_of_goods("Single bottles", &sauce).as_deref(),
            Some("single bottles of craft hot sauce")
        );
        assert_eq!(format_of_goods("Hot sauce gift sets", &sauce), None);
        assert_eq!(format_of_goods("Chilli jams", &sauce), None);
        assert_eq!(format_of_goods("Lunch boxes", &sauce), None);
        assert_eq!(format_of_goods("Jars", &sauce), None);
    }

    #[test]
    fn groups_of_rivals_are_told_from_names() {
        for group in [
            "local high-street accountants",
            "local tree surgeons on Checkatrade and MyBuilder",
            "Craigslist and Facebook Marketplace listings",
            "spreadsheets and Google Forms",
            "free YouTube teachers and Telegram PDF channels",
        ] {
            assert!(is_group_name(group), "{group}");
        }
        assert!(is_group_name("Local tree surgeons"));
        assert!(is_group_name("Chinese suppliers on Alibaba"));
        for name in [
            "Gristwood & Toms",
            "Two Men and a Truck",
            "Hays",
            "Public Storage",
            "Pets at Home",
        ] {
            assert!(!is_group_name(name), "{name}");
        }
    }

    #[test]
    fn places_are_rented_and_people_hired() {
        let noun = |s: &str| Noun::parse(s, &[]);
        assert_eq!(marketplace_verb(&noun("storage spaces")).0, "rent");
        assert_eq!(marketplace_verb(&noun("coworking spaces")).0, "book");
        assert_eq!(marketplace_verb(&noun("freelance developers")).0, "hire");
        assert!(!noun("storage spaces").is_people());
        assert!(noun("tree surgeons").is_people());
        assert!(is_plural("LPs") && is_plural("SUVs") && !is_plural("ops"));
        assert_eq!(plural("LPs"), "LPs");
        assert_eq!(
            kinds("New vinyl LPs and reissues"),
            ["New vinyl LPs", "New vinyl reissues"]
        );
    }

    #[test]
    fn places_read_as_english() {
        assert_eq!(place("Worldwide").locative, "");
        assert_eq!(place("Global").locative, "");
        assert_eq!(place("United Kingdom").locative, " in the UK");
        assert_eq!(place("United States").locative, " in the US");
        assert_eq!(place("US").locative, " in the US");
        assert_eq!(place("Germany").locative, " in Germany");
        assert_eq!(place("European Union").locative, " in the EU");
    }

    #[test]
    fn channels_are_typed() {
        assert_eq!(channel_kind("Amazon UK"), ChannelKind::Marketplace);
        assert_eq!(channel_kind("Distributors"), ChannelKind::Distributor);
        assert_eq!(
            channel_kind("industrial distributors"),
            ChannelKind::Distributor
        );
        assert_eq!(channel_kind("Trade shows"), ChannelKind::TradeShow);
        assert_eq!(channel_kind("Own website"), ChannelKind::OwnWebsite);
        assert_eq!(channel_kind("Mobile app"), ChannelKind::OwnApp);
        assert_eq!(channel_kind("Shopify App Store"), ChannelKind::AppStore);
        assert_eq!(
            channel_kind("Google Business Profile"),
            ChannelKind::LocalListing
        );
        assert_eq!(channel_kind("Capterra"), ChannelKind::ReviewSite);
        assert_eq!(channel_kind("YouTube"), ChannelKind::Social);
    }

    #[test]
    fn two_kinds_joined_are_plural_together() {
        let guides = Noun::parse("hiking guides and gear reviews", &[]);
        assert_eq!(guides.bare, "hiking guides and gear reviews");
        // Before another noun the first kind stands for both (`hiking guide sites`);
        // content banks still read both kinds from `joined_modifier`.
        assert_eq!(guides.modifier, "hiking guide");
        assert_eq!(
            joined_modifier(&guides, &[]),
            "hiking guide and gear review"
        );
        assert_eq!(guides.one.as_deref(), Some("a hiking guide"));
        assert!(!guides.mass);
        let mdr = Noun::parse("Managed detection and response", &[]);
        assert_eq!(mdr.one, None);
        assert!(mdr.mass);
        let providers = Noun::parse("managed detection and response providers", &[]);
        assert_eq!(
            providers.one.as_deref(),
            Some("a managed detection and response provider")
        );
        let linens = Noun::parse("bedding and bath linens", &[]);
        assert_eq!(linens.modifier, "bedding");
        assert_eq!(linens.one, None);
        assert_eq!(linens.be(), "are");
    }

    #[test]
    fn owners_list_only_what_they_own() {
        let offer = Noun::parse("pet sitting", &[]);
        assert!(!is_supply_side(
            "dog owners who work long office days",
            &offer
        ));
        assert!(!is_supply_side("homeowners", &offer));
        let stays = Noun::parse("holiday rentals", &[]);
        assert!(is_supply_side(
            "property owners who want to rent out a holiday home",
            &stays
        ));
        assert!(is_supply_side("independent hotel owners", &stays));
    }

    #[test]
    fn french_names_take_their_plural_on_the_head() {
        assert_eq!(Noun::parse("eau de parfum", &[]).bare, "eaux de parfum");
        assert_eq!(Noun::parse("Eaux de parfum", &[]).bare, "eaux de parfum");
        assert_eq!(Noun::parse("Eaux de parfum", &[]).modifier, "eau de parfum");
        assert_eq!(
            Noun::parse("eau de parfum", &[]).one.as_deref(),
            Some("an eau de parfum")
        );
    }

    #[test]
    fn goods_are_items_one_at_a_time() {
        let goods = Noun::parse("pre-owned luxury goods", &[]);
        assert_eq!(goods.one.as_deref(), Some("a pre-owned luxury item"));
        assert_eq!(goods.modifier, "pre-owned luxury goods");
    }

    #[test]
    fn phrases_take_their_plural() {
        let plural_phrase = |phrase: &str| Noun::parse(phrase, &[]).bare;
        assert_eq!(plural_phrase("laptop"), "laptops");
        assert_eq!(plural_phrase("hiking gear"), "hiking gear");
        assert_eq!(plural_phrase("tent"), "tents");
        assert_eq!(plural_phrase("camping stove"), "camping stoves");
        assert_eq!(plural_phrase("accessory"), "accessories");
    }

    #[test]
    fn audiences_are_shortened() {
        assert_eq!(
            short_audience("men aged 25-45 who buy clothing on Amazon and Walmart", &[]),
            "men"
        );
        assert_eq!(
            short_audience("HR managers at companies with 50 to 500 employees", &[]),
            "HR managers"
        );
        assert_eq!(short_audience("CTOs at Series A startups", &[]), "CTOs");
        for (description, short) in [
            (
                "wine tourists planning trips to Stellenbosch, Franschhoek and Constantia",
                "wine tourists",
            ),
            (
                "independent surf shops stocking boards",
                "independent surf shops",
            ),
            (
                "amateur genealogists tracing ancestors back before 1900",
                "amateur genealogists",
            ),
            ("women 18-35", "women"),
            ("families with kids 3-12", "families with kids"),
            (
                "architects, architectural technologists and Part 2/Part 3 students",
                "architects",
            ),
            (
                "people trying to avoid fake products and bleaching creams and want approved options",
                "people trying to avoid fake products",
            ),
            (
                "homeowners after a burglary wanting locks upgraded",
                "homeowners",
            ),
            (
                "nervous drivers and people returning to driving",
                "nervous drivers",
            ),
            (
                "people who took a DNA test and want to understand their matches",
                "people who took a DNA test",
            ),
            (
                "Americans and Canadians with Irish ancestry researching their family tree",
                "Americans and Canadians",
            ),
            ("B2B SaaS marketing teams", "B2B SaaS marketing teams"),
        ] {
            assert_eq!(short_audience(description, &[]), short, "{description}");
        }
        assert_eq!(short_audience("home cooks on a budget", &[]), "home cooks");
        assert_eq!(
            short_audience("families in Melbourne", &[]),
            "families in Melbourne"
        );
        assert_eq!(short_audience("freelancers", &[]), "freelancers");
        assert_eq!(
            short_audience("weekend hikers planning their first overnight trip", &[]),
            "weekend hikers"
        );
        assert_eq!(
            short_audience("tech companies sponsoring H-1B workers", &[]),
            "tech companies"
        );
        assert_eq!(short_audience("working parents", &[]), "working parents");
        assert_eq!(
            short_audience("B2B SaaS marketing teams", &[]),
            "B2B SaaS marketing teams"
        );
        assert_eq!(
            short_audience("parents of children building robots", &[]),
            "parents of children"
        );
        assert_eq!(
            short_audience("people over 50 getting back into exercise", &[]),
            "people over 50"
        );
        assert_eq!(
            short_audience(
                "owners and ops managers at small and mid-size fleets (10-200 vehicles) in construction",
                &[]
            ),
            "small and mid-size fleets"
        );
        assert_eq!(
            short_audience(
                "principals, trustees and admin heads at private K-12 schools (CBSE / ICSE), 300-3000 students",
                &[]
            ),
            "private K-12 schools"
        );
        assert_eq!(
            short_audience(
                "Kiwi families and campervan travellers crossing Cook Strait with a vehicle",
                &[]
            ),
            "Kiwi families"
        );
        assert_eq!(
            short_audience("founders and CFOs", &[]),
            "founders and CFOs"
        );
    }

    #[test]
    fn marketplaces_trade_what_users_book() {
        assert_eq!(
            marketplace_offer("home services marketplaces").as_deref(),
            Some("home services")
        );
        assert_eq!(
            marketplace_offer("Home repair bookings").as_deref(),
            Some("Home repairs")
        );
        assert_eq!(marketplace_offer("travel booking marketplace"), None);
        assert_eq!(
            marketplace_offer("Ponies for sale").as_deref(),
            Some("Ponies")
        );
        assert_eq!(
            marketplace_offer("horse classifieds").as_deref(),
            Some("horses")
        );
        assert_eq!(marketplace_offer("horse and equestrian classifieds"), None);
        assert_eq!(marketplace_offer("equestrian classifieds"), None);
        assert_eq!(
            marketplace_offer("pre-owned luxury marketplace").as_deref(),
            Some("pre-owned luxury goods")
        );
        let developers = Noun::parse("freelance developers", &[]);
        assert_eq!(marketplace_verb(&developers).0, "hire");
        assert_eq!(
            marketplace_verb(&Noun::parse("Private tutoring", &[])).0,
            "book"
        );
        assert_eq!(
            marketplace_verb(&Noun::parse("maths tutors", &[])).0,
            "hire"
        );
        assert_eq!(
            marketplace_verb(&Noun::parse("holiday rentals", &[])).0,
            "book"
        );
    }
}

/// Whether a noun phrase is plural by its last word (`quick weeknight dinners`), as
/// against a mass noun or an activity (`meal prep`, `index fund investing`, `analytics`).
pub fn is_plural_phrase(phrase: &str) -> bool {
    // Mass nouns ending in s that [`MASS`] does not list (it lists `analytics`).
    const MASS_IN_S: [&str; 8] = [
        "news",
        "logistics",
        "physics",
        "economics",
        "politics",
        "fitness",
        "business",
        "wellness",
    ];
    // The head noun comes before a place or purpose: `boutique hotels in Lisbon`.
    let lower = phrase.to_lowercase();
    let head = [" in ", " for ", " on ", " near ", " with ", " at ", " of "]
        .iter()
        .filter_map(|preposition| lower.find(preposition))
        .min()
        .map_or(lower.as_str(), |at| &lower[..at]);
    head.split_whitespace()
        .next_back()
        .map(str::to_lowercase)
        .is_some_and(|last| {
            last.len() > 3
                && last.ends_with('s')
                && !last.ends_with("ss")
                && !last.ends_with("us")
                && !is_mass(&last)
                && !MASS_IN_S.contains(&last.as_str())
        })
}

/// Whether content is followed step by step (guides, tutorials, recipes, courses), and so
/// judged by whether it works rather than by its independence.
pub fn is_howto_content(label: &str) -> bool {
    let lower = label.to_lowercase();
    [
        "guide",
        "tutorial",
        "recipe",
        "how-to",
        "walkthrough",
        "lesson",
    ]
    .iter()
    .any(|w| lower.split_whitespace().any(|word| word.starts_with(w)))
}

/// Whether providers of this kind hold a licence or a chartered status a client can
/// check (dentists, accountants, solicitors, electricians), as agencies do not.
pub fn is_regulated_profession(providers: &str) -> bool {
    let lower = providers.to_lowercase();
    is_local_practice(&lower)
        || [
            "accountant",
            "solicitor",
            "lawyer",
            "attorney",
            "notar",
            "surveyor",
            "architect",
            "financial adviser",
            "financial advisor",
            "tax adviser",
            "tax advisor",
            "auditor",
            "pharmac",
            "nurse",
            "therapist",
        ]
        .iter()
        .any(|w| lower.contains(w))
}

/// Whether a product is an electrical or electronic device (inverters, batteries,
/// chargers, sensors), compared by ratings rather than by what it is made of.
pub fn is_electronic(product: &str) -> bool {
    let lower = product.to_lowercase();
    [
        "inverter",
        "battery",
        "batteries",
        "charger",
        "sensor",
        "controller",
        "meter",
        "module",
        "drive",
        "motor",
        "storage system",
        "transformer",
        "electronic",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

/// Whether `word` is a verb of picking a provider (`choosing`, `finding`, `hiring`…): a
/// use case named with it is the choice of the offering itself.
pub fn is_choosing_verb(word: &str) -> bool {
    matches!(
        word.to_lowercase().as_str(),
        "choosing"
            | "finding"
            | "picking"
            | "selecting"
            | "comparing"
            | "hiring"
            | "booking"
            | "buying"
    )
}

/// How customers name a local listing channel: a business lists itself on Google Business
/// Profile, but people look for a plumber on Google Maps.
pub fn local_listing_name(channel: &str) -> String {
    let lower = channel.to_lowercase();
    if lower.starts_with("google") && (lower.contains("business") || lower.contains("profile")) {
        "Google Maps".to_owned()
    } else {
        channel.trim().to_owned()
    }
}

/// The work a service line names: `payroll` for `payroll services`, `accounting` for
/// `online accounting services`; other lines as they are (`SEO audits`).
pub fn service_activity(line: &str) -> String {
    // `online accounting services` are accounting done online: one does accounting
    // in-house, not "online accounting".
    let trimmed = line.trim();
    let trimmed = trimmed.strip_prefix("online ").unwrap_or(trimmed);
    // `payroll services` and `payroll software` are both about payroll; a saas line
    // named after its tools (`product analytics tools`) is about product analytics.
    [
        " services",
        " service",
        " software",
        " tools",
        " tool",
        " platforms",
        " platform",
        // `HR advice retainers` are HR advice paid for monthly.
        " retainers",
        " retainer",
    ]
    .iter()
    .find_map(|suffix| trimmed.strip_suffix(suffix))
    .unwrap_or(trimmed)
    .to_owned()
}

#[cfg(test)]
mod plural_phrase_tests {
    use super::{is_howto_content, is_plural_phrase, local_listing_name};

    #[test]
    fn local_listings_are_named_as_customers_name_them() {
        assert_eq!(local_listing_name("Google Business Profile"), "Google Maps");
        assert_eq!(local_listing_name("Google My Business"), "Google Maps");
        assert_eq!(local_listing_name("Yelp"), "Yelp");
    }

    #[test]
    fn plural_phrases_are_told_by_their_head_noun() {
        assert!(is_plural_phrase("quick weeknight dinners"));
        assert!(is_plural_phrase("boutique hotels in Lisbon"));
        assert!(is_plural_phrase("fleet charging cards"));
        assert!(!is_plural_phrase("meal prep"));
        assert!(!is_plural_phrase("index fund investing"));
        assert!(!is_plural_phrase("product analytics"));
        assert!(!is_plural_phrase("flexible office space for startups"));
        assert!(!is_plural_phrase("Making Tax Digital compliance"));
    }

    #[test]
    fn howto_content_is_guides_tutorials_and_recipes() {
        assert!(is_howto_content("PC build guides"));
        assert!(is_howto_content("home cooking recipes"));
        assert!(!is_howto_content("laptop reviews"));
        assert!(!is_howto_content("personal finance podcast"));
    }
}
