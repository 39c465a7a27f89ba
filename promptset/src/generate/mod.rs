//! Deterministic prompt-set generation from a client brief.
//!
//! The operating model: business model → topic map → prompt layers → funnel stages →
//! monitoring set. [`topics`] plans the map; this module splits the pack into layers
//! (60 / 30 / 10 by default, 6 / 3 / 1 per topic of ten) and stages ([`funnel`]), fills
//! each slot with a template variant chosen by the seed ([`templates`], [`rng`]) that
//! obeys the layer rules (non-brand prompts never name the brand, competitor prompts
//! name a rival or ask for alternatives, brand-defense prompts name the brand) and is
//! not a near-duplicate of one already taken ([`text`]), and then fills every other
//! field by rule ([`strategy`]). The same brief, options and templates always give
//! byte-identical output.

pub mod funnel;
pub mod keywords;
pub mod locale;
pub mod offer;
pub mod phrasing;
pub mod rng;
pub mod strategy;
pub mod templates;
pub mod text;
pub mod topics;

use std::borrow::Cow;
use std::cell::{OnceCell, RefCell};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::rc::Rc;

use minijinja::Value;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::brief::{Brief, ChannelKind};
use crate::model::{ClientSummary, FunnelStage, Layer, Level, Prompt, PromptSet, Topic};
use funnel::{Intent, apportion, stage_weights};
use rng::{SplitMix64, stable_hash};
use templates::{Facts, Scopes, Templates, Variant};
use text::{NEAR_DUPLICATE, mentions, phrase, place_name, similar_hashed, tokens};
use topics::{PlannedTopic, names_to_keep};

/// What can go wrong while generating.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// A template failed to compile or render.
    #[error("template `{name}`{}: {message}", if *line > 0 { format!(" line {line}") } else { String::new() })]
    Template {
        /// The template's name relative to the templates folder.
        name: String,
        /// The 1-based line, 0 when unknown.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A templates folder could not be read.
    #[error("failed to read templates from `{}`", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The requested language has no templates.
    #[error("no prompt templates for language `{lang}`; available: {available}")]
    UnknownLanguage {
        /// The language asked for.
        lang: String,
        /// The languages that have templates.
        available: String,
    },
    /// The options ask for an empty pack.
    #[error("`{option}` must be at least 1")]
    EmptyPack {
        /// The option that is zero.
        option: &'static str,
    },
}

/// How big a pack to build and how to phrase it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Number of topics in the map (default 5).
    pub topics: usize,
    /// Prompts per topic (default 10).
    pub prompts_per_topic: usize,
    /// Chooses among template variants; same seed, same output.
    pub seed: u64,
    /// Language of the prompts; `None` takes the brief's first language with templates.
    pub lang: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            topics: 5,
            prompts_per_topic: 10,
            seed: 0,
            lang: None,
        }
    }
}

/// The target share of each layer, in non-brand, competitor, brand-defense order: the
/// middle of the bands a monitoring set should sit in (60-70 %, 20-25 %, 10-20 %), so a
/// ten-prompt topic gets 6-7 non-brand, 2-3 competitor and 1-2 brand-defense prompts.
pub const LAYER_TARGET: [f64; 3] = [0.65, 0.225, 0.125];

/// A generated prompt set and what the analyst should know about it.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The prompt set.
    pub set: PromptSet<'static>,
    /// Things worth a warning on stderr (thin brief, short topics, language fallback).
    pub warnings: Vec<String>,
    /// The language the prompts are written in.
    pub language: String,
}

/// A reusable generator: compiled templates, shared across briefs and threads.
#[derive(Debug)]
pub struct Generator {
    templates: Templates,
}

/// One filled prompt before it becomes a [`Prompt`].
#[derive(Debug, Clone)]
struct Filled {
    topic: usize,
    layer: Layer,
    intent: Intent,
    text: String,
    /// Its tokens, as [`text::hashed`] sets (every candidate is compared with these).
    tokens: Vec<u64>,
    /// The tokens without the words of any audience or market: two prompts whose
    /// skeletons match ask the same question for another audience or place.
    skeleton: Vec<u64>,
    /// The skeleton without the product lines' words either (see [`frame_drop`]).
    frame: Vec<u64>,
    /// The question family of the template variant (see [`templates::Variant::family`]).
    family: String,
    product_line: Option<String>,
    customer: String,
    market: String,
    competitor: Option<String>,
}

impl Generator {
    /// A generator over the built-in templates, overridden by `templates_dir` if given.
    pub fn new(templates_dir: Option<&std::path::Path>) -> Result<Generator, GenerateError> {
        Ok(Generator {
            templates: Templates::new(templates_dir)?,
        })
    }

    /// The compiled templates.
    pub fn templates(&self) -> &Templates {
        &self.templates
    }

    /// Builds the prompt set of `brief`.
    pub fn generate(&self, brief: &Brief, options: &Options) -> Result<Generated, GenerateError> {
        if options.topics == 0 {
            return Err(GenerateError::EmptyPack { option: "--topics" });
        }
        if options.prompts_per_topic == 0 {
            return Err(GenerateError::EmptyPack {
                option: "--prompts-per-topic",
            });
        }
        let mut warnings = Vec::new();
        // Markets named with their regions (`United Kingdom (Surrey, South West London)`)
        // are those regions; a YAML flow list splits such a market at its commas, and the
        // pieces are joined again first.
        // A brand named in two languages (`Rivebois Credit Union / Caisse Rivebois`) is
        // asked about by its first name.
        let original = brief;
        let regional;
        let mut market_notes = Vec::new();
        let markets = regional_markets(&brief.target_markets, &mut market_notes);
        let brand = phrasing::spoken_name(&brief.brand_name);
        if let Some(spoken) = &brand {
            market_notes.push(format!(
                "the brand `{}` is named `{spoken}` in prompts, as people say it",
                brief.brand_name.trim()
            ));
        }
        // Rivals as people say them (`Bristol Hippodrome (ATG)` → `Bristol Hippodrome`);
        // the asides stay in their notes, which tell what kind of business each is.
        let rivals: Vec<Option<(String, String)>> = brief
            .competitors
            .iter()
            .map(|c| phrasing::spoken_rival(&c.name))
            .collect();
        let renamed: Vec<String> = brief
            .competitors
            .iter()
            .zip(&rivals)
            .filter_map(|(c, spoken)| {
                spoken
                    .as_ref()
                    .map(|(name, _)| format!("`{}` as `{name}`", c.name.trim()))
            })
            .collect();
        if !renamed.is_empty() {
            market_notes.push(format!(
                "rivals are named as people say them: {}",
                renamed.join(", ")
            ));
        }
        // `DIY homeowners`, `paper job cards`: doing without the offer is no rival to
        // compare with a firm (`Which is more responsive, DIY homeowners or Poolwerx?`);
        // the banks ask about doing it yourself in their own lines. Kept when the brief
        // names no other rival.
        let status_quo: Vec<bool> = brief
            .competitors
            .iter()
            .zip(&rivals)
            .map(|(c, spoken)| {
                // `Woodies / B&Q (DIY lock kits)`: a shop for doing it yourself.
                let aside = spoken.as_ref().map_or("", |s| s.1.as_str());
                phrasing::is_status_quo(spoken.as_ref().map_or(c.name.as_str(), |s| &s.0))
                    || aside.to_lowercase().starts_with("diy ")
            })
            .collect();
        let drop_status_quo = status_quo.contains(&true) && status_quo.contains(&false);
        if drop_status_quo {
            let names: Vec<String> = brief
                .competitors
                .iter()
                .zip(&status_quo)
                .filter(|(_, quo)| **quo)
                .map(|(c, _)| format!("`{}`", c.name.trim()))
                .collect();
            market_notes.push(format!(
                "{} {} no company to compare with: the prompts ask about doing it yourself instead of comparing",
                names.join(", "),
                if names.len() == 1 { "is" } else { "are" }
            ));
        }
        let noted_channels = brief.priority_channels.iter().any(|c| c.contains('('));
        let brief = if markets.is_some()
            || brand.is_some()
            || !renamed.is_empty()
            || drop_status_quo
            || noted_channels
        {
            let mut copy = brief.clone();
            // `Google Maps (demo centres)`: a channel's aside is the brief's note.
            for channel in &mut copy.priority_channels {
                if let std::borrow::Cow::Owned(plain) = text::without_aside(channel) {
                    *channel = plain;
                }
            }
            for (competitor, spoken) in copy.competitors.iter_mut().zip(rivals) {
                if let Some((name, aside)) = spoken {
                    competitor.name = name;
                    if !aside.is_empty() {
                        competitor.notes = Some(match competitor.notes.take() {
                            Some(notes) => format!("{notes}; {aside}"),
                            None => aside,
                        });
                    }
                }
            }
            if drop_status_quo {
                let mut quo = status_quo.iter();
                copy.competitors
                    .retain(|_| !quo.next().copied().unwrap_or_default());
            }
            // Two rivals said alike, or a rival said as the brand, are one rival.
            let brand_name = brand.as_deref().unwrap_or(&copy.brand_name).to_lowercase();
            let mut seen = vec![brand_name];
            copy.competitors.retain(|c| {
                let name = c.name.trim().to_lowercase();
                let new = !seen.contains(&name);
                seen.push(name);
                new
            });
            if let Some(markets) = markets {
                copy.target_markets = markets;
            }
            if let Some(brand) = brand {
                copy.brand_name = brand;
            }
            regional = copy;
            &regional
        } else {
            brief
        };
        let mut plan = topics::plan(brief, options.topics);
        plan.north_american = north_american(original);
        plan.inferences.extend(market_notes.iter().cloned());
        warnings.extend(market_notes.into_iter().filter(|n| n.contains("YAML")));
        let language = self.pick_language(brief, options, &mut plan.inferences, &mut warnings)?;
        topics::localize_names(&mut plan, &language);
        locale::localize_names(&mut plan, brief, &language);
        if let (true, Some(name)) = (
            locale::is_localized(&language),
            locale::language_name(&language),
        ) {
            plan.inferences.push(format!(
                "prompts are written in {name} (`{language}`), from the `{language}` template set"
            ));
        }
        if brief.is_thin() {
            warnings.push(
                "the brief is thin (no product lines, no priority topics, no competitors); the set is built from inferred topics, see `key_inferences`"
                    .to_owned(),
            );
        }
        if !brief.competitors.is_empty() {
            // Said so that a reader of the set alone (and the lint, which reads rival
            // names from such sentences) knows whom `What do readers criticise most
            // about NerdWallet?` is about: a named rival needs no comparison wording.
            let names: Vec<String> = brief
                .competitors
                .iter()
                .map(|c| format!("`{}`", c.name.trim()))
                .collect();
            plan.inferences.push(format!(
                "competitor-comparison prompts name the brief's competitors: {}",
                names.join(", ")
            ));
        } else {
            plan.inferences.push(
                "no competitors were given, so competitor-comparison prompts ask for alternatives and comparisons without naming rivals"
                    .to_owned(),
            );
        }
        if brief.core_product_lines.is_empty() {
            plan.inferences.push(format!(
                "no product lines were given, so prompts refer to the category `{}` instead of named products",
                plan.category
            ));
        }
        if plan.topics.len() < options.topics {
            plan.inferences.push(format!(
                "only {} distinct topics could be supported by the brief, fewer than the {} asked for",
                plan.topics.len(),
                options.topics
            ));
        }

        if language == "en" {
            joined_labels_note(brief, &plan.topics, &mut plan.inferences);
        }

        let mut counts = layer_counts(plan.topics.len(), options.prompts_per_topic);
        move_unfit_comparisons(&mut counts, brief, &plan);
        favour_rival_topics(&mut counts, &plan.topics, options.prompts_per_topic);
        let keep = names_to_keep(brief);
        let keep: Vec<&str> = keep.iter().map(String::as_str).collect();
        let mut competitors: Vec<(u32, &str)> = brief
            .competitors
            .iter()
            .map(|c| (c.overlap_tier.map_or(2, |t| t.weight()), c.name.trim()))
            .collect();
        competitors.sort_by_key(|entry| std::cmp::Reverse(entry.0));
        let competitors: Vec<&str> = competitors.into_iter().map(|(_, n)| n).collect();
        let season = brief
            .optional_context
            .get("seasonality")
            .and_then(|v| v.as_str())
            .map(|s| phrase(s, &keep));

        // The words of every audience and market, dropped from a candidate's tokens to
        // get its skeleton; built once per set, not once per candidate.
        let skeleton_drop = skeleton_drop(brief, &plan);
        let frame_drop = frame_drop(brief, &plan, &skeleton_drop);
        // Every slot of the set is filled in the same context but for its topic; the
        // closure copies these references into each.
        // The rivals running text gives an article (see [`phrasing::articles_for_names`]):
        // the others leave every variant as it is.
        let institutions: Vec<&str> = competitors
            .iter()
            .copied()
            .filter(|name| phrasing::name_in_text(name) != name.trim())
            .collect();
        let (keep, competitors, season) = (&keep[..], &competitors[..], season.as_deref());
        let institutions = &institutions[..];
        let casing = &brief_casing(brief);
        // What the keyword reading needs of the brief, and each topic's keyword questions
        // and own words, worked out once: a slot handed to another topic builds a new
        // context for it.
        let lexicon = keywords::Lexicon::of(brief, &original.target_markets);
        let lexicon = &lexicon;
        let asked_cells: Vec<OnceCell<Vec<AskedKeyword>>> =
            plan.topics.iter().map(|_| OnceCell::new()).collect();
        let word_cells: Vec<OnceCell<Vec<String>>> =
            plan.topics.iter().map(|_| OnceCell::new()).collect();
        let kind_cells: Vec<OnceCell<Vec<String>>> =
            plan.topics.iter().map(|_| OnceCell::new()).collect();
        let (asked_cells, word_cells, kind_cells) =
            (&asked_cells[..], &word_cells[..], &kind_cells[..]);
        let nouns = &RefCell::new(FxHashMap::default());
        let language_code = &language[..];
        let (plan_ref, topics) = (&plan, &plan.topics);
        let rendered = &RefCell::new(FxHashMap::default());
        let readings = &Readings::default();
        let facts = &Facts::new(&self.templates);
        let (skeleton_drop_hashed, frame_drop_hashed) = (
            &text::hashed(&skeleton_drop)[..],
            &text::hashed(&frame_drop)[..],
        );
        let context = move |index: usize| FillContext {
            brief,
            topic: &topics[index],
            topic_index: index,
            plan: plan_ref,
            keep,
            competitors,
            institutions,
            season,
            language: language_code,
            skeleton_drop_hashed,
            frame_drop_hashed,
            rendered,
            facts,
            readings,
            casing,
            demand: OnceCell::new(),
            foreign: in_other_language(brief, language_code),
            lexicon,
            topic_words: &word_cells[index],
            asked: &asked_cells[index],
            topic_kinds: &kind_cells[index],
            topic_vars: Default::default(),
            product_vars: RefCell::default(),
            nouns,
        };
        let mut filled: Vec<Filled> = Vec::new();
        // Slots a topic could not fill with a new question, by topic and layer, with the
        // best repeat the topic had (if any): its templates ran dry, or every phrasing
        // left asked a question the set already asks.
        let mut deferred: Vec<Deferred> = Vec::new();
        for (index, topic) in topics.iter().enumerate() {
            let (mut rng, offsets) = slot_rng(options.seed, &topic.name);
            let fill = context(index);
            let mut slot = 0usize;
            for (layer_index, layer) in Layer::ALL.iter().enumerate() {
                let per_stage = apportion(
                    counts[index][layer_index],
                    &stage_weights(*layer, brief.business_model),
                    index,
                );
                for (stage_index, stage) in FunnelStage::ALL.iter().enumerate() {
                    for _ in 0..per_stage[stage_index] {
                        let found = self.fill_in_layer(
                            &fill, *layer, *stage, slot, offsets, &mut rng, &filled, None,
                        )?;
                        slot += 1;
                        match found {
                            Some((Repeat::Nothing, found)) => filled.push(found),
                            other => deferred.push(Deferred {
                                topic: index,
                                layer: *layer,
                                stage: *stage,
                                repeat: other,
                            }),
                        }
                    }
                }
            }
        }
        // A deferred slot goes to the next topic that can ask a new question of its
        // layer, so the set keeps its size and its layer mix without asking one
        // question twice (the readings of issue 8 rejected the same "best value" or
        // "complaints" question for a second product line or rival). A topic takes at
        // most half its size again this way, so no topic swamps the map. Only when no
        // topic has a new question left does the slot keep its own repeat.
        let most = options.prompts_per_topic + options.prompts_per_topic.div_ceil(2);
        for slot in deferred {
            // A rival's topic takes a comparison; a question that names no rival goes
            // to a rival's topic only when no other topic has one left.
            let order: Vec<usize> = (1..topics.len())
                .map(|step| (slot.topic + step) % topics.len())
                .filter(|&index| {
                    slot.layer != Layer::NonBrandDiscovery || !is_rival_topic(&topics[index])
                })
                .chain(
                    (1..topics.len())
                        .map(|step| (slot.topic + step) % topics.len())
                        .filter(|&index| {
                            slot.layer == Layer::NonBrandDiscovery && is_rival_topic(&topics[index])
                        }),
                )
                .collect();
            // The best candidate of another topic that can take one more prompt, among
            // those that repeat less than `below`.
            let from_others = |below: Option<Repeat>,
                               filled: &[Filled]|
             -> Result<Option<(Repeat, Filled)>, GenerateError> {
                let mut best: Option<(Repeat, Filled)> = None;
                for &index in &order {
                    let held = filled.iter().filter(|f| f.topic == index).count();
                    if held >= most {
                        continue;
                    }
                    let (mut rng, offsets) = slot_rng(options.seed ^ 0x5107, &topics[index].name);
                    let ceiling = best.as_ref().map(|(rank, _)| *rank).or(below);
                    if let Some((rank, found)) = self.fill_in_layer(
                        &context(index),
                        slot.layer,
                        slot.stage,
                        options.prompts_per_topic + held,
                        offsets,
                        &mut rng,
                        filled,
                        ceiling,
                    )? {
                        let new = rank == Repeat::Nothing;
                        best = Some((rank, found));
                        if new {
                            break;
                        }
                    }
                }
                Ok(best)
            };
            if let Some((_, found)) = from_others(Some(Repeat::FamilyOrFrameInSet), &filled)? {
                insert_beside_topic(&mut filled, found);
                continue;
            }
            // The topic's own repeat, unless a prompt placed since asks the same; then
            // the topic's best candidate now.
            let own = match slot.repeat {
                Some((_, own))
                    if !filled.iter().any(|t| {
                        similar_hashed(&t.tokens, &own.tokens, NEAR_DUPLICATE)
                            || similar_hashed(&t.skeleton, &own.skeleton, SAME_QUESTION)
                    }) =>
                {
                    Some(own)
                }
                Some(_) => {
                    let (mut rng, offsets) =
                        slot_rng(options.seed ^ 0x0a11, &topics[slot.topic].name);
                    let held = filled.iter().filter(|f| f.topic == slot.topic).count();
                    self.fill_in_layer(
                        &context(slot.topic),
                        slot.layer,
                        slot.stage,
                        options.prompts_per_topic + held,
                        offsets,
                        &mut rng,
                        &filled,
                        None,
                    )?
                    .map(|(_, found)| found)
                }
                None => None,
            };
            // The set keeps its size: a repeat from another topic before a missing prompt.
            let found = match own {
                Some(own) => Some(own),
                None => from_others(None, &filled)?.map(|(_, found)| found),
            };
            if let Some(found) = found {
                insert_beside_topic(&mut filled, found);
            }
        }
        // A topic left short gave its slots to the others; the analyst is told which, and
        // how many prompts the set lacks when no topic had a new question left.
        let wanted = topics.len() * options.prompts_per_topic;
        let full = filled.len() >= wanted;
        let mut dry: Vec<String> = topics
            .iter()
            .enumerate()
            .filter_map(|(index, topic)| {
                let held = filled.iter().filter(|f| f.topic == index).count();
                (held < options.prompts_per_topic).then(|| {
                    format!(
                        "topic `{}` got {held} of {} prompts: its templates ran out of questions about it that the set does not already ask{}",
                        topic.name,
                        options.prompts_per_topic,
                        if full { "; the other topics take its place" } else { "" }
                    )
                })
            })
            .collect();
        if !full {
            let short = format!(
                "the set holds {} of {wanted} prompts: no topic had a question left that the set does not already ask; add product lines, topics or competitors to the brief, or ask for fewer prompts per topic",
                filled.len()
            );
            // A short set is no set the analyst asked for: said on stderr too.
            warnings.push(short.clone());
            dry.push(short);
        }
        // Handing a slot on is how the set avoids asking twice, not a fault of the brief:
        // key inferences say so, warnings do not.
        plan.inferences.extend(dry);
        if in_other_language(brief, &language) {
            if plan.topics.iter().any(|t| !t.keywords.is_empty()) {
                plan.inferences.push(format!(
                    "the brief's keywords and topic names are taken to be in its languages ({}), not in `{language}`: no keyword is asked as a question and prompts are not held to the topic names' words; name topics and product lines in `{language}` for prompts that use them",
                    brief.languages.join(", ")
                ));
            }
        } else if language == "en" {
            plan.inferences
                .extend(keyword_note(brief, lexicon, &plan.topics, &filled));
        }
        // A topic without prompts cannot stay in the map (the set would not validate).
        let used: BTreeSet<usize> = filled.iter().map(|f| f.topic).collect();
        let set = strategy::assemble(
            brief,
            &plan,
            &filled_to_prompts(brief, &plan.topics, &filled),
            &used,
            &language,
        );
        Ok(Generated {
            set,
            warnings,
            language,
        })
    }

