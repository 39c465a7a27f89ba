//! Everything in a prompt set that is computed rather than phrased: the layer mix from
//! the actual counts, funnel notes, recommended assets, priority lists, and the
//! `why_it_matters` sentence of each prompt.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use crate::brief::{Brief, BusinessModel};
use crate::generate::funnel::Intent;
use crate::generate::topics::{PlannedTopic, TopicPlan};
use crate::generate::{client_summary, topic_entry};
use crate::model::{
    FunnelStage, Layer, LayerMix, Level, PriorityLists, Prompt, PromptSet, Strategy,
};

/// Puts the set together from the plan and the prompts; topics without prompts are
/// left out of the map (they would fail validation's integrity rules and lint).
pub(crate) fn assemble(
    brief: &Brief,
    plan: &TopicPlan,
    prompts: &[Prompt<'static>],
    used: &BTreeSet<usize>,
    _language: &str,
) -> PromptSet<'static> {
    let mut inferences = plan.inferences.clone();
    let dropped: Vec<&str> = plan
        .topics
        .iter()
        .enumerate()
        .filter(|(i, _)| !used.contains(i))
        .map(|(_, t)| t.name.as_str())
        .collect();
    if !dropped.is_empty() {
        inferences.push(format!(
            "left out topics the templates could not phrase: {}",
            dropped
                .iter()
                .map(|d| format!("`{d}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let topics: Vec<&PlannedTopic> = plan
        .topics
        .iter()
        .enumerate()
        .filter(|(i, _)| used.contains(i))
        .map(|(_, t)| t)
        .collect();
    PromptSet {
        client_summary: client_summary(brief, inferences),
        topic_map: topics.iter().map(|t| topic_entry(t)).collect(),
        strategy: Strategy {
            layer_mix: layer_mix(prompts),
            funnel_notes: funnel_notes(brief.business_model, prompts),
            recommended_assets: Some(recommended_assets(prompts)),
        },
        priority_lists: Some(priority_lists(&topics, prompts)),
        prompts: prompts.to_vec(),
    }
}

fn percent(count: usize, total: usize) -> usize {
    (count * 100 + total / 2).checked_div(total).unwrap_or(0)
}

/// The share of each layer, as `60%`, from the actual counts.
pub fn layer_mix(prompts: &[Prompt<'_>]) -> LayerMix<'static> {
    let total = prompts.len();
    let share = |layer: Layer| {
        let count = prompts.iter().filter(|p| p.layer == layer).count();
        Cow::Owned(format!("{}%", percent(count, total)))
    };
    LayerMix {
        non_brand_discovery: share(Layer::NonBrandDiscovery),
        competitor_comparison: share(Layer::CompetitorComparison),
        brand_defense: share(Layer::BrandDefense),
    }
}

fn funnel_notes(model: BusinessModel, prompts: &[Prompt<'_>]) -> Vec<String> {
    let total = prompts.len();
    let count = |stage: FunnelStage| prompts.iter().filter(|p| p.funnel_stage == stage).count();
    let (tofu, mofu, bofu) = (
        count(FunnelStage::Tofu),
        count(FunnelStage::Mofu),
        count(FunnelStage::Bofu),
    );
    let model_note = match model {
        BusinessModel::Ecommerce => {
            "for an online store, BOFU prompts centre on price, delivery, returns and where to buy, and MOFU prompts on the shortlists AI answers build for a category"
        }
        BusinessModel::Saas => {
            "for a SaaS product, BOFU prompts centre on pricing, integrations, security and vendor choice, and MOFU prompts on tool shortlists and head-to-head comparisons"
        }
        BusinessModel::Services => {
            "for a services firm, BOFU prompts centre on choosing and qualifying a provider and on costs, and TOFU prompts on the problems clients bring"
        }
        BusinessModel::Marketplace => {
            "for a marketplace, prompts cover both sides: where to buy or sell, trust in the platform, and fees"
        }
        BusinessModel::Manufacturer => {
            "for a manufacturer, BOFU prompts centre on specifications, supplier qualification and certifications, which is how B2B buyers shortlist"
        }
        BusinessModel::ContentMedia => {
            "for a publisher, TOFU and MOFU prompts matter most: being cited as a source is the win, and BOFU prompts cover subscriptions and trust"
        }
        BusinessModel::Other => {
            "BOFU prompts centre on pricing, quality and vendor choice; TOFU prompts on the problems buyers start from"
        }
    };
    vec![
        format!(
            "TOFU: {tofu} of {total} prompts ({}%) on problem awareness and solution education, asked before buyers have a brand in mind",
            percent(tofu, total)
        ),
        format!(
            "MOFU: {mofu} of {total} prompts ({}%) on category evaluation and brand comparison, where AI answers build the shortlist",
            percent(mofu, total)
        ),
        format!(
            "BOFU: {bofu} of {total} prompts ({}%) on purchase decisions and use, plus every prompt about vendor choice, specs, supplier qualification, pricing, channels, returns, quality validation or near-term buying",
            percent(bofu, total)
        ),
        format!("{}{}", model_note[..1].to_uppercase(), &model_note[1..]),
    ]
}

fn recommended_assets(prompts: &[Prompt<'_>]) -> Vec<String> {
    let mut by_asset: BTreeMap<&str, (usize, BTreeSet<&str>)> = BTreeMap::new();
    for prompt in prompts {
        if let Some(asset) = &prompt.recommended_asset_type {
            let entry = by_asset.entry(asset.as_ref()).or_default();
            entry.0 += 1;
            entry.1.insert(prompt.topic.as_ref());
        }
    }
    let mut ranked: Vec<(&str, usize, BTreeSet<&str>)> =
        by_asset.into_iter().map(|(a, (n, t))| (a, n, t)).collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    ranked
        .into_iter()
        .take(8)
        .map(|(asset, count, topics)| {
            let topics: Vec<&str> = topics.into_iter().take(3).collect();
            let noun = if count == 1 { "prompt" } else { "prompts" };
            format!(
                "{} for {} ({count} {noun})",
                capitalize(asset),
                topics.join("; ")
            )
        })
        .collect()
}

fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn rank(level: Level) -> u8 {
    match level {
        Level::High => 0,
        Level::Medium => 1,
        Level::Low => 2,
    }
}

fn priority_lists(topics: &[&PlannedTopic], prompts: &[Prompt<'_>]) -> PriorityLists {
    let mut top_topics: Vec<String> = topics
        .iter()
        .filter(|t| t.priority == Level::High)
        .map(|t| t.name.clone())
        .collect();
    if top_topics.is_empty() {
        top_topics = topics.iter().take(2).map(|t| t.name.clone()).collect();
    }
    let top = |layer: Layer, n: usize| -> Option<Vec<String>> {
        let mut ranked: Vec<(usize, &Prompt<'_>)> = prompts
            .iter()
            .enumerate()
            .filter(|(_, p)| p.layer == layer)
            .collect();
        ranked.sort_by_key(|(i, p)| {
            (
                rank(p.business_value),
                rank(p.monitoring_value),
                rank(p.geo_priority),
                *i,
            )
        });
        let list: Vec<String> = ranked
            .into_iter()
            .take(n)
            .map(|(_, p)| p.prompt.to_string())
            .collect();
        (!list.is_empty()).then_some(list)
    };
    PriorityLists {
        top_topics: Some(top_topics),
        top_non_brand_discovery: top(Layer::NonBrandDiscovery, 5),
        top_competitor_comparison: top(Layer::CompetitorComparison, 3),
        top_brand_defense: top(Layer::BrandDefense, 3),
    }
}

/// Why a prompt matters, from its layer, intent and what was filled in.
pub(crate) fn why_it_matters(
    brief: &Brief,
    topic: &PlannedTopic,
    layer: Layer,
    intent: Intent,
    customer: &str,
    market: &str,
    competitor: Option<&str>,
) -> String {
    let brand = brief.brand_name.trim();
    let who = if customer.is_empty() {
        "buyers".to_owned()
    } else {
        customer.to_owned()
    };
    let place = if market.is_empty() {
        String::new()
    } else {
        format!(" in {market}")
    };
    let topic_name = &topic.name;
    match layer {
        Layer::NonBrandDiscovery => match intent.stage() {
            FunnelStage::Tofu => format!(
                "{} ask this{place} before they know any brand; an answer that cites {brand}'s guidance on {topic_name} plants the brand early",
                capitalize(&who)
            ),
            FunnelStage::Mofu => format!(
                "The answer is a shortlist for {who}{place}; if {brand} is missing from it, it is missing from the evaluation"
            ),
            FunnelStage::Bofu => format!(
                "A {} question close to purchase: the brand the answer recommends{place} is likely the one {who} buy from",
                intent.label()
            ),
        },
        Layer::CompetitorComparison => match competitor {
            Some(rival) if brief.competitors.iter().any(|c| c.name.trim() == rival) => format!(
                "Measures whether {brand} appears when {who}{place} weigh {rival}; every answer that lists only {rival} hands it the deal"
            ),
            _ => format!(
                "Comparison answers decide which brands {who}{place} consider side by side; {brand} needs to be one of them"
            ),
        },
        Layer::BrandDefense => format!(
            "Asked by {who} who already know {brand}: a wrong or thin answer about {} costs deals the brand had already won",
            intent.label()
        ),
    }
}
