//! The topic map: every valid topic the brief supports, scored, and the top N kept.
//!
//! Topics come from three places: the brief's priority topics (`provided`), its product
//! lines (`derived-from-product-line`), and inferences from competitors, channels,
//! customers, trust and seasonality (`inferred`). Each candidate is scored on five
//! dimensions (business value, monitoring value, GEO leverage, competitor pressure,
//! channel fit); the map keeps the best N, with a small penalty for repeating a topic
//! type so that one kind of topic does not crowd out the rest.

use crate::brief::{Brief, BusinessModel};
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
}

/// The outcome of planning: the kept topics, the category the brand competes in, and
/// what had to be assumed.
#[derive(Debug, Clone)]
pub struct TopicPlan {
    /// The kept topics, best first.
    pub topics: Vec<PlannedTopic>,
    /// The category in running text (e.g. `trail running shoes`).
    pub category: String,
    /// What was assumed or inferred.
    pub inferences: Vec<String>,
}

/// Plans the topic map of `brief` with at most `wanted` topics.
pub fn plan(brief: &Brief, wanted: usize) -> TopicPlan {
    let mut inferences = Vec::new();
    let keep = names_to_keep(brief);
    let keep: Vec<&str> = keep.iter().map(String::as_str).collect();
    let category = infer_category(brief, &keep, &mut inferences);
    let mut candidates = candidates(brief, &category, &keep);
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
    let selected = select(candidates, wanted);
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
            }
        })
        .collect();
    TopicPlan {
        topics,
        category,
        inferences,
    }
}

/// Names that must keep their capitals in running text.
pub fn names_to_keep(brief: &Brief) -> Vec<String> {
    let mut keep = vec![brief.brand_name.clone()];
    keep.extend(brief.competitors.iter().map(|c| c.name.clone()));
    keep.extend(brief.priority_channels.iter().cloned());
    keep.extend(brief.target_markets.iter().cloned());
    keep
}

fn infer_category(brief: &Brief, keep: &[&str], inferences: &mut Vec<String>) -> String {
    if let Some(category) = brief
        .optional_context
        .get("category")
        .and_then(|v| v.as_str())
        .filter(|s| !s.trim().is_empty())
    {
        return phrase(category, keep);
    }
    if let Some(line) = brief.core_product_lines.first() {
        inferences.push(format!(
            "the category was taken to be `{}`, the first product line, because the brief names no `category` in `optional_context`",
            phrase(&line.name, keep)
        ));
        return phrase(&line.name, keep);
    }
    if let Some(topic) = brief.priority_topics.first() {
        inferences.push(format!(
            "the category was taken to be `{}`, the first priority topic, because the brief has no product lines",
            phrase(&topic.name, keep)
        ));
        return phrase(&topic.name, keep);
    }
    let fallback = match brief.business_model {
        BusinessModel::Ecommerce => "online shopping",
        BusinessModel::Saas => "business software",
        BusinessModel::Services => "professional services",
        BusinessModel::Marketplace => "online marketplaces",
        BusinessModel::Manufacturer => "industrial products",
        BusinessModel::ContentMedia => "online media",
        BusinessModel::Other => "products and services",
    };
    inferences.push(format!(
        "the brief names no category, product line or topic, so the category was assumed to be `{fallback}` from the business model `{}`",
        brief.business_model
    ));
    fallback.to_owned()
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
    brief
        .core_product_lines
        .iter()
        .filter(|line| {
            let mut words = tokens(&line.name);
            for keyword in &line.priority_keywords {
                words.extend(tokens(keyword));
            }
            words.iter().any(|w| wanted.contains(w))
        })
        .map(|line| line.name.clone())
        .collect()
}