    fn pick_language(
        &self,
        brief: &Brief,
        options: &Options,
        inferences: &mut Vec<String>,
        warnings: &mut Vec<String>,
    ) -> Result<String, GenerateError> {
        let available = self.templates.languages();
        let candidates = |code: &str| -> Vec<String> {
            let lower = code.trim().to_lowercase().replace('_', "-");
            let primary = lower.split('-').next().unwrap_or_default().to_owned();
            vec![lower, primary]
        };
        if let Some(lang) = &options.lang {
            return candidates(lang)
                .into_iter()
                .find(|c| available.contains(c))
                .ok_or_else(|| GenerateError::UnknownLanguage {
                    lang: lang.clone(),
                    available: available.iter().cloned().collect::<Vec<_>>().join(", "),
                });
        }
        for lang in &brief.languages {
            if let Some(found) = candidates(lang)
                .into_iter()
                .find(|c| available.contains(c) && !locale::words_are_english(brief, c))
            {
                if brief.languages.len() > 1 {
                    inferences.push(format!(
                        "prompts are written in `{found}`, the first of the brief's languages with a template set"
                    ));
                }
                return Ok(found);
            }
        }
        let fallback = if available.contains("en") {
            "en".to_owned()
        } else {
            available
                .iter()
                .next()
                .cloned()
                .unwrap_or_else(|| "en".to_owned())
        };
        if brief.languages.is_empty() {
            inferences.push(format!(
                "the brief names no language, so prompts are written in `{fallback}`"
            ));
        } else {
            let message = format!(
                "no template set for the brief's languages ({}); prompts are written in `{fallback}`",
                brief.languages.join(", ")
            );
            inferences.push(message.clone());
            warnings.push(message);
        }
        Ok(fallback)
    }

