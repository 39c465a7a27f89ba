//! The brief's keywords asked as questions.
//!
//! A priority topic's seed keywords and a product line's priority keywords are the words
//! the client's buyers type (`carry-on that fits all airlines`, `hail damage roof repair
//! Denver`, `WMS Shopify integration`). An analyst turns each into the question a person
//! would ask an assistant (`Which carry-on fits all airlines?`, `How much does hail
//! damage roof repair cost in Denver?`, `Which WMS integrates with Shopify?`); such a
//! prompt stays on its topic in the client's own words, which the template banks cannot
//! promise for a topic they have no frames for (issue 8: questions filed under a topic
//! they never name).
//!
//! Only shapes whose question is certain are asked: a keyword this module cannot read
//! (`private chef Mallorca villa`, `renters rights act landlord checklist`) gives `None`
//! and leaves its slot to the templates.

use crate::brief::BusinessModel;
use crate::generate::funnel::Intent;
use crate::generate::phrasing;
use crate::generate::text;

/// A keyword asked as a question, with the intent that files it in the funnel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asked {
    pub intent: Intent,
    pub text: String,
}

/// Words a question starts with; a keyword that starts so is already a question.
const QUESTION_WORDS: &[&str] = &[
    "how", "what", "which", "where", "why", "when", "who", "can", "is", "are", "does", "do",
    "should", "will",
];

