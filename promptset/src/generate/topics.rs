//! The topic map: every valid topic the brief supports, scored, and the top N kept.
//!
//! Topics come from three places: the brief's priority topics (`provided`), its product
//! lines (`derived-from-product-line`), and inferences from competitors, channels,
//! customers, trust and seasonality (`inferred`). Each candidate is scored on five
//! dimensions (business value, monitoring value, GEO leverage, competitor pressure,
//! channel fit); the map keeps the best N, with a small penalty for repeating a topic
//! type so that one kind of topic does not crowd out the rest.

use std::collections::BTreeSet;

use crate::brief::{Brief, BusinessModel, ChannelKind, CompetitorKind};
use crate::generate::phrasing::{self, Noun};
use crate::generate::text::{mentions, phrase, title, tokens};
use crate::model::{Level, TopicSource, TopicType};

/// A topic with everything the prompt builder needs.
#[derive(Debug, Clone)]
pub struct PlannedTopic {
    /// The topic's name as written in the map.
    pub name: String,
    /// Where it came from.
    pub source: TopicSource,
    /// What kind of topic it is.
    pub topic_type: TopicType,
    /// Product lines it covers (names as in the brief).
    pub related_product_lines: Vec<String>,
    /// Words people use for it (seed or product keywords).
    pub keywords: Vec<String>,
    /// How much it matters.
    pub priority: Level,
    /// Why it is in the map.
    pub reason: String,
    /// The weighted score it was ranked by.
    pub score: u32,
    /// The target customer (index into the brief's list) the topic is about, if any:
    /// its prompts speak of that audience only.
    pub audience: Option<usize>,
    /// The priority channel (index) the topic is about, if any.
    pub channel: Option<usize>,
    /// The target market (index) the topic is about, if any.
    pub market: Option<usize>,
    /// The competitor the topic is about, if any: its comparison prompts name it.
    pub rival: Option<String>,
    /// What the topic's prompts call it when that is not its name: `meal prep` for
    /// `Meal prep for beginners`.
    pub subject: Option<String>,
    /// The topic's own audience when it is none of the brief's (`beginners`): its prompts
    /// speak of it instead of rotating through the brief's audiences.
    pub audience_phrase: Option<String>,
    /// Kinds of the topic's product named by its priority keywords (`single ingredient
    /// dog treats` in `Grain-free dog treats`), which some of its discovery prompts ask
    /// about instead of the line itself (see [`keyword_nouns`]).
    pub keyword_nouns: Vec<Noun>,
}

/// The five ranking dimensions, each 0-3.
#[derive(Debug, Clone, Copy, Default)]
struct Scores {
    business: u32,
    monitoring: u32,
    geo: u32,
    competitor: u32,
    channel: u32,
}

impl Scores {
    fn total(self) -> u32 {
        3 * self.business + 2 * self.monitoring + 2 * self.geo + 2 * self.competitor + self.channel
    }

    /// The two strongest dimensions, in words, for the topic's reason.
    fn strengths(self) -> String {
        let mut named = [
            (self.business * 3, "business value"),
            (self.monitoring * 2, "monitoring value"),
            (self.geo * 2, "GEO leverage"),
            (self.competitor * 2, "competitor pressure"),
            (self.channel, "channel fit"),
        ];
        named.sort_by_key(|entry| std::cmp::Reverse(entry.0));
        format!("strongest on {} and {}", named[0].1, named[1].1)
    }
}

#[derive(Debug, Clone)]
struct Candidate {
    name: String,
    source: TopicSource,
    topic_type: TopicType,
    related: Vec<String>,
    keywords: Vec<String>,
    scores: Scores,
    origin: String,
    fits_model: bool,
    focus: Focus,
}

/// What a candidate topic is about beyond its product lines.
#[derive(Debug, Clone, Default)]
struct Focus {
    audience: Option<usize>,
    channel: Option<usize>,
    market: Option<usize>,
    rival: Option<String>,
    subject: Option<String>,
    audience_phrase: Option<String>,
}

/// The outcome of planning: the kept topics, the category the brand competes in, and
/// what had to be assumed.
#[derive(Debug, Clone)]
pub struct TopicPlan {
    /// The kept topics, best first.
    pub topics: Vec<PlannedTopic>,
    /// The category in running text (e.g. `trail running shoes`).
    pub category: String,
    /// The brief writes for North America (`by mail`, not `by post`), read from its
    /// markets as written, before regions in brackets replace them.
    pub north_american: bool,
    /// The category as a noun with its English forms.
    pub offer: Noun,
    /// What was assumed or inferred.
    pub inferences: Vec<String>,
    /// Words of the brief as prompts phrase them.
    pub lexicon: Lexicon,
    /// What customers get and who buys (see [`super::offer`]).
    pub facts: super::offer::OfferFacts,
}

/// The brief's audiences and channels as prompts phrase them.
#[derive(Debug, Clone)]
pub struct Lexicon {
    /// The short form of each target customer, in the brief's order.
    pub audiences: Vec<String>,
    /// What each priority channel is, in the brief's order.
    pub channel_kinds: Vec<ChannelKind>,
    /// What each competitor is, in the brief's order.
    pub rival_kinds: Vec<CompetitorKind>,
    /// The client's product lines each competitor offers, lowercased, in the brief's
    /// order; `None`: every line (a shop, or a brief with one line or none).
    pub rival_lines: Vec<Option<Vec<String>>>,
    /// The client is a shop selling others' brands, as its category says (`Japanese
    /// kitchen knife store`): its rivals are shops and its own site is no brand's.
    pub shop: bool,
}

impl Lexicon {
    /// Whether the competitor `name` offers the product line `line`; a name the brief
    /// does not list (a generic rival) offers everything.
    pub fn offers(&self, brief: &Brief, name: &str, line: &str) -> bool {
        let Some(lines) = brief
            .competitors
            .iter()
            .position(|c| c.name.trim().eq_ignore_ascii_case(name.trim()))
            .and_then(|i| self.rival_lines.get(i))
            .and_then(Option::as_ref)
        else {
            return true;
        };
        let line = line.trim().to_lowercase();
        lines.contains(&line)
    }

    /// Reads the audiences and channels of `brief`, noting what was inferred.
    pub fn new(brief: &Brief, keep: &[&str], inferences: &mut Vec<String>) -> Lexicon {
        let mut shortened = Vec::new();
        let audiences = brief
            .target_customers
            .iter()
            .map(|description| {
                if let Some(label) = brief.audience_labels.get(description) {
                    return label.trim().to_owned();
                }
                let short = phrasing::short_audience(description, keep);
                if short != phrase(description, keep) {
                    shortened.push(format!("`{}` as `{short}`", description.trim()));
                }
                short
            })
            .collect();
        if !shortened.is_empty() {
            inferences.push(format!(
                "prompts name audiences in the short form people use: {} (set `audience_labels` to choose the wording)",
                shortened.join(", ")
            ));
        }
        let mut typed = Vec::new();
        let channel_kinds = brief
            .priority_channels
            .iter()
            .map(|name| {
                if let Some(kind) = brief.channel_kinds.get(name) {
                    return *kind;
                }
                let kind = phrasing::channel_kind(name);
                typed.push(format!("`{}` as {}", name.trim(), kind.as_str()));
                kind
            })
            .collect();
        if !typed.is_empty() {
            inferences.push(format!(
                "channels were typed from their names: {} (set `channel_kinds` to correct them)",
                typed.join(", ")
            ));
        }
        let mut placed = Vec::new();
        // A shop whose category says so (`Japanese kitchen knife store`).
        let shop = brief.business_model == BusinessModel::Ecommerce
            && brief
                .optional_context
                .get("category")
                .and_then(|v| v.as_str())
                .is_some_and(phrasing::names_shop);
        let rival_kinds: Vec<CompetitorKind> = brief
            .competitors
            .iter()
            .map(|rival| {
                if let Some(kind) = rival.kind {
                    return kind;
                }
                let kind = phrasing::competitor_kind(
                    &rival.name,
                    rival.notes.as_deref(),
                    brief.business_model,
                    shop,
                );
                if kind != CompetitorKind::Brand {
                    placed.push(format!("`{}` as {}", rival.name.trim(), kind.as_str()));
                }
                kind
            })
            .collect();
        if !placed.is_empty() {
            inferences.push(format!(
                "competitors were typed from their notes and names: {}, so they are compared on what such a business offers rather than as makers (set `competitors[].kind` to correct them)",
                placed.join(", ")
            ));
        }
        let rival_lines = rival_lines(brief, &rival_kinds, inferences);
        Lexicon {
            audiences,
            channel_kinds,
            rival_kinds,
            rival_lines,
            shop,
        }
    }
}

