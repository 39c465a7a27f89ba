//! The lint rules. Each rule has a stable id (see [`super::RULES`]) and reports
//! findings with the JSON pointer of the value at fault.

use std::collections::{BTreeMap, HashMap};

use super::facts::{Facts, LAYER_BANDS, layer_index, percent};
use super::text;
use crate::generate::text::with_article;
use crate::model::{FunnelStage, Layer, Level, PromptSet, TopicSource};

/// A finding before it has a position.
#[derive(Debug, Clone)]
pub(crate) struct Finding {
    /// The rule's id.
    pub rule: &'static str,
    /// JSON pointer of the value at fault.
    pub pointer: String,
    /// A sentence for people.
    pub message: String,
}

/// Prompts longer than this many words are flagged by `prompt-too-long`.
pub(crate) const MAX_PROMPT_WORDS: usize = 45;

/// A funnel stage holding at least this share of the prompts trips `single-funnel-stage`.
pub(crate) const SINGLE_STAGE_SHARE: usize = 80;

/// The share of prompts naming the brand above which the set is `brand-heavy`.
pub(crate) const BRAND_MENTION_SHARE: usize = 50;

/// A high-priority topic with fewer prompts than this is thin.
pub(crate) const MIN_HIGH_PRIORITY_PROMPTS: usize = 3;

/// How far a declared layer share may be from the actual one, in percentage points.
pub(crate) const DECLARED_MIX_TOLERANCE: f64 = 5.0;

/// Words in `why_this_topic_exists` that say a topic was inferred, matched against
/// normalised text.
const INFERENCE_MARKERS: &[&str] = &[
    " inferred ",
    " infer ",
    " inferring ",
    " assumed ",
    " assume ",
    " assuming ",
    " assumption",
    " guess",
    " speculative ",
    " not in the brief ",
    " not provided ",
    " not given ",
    " not listed ",
    " not mentioned ",
];

struct Checker<'s, 'a> {
    set: &'s PromptSet<'a>,
    facts: &'s Facts,
    findings: Vec<Finding>,
}

impl Checker<'_, '_> {
    fn push(&mut self, rule: &'static str, pointer: impl Into<String>, message: impl Into<String>) {
        self.findings.push(Finding {
            rule,
            pointer: pointer.into(),
            message: message.into(),
        });
    }
}

/// Runs every rule over `set`.
pub(crate) fn check(set: &PromptSet<'_>, facts: &Facts) -> Vec<Finding> {
    let mut checker = Checker {
        set,
        facts,
        findings: Vec::new(),
    };
    layers(&mut checker);
    prompts(&mut checker);
    funnel(&mut checker);
    topics(&mut checker);
    product_lines(&mut checker);
    declared_mix(&mut checker);
    priorities(&mut checker);
    business_model(&mut checker);
    checker.findings
}

fn layers(c: &mut Checker<'_, '_>) {
    let total = c.facts.prompt_count();
    for (index, layer) in Layer::ALL.iter().enumerate() {
        let count = c.facts.layer_counts[index];
        let band = LAYER_BANDS[index];
        if count == 0 {
            c.push(
                "missing-layer",
                "/prompts",
                format!(
                    "no prompt is in the `{layer}` layer; the target is {}-{} % of the set",
                    band.low, band.high
                ),
            );
            continue;
        }
        let (low, high) = band.counts(total);
        if *layer == Layer::BrandDefense && count > high {
            // Reported as `brand-heavy` below, with the reason that matters.
            continue;
        }
        if count < low || count > high {
            c.push(
                "layer-mix-off-target",
                "/prompts",
                format!(
                    "`{layer}` prompts are {} % of the set ({count} of {total}); the target is {}-{} %",
                    percent(count, total),
                    band.low,
                    band.high
                ),
            );
        }
    }
    let brand_defense = c.facts.layer_counts[layer_index(Layer::BrandDefense)];
    let (_, high) = LAYER_BANDS[2].counts(total);
    let mentions = c.facts.prompts.iter().filter(|p| p.brand).count();
    if brand_defense > high {
        c.push(
            "brand-heavy",
            "/prompts",
            format!(
                "brand-defense prompts are {} % of the set ({brand_defense} of {total}), above the 10-20 % target; \
                 they measure the brand's own name instead of how people discover it",
                percent(brand_defense, total)
            ),
        );
    } else if mentions * 100 > BRAND_MENTION_SHARE * total {
        c.push(
            "brand-heavy",
            "/prompts",
            format!(
                "{} % of the prompts name the brand ({mentions} of {total}); above {BRAND_MENTION_SHARE} % the set \
                 measures the brand's own name instead of how people discover it",
                percent(mentions, total)
            ),
        );
    }
}