    /// [`Self::fill_slot`] at `stage`; when that stage gives only a repeat of the set or
    /// nothing, the other stages the layer uses, for a candidate that repeats less. At
    /// most `ceiling` (exclusive) when given.
    #[expect(
        clippy::too_many_arguments,
        reason = "one slot needs all of its coordinates"
    )]
    fn fill_in_layer(
        &self,
        fill: &FillContext<'_>,
        layer: Layer,
        stage: FunnelStage,
        slot: usize,
        offsets: [usize; 4],
        rng: &mut SplitMix64,
        taken: &[Filled],
        ceiling: Option<Repeat>,
    ) -> Result<Option<(Repeat, Filled)>, GenerateError> {
        let weights = stage_weights(layer, fill.brief.business_model);
        let others = FunnelStage::ALL
            .iter()
            .copied()
            .filter(|other| *other != stage && weights[fallback_index(*other)] > 0.0);
        // A new question at another stage of the layer beats a repeat at this one.
        let mut best: Option<(Repeat, Filled)> = None;
        for stage in std::iter::once(stage).chain(others) {
            // Only a candidate that repeats less than the best so far can replace it:
            // the others are not worth their similarity checks.
            let below = best.as_ref().map(|(rank, _)| *rank).or(ceiling);
            if let Some((rank, found)) =
                self.fill_slot(fill, layer, stage, slot, offsets, rng, taken, below)?
            {
                if rank == Repeat::Nothing {
                    return Ok(Some((rank, found)));
                }
                if best.as_ref().is_none_or(|(kept, _)| rank < *kept) {
                    best = Some((rank, found));
                }
            }
        }
        Ok(best)
    }

    #[expect(
        clippy::too_many_arguments,
        reason = "one slot needs all of its coordinates"
    )]
    fn fill_slot(
        &self,
        fill: &FillContext<'_>,
        layer: Layer,
        stage: FunnelStage,
        slot: usize,
        offsets: [usize; 4],
        rng: &mut SplitMix64,
        taken: &[Filled],
        below: Option<Repeat>,
    ) -> Result<Option<(Repeat, Filled)>, GenerateError> {
        let names = self.templates.slot_names(
            fill.language,
            fill.brief.business_model.as_str(),
            layer,
            fill.topic.topic_type,
            stage,
        );
        if names.is_empty() {
            return Ok(None);
        }
        // The topic's own keywords, asked as a person would (see [`keywords`]), come
        // before any template: they are the client's words for the topic.
        if layer == Layer::NonBrandDiscovery
            && let Some(found) = fill.keyword_question(stage, taken)
        {
            return Ok(Some((Repeat::Nothing, found)));
        }
        // Each retry changes the market, customer, product and rival filled in. A
        // candidate is ranked by how much it repeats of what the set already asks (see
        // [`Repeat`]); the first that repeats nothing wins, failing that the first of the
        // lowest rank that is merely no duplicate.
        let topic_families: FxHashSet<&str> = taken
            .iter()
            .filter(|t| t.topic == fill.topic_index)
            .map(|t| t.family.as_str())
            .collect();
        let set_families: FxHashSet<&str> = taken.iter().map(|t| t.family.as_str()).collect();
        let mut fallback: Option<(Repeat, Filled)> = None;
        for attempt in 0..4 {
            let mut values = fill.values(slot, attempt, offsets);
            if attempt == 0
                && layer == Layer::NonBrandDiscovery
                && let Some(noun) = fill.keyword_noun(slot, taken)
            {
                values.product = noun;
            }
            if attempt == 0
                && layer != Layer::NonBrandDiscovery
                && let Some(rival) = fill.least_asked_rival(&values, taken)
            {
                values.competitor = Some(rival);
            }
            // Only comparisons name a second rival; elsewhere it would only split the
            // render cache.
            if layer == Layer::CompetitorComparison {
                values.rival2 = fill.second_rival(&values, taken);
            }
            // The context is a pure function of the topic, the slot's values and the
            // layer (which the template's name holds). The key holds the values
            // themselves, not a string formatted from them every attempt.
            let key = SlotKey {
                topic: fill.topic_index,
                stage,
                values,
            };
            let values = &key.values;
            let mut context = None;
            let mut pools: Vec<(Rc<Pool>, Vec<usize>)> = Vec::new();
            // Questions about the topic come before those about the whole offering: a
            // podcast topic asks about podcasts, a rival's topic about that rival, a
            // Making Tax Digital topic compares rivals on Making Tax Digital.
            let marks = fill.topic_marks(values);
            // The slot's pools, found once for all its templates; the key is cloned on a
            // miss only: most attempts find their values.
            let found = fill.rendered.borrow().get(&key).cloned();
            let slot_pools = match found {
                Some(slot_pools) => slot_pools,
                None => Rc::clone(fill.rendered.borrow_mut().entry(key.clone()).or_default()),
            };
            for name in &names {
                let cached = slot_pools.borrow().get(name).cloned();
                let pool = match cached {
                    Some(pool) => pool,
                    None => {
                        let context = context.get_or_insert_with(|| {
                            Scopes::new(&self.templates, fill.facts, values.context(fill, layer))
                        });
                        let pool = Rc::new(Pool {
                            rendered: self.templates.render_variants(name, stage, context)?,
                            finished: OnceCell::new(),
                        });
                        slot_pools
                            .borrow_mut()
                            .insert(name.clone(), Rc::clone(&pool));
                        pool
                    }
                };
                // Every pool is shuffled, read or not: each shuffle draws from the
                // topic's stream, which the slots after this one read.
                let mut order: Vec<usize> = (0..pool.rendered.len()).collect();
                rng.shuffle(&mut order);
                pools.push((pool, order));
            }
            for (pool, order) in &pools {
                let variants = pool.finished.get_or_init(|| {
                    (0..pool.rendered.len())
                        .map(|index| {
                            let mut variant = pool.rendered.finish(index);
                            // Institutions named by what they are take `the` in running
                            // text; the templates compare and print the names as the
                            // brief writes them.
                            if !fill.institutions.is_empty() {
                                variant.text =
                                    phrasing::articles_for_names(&variant.text, fill.institutions);
                            }
                            if locale::is_localized(fill.language) {
                                variant.text = locale::sentence_case(&variant.text);
                                variant.text =
                                    locale::regional(&variant.text, fill.brief, fill.language);
                            }
                            if fill.language == "en"
                                && let Some(restored) = fill.casing.restore(&variant.text)
                            {
                                variant.text = restored;
                            }
                            variant
                        })
                        .collect()
                });
                let mut pool_order: Vec<&Variant> = order.iter().map(|&i| &variants[i]).collect();
                if marks.is_some() || pool.rendered.marked() {
                    pool_order.sort_by_cached_key(|variant| {
                        let fits = variant.on_topic
                            || marks.as_ref().is_some_and(|marks| {
                                let text = variant.text.to_lowercase();
                                marks.iter().any(|m| text.contains(m.as_str()))
                            });
                        // A line kept for a trust topic waits even where it names this
                        // topic's rival.
                        (variant.elsewhere, !fits)
                    });
                }
                for variant in pool_order {
                    let family_repeat = if topic_families.contains(variant.family.as_str()) {
                        Repeat::FamilyInTopic
                    } else if set_families.contains(variant.family.as_str()) {
                        Repeat::FamilyOrFrameInSet
                    } else if fill.says_nothing_of_topic(&variant.text)
                        || layer == Layer::CompetitorComparison
                            && !compares(&variant.text, fill.brief, fill.language)
                    {
                        Repeat::OffTopic
                    } else {
                        Repeat::Nothing
                    };
                    // Nothing this candidate could be beats the fallback already found, or
                    // the rank the caller needs beaten.
                    if fallback
                        .as_ref()
                        .map(|(rank, _)| *rank)
                        .or(below)
                        .is_some_and(|rank| rank <= family_repeat)
                    {
                        continue;
                    }
                    let Some(Analysis {
                        tokens: hashed_tokens,
                        skeleton,
                        frame,
                    }) = fill.analyse(&variant.text, layer)
                    else {
                        continue;
                    };
                    if taken.iter().any(|t| {
                        similar_hashed(&t.tokens, &hashed_tokens, NEAR_DUPLICATE)
                            || similar_hashed(&t.skeleton, &skeleton, SAME_QUESTION)
                    }) {
                        continue;
                    }
                    let rank = if family_repeat <= Repeat::OffTopic
                        && taken
                            .iter()
                            .any(|t| similar_hashed(&t.frame, &frame, SAME_QUESTION))
                    {
                        Repeat::FamilyOrFrameInSet
                    } else {
                        family_repeat
                    };
                    if fallback
                        .as_ref()
                        .map(|(best, _)| *best)
                        .or(below)
                        .is_some_and(|best| best <= rank)
                    {
                        continue;
                    }
                    let filled = Filled {
                        topic: fill.topic_index,
                        layer,
                        intent: variant.intent,
                        text: variant.text.clone(),
                        tokens: hashed_tokens,
                        skeleton,
                        frame,
                        family: variant.family.clone(),
                        product_line: values.product_line.clone(),
                        customer: values.customer.clone(),
                        market: values.market.clone(),
                        competitor: values.competitor.clone(),
                    };
                    if rank == Repeat::Nothing {
                        return Ok(Some((rank, filled)));
                    }
                    fallback = Some((rank, filled));
                }
            }
        }
        Ok(fallback)
    }
}

/// The casing of every word of the brief's own text (see [`text::Casing`]).
fn brief_casing(brief: &Brief) -> text::Casing {
    let mut texts: Vec<&str> = vec![brief.brand_name.as_str()];
    texts.extend(brief.target_markets.iter().map(String::as_str));
    texts.extend(brief.target_customers.iter().map(String::as_str));
    for topic in &brief.priority_topics {
        texts.push(&topic.name);
        texts.extend(topic.description.as_deref());
        texts.extend(topic.seed_keywords.iter().map(String::as_str));
    }
    for line in &brief.core_product_lines {
        texts.push(&line.name);
        texts.extend(line.description.as_deref());
        texts.extend(line.priority_keywords.iter().map(String::as_str));
    }
    for competitor in &brief.competitors {
        texts.push(&competitor.name);
        texts.extend(competitor.notes.as_deref());
    }
    texts.extend(brief.weak_ai_surfaces.iter().map(String::as_str));
    texts.extend(brief.priority_channels.iter().map(String::as_str));
    texts.extend(brief.business_goals.iter().map(String::as_str));
    texts.extend(brief.optional_context.values().filter_map(|v| v.as_str()));
    text::Casing::of(texts)
}

/// Says which of the brief's labels joined by `and` the prompts ask about one kind at a
/// time (see [`phrasing::kinds`]), so the analyst can rename a label read wrongly.
fn joined_labels_note(brief: &Brief, topics: &[PlannedTopic], inferences: &mut Vec<String>) {
    let mut seen = FxHashSet::default();
    let read: Vec<String> = brief
        .core_product_lines
        .iter()
        .map(|line| line.name.as_str())
        .chain(
            topics
                .iter()
                .map(|topic| topic.subject.as_deref().unwrap_or(&topic.name)),
        )
        .filter(|label| seen.insert(label.trim().to_lowercase()))
        .filter_map(|label| {
            let kinds = phrasing::kinds(&text::plain_label(label));
            (!kinds.is_empty()).then(|| {
                let kinds: Vec<String> = kinds.iter().map(|k| format!("`{k}`")).collect();
                format!("`{}` as {}", label.trim(), kinds.join(" and "))
            })
        })
        .collect();
    if !read.is_empty() {
        inferences.push(format!(
            "labels joined by `and` are asked about one kind at a time: {}; name a label as one kind to keep it whole",
            read.join("; ")
        ));
    }
}

