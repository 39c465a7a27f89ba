//! The funnel rules: what each prompt intent is, which funnel stage it belongs to, how a
//! brand enters the answer, and which asset would win it.
//!
//! Templates tag every variant with an intent (`[pricing] How much does …`); the stage
//! follows from the intent alone, so a template cannot file a pricing question under
//! TOFU: the generator rejects a variant whose intent disagrees with its template's stage.

use crate::brief::BusinessModel;
use crate::model::{FunnelStage, Layer};

/// Why a person asks a prompt; decides its funnel stage and most of its labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Intent {
    /// Naming a problem before knowing solutions (TOFU).
    ProblemAwareness,
    /// Learning how a kind of solution works (TOFU).
    SolutionEducation,
    /// Looking at the options of a category (MOFU).
    CategoryEvaluation,
    /// Comparing named brands (MOFU).
    BrandComparison,
    /// Looking for something instead of a named brand (MOFU).
    Alternatives,
    /// Deciding what to buy (BOFU).
    PurchaseDecision,
    /// Using or implementing what was bought (BOFU).
    UseImplementation,
    /// Choosing a vendor or provider (BOFU).
    VendorChoice,
    /// Checking specifications (BOFU).
    Specs,
    /// Qualifying a supplier: certifications, capacity, compliance (BOFU).
    SupplierQualification,
    /// Prices, plans and costs (BOFU).
    Pricing,
    /// Where to buy (BOFU).
    Channels,
    /// Returns, warranty and guarantees (BOFU).
    Returns,
    /// Validating quality: reviews, complaints, legitimacy (BOFU).
    QualityValidation,
    /// Buying soon: deals, availability, delivery (BOFU).
    NearTermBuying,
}

impl Intent {
    /// Every intent.
    pub const ALL: &'static [Intent] = &[
        Intent::ProblemAwareness,
        Intent::SolutionEducation,
        Intent::CategoryEvaluation,
        Intent::BrandComparison,
        Intent::Alternatives,
        Intent::PurchaseDecision,
        Intent::UseImplementation,
        Intent::VendorChoice,
        Intent::Specs,
        Intent::SupplierQualification,
        Intent::Pricing,
        Intent::Channels,
        Intent::Returns,
        Intent::QualityValidation,
        Intent::NearTermBuying,
    ];

    /// The tag templates use, e.g. `problem-awareness`.
    pub fn tag(self) -> &'static str {
        match self {
            Intent::ProblemAwareness => "problem-awareness",
            Intent::SolutionEducation => "solution-education",
            Intent::CategoryEvaluation => "category-evaluation",
            Intent::BrandComparison => "brand-comparison",
            Intent::Alternatives => "alternatives",
            Intent::PurchaseDecision => "purchase-decision",
            Intent::UseImplementation => "use-implementation",
            Intent::VendorChoice => "vendor-choice",
            Intent::Specs => "specs",
            Intent::SupplierQualification => "supplier-qualification",
            Intent::Pricing => "pricing",
            Intent::Channels => "channels",
            Intent::Returns => "returns",
            Intent::QualityValidation => "quality-validation",
            Intent::NearTermBuying => "near-term-buying",
        }
    }

    /// The intent a template tag names.
    pub fn from_tag(tag: &str) -> Option<Intent> {
        Intent::ALL.iter().copied().find(|i| i.tag() == tag)
    }

    /// The prompt's `category`: the intent in words.
    pub fn label(self) -> &'static str {
        match self {
            Intent::ProblemAwareness => "problem awareness",
            Intent::SolutionEducation => "solution education",
            Intent::CategoryEvaluation => "category evaluation",
            Intent::BrandComparison => "brand comparison",
            Intent::Alternatives => "alternatives",
            Intent::PurchaseDecision => "purchase decision",
            Intent::UseImplementation => "use and implementation",
            Intent::VendorChoice => "vendor choice",
            Intent::Specs => "specifications",
            Intent::SupplierQualification => "supplier qualification",
            Intent::Pricing => "pricing",
            Intent::Channels => "where to buy",
            Intent::Returns => "returns and warranty",
            Intent::QualityValidation => "quality validation",
            Intent::NearTermBuying => "near-term buying",
        }
    }

    /// The funnel rule: awareness and education are TOFU, evaluation and comparison
    /// MOFU, and decisions, implementation and anything about vendor choice, specs,
    /// supplier qualification, pricing, channels, returns, quality validation or
    /// near-term buying BOFU.
    pub fn stage(self) -> FunnelStage {
        match self {
            Intent::ProblemAwareness | Intent::SolutionEducation => FunnelStage::Tofu,
            Intent::CategoryEvaluation | Intent::BrandComparison | Intent::Alternatives => {
                FunnelStage::Mofu
            }
            Intent::PurchaseDecision
            | Intent::UseImplementation
            | Intent::VendorChoice
            | Intent::Specs
            | Intent::SupplierQualification
            | Intent::Pricing
            | Intent::Channels
            | Intent::Returns
            | Intent::QualityValidation
            | Intent::NearTermBuying => FunnelStage::Bofu,
        }
    }

    /// How the brand would enter an answer to a prompt of this intent and layer.
    pub fn answer_entry_mode(self, layer: Layer, model: BusinessModel) -> &'static str {
        match (self, layer) {
            (Intent::Alternatives, _) => "alternative option",
            (Intent::BrandComparison, _) => "comparison target",
            (Intent::QualityValidation | Intent::Returns, _) => "review / rating citation",
            (Intent::ProblemAwareness, _) => "methodology citation",
            (Intent::SolutionEducation, _) => match model {
                BusinessModel::Saas | BusinessModel::Services | BusinessModel::Manufacturer => {
                    "case-study citation"
                }
                _ => "methodology citation",
            },
            (Intent::UseImplementation | Intent::SupplierQualification, _) => "case-study citation",
            (Intent::CategoryEvaluation | Intent::VendorChoice, _) => "candidate list",
            (Intent::Pricing | Intent::Specs, Layer::CompetitorComparison) => "comparison target",
            (_, Layer::CompetitorComparison) => "candidate list",
            _ => "direct recommendation",
        }
    }

    /// The content asset that would most likely win the answer.
    pub fn asset(self, layer: Layer, model: BusinessModel) -> &'static str {
        match (self, layer) {
            (Intent::Alternatives, _) => "alternatives page",
            (Intent::BrandComparison, _) => "head-to-head comparison page",
            (Intent::ProblemAwareness, _) => "problem explainer article",
            (Intent::SolutionEducation, _) => match model {
                BusinessModel::Saas => "how-to guide with product walkthrough",
                BusinessModel::Services => "methodology page",
                BusinessModel::Manufacturer => "technical application note",
                _ => "how-to guide",
            },
            (Intent::CategoryEvaluation, Layer::CompetitorComparison) => {
                "comparison table across brands"
            }
            (Intent::CategoryEvaluation, _) => "buying guide with comparison table",
            (Intent::UseImplementation, _) => match model {
                BusinessModel::Saas => "integration documentation",
                BusinessModel::Services | BusinessModel::Manufacturer => "customer case study",
                _ => "usage and care guide",
            },
            (Intent::VendorChoice, _) => "vendor selection checklist",
            (Intent::Specs, _) => "specification sheet",
            (Intent::SupplierQualification, _) => "certifications and quality page",
            (Intent::Pricing, _) => "transparent pricing page",
            (Intent::Channels, _) => "marketplace and retailer listings",
            (Intent::Returns, _) => "shipping, returns and warranty FAQ",
            (Intent::QualityValidation, _) => "review and rating profiles",
            (Intent::NearTermBuying, _) => "offer landing page",
            (Intent::PurchaseDecision, _) => match model {
                BusinessModel::Saas => "product page with plan comparison",
                BusinessModel::Services => "service page with engagement models",
                _ => "product page with structured data",
            },
        }
    }
}