/// Verbs a keyword can start with (`find NDIS support worker`), and whether the thing
/// after them is chosen among others (then it takes `a`) or is the asker's own (`my`).
const VERBS: &[(&str, VerbKind)] = &[
    ("find", VerbKind::Choose),
    ("hire", VerbKind::Choose),
    ("book", VerbKind::Choose),
    ("choose", VerbKind::Choose),
    ("consign", VerbKind::Buy),
    ("adopt", VerbKind::Choose),
    ("buy", VerbKind::Buy),
    ("rent", VerbKind::Buy),
    ("switch", VerbKind::Own),
    ("cancel", VerbKind::Own),
    ("change", VerbKind::Own),
    ("replace", VerbKind::Own),
    ("fix", VerbKind::Own),
    ("repair", VerbKind::Own),
    ("sell", VerbKind::Learn),
    ("protect", VerbKind::Learn),
    ("donate", VerbKind::Learn),
    ("volunteer", VerbKind::Learn),
    ("send", VerbKind::Learn),
    ("create", VerbKind::Learn),
    ("collect", VerbKind::Learn),
    ("reduce", VerbKind::Learn),
    ("improve", VerbKind::Learn),
    ("prevent", VerbKind::Learn),
    ("avoid", VerbKind::Learn),
    ("automate", VerbKind::Learn),
    ("calculate", VerbKind::Learn),
    ("start", VerbKind::Learn),
    ("learn", VerbKind::Learn),
    ("plan", VerbKind::Learn),
    ("organise", VerbKind::Learn),
    ("organize", VerbKind::Learn),
    ("track", VerbKind::Learn),
    ("manage", VerbKind::Learn),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum VerbKind {
    Choose,
    Buy,
    Own,
    Learn,
}

/// Places written as acronyms after a keyword (`robotic mower UK`).
const PLACE_ACRONYMS: &[&str] = &["UK", "US", "USA", "EU", "UAE", "NZ", "NYC"];

/// Heads naming people or firms one hires (`patent attorney`, `roofing contractor`).
const PEOPLE: &[&str] = &[
    "accountant",
    "adviser",
    "advisor",
    "agency",
    "agent",
    "architect",
    "attorney",
    "babysitter",
    "bookkeeper",
    "broker",
    "builder",
    "carer",
    "caregiver",
    "chef",
    "cleaner",
    "clinic",
    "coach",
    "consultant",
    "contractor",
    "cook",
    "dentist",
    "designer",
    "developer",
    "doctor",
    "electrician",
    "firm",
    "freelancer",
    "groomer",
    "installer",
    "lawyer",
    "mechanic",
    "nanny",
    "notary",
    "nurse",
    "photographer",
    "physio",
    "physiotherapist",
    "planner",
    "plumber",
    "provider",
    "roofer",
    "sitter",
    "solicitor",
    "specialist",
    "surveyor",
    "therapist",
    "trainer",
    "translator",
    "tutor",
    "vendor",
    "vet",
    "walker",
    "worker",
];

/// Heads naming software (`landlord software`, `picking app`).
const SOFTWARE: &[&str] = &[
    "app",
    "apps",
    "crm",
    "dashboard",
    "erp",
    "platform",
    "portal",
    "repository",
    "scanner",
    "service",
    "software",
    "system",
    "tool",
    "tools",
    "tracker",
    "wms",
];

/// Heads naming a product of a service business, picked like goods (`green electricity
/// plan`, `travel insurance`, `coffee subscription`).
const PLANS: &[&str] = &[
    "account",
    "card",
    "course",
    "degree",
    "insurance",
    "loan",
    "membership",
    "mortgage",
    "package",
    "pass",
    "plan",
    "program",
    "programme",
    "subscription",
];

/// Heads naming what a publisher makes (`history podcast`, `agritech newsletter`).
const MEDIA: &[&str] = &[
    "blog",
    "book",
    "channel",
    "course",
    "documentary",
    "journal",
    "magazine",
    "newsletter",
    "podcast",
    "publication",
    "series",
    "show",
    "site",
    "website",
];

/// Heads naming work done for a client, asked about by its price where it is hired
/// (`roof replacement`, `patent drafting`, `podcast sponsorship`).
const WORK: &[&str] = &[
    "advertising",
    "hire",
    "lesson",
    "lessons",
    "rehab",
    "rental",
    "surgery",
    "therapy",
    "treatment",
    "care",
    "cleaning",
    "drafting",
    "installation",
    "litigation",
    "maintenance",
    "production",
    "removal",
    "repair",
    "replacement",
    "representation",
    "sponsorship",
];

/// Work counted one at a time, which takes `a` (`an EPO opposition`, `a roof inspection`).
const COUNTED_WORK: &[&str] = &[
    "application",
    "retainer",
    "appointment",
    "assessment",
    "audit",
    "check",
    "consultation",
    "inspection",
    "opinion",
    "opposition",
    "search",
    "survey",
    "valuation",
];

/// Heads of a keyword no question shape here fits (`landlord checklist`, `tenancy
/// rules`, `load rating`): their slots stay with the templates.
const UNREAD: &[&str] = &[
    "act",
    "animals",
    "cats",
    "dogs",
    "kittens",
    "order",
    "orders",
    "pets",
    "pre-orders",
    "puppies",
    "alternative",
    "alternatives",
    "certification",
    "delivery",
    "duties",
    "grants",
    "hours",
    "incentives",
    "label",
    "mandate",
    "mark",
    "rebates",
    "schedule",
    "standard",
    "subsidies",
    "subsidy",
    "taxes",
    "timetable",
    "times",
    "advice",
    "checklist",
    "help",
    "ideas",
    "info",
    "information",
    "law",
    "laws",
    "rating",
    "regulations",
    "requirements",
    "rules",
    "sizing",
    "support",
    "tips",
];

/// What the brief says outside a keyword that the keyword's reading needs: the names
/// of the brand and its rivals (never a place, never asked in discovery) and the
/// places the brief names (`Denver`, `Ireland`), so that `business account Pix` is not
/// read as a place.
#[derive(Debug, Clone, Default)]
pub struct Lexicon {
    pub names: Vec<String>,
    pub places: Vec<String>,
    /// Words the brief's labels write in capitals (`UPSC`, `SSC`), lower-cased: a
    /// keyword typing them in lower case (`optional subject for upsc`) means them.
    pub acronyms: Vec<String>,
    /// The brief's markets whole (`New Brunswick`), which keywords type in lower case.
    pub markets: Vec<String>,
    /// Every word of the brief's product lines, topics and category, lower-cased and
    /// singular: heads a maker's keyword surely names as goods (`racking`).
    pub goods: Vec<String>,
}

impl Lexicon {
    /// The names of the brief's brand and rivals, and its places: every word of its
    /// markets, and capitalised words after `in`, `near`, `across`… in its customers,
    /// topics, lines, goals and context (`homeowners in Denver`). `countries` are the
    /// markets as the brief wrote them, when the set is written for their regions
    /// (`India (Delhi NCR, Mumbai)`): a keyword still names the country (`in india`).
    pub fn of(brief: &crate::brief::Brief, countries: &[String]) -> Lexicon {
        let whole = |m: &String| crate::generate::text::without_aside(m).trim().to_owned();
        let mut names: Vec<String> = brief
            .competitors
            .iter()
            .map(|c| c.name.trim().to_owned())
            .collect();
        names.push(brief.brand_name.trim().to_owned());
        // Every market whole (`United Kingdom`) and word by word (`Kingdom` alone never
        // ends a keyword, `Ireland` of `Northern Ireland` does).
        let mut places: Vec<String> = brief
            .target_markets
            .iter()
            .chain(countries)
            .map(whole)
            .chain(
                brief
                    .target_markets
                    .iter()
                    .flat_map(|m| m.split_whitespace().map(str::to_owned)),
            )
            .collect();
        let mut texts: Vec<&str> = brief.target_customers.iter().map(String::as_str).collect();
        texts.extend(brief.priority_topics.iter().map(|t| t.name.as_str()));
        texts.extend(brief.core_product_lines.iter().map(|l| l.name.as_str()));
        texts.extend(brief.business_goals.iter().map(String::as_str));
        texts.extend(brief.optional_context.values().filter_map(|v| v.as_str()));
        for text in texts {
            let words: Vec<&str> = text
                .split_whitespace()
                .filter(|w| !w.eq_ignore_ascii_case("the"))
                .collect();
            for pair in words.windows(2) {
                let word = pair[1].trim_matches(|c: char| !c.is_alphanumeric());
                if matches!(
                    pair[0].to_lowercase().as_str(),
                    "in" | "near" | "across" | "around" | "throughout"
                ) && word.chars().next().is_some_and(char::is_uppercase)
                {
                    places.push(word.to_owned());
                }
            }
        }
        // A capitalised word that ends two keywords after a lower-case one is where the
        // client works (`hail damage roof repair Denver`, `roof replacement Denver`).
        let mut endings: Vec<&str> = brief
            .priority_topics
            .iter()
            .flat_map(|t| t.seed_keywords.iter())
            .chain(
                brief
                    .core_product_lines
                    .iter()
                    .flat_map(|l| l.priority_keywords.iter()),
            )
            .filter_map(|k| {
                let words: Vec<&str> = k.split_whitespace().collect();
                let n = words.len();
                (n >= 2
                    && words[n - 1].chars().next().is_some_and(char::is_uppercase)
                    && words[n - 2].chars().next().is_some_and(char::is_lowercase))
                .then(|| words[n - 1])
            })
            .collect();
        endings.sort_unstable();
        for pair in endings.windows(2) {
            if pair[0] == pair[1] && !places.iter().any(|p| p == pair[0]) {
                places.push(pair[0].to_owned());
            }
        }
        places.retain(|p| !names.iter().any(|n| n.eq_ignore_ascii_case(p)));
        let mut acronyms: Vec<String> = brief
            .priority_topics
            .iter()
            .map(|t| t.name.as_str())
            .chain(brief.core_product_lines.iter().map(|l| l.name.as_str()))
            .chain(brief.target_customers.iter().map(String::as_str))
            .chain(brief.optional_context.values().filter_map(|v| v.as_str()))
            .flat_map(str::split_whitespace)
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
            .filter(|w| is_acronym(w) && !PLACE_ACRONYMS.contains(w))
            // `customers in OR and ME`: letters that are also words (`or`, `me`, `it`)
            // would capitalise every keyword that uses the word.
            .filter(|w| {
                ![
                    "OR", "ME", "IT", "IN", "ON", "US", "DO", "HI", "AM", "AS", "AN", "AT", "BE",
                    "BY", "GO", "HE", "IF", "IS", "MY", "NO", "OF", "SO", "TO", "UP", "WE", "OK",
                ]
                .contains(w)
            })
            .map(str::to_lowercase)
            .collect();
        acronyms.sort_unstable();
        acronyms.dedup();
        let mut goods: Vec<String> = brief
            .core_product_lines
            .iter()
            .map(|l| l.name.as_str())
            .chain(brief.priority_topics.iter().map(|t| t.name.as_str()))
            .chain(
                brief
                    .optional_context
                    .get("category")
                    .and_then(|v| v.as_str()),
            )
            .flat_map(|t| t.split(|c: char| !c.is_alphanumeric() && c != '-'))
            .filter(|w| !w.is_empty())
            .map(|w| phrasing::singular(&w.to_lowercase()))
            .collect();
        goods.sort_unstable();
        goods.dedup();
        Lexicon {
            goods,
            names,
            places,
            acronyms,
            // Not a market that is an ordinary word too (`Global`, `Worldwide`, `Reading`).
            markets: brief
                .target_markets
                .iter()
                .chain(countries)
                .map(whole)
                .chain(countries.iter().flat_map(|m| aside_places(m)))
                .filter(|m| {
                    m.len() >= 4
                        && (m.contains(' ')
                            || ![
                                "global",
                                "worldwide",
                                "international",
                                "online",
                                "remote",
                                "nationwide",
                                "europe-wide",
                                "reading",
                                "bath",
                                "sale",
                                "nice",
                                "mobile",
                                "orange",
                                "victoria",
                                "georgia",
                                "jersey",
                            ]
                            .contains(&m.to_lowercase().as_str()))
                })
                .collect(),
        }
    }

    fn is_place(&self, word: &str) -> bool {
        // Keywords are typed in lower case (`buy vinyl online uk`); `us` is a
        // pronoun unless written `US`.
        PLACE_ACRONYMS.contains(&word)
            || word != "us" && PLACE_ACRONYMS.iter().any(|a| a.eq_ignore_ascii_case(word))
            || word.chars().next().is_some_and(char::is_uppercase)
                && self.places.iter().any(|p| p.eq_ignore_ascii_case(word))
    }
}

/// The places a market's aside names (`Ireland (Dublin city & county, Kildare, north
/// Wicklow)` → `Dublin`, `Kildare`, `Wicklow`), which keywords type in lower case (`cheap
/// locksmith dublin`) even when the set is written for the whole country.
fn aside_places(market: &str) -> Vec<String> {
    let Some(inner) = market
        .split_once('(')
        .and_then(|(_, rest)| rest.rsplit_once(')'))
        .map(|(inner, _)| inner)
    else {
        return Vec::new();
    };
    let mut places = Vec::new();
    for part in inner.split([',', ';', ':', '+', '&', '/', '–']) {
        // The longest run of capitalised words (`Mossel Bay`, `Dublin` of `Dublin city`).
        let run: Vec<&str> = part
            .split_whitespace()
            .skip_while(|w| !w.starts_with(|c: char| c.is_uppercase()))
            .take_while(|w| w.starts_with(|c: char| c.is_uppercase()))
            .collect();
        // Letters (`NSW`, `MI`) are read as places elsewhere, or are words (`OR`).
        if !(run.is_empty() || run.len() == 1 && text::is_acronym(run[0])) {
            places.push(run.join(" "));
        }
    }
    places
}

/// A place a keyword ends in, as a sentence writes it: `uk` → `the UK`, `nz` → `NZ`.
fn place_text(place: &str) -> String {
    match PLACE_ACRONYMS
        .iter()
        .find(|a| a.eq_ignore_ascii_case(place) && place != "us")
    {
        Some(acronym) => text::place_name(acronym),
        None => text::place_name(place),
    }
}

/// Letters every field types in lower case (`best suv under 15 lakh`, `ev vs petrol`) and
/// no reader takes for a word; a plural `s` stays lower case (`EVs`).
const TYPED_ACRONYMS: &[&str] = &[
    "suv", "ev", "phev", "gps", "tv", "pc", "usb", "crm", "erp", "seo", "vpn", "hvac", "diy",
    "gst", "vat", "kyc", "gdpr", "hipaa", "cctv", "ssd", "cpu", "gpu", "upi", "emi", "nri", "mba",
    "gmat", "ielts", "toefl", "hmrc", "irs", "ndis", "sme", "b2b", "b2c", "saas", "pos", "hr",
    "atv", "rv", "uv", "ipa",
];

/// Heads that, besides providers, are looked for in a place (`best hotels in goa`).
const LOCAL_HEADS: &[&str] = &[
    "companies",
    "services",
    "service",
    "shop",
    "shops",
    "store",
    "stores",
    "hotel",
    "hotels",
    "restaurant",
    "restaurants",
    "installers",
    "dealers",
    "schools",
    "clinics",
    "hospitals",
    "builders",
    "salon",
    "salons",
    "gym",
    "gyms",
    "courses",
    "classes",
];

/// Words after `in` that name a time or a way, not a place (`tyres in winter`, `in bulk`);
/// months, holidays and languages are [`text::is_proper_name`]'s.
const TIMES: &[&str] = &[
    "winter",
    "summer",
    "spring",
    "autumn",
    "fall",
    "may",
    "advance",
    "bulk",
    "stock",
    "person",
    "store",
    "cash",
    "private",
    "public",
    "school",
    "college",
    "hospital",
    "pregnancy",
    "rain",
    "snow",
    "heat",
    "time",
    "retirement",
    "divorce",
    "court",
    "trouble",
    "debt",
    "tiles",
];

/// First words of two-word places (`New York`, `South Africa`, `Gold Coast`).
const PLACE_FIRST_WORDS: &[&str] = &[
    "New", "San", "Santa", "Los", "Las", "St", "Saint", "Gold", "Hong", "South", "North", "East",
    "West", "Costa", "Sri", "Saudi", "Cape", "Puerto", "Buenos", "Rio", "Abu",
];

/// Objects of `for` that take no article (`for work`, `for sale`, `for back pain`).
const NO_ARTICLE: &[&str] = &[
    "business",
    // `garage storage for rent`, `vans for hire`.
    "rent",
    "hire",
    "lease",
    "cover",
    "coverage",
    "christmas",
    "college",
    "everyday",
    "fun",
    "home",
    "life",
    "money",
    "pain",
    "sale",
    "school",
    "solar",
    "summer",
    "tax",
    "travel",
    "university",
    "use",
    "wholesale",
    "winter",
    "work",
];

/// Words after which a keyword is no certain question: what they say needs a
/// person's reading (`fake protein powder`, `plant gift delivery`, `ferry times`).
const UNREAD_ANYWHERE: &[&str] = &[
    "fake",
    "counterfeit",
    "scam",
    "scams",
    "this",
    "today",
    "tonight",
    "week",
    "year",
    "it",
    "vs.",
    "bulk",
    "wholesale",
];

/// Audiences written at the end of a keyword (`vehicle tracking small business`).
const AUDIENCE_TAILS: &[(&[&str], &str)] = &[
    (&["small", "business"], " for a small business"),
    (&["small", "businesses"], " for small businesses"),
    (&["beginners"], " for beginners"),
    (&["startups"], " for startups"),
    (&["freelancers"], " for freelancers"),
];

/// Asks `keyword` as a question for a business of `model`. `None` when no shape fits.
pub fn question(keyword: &str, model: BusinessModel, lexicon: &Lexicon) -> Option<Asked> {
    read(keyword, model, lexicon).map(|asked| Asked {
        // Keywords are typed without capitals: `can i cancel` asks `Can I cancel?`.
        text: phrasing::fix_possessives(&asked.text)
            .split(' ')
            .map(|w| if w == "i" { "I" } else { w })
            .collect::<Vec<_>>()
            .join(" "),
        ..asked
    })
}

fn read(keyword: &str, model: BusinessModel, lexicon: &Lexicon) -> Option<Asked> {
    let keyword = keyword.split_whitespace().collect::<Vec<_>>().join(" ");
    if keyword.chars().any(|c| "\"/+&:;()[],!".contains(c)) {
        return None;
    }
    let keyword = keyword.trim_end_matches('?');
    // `which cheap fountain pen doesnt leak`: contractions typed without their apostrophe.
    let keyword = keyword
        .split(' ')
        .map(|w| match w {
            "doesnt" => "doesn't",
            "dont" => "don't",
            "isnt" => "isn't",
            "arent" => "aren't",
            "didnt" => "didn't",
            "whats" => "what's",
            "wheres" => "where's",
            "shouldnt" => "shouldn't",
            "wouldnt" => "wouldn't",
            "couldnt" => "couldn't",
            other => other,
        })
        .collect::<Vec<_>>()
        .join(" ");
    let keyword = keyword.as_str();
    // A keyword naming the brand or a rival belongs to another layer than discovery.
    if lexicon
        .names
        .iter()
        .any(|name| !name.is_empty() && text::mentions(keyword, name))
    {
        return None;
    }
    // `optional subject for upsc`: the brief writes `UPSC`; `best credit union in new
    // brunswick`: a market, written as the brief writes it.
    let mut keyword = keyword.to_owned();
    for market in &lexicon.markets {
        let lower = market.to_lowercase();
        let padded = format!(" {keyword} ");
        if lower != *market && padded.contains(&format!(" {lower} ")) {
            keyword = padded
                .replace(&format!(" {lower} "), &format!(" {market} "))
                .trim()
                .to_owned();
        }
    }
    let cased: Vec<String> = keyword
        .split(' ')
        .map(|w| {
            if lexicon.acronyms.iter().any(|a| a == w) || TYPED_ACRONYMS.contains(&w) {
                w.to_uppercase()
            } else if let Some(stem) = w
                .strip_suffix('s')
                .filter(|stem| TYPED_ACRONYMS.contains(stem))
            {
                format!("{}s", stem.to_uppercase())
            } else {
                w.to_owned()
            }
        })
        .collect();
    let words: Vec<&str> = cased.iter().map(String::as_str).collect();
    if words.len() < 2 || words.len() > 9 {
        return None;
    }
    let lower_words: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    if lower_words
        .iter()
        .any(|w| UNREAD_ANYWHERE.contains(&w.as_str()))
    {
        return None;
    }
    let first = lower_words[0].as_str();
    let (core, place) = split_place(&words, lexicon);
    // `plumber near me` reads; a lone word without a place says too little.
    if core.is_empty() || core.len() < 2 && place.is_empty() {
        return None;
    }
    if first == "how" && lower_words[1] == "to" && core.len() >= 4 {
        return Some(Asked {
            intent: Intent::SolutionEducation,
            text: format!("How do I {}{place}?", core[2..].join(" ")),
        });
    }
    if first == "where" && lower_words[1] == "to" && core.len() >= 4 {
        return Some(Asked {
            intent: Intent::Channels,
            text: format!("Where can I {}{place}?", core[2..].join(" ")),
        });
    }
    if QUESTION_WORDS.contains(&first) {
        if core.len() < 4 {
            return None;
        }
        let lower = keyword.to_lowercase();
        let intent = if lower.starts_with("how much") || lower.contains(" cost") {
            Intent::Pricing
        } else if first == "which" || lower.contains(" best ") {
            Intent::CategoryEvaluation
        } else {
            Intent::SolutionEducation
        };
        // `when do hummingbirds arrive BC`: a trailing place the brief does not name
        // still takes its `in`.
        let n = core.len();
        let (core, place) = if place.is_empty()
            && (is_acronym(core[n - 1]) || lexicon.is_place(core[n - 1]))
            && core[n - 2].chars().next().is_some_and(char::is_lowercase)
            && !is_preposition(core[n - 2])
            && !matches!(
                core[n - 2].to_lowercase().as_str(),
                "than" | "or" | "and" | "vs" | "versus" | "of" | "from" | "like"
            ) {
            (
                core[..n - 1].to_vec(),
                format!(" in {}", place_text(core[n - 1])),
            )
        } else {
            (core, place)
        };
        // `how often inspect pallet racking`: a bare verb after `how often` or `how long
        // to` is asked as `should I`.
        let mut words: Vec<&str> = core.clone();
        if words.len() > 3
            && first == "how"
            && matches!(words[1].to_lowercase().as_str(), "often" | "long")
            && !matches!(
                words[2].to_lowercase().as_str(),
                "do" | "does"
                    | "did"
                    | "is"
                    | "are"
                    | "should"
                    | "can"
                    | "will"
                    | "would"
                    | "to"
                    | "must"
                    | "have"
                    | "has"
            )
            && !words[2].ends_with('s')
            && !words[2].ends_with("ing")
        {
            words.insert(2, "should I");
        }
        return Some(Asked {
            intent,
            text: format!("{}{place}?", text::title(&words.join(" "))),
        });
    }
    let (core, audience) = split_audience(&core);
    let place = format!("{audience}{place}");
    if let Some(&(_, kind)) = VERBS.iter().find(|(verb, _)| *verb == first) {
        return asked_as_task(&core, kind, &place);
    }
    let lower: Vec<String> = core.iter().map(|w| w.to_lowercase()).collect();
    if lower.iter().any(|w| w == "vs" || w == "versus") {
        if lower.first().is_some_and(|w| w == "vs" || w == "versus")
            || lower.last().is_some_and(|w| w == "vs" || w == "versus")
        {
            return None;
        }
        // Two things compared read as `X vs Y: which is better?`; a measure on either
        // side (`ev vs petrol running cost`, `maintenance cost of maruti vs hyundai`) asks
        // which is better at it, and the keyword cannot say how.
        let at = lower
            .iter()
            .position(|w| w == "vs" || w == "versus")
            .unwrap_or_default();
        if at > 2 || core.len() - at - 1 > 2 || lower.iter().any(|w| is_preposition(w)) {
            return None;
        }
        return Some(Asked {
            intent: Intent::CategoryEvaluation,
            text: format!("{}{place}: which is better?", text::title(&core.join(" "))),
        });
    }
    if let Some(asked) = asked_as_best(&core, &lower, &place, model) {
        return asked;
    }
    if let Some(at) = lower.iter().position(|w| w == "that") {
        if at == 0 || at + 1 >= core.len() {
            return None;
        }
        return Some(Asked {
            intent: Intent::CategoryEvaluation,
            text: format!(
                "Which {} {}{place}?",
                core[..at].join(" "),
                core[at + 1..].join(" ")
            ),
        });
    }
    if let Some(asked) = asked_with_modifier(&core, &lower, &place, model) {
        return asked;
    }
    asked_by_head(&core, &lower, &place, model, lexicon)
}

/// `vehicle tracking small business` → (`vehicle tracking`, ` for a small business`);
/// `small business payroll` → (`payroll`, ` for a small business`).
fn split_audience<'a>(core: &[&'a str]) -> (Vec<&'a str>, &'static str) {
    if core.len() >= 3
        && core[0].eq_ignore_ascii_case("small")
        && core[1].eq_ignore_ascii_case("business")
    {
        return (core[2..].to_vec(), " for a small business");
    }
    for (tail, phrase) in AUDIENCE_TAILS {
        if core.len() > tail.len() + 1
            && core[core.len() - tail.len()..]
                .iter()
                .zip(tail.iter())
                .all(|(w, t)| w.eq_ignore_ascii_case(t))
            && !core[..core.len() - tail.len()]
                .iter()
                .any(|w| matches!(w.to_lowercase().as_str(), "for" | "with" | "about"))
        {
            return (core[..core.len() - tail.len()].to_vec(), phrase);
        }
    }
    (core.to_vec(), "")
}