fn brand_name(c: &Checker<'_, '_>) -> String {
    c.set.client_summary.brand_name.trim().to_owned()
}

fn prompts(c: &mut Checker<'_, '_>) {
    let brand = brand_name(c);
    for (index, (prompt, facts)) in c.set.prompts.iter().zip(&c.facts.prompts).enumerate() {
        let pointer = format!("/prompts/{index}/prompt");
        match prompt.layer {
            Layer::NonBrandDiscovery => {
                if facts.brand {
                    c.push(
                        "brand-in-non-brand",
                        &pointer,
                        format!(
                            "non-brand prompt names the brand `{brand}`; drop the name or move the prompt to `brand-defense`"
                        ),
                    );
                }
                if let Some(competitor) = facts.competitor {
                    c.push(
                        "competitor-in-non-brand",
                        &pointer,
                        format!(
                            "non-brand prompt names the competitor `{}`; it belongs in `competitor-comparison`",
                            c.facts.competitors[competitor]
                        ),
                    );
                }
            }
            Layer::CompetitorComparison => {
                if facts.competitor.is_none() && !facts.comparison_cue {
                    c.push(
                        "competitor-prompt-without-competitor",
                        &pointer,
                        "competitor-comparison prompt names no competitor and no comparison \
                         (`vs`, `alternatives to`, `compared to`, `better than`, ...)",
                    );
                }
            }
            Layer::BrandDefense => {
                if !facts.brand {
                    c.push(
                        "brand-defense-without-brand",
                        &pointer,
                        format!("brand-defense prompt does not name the brand `{brand}`"),
                    );
                }
            }
        }
        if let Some(first) = c.facts.similarity.duplicate_of[index] {
            c.push(
                "duplicate-prompt",
                &pointer,
                format!("prompt repeats prompt {first} (`/prompts/{first}`) word for word"),
            );
        } else if let Some((first, score)) = c.facts.similarity.near_duplicate_of[index] {
            c.push(
                "near-duplicate-prompt",
                &pointer,
                format!(
                    "prompt nearly repeats prompt {first} (`{}`): {:.0} % of their content words are shared",
                    c.set.prompts[first].prompt,
                    score * 100.0
                ),
            );
        }
        if !facts.question {
            c.push(
                "keyword-fragment",
                &pointer,
                format!(
                    "`{}` reads as a keyword fragment, not a question or request; people ask answer engines full questions",
                    prompt.prompt.trim()
                ),
            );
        }
        for misfit in &facts.misfits {
            // A keyword string is already reported as `keyword-fragment`.
            if misfit.rule == "unnatural" && !facts.question {
                continue;
            }
            let message = match &misfit.suggestion {
                Some(rewrite) => format!("{}; rewrite: `{rewrite}`", misfit.message),
                None => misfit.message.clone(),
            };
            c.push(misfit.rule, &pointer, message);
        }
        if facts.time_sensitive {
            c.push(
                "time-sensitive-prompt",
                &pointer,
                "prompt names a year or a moment (`today`, `this week`); its answers will drift for reasons \
                 unrelated to visibility",
            );
        }
        if facts.words > MAX_PROMPT_WORDS {
            c.push(
                "prompt-too-long",
                &pointer,
                format!(
                    "prompt has {} words; above {MAX_PROMPT_WORDS} it no longer reads like a question people type",
                    facts.words
                ),
            );
        }
        if let (Some(declared), Some(topic)) = (&prompt.topic_type, facts.topic) {
            let expected = c.set.topic_map[topic].topic_type.as_str();
            let declared_norm = declared.trim().to_lowercase().replace([' ', '_'], "-");
            if declared_norm != expected {
                c.push(
                    "topic-type-mismatch",
                    format!("/prompts/{index}/topic_type"),
                    format!(
                        "prompt says its topic type is `{declared}` but topic `{}` is `{expected}`",
                        prompt.topic
                    ),
                );
            }
        }
    }
}