/// Share of each funnel stage within a layer, in TOFU, MOFU, BOFU order. Non-brand
/// prompts lean to the stage where the business model's deals are decided: BOFU for
/// stores and manufacturers, TOFU for publishers, the middle for the rest.
pub fn stage_weights(layer: Layer, model: BusinessModel) -> [f64; 3] {
    match layer {
        Layer::NonBrandDiscovery => match model {
            BusinessModel::Ecommerce | BusinessModel::Manufacturer => [0.4, 0.3, 0.3],
            BusinessModel::ContentMedia => [0.6, 0.3, 0.1],
            _ => [0.5, 0.33, 0.17],
        },
        Layer::CompetitorComparison => [0.0, 0.67, 0.33],
        Layer::BrandDefense => [0.2, 0.4, 0.4],
    }
}

/// Splits `total` into parts proportional to `weights` (largest remainder), breaking
/// ties by `rotate` so that successive topics put their odd prompt in different places.
pub fn apportion(total: usize, weights: &[f64], rotate: usize) -> Vec<usize> {
    let sum: f64 = weights.iter().sum();
    if total == 0 || sum <= 0.0 {
        return vec![0; weights.len()];
    }
    let exact: Vec<f64> = weights.iter().map(|w| w / sum * total as f64).collect();
    let mut parts: Vec<usize> = exact.iter().map(|e| e.floor() as usize).collect();
    let mut left = total - parts.iter().sum::<usize>();
    let n = weights.len();
    let mut order: Vec<usize> = (0..n).filter(|&i| weights[i] > 0.0).collect();
    order.sort_by(|&a, &b| {
        let ra = exact[a] - exact[a].floor();
        let rb = exact[b] - exact[b].floor();
        rb.total_cmp(&ra)
            .then_with(|| ((a + n - rotate % n) % n).cmp(&((b + n - rotate % n) % n)))
    });
    for &i in order.iter().cycle() {
        if left == 0 {
            break;
        }
        parts[i] += 1;
        left -= 1;
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_round_trip_and_stages_follow_the_rules() {
        for intent in Intent::ALL {
            assert_eq!(Intent::from_tag(intent.tag()), Some(*intent));
        }
        assert_eq!(Intent::Pricing.stage(), FunnelStage::Bofu);
        assert_eq!(Intent::BrandComparison.stage(), FunnelStage::Mofu);
        assert_eq!(Intent::SolutionEducation.stage(), FunnelStage::Tofu);
    }

    #[test]
    fn apportion_keeps_the_total() {
        assert_eq!(apportion(10, &[0.6, 0.3, 0.1], 0), vec![6, 3, 1]);
        assert_eq!(apportion(6, &[0.5, 0.33, 0.17], 0), vec![3, 2, 1]);
        assert_eq!(apportion(3, &[0.0, 0.67, 0.33], 0), vec![0, 2, 1]);
        for total in 0..40 {
            assert_eq!(
                apportion(total, &[0.6, 0.3, 0.1], total)
                    .iter()
                    .sum::<usize>(),
                total
            );
        }
    }
}