/// `find NDIS support worker` → `How do I find an NDIS support worker?`.
fn asked_as_task(core: &[&str], kind: VerbKind, place: &str) -> Option<Asked> {
    let verb = core[0].to_lowercase();
    let object = &core[1..];
    if object.is_empty() {
        return None;
    }
    // `buy board games online Ireland free delivery` is a string of search words, and
    // `hire a chef Algarve` names a place the brief does not.
    if object.len() > 1
        && object
            .iter()
            .any(|w| w.chars().next().is_some_and(char::is_uppercase) && !is_acronym(w))
        || object
            .iter()
            .any(|w| matches!(w.to_lowercase().as_str(), "online" | "free" | "cheap"))
            && object.len() > 3
    {
        return None;
    }
    let object_text = object.join(" ");
    // `rent out my garage`: a particle of the verb comes before the object's own
    // determiner.
    let after_particle = match object.first().map(|w| w.to_lowercase()) {
        Some(w) if matches!(w.as_str(), "out" | "up" | "off" | "back" | "away" | "down") => 1,
        _ => 0,
    };
    let determined = object.get(after_particle).is_some_and(|w| {
        matches!(
            w.to_lowercase().as_str(),
            "a" | "an" | "the" | "my" | "your" | "our" | "their"
        )
    });
    let noun_end = object
        .iter()
        .position(|w| is_preposition(w))
        .unwrap_or(object.len());
    let object_text =
        if determined || noun_end == 0 || !is_singular_count(&head_of(&object[..noun_end])) {
            object_text
        } else {
            match kind {
                VerbKind::Choose | VerbKind::Buy => text::with_article(&object_text),
                VerbKind::Own => format!("my {object_text}"),
                VerbKind::Learn => object_text,
            }
        };
    let intent = match kind {
        VerbKind::Choose => Intent::VendorChoice,
        VerbKind::Buy => Intent::PurchaseDecision,
        VerbKind::Own => Intent::VendorChoice,
        VerbKind::Learn => Intent::SolutionEducation,
    };
    Some(Asked {
        intent,
        text: format!("How do I {verb} {object_text}{place}?"),
    })
}

