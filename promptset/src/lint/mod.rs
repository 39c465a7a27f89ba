//! Quality lint for prompt sets: rules with stable ids and the 100-point scorecard.
//!
//! [`lint`] takes a prompt set that already passed validation and reports what a GEO
//! analyst would flag before monitoring it: layer mix off target, brand leaks,
//! competitor prompts without competitors, funnel gaps, dominating topics, duplicate
//! and near-duplicate prompts, keyword fragments, topic-map bookkeeping and more (see
//! [`RULES`]). Every finding is a [`Diagnostic`] of severity warning with a JSON
//! pointer and, when the source text is given, its line:column.
//!
//! The same facts feed the [`Scorecard`]: seven sub-scores that add up to 100, each
//! made of named checks with their points, so every score can be explained.
//!
//! Everything is linear in the number of prompts (near duplicates use MinHash LSH with
//! bounded buckets), and per-prompt work runs in parallel with rayon.

pub mod business;
mod facts;
pub mod language;
pub mod misfit;
mod rules;
pub mod scorecard;
pub(crate) mod similar;
pub mod text;

use crate::diagnostic::source::Positions;
use crate::diagnostic::{Category, Diagnostic, Finding, Severity};
use crate::model::PromptSet;

pub use scorecard::{Check, Scorecard, SubScore, SubScores, TopFinding};

/// A lint rule: the crate's one rule type (see [`crate::diagnostic::rules`]).
pub use crate::diagnostic::Rule;

/// A lint rule: a warning with its stable id, what it checks and what to do about it.
const fn rule(id: &'static str, summary: &'static str, help: &'static str) -> Rule {
    Rule::warning(id, Category::Lint, summary, help)
}

