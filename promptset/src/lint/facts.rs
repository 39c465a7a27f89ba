//! Facts about a prompt set computed once and shared by the rules and the scorecard:
//! per-prompt text features, counts by layer, stage and topic, competitor names,
//! duplicates and the business-model profile.

use std::collections::HashMap;

use rayon::prelude::*;

use super::business::{self, Profile};
use super::similar::{self, Similarity};
use super::text;
use crate::model::{FunnelStage, Layer, PromptSet, TopicType};

/// What the rules need to know about one prompt.
#[derive(Debug)]
pub(crate) struct PromptFacts {
    /// The normalised text (see [`text::normalize`]).
    pub normalized: String,
    /// Content tokens for near-duplicate detection.
    pub tokens: Vec<String>,
    /// Number of words.
    pub words: usize,
    /// Whether it names the brand.
    pub brand: bool,
    /// The first known competitor it names, as an index into [`Facts::competitors`].
    pub competitor: Option<usize>,
    /// Whether it holds a comparison cue (`vs`, `alternatives to`, ...).
    pub comparison_cue: bool,
    /// Whether it reads as a question or request.
    pub question: bool,
    /// Whether it names a year or a moment.
    pub time_sensitive: bool,
    /// The index of its topic in `topic_map`.
    pub topic: Option<usize>,
    /// What the misfit rules found in it (wording an analyst would reject).
    pub misfits: Vec<super::misfit::Misfit>,
}

/// Everything computed once about a prompt set.
#[derive(Debug)]
pub(crate) struct Facts {
    /// Normalised known competitor names.
    pub competitors: Vec<String>,
    /// One entry per prompt, in order.
    pub prompts: Vec<PromptFacts>,
    /// Exact and near duplicates.
    pub similarity: Similarity,
    /// Prompts per layer, indexed like [`Layer::ALL`].
    pub layer_counts: [usize; 3],
    /// Prompts per funnel stage, indexed like [`FunnelStage::ALL`].
    pub stage_counts: [usize; 3],
    /// Prompts per topic of `topic_map`.
    pub topic_counts: Vec<usize>,
    /// Prompts per topic and funnel stage.
    pub topic_stages: Vec<[usize; 3]>,
    /// The business-model profile the set is judged against.
    pub profile: &'static Profile,
}

/// The position of a layer in [`Layer::ALL`].
pub(crate) fn layer_index(layer: Layer) -> usize {
    Layer::ALL.iter().position(|&l| l == layer).unwrap_or(0)
}

/// The position of a stage in [`FunnelStage::ALL`].
pub(crate) fn stage_index(stage: FunnelStage) -> usize {
    FunnelStage::ALL
        .iter()
        .position(|&s| s == stage)
        .unwrap_or(0)
}

