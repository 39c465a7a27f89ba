//! Misfit rules: prompts a client's analyst would throw out on first read.
//!
//! The other lint rules judge the set as a whole; these judge one prompt's English and
//! its fit with the business. Each rule has a stable id (the same spelling as the
//! failure classes of the labelled corpus in `fixtures/prompt-quality/`) and works from
//! linguistic mechanisms rather than lists of known bad phrases, so that it holds on
//! prompts nobody here has seen:
//!
//! - **noun number and determiners**: mass nouns (`software`, `analytics`, `advice`)
//!   take no `a`/`one`; `a`/`an` follow the next word's sound; a plural subject takes
//!   `do`/`have`/`is` in their plural forms; a plural label does not modify a noun;
//! - **channel typing**: a channel is a marketplace you buy *on*, a distributor you buy
//!   *from*, a trade show you see products *at*, a search or social listing you find
//!   things *through*, or the brand's own site or app;
//! - **a region lexicon**: `worldwide`, `global`, `EMEA` are not places you are *in*;
//! - **the business model**: durable-goods framing (delivery, durability, specs) only
//!   fits businesses that sell physical goods; what a customer buys, hires, books or
//!   subscribes to must be a thing of that kind;
//! - **the brief's own words**: audience descriptions and labels pasted verbatim,
//!   competitors and product lines other than the prompt's topic.
//!
//! [`Context`] holds what the rules know about the client, built from a brief or from
//! a prompt set; [`check_prompt`] returns the [`Misfit`]s of one prompt.

use crate::brief::Brief;
use crate::lint::business::{self, BusinessModel};
use crate::model::PromptSet;

/// The ids of the misfit rules, in the order they are reported.
pub const MISFIT_RULES: &[&str] = &[
    "physical-framing",
    "channel-misuse",
    "tautology",
    "region-as-place",
    "doubled-word",
    "pasted-audience",
    "agreement",
    "unnatural",
    "wrong-category-noun",
    "off-topic",
];

/// One flaw in one prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Misfit {
    /// The rule's id, one of [`MISFIT_RULES`].
    pub rule: &'static str,
    /// What is wrong, for people: lowercase, values in backticks.
    pub message: String,
    /// The prompt rewritten where the fix is obvious.
    pub suggestion: Option<String>,
}

/// What the misfit rules know about the client.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// The business model, when it is one the rules understand.
    pub model: Option<BusinessModel>,
    /// The brand's name.
    pub brand: String,
    /// Target markets as the brief writes them.
    pub markets: Vec<String>,
    /// Audience descriptions (target customers) as the brief writes them.
    pub audiences: Vec<String>,
    /// Sales or discovery channels as the brief writes them.
    pub channels: Vec<String>,
    /// Product lines (and the category) as the brief writes them.
    pub product_lines: Vec<String>,
    /// Competitor names.
    pub competitors: Vec<String>,
    /// The brief's category (`optional_context.category`), also listed among the
    /// product lines: the umbrella of every line, so a prompt about it is general
    /// rather than about another line.
    pub category: Option<String>,
}

impl Context {
    /// The context of a brief.
    pub fn from_brief(brief: &Brief) -> Context {
        let mut product_lines: Vec<String> = brief
            .core_product_lines
            .iter()
            .map(|l| l.name.clone())
            .collect();
        let category = brief
            .optional_context
            .get("category")
            .and_then(|v| v.as_str())
            .map(str::to_owned);
        if let Some(category) = &category {
            product_lines.push(category.clone());
        }
        Context {
            model: business::interpret(brief.business_model.as_str()),
            brand: brief.brand_name.clone(),
            markets: brief.target_markets.clone(),
            audiences: brief.target_customers.clone(),
            channels: brief.priority_channels.clone(),
            product_lines,
            competitors: brief.competitors.iter().map(|c| c.name.clone()).collect(),
            category,
        }
    }

    /// The context a prompt set carries about its client: no channels (a set does not
    /// state them; the channel lexicon still applies) and competitors as the lint
    /// already knows them.
    pub fn from_set(set: &PromptSet<'_>, competitors: &[String]) -> Context {
        let mut audiences: Vec<String> = Vec::new();
        let mut product_lines: Vec<String> = set
            .client_summary
            .input_product_lines
            .clone()
            .unwrap_or_default();
        for prompt in &set.prompts {
            if let Some(customer) = &prompt.target_customer
                && !audiences.iter().any(|a| a == customer.as_ref())
            {
                audiences.push(customer.to_string());
            }
            if let Some(line) = &prompt.product_line
                && !product_lines.iter().any(|l| l == line.as_ref())
            {
                product_lines.push(line.to_string());
            }
        }
        Context {
            model: business::interpret(&set.client_summary.business_model),
            brand: set.client_summary.brand_name.to_string(),
            markets: set.client_summary.target_markets.clone(),
            audiences,
            channels: Vec::new(),
            product_lines,
            competitors: competitors.to_vec(),
            category: None,
        }
    }

    /// Whether the business sells durable physical goods. The brief's `other` covers
    /// businesses that are none of the goods models, so it counts as not selling goods.
    fn sells_goods(&self) -> bool {
        use crate::brief::OfferKind;
        match self.model {
            Some(BusinessModel::Ecommerce | BusinessModel::Manufacturer) => true,
            // A marketplace for used cars or handmade goods, or one that rents out
            // equipment, trades goods: people buy them, and delivery and returns apply.
            Some(BusinessModel::Marketplace) => self.product_lines.iter().any(|line| {
                matches!(
                    crate::generate::offer::infer_kind(
                        crate::brief::BusinessModel::Marketplace,
                        line
                    ),
                    Some(
                        OfferKind::SecondHandGoods
                            | OfferKind::DurableGoods
                            | OfferKind::ConsumableGoods
                            | OfferKind::Rental
                    )
                )
            }),
            _ => false,
        }
    }
}

/// A word of the prompt with its place.
#[derive(Debug, Clone)]
struct Word<'p> {
    /// The word as written (letters, digits, inner hyphens and apostrophes).
    text: &'p str,
    /// Lowercase, apostrophes dropped.
    lower: String,
    /// Byte offset in the prompt.
    start: usize,
    /// Whether a sentence starts at this word.
    sentence_start: bool,
    /// Whether punctuation (other than inner hyphens/apostrophes) follows the word.
    punct_after: bool,
}

fn words(prompt: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let bytes: Vec<(usize, char)> = prompt.char_indices().collect();
    let mut i = 0;
    let mut sentence_start = true;
    while i < bytes.len() {
        let (start, ch) = bytes[i];
        if ch.is_alphanumeric() {
            let mut j = i + 1;
            while j < bytes.len() {
                let c = bytes[j].1;
                let joins = (c == '-' || c == '\'' || c == '\u{2019}' || c == '.')
                    && bytes.get(j + 1).is_some_and(|(_, n)| n.is_alphanumeric());
                if c.is_alphanumeric() || joins {
                    j += 1;
                } else {
                    break;
                }
            }
            let end = bytes.get(j).map_or(prompt.len(), |(at, _)| *at);
            let text = &prompt[start..end];
            let lower: String = text
                .chars()
                .filter(|c| *c != '\'' && *c != '\u{2019}')
                .flat_map(char::to_lowercase)
                .collect();
            let punct_after = bytes
                .get(j)
                .is_some_and(|(_, c)| !c.is_whitespace() && !c.is_alphanumeric());
            out.push(Word {
                text,
                lower,
                start,
                sentence_start,
                punct_after,
            });
            sentence_start = false;
            i = j;
        } else {
            if matches!(ch, '.' | '?' | '!' | ':' | ';') {
                sentence_start = true;
            }
            i += 1;
        }
    }
    out
}

/// Durable-goods framing in Chinese: how it works, repair warranty, functions, lifetime.
const ZH_DURABLE: &[&str] = &[
    "怎么工作",
    "如何工作",
    "工作原理",
    "保修",
    "功能",
    "耐用",
    "使用寿命",
    "零件",
    "维修",
];

/// The few rules that read Chinese prompts: a gadget or warranty template applied to
/// food and drink, and a search keyword pasted into a slot (`白茶礼盒推荐方面`).
fn chinese(prompt: &str) -> Option<Misfit> {
    if !prompt
        .chars()
        .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
    {
        return None;
    }
    if let Some(durable) = ZH_DURABLE.iter().find(|d| prompt.contains(**d))
        && crate::generate::phrasing::is_food_or_drink(prompt)
    {
        return Some(Misfit {
            rule: "unnatural",
            message: format!(
                "`{durable}` frames food or drink as a durable product; ask about taste, origin, freshness or price instead"
            ),
            suggestion: None,
        });
    }
    if prompt.contains("推荐方面") {
        return Some(Misfit {
            rule: "unnatural",
            message: "`…推荐方面` pastes a search keyword into the sentence; ask the question the keyword stands for".into(),
            suggestion: None,
        });
    }
    None
}

/// Every misfit of one prompt. `topic` is the topic the prompt was written for. The
/// rules know English (and a little Chinese) only: a German or Spanish prompt gets none.
pub fn check_prompt(prompt: &str, topic: Option<&str>, context: &Context) -> Vec<Misfit> {
    match crate::lint::language::detect(prompt) {
        crate::lint::language::Language::English => {}
        crate::lint::language::Language::Other => return chinese(prompt).into_iter().collect(),
        crate::lint::language::Language::German | crate::lint::language::Language::Spanish => {
            return Vec::new();
        }
    }
    let words = words(prompt);
    let mut out = Vec::new();
    let mut push = |rule: &'static str, message: String, suggestion: Option<String>| {
        if !out.iter().any(|m: &Misfit| m.rule == rule) {
            out.push(Misfit {
                rule,
                message,
                suggestion,
            });
        }
    };
    physical_framing(prompt, &words, context, &mut push);
    channel_misuse(prompt, &words, context, &mut push);
    tautology(prompt, &words, &mut push);
    region_as_place(prompt, &words, context, &mut push);
    doubled_word(prompt, &words, &mut push);
    pasted_audience(prompt, &words, context, &mut push);
    agreement(prompt, &words, &mut push);
    unnatural(prompt, &words, context, &mut push);
    wrong_category_noun(prompt, &words, context, &mut push);
    template_residue(prompt, &words, context, &mut push);
    if let Some(topic) = topic {
        off_topic(prompt, topic, context, &mut push);
    }
    let order = |rule: &str| MISFIT_RULES.iter().position(|r| *r == rule);
    out.sort_by_key(|m| order(m.rule));
    out
}

/// The misfits of every prompt of `set` as `(prompt index, misfit)`, in prompt order.
pub fn check_set(set: &PromptSet<'_>, context: &Context) -> Vec<(usize, Misfit)> {
    set.prompts
        .iter()
        .enumerate()
        .flat_map(|(index, prompt)| {
            check_prompt(&prompt.prompt, Some(&prompt.topic), context)
                .into_iter()
                .map(move |misfit| (index, misfit))
        })
        .collect()
}

