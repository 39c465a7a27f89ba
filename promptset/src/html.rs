//! The self-contained HTML report of a prompt set.
//!
//! One file with inline CSS and inline SVG charts, no network access and no script
//! libraries (a few lines of inline JavaScript filter the prompt table). It is rendered
//! from `templates/report.html.j2`, embedded at compile time, with HTML auto-escaping
//! on: every text from the prompt set is escaped. Chart geometry is computed here, so
//! the template only places numbers.

use std::collections::BTreeMap;

use minijinja::{AutoEscape, Environment, UndefinedBehavior, context};
use serde::Serialize;

use crate::Error;
use crate::lint::{self, Scorecard};
use crate::model::{FunnelStage, Layer, PromptSet};

/// The report template, embedded at compile time.
const TEMPLATE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../templates/report.html.j2"
));

/// The template's name (its `.html` part turns HTML auto-escaping on).
const TEMPLATE_NAME: &str = "report.html.j2";

/// How many lint findings the report lists in full.
const MAX_LISTED_FINDINGS: usize = 200;

/// Target bands by layer (percent), as in the lint rules.
const BANDS: [(u32, u32); 3] = [(60, 70), (20, 25), (10, 20)];

/// Display names of the layers, in [`Layer::ALL`] order.
const LAYER_NAMES: [&str; 3] = [
    "Non-brand discovery",
    "Competitor comparison",
    "Brand defense",
];

/// Renders the HTML report of `set`; `title` names the document (usually its file name).
pub fn render(set: &PromptSet<'_>, title: &str) -> Result<String, Error> {
    let report = lint::lint(set, None);
    let view = View::new(set, title, &report.scorecard, &report.diagnostics);
    let mut env = Environment::new();
    env.set_auto_escape_callback(|_| AutoEscape::Html);
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.add_filter("ticks", ticks);
    env.add_template(TEMPLATE_NAME, TEMPLATE)?;
    let template = env.get_template(TEMPLATE_NAME)?;
    Ok(template.render(context! { report => minijinja::value::Serde(&view) })?)
}

#[derive(Serialize)]
struct View<'v> {
    title: &'v str,
    brand: &'v str,
    business_model: &'v str,
    profile: &'v str,
    markets: &'v [String],
    product_lines: &'v [String],
    input_topics: &'v [String],
    key_inferences: &'v [String],
    prompt_count: usize,
    topic_count: usize,
    scorecard: &'v Scorecard,
    gauge: Gauge,
    sub_scores: Vec<SubScoreView>,
    layers: Vec<LayerBar>,
    declared_mix: [&'v str; 3],
    stages: Vec<StageBar>,
    stage_axis: Vec<AxisTick>,
    heatmap: Vec<HeatRow<'v>>,
    topics: Vec<TopicRow<'v>>,
    funnel_notes: &'v [String],
    recommended_assets: &'v [String],
    priorities: Vec<PriorityList<'v>>,
    findings: Vec<FindingView>,
    findings_total: usize,
    findings_by_rule: Vec<(String, usize)>,
    prompts: Vec<PromptRow<'v>>,
}

#[derive(Serialize)]
struct Gauge {
    /// Length of the coloured arc on a circle of circumference 100.
    arc: f64,
    /// `good`, `fair` or `poor`.
    tone: &'static str,
    grade: &'static str,
}

#[derive(Serialize)]
struct SubScoreView {
    name: &'static str,
    score: u32,
    max: u32,
    percent: f64,
    tone: &'static str,
    checks: Vec<lint::Check>,
}

#[derive(Serialize)]
struct LayerBar {
    name: &'static str,
    key: &'static str,
    count: usize,
    share: f64,
    band_low: u32,
    band_high: u32,
    on_target: bool,
}

#[derive(Serialize)]
struct StageBar {
    name: &'static str,
    count: usize,
    share: f64,
    /// Stacked segments by layer: (layer key, y, height, count).
    segments: Vec<(&'static str, f64, f64, usize)>,
    x: u32,
    top: f64,
}

#[derive(Serialize)]
struct AxisTick {
    y: f64,
    label: usize,
}

#[derive(Serialize)]
struct HeatRow<'v> {
    topic: &'v str,
    cells: Vec<HeatCell>,
    total: usize,
}