/// The brief's markets with regions named in brackets read as those regions
/// (`United Kingdom (Surrey, South West London)` → `Surrey`, `South West London`), after
/// joining again a market that a YAML flow list (`[United Kingdom (Surrey, Kent)]`) split
/// at its commas; `None` when no market names regions. Each reading is noted.
fn regional_markets(markets: &[String], notes: &mut Vec<String>) -> Option<Vec<String>> {
    // `Drive-market 3hrs: Philadelphia, Baltimore, DC` names its places after a colon,
    // as others do in brackets.
    // A head that is no place (`Drive-market 3hrs`) leaves the places alone.
    let mut listed = false;
    let colon: Vec<String> = markets
        .iter()
        .flat_map(|m| match m.split_once(':') {
            Some((head, list)) if !m.contains('(') && list.contains(',') => {
                let place = head.split_whitespace().all(|w| {
                    w.starts_with(|c: char| c.is_uppercase())
                        && !w.contains(|c: char| c.is_ascii_digit())
                });
                if place {
                    vec![format!("{} ({})", head.trim(), list.trim())]
                } else if markets.len() > 1 {
                    // Where visitors come from (`Drive-market 3hrs: Philadelphia, …`) is
                    // no place to look for the offer in: the other markets say where.
                    listed = true;
                    Vec::new()
                } else {
                    listed = true;
                    list.split(',')
                        .map(|p| p.trim().to_owned())
                        .filter(|p| !p.is_empty())
                        .collect()
                }
            }
            _ => vec![m.clone()],
        })
        .collect();
    let markets = &colon[..];
    if !markets.iter().any(|m| m.contains('(') || m.contains(')')) {
        return listed.then(|| colon.clone());
    }
    let mut joined: Vec<String> = Vec::new();
    let mut open = false;
    let mut split = false;
    for market in markets {
        let market = market.trim();
        match joined.last_mut() {
            Some(last) if open => {
                last.push_str(", ");
                last.push_str(market);
                split = true;
            }
            _ => joined.push(market.to_owned()),
        }
        let last = joined.last().map(String::as_str).unwrap_or_default();
        open = last.matches('(').count() > last.matches(')').count();
    }
    if split {
        notes.push(format!(
            "the markets {} were read as `{}`: a YAML flow list `[...]` splits an item at its commas, so quote such an item",
            markets
                .iter()
                .map(|m| format!("`{}`", m.trim()))
                .collect::<Vec<_>>()
                .join(", "),
            joined.join("`, `")
        ));
    }
    let mut out = Vec::new();
    for market in &joined {
        let inner = market
            .split_once('(')
            .and_then(|(_, rest)| rest.rsplit_once(')'))
            .map(|(inner, _)| inner);
        let regions: Vec<&str> = inner
            .map(|inner| {
                // `Dallas–Fort Worth: Plano, Frisco`: the metro, then its towns.
                inner
                    .split([',', ';', ':'])
                    .map(str::trim)
                    .filter(|r| !r.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        // Only names are regions: `(mainly London)`, `(nationwide)`, `(Tier 1 cities)`
        // are notes about the market.
        let named = regions.iter().all(|r| {
            r.split_whitespace().all(|w| {
                w.starts_with(|c: char| c.is_uppercase())
                    || matches!(w, "of" | "and" | "the" | "de" | "del" | "la" | "upon")
            })
        });
        let regions = if named { regions } else { Vec::new() };
        // `Canada (SK, AB, MB)`: regions named by abbreviations read as `in SK`; the
        // country says it as people do.
        let abbreviated = regions.iter().any(|r| {
            r.split_whitespace()
                .next()
                .is_some_and(|w| w.len() <= 3 && w.chars().all(|c| c.is_ascii_uppercase()))
        });
        if regions.is_empty() || abbreviated {
            out.push(text::without_aside(market).trim().to_owned());
        } else {
            notes.push(format!(
                "the market `{market}` is read as its regions: {}",
                regions
                    .iter()
                    .map(|r| format!("`{r}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            out.extend(regions.iter().map(|r| (*r).to_owned()));
        }
    }
    Some(out)
}

/// Whether the brief writes for North America (`en-US`, `en-CA`, or no language and a
/// US or Canadian market), whose English says `by mail`, not `by post`.
fn north_american(brief: &Brief) -> bool {
    let english: Vec<String> = brief
        .languages
        .iter()
        .map(|l| l.trim().to_lowercase().replace('_', "-"))
        .filter(|l| l.starts_with("en"))
        .collect();
    if english.iter().any(|l| l.len() > 2) {
        return english.iter().any(|l| l == "en-us" || l == "en-ca");
    }
    brief.target_markets.iter().any(|m| {
        let m = m.trim().to_lowercase();
        ["us", "usa", "united states", "canada"].contains(&m.as_str())
            || m.starts_with("united states")
            || m.starts_with("canada")
    })
}

/// Whether the prompts are written in English while the brief names only other
/// languages (`pt-BR`): its keywords and topic names are then in those languages, and
/// neither reads as an English question nor can be looked for in English prompts.
fn in_other_language(brief: &Brief, language: &str) -> bool {
    language == "en"
        && !brief.languages.is_empty()
        && !brief
            .languages
            .iter()
            .any(|l| l.trim().to_lowercase().starts_with("en"))
}

/// Tells the analyst how many prompts ask the brief's own keywords (see [`keywords`]) and
/// which keywords read as no certain question, so that they can be reworded.
fn keyword_note(
    brief: &Brief,
    lexicon: &keywords::Lexicon,
    topics: &[PlannedTopic],
    filled: &[Filled],
) -> Option<String> {
    if topics.iter().all(|t| t.keywords.is_empty()) {
        return None;
    }
    let mut unread: Vec<&str> = Vec::new();
    for keyword in topics.iter().flat_map(|t| t.keywords.iter()) {
        if keywords::question(keyword, brief.business_model, lexicon).is_none()
            && !unread.contains(&keyword.as_str())
        {
            unread.push(keyword);
        }
    }
    let asked: Vec<&Filled> = filled
        .iter()
        .filter(|f| f.family.starts_with("keyword:"))
        .collect();
    let mut note = match asked.first() {
        Some(first) => format!(
            "{} discovery prompt{} the brief's own keywords as questions a person would type (`{}` becomes `{}`)",
            asked.len(),
            if asked.len() == 1 { " asks" } else { "s ask" },
            &first.family["keyword:".len()..],
            first.text
        ),
        None => "no discovery prompt asks the brief's own keywords".to_owned(),
    };
    if !unread.is_empty() {
        let shown: Vec<String> = unread.iter().take(8).map(|k| format!("`{k}`")).collect();
        let more = unread.len().saturating_sub(8);
        note.push_str(&format!(
            "; {} keyword{} read as no certain question and {} left to the templates: {}{}",
            unread.len(),
            if unread.len() == 1 { "" } else { "s" },
            if unread.len() == 1 { "was" } else { "were" },
            shown.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        ));
    }
    Some(note)
}

/// A topic's random stream and the offsets that rotate its slots through the brief's
/// markets, audiences, lines and rivals.
fn slot_rng(seed: u64, topic: &str) -> (SplitMix64, [usize; 4]) {
    let mut rng = SplitMix64::new(seed, stable_hash(topic));
    let offsets = [rng.below(97), rng.below(97), rng.below(97), rng.below(97)];
    (rng, offsets)
}

/// A slot its topic could not fill with a new question.
struct Deferred {
    topic: usize,
    layer: Layer,
    stage: FunnelStage,
    /// The topic's best candidate, which repeats a question of the set.
    repeat: Option<(Repeat, Filled)>,
}

/// A topic about one rival (its alternatives, or the client against it).
fn is_rival_topic(topic: &topics::PlannedTopic) -> bool {
    topic.rival.is_some() || topic.topic_type == crate::model::TopicType::CompetitorAlternative
}

/// Puts a prompt handed to another topic beside that topic's other prompts.
fn insert_beside_topic(filled: &mut Vec<Filled>, found: Filled) {
    let at = filled
        .iter()
        .rposition(|f| f.topic == found.topic)
        .map_or(filled.len(), |last| last + 1);
    filled.insert(at, found);
}

/// How much a candidate repeats of what the set already asks, least first. The
/// readings of issue 8 rejected a second prompt asking a kept one's question in other
/// words or of another product line or rival; a slot takes such a prompt only when
/// nothing else is left, so the layer mix holds in large packs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Repeat {
    /// A new question.
    Nothing,
    /// A new question that says none of its topic's own words: a priority topic of the
    /// brief (`Luggage warranty and durability`) hands such a slot to a topic that has a
    /// question of its own left (issue 8: generic questions filed under a topic they
    /// never name); a competitor prompt about one rival alone ranks so too (see
    /// [`compares`]).
    OffTopic,
    /// Its family or frame is asked in another topic of the set.
    FamilyOrFrameInSet,
    /// Its family is asked in the same topic.
    FamilyInTopic,
}

fn fallback_index(stage: FunnelStage) -> usize {
    match stage {
        FunnelStage::Tofu => 0,
        FunnelStage::Mofu => 1,
        FunnelStage::Bofu => 2,
    }
}

/// Whether a content word (five letters or more) comes twice outside the brand's and
/// rivals' names: `the best home cooking recipes for home cooks` says it twice, which
/// no one types.
fn repeats_a_word(text: &str, brief: &Brief) -> bool {
    let mut rest = text.to_lowercase();
    for name in std::iter::once(&brief.brand_name).chain(brief.competitors.iter().map(|c| &c.name))
    {
        let name = name.trim().to_lowercase();
        if !name.is_empty() {
            rest = rest.replace(&name, " ");
        }
    }
    let mut seen = BTreeSet::new();
    rest.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 5)
        .any(|w| !seen.insert(stem(w)))
}

/// A word without its `-ing` or plural ending, so `home cooks` and `home cooking
/// recipes` count as saying `cook` twice (the reading of issue 8 rejected them).
fn stem(word: &str) -> String {
    let word = word.trim_end_matches('s');
    match word.strip_suffix("ing") {
        Some(root) if root.chars().count() >= 4 => root.to_owned(),
        _ => word.to_owned(),
    }
}

/// Words that make a prompt a comparison even without a rival's name.
fn comparison_words(language: &str) -> &'static [&'static str] {
    match language {
        "zh" => &["替代", "对比", "比较", "相比", "竞品", "哪个好", "还是"],
        "de" | "es" => locale::comparison_words(language),
        _ => &[
            "alternative",
            "alternatives",
            " vs ",
            "versus",
            "compare",
            "compared",
            "comparison",
            "competitor",
            "instead of",
            "switch from",
            "rival",
        ],
    }
}

/// Whether a competitor prompt sets its rival beside someone else: comparison wording,
/// `than`, `or`, `other …`, or a second rival. A question about one rival alone (`What
/// do vets say about Zuke's dog treats?`) obeys the layer but rarely brings the client
/// into the answer; the readings of session 28 rejected it as comparing nothing, so it
/// is kept only where a topic has no true comparison left.
fn compares(text: &str, brief: &Brief, language: &str) -> bool {
    if language != "en" {
        return true;
    }
    let normalized = crate::lint::text::normalize(text);
    // The lint's cues cover the generator's comparison words, so the lint's reading and
    // this one agree.
    crate::lint::text::has_comparison_cue(&normalized)
        || [" than ", " or ", " other ", " others ", " similar "]
            .iter()
            .any(|w| normalized.contains(w))
        || brief
            .competitors
            .iter()
            .filter(|c| mentions(text, &c.name))
            .count()
            >= 2
}

/// A topic keyword asked as a question, with the question family that names its keyword
/// (the key inferences quote it).
struct AskedKeyword {
    family: String,
    asked: keywords::Asked,
}

/// The layer rules a prompt must obey.
fn obeys_layer(text: &str, layer: Layer, brief: &Brief, language: &str, offer: &str) -> bool {
    let names_brand = mentions(text, &brief.brand_name);
    // A rival named with a word of the offering (Spaces, coworking spaces) is named
    // only where the word is capitalised, as the lint reads it.
    let mut named_rivals = brief.competitors.iter().filter(|c| {
        let name = c.name.trim().to_lowercase();
        mentions(text, &c.name)
            && (!crate::lint::text::is_common_word(&name, [offer])
                || crate::lint::text::mentions_capitalised(text, &name))
    });
    // A rival written as a name (`Crunch`, not `local high-street accountants`): only
    // such a name is read as a rival without comparison wording, by readers and lint.
    let is_proper = |c: &&crate::brief::Competitor| {
        c.name
            .trim()
            .chars()
            .next()
            .is_some_and(|first| !first.is_lowercase())
    };
    let (names_rival, names_a_proper_rival) = match named_rivals.next() {
        None => (false, false),
        Some(first) => (
            true,
            is_proper(&first) || named_rivals.any(|c| is_proper(&c)),
        ),
    };
    match layer {
        Layer::NonBrandDiscovery => !names_brand && !names_rival,
        Layer::CompetitorComparison => {
            let normalized = crate::lint::text::normalize(text);
            let cue = crate::lint::text::has_comparison_cue(&normalized)
                || comparison_words(language)
                    .iter()
                    .any(|w| normalized.contains(w));
            // A named rival makes a comparison prompt on its own (`What do readers
            // criticise most about NerdWallet?`): the strict readings of issue 8 rejected
            // the `, compared with other sites` tails that a required cue forced onto
            // such questions. Without a rival, the wording must compare.
            // (English only: the lint reads rival names from English patterns.)
            !names_brand && (cue || (names_a_proper_rival && language == "en"))
        }
        Layer::BrandDefense => names_brand,
    }
}

/// How many prompts of each layer each topic gets: the whole pack is split by the
/// target mix (largest remainder), then brand-defense and competitor prompts are dealt
/// to topics round-robin and non-brand prompts fill every topic up to its size.
pub fn layer_counts(topics: usize, per_topic: usize) -> Vec<[usize; 3]> {
    let total = topics * per_topic;
    let totals = apportion(total, &LAYER_TARGET, 0);
    let mut counts = vec![[0usize; 3]; topics];
    for layer in [2usize, 1] {
        for _ in 0..totals[layer] {
            let pick = (0..topics)
                .filter(|&t| counts[t].iter().sum::<usize>() < per_topic)
                .min_by_key(|&t| (counts[t][layer], counts[t][1] + counts[t][2], t));
            if let Some(t) = pick {
                counts[t][layer] += 1;
            }
        }
    }
    for count in &mut counts {
        count[0] = per_topic - count[1] - count[2];
    }
    counts
}

/// Fills the topics about one rival (`Alternatives to Gusto`) with prompts that name it:
/// competitor prompts up to eight in ten of such a topic, then brand prompts (`Is PayPilot
/// a good alternative to Gusto?`) for the rest, taken from the topics with the most of
/// each, which get non-brand prompts in exchange: the totals of every layer stay as they
/// are. A rival's topic is where its comparisons belong; elsewhere they read as filed
/// under the wrong topic. And its non-brand slots, which may not name the rival, were
/// the prompts the strict readings of issue 8 rejected most (`the big-name payroll
/// software`), so the topic keeps none where the other topics can give enough.
fn favour_rival_topics(
    counts: &mut [[usize; 3]],
    topics: &[topics::PlannedTopic],
    per_topic: usize,
) {
    const NON_BRAND: usize = 0;
    const COMPETITOR: usize = 1;
    const BRAND: usize = 2;
    for (index, topic) in topics.iter().enumerate() {
        if topic.rival.is_none() {
            continue;
        }
        for layer in [COMPETITOR, BRAND] {
            // Competitor prompts first, then brand prompts take what is left.
            let goal = |counts: &[usize; 3]| match layer {
                COMPETITOR => per_topic * 8 / 10,
                _ => per_topic.saturating_sub(counts[COMPETITOR]),
            };
            while counts[index][layer] < goal(&counts[index]) && counts[index][NON_BRAND] > 0 {
                // The topics with the most of the layer give first, so the others keep
                // theirs as long as possible.
                let donor = (0..counts.len())
                    .filter(|&other| other != index && topics[other].rival.is_none())
                    .filter(|&other| counts[other][layer] > 0)
                    .max_by_key(|&other| (counts[other][layer], std::cmp::Reverse(other)));
                let Some(donor) = donor else { break };
                counts[donor][layer] -= 1;
                counts[donor][NON_BRAND] += 1;
                counts[index][layer] += 1;
                counts[index][NON_BRAND] -= 1;
            }
        }
    }
}

/// Moves the competitor prompts of a product line's topic that no rival offers (`Fleet
/// charging cards` beside two charging networks) to topics where a rival fits, a rival's
/// own topic first, which give non-brand prompts in exchange: the totals of every layer
/// stay as they are. Such a topic could only compare rivals on something they do not sell.
fn move_unfit_comparisons(counts: &mut [[usize; 3]], brief: &Brief, plan: &topics::TopicPlan) {
    const NON_BRAND: usize = 0;
    const COMPETITOR: usize = 1;
    if brief.competitors.is_empty() {
        return;
    }
    let fits = |topic: &topics::PlannedTopic| {
        topic.source == crate::model::TopicSource::Inferred
            || topic.related_product_lines.is_empty()
            || topic.related_product_lines.iter().any(|line| {
                brief
                    .competitors
                    .iter()
                    .any(|c| plan.lexicon.offers(brief, &c.name, line))
            })
    };
    let fitting: Vec<bool> = plan.topics.iter().map(fits).collect();
    for index in 0..counts.len() {
        if fitting[index] {
            continue;
        }
        while counts[index][COMPETITOR] > 0 {
            let receiver = (0..counts.len())
                .filter(|&other| fitting[other] && counts[other][NON_BRAND] > 1)
                .min_by_key(|&other| {
                    (
                        plan.topics[other].rival.is_none(),
                        counts[other][COMPETITOR],
                        other,
                    )
                });
            let Some(receiver) = receiver else { break };
            counts[index][COMPETITOR] -= 1;
            counts[index][NON_BRAND] += 1;
            counts[receiver][COMPETITOR] += 1;
            counts[receiver][NON_BRAND] -= 1;
        }
    }
}

/// Skeletons at least this similar are the same question asked for another audience or
/// market ("X vs Y: which is better for parents?" beside "... for students?"), which an
/// analyst reads as a duplicate even though the full texts differ by a few words.
const SAME_QUESTION: f64 = 0.85;

struct FillContext<'a> {
    brief: &'a Brief,
    topic: &'a PlannedTopic,
    topic_index: usize,
    plan: &'a topics::TopicPlan,
    keep: &'a [&'a str],
    competitors: &'a [&'a str],
    /// The competitors running text names with `the` (see
    /// [`phrasing::articles_for_names`]).
    institutions: &'a [&'a str],
    season: Option<&'a str>,
    language: &'a str,
    /// The words of every audience and market (see [`skeleton_drop`]), and those plus
    /// the product lines' (see [`frame_drop`]), as [`text::hashed`] sets.
    skeleton_drop_hashed: &'a [u64],
    frame_drop_hashed: &'a [u64],
    /// Rendered variants by topic, slot values, template and stage: the same slot is
    /// rendered again when a repeat is handed to another topic, and rendering is most of
    /// the generator's time.
    rendered: &'a RefCell<FxHashMap<SlotKey, SlotPools>>,
    /// The folder facts worked out so far (see [`Facts`]).
    facts: &'a Facts,
    /// Word-list readings of the set's nouns (see [`Readings`]).
    readings: &'a Readings,
    /// The capitals the brief writes (see [`text::Casing`]).
    casing: &'a text::Casing,
    /// The audiences the topic's slots rotate through (see [`Self::demand`]).
    demand: OnceCell<Vec<usize>>,
    /// The brief is written in languages the prompts are not (see [`in_other_language`]).
    foreign: bool,
    /// The words of a priority topic's name that are its own (see
    /// [`Self::says_nothing_of_topic`]).
    topic_words: &'a OnceCell<Vec<String>>,
    /// What the keyword reading needs of the brief (see [`keywords::Lexicon`]).
    lexicon: &'a keywords::Lexicon,
    /// The topic's keywords asked as questions (see [`Self::keyword_question`]).
    asked: &'a OnceCell<Vec<AskedKeyword>>,
    /// The topic's part of every slot context, one per kind of its name (see
    /// [`Self::topic_vars`]; [`phrasing::kinds`] gives at most two).
    topic_vars: [OnceCell<TopicVars>; 2],
    /// The kinds the topic's name joins, if any (see [`Self::topic_kinds`]).
    topic_kinds: &'a OnceCell<Vec<String>>,
    /// The parts of slot contexts its products and lines give, by those (see
    /// [`Self::product_vars`]).
    product_vars: RefCell<FxHashMap<ProductKey, Rc<ProductVars>>>,
    /// The product nouns a label gives, one per kind, for the whole set (see
    /// [`Self::label_nouns`]).
    nouns: &'a RefCell<FxHashMap<String, Rc<[phrasing::Noun]>>>,
}