/// The product lines each competitor offers (see [`Lexicon::rival_lines`]): its
/// `product_lines` where the brief gives them, else every line for a shop or marketplace
/// and the first line for any other rival, noting what was assumed.
fn rival_lines(
    brief: &Brief,
    kinds: &[CompetitorKind],
    inferences: &mut Vec<String>,
) -> Vec<Option<Vec<String>>> {
    let known: Vec<String> = brief
        .core_product_lines
        .iter()
        .map(|line| line.name.trim().to_lowercase())
        .collect();
    let mut assumed = Vec::new();
    let mut unknown = Vec::new();
    let lines = brief
        .competitors
        .iter()
        .zip(kinds)
        .map(|(rival, kind)| {
            if !rival.product_lines.is_empty() {
                let mut offered = Vec::new();
                for line in &rival.product_lines {
                    let line = line.trim().to_lowercase();
                    if known.contains(&line) {
                        offered.push(line);
                    } else {
                        unknown.push(format!("`{}` of `{}`", line, rival.name.trim()));
                    }
                }
                return Some(offered);
            }
            if known.len() < 2
                || matches!(kind, CompetitorKind::Retailer | CompetitorKind::Marketplace)
            {
                return None;
            }
            assumed.push(format!("`{}`", rival.name.trim()));
            Some(known[..1].to_vec())
        })
        .collect();
    if !assumed.is_empty() {
        inferences.push(format!(
            "{} {} compared on the core product line `{}` only, not on the brief's other lines (set `competitors[].product_lines` to list the lines each one offers)",
            assumed.join(", "),
            if assumed.len() == 1 { "is" } else { "are" },
            // As prompts say it: a capitalised line name would read as a rival's name
            // to the lint, which takes competitors from such sentences.
            phrase(&brief.core_product_lines[0].name, &[])
        ));
    }
    if !unknown.is_empty() {
        inferences.push(format!(
            "competitor product lines not among `core_product_lines` were ignored: {}",
            unknown.join(", ")
        ));
    }
    lines
}

/// Plans the topic map of `brief` with at most `wanted` topics.
pub fn plan(brief: &Brief, wanted: usize) -> TopicPlan {
    let mut inferences = Vec::new();
    let keep = names_to_keep(brief);
    let keep: Vec<&str> = keep.iter().map(String::as_str).collect();
    let offer = infer_offer(brief, &keep, &mut inferences);
    let category = offer.bare.clone();
    let lexicon = Lexicon::new(brief, &keep, &mut inferences);
    let facts = super::offer::facts(brief, &offer.bare, &mut inferences);
    let mut candidates = candidates(brief, &offer, &lexicon, &keep);
    // Topic types the business model needs (the same profile lint scores business-model
    // fit with) are worth more to the client.
    let needed = crate::lint::business::profile(crate::lint::business::interpret(
        brief.business_model.as_str(),
    ))
    .topic_types;
    for candidate in &mut candidates {
        if needed.contains(&candidate.topic_type) {
            candidate.fits_model = true;
        }
    }
    let total = candidates.len();
    let selected = select(candidates, wanted, needed);
    if total > selected.len() {
        inferences.push(format!(
            "{total} candidate topics were found; the {} with the highest combined business value, monitoring value, GEO leverage, competitor pressure and channel fit were kept",
            selected.len()
        ));
    }
    let inferred = selected
        .iter()
        .filter(|(c, _)| c.source == TopicSource::Inferred)
        .count();
    if inferred > 0 {
        inferences.push(format!(
            "{inferred} of {} topics are inferred (marked `inferred`) rather than given in the brief",
            selected.len()
        ));
    }
    // Priority by rank, so the map always says what to watch first: the top 40 % high,
    // the bottom 20 % low (provided topics never), the rest medium.
    let count = selected.len();
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by(|&a, &b| selected[b].1.cmp(&selected[a].1).then(a.cmp(&b)));
    let mut ranks = vec![0usize; count];
    for (rank, &index) in order.iter().enumerate() {
        ranks[index] = rank;
    }
    let high = (count * 2).div_ceil(5).clamp(1, count.max(1));
    let low_from = if count >= 4 { count - count / 5 } else { count };
    let topics = selected
        .into_iter()
        .enumerate()
        .map(|(index, (candidate, score))| {
            let keyword_nouns = keyword_nouns(brief, &candidate, &keep);
            let rank = ranks[index];
            let priority = if rank < high {
                Level::High
            } else if rank >= low_from && candidate.source != TopicSource::Provided {
                Level::Low
            } else {
                Level::Medium
            };
            PlannedTopic {
                reason: if candidate.fits_model {
                    format!(
                        "{}; {}, and a topic type a `{}` business needs",
                        candidate.origin,
                        candidate.scores.strengths(),
                        brief.business_model
                    )
                } else {
                    format!("{}; {}", candidate.origin, candidate.scores.strengths())
                },
                name: candidate.name,
                source: candidate.source,
                topic_type: candidate.topic_type,
                related_product_lines: candidate.related,
                keywords: candidate.keywords,
                priority,
                score,
                audience: candidate.focus.audience,
                channel: candidate.focus.channel,
                market: candidate.focus.market,
                rival: candidate.focus.rival,
                keyword_nouns,
                subject: candidate.focus.subject,
                audience_phrase: candidate.focus.audience_phrase,
            }
        })
        .collect();
    TopicPlan {
        topics,
        category,
        north_american: false,
        offer,
        inferences,
        lexicon,
        facts,
    }
}

/// The priority keywords of a product line's topic that name a narrower kind of the
/// line's product, as nouns: `single ingredient dog treats` and not `grain free dog
/// treats` for `Grain-free dog treats`, `API 6D ball valves` for `Stainless steel ball
/// valves`. The strict readings of issue 8 found the brief's keywords in no prompt; a
/// client who names them wants to be found for them. Keywords that are queries (`book a
/// handyman`, `plumber near me`), carry a preposition (`inverter with battery backup`)
/// or name another thing (`funnel analysis` for `Product analytics`) are left out.
fn keyword_nouns(brief: &Brief, candidate: &Candidate, keep: &[&str]) -> Vec<Noun> {
    let [line] = candidate.related.as_slice() else {
        return Vec::new();
    };
    if candidate.topic_type != TopicType::ProductCategory || candidate.keywords.is_empty() {
        return Vec::new();
    }
    let model = brief.business_model;
    let line_noun = product_noun(line, model, keep);
    let words_of = |text: &str| -> BTreeSet<String> {
        text.to_lowercase()
            .split(|c: char| c.is_whitespace() || c == '-')
            .filter(|w| !w.is_empty())
            .map(phrasing::singular)
            .collect()
    };
    let line_words = words_of(&line_noun.modifier);
    let head = phrasing::singular(&line_noun.head());
    let mut found: Vec<Noun> = Vec::new();
    for keyword in &candidate.keywords {
        let mut text = keyword.trim();
        for lead in ["best ", "top ", "cheap ", "buy ", "affordable "] {
            if text.len() > lead.len()
                && let Some(start) = text.get(..lead.len())
                && start.eq_ignore_ascii_case(lead)
            {
                text = &text[lead.len()..];
            }
        }
        let words: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
        const NOT_A_NOUN: &[&str] = &[
            "for", "with", "near", "by", "in", "to", "me", "my", "a", "an", "the", "how", "what",
            "which", "vs", "versus", "or", "and", "of", "without",
        ];
        if !(2..=5).contains(&words.len())
            || words.iter().any(|w| NOT_A_NOUN.contains(&w.as_str()))
            || !text
                .chars()
                .all(|c| c.is_alphanumeric() || " -'".contains(c))
        {
            continue;
        }
        let noun = product_noun(text, model, keep);
        let noun_words = words_of(&noun.modifier);
        if phrasing::singular(&noun.head()) != head
            || noun.mass != line_noun.mass
            || noun_words.is_subset(&line_words)
            || found
                .iter()
                .any(|f| f.bare.eq_ignore_ascii_case(&noun.bare))
        {
            continue;
        }
        found.push(noun);
    }
    found
}

/// Names that must keep their capitals in running text.
pub fn names_to_keep(brief: &Brief) -> Vec<String> {
    let mut keep = vec![brief.brand_name.clone()];
    keep.extend(brief.competitors.iter().map(|c| c.name.clone()));
    keep.extend(brief.priority_channels.iter().cloned());
    keep.extend(brief.target_markets.iter().cloned());
    keep
}

