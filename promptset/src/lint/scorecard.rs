//! The 100-point prompt scorecard.
//!
//! Seven sub-scores: topic coverage 20, layer balance 15, funnel coverage 15,
//! business-model fit 20, prompt quality 15, monitoring value 10, actionability 5. Each
//! sub-score is the rounded sum of named [`Check`]s, and each check earns
//! `max × fraction`, where the fraction is a monotone function of one measurement (a
//! share of good prompts, a distance to a target band, a count against a goal). A
//! better set therefore never scores lower on a sub-score, and every point lost can be
//! traced to the check that lost it. `overall_score` is the sum of the sub-scores.
//!
//! Quality fractions fall twice as fast as the share of bad prompts
//! (`1 - 2 × bad share`): one fragment in ten costs a fifth of the check, half the set
//! costs all of it.

use std::collections::{BTreeSet, HashMap, HashSet};

use rayon::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::business;
use super::facts::{Facts, LAYER_BANDS, layer_index, stage_index};
use super::rules::{Finding, MAX_PROMPT_WORDS, MIN_HIGH_PRIORITY_PROMPTS, boilerplate_groups};
use super::text;
use super::{RULES, rule_by_id};
use crate::generate::text::with_article;
use crate::model::{FunnelStage, Layer, Level, PromptSet};

/// The scorecard of one prompt set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Prompt-set scorecard")]
pub struct Scorecard {
    /// The total, 0-100: the sum of the seven sub-scores.
    pub overall_score: u32,
    /// The highest possible total (100).
    pub max_score: u32,
    /// The business-model profile the set was judged against (`generic` when the model
    /// was not recognised).
    pub business_model: String,
    /// Number of prompts.
    pub prompt_count: usize,
    /// Number of topics in the topic map.
    pub topic_count: usize,
    /// The actual share of each layer, in percent.
    pub layer_mix: LayerShares,
    /// The seven sub-scores.
    pub sub_scores: SubScores,
    /// The most important lint findings, grouped by rule.
    pub top_findings: Vec<TopFinding>,
    /// What the set already does well.
    pub keep_doing: Vec<String>,
    /// The checks that lose the most points, biggest first.
    pub fix_next: Vec<String>,
    /// Concrete steps to improve the set.
    pub recommended_actions: Vec<String>,
}

/// The actual share of each layer, in percent with one decimal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LayerShares {
    /// Share of non-brand discovery prompts.
    pub non_brand_discovery: f64,
    /// Share of competitor comparison prompts.
    pub competitor_comparison: f64,
    /// Share of brand defense prompts.
    pub brand_defense: f64,
}

/// The seven sub-scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SubScores {
    /// Topics: how many, of what types, covering the brief, evenly filled (20 points).
    pub topic_coverage: SubScore,
    /// Layer shares against their target bands and the declared mix (15 points).
    pub layer_balance: SubScore,
    /// Funnel stages and their spread across topics (15 points).
    pub funnel_coverage: SubScore,
    /// Topic types, funnel emphasis, intents and assets the business model needs (20 points).
    pub business_model_fit: SubScore,
    /// Questions rather than fragments, unique, in the right layer, sensible length (15 points).
    pub prompt_quality: SubScore,
    /// Worth tracking over time: rated value, covered priorities, stable wording, size (10 points).
    pub monitoring_value: SubScore,
    /// Priority lists, recommended assets and specific reasons (5 points).
    pub actionability: SubScore,
}

impl SubScores {
    /// The sub-scores with their display names, in the scorecard's order.
    pub fn named(&self) -> [(&'static str, &SubScore); 7] {
        [
            ("Topic coverage", &self.topic_coverage),
            ("Layer balance", &self.layer_balance),
            ("Funnel coverage", &self.funnel_coverage),
            ("Business-model fit", &self.business_model_fit),
            ("Prompt quality", &self.prompt_quality),
            ("Monitoring value", &self.monitoring_value),
            ("Actionability", &self.actionability),
        ]
    }
}

/// One sub-score and the checks it is made of.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SubScore {
    /// Points earned: the rounded sum of the checks' points.
    pub score: u32,
    /// Points available.
    pub max: u32,
    /// The checks, with what each measured.
    pub checks: Vec<Check>,
}

