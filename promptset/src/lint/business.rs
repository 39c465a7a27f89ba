//! Business-model profiles: what a prompt set for a given kind of business should cover.
//!
//! `client_summary.business_model` is free text (`saas`, `B2B SaaS platform`,
//! `online retail / DTC`, `industrial manufacturer`...). [`interpret`] maps it to one of
//! the brief's business models by keywords (the earliest keyword in the text wins, so
//! `marketplace for agencies` is a marketplace). Each [`Profile`] then names the topic
//! types, the funnel emphasis, the buyer intents and the content assets that answer
//! engines lean on for that model; the scorecard's business-model fit measures the
//! set against them.

use crate::model::{FunnelStage, TopicType};

/// The business models of the client brief.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BusinessModel {
    /// Software sold as a subscription.
    Saas,
    /// A shop selling products online.
    Ecommerce,
    /// Agencies, consultancies, clinics, firms.
    Services,
    /// A platform matching buyers and sellers.
    Marketplace,
    /// A maker of physical goods, often selling B2B or through distributors.
    Manufacturer,
    /// Publishers, media and creators.
    ContentMedia,
}

impl BusinessModel {
    /// The brief's spelling of the model.
    pub fn as_str(self) -> &'static str {
        match self {
            BusinessModel::Saas => "saas",
            BusinessModel::Ecommerce => "ecommerce",
            BusinessModel::Services => "services",
            BusinessModel::Marketplace => "marketplace",
            BusinessModel::Manufacturer => "manufacturer",
            BusinessModel::ContentMedia => "content-media",
        }
    }
}

/// Keywords that identify a business model in free text, matched as whole words
/// against the normalised text.
const KEYWORDS: &[(BusinessModel, &[&str])] = &[
    (
        BusinessModel::Marketplace,
        &[
            "marketplace",
            "two sided",
            "platform connecting",
            "peer to peer",
        ],
    ),
    (
        BusinessModel::ContentMedia,
        &[
            "content media",
            "content",
            "media",
            "publisher",
            "publishing",
            "news",
            "magazine",
            "podcast",
            "newsletter",
            "creator",
            "blog",
        ],
    ),
    (
        BusinessModel::Saas,
        &[
            "saas",
            "software",
            "subscription",
            "cloud",
            "app",
            "platform",
            "api",
        ],
    ),
    (
        BusinessModel::Ecommerce,
        &[
            "ecommerce",
            "e commerce",
            "online store",
            "online shop",
            "webshop",
            "retail",
            "dtc",
            "d2c",
            "direct to consumer",
            "shop",
            "store",
            "brand selling",
        ],
    ),
    (
        BusinessModel::Manufacturer,
        &[
            "manufacturer",
            "manufacturing",
            "factory",
            "oem",
            "odm",
            "industrial",
            "producer",
            "wholesale",
            "supplier",
            "maker",
        ],
    ),
    (
        BusinessModel::Services,
        &[
            "services",
            "service",
            "agency",
            "consulting",
            "consultancy",
            "consultant",
            "firm",
            "clinic",
            "practice",
            "studio",
            "freelance",
            "law",
            "accounting",
        ],
    ),
];

/// Interprets the free-text business model; `None` when nothing in it is recognised
/// (for example `other`).
pub fn interpret(text: &str) -> Option<BusinessModel> {
    let normalized = super::text::normalize(text);
    let mut best: Option<(usize, BusinessModel)> = None;
    for (model, keywords) in KEYWORDS {
        for keyword in *keywords {
            let needle = format!(" {keyword} ");
            if let Some(at) = normalized.find(&needle)
                && best.is_none_or(|(position, _)| at < position)
            {
                best = Some((at, *model));
            }
        }
    }
    best.map(|(_, model)| model)
}

/// A named group of keywords (a buyer intent or a kind of asset).
#[derive(Debug, Clone, Copy)]
pub struct Group {
    /// What the group stands for, for people.
    pub label: &'static str,
    /// Word prefixes that show it, matched against normalised text.
    pub keywords: &'static [&'static str],
}