#[derive(Serialize)]
struct HeatCell {
    count: usize,
    /// Opacity of the cell's colour, 0-1, relative to the busiest cell.
    alpha: f64,
    /// Whether the cell's text should be light (dark background).
    light: bool,
}

#[derive(Serialize)]
struct TopicRow<'v> {
    topic: &'v str,
    source: &'static str,
    topic_type: &'static str,
    priority: &'static str,
    related_product_lines: String,
    prompts: usize,
    why: &'v str,
}

#[derive(Serialize)]
struct PriorityList<'v> {
    title: &'static str,
    items: Vec<&'v str>,
}

#[derive(Serialize)]
struct FindingView {
    rule: &'static str,
    pointer: String,
    message: String,
}

#[derive(Serialize)]
struct PromptRow<'v> {
    number: usize,
    prompt: &'v str,
    topic: &'v str,
    layer: &'static str,
    layer_key: &'static str,
    stage: &'static str,
    category: &'v str,
    product_line: &'v str,
    target_customer: &'v str,
    business_value: &'static str,
    geo_priority: &'static str,
    monitoring_value: &'static str,
    answer_entry_mode: &'v str,
    asset: &'v str,
    why: &'v str,
}

fn layer_key(layer: Layer) -> &'static str {
    match layer {
        Layer::NonBrandDiscovery => "nb",
        Layer::CompetitorComparison => "cc",
        Layer::BrandDefense => "bd",
    }
}

fn tone(fraction: f64) -> &'static str {
    if fraction >= 0.85 {
        "good"
    } else if fraction >= 0.6 {
        "fair"
    } else {
        "poor"
    }
}