/// One measured check of a sub-score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Check {
    /// What is checked.
    pub name: String,
    /// Points earned, with one decimal.
    pub points: f64,
    /// Points available.
    pub max: f64,
    /// What was measured.
    pub detail: String,
}

/// A lint rule's findings, summarised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TopFinding {
    /// The rule's id.
    pub rule: String,
    /// How many findings it reported.
    pub count: usize,
    /// The first finding's message, with how many more there are.
    pub message: String,
}

/// The JSON Schema of [`Scorecard`], as committed in `schemas/scorecard.schema.json`.
pub fn schema() -> serde_json::Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .with(|settings| settings.inline_subschemas = true)
        .into_generator();
    generator.into_root_schema_for::<Scorecard>().to_value()
}

/// [`schema`] pretty-printed with a trailing newline: the committed file's exact text.
pub fn schema_text() -> String {
    let mut text = serde_json::to_string_pretty(&schema()).expect("a schema always serializes");
    text.push('\n');
    text
}

/// A check before rounding: its sub-score, weight, measured fraction and sentences.
struct Part {
    sub: usize,
    name: &'static str,
    max: f64,
    fraction: f64,
    detail: String,
    strength: String,
    fix: String,
}

const SUB_MAX: [u32; 7] = [20, 15, 15, 20, 15, 10, 5];
const SUB_NAMES: [&str; 7] = [
    "topic coverage",
    "layer balance",
    "funnel coverage",
    "business-model fit",
    "prompt quality",
    "monitoring value",
    "actionability",
];

struct Parts(Vec<Part>);

impl Parts {
    #[expect(
        clippy::too_many_arguments,
        reason = "one call per check reads best flat"
    )]
    fn add(
        &mut self,
        sub: usize,
        name: &'static str,
        max: f64,
        fraction: f64,
        detail: String,
        strength: String,
        fix: String,
    ) {
        let fraction = if fraction.is_finite() {
            fraction.clamp(0.0, 1.0)
        } else {
            0.0
        };
        self.0.push(Part {
            sub,
            name,
            max,
            fraction,
            detail,
            strength,
            fix,
        });
    }
}