fn is_preposition(word: &str) -> bool {
    matches!(
        word.to_lowercase().as_str(),
        "for" | "with" | "without" | "about" | "under" | "in" | "on" | "to" | "at" | "by"
    )
}

/// `best robot mower for steep lawn` → `What is the best robot mower for a steep lawn?`;
/// `most durable suitcase` → `What is the most durable suitcase?`. `None` when the
/// keyword is not a superlative; `Some(None)` when it is one this module cannot read.
fn asked_as_best(
    core: &[&str],
    lower: &[String],
    place: &str,
    model: BusinessModel,
) -> Option<Option<Asked>> {
    let (superlative, rest) = match lower.first().map(String::as_str) {
        Some("best" | "top") => ("best".to_owned(), &core[1..]),
        Some("most" | "least") if core.len() > 2 => {
            (format!("{} {}", lower[0], core[1]), &core[2..])
        }
        Some(word)
            if [
                "cheapest",
                "fastest",
                "lightest",
                "strongest",
                "safest",
                "quietest",
                "longest",
                "easiest",
                "smallest",
                "biggest",
                "largest",
            ]
            .contains(&word) =>
        {
            (word.to_owned(), &core[1..])
        }
        _ => return None,
    };
    // `best rotavator` reads; `best build` says too little.
    if rest.is_empty() || rest.len() == 1 && rest[0].chars().count() < 6 {
        return Some(None);
    }
    let (head, tail) = split_modifier(rest);
    let Some(head_word) = head.last().map(|w| w.to_lowercase()) else {
        return Some(None);
    };
    // `best ski resort Hokkaido`: a place the brief does not name.
    let capital = |w: &str| w.chars().next().is_some_and(char::is_uppercase) && !is_acronym(w);
    let named_last = head.last().is_some_and(|w| capital(w))
        || rest.len() >= 2
            && capital(rest[rest.len() - 1])
            && !capital(rest[rest.len() - 2])
            && !is_preposition(rest[rest.len() - 2]);
    if UNREAD.contains(&head_word.as_str()) || ends_as_adjective(&head_word) || named_last {
        return Some(None);
    }
    let head_text = match model {
        BusinessModel::Saas => software_phrase(&head),
        _ => head.join(" "),
    };
    let verb = if is_plural(&head_word) { "are" } else { "is" };
    Some(Some(Asked {
        intent: Intent::CategoryEvaluation,
        text: format!("What {verb} the {superlative} {head_text}{tail}{place}?"),
    }))
}

/// A software buyer's phrase named as software: `job management` → `job management
/// software`; `ELD`, `WMS`, `landlord software` stay.
fn software_phrase(words: &[&str]) -> String {
    let joined = words.join(" ");
    let head = head_of(words);
    let is_product = SOFTWARE.contains(&head.as_str())
        || words.last().is_some_and(|w| is_acronym(w))
        || PEOPLE.contains(&phrasing::singular(&head).as_str());
    let is_activity = head.ends_with("ment")
        || head.ends_with("tion")
        || head.ends_with("sion")
        || head == "analytics"
        || phrasing::is_mass_noun(&head) && !phrasing::is_gerund(&head);
    if !is_product && is_activity {
        format!("{joined} software")
    } else {
        joined
    }
}

/// Last words that are no noun (`glass door fridge commercial`, `glasses online`).
fn ends_as_adjective(word: &str) -> bool {
    matches!(
        word,
        "online"
            | "offline"
            | "cheap"
            | "commercial"
            | "industrial"
            | "professional"
            | "wholesale"
            | "delivered"
            | "near"
    ) || word.ends_with("ly")
        || word.ends_with("ed") && !word.ends_with("eed")
}

/// `carry-on with laptop pocket` → `Which carry-ons come with a laptop pocket?`;
/// `broadband without landline` → `Can I get broadband without a landline?`.
fn asked_with_modifier(
    core: &[&str],
    lower: &[String],
    place: &str,
    model: BusinessModel,
) -> Option<Option<Asked>> {
    let at = lower
        .iter()
        .position(|w| matches!(w.as_str(), "with" | "without" | "for" | "about"))?;
    if at == 0 || at + 1 >= core.len() {
        return Some(None);
    }
    let preposition = lower[at].as_str();
    // `linear guide interchangeable with HIWIN`: an adjective before `with`.
    let adjective = lower[at - 1].as_str();
    if preposition == "with" && matches!(adjective, "interchangeable" | "compatible") {
        let head = &core[..at - 1];
        if head.is_empty() {
            return Some(None);
        }
        return Some(Some(Asked {
            intent: Intent::CategoryEvaluation,
            text: format!(
                "Which {} are {adjective} with {}{place}?",
                plural_phrase(head),
                core[at + 1..].join(" ")
            ),
        }));
    }
    let head = &core[..at];
    // `horses for sale NSW`: what follows the sale is where.
    if preposition == "for"
        && lower.get(at + 1).is_some_and(|w| w == "sale")
        && core.len() <= at + 4
    {
        let rest = &core[at + 2..];
        // Only a name is a place (`NSW`); `cheap`, `by owner`, `under 5000` are not.
        if !rest
            .iter()
            .all(|w| w.starts_with(|c: char| c.is_uppercase()))
        {
            return Some(None);
        }
        let place = if rest.is_empty() {
            place.to_owned()
        } else {
            format!(" in {}{place}", text::place_name(&rest.join(" ")))
        };
        return Some(Some(Asked {
            intent: Intent::Channels,
            text: format!("Where can I find {} for sale{place}?", head.join(" ")),
        }));
    }
    let object = object_phrase(&core[at + 1..]);
    let head_word = head_of(head);
    if UNREAD.contains(&head_word.as_str())
        || ends_as_adjective(&head_word)
        || PRICES.contains(&head_word.as_str())
    {
        return Some(None);
    }
    let goods = matches!(
        model,
        BusinessModel::Ecommerce | BusinessModel::Manufacturer | BusinessModel::Saas
    );
    let hired = PEOPLE.contains(&phrasing::singular(&head_word).as_str())
        || SELLERS.contains(&phrasing::singular(&head_word).as_str())
        || PLANS.contains(&phrasing::singular(&head_word).as_str())
        || matches!(head_word.as_str(), "service" | "services");
    let text = match preposition {
        "without" if phrasing::is_mass_noun(&head_word) => {
            format!("Can I get {} without {object}{place}?", head.join(" "))
        }
        "without" if goods && (is_singular_count(&head_word) || is_plural(&head_word)) => {
            format!(
                "Which {} work without {object}{place}?",
                plural_phrase(head)
            )
        }
        // `travel insurance with medical conditions`: a plan covers what follows.
        "with" if PLANS.contains(&phrasing::singular(&head_word).as_str()) => {
            let verb = if is_plural(&head_word) { "are" } else { "is" };
            format!(
                "What {verb} the best {} with {object}{place}?",
                head.join(" ")
            )
        }
        "with"
            if model != BusinessModel::Services
                && model != BusinessModel::Other
                && (is_singular_count(&head_word) || is_plural(&head_word)) =>
        {
            format!("Which {} come with {object}{place}?", plural_phrase(head))
        }
        // A service is the best for someone only where it names who gives it.
        "for" | "about"
            if goods
                || hired
                || matches!(
                    model,
                    BusinessModel::ContentMedia | BusinessModel::Marketplace
                ) =>
        {
            let verb = if is_plural(&head_word) { "are" } else { "is" };
            let head_text = if model == BusinessModel::Saas {
                software_phrase(head)
            } else {
                head.join(" ")
            };
            format!("What {verb} the best {head_text} {preposition} {object}{place}?")
        }
        _ => return Some(None),
    };
    Some(Some(Asked {
        intent: Intent::CategoryEvaluation,
        text,
    }))
}

/// Heads naming a price, asked how much only where the keyword says of what.
const PRICES: &[&str] = &[
    "price", "prices", "cost", "costs", "fee", "fees", "rates", "tickets",
];

/// Heads naming who sells or makes (`braai manufacturers`, `board game shop`).
const SELLERS: &[&str] = &[
    "brand",
    "company",
    "dealer",
    "distributor",
    "maker",
    "manufacturer",
    "retailer",
    "shop",
    "store",
    "supplier",
    "wholesaler",
];