/// What a slot's rendered pools are cached by: its topic, stage and values; the pools
/// of that slot are then found by template name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct SlotKey {
    topic: usize,
    stage: FunnelStage,
    values: SlotValues,
}

/// A slot's pools by template name.
type SlotPools = Rc<RefCell<FxHashMap<String, Rc<Pool>>>>;

/// One template's variants for a slot, finished when a slot first reads them.
struct Pool {
    rendered: templates::Rendered,
    finished: OnceCell<Vec<Variant>>,
}

/// A word-list test the template context runs on a noun (see [`Readings`]).
#[derive(Clone, Copy)]
enum Reading {
    ContentSource,
    OpinionContent,
    HowtoContent,
    Consumable,
    FoodOrDrink,
    LocalPractice,
    RegulatedProfession,
    Electronic,
    Machine,
    Wearable,
    ForPets,
}

impl Reading {
    const COUNT: usize = 11;

    fn test(self, label: &str) -> bool {
        match self {
            Reading::ContentSource => phrasing::is_content_source(label),
            Reading::OpinionContent => phrasing::is_opinion_content(label),
            Reading::HowtoContent => phrasing::is_howto_content(label),
            Reading::Consumable => phrasing::is_consumable(label),
            Reading::FoodOrDrink => phrasing::is_food_or_drink(label),
            Reading::LocalPractice => phrasing::is_local_practice(label),
            Reading::RegulatedProfession => phrasing::is_regulated_profession(label),
            Reading::Electronic => phrasing::is_electronic(label),
            Reading::Machine => phrasing::is_machine(label),
            Reading::Wearable => phrasing::is_wearable(label),
            Reading::ForPets => phrasing::is_for_pets(label),
        }
    }
}

/// The [`Reading`]s of a set's nouns, each worked out once: every slot's context asks
/// them of the same few products, offer and category, and scanning the word lists again
/// for each was a tenth of the generator's time.
#[derive(Default)]
struct Readings(RefCell<FxHashMap<String, [Option<bool>; Reading::COUNT]>>);

impl Readings {
    fn is(&self, reading: Reading, label: &str) -> bool {
        let index = reading as usize;
        if let Some(known) = self.0.borrow().get(label).and_then(|found| found[index]) {
            return known;
        }
        let value = reading.test(label);
        self.0.borrow_mut().entry(label.to_owned()).or_default()[index] = Some(value);
        value
    }
}

/// A candidate's text as the repeat checks read it (see [`Filled`]).
struct Analysis {
    tokens: Vec<u64>,
    skeleton: Vec<u64>,
    frame: Vec<u64>,
}

/// The skeleton's words plus those of the product lines and the offering, and the
/// verbs a marketplace's users book or hire with: two prompts with the same frame are
/// the same question filled with another line ("How do platform fees work when hiring
/// tradespeople online?" beside "... when booking home services online?"), which the
/// sixth reading of issue 8 rejected. Frames are preferred apart, not required apart:
/// a slot takes a same-frame prompt only when nothing else is left, so the layer mix
/// holds in large packs.
fn frame_drop(
    brief: &Brief,
    plan: &topics::TopicPlan,
    skeleton_drop: &BTreeSet<String>,
) -> BTreeSet<String> {
    let mut drop = skeleton_drop.clone();
    let model = brief.business_model;
    for line in &brief.core_product_lines {
        let noun = phrasing::Noun::parse(&line.name, &[]);
        drop.extend(text::tokens(&line.name));
        drop.extend(text::tokens(&noun.bare));
        drop.extend(text::tokens(&noun.modifier));
        // Who provides the line (`payroll providers` beside `online accountants`): the
        // same question asked of a second line's providers is still the same question.
        let product = topics::product_noun(&line.name, model, &[]);
        let providers = topics::line_provider_noun(&product, &plan.offer, model, &[]);
        drop.extend(text::tokens(&providers.bare));
    }
    for topic in &plan.topics {
        for noun in &topic.keyword_nouns {
            drop.extend(text::tokens(&noun.bare));
        }
    }
    drop.extend(text::tokens(&plan.offer.bare));
    drop.extend(text::tokens(&plan.offer.modifier));
    drop.extend(text::tokens(
        &topics::provider_noun(&plan.offer, model, &[]).bare,
    ));
    for verb in ["book", "booking", "hire", "hiring", "post", "posting"] {
        drop.insert(verb.to_owned());
    }
    drop
}