const fn group(label: &'static str, keywords: &'static [&'static str]) -> Group {
    Group { label, keywords }
}

/// What a prompt set for one business model is expected to cover.
#[derive(Debug, Clone, Copy)]
pub struct Profile {
    /// The model, or `None` for the generic profile used when the model is not recognised.
    pub model: Option<BusinessModel>,
    /// Topic types a monitoring set for this model needs.
    pub topic_types: &'static [TopicType],
    /// The funnel stage answer engines decide this model's deals in, and its minimum share.
    pub funnel_focus: Option<(FunnelStage, f64)>,
    /// Buyer intents the prompts should show.
    pub intents: &'static [Group],
    /// Content assets the set should recommend (in asset types, assets or entry modes).
    pub assets: &'static [Group],
}

impl Profile {
    /// The model's name, or `generic`.
    pub fn name(&self) -> &'static str {
        self.model.map_or("generic", BusinessModel::as_str)
    }
}

use FunnelStage::{Bofu, Mofu, Tofu};
use TopicType::{
    AudienceSegment, ChannelMarketplace, CompetitorAlternative, ProductCategory, SeasonalTrend,
    TrustEvaluation, UseCase,
};

const SAAS: Profile = Profile {
    model: Some(BusinessModel::Saas),
    topic_types: &[
        ProductCategory,
        UseCase,
        CompetitorAlternative,
        TrustEvaluation,
    ],
    funnel_focus: Some((Mofu, 0.3)),
    intents: &[
        group(
            "pricing",
            &[
                "pricing", "price", "cost", "plan", "free", "cheap", "afford",
            ],
        ),
        group(
            "integrations",
            &["integrat", "api", "connect", "sync", "plugin", "works with"],
        ),
        group(
            "evaluation",
            &[
                "best",
                "vs",
                "versus",
                "alternative",
                "compare",
                "review",
                "recommend",
            ],
        ),
        group(
            "implementation",
            &[
                "set up",
                "setup",
                "implement",
                "onboard",
                "migrat",
                "how to use",
                "deploy",
            ],
        ),
        group(
            "security and compliance",
            &[
                "secur", "gdpr", "soc", "complian", "privacy", "reliab", "uptime",
            ],
        ),
    ],
    assets: &[
        group("comparison pages", &["comparison", "vs", "alternative"]),
        group("pricing page", &["pricing", "price"]),
        group(
            "integration docs",
            &["integration", "documentation", "docs", "api"],
        ),
        group(
            "proof (case studies, reviews)",
            &["case stud", "review", "testimonial", "customer stor"],
        ),
    ],
};

const ECOMMERCE: Profile = Profile {
    model: Some(BusinessModel::Ecommerce),
    topic_types: &[
        ProductCategory,
        ChannelMarketplace,
        TrustEvaluation,
        SeasonalTrend,
    ],
    funnel_focus: Some((Bofu, 0.3)),
    intents: &[
        group(
            "buying",
            &[
                "buy", "where to", "shop", "order", "deal", "discount", "purchase",
            ],
        ),
        group(
            "price",
            &["price", "cost", "cheap", "afford", "budget", "worth"],
        ),
        group(
            "reviews and quality",
            &[
                "review", "rating", "quality", "durab", "last", "legit", "reliab",
            ],
        ),
        group(
            "shipping and returns",
            &[
                "shipping", "ship", "delivery", "return", "refund", "warranty",
            ],
        ),
        group(
            "gifts and seasons",
            &[
                "gift",
                "christmas",
                "holiday",
                "summer",
                "winter",
                "black friday",
                "season",
            ],
        ),
    ],
    assets: &[
        group(
            "product pages",
            &["product page", "product detail", "pdp", "product listing"],
        ),
        group("buying guides", &["buying guide", "guide", "gift guide"]),
        group("reviews and ratings", &["review", "rating", "ugc"]),
        group(
            "shipping, returns and FAQ",
            &["shipping", "return", "faq", "warranty"],
        ),
    ],
};