type Push<'f> = dyn FnMut(&'static str, String, Option<String>) + 'f;

/// `prompt` with the byte range `range` replaced by `with`.
fn replace(prompt: &str, range: std::ops::Range<usize>, with: &str) -> String {
    let mut out = String::with_capacity(prompt.len() + with.len());
    out.push_str(&prompt[..range.start]);
    out.push_str(with);
    out.push_str(&prompt[range.end..]);
    out
}

fn end_of(word: &Word<'_>) -> usize {
    word.start + word.text.len()
}

/// Whether an apostrophe follows `word`, which the word's text leaves out: a plural
/// possessive (`kids' helmet`, `7shifts' pricing`), a determiner rather than a head.
fn is_plural_possessive(prompt: &str, word: &Word<'_>) -> bool {
    prompt[end_of(word)..].starts_with(['\'', '\u{2019}'])
}

/// Whether the normalised prompt holds `phrase` (normalised) as whole words.
fn has_phrase(normalized: &str, phrase: &str) -> bool {
    let needle = super::text::normalize(phrase);
    needle.trim().len() > 1 && normalized.contains(needle.as_str())
}

// ---------------------------------------------------------------------------------
// physical-framing

/// Phrases that frame the offer as a durable physical good, matched on normalised text.
const GOODS_PHRASES: &[&str] = &[
    "delivered",
    "delivery time",
    "delivery times",
    "fast delivery",
    "free delivery",
    "next day delivery",
    "shipping",
    "ships",
    "shipped",
    "in stock",
    "out of stock",
    "durable",
    "durability",
    "wear out",
    "wears out",
    "spare parts",
    "specs",
    "spec sheet",
    "tech specs",
    "build quality",
    "return it",
    "returns policy",
    "return policy",
    "low quality",
    "hold up",
    "holds up",
    "ship",
    "ship fastest",
    "warranty",
    "returns",
    "year of use",
    "which brands make",
    "brands make the best",
    "who makes",
    "need new",
    "defects",
    "quality before buying",
    "quality problems",
    "independent reviewers test",
];

fn physical_framing(prompt: &str, words: &[Word<'_>], context: &Context, push: &mut Push<'_>) {
    if context.sells_goods() {
        return;
    }
    let normalized = super::text::normalize(prompt);
    // Returns a customer sends back, not tax or VAT returns an accountant files.
    let filed_returns = [
        "tax returns",
        "vat returns",
        "assessment returns",
        "annual returns",
    ]
    .iter()
    .any(|p| normalized.contains(p));
    // Work, a project or results are delivered too: `if the work is not delivered`,
    // `what results has it delivered` are hiring questions, not shipping ones.
    let work_delivered = [
        "work is not delivered",
        "work is delivered",
        "project is delivered",
        "project is not delivered",
        "delivered on time",
        "results",
        "outcomes",
        "roi",
    ]
    .iter()
    .any(|p| normalized.contains(&format!(" {p} ")));
    if let Some(phrase) = GOODS_PHRASES
        .iter()
        .filter(|p| !(filed_returns && **p == "returns"))
        .filter(|p| !(work_delivered && **p == "delivered"))
        .find(|p| normalized.contains(&format!(" {p} ")))
    {
        push(
            "physical-framing",
            format!(
                "`{phrase}` frames a {} offer as a physical product; ask what its buyers weigh instead",
                model_name(context)
            ),
            None,
        );
        return;
    }
    // "How long does X last", "should X last": durability of goods.
    let lasts = words.iter().enumerate().any(|(i, w)| {
        w.lower == "last"
            && words[..i]
                .iter()
                .any(|v| v.lower == "long" || v.lower == "should" || v.lower == "will")
            && (w.punct_after || words.get(i + 1).is_some_and(|n| n.lower == "and"))
    });
    if lasts {
        push(
            "physical-framing",
            format!(
                "asking how long it lasts frames a {} offer as a durable good",
                model_name(context)
            ),
            None,
        );
        return;
    }
    // Buying a service, a subscription, content or a booking site "online" or "on" a
    // shop: the customer hires, subscribes to or books it.
    let buys = words.iter().enumerate().find(|(i, w)| {
        matches!(
            w.lower.as_str(),
            "buy" | "buying" | "purchase" | "purchasing"
        ) && !words
            .get(i + 1)
            .is_some_and(|n| matches!(n.lower.as_str(), "from" | "through" | "via" | "with"))
            && !words[..*i].iter().any(|v| v.lower == "before")
    });
    if let Some((_, word)) = buys {
        let verb = match context.model {
            Some(BusinessModel::Services) => "hire",
            Some(BusinessModel::Marketplace) => "book",
            Some(BusinessModel::ContentMedia | BusinessModel::Saas) => "subscribe to",
            _ => "book or hire",
        };
        push(
            "physical-framing",
            format!(
                "`{}` treats a {} offer as goods; people {verb} it",
                word.text,
                model_name(context)
            ),
            None,
        );
    }
}

fn model_name(context: &Context) -> &'static str {
    match context.model {
        Some(BusinessModel::Saas) => "software",
        Some(BusinessModel::Services) => "service",
        Some(BusinessModel::Marketplace) => "marketplace",
        Some(BusinessModel::ContentMedia) => "content",
        Some(BusinessModel::Ecommerce) => "retail",
        Some(BusinessModel::Manufacturer) => "manufacturing",
        None => "non-goods",
    }
}

// ---------------------------------------------------------------------------------
// channel-misuse

/// What kind of place a channel is, which decides the preposition it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ChannelKind {
    /// A marketplace or app store: you buy *on* it.
    Marketplace,
    /// Distributors, dealers, resellers: you buy *from* or *through* them.
    Intermediary,
    /// Trade shows, fairs, conferences: you see products *at* them.
    Event,
    /// Search, maps, social media, email, referrals: you *find* things through them.
    Discovery,
}

/// Head words of channel names and their kind.
const CHANNEL_HEADS: &[(&str, ChannelKind)] = &[
    ("distributor", ChannelKind::Intermediary),
    ("distributors", ChannelKind::Intermediary),
    ("dealer", ChannelKind::Intermediary),
    ("dealers", ChannelKind::Intermediary),
    ("reseller", ChannelKind::Intermediary),
    ("resellers", ChannelKind::Intermediary),
    ("wholesaler", ChannelKind::Intermediary),
    ("wholesalers", ChannelKind::Intermediary),
    ("retailers", ChannelKind::Intermediary),
    ("stockists", ChannelKind::Intermediary),
    ("partners", ChannelKind::Intermediary),
    ("installers", ChannelKind::Intermediary),
    ("integrators", ChannelKind::Intermediary),
    ("agents", ChannelKind::Intermediary),
    ("shows", ChannelKind::Event),
    ("show", ChannelKind::Event),
    ("fairs", ChannelKind::Event),
    ("fair", ChannelKind::Event),
    ("expos", ChannelKind::Event),
    ("expo", ChannelKind::Event),
    ("exhibitions", ChannelKind::Event),
    ("conferences", ChannelKind::Event),
    ("events", ChannelKind::Event),
    ("webinars", ChannelKind::Event),
    ("referrals", ChannelKind::Discovery),
    ("referral", ChannelKind::Discovery),
    ("mouth", ChannelKind::Discovery),
    ("seo", ChannelKind::Discovery),
    ("search", ChannelKind::Discovery),
    ("email", ChannelKind::Discovery),
    ("newsletter", ChannelKind::Discovery),
    ("newsletters", ChannelKind::Discovery),
    ("ads", ChannelKind::Discovery),
    ("advertising", ChannelKind::Discovery),
    ("media", ChannelKind::Discovery),
    ("profile", ChannelKind::Discovery),
    ("maps", ChannelKind::Discovery),
    ("directories", ChannelKind::Discovery),
    ("catalogues", ChannelKind::Discovery),
    ("catalogs", ChannelKind::Discovery),
];

/// Words that make a channel phrase the brand's own site or app.
const OWN_CHANNEL: &[&str] = &["website", "site", "app", "store", "shop", "webshop"];

fn channel_kind(head: &str) -> Option<ChannelKind> {
    CHANNEL_HEADS
        .iter()
        .find(|(word, _)| *word == head)
        .map(|(_, kind)| *kind)
}