/// The words of the brief's audiences and markets: what a skeleton leaves out.
fn skeleton_drop(brief: &Brief, plan: &topics::TopicPlan) -> BTreeSet<String> {
    let mut drop: BTreeSet<String> = BTreeSet::new();
    for audience in &plan.lexicon.audiences {
        drop.extend(text::tokens(audience));
    }
    for market in &brief.target_markets {
        drop.extend(text::tokens(&phrasing::place(&place_name(market)).locative));
    }
    drop
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct SlotValues {
    market: String,
    customer: String,
    audience: String,
    product_line: Option<String>,
    product: phrasing::Noun,
    keyword: String,
    competitor: Option<String>,
    /// A second rival for head-to-head questions, chosen after `competitor` (see
    /// [`FillContext::second_rival`]).
    rival2: Option<String>,
    channel: Option<(String, ChannelKind)>,
    /// Which of the topic's kinds the slot speaks of (see [`phrasing::kinds`]).
    topic_kind: usize,
}

fn pick<T: Clone>(items: &[T], index: usize) -> Option<T> {
    if items.is_empty() {
        None
    } else {
        Some(items[index % items.len()].clone())
    }
}

impl FillContext<'_> {
    /// `None` when the text breaks a layer rule, says a content word twice or is too
    /// short to be a question; else its token sets.
    fn analyse(&self, text: &str, layer: Layer) -> Option<Analysis> {
        if !obeys_layer(
            text,
            layer,
            self.brief,
            self.language,
            &self.plan.offer.bare,
        ) {
            return None;
        }
        if self.language == "en" && repeats_a_word(text, self.brief) {
            return None;
        }
        let candidate_tokens = tokens(text);
        if candidate_tokens.len() < 4 {
            return None;
        }
        let hashed = text::hashed(&candidate_tokens);
        Some(Analysis {
            skeleton: text::hashed_without(&hashed, self.skeleton_drop_hashed),
            frame: text::hashed_without(&hashed, self.frame_drop_hashed),
            tokens: hashed,
        })
    }

    /// A narrower kind of the topic's product from its priority keywords for this
    /// discovery slot, if the topic has one it has not asked about yet: every third
    /// slot from the second, so the topic still speaks mostly of its own line.
    fn keyword_noun(&self, slot: usize, taken: &[Filled]) -> Option<phrasing::Noun> {
        if self.language != "en" || slot % 3 != 1 {
            return None;
        }
        self.topic
            .keyword_nouns
            .iter()
            .find(|noun| {
                let bare = noun.bare.to_lowercase();
                !taken
                    .iter()
                    .any(|t| t.topic == self.topic_index && t.text.to_lowercase().contains(&bare))
            })
            .cloned()
    }

    /// Whether a prompt of a priority topic the brief names says none of the topic's own
    /// words: those of its name that are not the offering's, the category's or a market's
    /// (`warranty`, `durability` of `Luggage warranty and durability`), matched
    /// at word starts by their first six letters (`durab` finds `durable`). Topics the
    /// generator derives or infers, and names of no word of their own, are never off
    /// their topic.
    fn says_nothing_of_topic(&self, text: &str) -> bool {
        let words = self.topic_words.get_or_init(|| {
            // A topic about an audience, rival, channel or market has its own marks (see
            // [`Self::topic_marks`]); a supply-side topic speaks of those who list.
            let topic = self.topic;
            let marked = topic.audience.is_some()
                || topic.audience_phrase.is_some()
                || topic.rival.is_some()
                || topic.channel.is_some()
                || topic.market.is_some();
            if topic.source != crate::model::TopicSource::Provided
                || topic.topic_type == crate::model::TopicType::ProductCategory
                || marked
                || phrasing::is_supply_line(&topic.name)
                || self.language != "en"
                || self.foreign
            {
                return Vec::new();
            }
            // Words of three letters and more that say nothing of a topic (shorter ones
            // are dropped below anyway).
            const GENERIC: &[&str] = &[
                "and", "for", "the", "with", "best", "top", "versus", "from", "your", "how",
                "what", "which", "near", "guide", "tips", "ideas", "options", "online", "choosing",
                "buying", "finding", "good", "new", "local",
            ];
            let mut whole: Vec<String> = vec![
                self.plan.offer.bare.to_lowercase(),
                self.plan.category.to_lowercase(),
            ];
            whole.extend(self.brief.target_markets.iter().map(|m| m.to_lowercase()));
            let offering: Vec<String> = whole
                .iter()
                .flat_map(|w| w.split(|c: char| !c.is_alphanumeric() && c != '-'))
                .filter(|w| !w.is_empty())
                .map(phrasing::singular)
                .collect();
            self.topic
                .name
                .split(|c: char| !c.is_alphanumeric() && c != '-')
                .map(str::to_lowercase)
                .filter(|w| w.len() > 2 && !GENERIC.contains(&w.as_str()))
                .filter(|w| !offering.contains(&phrasing::singular(w)))
                // `safely` is said as `safe` or `safety` as often.
                .map(|w| match w.strip_suffix("ly") {
                    Some(stem) if stem.len() > 3 => stem.to_owned(),
                    _ => w,
                })
                .map(|w| w.chars().take(6).collect())
                .collect()
        });
        !words.is_empty() && !words.iter().any(|w| offer::mentions(text, w))
    }

    /// The first of the topic's keyword questions (see [`keywords`]) of this stage that
    /// the set does not ask yet, as a discovery prompt.
    fn keyword_question(&self, stage: FunnelStage, taken: &[Filled]) -> Option<Filled> {
        let asked = self.asked.get_or_init(|| {
            if self.language != "en" || self.foreign {
                return Vec::new();
            }
            self.topic
                .keywords
                .iter()
                .filter_map(|k| {
                    let mut asked = keywords::question(k, self.brief.business_model, self.lexicon)?;
                    if let Some(restored) = self.casing.restore(&asked.text) {
                        asked.text = restored;
                    }
                    Some(AskedKeyword {
                        family: format!("keyword:{k}"),
                        asked,
                    })
                })
                .collect()
        });
        asked.iter().find_map(
            |AskedKeyword {
                 family,
                 asked: question,
             }| {
                if question.intent.stage() != stage || taken.iter().any(|t| &t.family == family) {
                    return None;
                }
                let analysis = self.analyse(&question.text, Layer::NonBrandDiscovery)?;
                if taken.iter().any(|t| {
                    similar_hashed(&t.tokens, &analysis.tokens, NEAR_DUPLICATE)
                        || similar_hashed(&t.skeleton, &analysis.skeleton, SAME_QUESTION)
                }) {
                    return None;
                }
                let product_line = (self.topic.source
                    == crate::model::TopicSource::DerivedFromProductLine)
                    .then(|| self.topic.related_product_lines.first().cloned())
                    .flatten();
                Some(Filled {
                    topic: self.topic_index,
                    layer: Layer::NonBrandDiscovery,
                    intent: question.intent,
                    text: question.text.clone(),
                    tokens: analysis.tokens,
                    skeleton: analysis.skeleton,
                    frame: analysis.frame,
                    family: family.clone(),
                    product_line,
                    customer: String::new(),
                    market: String::new(),
                    competitor: None,
                })
            },
        )
    }

    /// Whether the competitor `name` offers `product_line` (any rival fits a slot
    /// about no line).
    fn offers(&self, name: &str, product_line: Option<&str>) -> bool {
        product_line.is_none_or(|line| self.plan.lexicon.offers(self.brief, name, line))
    }

    /// Outside a rival's own topic, the rival offering the slot's product line that the
    /// set has named least so far (the brief's order breaks ties): the strict readings of
    /// issue 8 found rivals of the brief that no prompt named while another had ten.
    fn least_asked_rival(&self, values: &SlotValues, taken: &[Filled]) -> Option<String> {
        if self.topic.rival.is_some() || self.language != "en" {
            return None;
        }
        let uses = |name: &str| {
            taken
                .iter()
                .filter(|t| t.layer != Layer::NonBrandDiscovery && t.text.contains(name))
                .count()
        };
        self.competitors
            .iter()
            .filter(|name| self.offers(name, values.product_line.as_deref()))
            .min_by_key(|name| uses(name))
            .map(|name| (*name).to_owned())
    }

    /// A second named rival for a head-to-head question with the slot's rival: of the
    /// same kind (a treat maker against a subscription box compares nothing), offering
    /// the slot's line, not the topic's own rival, and the one paired least often with it
    /// so far (the strict readings of issue 8 rejected five prompts pairing the same two
    /// rivals); ties go to the next rival in the brief's order.
    fn second_rival(&self, values: &SlotValues, taken: &[Filled]) -> Option<String> {
        let c = values.competitor.as_deref()?;
        let at = self
            .competitors
            .iter()
            .position(|n| n.eq_ignore_ascii_case(c))?;
        let count = self.competitors.len();
        let paired = |n: &str| {
            taken
                .iter()
                .filter(|t| t.text.contains(c) && t.text.contains(n))
                .count()
        };
        (1..count)
            .map(|step| self.competitors[(at + step) % count])
            .filter(|n| {
                !n.eq_ignore_ascii_case(c)
                    // `Is Krones or Syntegon the better alternative to Syntegon?`
                    && self
                        .topic
                        .rival
                        .as_deref()
                        .is_none_or(|r| !n.eq_ignore_ascii_case(r))
                    && n.chars().next().is_some_and(char::is_uppercase)
                    && self.rival_kind(n) == self.rival_kind(c)
                    && self.offers(n, values.product_line.as_deref())
            })
            .min_by_key(|n| paired(n))
            .map(str::to_owned)
    }

    /// A label of the brief as what it offers (see [`phrasing::without_brand`]): a line the
    /// brand names after itself without a kind word is the brand's offer.
    fn own_label<'l>(&'l self, label: &'l str) -> Cow<'l, str> {
        let own = phrasing::without_brand(label, &self.brief.brand_name);
        if own.is_empty() {
            Cow::Borrowed(self.plan.offer.bare.as_str())
        } else {
            own
        }
    }

    /// The product nouns of a label, worked out once per label and set: one per kind of a label
    /// joined by `and` (see [`phrasing::kinds`]), else the label's own; an aside in
    /// brackets (`Defibrillators (AEDs)`) is never typed into a question.
    fn label_nouns(&self, label: &str) -> Rc<[phrasing::Noun]> {
        if let Some(found) = self.nouns.borrow().get(label) {
            return Rc::clone(found);
        }
        let model = self.brief.business_model;
        let own = self.own_label(label);
        let plain = text::plain_label(&own);
        // `Variety packs` of a hot sauce maker are `hot sauce variety packs`: a pack
        // format names no goods of its own.
        let plain = match model {
            crate::brief::BusinessModel::Ecommerce | crate::brief::BusinessModel::Manufacturer => {
                phrasing::format_of_goods(&plain, &self.plan.offer)
                    .map_or(plain, std::borrow::Cow::Owned)
            }
            _ => plain,
        };
        let kinds = phrasing::kinds(&plain);
        let nouns: Rc<[phrasing::Noun]> = if kinds.is_empty() {
            vec![topics::product_noun(&plain, model, self.keep)].into()
        } else {
            kinds
                .iter()
                .map(|kind| topics::product_noun(kind, model, self.keep))
                .collect()
        };
        self.nouns
            .borrow_mut()
            .insert(label.to_owned(), Rc::clone(&nouns));
        nouns
    }

    /// What the brief's competitor `name` is; a name the brief does not list (a generic
    /// rival) is taken as a brand.
    fn rival_kind(&self, name: &str) -> crate::brief::CompetitorKind {
        self.brief
            .competitors
            .iter()
            .position(|c| c.name.trim().eq_ignore_ascii_case(name.trim()))
            .and_then(|i| self.plan.lexicon.rival_kinds.get(i).copied())
            .unwrap_or(crate::brief::CompetitorKind::Brand)
    }

    /// What a prompt of this topic names when it is about the topic, lowercased: the
    /// topic's own subject, product line, rival, audience, market or channel;
    /// `None` for a topic about the whole offering, where every question fits.
    fn topic_marks(&self, values: &SlotValues) -> Option<Vec<String>> {
        use crate::model::TopicType;
        let topic = self.topic;
        let mut marks = Vec::new();
        let product_topic = topic.topic_type == TopicType::ProductCategory;
        if product_topic && values.product.bare != self.plan.offer.bare {
            marks.push(values.product.modifier.to_lowercase());
        }
        if topic.topic_type == TopicType::UseCase {
            marks.push(
                topic
                    .subject
                    .as_deref()
                    .unwrap_or(&topic.name)
                    .to_lowercase(),
            );
        }
        if let Some(rival) = &topic.rival {
            marks.push(rival.to_lowercase());
        }
        if topic.audience.is_some() || topic.audience_phrase.is_some() {
            marks.push(values.audience.to_lowercase());
        }
        if topic.market.is_some() && !values.market.is_empty() {
            marks.push(phrasing::place(&values.market).name.to_lowercase());
        }
        if topic.channel.is_some()
            && let Some((name, _)) = &values.channel
        {
            marks.push(name.to_lowercase());
        }
        marks.retain(|mark| !mark.trim().is_empty());
        // A trust or channel topic without a name of its own to match still prefers the
        // lines its templates mark with `+`.
        (!marks.is_empty() || !product_topic).then_some(marks)
    }

    /// The brief's audiences a slot of this topic rotates through (see
    /// [`Self::values`]); the same for every slot of the topic, so worked out once (the
    /// stem matches were a thirtieth of the generator's work).
    fn demand(&self) -> Vec<usize> {
        let brief = self.brief;
        let topic = self.topic;
        let lexicon = &self.plan.lexicon;
        // A marketplace topic about booking speaks for those who book; the providers
        // who list on it get their own (audience) topics.
        let demand: Vec<usize> = (0..brief.target_customers.len())
            .filter(|&i| {
                brief.business_model != crate::brief::BusinessModel::Marketplace
                    || !lexicon
                        .audiences
                        .get(i)
                        .is_some_and(|a| phrasing::is_supply_side(a, &self.plan.offer))
            })
            .collect();
        // A topic about laptops speaks to the brief's laptop shoppers, not to its PC
        // builders: audiences whose description shares a word with the topic or its
        // product lines come first, when there are such audiences.
        let mut about = vec![topic.name.as_str()];
        if let [line] = topic.related_product_lines.as_slice() {
            about.push(line);
        }
        let matching: Vec<usize> = demand
            .iter()
            .copied()
            .filter(|&i| {
                about
                    .iter()
                    .any(|text| topics::shares_stem(text, &brief.target_customers[i]))
            })
            .collect();
        if matching.is_empty() {
            demand
        } else {
            matching
        }
    }

    fn values(&self, slot: usize, attempt: usize, offsets: [usize; 4]) -> SlotValues {
        let brief = self.brief;
        let topic = self.topic;
        let lexicon = &self.plan.lexicon;
        // A topic about one market, audience, channel or rival keeps to it; the others
        // rotate through the brief's.
        let market_index = topic
            .market
            .unwrap_or(slot + attempt + offsets[0])
            .checked_rem(brief.target_markets.len());
        let market = market_index
            .map(|i| brief.target_markets[i].clone())
            .unwrap_or_default();
        let rotation = slot + 2 * attempt + offsets[1];
        let demand = self.demand.get_or_init(|| self.demand());
        let customer_index = match topic.audience {
            Some(index) => index.checked_rem(brief.target_customers.len()),
            None if !demand.is_empty() => Some(demand[rotation % demand.len()]),
            None => rotation.checked_rem(brief.target_customers.len()),
        };
        let customer = customer_index
            .map(|i| phrase(&brief.target_customers[i], self.keep))
            .unwrap_or_default();
        let audience = match &topic.audience_phrase {
            // The topic's own audience (`Meal prep for beginners`), in its own words.
            Some(own) if self.language == "en" => phrase(own, self.keep),
            _ => customer_index
                .and_then(|i| lexicon.audiences.get(i).cloned())
                .unwrap_or_default(),
        };
        // An inferred topic is named after the offering, so its prompts speak of the
        // offering; a product line's or the brief's own topic rotates through its lines.
        let product_line = (topic.source != crate::model::TopicSource::Inferred)
            .then(|| pick(&topic.related_product_lines, slot + attempt + offsets[2]))
            .flatten();
        let english = self.language == "en";
        // A label joined by `and` (`Vehicle and outdoor first aid kits`) is asked about one
        // kind at a time, the kinds taking turns over the topic's slots.
        let turn = (slot + attempt + offsets[2]) / topic.related_product_lines.len().max(1);
        let noun = |label: &str| {
            let nouns = self.label_nouns(label);
            nouns[turn % nouns.len()].clone()
        };
        let product = match (&product_line, topic.topic_type) {
            (Some(line), _) => noun(line),
            (None, crate::model::TopicType::ProductCategory) => noun(&topic.name),
            // The offering of two kinds (`campervans and caravans`) is one kind at a time
            // too, but for a publication, whose banks name its genre whole (`video game
            // news and review sites`).
            (None, _)
                if english
                    && brief.business_model != crate::brief::BusinessModel::ContentMedia
                    && self.label_nouns(&self.plan.offer.bare).len() > 1 =>
            {
                noun(&self.plan.offer.bare)
            }
            (None, _) => self.plan.offer.clone(),
        };
        let mut keywords: Vec<String> = topic.keywords.clone();
        if let Some(line) = &product_line
            && let Some(found) = brief.core_product_lines.iter().find(|l| &l.name == line)
        {
            keywords.extend(found.priority_keywords.iter().cloned());
        }
        let keyword = pick(&keywords, slot + attempt)
            .map(|k| phrase(&k, self.keep))
            .unwrap_or_else(|| product.bare.clone());
        // Rivals that offer the slot's product line: `Tesla Supercharger vs Ionity for
        // fleet charging cards` asks about something neither sells.
        let fitting: Vec<&str> = self
            .competitors
            .iter()
            .copied()
            .filter(|name| self.offers(name, product_line.as_deref()))
            .collect();
        let rivals = if fitting.is_empty() {
            self.competitors
        } else {
            &fitting[..]
        };
        let competitor = match &topic.rival {
            // The topic's rival first; if its phrasings are used up, any rival.
            Some(rival) if attempt < 2 => Some(rival.clone()),
            _ => pick(rivals, slot + attempt + offsets[3]).map(str::to_owned),
        };
        let channel_index = topic
            .channel
            .unwrap_or(slot + attempt)
            .checked_rem(brief.priority_channels.len());
        let channel = channel_index.map(|i| {
            (
                brief.priority_channels[i].trim().to_owned(),
                lexicon
                    .channel_kinds
                    .get(i)
                    .copied()
                    .unwrap_or(ChannelKind::Other),
            )
        });
        SlotValues {
            market: if english {
                place_name(&market)
            } else {
                market.trim().to_owned()
            },
            customer: if english { audience.clone() } else { customer },
            audience: if english {
                audience
            } else {
                brief
                    .target_customers
                    .get(customer_index.unwrap_or(0))
                    .map(|c| c.trim().to_owned())
                    .unwrap_or_default()
            },
            product_line,
            product,
            keyword,
            topic_kind: turn % self.topic_kinds().len().max(1),
            competitor,
            rival2: None,
            channel,
        }
    }
}

/// How a sentence says where a channel is: on a marketplace, through distributors, at
/// trade shows, on the brand's own site.
fn channel_phrase(name: &str, kind: ChannelKind) -> String {
    match kind {
        ChannelKind::LocalListing => format!("on {}", phrasing::local_listing_name(name)),
        ChannelKind::Marketplace | ChannelKind::ReviewSite | ChannelKind::Social => {
            format!("on {name}")
        }
        ChannelKind::AppStore => {
            if name.to_lowercase().starts_with("the ") {
                format!("in {name}")
            } else {
                format!("in the {name}")
            }
        }
        ChannelKind::Distributor => "through a distributor".to_owned(),
        ChannelKind::TradeShow => "at trade shows".to_owned(),
        ChannelKind::OwnWebsite => "on the brand's own website".to_owned(),
        ChannelKind::OwnApp => "in the brand's own app".to_owned(),
        ChannelKind::Referral => "through a referral".to_owned(),
        ChannelKind::Retailer => "in shops".to_owned(),
        ChannelKind::Other => format!("through {name}"),
    }
}

/// A slot's template context: its variables' values by name, looked up through an index
/// built once (see [`slot_context!`]) instead of compared name by name.
#[derive(Debug)]
struct SlotContext {
    keys: &'static [&'static str],
    index: &'static FxHashMap<&'static str, usize>,
    values: Vec<Value>,
}

impl minijinja::value::Object for SlotContext {
    fn get_value(self: &std::sync::Arc<Self>, key: &Value) -> Option<Value> {
        self.get_value_by_str(key.as_str()?)
    }

    fn get_value_by_str(self: &std::sync::Arc<Self>, key: &str) -> Option<Value> {
        self.index.get(key).map(|&at| self.values[at].clone())
    }

    fn enumerate(self: &std::sync::Arc<Self>) -> minijinja::value::Enumerator {
        minijinja::value::Enumerator::Str(self.keys)
    }
}

/// `minijinja::context!` for the slot context: the same names and values (a name given
/// twice takes its last value), held in a [`SlotContext`].
macro_rules! slot_context {
    ($($key:ident => $value:expr),+ $(,)?) => {{
        const KEYS: &[&str] = &[$(stringify!($key)),+];
        static INDEX: std::sync::OnceLock<FxHashMap<&'static str, usize>> =
            std::sync::OnceLock::new();
        let index = INDEX.get_or_init(|| KEYS.iter().enumerate().map(|(at, key)| (*key, at)).collect());
        Value::from_object(SlotContext {
            keys: KEYS,
            index,
            values: vec![$(Value::from($value)),+],
        })
    }};
}

/// What a slot's context takes from its topic (and the set) alone, worked out once per
/// topic (see [`SlotValues::context`]).
struct TopicVars {
    /// The topic as running text names it.
    text: String,
    brand: Value,
    model: Value,
    buyers: Value,
    kind: Value,
    category: Value,
    topic: Value,
    offer: Value,
    offer_are: Value,
    offer_mod: Value,
    topic_gerund: Value,
    for_topic: Value,
    fit_trust: Value,
    fit_channel: Value,
    topic_plural: Value,
    topic_is_offer: Value,
    topic_is_choice: Value,
    c_opinion: Value,
    local: Value,
    topic_is_line: Value,
    has_app: Value,
    client_shop: Value,
    season: Value,
    /// `mail` for North American English, else `post` (`arrive by post`).
    post: Value,
}

/// A slot's product and product line, which [`ProductVars`] are found by.
type ProductKey = (phrasing::Noun, Option<String>);

/// What a slot's context takes from its product and product line (and its topic), worked
/// out once per product and line of a topic.
struct ProductVars {
    offer_kind: Value,
    p: Value,
    p_are: Value,
    p_do: Value,
    p_have: Value,
    p_them: Value,
    p_mod: Value,
    p_one: Value,
    p_mass: Value,
    p_many: Value,
    p_activity: Value,
    p_plain: Value,
    p_people: Value,
    providers: Value,
    rivals: Value,
    rival: Value,
    /// `other_rivals` for a plural rival and for any other.
    other_rivals: [Value; 2],
    line_topic: Value,
    c_source: Value,
    c_howto: Value,
    consumable: Value,
    edible: Value,
    regulated: Value,
    electronic: Value,
    machine: Value,
    wearable: Value,
    pet: Value,
    provider: Value,
    provider_one: Value,
    verb: Value,
    verb_ing: Value,
    supply_line: Value,
}