fn funnel(c: &mut Checker<'_, '_>) {
    let total = c.facts.prompt_count();
    for (index, stage) in FunnelStage::ALL.iter().enumerate() {
        if c.facts.stage_counts[index] == 0 {
            c.push(
                "missing-funnel-stage",
                "/prompts",
                format!("no prompt is at the `{stage}` stage"),
            );
        }
    }
    if total >= 5 {
        for (index, stage) in FunnelStage::ALL.iter().enumerate() {
            let count = c.facts.stage_counts[index];
            if count * 100 >= SINGLE_STAGE_SHARE * total {
                c.push(
                    "single-funnel-stage",
                    "/prompts",
                    format!(
                        "`{stage}` holds {} % of the prompts ({count} of {total}); a monitoring set needs awareness, \
                         evaluation and decision prompts",
                        percent(count, total)
                    ),
                );
            }
        }
    }
}

/// Whether a topic name and an input topic name refer to the same topic: equal after
/// normalisation, one contained in the other, or sharing at least half their content
/// words.
pub(crate) fn same_topic(a: &str, b: &str) -> bool {
    let (na, nb) = (text::normalize(a), text::normalize(b));
    if na.trim().is_empty() || nb.trim().is_empty() {
        return false;
    }
    if na == nb || na.contains(nb.as_str()) || nb.contains(na.as_str()) {
        return true;
    }
    let (ta, tb) = (text::content_tokens(&na), text::content_tokens(&nb));
    let common = ta.iter().filter(|t| tb.contains(t)).count();
    let union = ta.len() + tb.len() - common;
    union > 0 && common * 2 >= union
}