const SERVICES: Profile = Profile {
    model: Some(BusinessModel::Services),
    topic_types: &[
        UseCase,
        AudienceSegment,
        TrustEvaluation,
        CompetitorAlternative,
    ],
    funnel_focus: Some((Mofu, 0.25)),
    intents: &[
        group(
            "hiring",
            &[
                "hire",
                "agency",
                "consultant",
                "firm",
                "provider",
                "expert",
                "freelanc",
                "contractor",
                "partner",
            ],
        ),
        group(
            "cost",
            &["cost", "price", "fee", "rate", "budget", "quote", "afford"],
        ),
        group(
            "credibility",
            &[
                "case stud",
                "review",
                "reference",
                "certif",
                "accredit",
                "experience",
                "portfolio",
                "track record",
                "trust",
            ],
        ),
        group(
            "process",
            &[
                "process",
                "how long",
                "timeline",
                "method",
                "approach",
                "expect",
                "work with",
            ],
        ),
        group(
            "outcomes",
            &[
                "result", "roi", "outcome", "improve", "grow", "increase", "reduce",
            ],
        ),
    ],
    assets: &[
        group("case studies", &["case stud", "portfolio", "success stor"]),
        group(
            "methodology",
            &["methodolog", "process", "framework", "approach"],
        ),
        group(
            "credentials",
            &["certif", "award", "credential", "team", "about"],
        ),
        group(
            "pricing",
            &["pricing", "cost", "quote", "rate card", "price"],
        ),
    ],
};

const MARKETPLACE: Profile = Profile {
    model: Some(BusinessModel::Marketplace),
    topic_types: &[
        ChannelMarketplace,
        AudienceSegment,
        TrustEvaluation,
        ProductCategory,
    ],
    funnel_focus: Some((Mofu, 0.25)),
    intents: &[
        group(
            "supply side",
            &[
                "sell on", "seller", "vendor", "list my", "listing", "host", "become a",
            ],
        ),
        group(
            "demand side",
            &["buy", "book", "find", "hire", "rent", "order"],
        ),
        group(
            "trust and safety",
            &[
                "safe", "scam", "legit", "trust", "verified", "review", "protect",
            ],
        ),
        group("fees", &["fee", "commission", "cost", "price", "charge"]),
        group(
            "comparison",
            &["vs", "versus", "alternative", "compare", "better than"],
        ),
    ],
    assets: &[
        group(
            "trust and safety pages",
            &["trust", "safety", "verification", "protection"],
        ),
        group(
            "seller or host guides",
            &["seller", "host", "vendor", "onboarding"],
        ),
        group("reviews and ratings", &["review", "rating"]),
        group("fee pages", &["fee", "pricing", "commission"]),
    ],
};

const MANUFACTURER: Profile = Profile {
    model: Some(BusinessModel::Manufacturer),
    topic_types: &[
        ProductCategory,
        UseCase,
        TrustEvaluation,
        ChannelMarketplace,
    ],
    funnel_focus: Some((Bofu, 0.3)),
    intents: &[
        group(
            "specifications",
            &[
                "spec",
                "tolerance",
                "material",
                "grade",
                "standard",
                "dimension",
                "capacity",
                "performance",
                "rated",
            ],
        ),
        group(
            "supplier qualification",
            &[
                "supplier",
                "manufacturer",
                "factory",
                "vendor",
                "oem",
                "odm",
                "sourcing",
                "source",
            ],
        ),
        group(
            "certification and quality",
            &[
                "certif", "iso", "quality", "test", "complian", "rohs", "reach",
            ],
        ),
        group(
            "ordering",
            &[
                "moq",
                "minimum order",
                "lead time",
                "bulk",
                "wholesale",
                "quote",
                "price",
                "distributor",
            ],
        ),
        group(
            "applications",
            &[
                "application",
                "use case",
                "used for",
                "industr",
                "suitable",
                "for use",
            ],
        ),
    ],
    assets: &[
        group(
            "spec sheets",
            &["spec", "datasheet", "data sheet", "technical"],
        ),
        group(
            "certifications",
            &["certif", "iso", "compliance", "test report"],
        ),
        group(
            "application notes",
            &["application", "case stud", "use case"],
        ),
        group(
            "supplier information",
            &["supplier", "moq", "lead time", "distributor", "catalog"],
        ),
    ],
};