impl FillContext<'_> {
    /// The kinds a topic named by two (`Vehicle and outdoor first aid kits`) speaks of, one
    /// at a time (see [`phrasing::kinds`]); none for a topic of one kind.
    fn topic_kinds(&self) -> &[String] {
        self.topic_kinds.get_or_init(|| {
            if self.language != "en" {
                return Vec::new();
            }
            let topic = self.topic;
            phrasing::kinds(&text::plain_label(
                topic.subject.as_deref().unwrap_or(&topic.name),
            ))
        })
    }

    /// The topic's part of every slot context (see [`TopicVars`]).
    fn topic_vars(&self, kind: usize) -> &TopicVars {
        let kinds = self.topic_kinds();
        let kind = kind % kinds.len().max(1);
        self.topic_vars[kind].get_or_init(|| {
            let fill = self;
            let model = fill.brief.business_model;
            let offer = &fill.plan.offer;
            let named = match kinds.get(kind) {
                Some(one) => Cow::Borrowed(one.as_str()),
                None => Cow::Owned(
                    text::plain_label(
                        &fill.own_label(fill.topic.subject.as_deref().unwrap_or(&fill.topic.name)),
                    )
                    .into_owned(),
                ),
            };
            let topic_text = phrase(&named, fill.keep);
            // `Tree surgeon near me`, `Cost of tree work`: a search, asked as the choice
            // or the price it stands for.
            let topic_text = phrasing::search_topic(
                &topic_text,
                fill.keep,
                model == crate::brief::BusinessModel::Services,
            )
            .unwrap_or(topic_text);
            let topic_text = phrasing::without_tacked_concern(&topic_text);
            // `Find an architect` names the activity of finding one.
            let topic_text = if fill.language == "en" {
                phrasing::gerund_topic(&topic_text).unwrap_or(topic_text)
            } else {
                topic_text
            };
            // `Gift pens and engraving`, `Flatting costs and rules`: a topic of two
            // subjects is asked about its first (`What does gift pens and engraving
            // usually involve?` is no question). Publications name two kinds of content
            // in their own way, and a services price topic keeps its second part.
            let topic_text = if kinds.is_empty()
                && fill.language == "en"
                && model != crate::brief::BusinessModel::ContentMedia
                && model != crate::brief::BusinessModel::Services
            {
                phrasing::first_subject(&topic_text).unwrap_or(topic_text)
            } else {
                topic_text
            };
            let topic_text = phrasing::without_year(&topic_text).unwrap_or(topic_text);
            // `Best baby products` names a search, not a thing: running text says `baby
            // products` (`advice on best baby products` is not English).
            let topic_text = ["the best ", "best ", "top ", "top-rated ", "most popular "]
                .iter()
                .find_map(|lead| {
                    topic_text
                        .get(..lead.len())
                        .filter(|head| head.eq_ignore_ascii_case(lead))
                        .map(|_| keywords::listed_plural(&topic_text[lead.len()..]))
                })
                .filter(|rest| !rest.is_empty())
                .unwrap_or(topic_text);
            // A content topic named by its format (`Baby sleep advice`, `HDB resale buying
            // guide`) is about its subject: `What should I know about baby sleep?`.
            let topic_text = if model == crate::brief::BusinessModel::ContentMedia {
                // `Match previews and fantasy tips` names two things, not one subject.
                [" advice", " guides", " guide", " tips"]
                    .iter()
                    .filter(|_| !topic_text.contains(" and "))
                    .find_map(|format| {
                        topic_text
                            .strip_suffix(format)
                            .filter(|rest| rest.contains(' ') || rest.len() > 3)
                            .map(str::to_owned)
                    })
                    .unwrap_or(topic_text)
            } else {
                topic_text
            };
            // A name that starts with an -ing word ("Making Tax Digital compliance") is not
            // an activity.
            let topic_text = phrasing::topic_subject(&topic_text, fill.keep);
            // `Property market`, `Budget`: a subject a publication's readers follow is one
            // thing in running text (`the property market`), not a skill or a kind of goods.
            let topic_text = if model == crate::brief::BusinessModel::ContentMedia
                && topic_text
                    .rsplit(' ')
                    .next()
                    .is_some_and(phrasing::is_followed_subject)
                && !topic_text.to_lowercase().starts_with("the ")
            {
                format!("the {topic_text}")
            } else {
                topic_text
            };
            let topic_gerund = phrasing::is_activity_phrase(&topic_text);
            let topic_is_offer = topics::shares_word(&topic_text, &offer.bare);
            let is = |reading: Reading, label: &str| fill.readings.is(reading, label);
            TopicVars {
                brand: Value::from(fill.brief.brand_name.trim()),
                model: Value::from(model.as_str()),
                buyers: Value::from(fill.plan.facts.buyers.map_or("", |b| b.as_str())),
                kind: Value::from(fill.topic.topic_type.as_str()),
                category: Value::from(fill.plan.category.as_str()),
                topic: Value::from(&topic_text),
                offer: Value::from(&offer.bare),
                offer_are: Value::from(offer.be()),
                // Content banks read a category of two kinds from its `and` (`hiking guide
                // and gear review`) and name such sites by their field (`hiking sites`).
                // A field named with its outlet (`government exam preparation portal`)
                // is named without it: the banks add `sites` themselves.
                offer_mod: Value::from(if model == crate::brief::BusinessModel::ContentMedia {
                    let field = phrasing::joined_modifier(offer, fill.keep);
                    match field.rsplit_once(' ') {
                        Some((rest, outlet)) if phrasing::OUTLETS.contains(&outlet) => {
                            rest.to_owned()
                        }
                        _ => field,
                    }
                } else {
                    offer.modifier.clone()
                }),
                topic_gerund: Value::from(topic_gerund),
                // `for meal prep`, but `when switching payroll providers`.
                for_topic: Value::from(format!(
                    "{} {topic_text}",
                    if topic_gerund { "when" } else { "for" }
                )),
                // `[tag]{{ fit_trust }} text`: the line is about a trust topic's subject
                // (security, reviews, vetting) though it does not name the topic, and is
                // kept for such a topic elsewhere.
                fit_trust: Value::from(
                    if fill.topic.topic_type == crate::model::TopicType::TrustEvaluation {
                        "+"
                    } else {
                        "~"
                    },
                ),
                // The same for a channel topic's subject (distributors, direct buying).
                fit_channel: Value::from(
                    if fill.topic.topic_type == crate::model::TopicType::ChannelMarketplace {
                        "+"
                    } else {
                        "~"
                    },
                ),
                topic_plural: Value::from(phrasing::is_plural_phrase(&topic_text)),
                // `flexible office space` for a coworking brand names the offering again:
                // `the best coworking spaces for flexible office space` says nothing.
                topic_is_offer: Value::from(topic_is_offer),
                // The use case is picking the offering itself (`Choosing a dentist`,
                // `Flexible office space` for a coworking brand), not a job done with it
                // (`Switching payroll providers`): no "Is Brand a good choice for choosing
                // a dentist?".
                topic_is_choice: Value::from(
                    topic_is_offer
                        && (!topic_gerund
                            || topic_text
                                .split_whitespace()
                                .next()
                                .is_some_and(phrasing::is_choosing_verb)),
                ),
                // Content that recommends or judges, where sponsorship and bias matter.
                c_opinion: Value::from(is(Reading::OpinionContent, &offer.bare)),
                // Local practitioners compared by reviews and distance.
                // Software, goods and content for a practice (`pharmacy billing software`,
                // `vet practice software`) are not found near me; the practice is.
                local: Value::from(
                    matches!(
                        model,
                        crate::brief::BusinessModel::Services
                            | crate::brief::BusinessModel::Other
                            | crate::brief::BusinessModel::Marketplace
                    ) && is(Reading::LocalPractice, &offer.bare),
                ),
                // The topic is one of the brief's product lines by name, as against a
                // narrower priority topic (`Non-iron dress shirts` beside `Mens dress
                // shirts`).
                topic_is_line: Value::from(fill.brief.core_product_lines.iter().any(|line| {
                    line.name
                        .trim()
                        .eq_ignore_ascii_case(fill.topic.name.trim())
                })),
                // The brief sells through an app (its own or an app store): only then do
                // `which apps` questions fit.
                has_app: Value::from(
                    fill.plan
                        .lexicon
                        .channel_kinds
                        .iter()
                        .any(|kind| matches!(kind, ChannelKind::AppStore | ChannelKind::OwnApp)),
                ),
                client_shop: Value::from(fill.plan.lexicon.shop),
                season: Value::from(fill.season),
                post: Value::from(if fill.plan.north_american {
                    "mail"
                } else {
                    "post"
                }),
                text: topic_text,
            }
        })
    }

    /// The product's part of a slot context (see [`ProductVars`]).
    fn product_vars(
        &self,
        product: &phrasing::Noun,
        product_line: Option<&str>,
    ) -> Rc<ProductVars> {
        let key = (product.clone(), product_line.map(str::to_owned));
        if let Some(found) = self.product_vars.borrow().get(&key) {
            return Rc::clone(found);
        }
        let fill = self;
        let model = fill.brief.business_model;
        let offer = &fill.plan.offer;
        let topic_text = &self.topic_vars(0).text;
        let (verb, verb_ing) = phrasing::marketplace_verb(product);
        // A marketplace line sold to the side that lists (`Host listings`).
        let supply_line = model == crate::brief::BusinessModel::Marketplace
            && product_line.is_some_and(phrasing::is_supply_line);
        // The kind of company the brand and its rivals are (`online accountants`,
        // `home service platforms`), and who delivers this product: the product itself
        // when it names people, else the marketplace's listed providers, else the rivals.
        let rivals = match model {
            // Shops and manufacturers compete product by product (`chino brands`).
            crate::brief::BusinessModel::Ecommerce | crate::brief::BusinessModel::Manufacturer => {
                topics::provider_noun(product, model, fill.keep)
            }
            // A marketplace competes for what is booked through it, also on a line sold
            // to its hosts (`platforms for booking boutique hotel stays`, not `… hosts`).
            crate::brief::BusinessModel::Marketplace => {
                let booked = if supply_line { offer } else { product };
                let (_, verb_ing) = phrasing::marketplace_verb(booked);
                phrasing::Noun::parse(
                    &format!("platforms for {verb_ing} {}", booked.bare),
                    fill.keep,
                )
            }
            // A topic about one product line speaks of those who provide that line
            // (`contract engineering staffing providers`), not of the whole offering.
            // Content sites compete as sites whatever the format (`personal finance
            // advice sites`, not `podcast sites`).
            _ if model != crate::brief::BusinessModel::ContentMedia
                && product_line.is_some()
                && fill.topic.related_product_lines.len() == 1
                && product.bare != offer.bare =>
            {
                topics::line_provider_noun(product, offer, model, fill.keep)
            }
            _ => topics::provider_noun(offer, model, fill.keep),
        };
        let providers = if product.is_agent() {
            product.clone()
        } else if model == crate::brief::BusinessModel::Marketplace {
            phrasing::Noun::parse(&format!("{} providers", product.modifier), fill.keep)
        } else {
            rivals.clone()
        };
        let is = |reading: Reading, label: &str| fill.readings.is(reading, label);
        let vars = Rc::new(ProductVars {
            // What customers get from the slot's line (or the whole offer): empty when
            // unknown, so lines that assume one stay out (see [`offer`]).
            offer_kind: Value::from(
                fill.plan
                    .facts
                    .kind_of(fill.brief, product_line)
                    .map_or("", |k| k.as_str()),
            ),
            p: Value::from(&product.bare),
            p_are: Value::from(product.be()),
            p_do: Value::from(product.does()),
            p_have: Value::from(product.has()),
            p_them: Value::from(product.them()),
            p_mod: Value::from(&product.modifier),
            p_one: Value::from(product.one.as_deref().unwrap_or_default()),
            p_mass: Value::from(product.mass),
            p_many: Value::from(product.many()),
            // The work a service line names (`payroll` for `payroll services`).
            p_activity: Value::from(phrasing::service_activity(&product.bare)),
            // The product without the brief's promise (`vetted freelance developers` →
            // `freelance developers`): scams and checks concern the unvetted kind.
            p_plain: Value::from(
                ["vetted ", "verified ", "trusted ", "certified "]
                    .iter()
                    .find_map(|word| product.bare.strip_prefix(word))
                    .unwrap_or(&product.bare),
            ),
            // The product is people (`freelance developers`, `plumbers`).
            p_people: Value::from(product.is_people()),
            providers: Value::from(&providers.bare),
            rivals: Value::from(&rivals.bare),
            rival: Value::from(&rivals.modifier),
            // `compared with other online accountants`, but a generic rival is no such
            // firm: `local high-street accountants compared with online accountants`.
            other_rivals: [
                Value::from(rivals.bare.clone()),
                Value::from(format!("other {}", rivals.bare)),
            ],
            // The slot's topic is one product line of several (`Payroll services`).
            line_topic: Value::from(
                product_line.is_some()
                    && fill.topic.topic_type == crate::model::TopicType::ProductCategory
                    && fill.topic.related_product_lines.len() == 1
                    && product.bare != offer.bare,
            ),
            // Content a person subscribes to or follows (a newsletter, a podcast), as
            // against content they read or use (recipes, reviews, advice).
            c_source: Value::from(is(Reading::ContentSource, &product.bare)),
            // Content people follow step by step (guides, tutorials, recipes).
            c_howto: Value::from(is(Reading::HowtoContent, &product.bare)),
            // Disposable goods: no warranty or service life.
            consumable: Value::from(
                is(Reading::Consumable, &product.bare) || is(Reading::Consumable, &offer.bare),
            ),
            // Food and drink: no functions, workings or repair warranty.
            edible: Value::from(
                is(Reading::FoodOrDrink, &product.bare)
                    || is(Reading::FoodOrDrink, &offer.bare)
                    || is(Reading::FoodOrDrink, &fill.plan.category),
            ),
            // Professions that hold a licence (dentists, accountants, solicitors).
            regulated: Value::from(is(Reading::RegulatedProfession, &providers.bare)),
            // Devices judged by ratings rather than materials (inverters, batteries).
            electronic: Value::from(is(Reading::Electronic, &product.bare)),
            // Machines and plant, bought as projects (installation, downtime, service).
            machine: Value::from(
                is(Reading::Machine, &product.bare)
                    || is(Reading::Machine, &offer.bare)
                    || is(Reading::Machine, &fill.plan.category),
            ),
            // Clothing and shoes: sizing, fit and care.
            wearable: Value::from(
                is(Reading::Wearable, &product.bare) || is(Reading::Wearable, topic_text),
            ),
            // Goods for pets: ingredients, vets, sensitive stomachs.
            pet: Value::from(
                is(Reading::ForPets, &product.bare)
                    || is(Reading::ForPets, &offer.bare)
                    || is(Reading::ForPets, &fill.plan.category),
            ),
            provider: Value::from(&providers.modifier),
            provider_one: Value::from(providers.one.as_deref().unwrap_or_default()),
            verb: Value::from(verb),
            verb_ing: Value::from(verb_ing),
            supply_line: Value::from(supply_line),
        });
        self.product_vars.borrow_mut().insert(key, Rc::clone(&vars));
        vars
    }
}