fn round1(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

impl<'v> View<'v> {
    fn new(
        set: &'v PromptSet<'_>,
        title: &'v str,
        scorecard: &'v Scorecard,
        diagnostics: &[crate::diagnostic::Diagnostic],
    ) -> Self {
        let summary = &set.client_summary;
        let total = set.prompts.len();
        let mut layer_counts = [0usize; 3];
        let mut stage_layer = [[0usize; 3]; 3];
        let topic_index: BTreeMap<&str, usize> = set
            .topic_map
            .iter()
            .enumerate()
            .map(|(i, t)| (t.topic.as_ref(), i))
            .collect();
        let mut heat = vec![[0usize; 3]; set.topic_map.len()];
        for prompt in &set.prompts {
            let layer = Layer::ALL
                .iter()
                .position(|&l| l == prompt.layer)
                .unwrap_or(0);
            let stage = FunnelStage::ALL
                .iter()
                .position(|&s| s == prompt.funnel_stage)
                .unwrap_or(0);
            layer_counts[layer] += 1;
            stage_layer[stage][layer] += 1;
            if let Some(&topic) = topic_index.get(prompt.topic.as_ref()) {
                heat[topic][layer] += 1;
            }
        }
        let share = |count: usize| {
            if total == 0 {
                0.0
            } else {
                count as f64 * 100.0 / total as f64
            }
        };

        let layers = Layer::ALL
            .iter()
            .enumerate()
            .map(|(i, &layer)| {
                let (low, high) = BANDS[i];
                let value = share(layer_counts[i]);
                LayerBar {
                    name: LAYER_NAMES[i],
                    key: layer_key(layer),
                    count: layer_counts[i],
                    share: round1(value),
                    band_low: low,
                    band_high: high,
                    on_target: value >= f64::from(low) - 0.05 && value <= f64::from(high) + 0.05,
                }
            })
            .collect();

        // Vertical stacked bars, 180 units tall for the busiest stage (rounded up to a nice step).
        let busiest = stage_layer
            .iter()
            .map(|s| s.iter().sum::<usize>())
            .max()
            .unwrap_or(0)
            .max(1);
        let step = nice_step(busiest);
        let axis_max = busiest.div_ceil(step) * step;
        let scale = 180.0 / axis_max as f64;
        let stages = FunnelStage::ALL
            .iter()
            .enumerate()
            .map(|(i, stage)| {
                let mut y = 200.0;
                let mut segments = Vec::new();
                for (l, &layer) in Layer::ALL.iter().enumerate() {
                    let count = stage_layer[i][l];
                    let height = round1(count as f64 * scale);
                    y -= height;
                    if count > 0 {
                        segments.push((layer_key(layer), round1(y), height, count));
                    }
                }
                let count: usize = stage_layer[i].iter().sum();
                StageBar {
                    name: stage.as_str(),
                    count,
                    share: round1(share(count)),
                    segments,
                    x: 70 + 120 * i as u32,
                    top: round1(y),
                }
            })
            .collect();
        let stage_axis = (0..=axis_max / step)
            .map(|k| AxisTick {
                y: round1(200.0 - (k * step) as f64 * scale),
                label: k * step,
            })
            .collect();

        let hottest = heat
            .iter()
            .flat_map(|row| row.iter().copied())
            .max()
            .unwrap_or(0)
            .max(1);
        let heatmap = set
            .topic_map
            .iter()
            .zip(&heat)
            .map(|(topic, row)| HeatRow {
                topic: topic.topic.as_ref(),
                cells: row
                    .iter()
                    .map(|&count| {
                        let alpha = if count == 0 {
                            0.0
                        } else {
                            round1(0.12 + 0.88 * count as f64 / hottest as f64)
                        };
                        HeatCell {
                            count,
                            alpha,
                            light: alpha >= 0.55,
                        }
                    })
                    .collect(),
                total: row.iter().sum(),
            })
            .collect();

        let topics = set
            .topic_map
            .iter()
            .zip(&heat)
            .map(|(topic, row)| TopicRow {
                topic: topic.topic.as_ref(),
                source: topic.topic_source.as_str(),
                topic_type: topic.topic_type.as_str(),
                priority: topic.priority.as_str(),
                related_product_lines: topic
                    .related_product_lines
                    .as_deref()
                    .unwrap_or_default()
                    .join(", "),
                prompts: row.iter().sum(),
                why: topic.why_this_topic_exists.as_ref(),
            })
            .collect();

        let lists = set.priority_lists.as_ref();
        let list = |title: &'static str, items: Option<&'v Vec<String>>| PriorityList {
            title,
            items: items
                .map(|v| v.iter().map(String::as_str).collect())
                .unwrap_or_default(),
        };
        let priorities = vec![
            list("Top topics", lists.and_then(|l| l.top_topics.as_ref())),
            list(
                "Top non-brand discovery",
                lists.and_then(|l| l.top_non_brand_discovery.as_ref()),
            ),
            list(
                "Top competitor comparison",
                lists.and_then(|l| l.top_competitor_comparison.as_ref()),
            ),
            list(
                "Top brand defense",
                lists.and_then(|l| l.top_brand_defense.as_ref()),
            ),
        ];

        let mut by_rule: BTreeMap<&str, usize> = BTreeMap::new();
        for diagnostic in diagnostics {
            *by_rule.entry(diagnostic.rule).or_default() += 1;
        }
        let mut findings_by_rule: Vec<(String, usize)> = by_rule
            .into_iter()
            .map(|(r, n)| (r.to_owned(), n))
            .collect();
        findings_by_rule.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));

        let overall = f64::from(scorecard.overall_score) / f64::from(scorecard.max_score.max(1));
        let sub_scores = scorecard
            .sub_scores
            .named()
            .into_iter()
            .map(|(name, sub)| {
                let fraction = f64::from(sub.score) / f64::from(sub.max.max(1));
                SubScoreView {
                    name,
                    score: sub.score,
                    max: sub.max,
                    percent: round1(fraction * 100.0),
                    tone: tone(fraction),
                    checks: sub.checks.clone(),
                }
            })
            .collect();

        View {
            title,
            brand: summary.brand_name.as_ref(),
            business_model: summary.business_model.as_ref(),
            profile: &scorecard.business_model,
            markets: &summary.target_markets,
            product_lines: summary.input_product_lines.as_deref().unwrap_or_default(),
            input_topics: summary.input_topics.as_deref().unwrap_or_default(),
            key_inferences: summary.key_inferences.as_deref().unwrap_or_default(),
            prompt_count: total,
            topic_count: set.topic_map.len(),
            scorecard,
            gauge: Gauge {
                arc: round1(overall * 100.0),
                tone: tone(overall),
                grade: match scorecard.overall_score {
                    90.. => "Excellent",
                    80..=89 => "Good",
                    65..=79 => "Needs work",
                    _ => "Weak",
                },
            },
            sub_scores,
            layers,
            declared_mix: [
                set.strategy.layer_mix.non_brand_discovery.as_ref(),
                set.strategy.layer_mix.competitor_comparison.as_ref(),
                set.strategy.layer_mix.brand_defense.as_ref(),
            ],
            stages,
            stage_axis,
            heatmap,
            topics,
            funnel_notes: &set.strategy.funnel_notes,
            recommended_assets: set
                .strategy
                .recommended_assets
                .as_deref()
                .unwrap_or_default(),
            priorities,
            findings: diagnostics
                .iter()
                .take(MAX_LISTED_FINDINGS)
                .map(|d| FindingView {
                    rule: d.rule,
                    pointer: d.pointer.clone(),
                    message: d.message.clone(),
                })
                .collect(),
            findings_total: diagnostics.len(),
            findings_by_rule,
            prompts: set
                .prompts
                .iter()
                .enumerate()
                .map(|(i, p)| PromptRow {
                    number: i + 1,
                    prompt: p.prompt.as_ref(),
                    topic: p.topic.as_ref(),
                    layer: p.layer.as_str(),
                    layer_key: layer_key(p.layer),
                    stage: p.funnel_stage.as_str(),
                    category: p.category.as_ref(),
                    product_line: p.product_line.as_deref().unwrap_or(""),
                    target_customer: p.target_customer.as_deref().unwrap_or(""),
                    business_value: p.business_value.as_str(),
                    geo_priority: p.geo_priority.as_str(),
                    monitoring_value: p.monitoring_value.as_str(),
                    answer_entry_mode: p.answer_entry_mode.as_ref(),
                    asset: p.recommended_asset_type.as_deref().unwrap_or(""),
                    why: p.why_it_matters.as_ref(),
                })
                .collect(),
        }
    }
}