fn channel_misuse(prompt: &str, words: &[Word<'_>], context: &Context, push: &mut Push<'_>) {
    let purchase = words.iter().any(|w| {
        matches!(
            w.lower.as_str(),
            "buy"
                | "buying"
                | "bought"
                | "purchase"
                | "purchasing"
                | "order"
                | "ordering"
                | "shop"
                | "shopping"
                | "best-reviewed"
                | "cheapest"
                | "delivered"
                | "book"
                | "booking"
                | "bookings"
                | "get"
                | "hire"
                | "subscribe"
                | "price"
                | "prices"
        )
    });
    for (index, word) in words.iter().enumerate() {
        if !matches!(word.lower.as_str(), "on" | "in" | "at" | "via") {
            continue;
        }
        let rest = &words[index + 1..];
        let Some(first) = rest.first() else { continue };
        // `on Own website`, `on Mobile app`: the brand's site or app without a determiner.
        if word.lower == "on" {
            let phrase: Vec<&str> = rest.iter().take(3).map(|w| w.lower.as_str()).collect();
            let own = match phrase.as_slice() {
                ["own" | "mobile" | "brand", second, ..] if OWN_CHANNEL.contains(second) => Some(2),
                [first, ..] if OWN_CHANNEL.contains(first) && *first != "store" => Some(1),
                _ => None,
            };
            if let Some(length) = own {
                let end = end_of(&rest[length - 1]);
                let said = &prompt[first.start..end];
                let head = rest[length - 1].lower.as_str();
                let with = format!("on the brand's own {head}");
                push(
                    "channel-misuse",
                    format!("`on {said}` names a channel label, not a place; say `{with}`"),
                    Some(replace(prompt, word.start..end, &with)),
                );
                return;
            }
        }
        // Find the channel phrase's head: up to four words, stopping at punctuation.
        let mut head = None;
        for (offset, next) in rest.iter().take(4).enumerate() {
            if channel_kind(&next.lower).is_some() {
                head = Some(offset);
                break;
            }
            if next.punct_after
                || matches!(next.lower.as_str(), "and" | "or" | "to" | "for" | "with")
            {
                break;
            }
        }
        let Some(head_offset) = head else { continue };
        let head_word = &rest[head_offset];
        let kind = channel_kind(&head_word.lower).unwrap_or(ChannelKind::Marketplace);
        let phrase_words = &rest[..=head_offset];
        // `rely on The Money Guy Show`: a rival or the brand whose name ends in a
        // channel word is a name, not an event or a shop.
        if names_party(phrase_words, context) {
            continue;
        }
        // A determiner or a real name before the head ("at the big trade shows",
        // "on Google Business Profile") changes nothing for events and intermediaries.
        let residue = first.text.chars().next().is_some_and(char::is_uppercase)
            && !is_proper_phrase(phrase_words);
        let end = end_of(head_word);
        let said = &prompt[first.start..end];
        let lower_said = said.to_lowercase();
        let wrong = match (word.lower.as_str(), kind) {
            ("on" | "in", ChannelKind::Intermediary) => Some(format!("from {lower_said}")),
            ("on" | "via", ChannelKind::Event) => Some(format!("at {lower_said}")),
            ("at", ChannelKind::Event) if purchase && buys_at(words) => {
                Some(format!("after seeing them at {lower_said}"))
            }
            // `look for plumbers on Google Maps`: finding is what the channel is for.
            ("on", ChannelKind::Discovery) if purchase && !finds_before(&words[..index]) => {
                Some(format!("found through {lower_said}"))
            }
            _ if residue && kind != ChannelKind::Discovery => Some(lower_said.clone()),
            _ => None,
        };
        if let Some(with) = wrong {
            let suggestion =
                (kind != ChannelKind::Discovery).then(|| replace(prompt, word.start..end, &with));
            push(
                "channel-misuse",
                format!(
                    "`{} {said}` uses a channel as a place to buy; {} are {}",
                    word.text,
                    lower_said,
                    match kind {
                        ChannelKind::Intermediary => "companies you buy from",
                        ChannelKind::Event => "events where you see products, not shops",
                        ChannelKind::Discovery => "where people find offers, not where they buy",
                        ChannelKind::Marketplace => "a channel, not a shop",
                    }
                ),
                suggestion,
            );
            return;
        }
    }
}

/// Whether a verb of finding comes before a discovery channel (`search Google Maps
/// for`, `look for … on Google Maps`).
fn finds_before(words: &[Word<'_>]) -> bool {
    words.iter().any(|w| {
        matches!(
            w.lower.as_str(),
            "find" | "finding" | "found" | "look" | "looking" | "search" | "searching" | "discover"
        )
    })
}

/// Whether the prompt buys something *at* the place (not visits, compares or meets).
fn buys_at(words: &[Word<'_>]) -> bool {
    words.iter().any(|w| {
        matches!(
            w.lower.as_str(),
            "buy" | "buying" | "purchase" | "purchasing" | "order" | "ordering" | "shop"
        )
    }) && !words.iter().any(|w| {
        matches!(
            w.lower.as_str(),
            "visit" | "visiting" | "compare" | "comparing" | "meet" | "see" | "worth" | "attend"
        )
    })
}

/// Whether `phrase` contains the brand's or a rival's name.
fn names_party(phrase: &[Word<'_>], context: &Context) -> bool {
    let said: Vec<&str> = phrase.iter().map(|w| w.text).collect();
    let said_lower = said.join(" ").to_lowercase();
    context
        .competitors
        .iter()
        .chain(std::iter::once(&context.brand))
        .any(|n| !n.trim().is_empty() && said_lower.contains(&n.trim().to_lowercase()))
}

/// Whether a capitalised channel phrase is a multi-word Title Case name such as `Google
/// Business Profile` (phrases naming the brand or a rival are passed over before this).
fn is_proper_phrase(phrase: &[Word<'_>]) -> bool {
    // Title Case over every word is a name; sentence case (`Trade shows`) is a label.
    phrase.len() > 1
        && phrase
            .iter()
            .all(|w| w.text.chars().next().is_some_and(char::is_uppercase))
}

// ---------------------------------------------------------------------------------
// tautology

fn tautology(prompt: &str, words: &[Word<'_>], push: &mut Push<'_>) {
    // `What does "X" mean when comparing X?`: a quoted or defined term repeated.
    let normalized = super::text::normalize(prompt);
    let mut quoted = Vec::new();
    let mut rest = prompt;
    while let Some(open) = rest.find(['"', '\u{201C}']) {
        let after = &rest[open + 1..];
        let Some(close) = after.find(['"', '\u{201D}']) else {
            break;
        };
        quoted.push(&after[..close]);
        rest = &after[close + 1..];
    }
    for term in quoted {
        let needle = super::text::normalize(term);
        if needle.trim().is_empty() {
            continue;
        }
        if normalized.matches(needle.as_str()).count() >= 2 {
            push(
                "tautology",
                format!("the prompt defines `{term}` by itself"),
                None,
            );
            return;
        }
    }
    // `What does "X" mean when comparing Y` where X and Y name the same thing.
    if let Some(at) = normalized.find(" mean when comparing ") {
        let compared = super::text::content_tokens(&normalized[at + 20..]);
        let defined = super::text::content_tokens(&normalized[..at]);
        if defined.iter().any(|t| compared.contains(t)) {
            push(
                "tautology",
                "the prompt defines a term by comparing the same thing".into(),
                None,
            );
            return;
        }
    }
    // `X vs X`, `compare X with X`, `X or X`: the same thing on both sides.
    for (index, word) in words.iter().enumerate() {
        if !matches!(
            word.lower.as_str(),
            "vs" | "versus" | "or" | "with" | "against"
        ) {
            continue;
        }
        for length in (1..=3).rev() {
            if index < length || index + length >= words.len() {
                continue;
            }
            let left: Vec<&str> = words[index - length..index]
                .iter()
                .map(|w| w.lower.as_str())
                .collect();
            let right: Vec<&str> = words[index + 1..=index + length]
                .iter()
                .map(|w| w.lower.as_str())
                .collect();
            // `Ridgeline Runners vs Runners Need`: two names that share a word are
            // two things, not one compared with itself.
            let names_a_brand = words[index - length..=index + length].iter().any(|w| {
                !w.sentence_start && w.text.chars().next().is_some_and(char::is_uppercase)
            });
            if left == right && !names_a_brand && left.iter().any(|w| !is_function_word(w)) {
                push(
                    "tautology",
                    format!("`{}` is compared with itself", left.join(" ")),
                    None,
                );
                return;
            }
        }
    }
}

// ---------------------------------------------------------------------------------
// region-as-place

/// Market labels that are not places one is *in*, with the locative to use instead.
const REGION_LABELS: &[(&str, &str)] = &[
    ("worldwide", "worldwide"),
    ("global", "globally"),
    ("globally", "globally"),
    ("international", "internationally"),
    ("internationally", "internationally"),
    ("all markets", "in every market"),
    ("all countries", "in every country"),
    ("everywhere", "everywhere"),
    ("online", "online"),
    ("multiple markets", "in several countries"),
    ("multiple countries", "in several countries"),
];

/// Region acronyms that read as places alone but not with `markets` or `region` after.
const REGION_ACRONYMS: &[&str] = &[
    "emea", "apac", "latam", "dach", "mena", "amer", "anz", "cee", "nordics", "benelux",
];

/// Places that take `the` (`in the UK`, `in the Middle East`).
const PLACES_WITH_THE: &[&str] = &[
    "united states",
    "united kingdom",
    "uk",
    "us",
    "usa",
    "middle east",
    "netherlands",
    "philippines",
    "uae",
    "united arab emirates",
    "nordics",
    "baltics",
    "balkans",
    "caribbean",
    "czech republic",
    "dominican republic",
    "gulf",
];

fn region_as_place(prompt: &str, words: &[Word<'_>], context: &Context, push: &mut Push<'_>) {
    for (index, word) in words.iter().enumerate() {
        if !matches!(
            word.lower.as_str(),
            "in" | "across" | "throughout" | "within" | "from"
        ) {
            continue;
        }
        let rest = &words[index + 1..];
        let (skip_the, rest_words) = match rest.first() {
            Some(first) if first.lower == "the" => (true, &rest[1..]),
            _ => (false, rest),
        };
        let lowered: Vec<&str> = rest_words
            .iter()
            .take(3)
            .map(|w| w.lower.as_str())
            .collect();
        for (label, instead) in REGION_LABELS {
            let parts: Vec<&str> = label.split(' ').collect();
            if lowered.len() >= parts.len() && lowered[..parts.len()] == parts[..] {
                // "in global markets", "across international markets" read fine, but
                // not the brief's label pasted with its capital ("in Global markets").
                let next = rest_words.get(parts.len());
                let pasted_label = rest_words[0]
                    .text
                    .chars()
                    .next()
                    .is_some_and(char::is_uppercase);
                if !pasted_label
                    && next.is_some_and(|n| {
                        !n.punct_after
                            && !is_function_word(&n.lower)
                            && !matches!(n.lower.as_str(), "markets" | "market")
                            || matches!(n.lower.as_str(), "markets" | "market")
                                && parts.len() == 1
                                && matches!(*label, "global" | "international")
                    })
                {
                    continue;
                }
                if *label == "online" && word.lower != "in" {
                    continue;
                }
                if *label == "online" && !skip_the {
                    continue;
                }
                let last = &rest_words[parts.len() - 1];
                let said = &prompt[word.start..end_of(last)];
                push(
                    "region-as-place",
                    format!("`{said}` uses a market label as a place; write `{instead}`"),
                    Some(replace(prompt, word.start..end_of(last), instead)),
                );
                return;
            }
        }
        if let (Some(first), Some(second)) = (rest_words.first(), rest_words.get(1))
            && REGION_ACRONYMS.contains(&first.lower.as_str())
            && matches!(
                second.lower.as_str(),
                "markets" | "market" | "region" | "regions"
            )
        {
            let said = &prompt[word.start..end_of(second)];
            let with = format!("in {}", first.text);
            push(
                "region-as-place",
                format!("`{said}` reads as a sales label; write `{with}`"),
                Some(replace(prompt, word.start..end_of(second), &with)),
            );
            return;
        }
        // `in United States`, `in Middle East`: a place that needs `the`.
        if !skip_the && word.lower != "from" {
            for place in PLACES_WITH_THE {
                let parts: Vec<&str> = place.split(' ').collect();
                if lowered.len() >= parts.len()
                    && lowered[..parts.len()] == parts[..]
                    && rest_words[0]
                        .text
                        .chars()
                        .next()
                        .is_some_and(char::is_uppercase)
                {
                    // `US` and `UK` as modifiers ("in US dollars") are fine.
                    let next = rest_words.get(parts.len());
                    if parts.len() == 1
                        && next.is_some_and(|n| !n.punct_after && !is_function_word(&n.lower))
                        && !rest_words[0].punct_after
                    {
                        continue;
                    }
                    let last = &rest_words[parts.len() - 1];
                    let said = &prompt[rest_words[0].start..end_of(last)];
                    let with = format!("the {said}");
                    push(
                        "region-as-place",
                        format!("`{} {said}` needs `the`: `{} {with}`", word.text, word.text),
                        Some(replace(prompt, rest_words[0].start..end_of(last), &with)),
                    );
                    return;
                }
            }
        }
    }
    // A market of the brief pasted as a place although it is not one (`Global`).
    for market in &context.markets {
        let lower = market.trim().to_lowercase();
        if let Some((_, instead)) = REGION_LABELS.iter().find(|(l, _)| *l == lower)
            && prompt.contains(&format!(" {} ", market.trim()))
            && market.trim().chars().next().is_some_and(char::is_uppercase)
            && words.first().is_none_or(|w| w.text != market.trim())
        {
            push(
                "region-as-place",
                format!(
                    "the market label `{}` is pasted into the prompt; write `{instead}`",
                    market.trim()
                ),
                None,
            );
            return;
        }
    }
}

// ---------------------------------------------------------------------------------
// doubled-word

/// Words that may legitimately repeat (`that that`, `had had`).
const MAY_REPEAT: &[&str] = &["that", "had", "is", "very", "bye", "no", "so"];

fn doubled_word(prompt: &str, words: &[Word<'_>], push: &mut Push<'_>) {
    for pair in words.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if a.lower == b.lower
            && !a.punct_after
            // `what it is is`, `that that`; but `Is is free …` opens no sentence.
            && (a.sentence_start || !MAY_REPEAT.contains(&a.lower.as_str()))
            && a.lower.chars().any(char::is_alphabetic)
        {
            push(
                "doubled-word",
                format!("`{} {}` repeats a word", a.text, b.text),
                Some(replace(prompt, a.start..b.start, "")),
            );
            return;
        }
    }
    // A doubled head across a label boundary: "software software", "valves valve".
    for pair in words.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if !a.punct_after
            && a.lower.len() > 3
            && (a.lower == format!("{}s", b.lower) || b.lower == format!("{}s", a.lower))
        {
            push(
                "doubled-word",
                format!("`{} {}` repeats a word", a.text, b.text),
                Some(replace(prompt, a.start..b.start, "")),
            );
            return;
        }
    }
}

// ---------------------------------------------------------------------------------
// pasted-audience

/// Words that mark an audience description rather than the short form people use.
const DESCRIPTION_MARKERS: &[&str] = &[
    "aged",
    "who",
    "that",
    "which",
    "between",
    "e.g",
    "eg",
    "including",
    "such",
    "looking",
    "seeking",
    "wanting",
    "interested",
    "typically",
    "mainly",
    "primarily",
    "etc",
];

fn is_description(audience: &str) -> bool {
    let normalized = super::text::normalize(audience);
    let tokens: Vec<&str> = normalized.split_whitespace().collect();
    tokens.len() >= 5
        || tokens.iter().any(|t| DESCRIPTION_MARKERS.contains(t))
        || audience.contains(['(', ',', ';', '/'])
        || tokens
            .iter()
            .any(|t| t.chars().all(|c| c.is_ascii_digit()) && t.len() >= 2)
}

fn pasted_audience(prompt: &str, words: &[Word<'_>], context: &Context, push: &mut Push<'_>) {
    let normalized = super::text::normalize(prompt);
    for audience in &context.audiences {
        if is_description(audience) && has_phrase(&normalized, audience) {
            push(
                "pasted-audience",
                format!(
                    "the brief's audience description `{audience}` is pasted verbatim; use the short form people say"
                ),
                None,
            );
            return;
        }
    }
    // Without the brief: demographic description patterns ("aged 25-45", "who buy ...
    // on Amazon") that no one types about themselves.
    for (index, word) in words.iter().enumerate() {
        let next_is_age = words
            .get(index + 1)
            .is_some_and(|n| n.lower.chars().next().is_some_and(|c| c.is_ascii_digit()));
        if (word.lower == "aged" || word.lower == "ages") && next_is_age {
            push(
                "pasted-audience",
                format!(
                    "`{}` reads like an audience description from a brief, not a question people type",
                    &prompt[word.start..]
                        .split(['?', ','])
                        .next()
                        .unwrap_or_default()
                        .trim()
                ),
                None,
            );
            return;
        }
    }
}

// ---------------------------------------------------------------------------------
// agreement

/// Nouns that are mass (uncountable) in the sense prompts use them.
const MASS_NOUNS: &[&str] = &[
    "software",
    "analytics",
    "advice",
    "equipment",
    "furniture",
    "clothing",
    "apparel",
    "footwear",
    "feedback",
    "research",
    "information",
    "hardware",
    "machinery",
    "luggage",
    "jewelry",
    "jewellery",
    "payroll",
    "bookkeeping",
    "accounting",
    "insurance",
    "tooling",
    "knowledge",
    "homework",
    "news",
    "merchandise",
    "gear",
    "legislation",
    "evidence",
    "cookware",
    "bakeware",
    "tableware",
    "outerwear",
    "swimwear",
    "sportswear",
    "underwear",
    "knitwear",
    "eyewear",
    "headwear",
    "middleware",
    "firmware",
    "malware",
    "signage",
    "housing",
    "coworking",
    "catering",
    "plumbing",
    "roofing",
    "landscaping",
    "tutoring",
    "coaching",
    "training",
    "hosting",
    "invoicing",
    "marketing",
    "recruitment",
    "storage",
    "transport",
    "logistics",
    "packaging",
    "bedding",
    "lighting",
    "flooring",
    "seating",
];

/// Words ending in `s` that are singular (or mass), so `X does` is right.
const SINGULAR_S: &[&str] = &[
    "analytics",
    "business",
    "process",
    "access",
    "address",
    "class",
    "glass",
    "gas",
    "lens",
    "campus",
    "canvas",
    "bonus",
    "virus",
    "census",
    "plus",
    "status",
    "series",
    "species",
    "news",
    "mathematics",
    "physics",
    "economics",
    "logistics",
    "ethics",
    "diagnosis",
    "basis",
    "analysis",
    "crisis",
    "thesis",
    "chassis",
    "this",
    "its",
    "his",
    "is",
    "was",
    "has",
    "does",
    "as",
    "us",
    "yes",
    "less",
    "unless",
    "always",
    "perhaps",
    "whereas",
    "across",
    "towards",
    "boss",
    "loss",
    "success",
    "progress",
    "stress",
    "dress",
    "express",
    "press",
    "mass",
    "pass",
    "compass",
    "grass",
    "kiss",
    "miss",
    "bus",
    "focus",
    "radius",
    "cactus",
    "octopus",
    "corpus",
    "genus",
    "nexus",
    "atlas",
    "alias",
    "bias",
    "gps",
    "saas",
    "paas",
    "iaas",
    "os",
    "aws",
    "dns",
    "sms",
    "cms",
    "ios",
    "mrs",
    "ms",
    "lbs",
    "kubernetes",
    "wellness",
    "fitness",
    "mattress",
    "means",
    "whereabouts",
    "politics",
    "graphics",
    "metrics",
    "ergonomics",
    "aesthetics",
    "acoustics",
    "electronics",
    "genetics",
    "linguistics",
    "optics",
    "robotics",
    "statistics",
    "tactics",
    "dynamics",
    "pros",
    "cons",
    "tennis",
    "chess",
    "hummus",
    "citrus",
    "asbestos",
    "cosmos",
    "thanks",
    "headquarters",
    "overseas",
    "nervous",
    "famous",
    "various",
    "serious",
    "previous",
    "numerous",
    "generous",
    "delicious",
    "gorgeous",
    "previous",
];

/// Head nouns a plural label must not modify (`shirts brands`, `valves suppliers`).
const COMPANY_HEADS: &[&str] = &[
    "brand",
    "brands",
    "maker",
    "makers",
    "manufacturer",
    "manufacturers",
    "supplier",
    "suppliers",
    "vendor",
    "vendors",
    "provider",
    "providers",
    "company",
    "companies",
    "retailer",
    "retailers",
    "shop",
    "shops",
    "store",
    "stores",
    "seller",
    "sellers",
    "dealer",
    "dealers",
    "distributor",
    "distributors",
    "option",
    "options",
    "product",
    "products",
    "listing",
    "listings",
    "tool",
    "tools",
    "app",
    "apps",
    "platform",
    "platforms",
];

/// Plural words that do modify nouns in ordinary English (`sports brands`).
const PLURAL_MODIFIERS: &[&str] = &[
    "sports",
    "benefits",
    "sales",
    "savings",
    "arms",
    "customs",
    "systems",
    "goods",
    "news",
    "jobs",
    "kids",
    "electronics",
    "clothes",
    "outdoors",
    "services",
    "payments",
    "events",
    "parts",
    "spare",
    "communications",
    "operations",
    "materials",
    "chemicals",
    "foods",
    "drinks",
    "beverages",
    "pharmaceuticals",
    "textiles",
    "cosmetics",
    "toys",
    "games",
    "outdoor",
    "travel",
    "ones",
    "graphics",
    "logistics",
    "analytics",
    "metrics",
    "robotics",
    "optics",
    "plastics",
    "furnishings",
    "appliances",
    "supplies",
    "accessories",
    "solutions",
    "apps",
    "tools",
    "crafts",
    "arts",
    "books",
    "records",
    "tires",
    "tyres",
    "glasses",
    "jeans",
    "trousers",
    "pants",
    "shorts",
    "leggings",
    "tights",
    "pyjamas",
    "pajamas",
    "sunglasses",
    "scissors",
];

fn is_function_word(word: &str) -> bool {
    matches!(
        word,
        "a" | "an"
            | "the"
            | "and"
            | "or"
            | "but"
            | "for"
            | "to"
            | "of"
            | "in"
            | "on"
            | "at"
            | "by"
            | "with"
            | "from"
            | "between"
            | "before"
            | "after"
            | "while"
            | "is"
            | "are"
            | "was"
            | "were"
            | "be"
            | "do"
            | "does"
            | "did"
            | "that"
            | "which"
            | "who"
            | "when"
            | "where"
            | "how"
            | "what"
            | "why"
            | "if"
            | "than"
            | "as"
            | "it"
            | "i"
            | "we"
            | "you"
            | "they"
            | "my"
            | "our"
            | "your"
            | "their"
            | "its"
            | "can"
            | "should"
            | "would"
            | "could"
            | "will"
            | "into"
            | "about"
            | "without"
            | "vs"
            | "versus"
            | "like"
            | "under"
            | "over"
            | "near"
            | "per"
            | "has"
            | "have"
            | "need"
            | "needs"
            | "so"
            | "there"
            | "this"
            | "these"
            | "those"
            | "most"
            | "more"
            | "less"
            | "just"
            | "only"
            | "also"
    )
}

/// Whether `word` is pronounced with a vowel sound first (for `a`/`an`).
fn vowel_sound(word: &str) -> Option<bool> {
    let lower = word.to_lowercase();
    let first = lower.chars().next()?;
    if !first.is_ascii_alphabetic() {
        return None;
    }
    // All-caps acronyms are read letter by letter; too unpredictable to judge.
    if word.len() > 1
        && word
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
    {
        return None;
    }
    const VOWEL_EXCEPTIONS: &[&str] = &["hour", "honest", "honour", "honor", "heir", "herb"];
    const CONSONANT_EXCEPTIONS: &[&str] = &[
        "uni", "use", "usu", "usa", "user", "uti", "ure", "euro", "one", "once", "ubi", "uk", "eu",
        "ufo", "uran", "ur",
    ];
    if VOWEL_EXCEPTIONS.iter().any(|e| lower.starts_with(e)) {
        return Some(true);
    }
    if CONSONANT_EXCEPTIONS.iter().any(|e| lower.starts_with(e)) {
        return Some(false);
    }
    Some(matches!(first, 'a' | 'e' | 'i' | 'o' | 'u'))
}

/// Whether `word` looks like a plural count noun.
fn is_plural(word: &Word<'_>) -> bool {
    let lower = word.lower.as_str();
    if matches!(lower, "people" | "men" | "women" | "children") {
        return true;
    }
    lower.len() > 3
        && lower.ends_with('s')
        && !lower.ends_with("ss")
        && !lower.ends_with("us")
        && !lower.ends_with("is")
        && !lower.ends_with("ous")
        && !SINGULAR_S.contains(&lower)
        && !word.text.chars().next().is_some_and(char::is_uppercase)
        && !word.text.contains('\'')
}

/// Whether `before` (the words ahead of a plural noun) holds a singular determiner and
/// then a preposition: the plural noun ends a prepositional phrase, not the subject.
fn singular_before_preposition(before: &[Word<'_>]) -> bool {
    let Some(determiner) = before
        .iter()
        .position(|w| matches!(w.lower.as_str(), "a" | "an" | "this" | "that" | "each"))
    else {
        return false;
    };
    before[determiner + 1..].iter().any(|w| {
        matches!(
            w.lower.as_str(),
            "for" | "with" | "in" | "on" | "near" | "from" | "about" | "of"
        )
    })
}

fn agreement(prompt: &str, words: &[Word<'_>], push: &mut Push<'_>) {
    for (index, word) in words.iter().enumerate() {
        let next = words.get(index + 1);
        // A capital `A` inside a sentence is part of a name ("Series A startups",
        // "Grade A eggs"), not an article.
        if matches!(word.text, "A" | "An") && index > 0 && !word.sentence_start {
            continue;
        }
        // a/an by the next word's sound.
        if matches!(word.text, "a" | "an" | "A" | "An")
            && let Some(next) = next
            && let Some(vowel) = vowel_sound(next.text)
        {
            let wants = if vowel { "an" } else { "a" };
            if word.lower != wants {
                let with = if word.text.starts_with('A') {
                    if vowel { "An" } else { "A" }
                } else {
                    wants
                };
                push(
                    "agreement",
                    format!(
                        "`{} {}` should be `{with} {}`",
                        word.text, next.text, next.text
                    ),
                    Some(replace(prompt, word.start..end_of(word), with)),
                );
                return;
            }
        }
        // a/an/one/each/every + (modifiers) + mass noun ending the noun phrase.
        if matches!(
            word.lower.as_str(),
            "a" | "an" | "one" | "each" | "every" | "another"
        ) {
            for offset in 1..=3 {
                let Some(noun) = words.get(index + offset) else {
                    break;
                };
                // A possessive takes the determiner: "a freelancer's invoicing".
                if is_function_word(&noun.lower) || noun.text.contains(['\'', '\u{2019}']) {
                    break;
                }
                if MASS_NOUNS.contains(&noun.lower.as_str()) {
                    let after = words.get(index + offset + 1);
                    // `a bedding and bath linen brand`: the mass noun is one of two
                    // modifiers of a head further on.
                    let ends_phrase = noun.punct_after
                        || after.is_none_or(|a| {
                            (is_function_word(&a.lower)
                                && !matches!(a.lower.as_str(), "and" | "or"))
                                || is_verbish(&a.lower)
                        });
                    // `one product analytics`: only `one` is wrong with a mass noun
                    // that is also a modifier ("a marketing agency" is fine).
                    if ends_phrase {
                        let said = &prompt[word.start..end_of(noun)];
                        push(
                            "agreement",
                            format!(
                                "`{said}` counts a mass noun; say `{} tool`, `{} provider` or drop `{}`",
                                &prompt[words[index + 1].start..end_of(noun)],
                                &prompt[words[index + 1].start..end_of(noun)],
                                word.text
                            ),
                            None,
                        );
                        return;
                    }
                    break;
                }
                if noun.punct_after {
                    break;
                }
            }
        }
        // A singular determiner before a plural head: "a recipe newsletters",
        // "one vertical form fill seal machines".
        if matches!(
            word.lower.as_str(),
            "a" | "an" | "one" | "each" | "every" | "another"
        ) && let Some(head) = phrase_head(words, index + 1)
            && is_plural(&words[head])
            // `a good kids' helmet`: a possessive plural is a determiner, not the head.
            && !is_plural_possessive(prompt, &words[head])
            && !words[index + 1..head]
                .iter()
                .any(|w| w.text.contains(['\'', '\u{2019}']))
            && !(head > index + 1 && is_third_person_verb(&words[head].lower))
            // At the end of the prompt the `-s` word is as likely a verb ("someone a
            // neighbour recommends?").
            && head + 1 < words.len()
            && !matches!(
                words[index + 1].lower.as_str(),
                "few" | "couple" | "dozen" | "hundred" | "thousand" | "million" | "lot" | "great"
            )
        {
            let said = &prompt[word.start..end_of(&words[head])];
            push(
                "agreement",
                format!("`{said}` puts a singular determiner before a plural noun"),
                None,
            );
            return;
        }
        // "What are the best X" wants a plural X; "What is the best X" a singular one.
        if (index == 0 || word.sentence_start)
            && let Some(message) = wh_number(prompt, words, index)
        {
            push("agreement", message, None);
            return;
        }
        // Plural subject + singular verb: "accountants does".
        if is_plural(word)
            && let Some(verb) = next
            && matches!(
                verb.lower.as_str(),
                "does" | "doesnt" | "has" | "hasnt" | "is" | "isnt" | "was" | "wasnt"
            )
            && !word.punct_after
            // `Which of The Motley Fool's newsletters is`: the subject is `which`; a
            // rival's name can put the `of` five words back.
            && !words[index.saturating_sub(5)..index]
                .iter()
                .any(|w| matches!(w.lower.as_str(), "of" | "among" | "between"))
            && !is_question_inversion(words, index)
            // `an immigration law firm for family-based green cards is`: the subject is
            // the singular noun before the preposition.
            && !singular_before_preposition(&words[index.saturating_sub(8)..index])
            // `How many newsletters is it sensible to follow`: `it` or `there` is the
            // subject of the verb.
            && !words
                .get(index + 2)
                .is_some_and(|w| matches!(w.lower.as_str(), "it" | "there"))
        {
            let fixed = match verb.lower.as_str() {
                "does" => "do",
                "doesnt" => "don't",
                "has" => "have",
                "hasnt" => "haven't",
                "is" => "are",
                "isnt" => "aren't",
                "was" => "were",
                _ => "weren't",
            };
            push(
                "agreement",
                format!(
                    "`{} {}` should be `{} {fixed}`",
                    word.text, verb.text, word.text
                ),
                Some(replace(prompt, verb.start..end_of(verb), fixed)),
            );
            return;
        }
        // Irregular plurals with a possessive `s` but no apostrophe: "mens shirts".
        if matches!(
            word.lower.as_str(),
            "mens" | "womens" | "childrens" | "peoples"
        ) && !word.text.contains('\'')
        {
            let with = format!("{}'s", &word.text[..word.text.len() - 1]);
            push(
                "agreement",
                format!("`{}` should be `{with}`", word.text),
                Some(replace(prompt, word.start..end_of(word), &with)),
            );
            return;
        }
        // A plural label modifying a company noun: "shirts brands", "valves suppliers".
        if is_plural(word)
            && !PLURAL_MODIFIERS.contains(&word.lower.as_str())
            && !word.punct_after
            && let Some(head) = next
            && COMPANY_HEADS.contains(&head.lower.as_str())
        {
            let singular = &word.text[..word.text.len() - 1];
            push(
                "agreement",
                format!(
                    "`{} {}` uses a plural as a modifier; write `{singular} {}`",
                    word.text, head.text, head.text
                ),
                Some(replace(prompt, word.start..end_of(word), singular)),
            );
            return;
        }
    }
}

/// Whether `word` reads as a verb with the third-person `-s` ("switches", "needs"), so
/// that `a company switches` is a subject and its verb rather than one noun phrase.
fn is_third_person_verb(word: &str) -> bool {
    const VERBS: &[&str] = &[
        "switch",
        "need",
        "want",
        "use",
        "grow",
        "move",
        "change",
        "start",
        "offer",
        "make",
        "get",
        "run",
        "hire",
        "pay",
        "buy",
        "look",
        "plan",
        "work",
        "charge",
        "include",
        "give",
        "provide",
        "cost",
        "sell",
        "ship",
        "list",
        "rank",
        "deliver",
        "accept",
        "allow",
        "serve",
        "publish",
        "cover",
        "handle",
        "take",
        "send",
        "support",
        "expand",
        "scale",
        "open",
        "launch",
        "decide",
        "choose",
        "add",
        "lose",
        "fail",
        "break",
        "leave",
        "join",
        "book",
        "outgrow",
        "sign",
        "migrate",
        "reach",
        "hit",
        "try",
        "apply",
        "rely",
        "spend",
        "save",
        "cancel",
        "refund",
        "respond",
        "reply",
        "arrive",
        "recommend",
    ];
    let stem = word
        .strip_suffix("ies")
        .map(|s| format!("{s}y"))
        .or_else(|| {
            word.strip_suffix("es")
                .filter(|s| s.ends_with("ch") || s.ends_with("sh") || s.ends_with('x'))
                .map(str::to_string)
        })
        .or_else(|| word.strip_suffix('s').map(str::to_string));
    stem.is_some_and(|stem| VERBS.contains(&stem.as_str()))
}

/// The index of the head of the noun phrase starting at `start`: the last word before
/// a function word, a verb-like word or punctuation, at most five words on.
fn phrase_head(words: &[Word<'_>], start: usize) -> Option<usize> {
    let mut head = None;
    // Seven words: `the most underrated merino running base layer brands` has its head
    // sixth.
    for (index, word) in words.iter().enumerate().skip(start).take(7) {
        // `slim fit shirts`, `work boots`: a verb-like word between a modifier and a
        // noun is part of a compound, not the verb.
        let compound = index > start
            && !words[index - 1].punct_after
            && !word.punct_after
            && words
                .get(index + 1)
                .is_some_and(|next| !is_function_word(&next.lower) && !is_verbish(&next.lower))
            && matches!(word.lower.as_str(), "fit" | "work" | "care");
        if is_function_word(&word.lower)
            || is_verbish(&word.lower) && !compound
            || PLURAL_VERBS.contains(&word.lower.as_str()) && head.is_some()
        {
            break;
        }
        head = Some(index);
        if word.punct_after {
            break;
        }
    }
    head
}

/// Verbs in their plural (base) form, as they follow a plural subject.
const PLURAL_VERBS: &[&str] = &[
    "have", "are", "were", "offer", "send", "let", "make", "support", "work", "charge", "include",
    "give", "come", "provide", "cost", "sell", "ship", "list", "get", "rank", "deliver", "accept",
    "allow", "run", "serve", "publish", "cover", "handle", "take",
];

/// Number agreement in `What are the best X`, `What is the best X` and `Which X have`
/// questions starting at `index`.
fn wh_number(prompt: &str, words: &[Word<'_>], index: usize) -> Option<String> {
    let first = words.get(index)?;
    let second = words.get(index + 1)?;
    match (first.lower.as_str(), second.lower.as_str()) {
        ("what" | "which", "are" | "is") => {
            let mut start = index + 2;
            // Skip a determiner and degree words: "the best", "the most underrated", "good".
            while words.get(start).is_some_and(|w| {
                matches!(
                    w.lower.as_str(),
                    "the"
                        | "most"
                        | "some"
                        | "top"
                        | "best"
                        | "good"
                        | "great"
                        | "cheapest"
                        | "leading"
                        | "main"
                ) || w.lower.ends_with("est") && w.lower.len() > 4
            }) {
                start += 1;
            }
            if start == index + 2 && second.lower == "is" {
                return None;
            }
            let head = phrase_head(words, start)?;
            let head_word = &words[head];
            // A name or an acronym decides nothing ("What is Mixpanel").
            if head_word
                .text
                .chars()
                .next()
                .is_some_and(char::is_uppercase)
            {
                return None;
            }
            // `the best hiking guide and gear review sites`: the head comes after the
            // `and`, which this reading does not follow.
            if words
                .get(head + 1)
                .is_some_and(|w| matches!(w.lower.as_str(), "and" | "or"))
            {
                return None;
            }
            let plural = is_plural(head_word);
            let said = &prompt[words[start].start..end_of(head_word)];
            if second.lower == "are"
                && !plural
                && !head_word.lower.ends_with("s")
                && !words[start..head].iter().any(is_plural)
                && start > index + 2
            {
                return Some(format!(
                    "`{} {} … {said}` wants a plural noun",
                    first.text, second.text
                ));
            }
            if second.lower == "is" && plural && start > index + 2 {
                return Some(format!(
                    "`{} {} … {said}` wants a singular noun",
                    first.text, second.text
                ));
            }
            None
        }
        ("which", _) => {
            let head = phrase_head(words, index + 1)?;
            let verb = words.get(head + 1)?;
            let head_word = &words[head];
            if head_word.punct_after
                || head_word
                    .text
                    .chars()
                    .next()
                    .is_some_and(char::is_uppercase)
                || head_word.lower.ends_with('s')
                || MASS_NOUNS.contains(&head_word.lower.as_str())
                || !PLURAL_VERBS.contains(&verb.lower.as_str())
            {
                return None;
            }
            // "Which tool have you used": the verb is an auxiliary before a subject.
            if words.get(head + 2).is_some_and(|w| {
                matches!(
                    w.lower.as_str(),
                    "you" | "i" | "we" | "they" | "people" | "users" | "customers"
                )
            }) {
                return None;
            }
            let said = &prompt[words[index + 1].start..end_of(verb)];
            Some(format!(
                "`{said}`: a singular subject takes `{}`",
                singular_verb(&verb.lower)
            ))
        }
        ("why" | "how" | "when" | "where", "does" | "is" | "has" | "was") => {
            let head = phrase_head(words, index + 2)?;
            let head_word = &words[head];
            let first_word = &words[index + 2];
            // A name (`Gusto`, `7shifts`) or a possessive (`7shifts' pricing`) is no
            // plural subject.
            if first_word
                .text
                .chars()
                .next()
                .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
                || is_plural_possessive(prompt, first_word)
                || !is_plural(head_word)
            {
                return None;
            }
            let said = &prompt[second.start..end_of(head_word)];
            Some(format!(
                "`{said}`: a plural subject takes `{}`",
                match second.lower.as_str() {
                    "does" => "do",
                    "is" => "are",
                    "has" => "have",
                    _ => "were",
                }
            ))
        }
        _ => None,
    }
}

fn singular_verb(verb: &str) -> String {
    match verb {
        "have" => "has".into(),
        "are" => "is".into(),
        "were" => "was".into(),
        other if other.ends_with('s') || other.ends_with("sh") || other.ends_with("ch") => {
            format!("{other}es")
        }
        other => format!("{other}s"),
    }
}

/// Whether the plural word at `index` is inside a question such as "Which accountants
/// does Metricly integrate with" (the verb belongs to a later subject).
fn is_question_inversion(words: &[Word<'_>], index: usize) -> bool {
    let Some(verb) = words.get(index + 1) else {
        return false;
    };
    if !matches!(verb.lower.as_str(), "does" | "is" | "has" | "was") {
        return false;
    }
    // "What tools does X use": a wh-word before the noun and a subject after the verb.
    let wh_before = words[..index]
        .iter()
        .any(|w| matches!(w.lower.as_str(), "what" | "which" | "how" | "whose"));
    let after = words.get(index + 2);
    wh_before
        && after.is_some_and(|a| {
            a.text.chars().next().is_some_and(char::is_uppercase)
                || matches!(
                    a.lower.as_str(),
                    "my" | "our" | "your" | "the" | "a" | "an" | "it" | "this" | "their" | "each"
                )
        })
        && verb.lower != "is"
}

/// Words that read as a verb after a noun phrase (so the phrase ended).
fn is_verbish(word: &str) -> bool {
    matches!(
        word,
        "should"
            | "would"
            | "could"
            | "can"
            | "will"
            | "is"
            | "are"
            | "be"
            | "do"
            | "does"
            | "cost"
            | "costs"
            | "work"
            | "works"
            | "help"
            | "helps"
            | "offer"
            | "offers"
            | "suit"
            | "suits"
            | "fit"
            | "fits"
            | "make"
            | "makes"
            | "handle"
            | "handles"
            | "integrate"
            | "integrates"
            | "support"
            | "supports"
            | "brand"
            | "provider"
    ) && word != "brand"
        && word != "provider"
}

// ---------------------------------------------------------------------------------
// unnatural

/// Fragments left by template slot filling.
const RESIDUE: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "<",
    ">",
    "{{",
    "}}",
    "%s",
    "$1",
    "null",
    "undefined",
    "n/a",
    "tbd",
    "lorem",
    "todo",
];

/// Frames that wrap any label in the same sentence: consultant-speak or review-site
/// filler that reads the same whatever the label is, so buyers never type it.
const ROBOTIC_FRAMES: &[&str] = &[
    "step by step approach to",
    "typical rollout for",
    "tools or products help with",
    "leading approaches to",
    "do not compromise on quality",
    "options do reviewers rate highest",
    "solutions do experts recommend for",
    "big names in",
    "top rated options for",
    "fair price for quality",
    "options work best for",
];

/// Generic quality words glued onto a category label by templates.
const TEMPLATE_QUALIFIERS: &[&str] = &["low quality", "high quality", "good quality"];

fn unnatural(prompt: &str, words: &[Word<'_>], context: &Context, push: &mut Push<'_>) {
    let lower = prompt.to_lowercase();
    for token in RESIDUE {
        let hit = if token.chars().all(char::is_alphanumeric) {
            words.iter().any(|w| w.lower == *token)
        } else if *token == "$1" {
            // A regex back-reference, not a price (`$100`, `$1,000`, `$1.50`).
            lower.match_indices(token).any(|(at, _)| {
                !lower[at + token.len()..]
                    .starts_with(|c: char| c.is_ascii_digit() || c == ',' || c == '.')
            })
        } else {
            lower.contains(token)
        };
        if hit {
            push(
                "unnatural",
                format!("`{token}` is left over from a template"),
                None,
            );
            return;
        }
    }
    if !super::text::is_question_or_request(prompt, &super::text::normalize(prompt)) {
        push(
            "unnatural",
            "the prompt is a keyword string, not a question or request people type".into(),
            None,
        );
        return;
    }
    let normalized = super::text::normalize(prompt);
    if let Some(frame) = ROBOTIC_FRAMES
        .iter()
        .find(|f| normalized.contains(&format!(" {f} ")))
    {
        push(
            "unnatural",
            format!("`{frame}` is a template frame around a label; no buyer phrases a question so"),
            None,
        );
        return;
    }
    // A channel named for one country followed by another place: "on Amazon UK in
    // Ireland".
    for channel in &context.channels {
        let channel = channel.trim();
        if crate::generate::phrasing::names_country(channel)
            && prompt.contains(&format!("{channel} in "))
        {
            push(
                "unnatural",
                format!(
                    "`{channel}` already names its country; a second place after it stacks two slots"
                ),
                None,
            );
            return;
        }
    }
    if let Some(qualifier) = TEMPLATE_QUALIFIERS
        .iter()
        .find(|q| normalized.contains(&format!(" {q} ")))
        && context.sells_goods()
    {
        push(
            "unnatural",
            format!("`{qualifier}` glued onto a category reads as a template"),
            None,
        );
    }
}

// ---------------------------------------------------------------------------------
// wrong-category-noun

/// Nouns for platforms and listings: things you book or buy *through*, not buy.
const PLATFORM_NOUNS: &[&str] = &[
    "marketplace",
    "marketplaces",
    "platform",
    "platforms",
    "booking",
    "bookings",
    "listing",
    "listings",
    "profile",
    "profiles",
    "directory",
    "directories",
    "reservation",
    "reservations",
    "website",
    "websites",
];

/// Nouns for people and firms: hired or booked, never delivered or bought.
const PROVIDER_NOUNS: &[&str] = &[
    "plumber",
    "plumbers",
    "electrician",
    "electricians",
    "tradesperson",
    "tradespeople",
    "accountant",
    "accountants",
    "lawyer",
    "lawyers",
    "consultant",
    "consultants",
    "agency",
    "agencies",
    "firm",
    "firms",
    "cleaner",
    "cleaners",
    "tutor",
    "tutors",
    "freelancer",
    "freelancers",
    "contractor",
    "contractors",
    "builder",
    "builders",
    "dentist",
    "dentists",
    "therapist",
    "therapists",
    "coach",
    "coaches",
    "provider",
    "providers",
    "handyman",
    "bookkeeper",
    "bookkeepers",
    "advisor",
    "advisors",
    "adviser",
    "advisers",
    "services",
];

/// Nouns for software: subscribed to or trialled, never hired or delivered.
const SOFTWARE_NOUNS: &[&str] = &[
    "software",
    "tool",
    "tools",
    "app",
    "apps",
    "dashboard",
    "dashboards",
    "saas",
    "crm",
    "platform",
    "platforms",
    "plugin",
    "plugins",
    "analytics",
];

fn wrong_category_noun(prompt: &str, words: &[Word<'_>], context: &Context, push: &mut Push<'_>) {
    let _ = prompt;
    for (index, word) in words.iter().enumerate() {
        let verb = word.lower.as_str();
        let object: Vec<&Word<'_>> = words[index + 1..]
            .iter()
            .take_while(|w| {
                !matches!(
                    w.lower.as_str(),
                    "on" | "from"
                        | "for"
                        | "in"
                        | "with"
                        | "through"
                        | "via"
                        | "that"
                        | "which"
                        | "to"
                        | "and"
                        | "or"
                        | "at"
                        | "within"
                        | "if"
                        | "when"
                )
            })
            .take(4)
            .collect();
        // The head is the last word of the object phrase up to punctuation.
        let mut head = None;
        for w in &object {
            head = Some(*w);
            if w.punct_after {
                break;
            }
        }
        let Some(head) = head else { continue };
        let head_lower = head.lower.as_str();
        let wrong = match verb {
            "buy" | "buying" | "purchase" | "purchasing" | "order" | "ordering"
                if PLATFORM_NOUNS.contains(&head_lower) =>
            {
                Some("a platform or listing is used to book or buy, not bought itself")
            }
            "buy" | "buying" | "purchase" | "purchasing"
                if PROVIDER_NOUNS.contains(&head_lower)
                    && !matches!(head_lower, "services" | "provider" | "providers") =>
            {
                Some("people hire professionals, they do not buy them")
            }
            "deliver" | "delivered" | "delivers" | "ship" | "shipped"
                if PLATFORM_NOUNS.contains(&head_lower) || PROVIDER_NOUNS.contains(&head_lower) =>
            {
                Some("bookings and professionals are not delivered")
            }
            "hire" | "hiring" if SOFTWARE_NOUNS.contains(&head_lower) => {
                Some("software is subscribed to, not hired")
            }
            "book" | "booking"
                if SOFTWARE_NOUNS.contains(&head_lower)
                    && context.model == Some(BusinessModel::Saas)
                    && !matches!(head_lower, "platform" | "platforms") =>
            {
                Some("software is subscribed to, not booked")
            }
            _ => None,
        };
        if let Some(why) = wrong {
            let said = &prompt[word.start..end_of(head)];
            push("wrong-category-noun", format!("`{said}`: {why}"), None);
            return;
        }
        // `get ... delivered` with a booking or a professional as object.
        if verb == "get"
            && words[index + 1..]
                .iter()
                .take(6)
                .any(|w| w.lower == "delivered")
            && words[..index].iter().chain(&words[index + 1..]).any(|w| {
                PLATFORM_NOUNS.contains(&w.lower.as_str())
                    || PROVIDER_NOUNS.contains(&w.lower.as_str())
            })
        {
            push(
                "wrong-category-noun",
                "bookings and professionals are not delivered".into(),
                None,
            );
            return;
        }
    }
    // "Which travel booking marketplaces can I rent", "which home repair bookings suit
    // homeowners": the platform or the booking chosen as if it were the stay, the
    // tradesperson or the developer people actually pick.
    if let Some(first) = words.first()
        && first.lower == "which"
        && let Some(head) = phrase_head(words, 1)
        && matches!(
            words[head].lower.as_str(),
            "marketplaces" | "bookings" | "reservations" | "listings"
        )
        && !words[head].punct_after
    {
        let after: Vec<&str> = words[head + 1..]
            .iter()
            .take(3)
            .map(|w| w.lower.as_str())
            .collect();
        let chosen_as_offer = match after.as_slice() {
            ["can" | "could" | "should", "i" | "we", verb, ..] => matches!(
                *verb,
                "rent" | "hire" | "stay" | "book" | "buy" | "eat" | "visit"
            ),
            ["suit" | "suits", ..] => true,
            ["are", "the", "best" | "cheapest"] => {
                after.len() == 3
                    && words
                        .get(head + 4)
                        .is_some_and(|w| matches!(w.lower.as_str(), "value" | "choice" | "option"))
            }
            _ => false,
        };
        if chosen_as_offer {
            let said = &prompt[first.start..end_of(&words[head])];
            push(
                "wrong-category-noun",
                format!(
                    "`{said}`: people choose what the platform lists (a stay, a professional), not the platform or the booking itself"
                ),
                None,
            );
            return;
        }
    }
    // The business model's own label as the thing compared: "professional services
    // brands", "the most underrated professional services". Clients of a dental clinic
    // or an accountant compare dentists or accountants.
    if context.model == Some(BusinessModel::Services) {
        let normalized = super::text::normalize(prompt);
        for phrase in [
            " professional services brands ",
            " professional services brand ",
            " underrated professional services ",
            " best professional services ",
            " top professional services ",
        ] {
            if normalized.contains(phrase) {
                push(
                    "wrong-category-noun",
                    "`professional services` is the industry's label, not what the client hires; name the professional (an accountant, a dentist, an agency)".into(),
                    None,
                );
                return;
            }
        }
    }
    // A marketplace whose users "buy online marketplaces": the category is what they book.
    if context.model == Some(BusinessModel::Marketplace) {
        let normalized = super::text::normalize(prompt);
        for phrase in [
            "best online marketplaces",
            "cheapest online marketplaces",
            "one online marketplace",
        ] {
            if normalized.contains(phrase) {
                push(
                    "wrong-category-noun",
                    "a marketplace's users book what it lists, not `online marketplaces`".into(),
                    None,
                );
                return;
            }
        }
    }
}

// ---------------------------------------------------------------------------------
// off-topic

/// Whether the prompt names `name` in full (singular or plural of its last word).
fn mentions_name(normalized_prompt: &str, name: &str) -> bool {
    let normalized = super::text::normalize(name);
    let trimmed = normalized.trim();
    if trimmed.is_empty() {
        return false;
    }
    let singular = trimmed.strip_suffix('s').unwrap_or(trimmed);
    [
        trimmed.to_owned(),
        singular.to_owned(),
        format!("{singular}s"),
    ]
    .iter()
    .any(|form| normalized_prompt.contains(&format!(" {form} ")))
}

/// Whether the prompt names the product line `name`: in full, or by the last two words
/// of a longer name ("base layers" for `Merino running base layers`), as people shorten
/// a line when they ask about it.
fn mentions_line(normalized_prompt: &str, name: &str) -> bool {
    if mentions_name(normalized_prompt, name) {
        return true;
    }
    let normalized = super::text::normalize(name);
    let parts: Vec<&str> = normalized.split_whitespace().collect();
    parts.len() >= 3 && mentions_name(normalized_prompt, &parts[parts.len() - 2..].join(" "))
}

fn off_topic(prompt: &str, topic: &str, context: &Context, push: &mut Push<'_>) {
    let normalized = super::text::normalize(prompt);
    let topic_normalized = super::text::normalize(topic);
    // Competitor topics compare with other competitors by nature, and product lines
    // often overlap in words, so only a prompt sharing no content word with its topic
    // and naming another product line counts as drifting.
    let topic_tokens = super::text::content_tokens(&topic_normalized);
    let prompt_tokens = super::text::content_tokens(&normalized);
    if topic_tokens.iter().any(|t| prompt_tokens.contains(t)) {
        return;
    }
    let kinds: [(&str, &Vec<String>); 1] = [("product line", &context.product_lines)];
    for (kind, names) in kinds {
        if names.len() < 2 {
            continue;
        }
        let all: Vec<&String> = names.iter().collect();
        let topic_names: Vec<&&String> = all
            .iter()
            .filter(|n| mentions_name(&topic_normalized, n))
            .collect();
        if topic_names.len() != 1 {
            continue;
        }
        let own = topic_names[0];
        if mentions_line(&normalized, own) {
            continue;
        }
        // Competitor topics may compare with others; only a prompt about another
        // product line entirely, or about another competitor alone, drifts.
        let umbrella = |name: &str| context.category.as_deref() == Some(name);
        // A topic about the whole category covers every line in it.
        if umbrella(own) {
            continue;
        }
        if let Some(other) = all
            .iter()
            .find(|n| **n != *own && !umbrella(n) && mentions_line(&normalized, n))
        {
            push(
                "off-topic",
                format!("the topic is about the {kind} `{own}` but the prompt is about `{other}`"),
                None,
            );
            return;
        }
    }
}

// ---------------------------------------------------------------------------------
// template residue: the shapes slot-filling leaves behind, whatever fills the slots

/// Misfits that show in the sentence's shape rather than in one word: a goods
/// template's "outgrow their first …" or "what do buyers say" outside goods, two of the
/// brief's audiences strung together with `and`, a market label followed by `markets`,
/// a mass noun given a plural ending, a persona slot (`if I am a … buyer`), a
/// two-word phrase said twice, a quoted keyword "mean when comparing", a platform
/// that is rented or hired, a store name without its article.
fn template_residue(prompt: &str, words: &[Word<'_>], context: &Context, push: &mut Push<'_>) {
    let normalized = super::text::normalize(prompt);
    let padded = format!(" {} ", normalized.trim());
    let lower: Vec<&str> = words.iter().map(|w| w.lower.as_str()).collect();
    let goods = context.sells_goods() || context.model == Some(BusinessModel::Saas);
    if !goods && padded.contains(" outgrow their first ") {
        push(
            "wrong-category-noun",
            "people outgrow a product, not what this business offers; `outgrow their first …` is a goods template".to_owned(),
            None,
        );
    }
    if !goods && context.model.is_some() && padded.contains(" what do buyers say ") {
        push(
            "wrong-category-noun",
            "the people who use this business are not buyers of goods; say clients, readers, guests or patients".to_owned(),
            None,
        );
    }
    for (i, first) in context.audiences.iter().enumerate() {
        for second in context.audiences.iter().skip(i + 1) {
            let joined = format!("{first} and {second}");
            let reversed = format!("{second} and {first}");
            if has_phrase(&normalized, &joined) || has_phrase(&normalized, &reversed) {
                push(
                    "pasted-audience",
                    format!(
                        "the brief's audiences `{first}` and `{second}` are strung together; ask for one of them"
                    ),
                    None,
                );
            }
        }
    }
    // `and freelancers and contractors`: a list of audiences pasted as one.
    if lower
        .windows(4)
        .any(|w| w[0] == "and" && w[2] == "and" && w[1].ends_with('s') && w[3].ends_with('s'))
    {
        push(
            "pasted-audience",
            "a list of audiences is pasted into the prompt; ask for one of them".to_owned(),
            None,
        );
    }
    for window in words.windows(3) {
        if window[0].lower == "in"
            && window[2].lower == "markets"
            && window[1]
                .text
                .chars()
                .next()
                .is_some_and(char::is_uppercase)
        {
            push(
                "region-as-place",
                format!(
                    "`in {} markets` is a region label, not a place people name",
                    window[1].text
                ),
                None,
            );
        }
    }
    for word in words {
        // `Tom's Hardware's coverage`: a possessive, not a plural.
        if word.text.ends_with("'s") || word.text.ends_with("\u{2019}s") {
            continue;
        }
        let stem = word
            .lower
            .strip_suffix("ies")
            .map(|s| format!("{s}y"))
            .or_else(|| word.lower.strip_suffix('s').map(str::to_owned));
        if let Some(stem) = stem
            && MASS_NOUNS.contains(&stem.as_str())
            && !MASS_NOUNS.contains(&word.lower.as_str())
        {
            push(
                "agreement",
                format!("`{stem}` is a mass noun and takes no plural ending"),
                Some(replace(prompt, word.start..end_of(word), &stem)),
            );
        }
    }
    if padded.contains(" if i am a ") && padded.contains(" buyer ") {
        push(
            "unnatural",
            "`if I am a … buyer` is a persona slot, not how people describe themselves".to_owned(),
            None,
        );
    }
    if padded.contains(" i am ready to buy ") && padded.contains(" which one should i choose ") {
        push(
            "unnatural",
            "`I am ready to buy …: which one should I choose?` is a template frame".to_owned(),
            None,
        );
    }
    // The brief's channel label `Own website` pasted mid-sentence: the brand's own site
    // is not a shop called "Own website".
    if words.iter().zip(words.iter().skip(1)).any(|(own, next)| {
        own.text == "Own"
            && !own.sentence_start
            && matches!(
                next.lower.as_str(),
                "website" | "site" | "app" | "shop" | "store"
            )
    }) {
        push(
            "channel-misuse",
            "`Own website` is the brief's channel label; say `on the brand's own website`"
                .to_owned(),
            None,
        );
    }
    if prompt.contains('"') && padded.contains(" mean when comparing ") {
        push(
            "tautology",
            "asking what a quoted keyword means \"when comparing\" the category says nothing"
                .to_owned(),
            None,
        );
    }
    // Content words, and whether each is capitalised inside the sentence (part of a
    // name): `Aurora Music School` and `Yamaha Music School` share `music school`
    // without any slot doubled.
    let content: Vec<(&str, bool)> = words
        .iter()
        .filter(|w| w.lower.len() > 3 && !is_function_word(&w.lower))
        .map(|w| {
            let named = !w.sentence_start && w.text.chars().next().is_some_and(char::is_uppercase);
            (w.lower.as_str(), named)
        })
        .collect();
    let pairs: Vec<((&str, &str), bool)> = content
        .windows(2)
        .map(|w| ((w[0].0, w[1].0), w[0].1 && w[1].1))
        .collect();
    if pairs.iter().enumerate().any(|(i, (pair, named))| {
        pairs[i + 2.min(pairs.len() - i)..]
            .iter()
            .any(|(other, other_named)| other == pair && !(*named && *other_named))
    }) {
        push(
            "doubled-word",
            "a two-word phrase comes twice; one of them is a slot filled with the topic".to_owned(),
            None,
        );
    }
    for window in lower.windows(4) {
        if window[0] == "which"
            && (window[1].ends_with("marketplaces") || window[1] == "platforms")
            && window[2] == "can"
            && window[3] == "i"
        {
            push(
                "wrong-category-noun",
                "people rent stays and hire people through a marketplace, not the marketplace itself".to_owned(),
                None,
            );
        }
    }
    for window in words.windows(3) {
        if window[1].lower == "app"
            && window[2].lower == "store"
            && window[0]
                .text
                .chars()
                .next()
                .is_some_and(char::is_uppercase)
        {
            let before = words
                .iter()
                .take_while(|w| w.start < window[0].start)
                .last()
                .map(|w| w.lower.as_str());
            if before == Some("on") || before == Some("in") {
                push(
                    "agreement",
                    format!("`{} App Store` needs `the`", window[0].text),
                    None,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn saas() -> Context {
        Context {
            model: Some(BusinessModel::Saas),
            brand: "Metricly".into(),
            markets: vec!["Worldwide".into()],
            audiences: vec!["men aged 25-45 who buy clothing on Amazon and Walmart".into()],
            channels: vec![],
            product_lines: vec!["Product analytics".into(), "Attribution dashboards".into()],
            competitors: vec!["Mixpanel".into(), "Amplitude".into()],
            category: None,
        }
    }

    fn rules(prompt: &str) -> Vec<&'static str> {
        check_prompt(prompt, None, &saas())
            .into_iter()
            .map(|m| m.rule)
            .collect()
    }

    fn with(model: BusinessModel, channels: &[&str], lines: &[&str]) -> Context {
        Context {
            model: Some(model),
            channels: channels.iter().map(|c| (*c).to_owned()).collect(),
            product_lines: lines.iter().map(|l| (*l).to_owned()).collect(),
            ..saas()
        }
    }

    fn rules_in(prompt: &str, topic: Option<&str>, context: &Context) -> Vec<&'static str> {
        check_prompt(prompt, topic, context)
            .into_iter()
            .map(|m| m.rule)
            .collect()
    }

    #[test]
    fn a_marketplace_for_goods_may_speak_of_buying_them() {
        let cars = with(BusinessModel::Marketplace, &[], &["Used cars"]);
        let sitting = with(BusinessModel::Marketplace, &[], &["Dog walking"]);
        let prompt = "Is it safer to buy a used car on a marketplace or from a dealer?";
        assert!(!rules_in(prompt, None, &cars).contains(&"physical-framing"));
        let prompt = "Is it better to buy dog walking on an app?";
        assert!(rules_in(prompt, None, &sitting).contains(&"physical-framing"));
    }

    #[test]
    fn platforms_chosen_as_the_offer_are_the_wrong_noun() {
        let market = with(BusinessModel::Marketplace, &[], &[]);
        for bad in [
            "Which travel booking marketplaces can I rent for a week in August?",
            "Which freelance marketplaces can I hire for a React project?",
            "Which home repair bookings suit homeowners on a tight budget?",
        ] {
            assert!(
                rules_in(bad, None, &market).contains(&"wrong-category-noun"),
                "{bad}"
            );
        }
        for good in [
            "Which booking platforms are cheapest for hosts?",
            "Which marketplaces charge hosts the lowest fees?",
            "Which freelance marketplaces vet their developers?",
        ] {
            assert!(rules_in(good, None, &market).is_empty(), "{good}");
        }
    }

    #[test]
    fn a_product_line_is_recognised_by_its_short_name() {
        let shop = with(
            BusinessModel::Ecommerce,
            &[],
            &["Running hydration vests", "Merino running base layers"],
        );
        let topic = Some("Running hydration vests");
        assert!(
            rules_in(
                "Which merino base layer is warmest for winter races?",
                topic,
                &shop
            )
            .contains(&"off-topic")
        );
        assert!(rules_in("Which base layers go under a hydration vest?", topic, &shop).is_empty());
    }

    #[test]
    fn stacked_channel_and_market_and_food_as_a_gadget() {
        let shop = with(BusinessModel::Ecommerce, &["Amazon UK"], &[]);
        assert!(
            rules_in(
                "What are the best-reviewed hydration vests on Amazon UK in Ireland?",
                None,
                &shop
            )
            .contains(&"unnatural")
        );
        assert!(rules_in("Are hydration vests cheaper on Amazon UK?", None, &shop).is_empty());
        assert!(rules_in("高山乌龙茶是怎么工作的？", None, &shop).contains(&"unnatural"));
        assert!(rules_in("中国大陆有哪些口碑好的茶叶品牌？", None, &shop).is_empty());
    }

    #[test]
    fn flags_the_issue_examples() {
        assert!(
            rules("How long should good attribution dashboards last, and what affects it?")
                .contains(&"physical-framing")
        );
        assert!(
            rules("If I could only buy one product analytics, which brand should it be?")
                .contains(&"agreement")
        );
        assert!(
            rules("What does \"product analytics\" mean when comparing product analytics?")
                .contains(&"tautology")
        );
        assert!(
            rules("Which product analytics tools are popular in Worldwide?")
                .contains(&"region-as-place")
        );
        assert!(rules("Is the the best analytics tool free?").contains(&"doubled-word"));
        assert!(
            rules("Is it better to buy valves on Trade shows or online?")
                .contains(&"channel-misuse")
        );
        assert!(
            rules("What do reviewers say local accountants does worse than its competitors?")
                .contains(&"agreement")
        );
        assert!(rules("Which mens shirts brands last longest?").contains(&"agreement"));
        assert!(rules("Which firms for green cards is legitimate?").contains(&"agreement"));
    }

    #[test]
    fn keeps_good_prompts() {
        for good in [
            "Which product analytics tools can replace GA4 for a Shopify store, and what do they cost per month?",
            "Which of The Motley Fool's newsletters is best for a beginner?",
            "How can I check that an immigration law firm for family-based green cards is legitimate?",
            "How does 7shifts' pricing compare with other tools?",
            "How much should I expect to pay for a good kids' helmet?",
            "What are the best hiking guide and gear review sites for weekend hikers?",
            "What should I check on a bedding and bath linen brand's website before my first order?",
            "Is Aurora Music School a good alternative to Yamaha Music School?",
            "Which trade shows in Germany are worth visiting to compare valve makers?",
            "Do any accountants offer a fixed fee worldwide?",
            "What do UK accountants usually charge a sole trader for Making Tax Digital filing?",
            "Which site is best for booking a vetted plumber for an emergency repair?",
            "Is Mixpanel or Amplitude better for a 20-person startup?",
            "Which analytics tool is an honest choice for a university?",
        ] {
            assert!(
                rules(good).is_empty(),
                "{good}: {:?}",
                check_prompt(good, None, &saas())
            );
        }
    }

    #[test]
    fn suggests_rewrites_where_obvious() {
        let misfits = check_prompt("Which is a analytics tool for startups?", None, &saas());
        assert_eq!(
            misfits[0].suggestion.as_deref(),
            Some("Which is an analytics tool for startups?")
        );
    }
}