/// `1 - 2 × bad / total`, floored at 0: the fraction for quality checks.
fn quality(bad: usize, total: usize) -> f64 {
    if total == 0 {
        0.0
    } else {
        (1.0 - 2.0 * bad as f64 / total as f64).max(0.0)
    }
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

fn round1(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

fn count_rule(findings: &[Finding], rule: &str) -> usize {
    findings.iter().filter(|f| f.rule == rule).count()
}

/// Computes the scorecard from the facts and the lint findings.
pub(crate) fn score(set: &PromptSet<'_>, facts: &Facts, findings: &[Finding]) -> Scorecard {
    let mut parts = Parts(Vec::new());
    topic_coverage(&mut parts, set, facts, findings);
    layer_balance(&mut parts, facts, findings);
    funnel_coverage(&mut parts, set, facts);
    business_model_fit(&mut parts, set, facts);
    prompt_quality(&mut parts, set, facts);
    monitoring_value(&mut parts, set, facts);
    actionability(&mut parts, set);

    let mut subs: Vec<SubScore> = SUB_MAX
        .iter()
        .map(|&max| SubScore {
            score: 0,
            max,
            checks: Vec::new(),
        })
        .collect();
    let mut sums = [0.0f64; 7];
    for part in &parts.0 {
        let points = part.max * part.fraction;
        sums[part.sub] += points;
        subs[part.sub].checks.push(Check {
            name: part.name.to_owned(),
            points: round1(points),
            max: part.max,
            detail: part.detail.clone(),
        });
    }
    misfit_penalty(facts, &mut sums, &mut subs);
    for (sub, sum) in subs.iter_mut().zip(sums) {
        // A hair of tolerance so that 14.999999 from float sums counts as 15.
        sub.score = ((sum + 1e-9).round() as u32).min(sub.max);
    }
    let overall_score = subs.iter().map(|s| s.score).sum();

    let mut strong: Vec<&Part> = parts.0.iter().filter(|p| p.fraction >= 0.999).collect();
    strong.sort_by(|a, b| b.max.total_cmp(&a.max));
    let keep_doing = strong.iter().take(5).map(|p| p.strength.clone()).collect();

    let mut weak: Vec<&Part> = parts
        .0
        .iter()
        .filter(|p| p.max * (1.0 - p.fraction) >= 0.5)
        .collect();
    weak.sort_by(|a, b| (b.max * (1.0 - b.fraction)).total_cmp(&(a.max * (1.0 - a.fraction))));
    let fix_next = weak
        .iter()
        .take(5)
        .map(|p| {
            let lost = p.max * (1.0 - p.fraction);
            format!(
                "{} (up to +{:.0} in {})",
                p.fix,
                lost.max(1.0),
                SUB_NAMES[p.sub]
            )
        })
        .collect();

    let mut by_rule: HashMap<&str, (usize, &str)> = HashMap::new();
    for finding in findings {
        by_rule
            .entry(finding.rule)
            .or_insert((0, finding.message.as_str()))
            .0 += 1;
    }
    let mut top_findings = Vec::new();
    let mut recommended_actions = Vec::new();
    for rule in RULES {
        if let Some(&(count, message)) = by_rule.get(rule.id) {
            let message = if count > 1 {
                format!("{message} (and {} more)", count - 1)
            } else {
                message.to_owned()
            };
            top_findings.push(TopFinding {
                rule: rule.id.to_owned(),
                count,
                message,
            });
            let action = rule_by_id(rule.id).map_or("", |r| r.help);
            recommended_actions.push(if count > 1 {
                format!("{action} ({count} findings of `{}`)", rule.id)
            } else {
                format!("{action} (`{}`)", rule.id)
            });
        }
    }
    top_findings.truncate(5);
    for group in missing_assets(set, facts) {
        recommended_actions.push(format!(
            "publish {} and recommend them in the set: answer engines cite them for {} buyers",
            group.label,
            facts.profile.name()
        ));
    }
    recommended_actions.truncate(8);

    let total = facts.prompt_count();
    let share = |layer: Layer| round1(ratio(facts.layer_counts[layer_index(layer)], total) * 100.0);
    let mut subs = subs.into_iter();
    let mut next = || {
        subs.next().unwrap_or(SubScore {
            score: 0,
            max: 0,
            checks: Vec::new(),
        })
    };
    Scorecard {
        overall_score,
        max_score: 100,
        business_model: facts.profile.name().to_owned(),
        prompt_count: total,
        topic_count: set.topic_map.len(),
        layer_mix: LayerShares {
            non_brand_discovery: share(Layer::NonBrandDiscovery),
            competitor_comparison: share(Layer::CompetitorComparison),
            brand_defense: share(Layer::BrandDefense),
        },
        sub_scores: SubScores {
            topic_coverage: next(),
            layer_balance: next(),
            funnel_coverage: next(),
            business_model_fit: next(),
            prompt_quality: next(),
            monitoring_value: next(),
            actionability: next(),
        },
        top_findings,
        keep_doing,
        fix_next,
        recommended_actions,
    }
}

/// How much of "prompt quality" and "business-model fit" a set keeps when some of its
/// prompts have misfits (wrong framing for the business, broken English, pasted brief
/// text): `1 - 2.5 × share`, floored at 0. The two sub-scores are worth 35 of 100, so a
/// set in which one prompt in five has a misfit keeps half of them and cannot reach 85
/// however good the rest is; a set without misfits keeps all.
fn misfit_factor(with_misfits: usize, total: usize) -> f64 {
    (1.0 - 2.5 * ratio(with_misfits, total)).max(0.0)
}

/// Scales "business-model fit" and "prompt quality" down by [`misfit_factor`] and says
/// so in a check of each, with the points lost as negative points.
fn misfit_penalty(facts: &Facts, sums: &mut [f64; 7], subs: &mut [SubScore]) {
    const PENALISED: [usize; 2] = [3, 4];
    let total = facts.prompt_count();
    let with_misfits = facts
        .prompts
        .iter()
        .filter(|p| !p.misfits.is_empty())
        .count();
    let factor = misfit_factor(with_misfits, total);
    if with_misfits == 0 {
        return;
    }
    for sub in PENALISED {
        let lost = sums[sub] * (1.0 - factor);
        sums[sub] -= lost;
        subs[sub].checks.push(Check {
            name: "prompts an analyst would keep".to_owned(),
            points: -round1(lost),
            max: 0.0,
            detail: format!(
                "{with_misfits} of {total} prompts have misfits (see the misfit rules); {} keeps {:.0} % of its points",
                SUB_NAMES[sub],
                factor * 100.0
            ),
        });
    }
}

fn topic_coverage(parts: &mut Parts, set: &PromptSet<'_>, facts: &Facts, findings: &[Finding]) {
    const SUB: usize = 0;
    let topics = set.topic_map.len();
    let with_prompts = facts.topic_counts.iter().filter(|&&n| n > 0).count();
    parts.add(
        SUB,
        "topics monitored",
        4.0,
        ratio(with_prompts, 5),
        format!("{with_prompts} topics have prompts; 5 or more earn full marks"),
        format!(
            "{with_prompts} topics are monitored, enough to see where the brand wins and loses"
        ),
        format!("monitor at least 5 topics (now {with_prompts})"),
    );
    parts.add(
        SUB,
        "topics with prompts",
        3.0,
        ratio(with_prompts, topics),
        format!("{with_prompts} of {topics} topics have prompts"),
        "every topic in the map has prompts".into(),
        format!(
            "give the {} empty topic(s) prompts or drop them",
            topics - with_prompts
        ),
    );
    let types: BTreeSet<&str> = set
        .topic_map
        .iter()
        .zip(&facts.topic_counts)
        .filter(|(_, n)| **n > 0)
        .map(|(t, _)| t.topic_type.as_str())
        .collect();
    parts.add(
        SUB,
        "topic type diversity",
        4.0,
        ratio(types.len(), 4),
        format!(
            "{} topic type(s) with prompts; 4 or more earn full marks",
            types.len()
        ),
        format!(
            "{} topic types give the set several angles on the market",
            types.len()
        ),
        format!(
            "add topics of other types (now only {})",
            types.into_iter().collect::<Vec<_>>().join(", ")
        ),
    );
    let inputs = set.client_summary.input_topics.as_ref().map_or(0, Vec::len);
    let uncovered = count_rule(findings, "input-topic-not-covered");
    parts.add(
        SUB,
        "brief topics covered",
        3.0,
        if inputs == 0 {
            1.0
        } else {
            ratio(inputs - uncovered, inputs)
        },
        if inputs == 0 {
            "the brief lists no topics".into()
        } else {
            format!(
                "{} of {inputs} topics of the brief are in the topic map",
                inputs - uncovered
            )
        },
        "every topic of the brief is in the topic map".into(),
        format!("add the {uncovered} topic(s) of the brief missing from the topic map"),
    );
    let lines = set
        .client_summary
        .input_product_lines
        .as_ref()
        .map_or(0, Vec::len);
    let uncovered = count_rule(findings, "product-line-without-prompts");
    parts.add(
        SUB,
        "product lines covered",
        3.0,
        if lines == 0 {
            1.0
        } else {
            ratio(lines - uncovered, lines)
        },
        if lines == 0 {
            "the brief lists no product lines".into()
        } else {
            format!(
                "{} of {lines} product lines of the brief appear in topics or prompts",
                lines - uncovered
            )
        },
        "every product line of the brief is covered".into(),
        format!(
            "cover the {uncovered} product line(s) of the brief that no topic or prompt mentions"
        ),
    );
    // Pielou's evenness of prompts over topics: 1 when every topic has the same count.
    let counts: Vec<f64> = facts
        .topic_counts
        .iter()
        .filter(|&&n| n > 0)
        .map(|&n| n as f64)
        .collect();
    let total: f64 = counts.iter().sum();
    let evenness = if counts.len() < 2 {
        0.0
    } else {
        let entropy: f64 = counts
            .iter()
            .map(|&n| -(n / total) * (n / total).ln())
            .sum();
        entropy / (counts.len() as f64).ln()
    };
    parts.add(
        SUB,
        "balance across topics",
        3.0,
        (evenness - 0.5) / 0.4,
        format!("evenness of prompts over topics {evenness:.2} (0.9 or more earns full marks)"),
        "prompts are spread evenly across topics".into(),
        "spread prompts more evenly across topics".into(),
    );
}

fn layer_balance(parts: &mut Parts, facts: &Facts, findings: &[Finding]) {
    const SUB: usize = 1;
    const NAMES: [&str; 3] = [
        "non-brand discovery share",
        "competitor comparison share",
        "brand defense share",
    ];
    let total = facts.prompt_count();
    for (index, layer) in Layer::ALL.iter().enumerate() {
        let band = LAYER_BANDS[index];
        let count = facts.layer_counts[index];
        let share = ratio(count, total) * 100.0;
        parts.add(
            SUB,
            NAMES[index],
            4.0,
            band.fraction(count, total),
            format!(
                "{share:.0} % against a {}-{} % target; an empty layer or 20 points above the band scores 0",
                band.low, band.high
            ),
            format!("`{layer}` prompts are on target at {share:.0} %"),
            format!(
                "bring `{layer}` prompts from {share:.0} % to {}-{} %",
                band.low, band.high
            ),
        );
    }
    let mismatches = count_rule(findings, "layer-mix-declared-mismatch");
    parts.add(
        SUB,
        "declared mix matches prompts",
        3.0,
        ratio(3 - mismatches.min(3), 3),
        format!(
            "{} of 3 declared layer shares match the prompts within 5 points",
            3 - mismatches.min(3)
        ),
        "the strategy's declared layer mix matches the prompts".into(),
        "make `strategy.layer_mix` state the actual shares".into(),
    );
}

const STAGE_WORDS: [&[&str]; 3] = [
    &[
        " tofu ",
        " awareness ",
        " top of funnel ",
        " top of the funnel ",
        " education ",
    ],
    &[
        " mofu ",
        " consideration ",
        " evaluation ",
        " middle of funnel ",
        " comparison ",
    ],
    &[
        " bofu ",
        " decision ",
        " purchase ",
        " conversion ",
        " bottom of funnel ",
        " buying ",
    ],
];

fn funnel_coverage(parts: &mut Parts, set: &PromptSet<'_>, facts: &Facts) {
    const SUB: usize = 2;
    let total = facts.prompt_count();
    for (index, stage) in FunnelStage::ALL.iter().enumerate() {
        let share = ratio(facts.stage_counts[index], total);
        parts.add(
            SUB,
            ["TOFU share", "MOFU share", "BOFU share"][index],
            3.0,
            share / 0.2,
            format!(
                "{:.0} % of prompts; 20 % or more earns full marks",
                share * 100.0
            ),
            format!("`{stage}` is well covered ({:.0} %)", share * 100.0),
            format!(
                "raise `{stage}` prompts from {:.0} % to at least 20 %",
                share * 100.0
            ),
        );
    }
    let with_prompts = facts.topic_counts.iter().filter(|&&n| n > 0).count();
    let spread = facts
        .topic_stages
        .iter()
        .filter(|stages| stages.iter().filter(|&&n| n > 0).count() >= 2)
        .count();
    parts.add(
        SUB,
        "topics across stages",
        4.0,
        ratio(spread, with_prompts),
        format!("{spread} of {with_prompts} topics have prompts in two or more stages"),
        "topics follow buyers through the funnel".into(),
        format!(
            "give the {} single-stage topic(s) prompts at other stages",
            with_prompts - spread
        ),
    );
    let notes: Vec<String> = set
        .strategy
        .funnel_notes
        .iter()
        .map(|n| text::normalize(n))
        .collect();
    let has_notes = notes.iter().any(|n| !n.trim().is_empty());
    let stages_named = STAGE_WORDS
        .iter()
        .filter(|words| notes.iter().any(|n| words.iter().any(|w| n.contains(w))))
        .count();
    parts.add(
        SUB,
        "funnel notes",
        2.0,
        (f64::from(u8::from(has_notes)) + f64::from(u8::from(stages_named >= 2))) / 2.0,
        format!(
            "{} funnel note(s) naming {stages_named} stage(s)",
            notes.len()
        ),
        "funnel notes explain how the stages are covered".into(),
        "write funnel notes that explain the TOFU, MOFU and BOFU coverage".into(),
    );
}

fn missing_assets(set: &PromptSet<'_>, facts: &Facts) -> Vec<&'static business::Group> {
    let mut texts: HashSet<String> = HashSet::new();
    for asset in set.strategy.recommended_assets.iter().flatten() {
        texts.insert(text::normalize(asset));
    }
    for prompt in &set.prompts {
        if let Some(asset) = &prompt.recommended_asset_type {
            texts.insert(text::normalize(asset));
        }
        if texts.len() > 10_000 {
            break;
        }
    }
    let modes: HashSet<&str> = set
        .prompts
        .iter()
        .map(|p| p.answer_entry_mode.as_ref())
        .take(10_000)
        .collect();
    for mode in modes {
        texts.insert(text::normalize(mode));
    }
    facts
        .profile
        .assets
        .iter()
        .filter(|group| !texts.iter().any(|t| business::shows(t, group)))
        .collect()
}

fn business_model_fit(parts: &mut Parts, set: &PromptSet<'_>, facts: &Facts) {
    const SUB: usize = 3;
    let profile = facts.profile;
    let model = profile.name();
    let a_model = with_article(model);
    let wanted = profile.topic_types;
    let missing: Vec<&str> = wanted
        .iter()
        .filter(|t| !set.topic_map.iter().any(|topic| topic.topic_type == **t))
        .map(|t| t.as_str())
        .collect();
    parts.add(
        SUB,
        "topic types for the model",
        8.0,
        ratio(wanted.len() - missing.len(), wanted.len()),
        format!(
            "{} of {} topic types {a_model} set needs",
            wanted.len() - missing.len(),
            wanted.len()
        ),
        format!("the topic map has every topic type {a_model} business needs"),
        format!(
            "add {} topics, which {a_model} business needs",
            missing.join(", ")
        ),
    );
    match profile.funnel_focus {
        Some((stage, minimum)) => {
            let share = ratio(facts.stage_counts[stage_index(stage)], facts.prompt_count());
            parts.add(
                SUB,
                "funnel emphasis for the model",
                4.0,
                share / minimum,
                format!(
                    "{:.0} % `{stage}` prompts; {a_model} set needs {:.0} % or more",
                    share * 100.0,
                    minimum * 100.0
                ),
                format!("the funnel leans on `{stage}`, where {model} buyers decide"),
                format!(
                    "raise `{stage}` prompts to {:.0} %: that is where {model} buyers decide",
                    minimum * 100.0
                ),
            );
        }
        None => parts.add(
            SUB,
            "funnel emphasis for the model",
            4.0,
            1.0,
            "no funnel emphasis expected for a generic business model".into(),
            "the funnel suits the business model".into(),
            String::new(),
        ),
    }
    let shown: Vec<bool> = profile
        .intents
        .iter()
        .map(|group| {
            let matcher = business::Matcher::new(group);
            facts
                .prompts
                .par_iter()
                .any(|p| matcher.matches(&p.normalized))
        })
        .collect();
    let absent: Vec<&str> = profile
        .intents
        .iter()
        .zip(&shown)
        .filter(|(_, s)| !**s)
        .map(|(g, _)| g.label)
        .collect();
    parts.add(
        SUB,
        "buyer intents for the model",
        4.0,
        ratio(shown.iter().filter(|&&s| s).count(), shown.len()),
        format!(
            "{} of {} {model} buyer intents appear in the prompts",
            shown.len() - absent.len(),
            shown.len()
        ),
        format!("prompts ask what {model} buyers ask"),
        format!("add prompts about {}", absent.join(", ")),
    );
    let missing = missing_assets(set, facts);
    let labels: Vec<&str> = missing.iter().map(|g| g.label).collect();
    let groups = profile.assets.len();
    parts.add(
        SUB,
        "assets for the model",
        4.0,
        ratio(groups - missing.len(), groups),
        format!(
            "{} of {groups} asset kinds {a_model} business needs are recommended",
            groups - missing.len()
        ),
        format!("recommended assets fit {a_model} business"),
        format!("recommend {}", labels.join(", ")),
    );
}

fn prompt_quality(parts: &mut Parts, set: &PromptSet<'_>, facts: &Facts) {
    const SUB: usize = 4;
    let total = facts.prompt_count();
    let fragments = facts.prompts.iter().filter(|p| !p.question).count();
    parts.add(
        SUB,
        "questions, not keywords",
        5.0,
        quality(fragments, total),
        format!("{fragments} of {total} prompts are keyword fragments"),
        "prompts read like questions people ask answer engines".into(),
        format!("rewrite the {fragments} keyword fragment(s) as questions"),
    );
    let duplicates = (0..total)
        .filter(|&i| {
            facts.similarity.duplicate_of[i].is_some()
                || facts.similarity.near_duplicate_of[i].is_some()
        })
        .count();
    parts.add(
        SUB,
        "unique prompts",
        4.0,
        quality(duplicates, total),
        format!("{duplicates} of {total} prompts duplicate or nearly duplicate another"),
        "every prompt is distinct".into(),
        format!("remove or rewrite the {duplicates} duplicate and near-duplicate prompt(s)"),
    );
    let mislayered = set
        .prompts
        .iter()
        .zip(&facts.prompts)
        .filter(|(prompt, f)| match prompt.layer {
            Layer::NonBrandDiscovery => f.brand || f.competitor.is_some(),
            Layer::CompetitorComparison => f.competitor.is_none() && !f.comparison_cue,
            Layer::BrandDefense => !f.brand,
        })
        .count();
    parts.add(
        SUB,
        "prompts fit their layer",
        4.0,
        quality(mislayered, total),
        format!("{mislayered} of {total} prompts contradict their layer (brand or competitor named where it should not be, or missing)"),
        "every prompt fits its layer".into(),
        format!("fix the {mislayered} prompt(s) whose text contradicts their layer"),
    );
    let bad_length = facts
        .prompts
        .iter()
        .filter(|p| p.words < 4 || p.words > MAX_PROMPT_WORDS)
        .count();
    parts.add(
        SUB,
        "prompt length",
        2.0,
        quality(bad_length, total),
        format!("{bad_length} of {total} prompts are shorter than 4 or longer than {MAX_PROMPT_WORDS} words"),
        "prompts have the length of real questions".into(),
        format!("rewrite the {bad_length} prompt(s) of odd length"),
    );
}

fn monitoring_value(parts: &mut Parts, set: &PromptSet<'_>, facts: &Facts) {
    const SUB: usize = 5;
    let total = facts.prompt_count();
    // Duplicates are left out, so that repeating a valuable prompt cannot raise the average.
    let distinct: Vec<usize> = (0..total)
        .filter(|&i| {
            facts.similarity.duplicate_of[i].is_none()
                && facts.similarity.near_duplicate_of[i].is_none()
        })
        .collect();
    // Brand-defense prompts beyond the 20 % band only re-measure the brand's own name,
    // so they count as low value whatever they are rated.
    let (_, brand_cap) = LAYER_BANDS[layer_index(Layer::BrandDefense)].counts(total);
    let mut brand_seen = 0usize;
    let rated: f64 = distinct
        .iter()
        .map(|&i| {
            let prompt = &set.prompts[i];
            if prompt.layer == Layer::BrandDefense {
                brand_seen += 1;
                if brand_seen > brand_cap {
                    return 0.2;
                }
            }
            match prompt.monitoring_value {
                Level::High => 1.0,
                Level::Medium => 0.6,
                Level::Low => 0.2,
            }
        })
        .sum();
    let average = if total == 0 {
        0.0
    } else {
        rated / total as f64
    };
    parts.add(
        SUB,
        "rated monitoring value",
        3.0,
        average,
        format!("average monitoring value {average:.2} over distinct prompts (high 1, medium 0.6, low 0.2)"),
        "prompts are worth tracking over time".into(),
        "replace low-monitoring-value prompts with ones worth tracking".into(),
    );
    let with_prompts = facts.topic_counts.iter().filter(|&&n| n > 0).count();
    let average_per_topic = ratio(total, with_prompts);
    let needed = MIN_HIGH_PRIORITY_PROMPTS.max((average_per_topic / 2.0).ceil() as usize);
    let high: Vec<usize> = set
        .topic_map
        .iter()
        .enumerate()
        .filter(|(_, t)| t.priority == Level::High)
        .map(|(i, _)| facts.topic_counts[i])
        .collect();
    let covered = high.iter().filter(|&&n| n >= needed).count();
    parts.add(
        SUB,
        "high-priority topics covered",
        3.0,
        if high.is_empty() {
            0.5
        } else {
            ratio(covered, high.len())
        },
        if high.is_empty() {
            "no topic is marked high priority".into()
        } else {
            format!(
                "{covered} of {} high-priority topics have {needed} or more prompts",
                high.len()
            )
        },
        "high-priority topics get the prompts they deserve".into(),
        if high.is_empty() {
            "mark the topics that matter most as high priority".into()
        } else {
            format!("give every high-priority topic at least {needed} prompts")
        },
    );
    let dated = facts.prompts.iter().filter(|p| p.time_sensitive).count();
    parts.add(
        SUB,
        "stable wording",
        2.0,
        quality(dated, total),
        format!("{dated} of {total} prompts name a year or a moment"),
        "prompts are worded to stay comparable over time".into(),
        format!("drop years and moments from the {dated} time-bound prompt(s)"),
    );
    parts.add(
        SUB,
        "set size",
        2.0,
        ratio(total, 30),
        format!("{total} prompts; 30 or more give a stable share-of-voice reading"),
        format!("{total} prompts are enough for a stable reading"),
        format!("grow the set from {total} to at least 30 prompts"),
    );
}

fn actionability(parts: &mut Parts, set: &PromptSet<'_>) {
    const SUB: usize = 6;
    let lists = set.priority_lists.as_ref();
    let filled = [
        lists.and_then(|l| l.top_topics.as_ref()),
        lists.and_then(|l| l.top_non_brand_discovery.as_ref()),
        lists.and_then(|l| l.top_competitor_comparison.as_ref()),
        lists.and_then(|l| l.top_brand_defense.as_ref()),
    ]
    .iter()
    .filter(|list| list.is_some_and(|l| !l.is_empty()))
    .count();
    parts.add(
        SUB,
        "priority lists",
        2.0,
        ratio(filled, 4),
        format!("{filled} of 4 priority lists are filled"),
        "priority lists tell the team where to start".into(),
        "fill all four priority lists".into(),
    );
    let assets = set
        .strategy
        .recommended_assets
        .as_ref()
        .is_some_and(|a| a.iter().any(|s| !s.trim().is_empty()));
    parts.add(
        SUB,
        "recommended assets",
        1.0,
        f64::from(u8::from(assets)),
        if assets {
            "the strategy recommends assets".into()
        } else {
            "the strategy recommends no assets".into()
        },
        "the strategy names the assets to build".into(),
        "list the content assets to build in `strategy.recommended_assets`".into(),
    );
    let total = set.prompts.len();
    let typed = set
        .prompts
        .iter()
        .filter(|p| {
            p.recommended_asset_type
                .as_ref()
                .is_some_and(|a| !a.trim().is_empty())
        })
        .count();
    parts.add(
        SUB,
        "asset type per prompt",
        1.0,
        ratio(typed, total),
        format!("{typed} of {total} prompts name a recommended asset type"),
        "every prompt names the asset that would win it".into(),
        "name a `recommended_asset_type` for every prompt".into(),
    );
    let boilerplate: usize = boilerplate_groups(set).iter().map(|(count, _)| count).sum();
    parts.add(
        SUB,
        "specific reasons",
        1.0,
        quality(boilerplate, total),
        format!("{boilerplate} of {total} prompts share a boilerplate `why_it_matters`"),
        "each prompt says why it matters".into(),
        "replace boilerplate `why_it_matters` texts with specific reasons".into(),
    );
}