/// The offering as a noun: the brief's `offering`, else its category, product line,
/// priority topic or brand name, in that order; each guess is noted.
fn infer_offer(brief: &Brief, keep: &[&str], inferences: &mut Vec<String>) -> Noun {
    let model = brief.business_model;
    let parse = |label: &str| {
        adjust_for_model(
            Noun::parse(&crate::generate::text::plain_label(label), keep),
            model,
            keep,
        )
    };
    if let Some(offering) = brief.offering.as_deref().filter(|s| !s.trim().is_empty()) {
        return parse(offering);
    }
    let category = brief
        .optional_context
        .get("category")
        .and_then(|v| v.as_str())
        .filter(|s| !s.trim().is_empty());
    if model == BusinessModel::Marketplace {
        // Users book or buy what is listed, not "marketplaces": take the category
        // without its platform words, else the first product line's.
        let from_category = category.and_then(phrasing::marketplace_offer);
        let from_line = brief
            .core_product_lines
            .iter()
            .find_map(|l| phrasing::marketplace_offer(&l.name));
        let found = match (category, from_category, from_line) {
            (_, Some(offer), _) => Some((offer, "the category".to_owned())),
            (_, None, Some(offer)) => Some((offer, "the first product line".to_owned())),
            _ => None,
        };
        if let Some((offer, source)) = found {
            let noun = parse(&offer);
            inferences.push(format!(
                "the marketplace's offering (what its users book or buy through it) was taken to be `{}` from {source}; set `offering` to change it",
                noun.bare
            ));
            return noun;
        }
    }
    if let Some(category) = category {
        // A shop's category may name the shop (`yarn and knitting supplies shop`): its
        // customers buy what it sells, not shops. A publication of two fields
        // (`government exam preparation and current affairs portal`) is named by its first
        // field and the outlet, counted: readers compare `government exam preparation
        // portals`, never a mass of both fields.
        let renamed = match model {
            BusinessModel::Ecommerce => phrasing::without_shop(category)
                .map(|goods| (goods, "names a shop; prompts speak of what it sells,", "")),
            BusinessModel::ContentMedia => phrasing::first_field_outlets(category)
                .map(|outlets| (outlets, "is named", " in questions")),
            _ => None,
        };
        if let Some((words, before, after)) = renamed {
            let noun = parse(&words);
            inferences.push(format!(
                "the category `{}` {before} `{}`{after}; set `offering` to change it",
                category.trim(),
                noun.bare
            ));
            return noun;
        }
        return parse(category);
    }
    if let Some(line) = brief.core_product_lines.first() {
        let noun = parse(&line.name);
        inferences.push(format!(
            "the category was taken to be `{}`, the first product line, because the brief names no `offering` or `category`",
            noun.bare
        ));
        return noun;
    }
    if let Some(topic) = brief.priority_topics.first() {
        let noun = parse(&topic.name);
        inferences.push(format!(
            "the category was taken to be `{}`, the first priority topic, because the brief has no product lines",
            noun.bare
        ));
        return noun;
    }
    let (fallback, word) = phrasing::fallback_offer(model, &brief.brand_name);
    match word {
        Some(word) => inferences.push(format!(
            "the brief names no offering, category, product line or topic, so the offering was taken to be `{fallback}` from the word `{word}` in the brand name"
        )),
        None => inferences.push(format!(
            "the brief names no offering, category, product line or topic, so the offering was assumed to be `{fallback}` from the business model `{}`",
            brief.business_model
        )),
    }
    parse(&fallback)
}

/// A product line or label as the noun prompts use for it in this business model: a
/// marketplace's `Home repair bookings` are `home repairs`, software is bought as tools.
pub fn product_noun(label: &str, model: BusinessModel, keep: &[&str]) -> Noun {
    let label = crate::generate::text::plain_label(label);
    let label = label.as_ref();
    let label = if model == BusinessModel::Marketplace {
        phrasing::marketplace_offer(label).unwrap_or_else(|| label.to_owned())
    } else {
        label.to_owned()
    };
    let noun = adjust_for_model(Noun::parse(&label, keep), model, keep);
    // A line named by what the software does (`Email campaigns`, `Client reminders`)
    // is bought as software that does it: `Which email campaigns have an open API?`
    // speaks of the campaigns. Only a plural head names such a feature: `send invoices
    // online` is a query.
    const SOFTWARE_HEADS: &[&str] = &[
        "software",
        "tool",
        "platform",
        "app",
        "application",
        "system",
        "dashboard",
        "suite",
        "solution",
        "crm",
        "erp",
        "api",
        "bot",
        "chatbot",
        "plugin",
        "extension",
        "portal",
        "tracker",
        "builder",
        "card",
        "integration",
        "template",
        "website",
        "site",
        "service",
        "hardware",
        "device",
        "terminal",
        "reader",
        "kiosk",
        "scanner",
    ];
    let last = label
        .split(" for ")
        .next()
        .and_then(|part| part.trim().rsplit(' ').next())
        .unwrap_or_default()
        .to_lowercase();
    if model == BusinessModel::Saas
        && !noun.mass
        && last.ends_with('s')
        && !last.ends_with("ss")
        && !SOFTWARE_HEADS.contains(&noun.head().as_str())
        && !noun.bare.contains(" for ")
    {
        return Noun::parse(&format!("{} software", noun.modifier), keep);
    }
    noun
}

/// Software is bought as tools: `product analytics` reads as `product analytics tools`.
pub fn adjust_for_model(noun: Noun, model: BusinessModel, keep: &[&str]) -> Noun {
    let head = noun.head();
    if model == BusinessModel::Saas
        && noun.mass
        && !matches!(head.as_str(), "software" | "hardware")
        && !noun.bare.contains(" for ")
    {
        return Noun::parse(&format!("{} tools", noun.bare), keep);
    }
    noun
}

fn normalized(name: &str) -> String {
    tokens(name).into_iter().collect::<Vec<_>>().join(" ")
}

/// Product lines whose name or keywords share a meaningful word with `text`.
fn related_lines(brief: &Brief, texts: &[&str]) -> Vec<String> {
    const STOP: &[&str] = &[
        "and", "for", "the", "of", "in", "on", "to", "with", "a", "best", "how",
    ];
    let wanted: std::collections::BTreeSet<String> = texts
        .iter()
        .flat_map(|t| tokens(t))
        .filter(|t| t.chars().count() > 2 && !STOP.contains(&t.as_str()))
        .collect();
    let line_words: Vec<std::collections::BTreeSet<String>> = brief
        .core_product_lines
        .iter()
        .map(|line| {
            let mut words: std::collections::BTreeSet<String> =
                tokens(&line.name).into_iter().collect();
            for keyword in &line.priority_keywords {
                words.extend(tokens(keyword));
            }
            words
        })
        .collect();
    let matching = |words: &std::collections::BTreeSet<String>, skip: &dyn Fn(&str) -> bool| {
        words.iter().any(|w| wanted.contains(w) && !skip(w))
    };
    // A word half the lines share (`software`, `pharmacy` in a pharmacy software brief)
    // names the category, not a line: a topic that says it is about every line only if
    // no line shares one of its own words with the topic (`Medical store billing
    // software` is about the billing line, not the distributor app).
    let lines = line_words.len();
    // Words of any search (`cost`, `best`) and the brief's places tie a topic to no line.
    let places: std::collections::BTreeSet<String> = brief
        .target_markets
        .iter()
        .flat_map(|m| tokens(m))
        .collect();
    let common = |word: &str| {
        matches!(
            word,
            "cost"
                | "costs"
                | "price"
                | "prices"
                | "cheap"
                | "best"
                | "top"
                | "buy"
                | "online"
                | "near"
                | "review"
                | "reviews"
                | "free"
                | "new"
                | "vs"
                | "uk"
                | "usa"
        ) || places.contains(word)
            || lines >= 3 && line_words.iter().filter(|w| w.contains(word)).count() * 2 > lines
    };
    let own: Vec<String> = brief
        .core_product_lines
        .iter()
        .zip(&line_words)
        .filter(|(_, words)| matching(words, &common))
        .map(|(line, _)| line.name.clone())
        .collect();
    if !own.is_empty() {
        return own;
    }
    brief
        .core_product_lines
        .iter()
        .zip(&line_words)
        .filter(|(_, words)| matching(words, &|_| false))
        .map(|(line, _)| line.name.clone())
        .collect()
}

fn infer_type(brief: &Brief, name: &str, description: &str, keywords: &[String]) -> TopicType {
    // `season ticket` is a product, not a season.
    let text = format!("{name} {description} {} ", keywords.join(" "))
        .to_lowercase()
        .replace("season ticket", "pass");
    let has = |words: &[&str]| words.iter().any(|w| text.contains(w));
    // A comparison in a seed keyword (`linen vs percale`) is about the topic's own
    // choice; only the name or description makes a topic about a rival.
    let named = format!("{name} {description}").to_lowercase();
    if [
        "alternative",
        " vs",
        "versus",
        "compare",
        "competitor",
        "替代",
        "对比",
    ]
    .iter()
    .any(|w| named.contains(w))
        || brief.competitors.iter().any(|c| mentions(&text, &c.name))
    {
        TopicType::CompetitorAlternative
    } else if has(&[
        "review", "trust", "safe", "certif", "quality", "legit", "warranty", "评价", "认证", "口碑",
    ]) || has(&["complian"]) && brief.business_model != BusinessModel::Services
    {
        // Compliance is what a service is hired for ("Making Tax Digital compliance"),
        // a need rather than a test of the provider; elsewhere it is a trust signal
        // (a supplier's or a vendor's certificates).
        TopicType::TrustEvaluation
    } else if has(&[
        "amazon",
        "marketplace",
        "retailer",
        "store",
        "shop",
        "channel",
        "app store",
        "渠道",
        "天猫",
        "京东",
    ]) || brief.priority_channels.iter().any(|c| mentions(&text, c))
    {
        TopicType::ChannelMarketplace
    } else if has(&[
        "season ",
        "seasonal",
        "seasons",
        "holiday",
        "christmas",
        "summer",
        "winter",
        "spring",
        "autumn",
        "black friday",
        "trend",
        "季",
        "节",
    ]) {
        TopicType::SeasonalTrend
    } else if brief.target_customers.iter().any(|c| mentions(&text, c))
        // `X for Y` in the name; in a keyword (`MTD for income tax`) it names no audience.
        || name.to_lowercase().contains(" for ")
    {
        TopicType::AudienceSegment
    } else if brief
        .core_product_lines
        .iter()
        .any(|line| normalized(&line.name) == normalized(name))
    {
        TopicType::ProductCategory
    } else {
        TopicType::UseCase
    }
}