fn infer_type(brief: &Brief, name: &str, description: &str, keywords: &[String]) -> TopicType {
    let text = format!("{name} {description} {}", keywords.join(" ")).to_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| text.contains(w));
    if has(&[
        "alternative",
        " vs",
        "versus",
        "compare",
        "competitor",
        "替代",
        "对比",
    ]) || brief.competitors.iter().any(|c| mentions(&text, &c.name))
    {
        TopicType::CompetitorAlternative
    } else if has(&[
        "review", "trust", "safe", "certif", "complian", "quality", "legit", "warranty", "评价",
        "认证", "口碑",
    ]) {
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
        "season",
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
    } else if brief.target_customers.iter().any(|c| mentions(&text, c)) || has(&[" for "]) {
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

fn candidates(brief: &Brief, category: &str, keep: &[&str]) -> Vec<Candidate> {
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
        let topic_type = topic
            .topic_type
            .unwrap_or_else(|| infer_type(brief, &topic.name, &description, &topic.seed_keywords));
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
            name: line.name.trim().to_owned(),
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
        });
    }

    let top_lines: Vec<String> = brief
        .core_product_lines
        .iter()
        .take(2)
        .map(|l| l.name.clone())
        .collect();
    let cat_title = title(category);

    // Competitors: where rivals win shortlists.
    if let Some(rival) = brief.competitors.iter().max_by_key(|c| {
        (
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
        });
    } else {
        out.push(Candidate {
            name: format!("Brand comparisons in {category}"),
            source: TopicSource::Inferred,
            topic_type: TopicType::CompetitorAlternative,
            related: top_lines.clone(),
            keywords: vec![],
            scores: Scores { business: 2, monitoring: 3, geo: 2, competitor: 1, channel: 0 },
            origin: "Inferred because the brief names no competitors: comparison answers show which brands AI engines put next to the client".to_owned(),
            fits_model: false,
        });
    }

    // Trust: every buyer checks it, and AI answers cite reviews for it.
    let trust_name = match model {
        BusinessModel::Saas => format!("{cat_title} security and reliability"),
        BusinessModel::Services => format!("Choosing a trustworthy {category} provider"),
        BusinessModel::Manufacturer => format!("{cat_title} supplier certifications and quality"),
        BusinessModel::ContentMedia => format!("Trusted sources for {category}"),
        BusinessModel::Marketplace => format!("Buyer and seller trust on {category}"),
        BusinessModel::Ecommerce | BusinessModel::Other => {
            format!("{cat_title} reviews and quality")
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
    });

    // Channels the client sells or is discovered through.
    if let Some(channel) = brief.priority_channels.first() {
        let name = if commerce {
            format!("Buying {category} on {}", channel.trim())
        } else {
            format!("{cat_title} on {}", channel.trim())
        };
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
            origin: format!("Inferred from the priority channel `{}`: answers about where to buy decide which listing gets the click", channel.trim()),
            fits_model: false,
        });
    }

    // Customers: the first (and second) audience the brief names.
    for (index, customer) in brief.target_customers.iter().take(2).enumerate() {
        out.push(Candidate {
            name: format!("{cat_title} for {}", phrase(customer, keep)),
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
        });
    }

    // The job the category does, phrased by business model.
    let use_case = match model {
        BusinessModel::Saas => format!("{cat_title} setup and integration"),
        BusinessModel::Services => format!("{cat_title} costs and engagement models"),
        BusinessModel::Manufacturer => format!("Sourcing {category} for production"),
        BusinessModel::ContentMedia => format!("Learning about {category}"),
        BusinessModel::Marketplace => format!("Finding {category} online"),
        BusinessModel::Ecommerce | BusinessModel::Other => format!("How to choose {category}"),
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
        });
    }

    // The first market on its own: local answers differ, and it keeps a thin brief's
    // map full.
    if let Some(market) = brief
        .target_markets
        .first()
        .map(|m| m.trim())
        .filter(|m| !m.is_empty())
    {
        out.push(Candidate {
            name: format!("{cat_title} in {market}"),
            source: TopicSource::Inferred,
            topic_type: TopicType::Other,
            related: top_lines.clone(),
            keywords: vec![],
            scores: Scores { business: 1, monitoring: 2, geo: 2, competitor: 0, channel: 1 },
            origin: format!("Inferred from the first target market `{market}`: AI answers name local providers and shops first"),
            fits_model: false,
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

/// Greedy top-N: best score first, each repeat of a topic type costs 3 points.
fn select(mut candidates: Vec<Candidate>, wanted: usize) -> Vec<(Candidate, u32)> {
    let mut chosen: Vec<(Candidate, u32)> = Vec::new();
    while chosen.len() < wanted && !candidates.is_empty() {
        let mut best: Option<(usize, u32)> = None;
        for (index, candidate) in candidates.iter().enumerate() {
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