/// Escapes `text` for HTML.
fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            '/' => out.push_str("&#x2f;"),
            _ => out.push(ch),
        }
    }
    out
}

/// The `ticks` filter: escapes a message and sets its `backticked` values in `<code>`,
/// as the lint messages quote values that way.
fn ticks(text: &str) -> minijinja::Value {
    let escaped = escape_html(text);
    let parts: Vec<&str> = escaped.split('`').collect();
    if parts.len().is_multiple_of(2) {
        // An unpaired backtick: show the text as it is.
        return minijinja::Value::from_safe_string(escaped);
    }
    let mut out = String::with_capacity(escaped.len() + 16);
    for (index, part) in parts.iter().enumerate() {
        if index % 2 == 1 {
            out.push_str("<code>");
            out.push_str(part);
            out.push_str("</code>");
        } else {
            out.push_str(part);
        }
    }
    minijinja::Value::from_safe_string(out)
}

/// A round axis step (1, 2, 5 × 10^k) giving about four ticks up to `max`.
fn nice_step(max: usize) -> usize {
    let rough = (max as f64 / 4.0).max(1.0);
    let magnitude = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|&s| s >= rough)
        .unwrap_or(rough);
    (step as usize).max(1)
}

#[cfg(test)]
mod tests {
    use super::{nice_step, ticks};

    #[test]
    fn ticks_escape_then_mark_code() {
        assert_eq!(
            ticks("move `a<b>` now").to_string(),
            "move <code>a&lt;b&gt;</code> now"
        );
        assert_eq!(ticks("odd ` tick <x>").to_string(), "odd ` tick &lt;x&gt;");
    }

    #[test]
    fn axis_steps_are_round() {
        assert_eq!(nice_step(3), 1);
        assert_eq!(nice_step(18), 5);
        assert_eq!(nice_step(50), 20);
        assert_eq!(nice_step(40_000), 10_000);
    }
}