/// `X for Y` in a topic's name where `Y` is a group of people none of the brief's
/// audiences names (`Meal prep for beginners`): `(X, Y)`. `Y` must read as people in the
/// plural (`beginners`, `first-time investors`, `women`), so `MTD for income tax` or
/// `Gifts for Christmas 2025` are not split.
fn split_for(brief: &Brief, lexicon: &Lexicon, name: &str) -> Option<(String, String)> {
    let lower = name.to_lowercase();
    let at = lower.rfind(" for ")?;
    let subject = name[..at].trim();
    let who = name[at + " for ".len()..].trim();
    let last = who.split_whitespace().next_back()?.to_lowercase();
    // `for road trips`, `for weddings`, `for cracked concrete`: an occasion or a use, not
    // people.
    const OCCASIONS: &[&str] = &[
        "trips",
        "getaways",
        "holidays",
        "vacations",
        "weddings",
        "events",
        "parties",
        "breaks",
        "weekends",
        "festivals",
        "conferences",
        "meetings",
        "deliveries",
        "repairs",
        "renovations",
        "moves",
        "projects",
        "stays",
        "visits",
        "outings",
        "journeys",
        "commutes",
        "flights",
        "rides",
        "tours",
        "cruises",
        "celebrations",
        "gifts",
        "occasions",
        "exams",
        "interviews",
        "emergencies",
        "beginners' trips",
    ];
    let people = ((last.ends_with('s') && !last.ends_with("ss") && last.len() > 3)
        || ["women", "men", "people", "children", "staff", "teams"].contains(&last.as_str()))
        && !OCCASIONS.contains(&last.as_str());
    let known = brief.target_customers.iter().any(|c| mentions(name, c))
        || lexicon
            .audiences
            .iter()
            .any(|a| mentions(who, a) || mentions(a, who));
    (people && !known && !subject.is_empty() && !who.chars().any(|c| c.is_ascii_digit()))
        .then(|| (subject.to_owned(), who.to_owned()))
}

/// Whether `a` and `b` share a word by its stem: `laptop` and `laptops`, `build` and
/// `building`, and short all-capital words (`PC`) exactly.
pub(crate) fn shares_stem(a: &str, b: &str) -> bool {
    let words = |text: &str| -> Vec<String> {
        text.split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.len() >= 4 || (w.len() >= 2 && w.chars().all(|c| c.is_ascii_uppercase())))
            .map(|w| w.to_lowercase())
            .collect()
    };
    let stem = |word: &str| -> String { word.chars().take(5).collect() };
    let b = words(b);
    words(a).iter().any(|w| {
        b.iter().any(|v| {
            if w.len() < 4 || v.len() < 4 {
                w == v
            } else {
                stem(w) == stem(v)
            }
        })
    })
}

/// Whether `a` and `b` share a word of four letters or more.
pub(crate) fn shares_word(a: &str, b: &str) -> bool {
    let words = |text: &str| -> Vec<String> {
        text.to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.len() >= 4)
            .map(|w| w.trim_end_matches('s').to_owned())
            .collect()
    };
    let b = words(b);
    words(a).iter().any(|w| b.contains(w))
}

/// Whether a weak AI surface of the brief bears on `words` (GEO has room to move there).
fn weak_surface_match(brief: &Brief, words: &[&str]) -> bool {
    brief.weak_ai_surfaces.iter().any(|surface| {
        let surface = surface.to_lowercase();
        words
            .iter()
            .any(|w| !w.is_empty() && surface.contains(&w.to_lowercase()))
    })
}

fn max_overlap(brief: &Brief) -> u32 {
    brief
        .competitors
        .iter()
        .map(|c| c.overlap_tier.map_or(2, |t| t.weight()))
        .max()
        .unwrap_or(0)
}