fn topics(c: &mut Checker<'_, '_>) {
    let total = c.facts.prompt_count();
    let topic_total = c.set.topic_map.len();
    let with_prompts = c.facts.topic_counts.iter().filter(|&&n| n > 0).count();
    let average = if with_prompts == 0 {
        0.0
    } else {
        total as f64 / with_prompts as f64
    };
    let input_topics = c
        .set
        .client_summary
        .input_topics
        .as_deref()
        .unwrap_or_default();
    let has_key_inferences = c
        .set
        .client_summary
        .key_inferences
        .as_ref()
        .is_some_and(|k| k.iter().any(|s| !s.trim().is_empty()));
    let mut reported_missing_inferences = false;
    for (index, topic) in c.set.topic_map.iter().enumerate() {
        let count = c.facts.topic_counts[index];
        let name = topic.topic.as_ref();
        if count == 0 {
            c.push(
                "topic-without-prompts",
                format!("/topic_map/{index}/topic"),
                format!("topic `{name}` has no prompts; add prompts for it or drop it from the topic map"),
            );
        }
        if topic_total >= 2 && total > 0 {
            let threshold = (2.0 / topic_total as f64).clamp(0.4, 0.75);
            if count as f64 > threshold * total as f64 {
                c.push(
                    "topic-dominates",
                    format!("/topic_map/{index}/topic"),
                    format!(
                        "topic `{name}` holds {} % of the prompts ({count} of {total}) across {topic_total} topics; \
                         the other topics go unmonitored",
                        percent(count, total)
                    ),
                );
            }
        }
        if topic.priority == Level::High && count > 0 {
            let needed = MIN_HIGH_PRIORITY_PROMPTS.max((average / 2.0).ceil() as usize);
            if count < needed {
                c.push(
                    "high-priority-topic-thin",
                    format!("/topic_map/{index}/priority"),
                    format!(
                        "high-priority topic `{name}` has only {count} prompt(s), against {average:.1} per topic on average"
                    ),
                );
            }
        }
        let why = text::normalize(&topic.why_this_topic_exists);
        if topic.topic_source != TopicSource::Inferred {
            if INFERENCE_MARKERS.iter().any(|m| why.contains(m)) {
                c.push(
                    "inferred-topic-not-marked",
                    format!("/topic_map/{index}/topic_source"),
                    format!(
                        "topic `{name}` is explained as inferred or assumed but its `topic_source` is `{}`; mark it `inferred`",
                        topic.topic_source
                    ),
                );
            } else if topic.topic_source == TopicSource::Provided
                && !input_topics.is_empty()
                && !input_topics.iter().any(|input| same_topic(name, input))
            {
                c.push(
                    "inferred-topic-not-marked",
                    format!("/topic_map/{index}/topic_source"),
                    format!(
                        "topic `{name}` is marked `provided` but is not among the brief's `input_topics`; mark it `inferred`"
                    ),
                );
            }
        } else if !has_key_inferences && !reported_missing_inferences {
            reported_missing_inferences = true;
            c.push(
                "inferred-topic-not-marked",
                format!("/topic_map/{index}/topic_source"),
                format!(
                    "topic `{name}` is inferred but `client_summary.key_inferences` is empty or missing; say what was assumed"
                ),
            );
        }
    }
    for (index, input) in input_topics.iter().enumerate() {
        if !c
            .set
            .topic_map
            .iter()
            .any(|topic| same_topic(&topic.topic, input))
        {
            c.push(
                "input-topic-not-covered",
                format!("/client_summary/input_topics/{index}"),
                format!("the brief's topic `{input}` has no topic in the topic map"),
            );
        }
    }
}

fn product_lines(c: &mut Checker<'_, '_>) {
    let inputs = c
        .set
        .client_summary
        .input_product_lines
        .as_deref()
        .unwrap_or_default();
    // Prompts by product line, keyed by normalised name, keeping the first spelling and prompt.
    let mut by_line: BTreeMap<String, (usize, usize, String)> = BTreeMap::new();
    let mut with_line = 0usize;
    for (index, prompt) in c.set.prompts.iter().enumerate() {
        if let Some(line) = &prompt.product_line {
            let key = text::normalize(line).trim().to_owned();
            if key.is_empty() {
                continue;
            }
            with_line += 1;
            by_line.entry(key).or_insert((0, index, line.to_string())).0 += 1;
        }
    }
    let known_lines = by_line.len().max(inputs.len());
    if known_lines >= 2 && with_line >= 5 {
        let threshold = (2.0 / known_lines as f64).clamp(0.5, 0.8);
        for (count, first, spelling) in by_line.values() {
            if *count as f64 > threshold * with_line as f64 {
                c.push(
                    "product-line-dominates",
                    format!("/prompts/{first}/product_line"),
                    format!(
                        "product line `{spelling}` holds {} % of the prompts that name a product line ({count} of \
                         {with_line}) across {known_lines} product lines",
                        percent(*count, with_line)
                    ),
                );
            }
        }
    }
    for (index, input) in inputs.iter().enumerate() {
        let key = text::normalize(input);
        if key.trim().is_empty() {
            continue;
        }
        let in_prompts = by_line.keys().any(|line| same_topic(line, input));
        let in_topics = c.set.topic_map.iter().any(|topic| {
            topic
                .related_product_lines
                .iter()
                .flatten()
                .any(|line| same_topic(line, input))
                || text::mentions(&text::normalize(&topic.topic), key.trim())
        });
        let in_text = in_prompts
            || in_topics
            || c.facts
                .prompts
                .iter()
                .any(|p| text::mentions(&p.normalized, key.trim()));
        if !in_text {
            c.push(
                "product-line-without-prompts",
                format!("/client_summary/input_product_lines/{index}"),
                format!("the brief's product line `{input}` appears in no topic and no prompt"),
            );
        }
    }
}