/// Every lint rule, most important first (the scorecard's top findings follow this
/// order). A new quality rule goes here, with its check in `rules.rs` (or `misfit.rs`
/// for the wording of single prompts); SARIF and `--list-rules` pick it up.
pub const RULES: &[Rule] = &[
    rule(
        "missing-layer",
        "a prompt layer (non-brand discovery, competitor comparison, brand defense) has no prompts",
        "add prompts for every layer: non-brand 60-70 %, competitor 20-25 %, brand defense 10-20 %",
    ),
    rule(
        "layer-mix-off-target",
        "a layer's share is outside its target band (non-brand 60-70 %, competitor 20-25 %, brand defense 10-20 %)",
        "rebalance the layers toward non-brand 60-70 %, competitor 20-25 %, brand defense 10-20 %",
    ),
    rule(
        "brand-heavy",
        "brand-defense prompts exceed 20 %, or more than half the prompts name the brand",
        "replace brand-name prompts with non-brand discovery prompts people ask before they know the brand",
    ),
    rule(
        "brand-in-non-brand",
        "a non-brand discovery prompt names the brand",
        "remove the brand name from non-brand prompts or move them to brand defense",
    ),
    rule(
        "competitor-prompt-without-competitor",
        "a competitor-comparison prompt names no competitor and no comparison",
        "name a competitor or an alternative (`X vs Y`, `alternatives to X`) in every competitor prompt",
    ),
    rule(
        "brand-defense-without-brand",
        "a brand-defense prompt does not name the brand",
        "name the brand in every brand-defense prompt",
    ),
    rule(
        "competitor-in-non-brand",
        "a non-brand discovery prompt names a known competitor",
        "move prompts that name competitors to the competitor-comparison layer",
    ),
    rule(
        "missing-funnel-stage",
        "a funnel stage (TOFU, MOFU, BOFU) has no prompts",
        "add prompts for every funnel stage: awareness (TOFU), evaluation (MOFU) and decision (BOFU)",
    ),
    rule(
        "single-funnel-stage",
        "one funnel stage holds 80 % or more of the prompts",
        "spread prompts across TOFU, MOFU and BOFU instead of one stage",
    ),
    rule(
        "duplicate-prompt",
        "a prompt repeats an earlier one word for word (case and punctuation ignored)",
        "delete duplicate prompts",
    ),
    rule(
        "near-duplicate-prompt",
        "a prompt shares 80 % or more of its content words with an earlier one",
        "merge or rewrite near-duplicate prompts so each one measures something new",
    ),
    rule(
        "keyword-fragment",
        "a prompt is a keyword fragment rather than a question or request",
        "rewrite keyword fragments as the full questions people ask answer engines",
    ),
    rule(
        "physical-framing",
        "a software, service, content or marketplace prompt speaks of delivery, durability, specs or buying goods",
        "ask what this business's buyers weigh: integrations and pricing tiers, fees and credentials, trust and cancellations, credibility",
    ),
    rule(
        "channel-misuse",
        "a channel is used as a place to buy where it is not one (`on Distributors`, `on Trade shows`, `on Own website`)",
        "buy on marketplaces, from distributors, after seeing products at trade shows, on the brand's own website",
    ),
    rule(
        "tautology",
        "a prompt defines or compares a term with itself (`what does \"X\" mean when comparing X`)",
        "ask about something the answer can inform: a use case, a price, a choice between named options",
    ),
    rule(
        "region-as-place",
        "a market label is used as a place (`in Worldwide`, `in Global`, `in EMEA markets`, `in United States`)",
        "write markets as people say them: `worldwide`, `globally`, `in the UK`, `in the United States`",
    ),
    rule(
        "doubled-word",
        "a word is written twice in a row (`the the`, `software software`)",
        "delete the repeated word",
    ),
    rule(
        "pasted-audience",
        "the brief's audience description is pasted into the prompt verbatim (`for men aged 25-45 who buy ...`)",
        "name the audience in the short form people use (`for a 200-person company`, `as a freelancer`)",
    ),
    rule(
        "agreement",
        "subject-verb or article agreement fails, or a mass noun is counted (`accountants does`, `a analytics`, `one product analytics`, `mens shirts brands`)",
        "fix the grammar: plural verbs for plural subjects, `a`/`an` by sound, mass nouns without `a`/`one`",
    ),
    rule(
        "unnatural",
        "no person would type the prompt: a keyword string, template residue, a label pasted in the brief's capitalisation",
        "rewrite the prompt as the question a buyer would type",
    ),
    rule(
        "wrong-category-noun",
        "the wrong thing is bought, booked, hired or delivered (`buy online marketplaces`, `deliver home repair bookings`)",
        "name what customers actually get: hotel stays, a plumber, a subscription, a product",
    ),
    rule(
        "off-topic",
        "a prompt is about another product line or competitor than its topic",
        "keep every prompt on its topic's product line, competitor or audience, or move it to the right topic",
    ),
    rule(
        "business-model-gap",
        "the topic map lacks half or more of the topic types the business model needs",
        "add the topic types the business model needs",
    ),
    rule(
        "topic-without-prompts",
        "a topic of the topic map has no prompts",
        "give every topic prompts or drop it from the topic map",
    ),
    rule(
        "topic-dominates",
        "one topic holds more than twice its fair share of prompts (and over 40 %)",
        "spread prompts more evenly across topics",
    ),
    rule(
        "product-line-dominates",
        "one product line holds most prompts that name a product line",
        "spread prompts across the product lines",
    ),
    rule(
        "product-line-without-prompts",
        "a product line of the brief appears in no topic and no prompt",
        "cover every product line of the brief with a topic or prompts",
    ),
    rule(
        "input-topic-not-covered",
        "a topic of the brief has no topic in the topic map",
        "add the brief's topics to the topic map",
    ),
    rule(
        "inferred-topic-not-marked",
        "a topic explained as inferred is not marked `inferred`, a `provided` topic is not in the brief, or inferred topics come without key inferences",
        "mark inferred topics `inferred` and list what was assumed in `key_inferences`",
    ),
    rule(
        "high-priority-topic-thin",
        "a high-priority topic has fewer than 3 prompts or less than half the average per topic",
        "give high-priority topics at least as many prompts as the average topic",
    ),
    rule(
        "layer-mix-declared-mismatch",
        "the strategy's declared layer mix is not a share or differs from the prompts' actual mix by more than 5 points",
        "make `strategy.layer_mix` state the shares the prompts actually have",
    ),
    rule(
        "topic-type-mismatch",
        "a prompt's `topic_type` differs from its topic's type in the topic map",
        "copy each topic's type from the topic map onto its prompts",
    ),
    rule(
        "time-sensitive-prompt",
        "a prompt names a year or a moment, so its answers drift over time",
        "drop years and moments (`today`, `this week`) from prompts you monitor over time",
    ),
    rule(
        "prompt-too-long",
        "a prompt has more than 45 words",
        "shorten long prompts to the question people would actually type",
    ),
    rule(
        "flat-priorities",
        "every prompt (or topic) has the same rating, so nothing can be triaged",
        "rate prompts and topics apart (high, medium, low) so the most valuable are watched first",
    ),
    rule(
        "boilerplate-why-it-matters",
        "many prompts share the same `why_it_matters` text",
        "write a specific `why_it_matters` for each prompt",
    ),
    rule(
        "missing-priority-lists",
        "priority lists are missing or empty",
        "fill `priority_lists` with the top topics and the top prompts of each layer",
    ),
    rule(
        "unknown-business-model",
        "the business model is not one the scorecard can interpret",
        "state the business model as saas, ecommerce, services, marketplace, manufacturer or content-media",
    ),
];

/// The rule with id `id`.
pub fn rule_by_id(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|rule| rule.id == id)
}

/// The result of linting one prompt set.
#[derive(Debug, Clone)]
pub struct LintReport {
    /// Every finding, in source order when the source was given.
    pub diagnostics: Vec<Diagnostic>,
    /// The 100-point scorecard.
    pub scorecard: Scorecard,
}

/// Lints `set`. With its `source` text the findings get line:column positions and
/// come in source order; without it they have line and column 0.
pub fn lint(set: &PromptSet<'_>, source: Option<&str>) -> LintReport {
    let facts = facts::Facts::new(set);
    let findings = rules::check(set, &facts);
    let scorecard = scorecard::score(set, &facts, &findings);
    LintReport {
        diagnostics: place(findings, source),
        scorecard,
    }
}

/// Only the scorecard of `set` (what the HTML report embeds).
pub fn score(set: &PromptSet<'_>) -> Scorecard {
    lint(set, None).scorecard
}

fn place(findings: Vec<rules::Finding>, source: Option<&str>) -> Vec<Diagnostic> {
    let findings = findings
        .into_iter()
        .map(|f| Finding::at(f.rule, f.pointer, f.message))
        .collect();
    Positions::json_or_unknown(source).place(findings, Severity::Warning)
}

#[cfg(test)]
mod tests {
    use super::RULES;

    #[test]
    fn rule_ids_are_unique_kebab_case() {
        let mut ids: Vec<&str> = RULES.iter().map(|r| r.id).collect();
        assert!(
            ids.iter()
                .all(|id| id.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
        );
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), RULES.len());
    }
}