fn candidates(brief: &Brief, offer: &Noun, lexicon: &Lexicon, keep: &[&str]) -> Vec<Candidate> {
    let category = offer.bare.as_str();
    let mut out: Vec<Candidate> = Vec::new();
    let has_competitors = !brief.competitors.is_empty();
    let pressure = max_overlap(brief).min(3);
    let model = brief.business_model;
    let commerce = matches!(
        model,
        BusinessModel::Ecommerce | BusinessModel::Marketplace | BusinessModel::Manufacturer
    );

    for (index, topic) in brief.priority_topics.iter().enumerate() {
        let description = topic.description.clone().unwrap_or_default();
        let split = split_for(brief, lexicon, &topic.name);
        let topic_type = topic.topic_type.unwrap_or_else(|| {
            match (
                infer_type(brief, &topic.name, &description, &topic.seed_keywords),
                &split,
            ) {
                // `Meal prep for beginners` on a recipe site is about meal prep, for
                // beginners: a use case with its own audience, not a segment of the
                // brief's customers asked about the whole offering.
                (TopicType::AudienceSegment, Some((subject, _)))
                    if !shares_word(subject, &offer.bare) =>
                {
                    TopicType::UseCase
                }
                (inferred, _) => inferred,
            }
        });
        let mut texts: Vec<&str> = vec![&topic.name];
        texts.extend(topic.seed_keywords.iter().map(String::as_str));
        let related = related_lines(brief, &texts);
        let geo = if weak_surface_match(brief, &texts)
            || weak_surface_match(
                brief,
                &[topic_type.as_str().split('-').next().unwrap_or_default()],
            ) {
            3
        } else {
            2
        };
        let origin = match &topic.description {
            Some(d) if !d.trim().is_empty() => {
                format!("Provided in the brief as a priority topic ({})", d.trim())
            }
            _ => "Provided in the brief as a priority topic".to_owned(),
        };
        out.push(Candidate {
            name: topic.name.trim().to_owned(),
            source: TopicSource::Provided,
            topic_type,
            related,
            keywords: topic.seed_keywords.clone(),
            scores: Scores {
                business: if index < 3 { 3 } else { 2 },
                monitoring: type_monitoring(topic_type),
                geo,
                competitor: if topic_type == TopicType::CompetitorAlternative {
                    pressure.max(2)
                } else if has_competitors {
                    1
                } else {
                    0
                },
                channel: if topic_type == TopicType::ChannelMarketplace {
                    3
                } else {
                    1
                },
            },
            origin,
            fits_model: false,
            focus: Focus {
                audience: brief
                    .target_customers
                    .iter()
                    .position(|c| mentions(&topic.name, c))
                    .or_else(|| supply_audience(brief, &topic.name, offer, lexicon)),
                channel: brief
                    .priority_channels
                    .iter()
                    .position(|c| mentions(&topic.name, c)),
                market: None,
                rival: brief
                    .competitors
                    .iter()
                    .find(|c| mentions(&topic.name, &c.name))
                    .map(|c| c.name.trim().to_owned()),
                subject: split
                    .as_ref()
                    .filter(|_| topic_type == TopicType::UseCase)
                    .map(|(subject, _)| subject.clone()),
                audience_phrase: split.map(|(_, who)| who),
            },
        });
    }

    for (index, line) in brief.core_product_lines.iter().enumerate() {
        let key = normalized(&line.name);
        if let Some(existing) = out.iter_mut().find(|c| normalized(&c.name) == key) {
            if !existing.related.contains(&line.name) {
                existing.related.push(line.name.clone());
            }
            continue;
        }
        let mut texts: Vec<&str> = vec![&line.name];
        texts.extend(line.priority_keywords.iter().map(String::as_str));
        let geo = if weak_surface_match(brief, &texts)
            || weak_surface_match(brief, &["product", "recommend", "best", "category"])
        {
            3
        } else {
            2
        };
        out.push(Candidate {
            name: title(&phrasing::fix_possessives(line.name.trim())),
            source: TopicSource::DerivedFromProductLine,
            topic_type: TopicType::ProductCategory,
            related: vec![line.name.clone()],
            keywords: line.priority_keywords.clone(),
            scores: Scores {
                business: if index < 2 { 3 } else { 2 },
                monitoring: 3,
                geo,
                competitor: if has_competitors { 2 } else { 0 },
                channel: if brief.priority_channels.is_empty() {
                    1
                } else {
                    2
                },
            },
            origin: match &line.description {
                Some(d) if !d.trim().is_empty() => format!(
                    "Derived from the core product line `{}` ({})",
                    line.name.trim(),
                    d.trim()
                ),
                _ => format!("Derived from the core product line `{}`", line.name.trim()),
            },
            fits_model: false,
            focus: Focus::default(),
        });
    }

    let top_lines: Vec<String> = brief
        .core_product_lines
        .iter()
        .take(2)
        .map(|l| l.name.clone())
        .collect();
    let cat_title = title(category);
    let provider = provider_noun(offer, model, keep);
    let (_, verb_ing) = phrasing::marketplace_verb(offer);

    // Competitors: where rivals win shortlists. A rival a business goal names (`win
    // companies leaving ADP`) is the one to watch, whatever its overlap tier.
    let in_goals = |name: &str| brief.business_goals.iter().any(|g| mentions(g, name));
    if let Some(rival) = brief.competitors.iter().max_by_key(|c| {
        (
            in_goals(&c.name),
            c.overlap_tier.map_or(2, |t| t.weight()),
            std::cmp::Reverse(c.name.clone()),
        )
    }) {
        out.push(Candidate {
            name: format!("Alternatives to {}", rival.name.trim()),
            source: TopicSource::Inferred,
            topic_type: TopicType::CompetitorAlternative,
            related: top_lines.clone(),
            keywords: vec![],
            scores: Scores {
                business: 2,
                monitoring: 3,
                geo: if weak_surface_match(brief, &["compar", "alternative", "vs"]) { 3 } else { 2 },
                competitor: pressure.max(2),
                channel: 0,
            },
            origin: format!(
                "Inferred from the brief's {} {}, led by the closest rival: answers that recommend alternatives to it are where shortlists are won",
                brief.competitors.len(),
                if brief.competitors.len() == 1 { "competitor" } else { "competitors" }
            ),
            fits_model: false,
            focus: Focus { rival: Some(rival.name.trim().to_owned()), ..Focus::default() },
        });
    } else {
        out.push(Candidate {
            name: format!("Comparing {category}"),
            source: TopicSource::Inferred,
            topic_type: TopicType::CompetitorAlternative,
            related: top_lines.clone(),
            keywords: vec![],
            scores: Scores { business: 2, monitoring: 3, geo: 2, competitor: 1, channel: 0 },
            origin: "Inferred because the brief names no competitors: comparison answers show which brands AI engines put next to the client".to_owned(),
            fits_model: false,
            focus: Focus::default(),
        });
    }

    // Trust: every buyer checks it, and AI answers cite reviews for it.
    let trust_name = match model {
        BusinessModel::Saas => format!("Security and reliability of {category}"),
        BusinessModel::Services => format!("Choosing a trustworthy {}", provider.modifier),
        BusinessModel::Manufacturer => format!("Supplier certifications for {category}"),
        BusinessModel::ContentMedia => format!("Trusted sources for {category}"),
        BusinessModel::Marketplace => format!("Trust and safety when {verb_ing} {category}"),
        BusinessModel::Ecommerce | BusinessModel::Other => {
            format!("Quality and reviews of {category}")
        }
    };
    out.push(Candidate {
        name: trust_name,
        source: TopicSource::Inferred,
        topic_type: TopicType::TrustEvaluation,
        related: top_lines.clone(),
        keywords: vec![],
        scores: Scores {
            business: 2,
            monitoring: 2,
            geo: if weak_surface_match(brief, &["review", "trust", "rating", "quality", "certif"]) { 3 } else { 2 },
            competitor: u32::from(has_competitors),
            channel: 0,
        },
        origin: "Inferred from trust: buyers check reviews, quality and legitimacy before choosing, and AI answers cite review and rating sources for it".to_owned(),
        fits_model: false,
        focus: Focus::default(),
    });

    // Channels the client sells or is discovered through, named by what they are.
    if let (Some(channel), Some(kind)) = (
        brief.priority_channels.first(),
        lexicon.channel_kinds.first(),
    ) {
        let channel = channel.trim();
        let name = channel_topic_name(*kind, channel, offer, &provider, model, lexicon.shop);
        out.push(Candidate {
            name,
            source: TopicSource::Inferred,
            topic_type: TopicType::ChannelMarketplace,
            related: top_lines.clone(),
            keywords: vec![],
            scores: Scores {
                business: 2,
                monitoring: 2,
                geo: 2,
                competitor: u32::from(has_competitors),
                channel: 3,
            },
            origin: format!("Inferred from the priority channel `{channel}` ({}): answers about where to buy or find the offer decide who gets the click", kind.as_str().replace('-', " ")),
            fits_model: false,
            focus: Focus { channel: Some(0), ..Focus::default() },
        });
    }

    // Customers: the first (and second) audience the brief names.
    for (index, customer) in brief.target_customers.iter().take(2).enumerate() {
        let short = lexicon
            .audiences
            .get(index)
            .cloned()
            .unwrap_or_else(|| phrase(customer, keep));
        let name = if model == BusinessModel::Marketplace && phrasing::is_supply_side(&short, offer)
        {
            format!("{} platforms for {short}", title(&offer.modifier))
        } else {
            format!("{cat_title} for {short}")
        };
        out.push(Candidate {
            name,
            source: TopicSource::Inferred,
            topic_type: TopicType::AudienceSegment,
            related: top_lines.clone(),
            keywords: vec![],
            scores: Scores {
                business: if index == 0 { 2 } else { 1 },
                monitoring: 2,
                geo: if weak_surface_match(brief, &[customer]) { 3 } else { 2 },
                competitor: u32::from(has_competitors),
                channel: 1,
            },
            origin: format!("Inferred from the target customer `{}`: audience-specific questions get different shortlists than generic ones", customer.trim()),
            fits_model: false,
            focus: Focus { audience: Some(index), ..Focus::default() },
        });
    }

    // The job the category does, phrased by business model.
    let use_case = match model {
        BusinessModel::Saas => format!("Setting up and integrating {category}"),
        BusinessModel::Services => format!(
            "Choosing {}",
            provider
                .one
                .clone()
                .unwrap_or_else(|| provider.bare.clone())
        ),
        BusinessModel::Manufacturer => format!("Specifying {category} for a project"),
        // Reviews serve a buying decision (`Laptop reviews`: choosing a laptop), which is
        // what readers ask about; without a reviewed product, finding the content itself.
        BusinessModel::ContentMedia => brief
            .core_product_lines
            .iter()
            .find_map(|line| {
                let lower = line.name.trim().to_lowercase();
                let subject = lower
                    .strip_suffix(" reviews")
                    .or_else(|| lower.strip_suffix(" review"))?;
                Noun::parse(subject, keep)
                    .one
                    .map(|one| format!("Choosing {one}"))
            })
            .unwrap_or_else(|| format!("Finding reliable {category}")),
        BusinessModel::Marketplace => title(&format!("{verb_ing} {category} online")),
        BusinessModel::Ecommerce => format!("Choosing {category}"),
        BusinessModel::Other => format!(
            "Choosing {}",
            offer
                .one
                .clone()
                .or_else(|| provider.one.clone())
                .unwrap_or_else(|| category.to_owned())
        ),
    };
    out.push(Candidate {
        name: use_case,
        source: TopicSource::Inferred,
        topic_type: TopicType::UseCase,
        related: top_lines.clone(),
        keywords: vec![],
        scores: Scores { business: 2, monitoring: 1, geo: 3, competitor: 0, channel: 1 },
        origin: format!("Inferred from the business model `{model}`: the buying or usage questions asked before any brand is in mind"),
        fits_model: false,
        focus: Focus::default(),
    });

    // Seasonality, where buying follows the calendar.
    let season = brief
        .optional_context
        .get("seasonality")
        .and_then(|v| v.as_str())
        .map(str::trim)
        .filter(|s| !s.is_empty());
    if season.is_some() || commerce || model == BusinessModel::ContentMedia {
        let (name, business, origin) = match season {
            Some(season) => (
                format!("{cat_title} for {}", phrase(season, keep)),
                2,
                format!("Inferred from the seasonality given in `optional_context` (`{season}`)"),
            ),
            None => (
                format!("Seasonal demand for {category}"),
                1,
                format!(
                    "Inferred from the business model `{model}`: demand and AI answers shift with the season"
                ),
            ),
        };
        out.push(Candidate {
            name,
            source: TopicSource::Inferred,
            topic_type: TopicType::SeasonalTrend,
            related: top_lines.clone(),
            keywords: vec![],
            scores: Scores {
                business,
                monitoring: 1,
                geo: 2,
                competitor: 0,
                channel: 1,
            },
            origin,
            fits_model: false,
            focus: Focus::default(),
        });
    }

    // The first market on its own: local answers differ, and it keeps a thin brief's
    // map full. A worldwide market is no place to be local in.
    if let Some(market) = brief
        .target_markets
        .first()
        .map(|m| m.trim())
        .filter(|m| !m.is_empty() && !phrasing::is_global(m))
    {
        let place = phrasing::place(market);
        out.push(Candidate {
            name: format!("{cat_title}{}", place.locative),
            source: TopicSource::Inferred,
            topic_type: TopicType::Other,
            related: top_lines.clone(),
            keywords: vec![],
            scores: Scores { business: 1, monitoring: 2, geo: 2, competitor: 0, channel: 1 },
            origin: format!("Inferred from the first target market `{market}`: AI answers name local providers and shops first"),
            fits_model: false,
            focus: Focus { market: Some(0), ..Focus::default() },
        });
    }

    // Names must be unique; the earlier (more specific) source wins.
    let mut seen = std::collections::BTreeSet::new();
    out.retain(|c| seen.insert(normalized(&c.name)));
    out
}

/// Points a topic type the business model needs is worth on top of its scores.
const MODEL_FIT_BONUS: u32 = 6;

impl Candidate {
    fn score(&self) -> u32 {
        // The brief's own topics are the client's explicit priorities: kept first.
        let provided = if self.source == TopicSource::Provided {
            8
        } else {
            0
        };
        self.scores.total() + provided + if self.fits_model { MODEL_FIT_BONUS } else { 0 }
    }
}

fn type_monitoring(topic_type: TopicType) -> u32 {
    match topic_type {
        TopicType::ProductCategory | TopicType::CompetitorAlternative => 3,
        TopicType::SeasonalTrend | TopicType::Other => 1,
        _ => 2,
    }
}