/// Groups of prompts sharing one `why_it_matters` text (normalised) when the group has
/// more than 3 prompts and more than a quarter of the set: (size, first prompt index),
/// in prompt order. The same explanation pasted onto many prompts explains none of them.
pub(crate) fn boilerplate_groups(set: &PromptSet<'_>) -> Vec<(usize, usize)> {
    let mut seen: HashMap<String, (usize, usize)> = HashMap::new();
    for (index, prompt) in set.prompts.iter().enumerate() {
        seen.entry(text::normalize(&prompt.why_it_matters))
            .or_insert((0, index))
            .0 += 1;
    }
    let limit = 3usize.max(set.prompts.len() / 4);
    let mut groups: Vec<(usize, usize)> = seen
        .into_values()
        .filter(|(count, _)| *count > limit)
        .collect();
    groups.sort_by_key(|&(_, first)| first);
    groups
}

/// Reads a declared share such as `60%`, `60-70 %`, `0.6` or `about 65 percent` as a
/// range in percent.
pub(crate) fn parse_share(text: &str) -> Option<(f64, f64)> {
    let mut numbers = Vec::new();
    let mut current = String::new();
    for ch in text.chars().chain(std::iter::once(' ')) {
        if ch.is_ascii_digit() || (ch == '.' && !current.is_empty()) {
            current.push(ch);
        } else if !current.is_empty() {
            numbers.push(current.trim_end_matches('.').parse::<f64>().ok()?);
            current.clear();
        }
    }
    let scale = if !text.contains('%') && numbers.iter().all(|&n| n <= 1.0) {
        100.0
    } else {
        1.0
    };
    match numbers.as_slice() {
        [one] => Some((one * scale, one * scale)),
        [low, high, ..] => Some((low.min(*high) * scale, low.max(*high) * scale)),
        [] => None,
    }
}

fn declared_mix(c: &mut Checker<'_, '_>) {
    let total = c.facts.prompt_count();
    let mix = &c.set.strategy.layer_mix;
    let declared = [
        ("non_brand_discovery", mix.non_brand_discovery.as_ref()),
        ("competitor_comparison", mix.competitor_comparison.as_ref()),
        ("brand_defense", mix.brand_defense.as_ref()),
    ];
    for (index, (field, text)) in declared.into_iter().enumerate() {
        let actual = c.facts.layer_counts[index] as f64 * 100.0 / total.max(1) as f64;
        let pointer = format!("/strategy/layer_mix/{field}");
        match parse_share(text) {
            None => c.push(
                "layer-mix-declared-mismatch",
                pointer,
                format!("`{text}` is not a share; write it as a percentage such as `{actual:.0}%`"),
            ),
            Some((low, high)) => {
                if actual < low - DECLARED_MIX_TOLERANCE || actual > high + DECLARED_MIX_TOLERANCE {
                    c.push(
                        "layer-mix-declared-mismatch",
                        pointer,
                        format!("the strategy declares `{text}` but the prompts hold {actual:.0} % in this layer"),
                    );
                }
            }
        }
    }
}