/// A keyword that is only a noun phrase, asked by what its last word names.
fn asked_by_head(
    core: &[&str],
    lower: &[String],
    place: &str,
    model: BusinessModel,
    lexicon: &Lexicon,
) -> Option<Asked> {
    let head = lower.last()?.as_str();
    let all = core.join(" ");
    let n = core.len();
    // `tickets near me` names a price of nothing.
    if n < 2 && PRICES.contains(&head) {
        return None;
    }
    // `WMS Shopify integration` → `Which WMS integrates with Shopify?`.
    if matches!(head, "integration" | "integrations")
        && n >= 3
        && core[n - 2].chars().next().is_some_and(char::is_uppercase)
    {
        return Some(Asked {
            intent: Intent::CategoryEvaluation,
            text: format!(
                "Which {} integrates with {}{place}?",
                core[..n - 2].join(" "),
                core[n - 2]
            ),
        });
    }
    // A place or name inside the phrase (`private chef Mallorca villa`), a preposition
    // no shape reads (`chef at home`, `invoicing per pick`) or a plural inside a noun
    // phrase (`acoustic panels offices`): no certain question.
    let all_names = core
        .iter()
        .all(|w| w.chars().next().is_some_and(char::is_uppercase));
    let inner_name = n > 1
        && !all_names
        && core[1..]
            .iter()
            .any(|w| w.chars().next().is_some_and(char::is_uppercase) && !is_acronym(w));
    // (`furniture removals cost` is a price of removals.)
    let inner_end = if PRICES.contains(&head) {
        n.saturating_sub(2)
    } else {
        n.saturating_sub(1)
    };
    let inner_plural = n > 2
        && lower[1..inner_end.max(1)].iter().any(|w| {
            is_plural(w)
                && !matches!(
                    w.as_str(),
                    "sports" | "kids" | "mens" | "womens" | "goods" | "maths" | "sales" | "glasses"
                )
        });
    if inner_name
        || inner_plural
        || lower.iter().any(|w| {
            matches!(
                w.as_str(),
                "at" | "per" | "from" | "near" | "in" | "on" | "by"
            )
        })
    {
        return None;
    }
    // `National Broadband Plan`, `Unitary Patent`: a name is asked what it is.
    if n >= 2 && all_names && core.iter().any(|w| !is_acronym(w)) {
        return Some(Asked {
            intent: Intent::SolutionEducation,
            text: format!("What is the {all}{place}?"),
        });
    }
    if UNREAD.contains(&head)
        || ends_as_adjective(head)
        || head == "guide"
            && !matches!(
                model,
                BusinessModel::Ecommerce | BusinessModel::Manufacturer
            )
            && !(model == BusinessModel::ContentMedia && n >= 3)
    {
        return None;
    }
    // `cheap campervan rental` → `Where can I find cheap campervan rental?`.
    if matches!(lower[0].as_str(), "cheap" | "affordable") && n >= 2 {
        return Some(Asked {
            intent: Intent::Pricing,
            text: format!(
                "Where can I find {}{place}?",
                if is_singular_count(head) {
                    text::with_article(&all)
                } else {
                    all
                }
            ),
        });
    }
    // `moving company quote` → `How do I get a moving company quote?`.
    if matches!(head, "quote" | "report" | "certificate")
        && n >= 2
        && model != BusinessModel::ContentMedia
    {
        return Some(Asked {
            intent: Intent::Pricing,
            text: format!("How do I get {}{place}?", text::with_article(&all)),
        });
    }
    // `lifetime warranty luggage` → `Which luggage brands offer a lifetime warranty?`.
    if let Some(at) = lower
        .iter()
        .position(|w| matches!(w.as_str(), "warranty" | "guarantee"))
        && at + 1 < n
        && matches!(
            model,
            BusinessModel::Ecommerce | BusinessModel::Manufacturer
        )
    {
        let feature = text::with_article(&core[..=at].join(" "));
        // `lifetime warranty suitcases` → `suitcase brands`.
        let goods = &core[at + 1..];
        let (last, rest) = goods.split_last()?;
        let last = if is_plural(last) {
            phrasing::singular(last)
        } else {
            (*last).to_owned()
        };
        let goods: Vec<&str> = rest.iter().copied().chain([last.as_str()]).collect();
        return Some(Asked {
            intent: Intent::Returns,
            text: format!("Which {} brands offer {feature}{place}?", goods.join(" ")),
        });
    }
    // `free roof inspection`.
    if lower[0] == "free" && n >= 2 {
        let offer = if is_singular_count(head) {
            text::with_article(&all)
        } else {
            all
        };
        return Some(Asked {
            intent: Intent::VendorChoice,
            text: format!("Who offers {offer}{place}?"),
        });
    }
    if head == "news" || head == "updates" {
        return Some(Asked {
            intent: Intent::CategoryEvaluation,
            text: format!("Where can I get the latest {all}{place}?"),
        });
    }
    if head == "trends" {
        return Some(Asked {
            intent: Intent::SolutionEducation,
            text: format!("What are the latest {all}{place}?"),
        });
    }
    // A publication's own kinds of piece (`freight market outlook`, `bike review`).
    if model == BusinessModel::ContentMedia
        && matches!(
            head,
            "review" | "reviews" | "report" | "outlook" | "analysis" | "forecast"
        )
    {
        let piece = if head == "review" {
            plural_phrase(core)
        } else {
            all
        };
        return Some(Asked {
            intent: Intent::CategoryEvaluation,
            text: format!(
                "Where can I find the latest {}{place}?",
                piece.strip_prefix("the ").unwrap_or(&piece)
            ),
        });
    }
    if PRICES.contains(&head) {
        // A price is no place's (`pool pump repair cost near me` asks the price).
        let place = if place == " near me" { "" } else { place };
        // `science museum tickets Rotterdam` → `How much are … tickets in Rotterdam?`;
        // `pump lifecycle cost` is a calculation, not a price one is quoted.
        let calculated = lower.iter().any(|w| {
            matches!(
                w.as_str(),
                "lifecycle" | "life-cycle" | "ownership" | "running" | "operating" | "total"
            )
        });
        if calculated || n < 3 && place.is_empty() {
            return None;
        }
        return Some(if matches!(head, "price" | "cost" | "costs") {
            Asked {
                intent: Intent::Pricing,
                text: format!("How much {} cost{place}?", does_thing(&core[..n - 1])),
            }
        } else if is_singular_count(head) {
            // `locksmith call out fee dublin`: one fee.
            Asked {
                intent: Intent::Pricing,
                text: format!("How much is {}{place}?", text::with_article(&all)),
            }
        } else {
            Asked {
                intent: Intent::Pricing,
                text: format!("How much are {all}{place}?"),
            }
        });
    }
    if head == "availability" {
        return Some(Asked {
            intent: Intent::NearTermBuying,
            text: format!("How do I check {all}{place}?"),
        });
    }
    let singular_head = phrasing::singular(head);
    let person = PEOPLE.contains(&singular_head.as_str());
    let seller = SELLERS.contains(&singular_head.as_str());
    let software =
        SOFTWARE.contains(&head) || model == BusinessModel::Saas && is_acronym(core[n - 1]);
    // Work hired by the job: a services or marketplace set asks its price, whether it is
    // named by a noun (`roof replacement`) or an activity (`termite baiting`).
    let work = WORK.contains(&head)
        || COUNTED_WORK.contains(&head)
        || matches!(model, BusinessModel::Services | BusinessModel::Marketplace)
            && phrasing::is_gerund(head);
    let plan = PLANS.contains(&singular_head.as_str());
    let hired = matches!(
        model,
        BusinessModel::Services | BusinessModel::Marketplace | BusinessModel::Other
    );
    if person && (hired || singular_head != "provider" && !software) {
        let text = if is_plural(head) {
            format!("Where can I find good {all}{place}?")
        } else {
            format!("How do I find a good {all}{place}?")
        };
        return Some(Asked {
            intent: Intent::VendorChoice,
            text,
        });
    }
    if seller {
        let text = if is_plural(head) {
            format!("Who are the best {all}{place}?")
        } else {
            format!("What is the best {all}{place}?")
        };
        return Some(Asked {
            intent: Intent::CategoryEvaluation,
            text,
        });
    }
    if work {
        return match model {
            BusinessModel::Saas => Some(Asked {
                intent: Intent::CategoryEvaluation,
                text: format!("What is the best software for {all}{place}?"),
            }),
            BusinessModel::Ecommerce | BusinessModel::Manufacturer => None,
            // `ceramic coating near me` looks for someone to do it, not a price.
            _ if place == " near me" => Some(Asked {
                intent: Intent::VendorChoice,
                text: format!("Where can I get {all} near me?"),
            }),
            _ => Some(Asked {
                intent: Intent::Pricing,
                text: format!("How much {} cost{place}?", does_thing(core)),
            }),
        };
    }
    // An activity (`batch picking`, `EICR tracking`) is done with software in a
    // software set; elsewhere it is no thing to pick a best of.
    let activity = phrasing::is_gerund(head)
        || head.ends_with("tion") && !COUNTED_WORK.contains(&head)
        || matches!(
            head,
            "reminder" | "reminders" | "checks" | "alert" | "alerts" | "reporting" | "review"
        );
    if activity {
        if model != BusinessModel::Saas {
            return None;
        }
        // `gas safety certificate reminder` → `… for gas safety certificate reminders`.
        let done = if matches!(head, "reminder" | "alert") {
            plural_phrase(core)
        } else {
            all
        };
        return Some(Asked {
            intent: Intent::CategoryEvaluation,
            text: if phrasing::is_gerund(head)
                || matches!(
                    head,
                    "reminder" | "reminders" | "alert" | "alerts" | "checks" | "review"
                ) {
                format!("What is the best software for {done}{place}?")
            } else {
                format!("What is the best {done} software{place}?")
            },
        });
    }
    // `pilot custom 74 uk`, `twsbi diamond 580`, `sauna heater 9kw`: a model number ends
    // the name of one product, which has no best of (`30 minute dinners` are many).
    if core
        .last()
        .is_some_and(|w| w.chars().any(|c| c.is_ascii_digit()))
    {
        return None;
    }
    let verb = if is_plural(head) { "are" } else { "is" };
    // `company logo hi vis`, `mobile scanner picking app`: four words and more before a
    // best of read as a string of search words.
    let makers = model == BusinessModel::Manufacturer || model == BusinessModel::Saas && software;
    // A plural kind of four words is still a list one asks for (`grain free dog treats`).
    if n >= 5 || n == 4 && !makers && !is_plural(head) {
        return None;
    }
    // An audience tail (` for a small business`) is no place.
    let place_named = !place.is_empty() && !place.starts_with(" for ");
    match model {
        // What a software buyer names (`recurring invoices`) is done with software.
        BusinessModel::Saas if !software => Some(Asked {
            intent: Intent::CategoryEvaluation,
            text: if phrasing::is_mass_noun(head) || head == "analytics" {
                format!("What is the best {all} software{place}?")
            } else {
                format!("What is the best software for {all}{place}?")
            },
        }),
        // A bookable thing (`hot desk`, `private office`) has no best of its own; a
        // place (`kids museum Rotterdam`) or a kind of many (`rainy day activities`) has.
        BusinessModel::Services | BusinessModel::Marketplace | BusinessModel::Other
            if !software && !plan && !place_named && !is_plural(head) =>
        {
            None
        }
        // A subject a publication follows (`agriculture policy India`) is asked about in
        // the news; other single things of a publisher's field are left to the templates.
        BusinessModel::ContentMedia
            if !MEDIA.contains(&singular_head.as_str()) && !is_plural(head) =>
        {
            lower
                .iter()
                .any(|w| {
                    matches!(
                        w.as_str(),
                        "policy"
                            | "market"
                            | "industry"
                            | "funding"
                            | "economy"
                            | "politics"
                            | "regulation"
                            | "business"
                            | "startups"
                    )
                })
                .then(|| Asked {
                    intent: Intent::CategoryEvaluation,
                    text: format!("Where can I get the latest news on {all}{place}?"),
                })
        }
        // `custom CNC parts near me`, `dhokra art online`: a search for where to get
        // them, not for a best of.
        BusinessModel::Ecommerce | BusinessModel::Marketplace
            if (matches!(place, " online" | " near me") || place.starts_with(" online in "))
                && (is_plural(head) || phrasing::is_mass_noun(head)) =>
        {
            Some(Asked {
                intent: Intent::CategoryEvaluation,
                text: format!("Where can I find {all}{place}?"),
            })
        }
        // `pallet racking toronto`, `used racking kijiji`: a head that is none of the
        // brief's goods and ends as English nouns rarely do is a place or a site, and is
        // not made (not `torontos`).
        BusinessModel::Manufacturer
            if !software
                && !lexicon.goods.contains(&singular_head)
                && singular_head.ends_with(['a', 'i', 'o', 'u']) =>
        {
            None
        }
        BusinessModel::Manufacturer if !software => Some(Asked {
            intent: Intent::CategoryEvaluation,
            text: format!(
                "Who makes the best {}{place}?",
                if phrasing::is_mass_noun(head) {
                    all
                } else {
                    plural_phrase(core)
                }
            ),
        }),
        _ => Some(Asked {
            intent: Intent::CategoryEvaluation,
            text: format!("What {verb} the best {all}{place}?"),
        }),
    }
}