/// Greedy top-N: best score first, each repeat of a topic type costs 3 points. When
/// the slots left are only enough to cover the topic types the business model needs
/// (`needed`; lint warns `business-model-gap` when half or more are missing), an
/// inferred topic of a type already covered gives way to one of a missing needed type.
fn select(
    mut candidates: Vec<Candidate>,
    wanted: usize,
    needed: &[TopicType],
) -> Vec<(Candidate, u32)> {
    let mut chosen: Vec<(Candidate, u32)> = Vec::new();
    while chosen.len() < wanted && !candidates.is_empty() {
        let missing: Vec<TopicType> = needed
            .iter()
            .copied()
            .filter(|t| !chosen.iter().any(|(c, _)| c.topic_type == *t))
            .collect();
        let may_miss = needed.len().saturating_sub(1) / 2;
        let must_cover = missing.len().saturating_sub(may_miss);
        let covering = must_cover > 0
            && must_cover >= wanted - chosen.len()
            && candidates.iter().any(|c| missing.contains(&c.topic_type));
        let mut best: Option<(usize, u32)> = None;
        for (index, candidate) in candidates.iter().enumerate() {
            // The client's own topics (priority topics, product lines) are never
            // displaced by an inferred one; lint then names the gap.
            if covering
                && !missing.contains(&candidate.topic_type)
                && candidate.source == TopicSource::Inferred
            {
                continue;
            }
            let repeats = chosen
                .iter()
                .filter(|(c, _)| c.topic_type == candidate.topic_type)
                .count() as u32;
            let effective = candidate.score().saturating_sub(3 * repeats);
            if best.is_none_or(|(_, b)| effective > b) {
                best = Some((index, effective));
            }
        }
        let Some((index, _)) = best else { break };
        let candidate = candidates.remove(index);
        let score = candidate.score();
        chosen.push((candidate, score));
    }
    chosen
}

/// Who provides one product line of a services or other business: named after the firm
/// the offering is (`content strategy agencies` for an SEO agency's content strategy), or
/// after the line (`payroll providers`, `personal trainers`), else [`provider_noun`].
pub fn line_provider_noun(
    product: &Noun,
    offer: &Noun,
    model: BusinessModel,
    keep: &[&str],
) -> Noun {
    let head = offer
        .bare
        .rsplit(' ')
        .next()
        .unwrap_or_default()
        .to_lowercase();
    let plural = match head.as_str() {
        "agency" | "agencies" => Some("agencies"),
        "firm" | "firms" => Some("firms"),
        "consultancy" | "consultancies" => Some("consultancies"),
        "studio" | "studios" => Some("studios"),
        _ => None,
    };
    if model == BusinessModel::Services
        && !product.is_agent()
        && let Some(trade) = joined_trade(offer, keep)
    {
        return trade;
    }
    if let Some(plural) = plural
        && model == BusinessModel::Services
        && !product.is_agent()
    {
        return Noun::parse(&format!("{} {plural}", product.modifier), keep);
    }
    // A trade people name by its practitioners (`customs brokerage`: customs brokers,
    // `funeral services`: funeral directors) provides every line of the offer: not
    // `customs clearance providers`, which the strict readings of issue 8 rejected.
    if model == BusinessModel::Services
        && !product.is_agent()
        && let Some(trade) = practitioners(offer, keep)
    {
        return trade;
    }
    if matches!(model, BusinessModel::Services | BusinessModel::Other) && !product.is_agent() {
        // People name who provides a line by the line: `payroll providers`, `personal
        // trainers`, `meeting room rental companies`, `gyms` for gym memberships.
        let bare = product.bare.to_lowercase();
        let stem = |suffixes: &[&str]| {
            suffixes
                .iter()
                .find_map(|s| bare.strip_suffix(s))
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
        };
        let offer_first = offer
            .bare
            .split(' ')
            .next()
            .unwrap_or_default()
            .to_lowercase();
        let named = if let Some(stem) = stem(&[" services", " service"]) {
            // `Online accounting services` of online accountants are their own offer.
            if offer.is_agent() && stem.split(' ').next() == Some(offer_first.as_str()) {
                Some(offer.bare.clone())
            } else {
                Some(format!("{stem} providers"))
            }
        } else if let Some(stem) = stem(&[" training"]) {
            Some(format!("{stem} trainers"))
        } else if let Some(stem) = stem(&[" rentals", " rental"]) {
            Some(format!("{stem} rental companies"))
        } else if stem(&[" memberships", " membership"]).is_some()
            && model == BusinessModel::Other
            && offer.is_agent()
        {
            Some(offer.bare.clone())
        } else {
            None
        };
        if let Some(named) = named {
            return Noun::parse(&named, keep);
        }
        // A line named by what the client hands over or how it is sold (`employee
        // handbooks and policies`, `HR advice retainer`) is not a trade: its providers
        // are the offer's (`employee handbook providers` was read as nobody's word).
        const DELIVERABLES: &[&str] = &[
            "retainer",
            "retainers",
            "handbook",
            "handbooks",
            "policies",
            "templates",
            "documents",
            "contracts",
        ];
        let heads = product.bare.to_lowercase();
        if heads
            .split(" and ")
            .any(|part| DELIVERABLES.contains(&part.rsplit(' ').next().unwrap_or(part)))
        {
            return provider_noun(offer, model, keep);
        }
        // A firm named by who works there (`roofing contractors`, `patent attorneys`)
        // does each of its lines itself: a roofer's `roof replacement` is done by
        // roofing contractors, not `roof replacement providers`, which the readings of
        // sessions 27 and 28 rejected as a label pasted as a noun.
        if model == BusinessModel::Services && offer.is_agent() {
            return offer.clone();
        }
    }
    provider_noun(product, model, keep)
}

/// The practitioners of a trade named by its activity (`customs brokerage` → `customs
/// brokers`, `physiotherapy` → `physiotherapists`, `funeral services` → `funeral
/// directors`), for trades people name that way; `None` for others (`payroll`).
pub fn practitioners(offer: &Noun, keep: &[&str]) -> Option<Noun> {
    const TRADES: &[(&str, &str)] = &[
        ("brokerage", "brokers"),
        ("photography", "photographers"),
        ("videography", "videographers"),
        ("physiotherapy", "physiotherapists"),
        ("physio", "physiotherapists"),
        ("dentistry", "dentists"),
        ("bookkeeping", "bookkeepers"),
        ("tutoring", "tutors"),
        ("tuition", "tutors"),
        ("coaching", "coaches"),
        ("catering", "caterers"),
        ("plumbing", "plumbers"),
        ("landscaping", "landscapers"),
        ("removals", "removal firms"),
        ("removal", "removal firms"),
        ("consulting", "consultants"),
        ("advisory", "advisers"),
        ("moving", "movers"),
        ("translation", "translators"),
        ("interpreting", "interpreters"),
        ("counselling", "counsellors"),
        ("counseling", "counselors"),
        ("conveyancing", "conveyancers"),
        ("funeral", "funeral directors"),
        ("funerals", "funeral directors"),
        ("veterinary", "vets"),
        ("optometry", "optometrists"),
        ("chiropractic", "chiropractors"),
        ("osteopathy", "osteopaths"),
        ("hairdressing", "hairdressers"),
        ("locksmithing", "locksmiths"),
        ("electrical", "electricians"),
        ("pest control", "pest control companies"),
        ("surgery", "surgeons"),
        ("installation", "installers"),
        ("installations", "installers"),
        ("arboriculture", "arborists"),
    ];
    // The singular form: `customs brokerage`, not `customs brokerages`.
    let lower = offer.modifier.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    // `funeral services`, `translation and localisation services`: the trade is the word
    // before `services`.
    let (stem, last) = match words.as_slice() {
        [rest @ .., last] if !matches!(*last, "services" | "service") => (rest, *last),
        [rest @ .., last, _] => (rest, *last),
        _ => return None,
    };
    // A trade of two words (`pest control`) before one of its last word.
    let two = stem.last().map(|before| format!("{before} {last}"));
    let (stem, (_, agents)) = match TRADES
        .iter()
        .find(|(trade, _)| two.as_deref() == Some(*trade))
    {
        Some(found) => (&stem[..stem.len() - 1], found),
        None => (stem, TRADES.iter().find(|(trade, _)| *trade == last)?),
    };
    // `funeral directors` names the whole trade; `customs brokers` keeps its field.
    let stem: Vec<&str> = if agents.contains(' ') {
        stem.iter()
            .copied()
            .filter(|w| !agents.contains(*w))
            .collect()
    } else {
        stem.to_vec()
    };
    // The stem keeps its capitals (`HR consultants`), looked up by word in the label.
    let stem: Vec<&str> = stem
        .iter()
        .map(|word| {
            offer
                .modifier
                .split_whitespace()
                .find(|original| original.eq_ignore_ascii_case(word))
                .unwrap_or(word)
        })
        .collect();
    let text = if stem.is_empty() || agents.contains(' ') {
        (*agents).to_owned()
    } else {
        format!("{} {agents}", stem.join(" "))
    };
    Some(Noun::parse(&text, keep))
}