fn priorities(c: &mut Checker<'_, '_>) {
    let total = c.facts.prompt_count();
    if total >= 10 {
        type Rating = fn(&crate::model::Prompt<'_>) -> Level;
        let fields: [(&str, Rating); 3] = [
            ("business_value", |p| p.business_value),
            ("geo_priority", |p| p.geo_priority),
            ("monitoring_value", |p| p.monitoring_value),
        ];
        for (field, get) in fields {
            let first = get(&c.set.prompts[0]);
            if c.set.prompts.iter().all(|p| get(p) == first) {
                c.push(
                    "flat-priorities",
                    format!("/prompts/0/{field}"),
                    format!("every prompt rates `{field}` `{first}`; rate prompts apart so the set can be triaged"),
                );
            }
        }
    }
    if c.set.topic_map.len() >= 3 {
        let first = c.set.topic_map[0].priority;
        if c.set.topic_map.iter().all(|t| t.priority == first) {
            c.push(
                "flat-priorities",
                "/topic_map/0/priority",
                format!("every topic has priority `{first}`; rank topics so the most valuable are watched first"),
            );
        }
    }
    for (count, first) in boilerplate_groups(c.set) {
        c.push(
            "boilerplate-why-it-matters",
            format!("/prompts/{first}/why_it_matters"),
            format!("{count} prompts share this `why_it_matters` word for word; say why each prompt matters"),
        );
    }
    let lists = c.set.priority_lists.as_ref();
    let missing: Vec<&str> = [
        ("top_topics", lists.and_then(|l| l.top_topics.as_ref())),
        (
            "top_non_brand_discovery",
            lists.and_then(|l| l.top_non_brand_discovery.as_ref()),
        ),
        (
            "top_competitor_comparison",
            lists.and_then(|l| l.top_competitor_comparison.as_ref()),
        ),
        (
            "top_brand_defense",
            lists.and_then(|l| l.top_brand_defense.as_ref()),
        ),
    ]
    .into_iter()
    .filter(|(_, list)| list.is_none_or(|l| l.is_empty()))
    .map(|(name, _)| name)
    .collect();
    if !missing.is_empty() {
        let pointer = if lists.is_some() {
            "/priority_lists"
        } else {
            ""
        };
        let names: Vec<String> = missing.iter().map(|m| format!("`{m}`")).collect();
        c.push(
            "missing-priority-lists",
            pointer,
            format!(
                "priority lists {} are missing or empty; analysts act on these first",
                names.join(", ")
            ),
        );
    }
}

fn business_model(c: &mut Checker<'_, '_>) {
    let model = c.set.client_summary.business_model.as_ref();
    let profile = c.facts.profile;
    if profile.model.is_none() {
        c.push(
            "unknown-business-model",
            "/client_summary/business_model",
            format!(
                "business model `{model}` is not one of saas, ecommerce, services, marketplace, manufacturer, \
                 content-media; business-model fit is judged against a generic profile"
            ),
        );
    }
    let missing: Vec<String> = profile
        .topic_types
        .iter()
        .filter(|wanted| !c.set.topic_map.iter().any(|t| t.topic_type == **wanted))
        .map(|t| format!("`{t}`"))
        .collect();
    if missing.len() * 2 >= profile.topic_types.len() {
        c.push(
            "business-model-gap",
            "/topic_map",
            format!(
                "a prompt set for {} business needs {} topics, which the topic map lacks",
                with_article(profile.name()),
                missing.join(", ")
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_declared_shares() {
        assert_eq!(parse_share("60%"), Some((60.0, 60.0)));
        assert_eq!(parse_share("60-70 %"), Some((60.0, 70.0)));
        assert_eq!(parse_share("0.25"), Some((25.0, 25.0)));
        assert_eq!(parse_share("about 15 percent"), Some((15.0, 15.0)));
        assert_eq!(parse_share("most"), None);
    }

    #[test]
    fn matches_topics_loosely() {
        assert!(same_topic("CRM for startups", "crm for a startup"));
        assert!(same_topic("Email marketing automation", "email automation"));
        assert!(!same_topic("CRM for startups", "Payroll software"));
    }
}