/// `rotary tiller` → `does a rotary tiller`; `furniture removals` → `do furniture
/// removals`; `roof replacement` → `does roof replacement`.
fn does_thing(words: &[&str]) -> String {
    let joined = words.join(" ");
    let head = head_of(words);
    if is_plural(&head) {
        format!("do {joined}")
    } else if COUNTED_WORK.contains(&head.as_str())
        || PEOPLE.contains(&head.as_str())
        || is_singular_count(&head) && !WORK.contains(&head.as_str())
    {
        format!("does {}", text::with_article(&joined))
    } else {
        format!("does {joined}")
    }
}

/// Splits a trailing place off a keyword: `hail damage roof repair Denver` → (`hail
/// damage roof repair`, ` in Denver`); `roofing contractor near me` → ` near me`;
/// `cheap prescription glasses online` → ` online`. Only places the brief names count.
fn split_place<'a>(words: &[&'a str], lexicon: &Lexicon) -> (Vec<&'a str>, String) {
    let n = words.len();
    if n >= 3
        && words[n - 2].eq_ignore_ascii_case("near")
        && words[n - 1].eq_ignore_ascii_case("me")
    {
        return (words[..n - 2].to_vec(), " near me".to_owned());
    }
    if n >= 3 && words[n - 1].eq_ignore_ascii_case("online") {
        return (words[..n - 1].to_vec(), " online".to_owned());
    }
    // `buy vinyl online uk`: online, in the place.
    if n >= 4 && words[n - 2].eq_ignore_ascii_case("online") && lexicon.is_place(words[n - 1]) {
        return (
            words[..n - 2].to_vec(),
            format!(" online in {}", place_text(words[n - 1])),
        );
    }
    // `Sydney family day out`: a place the brief names, written first.
    let demonym = |w: &str| {
        ["ian", "ean", "ican", "ese", "ish", "ern"]
            .iter()
            .any(|e| w.ends_with(e))
    };
    if n >= 3 && lexicon.is_place(words[0]) && !is_acronym(words[0]) && !demonym(words[0]) {
        return (words[1..].to_vec(), format!(" in {}", place_text(words[0])));
    }
    for size in [2, 1] {
        if n <= size {
            continue;
        }
        let tail = &words[n - size..];
        let known = if size == 2 {
            PLACE_FIRST_WORDS.contains(&tail[0])
                && tail[1].chars().next().is_some_and(char::is_uppercase)
                || lexicon
                    .places
                    .iter()
                    .any(|p| p.eq_ignore_ascii_case(&tail.join(" ")))
        } else {
            lexicon.is_place(tail[0])
        };
        if !known {
            continue;
        }
        let place = tail.join(" ");
        let before = words[n - size - 1].to_lowercase();
        // `boutique hotels in Lisbon`, `birding spots near Toronto`: the keyword's own
        // preposition goes with its place.
        let (end, preposition) = match before.as_str() {
            "in" | "near" if n > size + 1 => (n - size - 1, before.clone()),
            // `golf courses in the Algarve`: the article goes too (`place_name` gives
            // the place its own).
            "the"
                if n > size + 2
                    && matches!(words[n - size - 2].to_lowercase().as_str(), "in" | "near") =>
            {
                (n - size - 2, words[n - size - 2].to_lowercase())
            }
            _ => (n - size, "in".to_owned()),
        };
        return (
            words[..end].to_vec(),
            format!(" {preposition} {}", place_text(&place)),
        );
    }
    (words.to_vec(), String::new())
}

/// Splits `robot mower for steep lawn` into the head words and ` for a steep lawn`.
fn split_modifier<'a>(words: &[&'a str]) -> (Vec<&'a str>, String) {
    match words.iter().position(|w| {
        matches!(
            w.to_lowercase().as_str(),
            "for" | "with" | "without" | "about" | "under" | "in" | "on" | "to" | "near"
        )
    }) {
        // `best site to resell sneakers`: a verb follows `to`, and takes no article.
        Some(at) if at > 0 && at + 1 < words.len() && words[at].eq_ignore_ascii_case("to") => (
            words[..at].to_vec(),
            if words.len() > at + 2 {
                format!(" to {} {}", words[at + 1], object_phrase(&words[at + 2..]))
            } else {
                format!(" to {}", words[at + 1])
            },
        ),
        // `best rooftop solar company in pune`: one word after a final `in` or `near`
        // is a place (`in Pune`), not a thing to count, unless it names a time.
        Some(at)
            if at > 0
                && at + 2 == words.len()
                && matches!(words[at].to_lowercase().as_str(), "in" | "near")
                && words[at + 1].chars().all(|c| c.is_ascii_lowercase())
                && words[at + 1].len() > 2
                && !TIMES.contains(&words[at + 1])
                // Months, holidays and languages (`in march`, `in english`).
                && !text::is_proper_name(words[at + 1])
                // Only a provider is found in a place (`company in pune`); `rings in
                // gold` and `masters in finance` say what, not where.
                && (phrasing::Noun::parse(words[at - 1], &[]).is_agent()
                    || LOCAL_HEADS.contains(&words[at - 1].to_lowercase().as_str())) =>
        {
            (
                words[..at].to_vec(),
                format!(
                    " {} {}",
                    words[at].to_lowercase(),
                    text::title(words[at + 1])
                ),
            )
        }
        Some(at) if at > 0 && at + 1 < words.len() => (
            words[..at].to_vec(),
            format!(
                " {} {}",
                words[at].to_lowercase(),
                object_phrase(&words[at + 1..])
            ),
        ),
        Some(_) => (Vec::new(), String::new()),
        None => (words.to_vec(), String::new()),
    }
}