impl Facts {
    /// Computes the facts of `set`.
    pub(crate) fn new(set: &PromptSet<'_>) -> Self {
        let summary = &set.client_summary;
        let brand_variants = text::brand_variants(&summary.brand_name);

        let competition_sentences = summary
            .key_inferences
            .iter()
            .flatten()
            .map(String::as_str)
            .chain(
                set.topic_map
                    .iter()
                    .map(|t| t.why_this_topic_exists.as_ref()),
            );
        let competitor_topics = set
            .topic_map
            .iter()
            .filter(|t| t.topic_type == TopicType::CompetitorAlternative)
            .map(|t| t.topic.as_ref());
        let competitor_prompts = set
            .prompts
            .iter()
            .filter(|p| p.layer == Layer::CompetitorComparison)
            .map(|p| p.prompt.as_ref());
        // German and Spanish capitalise or word things the English name patterns misread
        // (`Welche Alternative zu …`, every German noun): such a set's rivals are read
        // from the names it quotes and from `Alternativen zu X` topics.
        let language = super::language::majority(set.prompts.iter().map(|p| p.prompt.as_ref()));
        let competitors = if matches!(
            language,
            super::language::Language::German | super::language::Language::Spanish
        ) {
            text::quoted_competitor_names(
                set.topic_map
                    .iter()
                    .filter(|t| t.topic_type == TopicType::CompetitorAlternative)
                    .map(|t| t.topic.as_ref()),
                competition_sentences,
                &brand_variants,
            )
        } else {
            text::competitor_names(
                competitor_topics,
                competition_sentences,
                competitor_prompts,
                &brand_variants,
                &summary.target_markets,
            )
        };

        let topic_index: HashMap<&str, usize> = set
            .topic_map
            .iter()
            .enumerate()
            .map(|(index, topic)| (topic.topic.as_ref(), index))
            .collect();

        // A rival named with a word the set also uses as a noun (Spaces, coworking
        // spaces) is named only where the word is capitalised.
        let common_words: Vec<bool> = competitors
            .iter()
            .map(|c| text::is_common_word(c, set.topic_map.iter().map(|t| t.topic.as_ref())))
            .collect();
        let context = super::misfit::Context::from_set(set, &competitors);
        let prompts: Vec<PromptFacts> = set
            .prompts
            .par_iter()
            .map(|prompt| {
                let normalized = text::normalize(&prompt.prompt);
                let language = super::language::detect(&prompt.prompt);
                let mut tokens = text::content_tokens(&normalized);
                tokens.retain(|t| !super::language::is_stop_word(t, language));
                PromptFacts {
                    words: text::word_count(&prompt.prompt),
                    brand: brand_variants
                        .iter()
                        .any(|b| text::mentions(&normalized, b)),
                    competitor: competitors.iter().enumerate().position(|(index, c)| {
                        text::mentions(&normalized, c)
                            && (!common_words[index]
                                || text::mentions_capitalised(&prompt.prompt, c))
                    }),
                    comparison_cue: text::has_comparison_cue(&normalized)
                        || super::language::has_comparison_cue(&normalized, language),
                    question: text::is_question_or_request(&prompt.prompt, &normalized),
                    time_sensitive: text::is_time_sensitive(&normalized),
                    topic: topic_index.get(prompt.topic.as_ref()).copied(),
                    misfits: super::misfit::check_prompt(
                        &prompt.prompt,
                        Some(&prompt.topic),
                        &context,
                    ),
                    tokens,
                    normalized,
                }
            })
            .collect();

        let normalized: Vec<&str> = prompts.iter().map(|p| p.normalized.as_str()).collect();
        let tokens: Vec<&[String]> = prompts.iter().map(|p| p.tokens.as_slice()).collect();
        let similarity = similar::find(&normalized, &tokens);

        let mut layer_counts = [0; 3];
        let mut stage_counts = [0; 3];
        let mut topic_counts = vec![0; set.topic_map.len()];
        let mut topic_stages = vec![[0; 3]; set.topic_map.len()];
        for (prompt, facts) in set.prompts.iter().zip(&prompts) {
            let layer = layer_index(prompt.layer);
            let stage = stage_index(prompt.funnel_stage);
            layer_counts[layer] += 1;
            stage_counts[stage] += 1;
            if let Some(topic) = facts.topic {
                topic_counts[topic] += 1;
                topic_stages[topic][stage] += 1;
            }
        }

        Facts {
            competitors,
            prompts,
            similarity,
            layer_counts,
            stage_counts,
            topic_counts,
            topic_stages,
            profile: business::profile(business::interpret(&summary.business_model)),
        }
    }

    /// The number of prompts.
    pub(crate) fn prompt_count(&self) -> usize {
        self.prompts.len()
    }
}

/// A target band for a layer's share, in percent.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Band {
    /// Lowest share on target.
    pub low: usize,
    /// Highest share on target.
    pub high: usize,
}

/// The target bands of issue 4, indexed like [`Layer::ALL`]: non-brand discovery
/// 60-70 %, competitor comparison 20-25 %, brand defense 10-20 %.
pub(crate) const LAYER_BANDS: [Band; 3] = [
    Band { low: 60, high: 70 },
    Band { low: 20, high: 25 },
    Band { low: 10, high: 20 },
];

impl Band {
    /// The counts out of `total` that are on target. A count is on target when its
    /// share is in the band, or when it is the closest whole count to the band (a
    /// 10-prompt set cannot hold 25 % exactly): the range runs from the band's low end
    /// rounded down to its high end rounded up.
    pub(crate) fn counts(self, total: usize) -> (usize, usize) {
        (self.low * total / 100, (self.high * total).div_ceil(100))
    }

    /// How far `count` out of `total` lies outside the band, in percentage points (0 when
    /// on target).
    pub(crate) fn distance(self, count: usize, total: usize) -> f64 {
        if total == 0 {
            return 0.0;
        }
        let (low, high) = self.counts(total);
        let outside = if count < low {
            low - count
        } else {
            count.saturating_sub(high)
        };
        outside as f64 * 100.0 / total as f64
    }
}

impl Band {
    /// How much of a layer's points `count` out of `total` keeps: 1 on target; below the
    /// band it falls to 0 at an empty layer; above it, to 0 at 20 points over the band.
    pub(crate) fn fraction(self, count: usize, total: usize) -> f64 {
        if total == 0 {
            return 0.0;
        }
        let (low, _) = self.counts(total);
        let distance = self.distance(count, total);
        let room = if count < low { self.low as f64 } else { 20.0 };
        (1.0 - distance / room).clamp(0.0, 1.0)
    }
}

/// A share in whole percent, for messages.
pub(crate) fn percent(count: usize, total: usize) -> usize {
    (count * 100 + total / 2).checked_div(total).unwrap_or(0)
}