const CONTENT_MEDIA: Profile = Profile {
    model: Some(BusinessModel::ContentMedia),
    topic_types: &[AudienceSegment, UseCase, TrustEvaluation, SeasonalTrend],
    funnel_focus: Some((Tofu, 0.35)),
    intents: &[
        group(
            "learning",
            &[
                "learn",
                "guide",
                "explain",
                "understand",
                "how to",
                "tutorial",
                "what is",
            ],
        ),
        group(
            "discovery",
            &[
                "best",
                "top",
                "recommend",
                "follow",
                "read",
                "watch",
                "listen",
                "subscribe",
            ],
        ),
        group(
            "trust",
            &[
                "reliab",
                "trustworth",
                "credib",
                "accura",
                "unbiased",
                "source",
                "fact",
            ],
        ),
        group(
            "news and trends",
            &["news", "trend", "latest", "update", "analys"],
        ),
        group(
            "formats",
            &[
                "podcast",
                "newsletter",
                "video",
                "course",
                "magazine",
                "blog",
            ],
        ),
    ],
    assets: &[
        group(
            "editorial standards",
            &["methodolog", "editorial", "standard", "fact check"],
        ),
        group("guides and explainers", &["guide", "explainer", "tutorial"]),
        group(
            "author authority",
            &["author", "expert", "about", "credential"],
        ),
        group("formats", &["newsletter", "podcast", "video", "series"]),
    ],
};

const GENERIC: Profile = Profile {
    model: None,
    topic_types: &[
        ProductCategory,
        UseCase,
        TrustEvaluation,
        CompetitorAlternative,
    ],
    funnel_focus: None,
    intents: &[
        group(
            "education",
            &["what is", "how to", "how do", "why", "explain"],
        ),
        group("evaluation", &["best", "top", "recommend", "review"]),
        group("comparison", &["vs", "versus", "alternative", "compare"]),
        group(
            "decision",
            &["price", "cost", "buy", "hire", "choose", "worth"],
        ),
    ],
    assets: &[
        group("comparison pages", &["comparison", "vs", "alternative"]),
        group("guides", &["guide", "explainer", "faq"]),
        group("proof", &["case stud", "review", "testimonial"]),
        group("pricing", &["pricing", "price", "cost"]),
    ],
};

/// The profile for a business model; the generic one for `None`.
pub fn profile(model: Option<BusinessModel>) -> &'static Profile {
    match model {
        Some(BusinessModel::Saas) => &SAAS,
        Some(BusinessModel::Ecommerce) => &ECOMMERCE,
        Some(BusinessModel::Services) => &SERVICES,
        Some(BusinessModel::Marketplace) => &MARKETPLACE,
        Some(BusinessModel::Manufacturer) => &MANUFACTURER,
        Some(BusinessModel::ContentMedia) => &CONTENT_MEDIA,
        None => &GENERIC,
    }
}

/// Whether a normalised text shows any keyword of `group` (as a word prefix).
pub fn shows(normalized: &str, group: &Group) -> bool {
    Matcher::new(group).matches(normalized)
}

/// A group's keywords prepared once for matching against many texts.
pub struct Matcher {
    needles: Vec<String>,
}

impl Matcher {
    /// Prepares the keywords of `group`.
    pub fn new(group: &Group) -> Self {
        Matcher {
            needles: group
                .keywords
                .iter()
                .map(|keyword| format!(" {keyword}"))
                .collect(),
        }
    }

    /// Whether the normalised (space-padded) text holds a keyword at a word start.
    pub fn matches(&self, normalized: &str) -> bool {
        self.needles
            .iter()
            .any(|needle| normalized.contains(needle.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interprets_free_text() {
        assert_eq!(interpret("saas"), Some(BusinessModel::Saas));
        assert_eq!(interpret("B2B SaaS platform"), Some(BusinessModel::Saas));
        assert_eq!(
            interpret("e-commerce (DTC)"),
            Some(BusinessModel::Ecommerce)
        );
        assert_eq!(
            interpret("marketplace for freelance designers"),
            Some(BusinessModel::Marketplace)
        );
        assert_eq!(
            interpret("industrial manufacturer of valves"),
            Some(BusinessModel::Manufacturer)
        );
        assert_eq!(
            interpret("content-media"),
            Some(BusinessModel::ContentMedia)
        );
        assert_eq!(
            interpret("digital marketing agency"),
            Some(BusinessModel::Services)
        );
        assert_eq!(interpret("other"), None);
    }
}