/// The object of a preposition, with `a` before a singular count noun (`for a steep
/// lawn`, `without a landline`); names, plurals, mass nouns and objects such as `work`
/// or `sale` stay as they are, and so does a phrase led by a plural (`runners knee`).
fn object_phrase(words: &[&str]) -> String {
    let joined = words.join(" ");
    let capital = |w: &&str| w.chars().next().is_some_and(char::is_uppercase) && !is_acronym(w);
    // A number or a price is no count noun (`under 10 lakh`, `for 2 people`, `under $500`).
    let numeric = words
        .first()
        .is_some_and(|w| w.starts_with(|c: char| c.is_ascii_digit() || "$£€₹".contains(c)));
    let determined = numeric
        || words.first().is_some_and(|w| {
        matches!(
            w.to_lowercase().as_str(),
            "a" | "an"
                | "the"
                | "my"
                | "your"
                | "all"
                | "any"
                | "every"
                | "each"
                | "over"
                | "under"
        ) || capital(w)
            || words.len() > 1 && is_plural(&w.to_lowercase())
    }) || words.last().is_some_and(capital)
        // An exam or body named by its letters takes no article (`for UPSC`, `for SSC
        // CGL`); a lower-case word without vowels is such letters.
        || words.last().is_some_and(|w| {
            is_acronym(w)
                || w.len() >= 2
                    && w.chars().all(|c| c.is_ascii_lowercase() && !"aeiouy".contains(c))
        });
    let head = head_of(words);
    if determined || NO_ARTICLE.contains(&head.as_str()) || !is_singular_count(&head) {
        joined
    } else {
        text::with_article(&joined)
    }
}