impl SlotValues {
    /// The template context of a slot: what its topic and product give every slot of
    /// them (worked out once, see [`TopicVars`] and [`ProductVars`]) and what its own
    /// values give.
    fn context(&self, fill: &FillContext<'_>, layer: Layer) -> Value {
        if locale::is_localized(fill.language) {
            return locale::context(self, fill, layer);
        }
        let model = fill.brief.business_model;
        let offer = &fill.plan.offer;
        let place = if fill.language == "en" {
            phrasing::place(&self.market)
        } else {
            phrasing::Place {
                name: self.market.clone(),
                locative: self.market.clone(),
                global: false,
            }
        };
        let t = fill.topic_vars(self.topic_kind);
        let p = fill.product_vars(&self.product, self.product_line.as_deref());
        // Generic rivals (`local high-street accountants`) are plural.
        let rival_plural = self
            .competitor
            .as_deref()
            .is_some_and(phrasing::is_group_name);
        let supply = model == crate::brief::BusinessModel::Marketplace
            && phrasing::is_supply_side(&self.audience, offer);
        let (channel, channel_kind, channel_on) = match &self.channel {
            Some((name, kind)) => (
                Some(name.as_str()),
                kind.as_str(),
                channel_phrase(name, *kind),
            ),
            None => (None, "none", String::new()),
        };
        slot_context! {
            brand => t.brand.clone(),
            model => t.model.clone(),
            // A folder's facts may hold for some layers only (a SaaS line's noun is made
            // readable for discovery, while brand defense keeps the brand's own words).
            layer => layer.as_str(),
            offer_kind => p.offer_kind.clone(),
            // Who buys: empty when unknown (see [`offer`]).
            buyers => t.buyers.clone(),
            kind => t.kind.clone(),
            category => t.category.clone(),
            // The client is a shop selling others' brands (`Japanese kitchen knife
            // store`): no `direct from the brand` against it.
            client_shop => t.client_shop.clone(),
            topic => t.topic.clone(),
            p => p.p.clone(),
            p_are => p.p_are.clone(),
            p_do => p.p_do.clone(),
            p_have => p.p_have.clone(),
            p_them => p.p_them.clone(),
            p_mod => p.p_mod.clone(),
            p_one => p.p_one.clone(),
            p_mass => p.p_mass.clone(),
            p_many => p.p_many.clone(),
            p_activity => p.p_activity.clone(),
            p_plain => p.p_plain.clone(),
            p_people => p.p_people.clone(),
            offer => t.offer.clone(),
            offer_are => t.offer_are.clone(),
            offer_mod => t.offer_mod.clone(),
            providers => p.providers.clone(),
            rivals => p.rivals.clone(),
            rival => p.rival.clone(),
            other_rivals => p.other_rivals[usize::from(!rival_plural)].clone(),
            c_does => if rival_plural { "do" } else { "does" },
            c_is => if rival_plural { "are" } else { "is" },
            c_its => if rival_plural { "their" } else { "its" },
            topic_gerund => t.topic_gerund.clone(),
            for_topic => t.for_topic.clone(),
            line_topic => p.line_topic.clone(),
            fit_trust => t.fit_trust.clone(),
            fit_channel => t.fit_channel.clone(),
            topic_plural => t.topic_plural.clone(),
            topic_is_offer => t.topic_is_offer.clone(),
            topic_is_choice => t.topic_is_choice.clone(),
            c_source => p.c_source.clone(),
            c_opinion => t.c_opinion.clone(),
            c_howto => p.c_howto.clone(),
            consumable => p.consumable.clone(),
            edible => p.edible.clone(),
            local => t.local.clone(),
            regulated => p.regulated.clone(),
            electronic => p.electronic.clone(),
            machine => p.machine.clone(),
            wearable => p.wearable.clone(),
            pet => p.pet.clone(),
            topic_is_line => t.topic_is_line.clone(),
            provider => p.provider.clone(),
            provider_one => p.provider_one.clone(),
            verb => p.verb.clone(),
            verb_ing => p.verb_ing.clone(),
            product => p.p.clone(),
            keyword => &self.keyword,
            customer => &self.audience,
            aud => &self.audience,
            supply => supply,
            supply_line => p.supply_line.clone(),
            market => &self.market,
            place => &place.name,
            // `families in Melbourne in Australia` says the place twice, and `on Amazon
            // UK in Ireland` stacks a second place on a national channel.
            where => if self.audience.contains(" in ")
                || channel.is_some_and(phrasing::names_country)
            {
                ""
            } else {
                place.locative.as_str()
            },
            global => place.global,
            competitor => self.competitor.as_deref(),
            // `Emerson's`, `Hays'`, and `local accountants'` for a generic plural rival.
            c_poss => self.competitor.as_deref().map(|c| {
                if c.ends_with("'s") {
                    c.to_owned()
                } else if rival_plural || c.ends_with('s') {
                    format!("{c}'")
                } else {
                    format!("{c}'s")
                }
            }),
            // What the slot's rival is (`brand`, `retailer`, `marketplace`,
            // `subscription`): only a brand is asked about products it makes.
            c_kind => self.competitor.as_deref().map_or("brand", |c| fill.rival_kind(c).as_str()),
            // A second named rival of the same kind for a head-to-head question: a
            // treat maker against a subscription box compares nothing.
            rival2 => self.rival2.as_deref(),
            channel => channel,
            channel_kind => channel_kind,
            channel_on => channel_on,
            season => t.season.clone(),
            post => t.post.clone(),
            has_app => t.has_app.clone(),
        }
    }
}

fn level_rank(level: Level) -> i32 {
    match level {
        Level::High => 2,
        Level::Medium => 1,
        Level::Low => 0,
    }
}

fn level_of(rank: i32) -> Level {
    match rank {
        r if r >= 2 => Level::High,
        1 => Level::Medium,
        _ => Level::Low,
    }
}

fn filled_to_prompts(
    brief: &Brief,
    topics: &[topics::PlannedTopic],
    filled: &[Filled],
) -> Vec<Prompt<'static>> {
    let model = brief.business_model;
    filled
        .iter()
        .map(|f| {
            let topic = &topics[f.topic];
            let stage = f.intent.stage();
            let priority = level_rank(topic.priority);
            let business = match f.layer {
                Layer::BrandDefense => {
                    if stage == FunnelStage::Bofu {
                        2
                    } else {
                        1
                    }
                }
                _ => {
                    priority
                        + match stage {
                            FunnelStage::Bofu => 1,
                            FunnelStage::Mofu => 0,
                            FunnelStage::Tofu => -1,
                        }
                }
            };
            let weak = |words: &[&str]| {
                brief.weak_ai_surfaces.iter().any(|s| {
                    let s = s.to_lowercase();
                    words.iter().any(|w| s.contains(w))
                })
            };
            let geo = match f.layer {
                Layer::NonBrandDiscovery => {
                    if stage == FunnelStage::Bofu {
                        1
                    } else {
                        2
                    }
                }
                Layer::CompetitorComparison => {
                    if weak(&["compar", "alternative", "vs"]) {
                        2
                    } else {
                        1 + i32::from(
                            brief
                                .competitors
                                .iter()
                                .any(|c| c.overlap_tier.is_some_and(|t| t.weight() >= 3)),
                        )
                    }
                }
                Layer::BrandDefense => {
                    if weak(&["brand", "review", "rating", "reputation"]) {
                        2
                    } else {
                        1
                    }
                }
            } + i32::from(
                topic.priority == Level::High
                    && f.layer == Layer::NonBrandDiscovery
                    && stage == FunnelStage::Bofu,
            );
            let monitoring = match f.intent {
                Intent::CategoryEvaluation
                | Intent::VendorChoice
                | Intent::BrandComparison
                | Intent::Alternatives
                | Intent::PurchaseDecision => 2,
                Intent::ProblemAwareness => priority.min(1),
                Intent::QualityValidation if f.layer == Layer::BrandDefense => 2,
                _ => 1,
            };
            Prompt {
                prompt: Cow::Owned(f.text.clone()),
                topic: Cow::Owned(topic.name.clone()),
                topic_source: topic.source,
                topic_type: Some(Cow::Owned(topic.topic_type.as_str().to_owned())),
                layer: f.layer,
                funnel_stage: stage,
                category: Cow::Borrowed(f.intent.label()),
                product_line: f.product_line.clone().map(Cow::Owned),
                target_customer: if f.customer.is_empty() {
                    None
                } else {
                    Some(Cow::Owned(f.customer.clone()))
                },
                business_value: level_of(business),
                geo_priority: level_of(geo),
                monitoring_value: level_of(monitoring),
                answer_entry_mode: Cow::Borrowed(f.intent.answer_entry_mode(f.layer, model)),
                recommended_asset_type: Some(Cow::Borrowed(f.intent.asset(f.layer, model))),
                why_it_matters: Cow::Owned(strategy::why_it_matters(
                    brief,
                    topic,
                    f.layer,
                    f.intent,
                    &f.customer,
                    &f.market,
                    f.competitor.as_deref(),
                )),
            }
        })
        .collect()
}

/// The summary of the client as the prompt set states it.
fn client_summary(brief: &Brief, inferences: Vec<String>) -> ClientSummary<'static> {
    ClientSummary {
        brand_name: Cow::Owned(brief.brand_name.trim().to_owned()),
        business_model: Cow::Borrowed(brief.business_model.as_str()),
        target_markets: brief
            .target_markets
            .iter()
            .map(|m| m.trim().to_owned())
            .collect(),
        input_product_lines: (!brief.core_product_lines.is_empty()).then(|| {
            brief
                .core_product_lines
                .iter()
                .map(|l| l.name.trim().to_owned())
                .collect()
        }),
        input_topics: (!brief.priority_topics.is_empty()).then(|| {
            brief
                .priority_topics
                .iter()
                .map(|t| t.name.trim().to_owned())
                .collect()
        }),
        key_inferences: Some(inferences),
    }
}

fn topic_entry(topic: &PlannedTopic) -> Topic<'static> {
    Topic {
        topic: Cow::Owned(topic.name.clone()),
        topic_source: topic.source,
        topic_type: topic.topic_type,
        related_product_lines: (!topic.related_product_lines.is_empty())
            .then(|| topic.related_product_lines.clone()),
        priority: topic.priority,
        why_this_topic_exists: Cow::Owned(topic.reason.clone()),
    }
}

/// Serializes a prompt set the way `generate` writes it: pretty JSON, trailing newline.
pub fn to_json(set: &PromptSet<'_>) -> String {
    let mut text = serde_json::to_string_pretty(set).expect("a prompt set always serializes");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::regional_markets;

    fn markets(items: &[&str]) -> Option<Vec<String>> {
        let items: Vec<String> = items.iter().map(|s| (*s).to_owned()).collect();
        regional_markets(&items, &mut Vec::new())
    }

    #[test]
    fn markets_with_regions_are_those_regions() {
        // As a YAML flow list splits it, and as written in quotes.
        let want = Some(vec![
            "Surrey".to_owned(),
            "South West London".to_owned(),
            "North Hampshire".to_owned(),
        ]);
        assert_eq!(
            markets(&[
                "United Kingdom (Surrey",
                "South West London",
                "North Hampshire)"
            ]),
            want
        );
        assert_eq!(
            markets(&["United Kingdom (Surrey, South West London, North Hampshire)"]),
            want
        );
        assert_eq!(
            markets(&["Canada (Ontario)", "US"]),
            Some(vec!["Ontario".to_owned(), "US".to_owned()])
        );
        // A metro named before its towns, and a drive market that is no place.
        assert_eq!(
            markets(&["United States (Dallas–Fort Worth: Plano, Frisco)"]),
            Some(vec![
                "Dallas–Fort Worth".to_owned(),
                "Plano".to_owned(),
                "Frisco".to_owned()
            ])
        );
        assert_eq!(
            markets(&["Drive-market 3hrs: Philadelphia, Baltimore"]),
            Some(vec!["Philadelphia".to_owned(), "Baltimore".to_owned()])
        );
        assert_eq!(markets(&["United Kingdom", "Ireland"]), None);
        assert_eq!(
            markets(&["United States (nationwide)", "UK (mainly London)"]),
            Some(vec!["United States".to_owned(), "UK".to_owned()])
        );
        assert_eq!(
            markets(&["Canada (SK, AB, MB)"]),
            Some(vec!["Canada".to_owned()])
        );
    }
}