/// The practitioners of an offering of two kinds whose first is a trade people name by
/// them (`tree surgery and arboricultural consultancy` → `tree surgeons`): people hire
/// tree surgeons, not `tree surgery and arboricultural consultancies`.
fn joined_trade(offer: &Noun, keep: &[&str]) -> Option<Noun> {
    // `translation and localisation services` are no firm's name for itself: the
    // banks name such firms by the first trade (`translation services`).
    if !offer.bare.contains(" and ") {
        return None;
    }
    let kinds = phrasing::kinds(&offer.bare);
    let first = match kinds.first() {
        Some(first) => first.as_str(),
        None => offer.bare.split(" and ").next()?,
    };
    // `auto detailing, ceramic coating and PPF`: a list's first item.
    let first = first.split(',').next().unwrap_or(first).trim();
    if offer.is_agent() {
        let first = Noun::parse(first, keep);
        // `regional amusement park and water park`: places of two kinds are named by
        // the first, in the plural (`regional amusement parks`).
        return practitioners(&first, keep)
            .or_else(|| (first.is_agent() && !first.mass).then(|| Noun::parse(&first.bare, keep)));
    }
    // `residential pool cleaning and repair`: two jobs one firm does are done by
    // companies named by the first (`pool cleaning companies`); `residential pool
    // cleaning and repair providers` is the label pasted. Who the jobs are for is no
    // part of a firm's name.
    let words: Vec<&str> = first
        .split_whitespace()
        .skip_while(|w| {
            matches!(
                w.to_lowercase().as_str(),
                "residential" | "domestic" | "home" | "household"
            )
        })
        .collect();
    let last = words.last()?.to_lowercase();
    if words.len() >= 2 && last.ends_with("ing") && phrasing::is_gerund(&last) {
        return Some(Noun::parse(&format!("{} companies", words.join(" ")), keep));
    }
    None
}

/// Who provides the offering: the offering itself when it names providers (`online
/// accountants`, `gyms`), else `<offering> providers` (`payroll providers`).
pub fn provider_noun(offer: &Noun, model: BusinessModel, keep: &[&str]) -> Noun {
    // A marketplace's rivals are platforms even when what it lists are people.
    if model == BusinessModel::Marketplace {
        return Noun::parse(&format!("{} platforms", offer.modifier), keep);
    }
    if matches!(model, BusinessModel::Services | BusinessModel::Other)
        && let Some(trade) = joined_trade(offer, keep)
    {
        return trade;
    }
    // `pharmacy management and billing software`: one product of two kinds, sold by the
    // first kind's vendors (`pharmacy management software vendors`, `a pharmacy
    // management software vendor`), not `pharmacy management vendors`.
    if model == BusinessModel::Saas
        && offer.bare.contains(" and ")
        && let Some(first) = phrasing::kinds(&offer.bare).first()
        && !first.contains(" and ")
    {
        return provider_noun(&Noun::parse(first, keep), model, keep);
    }
    if offer.is_agent() {
        return offer.clone();
    }
    if matches!(model, BusinessModel::Services | BusinessModel::Other)
        && let Some(trade) = practitioners(offer, keep)
    {
        return trade;
    }
    // A content offer that already names outlets (`birdwatching websites`) is its own
    // rival noun: `birdwatching website sites` says the kind twice.
    if model == BusinessModel::ContentMedia
        && [
            "website", "websites", "site", "sites", "blog", "blogs", "portal", "portals",
        ]
        .contains(&offer.head().as_str())
    {
        return Noun::parse(&offer.bare, keep);
    }
    // `astronomy and stargazing publication`, `motorcycling magazine`: a publication
    // competes with sites on its field, `astronomy and stargazing sites`.
    if model == BusinessModel::ContentMedia
        && ["publication", "magazine"].contains(&offer.head().as_str())
        && let Some((field, _)) = offer.modifier.rsplit_once(' ')
    {
        return Noun::parse(&format!("{field} sites"), keep);
    }
    let word = match model {
        BusinessModel::Manufacturer => "manufacturers",
        BusinessModel::Saas => "vendors",
        BusinessModel::Marketplace => "platforms",
        BusinessModel::ContentMedia => "sites",
        BusinessModel::Ecommerce => "brands",
        BusinessModel::Services | BusinessModel::Other => "providers",
    };
    // `expense tracking vendors`, not `expense tracking tool vendors`: the kind of
    // software already says what the vendors sell.
    let modifier = match model {
        BusinessModel::Saas => offer
            .modifier
            .strip_suffix(" tool")
            .or_else(|| offer.modifier.strip_suffix(" app"))
            .unwrap_or(&offer.modifier),
        _ => &offer.modifier,
    };
    Noun::parse(&format!("{modifier} {word}"), keep)
}

/// A channel topic's name, by what the channel is: people buy on a marketplace, buy
/// through distributors, see products at trade shows and find providers on maps.
fn channel_topic_name(
    kind: ChannelKind,
    channel: &str,
    offer: &Noun,
    provider: &Noun,
    model: BusinessModel,
    shop: bool,
) -> String {
    let category = &offer.bare;
    let cat_title = title(category);
    match kind {
        ChannelKind::Marketplace => format!("Buying {category} on {channel}"),
        ChannelKind::Retailer => format!("Buying {category} from retailers"),
        ChannelKind::Distributor => format!("Buying {category} through distributors"),
        ChannelKind::TradeShow => format!("{cat_title} at trade shows"),
        ChannelKind::OwnWebsite => match model {
            BusinessModel::Saas => format!("Buying {category} direct from the vendor"),
            BusinessModel::Marketplace => {
                let (_, verb_ing) = phrasing::marketplace_verb(offer);
                title(&format!("{verb_ing} {category} directly"))
            }
            BusinessModel::Services => format!("Hiring {} online", provider.bare),
            BusinessModel::Other => format!("Signing up for {category} online"),
            BusinessModel::ContentMedia => format!("Reading {category} on publishers' own sites"),
            _ if shop => format!("Buying {category} from specialist online shops"),
            _ => format!("Buying {category} direct from the brand"),
        },
        ChannelKind::OwnApp => match model {
            BusinessModel::Saas => format!("Mobile apps for {category}"),
            BusinessModel::Marketplace => {
                let (_, verb_ing) = phrasing::marketplace_verb(offer);
                title(&format!("{verb_ing} {category} in an app"))
            }
            BusinessModel::Ecommerce => format!("Ordering {category} through an app"),
            _ => format!("{} with good apps", title(&provider.bare)),
        },
        ChannelKind::AppStore => format!("{cat_title} in the {channel}"),
        ChannelKind::ReviewSite => format!("Reviews of {category} on {channel}"),
        ChannelKind::LocalListing if model == BusinessModel::Marketplace => {
            format!(
                "Finding {category} on {}",
                phrasing::local_listing_name(channel)
            )
        }
        ChannelKind::LocalListing => format!(
            "Finding {} on {}",
            provider.bare,
            phrasing::local_listing_name(channel)
        ),
        ChannelKind::Social => format!("{cat_title} on {channel}"),
        ChannelKind::Referral => format!("Finding {} through referrals", provider.bare),
        ChannelKind::Other => format!("{cat_title} through {channel}"),
    }
}

/// For a marketplace topic about selling or listing (`Selling handyman services
/// online`), the supply-side audience it is about.
fn supply_audience(brief: &Brief, name: &str, offer: &Noun, lexicon: &Lexicon) -> Option<usize> {
    let lower = name.to_lowercase();
    if brief.business_model != BusinessModel::Marketplace
        || !["sell", "listing", "list ", "earn", "get more", "host"]
            .iter()
            .any(|w| lower.contains(w))
    {
        return None;
    }
    lexicon
        .audiences
        .iter()
        .position(|a| phrasing::is_supply_side(a, offer))
}

#[cfg(test)]
mod split_for_tests {
    use super::shares_word;

    #[test]
    fn a_firm_of_two_trades_is_named_by_the_first_trades_practitioners() {
        use super::{BusinessModel, Noun, line_provider_noun, provider_noun};
        let offer = Noun::parse("tree surgery and arboricultural consultancy", &[]);
        assert_eq!(
            provider_noun(&offer, BusinessModel::Services, &[]).bare,
            "tree surgeons"
        );
        let line = Noun::parse("felling and sectional dismantling", &[]);
        assert_eq!(
            line_provider_noun(&line, &offer, BusinessModel::Services, &[]).bare,
            "tree surgeons"
        );
        // Services named by two trades keep the banks' own reading.
        let offer = Noun::parse("translation and localisation services", &[]);
        assert_ne!(
            provider_noun(&offer, BusinessModel::Services, &[]).bare,
            "translators"
        );
    }

    #[test]
    fn trades_are_named_by_their_practitioners() {
        use super::{Noun, practitioners};
        let name = |offer: &str| practitioners(&Noun::parse(offer, &[]), &[]).map(|n| n.bare);
        assert_eq!(
            name("customs brokerage").as_deref(),
            Some("customs brokers")
        );
        assert_eq!(
            name("funeral services").as_deref(),
            Some("funeral directors")
        );
        assert_eq!(
            name("sports physiotherapy").as_deref(),
            Some("sports physiotherapists")
        );
        assert_eq!(
            name("pest control").as_deref(),
            Some("pest control companies")
        );
        assert_eq!(
            name("pest control services").as_deref(),
            Some("pest control companies")
        );
        assert_eq!(name("payroll services"), None);
        assert_eq!(name("tax advice"), None);
        assert_eq!(name("removals").as_deref(), Some("removal firms"));
        assert_eq!(name("HR consulting").as_deref(), Some("HR consultants"));
    }