/// The plural of a noun phrase by its last word (`robot mower` → `robot mowers`).
fn plural_phrase(words: &[&str]) -> String {
    let Some((last, rest)) = words.split_last() else {
        return String::new();
    };
    let last = if is_plural(&last.to_lowercase()) || phrasing::is_mass_noun(last) {
        (*last).to_owned()
    } else {
        phrasing::plural(last)
    };
    rest.iter()
        .copied()
        .chain(std::iter::once(last.as_str()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The last word of a phrase, lowered.
fn head_of(words: &[&str]) -> String {
    words.last().map(|w| w.to_lowercase()).unwrap_or_default()
}

fn is_plural(word: &str) -> bool {
    let word = word.to_lowercase();
    phrasing::is_plural(&word) && !phrasing::is_mass_noun(&word) && word != "news"
}

/// A noun counted one at a time and written in the singular (`lawn`, `landline`): not
/// plural, not mass, no acronym or number.
/// What a `best …` search lists, in the plural running text needs: `car under 10 lakh`
/// → `cars under 10 lakh`, `laptop for students` → `laptops for students`; plurals, mass
/// nouns and names stay as they are (`baby products`, `coffee`, `Nexon EV`).
pub fn listed_plural(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let end = words
        .iter()
        .position(|w| {
            matches!(
                w.to_lowercase().as_str(),
                "under"
                    | "below"
                    | "over"
                    | "for"
                    | "with"
                    | "without"
                    | "in"
                    | "near"
                    | "from"
                    | "to"
                    | "on"
                    | "at"
                    | "of"
            )
        })
        .unwrap_or(words.len());
    let Some(head) = end.checked_sub(1).and_then(|at| words.get(at)) else {
        return text.to_owned();
    };
    if !words[..end]
        .iter()
        .all(|w| w.chars().all(|c| c.is_lowercase() || c == '-'))
        || !is_singular_count(head)
    {
        return text.to_owned();
    }
    let mut out: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
    out[end - 1] = phrasing::plural(head);
    out.join(" ")
}

fn is_singular_count(word: &str) -> bool {
    let word = word.to_lowercase();
    word.chars().all(|c| c.is_alphabetic() || c == '-')
        && !is_plural(&word)
        && !phrasing::is_mass_noun(&word)
        && !phrasing::is_gerund(&word)
        && !WORK.contains(&word.as_str())
        && (!word.ends_with("tion") || COUNTED_WORK.contains(&word.as_str()))
        && !matches!(word.as_str(), "news" | "software" | "broadband")
}

fn is_acronym(word: &str) -> bool {
    text::is_acronym(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(keyword: &str, model: BusinessModel) -> Option<String> {
        let lexicon = Lexicon {
            acronyms: vec!["upsc".into()],
            goods: Vec::new(),
            markets: vec!["New Brunswick".into(), "Canada".into(), "India".into()],
            names: vec!["Husqvarna".into(), "HIWIN".into(), "Pix".into()],
            places: [
                "United Kingdom",
                "Denver",
                "Ireland",
                "Munich",
                "Rotterdam",
                "Netherlands",
                "India",
                "Germany",
                "Algarve",
                "Lisbon",
                "Toronto",
                "Australia",
                "Ontario",
                "Singapore",
            ]
            .map(String::from)
            .to_vec(),
        };
        question(keyword, model, &lexicon).map(|asked| asked.text)
    }

    #[test]
    fn shapes_read_as_questions() {
        use BusinessModel::*;
        let cases = [
            (
                "best place to buy vinyl online uk",
                Ecommerce,
                "What is the best place to buy vinyl online in the UK?",
            ),
            (
                "herd recording software nz",
                Saas,
                "What is the best herd recording software in NZ?",
            ),
            (
                "best rooftop solar company in pune",
                Services,
                "What is the best rooftop solar company in Pune?",
            ),
            (
                "best credit union in new brunswick",
                Other,
                "What is the best credit union in New Brunswick?",
            ),
            (
                "best optional subject for upsc",
                ContentMedia,
                "What is the best optional subject for UPSC?",
            ),
            (
                "best free mock test for ssc cgl",
                ContentMedia,
                "What is the best free mock test for ssc cgl?",
            ),
            (
                "the hindu editorial analysis",
                ContentMedia,
                "Where can I find the latest hindu editorial analysis?",
            ),
            (
                "how to rent out my garage",
                Marketplace,
                "How do I rent out my garage?",
            ),
            (
                "best garage storage for rent",
                Marketplace,
                "What is the best garage storage for rent?",
            ),
            (
                "lifetime warranty suitcases",
                Ecommerce,
                "Which suitcase brands offer a lifetime warranty?",
            ),
            (
                "insurance plans with dental cover",
                Other,
                "What are the best insurance plans with dental cover?",
            ),
            (
                "ux course with certificate",
                Other,
                "What is the best ux course with a certificate?",
            ),
            (
                "where to buy a sofa United Kingdom",
                Ecommerce,
                "Where can I buy a sofa in the UK?",
            ),
            (
                "should i learn Python first",
                Other,
                "Should I learn Python first?",
            ),
            ("should i learn Python", Other, "Should I learn Python?"),
            (
                "best carry-on suitcase",
                Ecommerce,
                "What is the best carry-on suitcase?",
            ),
            (
                "best history podcasts",
                ContentMedia,
                "What are the best history podcasts?",
            ),
            (
                "most durable suitcase",
                Ecommerce,
                "What is the most durable suitcase?",
            ),
            (
                "best robot mower for steep lawn",
                Manufacturer,
                "What is the best robot mower for a steep lawn?",
            ),
            (
                "how often inspect pallet racking",
                Manufacturer,
                "How often should I inspect pallet racking?",
            ),
            (
                "which cheap fountain pen doesnt leak",
                Ecommerce,
                "Which cheap fountain pen doesn't leak?",
            ),
            (
                "best suv under 15 lakh",
                ContentMedia,
                "What is the best SUV under 15 lakh?",
            ),
            (
                "best electric car in india",
                ContentMedia,
                "What is the best electric car in India?",
            ),
            (
                "carry-on that fits all airlines",
                Ecommerce,
                "Which carry-on fits all airlines?",
            ),
            (
                "hardside vs softside carry-on",
                Ecommerce,
                "Hardside vs softside carry-on: which is better?",
            ),
            (
                "carry-on with laptop pocket",
                Ecommerce,
                "Which carry-ons come with a laptop pocket?",
            ),
            (
                "robot mower without boundary wire",
                Manufacturer,
                "Which robot mowers work without a boundary wire?",
            ),
            (
                "broadband without landline",
                Other,
                "Can I get broadband without a landline?",
            ),
            (
                "linear guide interchangeable with THK",
                Manufacturer,
                "Which linear guides are interchangeable with THK?",
            ),
            (
                "WMS Shopify integration",
                Saas,
                "Which WMS integrates with Shopify?",
            ),
            (
                "hire a chef Algarve",
                Marketplace,
                "How do I hire a chef in the Algarve?",
            ),
            (
                "boutique hotels in Lisbon",
                Marketplace,
                "What are the best boutique hotels in Lisbon?",
            ),
            (
                "best golf courses in the Algarve",
                Other,
                "What are the best golf courses in the Algarve?",
            ),
            (
                "kids museum Rotterdam",
                Other,
                "What is the best kids' museum in Rotterdam?",
            ),
            (
                "gas safety certificate reminder",
                Saas,
                "What is the best software for gas safety certificate reminders?",
            ),
            (
                "property management software for landlords",
                Saas,
                "What is the best property management software for landlords?",
            ),
            (
                "podcasts about ancient Rome",
                ContentMedia,
                "What are the best podcasts about ancient Rome?",
            ),
            (
                "how much does a private chef cost per person",
                Marketplace,
                "How much does a private chef cost per person?",
            ),
            ("how to reduce mispicks", Saas, "How do I reduce mispicks?"),
            ("reduce mispicks", Saas, "How do I reduce mispicks?"),
            (
                "find NDIS support worker",
                Marketplace,
                "How do I find an NDIS support worker?",
            ),
            (
                "switch broadband provider Ireland",
                Other,
                "How do I switch my broadband provider in Ireland?",
            ),
            (
                "hail damage roof repair Denver",
                Services,
                "How much does hail damage roof repair cost in Denver?",
            ),
            (
                "asphalt shingle roof replacement",
                Services,
                "How much does asphalt shingle roof replacement cost?",
            ),
            (
                "EPO opposition",
                Services,
                "How much does an EPO opposition cost?",
            ),
            (
                "freedom to operate search",
                Services,
                "How much does a freedom to operate search cost?",
            ),
            (
                "patent attorney Munich",
                Services,
                "How do I find a good patent attorney in Munich?",
            ),
            (
                "roofing contractor near me",
                Services,
                "How do I find a good roofing contractor near me?",
            ),
            (
                "independent support workers",
                Marketplace,
                "Where can I find good independent support workers?",
            ),
            (
                "free roof inspection",
                Services,
                "Who offers a free roof inspection?",
            ),
            (
                "science museum tickets Rotterdam",
                Other,
                "How much are science museum tickets in Rotterdam?",
            ),
            (
                "rainy day activities Rotterdam",
                Other,
                "What are the best rainy day activities in Rotterdam?",
            ),
            (
                "family day out Netherlands",
                Other,
                "What is the best family day out in the Netherlands?",
            ),
            (
                "MSP news",
                ContentMedia,
                "Where can I get the latest MSP news?",
            ),
            (
                "mandi price trends",
                ContentMedia,
                "What are the latest mandi price trends?",
            ),
            (
                "agriculture policy India",
                ContentMedia,
                "Where can I get the latest news on agriculture policy in India?",
            ),
            (
                "agritech newsletter",
                ContentMedia,
                "What is the best agritech newsletter?",
            ),
            (
                "easy family dinners",
                ContentMedia,
                "What are the best easy family dinners?",
            ),
            (
                "recurring invoices",
                Saas,
                "What is the best software for recurring invoices?",
            ),
            (
                "send invoices online",
                Saas,
                "How do I send invoices online?",
            ),
            (
                "podcast sponsorship UK",
                ContentMedia,
                "How much does podcast sponsorship cost in the UK?",
            ),
            (
                "landlord software UK",
                Saas,
                "What is the best landlord software in the UK?",
            ),
            (
                "automated rent collection",
                Saas,
                "What is the best automated rent collection software?",
            ),
            (
                "batch picking",
                Saas,
                "What is the best software for batch picking?",
            ),
            (
                "rolled ball screw",
                Manufacturer,
                "Who makes the best rolled ball screws?",
            ),
            (
                "robotic mower UK",
                Manufacturer,
                "Who makes the best robotic mowers in the UK?",
            ),
            (
                "National Broadband Plan",
                Other,
                "What is the National Broadband Plan?",
            ),
            (
                "fibre broadband availability",
                Other,
                "How do I check fibre broadband availability?",
            ),
            (
                "niche perfume",
                Ecommerce,
                "What is the best niche perfume?",
            ),
            (
                "best POS for restaurants Australia",
                Saas,
                "What is the best POS for restaurants in Australia?",
            ),
            (
                "how do I fire an employee Ontario",
                Services,
                "How do I fire an employee in Ontario?",
            ),
            (
                "best birding spots near Toronto",
                ContentMedia,
                "What are the best birding spots near Toronto?",
            ),
            (
                "cheap prescription glasses online",
                Ecommerce,
                "Where can I find cheap prescription glasses online?",
            ),
            (
                "abaya for work",
                Ecommerce,
                "What is the best abaya for work?",
            ),
            (
                "office chair for back pain",
                Manufacturer,
                "What is the best office chair for back pain?",
            ),
            (
                "rotary tiller cost",
                Manufacturer,
                "How much does a rotary tiller cost?",
            ),
            (
                "furniture removals cost",
                Services,
                "How much do furniture removals cost?",
            ),
            (
                "braai manufacturers South Africa",
                Manufacturer,
                "Who are the best braai manufacturers in South Africa?",
            ),
            (
                "best site to resell sneakers",
                Marketplace,
                "What is the best site to resell sneakers?",
            ),
            (
                "where to buy sold out sneakers",
                Marketplace,
                "Where can I buy sold out sneakers?",
            ),
            (
                "used cars for sale near me",
                Marketplace,
                "Where can I find used cars for sale near me?",
            ),
            (
                "horses for sale NSW",
                Marketplace,
                "Where can I find horses for sale in NSW?",
            ),
            (
                "custom sheet metal parts online",
                Marketplace,
                "Where can I find custom sheet metal parts online?",
            ),
            (
                "dhokra art online",
                Marketplace,
                "Where can I find dhokra art online?",
            ),
            (
                "adopt a dog Ireland",
                Other,
                "How do I adopt a dog in Ireland?",
            ),
            (
                "best job management for builders",
                Saas,
                "What is the best job management software for builders?",
            ),
            (
                "FMCSA approved ELD",
                Saas,
                "What is the best FMCSA approved ELD?",
            ),
            (
                "multi-touch attribution",
                Saas,
                "What is the best multi-touch attribution software?",
            ),
            (
                "vehicle tracking small business",
                Saas,
                "What is the best vehicle tracking software for a small business?",
            ),
            (
                "freight market outlook",
                ContentMedia,
                "Where can I find the latest freight market outlook?",
            ),
            (
                "bike review",
                ContentMedia,
                "Where can I find the latest bike reviews?",
            ),
            (
                "best birding spots near Toronto",
                ContentMedia,
                "What are the best birding spots near Toronto?",
            ),
            (
                "best place to sell luxury bag Singapore",
                Marketplace,
                "What is the best place to sell a luxury bag in Singapore?",
            ),
            ("where to watch IPL", ContentMedia, "Where can I watch IPL?"),
            (
                "lifetime warranty luggage",
                Ecommerce,
                "Which luggage brands offer a lifetime warranty?",
            ),
            (
                "perfume that lasts all day",
                Ecommerce,
                "Which perfume lasts all day?",
            ),
        ];
        for (keyword, model, expected) in cases {
            assert_eq!(ask(keyword, model).as_deref(), Some(expected), "{keyword}");
        }
    }

    #[test]
    fn unreadable_keywords_are_left_to_the_templates() {
        use BusinessModel::*;
        for (keyword, model) in [
            ("renters rights act landlord checklist", Saas),
            ("periodic tenancy rules", Saas),
            ("linear guide load rating", Manufacturer),
            ("profile rail guide sizing", Manufacturer),
            ("NDIS self managed support", Marketplace),
            ("roof insurance claim help", Services),
            ("private chef Mallorca villa", Marketplace),
            ("chef at home Tuscany", Marketplace),
            ("fulfilment invoicing per pick", Saas),
            ("pump lifecycle cost", Manufacturer),
            ("H-1B cost for employer", Services),
            ("hot desk", Other),
            ("tickets near me", Other),
            ("price Denver", Services),
            ("rescue dogs Ireland", Other),
            ("board game pre-orders Ireland", Ecommerce),
            ("company logo hi vis", Ecommerce),
            ("wireless noise cancelling headphone", Ecommerce),
            ("wholesale braais", Manufacturer),
            ("boss guide", ContentMedia),
            ("hire a chef Tuscany", Marketplace),
            ("best ski resort Hokkaido", Other),
            ("best place to sell luxury bag Jakarta", Marketplace),
            ("business account Pix", Other),
            ("pre-loved Hermes", Marketplace),
            ("best games this year", ContentMedia),
            ("best build", ContentMedia),
            ("fake protein powder", Ecommerce),
            ("handloom mark", Ecommerce),
            ("acoustic panels offices", Manufacturer),
            ("glass door fridge commercial", Manufacturer),
            ("heat pump subsidies Germany", Manufacturer),
            ("ferry times Picton", Other),
            ("best christmas party ideas for small teams", Marketplace),
            ("import duties Canada", Services),
            ("MTD for income tax", Services),
            ("seller fees", Marketplace),
            ("is it on Netflix", ContentMedia),
            ("sleep regression", ContentMedia),
            ("ferry with campervan", Other),
            ("podcast", ContentMedia),
            ("best", Ecommerce),
            ("vs Away", Ecommerce),
        ] {
            assert_eq!(ask(keyword, model), None, "{keyword}");
        }
    }

    #[test]
    fn odd_keywords_never_panic() {
        use BusinessModel::*;
        let odd = [
            "",
            " ",
            "é",
            "near me",
            "best",
            "vs",
            "how to",
            "where to",
            "to",
            "for sale",
            "tickets near me",
            "price Denver",
            "best for",
            "with",
            "best with laptop",
            "cost for employer",
            "ñandú Zürich",
            "café near me",
            "Über Berlin Denver",
            "漢字 テスト 東京",
            "a b c d e f g h i j",
            "free",
            "cheap",
            "X Y integration",
            "warranty",
            "lifetime warranty",
            "small business",
            "small business software",
            "best in Denver",
            "in Denver",
            "near Toronto",
            "that",
            "carry-on that",
            "Sydney",
            "Sydney family",
            "what is",
            "how much does",
            "i i i i",
        ];
        for keyword in odd {
            for model in [
                Ecommerce,
                Saas,
                Services,
                Marketplace,
                ContentMedia,
                Manufacturer,
                Other,
            ] {
                let _ = ask(keyword, model);
            }
        }
    }

    #[test]
    fn a_keyword_naming_a_rival_is_no_discovery_question() {
        assert_eq!(
            ask("robot mower Husqvarna", BusinessModel::Manufacturer),
            None
        );
        assert_eq!(
            ask(
                "rails interchangeable with HIWIN",
                BusinessModel::Manufacturer
            ),
            None
        );
    }
}