    #[test]
    fn a_line_that_is_a_deliverable_is_provided_by_the_offers_providers() {
        use super::{BusinessModel, Noun, line_provider_noun};
        let offer = Noun::parse("employment law support", &[]);
        let provider = |line: &str| {
            line_provider_noun(
                &Noun::parse(line, &[]),
                &offer,
                BusinessModel::Services,
                &[],
            )
            .bare
        };
        let offers = super::provider_noun(&offer, BusinessModel::Services, &[]).bare;
        assert_eq!(provider("Employee handbooks and policies"), offers);
        assert_eq!(provider("HR advice retainer"), offers);
        assert_eq!(provider("Payroll services"), "payroll providers");
    }

    #[test]
    fn software_named_by_what_it_does_is_software() {
        use super::{BusinessModel, product_noun};
        assert_eq!(
            product_noun("Email campaigns", BusinessModel::Saas, &[]).bare,
            "email campaign software"
        );
        assert_eq!(
            product_noun("Attribution dashboards", BusinessModel::Saas, &[]).bare,
            "attribution dashboards"
        );
        // A query is not a feature.
        assert!(
            !product_noun("send invoices online", BusinessModel::Saas, &[])
                .bare
                .contains("software")
        );
        // Other models keep the noun.
        assert_eq!(
            product_noun("Email campaigns", BusinessModel::Services, &[]).bare,
            "email campaigns"
        );
    }

    #[test]
    fn words_are_shared_across_number() {
        assert!(shares_word("flexible office space", "coworking spaces"));
        assert!(!shares_word("meal prep", "home cooking recipes"));
    }
}

/// Names the inferred topics of a set written in Chinese in Chinese. The planner names them
/// in English around the brief's own words (`Alternatives to 小罐茶`), which an analyst
/// reading a Chinese set would not accept; the brief's own topics and product lines keep
/// the names the brief gave them.
pub fn localize_names(plan: &mut TopicPlan, language: &str) {
    if language != "zh" {
        return;
    }
    for topic in &mut plan.topics {
        if topic.source == TopicSource::Inferred
            && let Some(name) = chinese_name(&topic.name)
        {
            topic.name = name;
        }
    }
}

/// The Chinese name of an inferred topic named by [`candidates`], if its pattern is known.
fn chinese_name(name: &str) -> Option<String> {
    let strip = |prefix: &str| name.strip_prefix(prefix).map(str::trim);
    type Render = fn(&str) -> String;
    let patterns: [(&str, Render); 13] = [
        ("Alternatives to ", |x| format!("{x}的替代品")),
        ("Quality and reviews of ", |x| format!("{x}的品质与口碑")),
        ("Security and reliability of ", |x| {
            format!("{x}的安全性与可靠性")
        }),
        ("Supplier certifications for ", |x| {
            format!("{x}供应商的资质认证")
        }),
        ("Trusted sources for ", |x| format!("{x}的可靠信息来源")),
        ("Seasonal demand for ", |x| format!("{x}的季节性需求")),
        ("Setting up and integrating ", |x| {
            format!("{x}的部署与集成")
        }),
        ("Finding reliable ", |x| format!("寻找可靠的{x}")),
        ("Comparing ", |x| format!("{x}对比")),
        ("Choosing a trustworthy ", |x| format!("如何挑选靠谱的{x}")),
        ("Choosing ", |x| format!("如何挑选{x}")),
        ("Specifying ", |x| {
            format!("为项目选型{}", x.trim_end_matches(" for a project"))
        }),
        ("Buying ", |x| {
            let (what, place) = match x.split_once(" on ") {
                Some((what, channel)) => (what, format!("在{channel}上")),
                None => match x.split_once(" through distributors") {
                    Some((what, _)) => (what, "通过经销商".to_owned()),
                    None => match x.split_once(" from retailers") {
                        Some((what, _)) => (what, "在零售店".to_owned()),
                        None => match x.split_once(" direct from the ") {
                            Some((what, _)) => (what, "从官网直接".to_owned()),
                            None => (x, String::new()),
                        },
                    },
                },
            };
            format!("{place}购买{what}")
        }),
    ];
    for (prefix, render) in &patterns {
        if let Some(rest) = strip(prefix) {
            return Some(render(rest));
        }
    }
    if let Some((what, trade)) = name.split_once(" at trade shows") {
        return Some(format!("展会上的{what}{trade}"));
    }
    if let Some((what, who)) = name.split_once(" for ") {
        return Some(format!("适合{}的{what}", who.trim()));
    }
    if let Some((what, place)) = name.split_once(" in ") {
        return Some(format!("{}的{what}", place.trim()));
    }
    None
}

#[cfg(test)]
mod keyword_tests {
    use super::*;

    fn line_topic(line: &str, keywords: &[&str]) -> Candidate {
        Candidate {
            name: line.to_owned(),
            source: TopicSource::DerivedFromProductLine,
            topic_type: TopicType::ProductCategory,
            related: vec![line.to_owned()],
            keywords: keywords.iter().map(|k| (*k).to_owned()).collect(),
            scores: Scores::default(),
            origin: String::new(),
            fits_model: false,
            focus: Focus::default(),
        }
    }

    fn brief(model: &str) -> Brief {
        crate::brief::parse_brief(
            format!(
                r#"{{"brand_name": "Acme", "website_url": "https://acme.test", "business_model": "{model}", "target_markets": ["US"], "target_customers": ["teams"]}}"#
            )
            .as_bytes(),
            None,
        )
        .expect("a valid brief")
    }

    #[test]
    fn keywords_that_name_a_narrower_kind_become_nouns() {
        let shop = brief("ecommerce");
        let nouns = |line, keywords: &[&str]| -> Vec<String> {
            keyword_nouns(&shop, &line_topic(line, keywords), &[])
                .into_iter()
                .map(|n| n.bare)
                .collect()
        };
        assert_eq!(
            nouns(
                "Grain-free dog treats",
                &["grain free dog treats", "single ingredient dog treats"]
            ),
            ["single ingredient dog treats"]
        );
        assert_eq!(
            nouns(
                "Trail running shoes",
                &["best trail running shoes", "waterproof trail shoes"]
            ),
            ["waterproof trail shoes"]
        );
        // Singular keywords are made plural; queries, phrases with a preposition and
        // other things are left out.
        assert_eq!(
            nouns("Butterfly valves", &["high-performance butterfly valve"]),
            ["high-performance butterfly valves"]
        );
        assert!(
            nouns(
                "Hybrid inverters",
                &["inverter with battery backup", "rapid charger near me"]
            )
            .is_empty()
        );
        assert!(nouns("Product analytics", &["funnel analysis", "cohort analysis"]).is_empty());
        assert!(nouns("Running hydration vests", &["hydration vest"]).is_empty());
    }

    #[test]
    fn rivals_offer_the_lines_the_brief_gives_else_the_core_line() {
        let text = r#"{"brand_name": "VoltRoute", "website_url": "https://v.test",
            "business_model": "other", "target_markets": ["Europe"], "target_customers": ["drivers"],
            "core_product_lines": [{"name": "Fast charging subscriptions"}, {"name": "Fleet charging cards"}],
            "competitors": [{"name": "Ionity"}, {"name": "Shell Recharge", "product_lines": ["fleet charging cards", "Fuel cards"]},
                            {"name": "ChargeMart", "kind": "retailer"}]}"#;
        let brief = crate::brief::parse_brief(text.as_bytes(), None).expect("a valid brief");
        let mut inferences = Vec::new();
        let lexicon = Lexicon::new(&brief, &[], &mut inferences);
        // Unlisted brands: the core (first) line only, said in the inferences.
        assert!(lexicon.offers(&brief, "Ionity", "Fast charging subscriptions"));
        assert!(!lexicon.offers(&brief, "Ionity", "Fleet charging cards"));
        // Listed lines, matched without regard to case; unknown ones ignored and said.
        assert!(lexicon.offers(&brief, "shell recharge", "Fleet charging cards"));
        assert!(!lexicon.offers(&brief, "Shell Recharge", "Fast charging subscriptions"));
        // A shop sells every line; a rival the brief does not name offers anything.
        assert!(lexicon.offers(&brief, "ChargeMart", "Fleet charging cards"));
        assert!(lexicon.offers(&brief, "the market leaders", "Fleet charging cards"));
        let said = inferences.join("\n");
        assert!(
            said.contains(
                "`Ionity` is compared on the core product line `fast charging subscriptions` only"
            ),
            "{said}"
        );
        assert!(said.contains("`fuel cards` of `Shell Recharge`"), "{said}");
    }
}

#[cfg(test)]
mod chinese_name_tests {
    use super::chinese_name;

    #[test]
    fn inferred_topics_are_named_in_chinese() {
        assert_eq!(
            chinese_name("Alternatives to 小罐茶").as_deref(),
            Some("小罐茶的替代品")
        );
        assert_eq!(
            chinese_name("Buying 茶叶 on 天猫").as_deref(),
            Some("在天猫上购买茶叶")
        );
        assert_eq!(
            chinese_name("Quality and reviews of 茶叶").as_deref(),
            Some("茶叶的品质与口碑")
        );
        assert_eq!(
            chinese_name("茶叶 for 年轻白领").as_deref(),
            Some("适合年轻白领的茶叶")
        );
        assert_eq!(
            chinese_name("Choosing 茶叶").as_deref(),
            Some("如何挑选茶叶")
        );
    }
}
