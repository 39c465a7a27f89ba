//! Facts about the offer that decide which questions fit it: whether a customer buys
//! goods that last or are used up, subscribes, hires a firm for a job or on retainer,
//! books a session, buys second-hand goods from other people, rents equipment or gives
//! to a cause; and whether the buyers are people or businesses.
//!
//! The readings of issue 8 on clients the templates had never seen rejected most
//! prompts for frames from another business: spare parts and repairs for anchors, a
//! free trial of an electricity plan, "hidden costs" of a monthly donation, a factory
//! acceptance test for a family's cargo bike, used cars cast as hosts with house rules.
//! A template line that assumes one of these facts asks for it by name
//! (`offer_kind == "durable-goods"`, `buyers == "consumers"`); a fact the brief does not
//! state and the words of the brief do not show stays unknown, and such lines stay out.

use std::borrow::Cow;

use crate::brief::{Brief, BusinessModel, Buyers, OfferKind};

/// The offer facts of one brief.
#[derive(Debug, Clone, Default)]
pub struct OfferFacts {
    /// The kind of the whole offer, when known.
    pub kind: Option<OfferKind>,
    /// The kind of each of the brief's product lines, by index, when known.
    pub lines: Vec<Option<OfferKind>>,
    /// Who buys, when known.
    pub buyers: Option<Buyers>,
}

impl OfferFacts {
    /// The kind of the product line named `line` (any case), else of the whole offer.
    pub fn kind_of(&self, brief: &Brief, line: Option<&str>) -> Option<OfferKind> {
        // A line's entry already holds the offer's kind where the line shows none of its
        // own, and no kind where it shows it is none of the offer's (a rescue's adoptions
        // are no donations).
        match line.and_then(|line| {
            brief
                .core_product_lines
                .iter()
                .position(|l| l.name.trim().eq_ignore_ascii_case(line.trim()))
        }) {
            Some(index) => self.lines.get(index).copied().flatten(),
            None => self.kind,
        }
    }
}

/// Reads the facts from the brief, or infers them from its words, and says in
/// `inferences` what was inferred and how to state it instead.
pub fn facts(brief: &Brief, offer: &str, inferences: &mut Vec<String>) -> OfferFacts {
    let category = brief
        .optional_context
        .get("category")
        .and_then(|v| v.as_str())
        .unwrap_or_default();
    // `regional producing theatre (registered charity)`: an aside tells the legal form, not
    // what customers get (theatre tickets, not donations).
    let category = crate::generate::text::plain_label(category);
    let whole = brief.offer_kind.or_else(|| {
        infer_kind(brief.business_model, &format!("{offer} {category}")).or_else(|| {
            // Every line of one kind makes the offer that kind.
            let kinds: Vec<Option<OfferKind>> = brief
                .core_product_lines
                .iter()
                .map(|line| infer_kind(brief.business_model, &line.name))
                .collect();
            match kinds.first() {
                Some(Some(first)) if kinds.iter().all(|k| *k == Some(*first)) => Some(*first),
                _ => None,
            }
        })
    });
    let lines: Vec<Option<OfferKind>> = brief
        .core_product_lines
        .iter()
        .map(|line| {
            // A kind the brief states for the whole offer holds for every line that
            // states none.
            line.offer_kind
                .or(brief.offer_kind)
                .or_else(|| infer_kind(brief.business_model, &line.name))
                .or(whole.filter(|_| !is_pet_adoption(&line.name)))
        })
        .collect();
    // A donation the brief pays for (`Paid plasma donation`, `Donating plasma for money`)
    // is a paid visit, not a gift: no charity questions for it, whatever its lines say.
    let paid = {
        let texts = brief.offer_labels_lower();
        // Word starts: `unpaid` and `prepaid` are no pay.
        texts.iter().any(|t| {
            ["paid", "for money", "compensation"]
                .iter()
                .any(|w| mentions(t, w))
        })
    };
    // Only an inferred kind: a kind the brief states holds.
    let not_gift = |kind: Option<OfferKind>| kind.filter(|k| !(paid && *k == OfferKind::Donation));
    let whole = if brief.offer_kind.is_some() {
        whole
    } else {
        not_gift(whole)
    };
    let lines: Vec<Option<OfferKind>> = lines
        .into_iter()
        .zip(&brief.core_product_lines)
        .map(|(kind, line)| {
            if line.offer_kind.is_some() || brief.offer_kind.is_some() {
                kind
            } else {
                not_gift(kind)
            }
        })
        .collect();
    let buyers = brief.buyers.or_else(|| infer_buyers(brief));
    let mut said = Vec::new();
    // Content is read and followed, never bought as goods: its own facts (sources,
    // opinion, how-to) decide its questions.
    if brief.offer_kind.is_none() && brief.business_model != BusinessModel::ContentMedia {
        said.push(match whole {
            Some(kind) => format!("the offer as {}", kind.as_str()),
            None => "the kind of offer as unknown".to_owned(),
        });
    }
    let differs: Vec<String> = brief
        .core_product_lines
        .iter()
        .zip(&lines)
        .filter(|(line, kind)| line.offer_kind.is_none() && **kind != whole)
        .filter_map(|(line, kind)| {
            kind.map(|kind| format!("`{}` as {}", line.name.trim(), kind.as_str()))
        })
        .collect();
    said.extend(differs);
    if !said.is_empty() {
        inferences.push(format!(
            "questions that assume what customers get (warranties, renewals, quotes, bookings, donations) follow {} (set `offer_kind`, or `core_product_lines[].offer_kind`, to correct it)",
            said.join(", ")
        ));
    }
    if brief.buyers.is_none() {
        inferences.push(match buyers {
            Some(buyers) => format!(
                "buyers read as {} from `target_customers` (set `buyers` to correct it)",
                buyers.as_str()
            ),
            None => "whether buyers are consumers or businesses is unknown; questions that assume either stay out (set `buyers`)".to_owned(),
        });
    }
    OfferFacts {
        kind: whole,
        lines,
        buyers,
    }
}

/// Whether a line is adopting an animal to take home (`dog and cat adoption`), which a
/// rescue offers beside its donations but is no gift: symbolic adoptions (`adopt a
/// penguin`) name no pet.
fn is_pet_adoption(words: &str) -> bool {
    has_word(words, &["adopt"])
        && has_noun(
            words,
            &[
                "dog", "cat", "pet", "puppy", "puppie", "kitten", "rabbit", "horse",
            ],
        )
}

/// Whether `words` (in any case) contains one of `stems` as a word, its plural, a cut
/// root's ending (`compan` in `company`, `famil` in `families`) or a compound it starts
/// (`treats`, `refillable`, `teabags`), but not a longer word of two more letters
/// (`teams`, `care`) or the name of what works with it (`seeders`): a seeder sows seed
/// and lasts for years.
/// A stem of two words (`owners of`) is never in one word, so it finds nothing.
fn has_word(words: &str, stems: &[&str]) -> bool {
    let in_word = |c: char| c.is_alphanumeric() || c == '-';
    let lower = words.to_lowercase();
    stems.iter().any(|stem| {
        stem.chars().all(in_word)
            && word_starts(&lower, stem, in_word).any(|rest| {
                matches!(rest, "" | "s" | "es" | "y" | "ies")
                    || (rest.len() >= 3 && !matches!(rest, "ers" | "er"))
            })
    })
}

/// Whether `text` (in any case) has a word that starts with `needle`: the test
/// `mentions` of the templates (`{% if offer is mentions("tax") %}`). A word starts at
/// the start of the text or after a character that is not a letter or digit, so `tax`
/// is in `Tax returns` and `VAT/tax filing` but not in `syntax`, `dent` in `dental` but
/// not in `student`. Only the needle's start falls on a word boundary: a cut stem finds
/// its words (`bookkeep` in `bookkeeping`, `migrat` in `data migration`), and so does a
/// whole word (`tax` in `taxis`), and a needle of several words is a phrase (`law firm`
/// in `Boutique law firms`).
pub fn mentions(text: &str, needle: &str) -> bool {
    fn lower(s: &str) -> Cow<'_, str> {
        if s.chars().any(char::is_uppercase) {
            Cow::Owned(s.to_lowercase())
        } else {
            Cow::Borrowed(s)
        }
    }
    let (text, needle) = (lower(text), lower(needle));
    word_starts(&text, &needle, char::is_alphanumeric)
        .next()
        .is_some()
}

/// The rest of each word of `lower` that starts with `stem`, a word being a run of the
/// characters `in_word` accepts (`ing` for `charg` in `EV charging`): `stem` must start
/// where a word does and may run on over several words.
fn word_starts<'a>(
    lower: &'a str,
    stem: &'a str,
    in_word: fn(char) -> bool,
) -> impl Iterator<Item = &'a str> + 'a {
    let mut before = None;
    lower.char_indices().filter_map(move |(at, c)| {
        let starts = !before.is_some_and(in_word);
        before = Some(c);
        let rest = lower[at..].strip_prefix(stem).filter(|_| starts)?;
        Some(&rest[..rest.find(|c: char| !in_word(c)).unwrap_or(rest.len())])
    })
}

/// Whether `words` contains one of `nouns` exactly, or its plural in `s`.
fn has_noun(words: &str, nouns: &[&str]) -> bool {
    let lower = words.to_lowercase();
    lower
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .any(|word| {
            nouns
                .iter()
                .any(|noun| word == *noun || word.strip_suffix('s') == Some(noun))
        })
}

/// The kind of offer the words of a name show, for a business of `model`.
pub fn infer_kind(model: BusinessModel, words: &str) -> Option<OfferKind> {
    use OfferKind::*;
    const DONATION: &[&str] = &[
        "charit",
        "donat",
        "conservation",
        "fundrais",
        "sponsor-a",
        "adopt",
        "volunteer",
        "nonprofit",
        "non-profit",
    ];
    const SECOND_HAND: &[&str] = &[
        "used",
        "second-hand",
        "secondhand",
        "pre-owned",
        "preowned",
        "resale",
        "vintage",
        "refurbished",
    ];
    const GOODS: &[&str] = &[
        "car",
        "vehicle",
        "furniture",
        "clothes",
        "clothing",
        "item",
        "goods",
        "bike",
        "collectible",
        "phone",
        "electronics",
        "motorbike",
        "motorcycle",
        "antique",
        // Things made by hand and sold by their makers (`handmade crafts`, `brass idols`).
        "handmade",
        "craft",
        "handicraft",
        "decor",
        "homeware",
        "textile",
        "art",
        "artwork",
        "jewellery",
        "jewelry",
        "pottery",
        "ceramic",
        "furnishing",
        "toy",
        "rug",
        "carpet",
        "idol",
        // Animals and their gear sold through classifieds (`ponies for sale`, `tack`).
        "horse",
        "pony",
        "ponies",
        "livestock",
        "puppy",
        "puppies",
        "tack",
        "saddle",
        "saddlery",
        "float",
    ];
    const RENTAL: &[&str] = &["rental", "rent", "hire", "leasing"];
    const EQUIPMENT: &[&str] = &[
        "equipment",
        "machine",
        "machinery",
        "tool",
        "plant",
        "excavator",
        "vehicle",
        "van",
        "truck",
        "generator",
        "scaffold",
        "car",
        "bike",
        "boat",
        "camper",
        "motorhome",
        "caravan",
        "scooter",
    ];
    const CONSUMABLE: &[&str] = &[
        "food",
        "treat",
        "snack",
        "tea",
        "coffee",
        "drink",
        "skincare",
        "skin-care",
        "cosmetic",
        "makeup",
        "serum",
        "cream",
        "lotion",
        "soap",
        "shampoo",
        "supplement",
        "vitamin",
        "packaging",
        "container",
        "cup",
        "label",
        "glove",
        "wipe",
        "filter",
        "ink",
        "fertiliser",
        "fertilizer",
        "seed",
        "candle",
        "oil",
        "sauce",
        "spice",
        "consumable",
        "disposable",
        "refill",
        "pet food",
        "kibble",
        "nappies",
        "diaper",
    ];
    const DURABLE: &[&str] = &[
        "bike",
        "bicycle",
        "oven",
        "fryer",
        "griddle",
        "appliance",
        "furniture",
        "sofa",
        "mattress",
        "bed",
        "pump",
        "valve",
        "inverter",
        "compressor",
        "boiler",
        "motor",
        "engine",
        "machine",
        "machinery",
        "equipment",
        "tool",
        "vehicle",
        "car",
        "van",
        "scooter",
        "laptop",
        "phone",
        "watch",
        "glasses",
        "eyewear",
        "camera",
        "headphone",
        "speaker",
        "battery",
        "charger",
        "robot",
        "printer",
        "tent",
        "stroller",
        "pram",
        "cookware",
        "knife",
        "knives",
        "helmet",
        "luggage",
        "suitcase",
        // Farm and garden machines.
        "tractor",
        "seeder",
        "tiller",
        "plough",
        "plow",
        "harrow",
        "mower",
        "rotavator",
        "cultivator",
        "sprayer",
        "trailer",
    ];
    const SUBSCRIPTION: &[&str] = &[
        "plan",
        "membership",
        "subscription",
        "permit",
        "tariff",
        "broadband",
        "electricity",
        "energy",
        "insurance",
        "pass",
        "season-ticket",
        "contract",
    ];
    const ONGOING: &[&str] = &[
        "managed",
        "retainer",
        "outsourc",
        "bookkeeping",
        "payroll",
        "monitoring",
        "maintenance",
        "support",
        "ongoing",
        "monthly",
        "cleaning",
    ];
    const PROJECT: &[&str] = &[
        "project",
        "audit",
        "test",
        "testing",
        "migration",
        "translation",
        "locali",
        "moving",
        "removal",
        "relocation",
        "renovation",
        "installation",
        "design",
        "visa",
        "application",
        "wedding",
        "photograph",
        "recruit",
        "hiring",
        "implementation",
        // Trades hired for one job at a property (`tree surgery`, `roofing`).
        "tree",
        "felling",
        "stump",
        "roofing",
        "landscaping",
        "paving",
        "fencing",
        "survey",
        "refurbishment",
    ];
    const BOOKING: &[&str] = &[
        "lesson",
        "class",
        "course",
        "session",
        "appointment",
        "tutor",
        "sitting",
        "walking",
        "stay",
        "stays",
        "parking",
        "holiday",
        "rooms",
        "apartment",
        "cabin",
        "booking",
        "treatment",
        "massage",
        "consultation",
        "tour",
        "trip",
    ];
    match model {
        BusinessModel::Saas => Some(Software),
        BusinessModel::ContentMedia => None,
        BusinessModel::Marketplace => {
            if has_word(words, RENTAL) && has_word(words, EQUIPMENT) {
                Some(Rental)
            } else if has_word(words, SECOND_HAND) {
                Some(SecondHandGoods)
            } else if has_noun(words, GOODS) {
                // New goods from many sellers (`handmade goods`): bought, not booked.
                Some(DurableGoods)
            } else if has_word(words, BOOKING) {
                Some(Booking)
            } else {
                None
            }
        }
        BusinessModel::Services => {
            // `Post-construction cleaning` is one job though cleaning is often ongoing.
            const ONE_OFF: &[&str] = &[
                "one-off",
                "post-construction",
                "end-of-tenancy",
                "deep",
                "move-out",
                "move-in",
                "after-builders",
                "emergency",
            ];
            if has_word(words, ONE_OFF) {
                Some(ProjectService)
            } else if has_word(words, ONGOING) {
                Some(OngoingService)
            } else if has_word(words, PROJECT) {
                Some(ProjectService)
            } else if has_word(words, BOOKING) {
                Some(Booking)
            } else {
                None
            }
        }
        BusinessModel::Ecommerce | BusinessModel::Manufacturer => {
            // `Coffee subscriptions` are subscribed to, whatever the goods.
            if has_noun(words, &["subscription", "club"]) {
                Some(Subscription)
            } else if has_word(words, CONSUMABLE) && !has_word(words, &["machine", "machinery"]) {
                Some(ConsumableGoods)
            } else if has_word(words, DURABLE) {
                Some(DurableGoods)
            } else {
                None
            }
        }
        BusinessModel::Other => {
            if has_word(words, DONATION) && !is_pet_adoption(words) {
                Some(Donation)
            } else if has_noun(words, SUBSCRIPTION) {
                Some(Subscription)
            } else if has_word(words, BOOKING) {
                Some(Booking)
            } else {
                None
            }
        }
    }
}

/// Whether the brief's target customers are people or businesses, when their words
/// say so and agree.
fn infer_buyers(brief: &Brief) -> Option<Buyers> {
    const BUSINESS: &[&str] = &[
        "business",
        "compan",
        "firm",
        "team",
        "manager",
        "director",
        "procurement",
        "engineer",
        "contractor",
        "operator",
        "practice",
        "clinic",
        "agenc",
        "retailer",
        "restaurant",
        "hotel",
        "school",
        "brand",
        "startup",
        "enterprise",
        "organisation",
        "organization",
        "factory",
        "manufacturer",
        "installer",
        "distributor",
        "wholesaler",
        "fleet",
        "cfo",
        "cto",
        "hr",
        "leads",
        "owners of",
        "chain",
        "caterer",
        "caterers",
        "kitchen",
        "corporate",
        "charities",
        "publisher",
        "developer",
        "marketer",
    ];
    const PEOPLE: &[&str] = &[
        "people",
        "parent",
        "famil",
        "homeowner",
        "household",
        "adult",
        "men",
        "women",
        "student",
        "traveller",
        "traveler",
        "couple",
        "senior",
        "retiree",
        "renter",
        "tenant",
        "commuter",
        "driver",
        "owner",
        "lover",
        "reader",
        "listener",
        "hiker",
        "runner",
        "beginner",
        "first-time",
        "child",
        "children",
        "teen",
        "gamer",
        "shopper",
        "consumer",
        "individual",
        "patient",
        "supporter",
        "donor",
        "gardener",
        "sleeper",
        "pet",
        "dog",
        "cat",
        "home",
    ];
    const BUSINESS_NOUNS: &[&str] = &["shop", "store", "shops", "stores"];
    const PEOPLE_NOUNS: &[&str] = &["men", "women", "mum", "mom", "dad", "kid", "fan", "cook"];
    let mut business = false;
    let mut people = false;
    for customer in &brief.target_customers {
        let lower = customer.to_lowercase();
        let is_business =
            has_word(&lower, BUSINESS) || has_noun(&lower, BUSINESS_NOUNS) || lower.contains("b2b");
        if is_business {
            business = true;
        } else if has_word(&lower, PEOPLE) || has_noun(&lower, PEOPLE_NOUNS) {
            people = true;
        }
    }
    match (people, business) {
        (true, false) => Some(Buyers::Consumers),
        (false, true) => Some(Buyers::Businesses),
        (true, true) => Some(Buyers::Both),
        (false, false) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_follow_the_words_of_the_offer() {
        use OfferKind::*;
        let kind = infer_kind;
        assert_eq!(kind(BusinessModel::Manufacturer, "Concrete anchors"), None);
        // Cut roots keep their endings; a seeder sows seed; a refillable spray is still
        // used up.
        assert!(has_word("Small agency owners", &["agenc"]));
        assert!(has_word("Growing families", &["famil"]));
        assert!(has_word("A family of four", &["famil"]));
        assert!(has_word("Product photography", &["photograph"]));
        assert!(has_word("Software companies", &["compan"]));
        assert!(!has_word("Sales teams", &["tea"]));
        assert!(!has_word("Plant care kits", &["car"]));
        assert!(has_word("Sponsor-a-tree gifts", &["sponsor-a"]));
        assert!(!has_word("Pre-owned cars", &["owned"]));
        assert!(!has_word("Owners of campervans", &["owners of"]));
        assert_eq!(
            kind(BusinessModel::Manufacturer, "Super seeders"),
            Some(DurableGoods)
        );
        assert_eq!(
            kind(BusinessModel::Ecommerce, "Refillable cleaning sprays"),
            Some(ConsumableGoods)
        );
        assert_eq!(
            kind(BusinessModel::Manufacturer, "Electric cargo bikes"),
            Some(DurableGoods)
        );
        assert_eq!(
            kind(BusinessModel::Manufacturer, "packaging machinery"),
            Some(DurableGoods)
        );
        assert_eq!(
            kind(BusinessModel::Ecommerce, "Ayurvedic skincare"),
            Some(ConsumableGoods)
        );
        assert_eq!(
            kind(BusinessModel::Marketplace, "used cars"),
            Some(SecondHandGoods)
        );
        assert_eq!(
            kind(BusinessModel::Marketplace, "handmade goods"),
            Some(DurableGoods)
        );
        assert_eq!(
            kind(BusinessModel::Marketplace, "peer-to-peer car rental"),
            Some(Rental)
        );
        assert_eq!(
            kind(BusinessModel::Marketplace, "construction equipment rental"),
            Some(Rental)
        );
        assert_eq!(
            kind(BusinessModel::Other, "Monthly donations"),
            Some(Donation)
        );
        assert_eq!(
            kind(BusinessModel::Other, "Adopt a penguin"),
            Some(Donation)
        );
        assert_eq!(kind(BusinessModel::Other, "Dog and cat adoption"), None);
        assert_eq!(
            kind(BusinessModel::Marketplace, "Ponies for sale"),
            Some(OfferKind::DurableGoods)
        );
        assert_eq!(
            kind(BusinessModel::Other, "Residential electricity plans"),
            Some(Subscription)
        );
        assert_eq!(
            kind(BusinessModel::Services, "Managed detection and response"),
            Some(OngoingService)
        );
        assert_eq!(
            kind(BusinessModel::Services, "Penetration testing"),
            Some(ProjectService)
        );
        assert_eq!(kind(BusinessModel::Services, "Tax advice"), None);
        assert_eq!(
            kind(BusinessModel::Services, "Post-construction cleaning"),
            Some(ProjectService)
        );
        assert_eq!(
            kind(BusinessModel::Services, "Office cleaning"),
            Some(OngoingService)
        );
        assert_eq!(kind(BusinessModel::Saas, "anything"), Some(Software));
    }

    #[test]
    fn mentions_finds_words_that_start_with_the_needle() {
        // A word, in any case, at the start or after any non-alphanumeric character.
        assert!(mentions("Tax returns", "tax"));
        assert!(mentions("VAT/tax filing", "tax"));
        assert!(mentions("self-assessment TAX", "tax"));
        assert!(mentions("Dental clinics", "dent"));
        assert!(mentions("Pet care", "PET"));
        // Not inside a word.
        assert!(!mentions("Syntax checks", "tax"));
        assert!(!mentions("Student housing", "dent"));
        assert!(!mentions("Window replacement", "placement"));
        assert!(!mentions("Roof repairs", "pair"));
        // A stem finds every word it starts, so `tax` is in `taxis`: a template that
        // means taxes says `is mentions("tax") and is not mentions("taxi")`.
        assert!(mentions("Airport taxis", "tax"));
        assert!(mentions("Airport taxis", "taxi"));
        assert!(!mentions("Tax returns", "taxi"));
        assert!(mentions("Cloud data migration", "migrat"));
        assert!(mentions("Freelancers", "freelanc"));
        assert!(mentions("Small-business bookkeeping", "bookkeep"));
        assert!(mentions("Boutique law firms", "law firm"));
        assert!(mentions("Help setting up payroll", "setting up"));
        assert!(!mentions("Outlaw firmware", "law firm"));
        assert!(!mentions("Resetting up front", "setting up"));
        // A needle that ends in a space ends its word too.
        assert!(mentions("Home EV chargers", "home "));
        assert!(!mentions("Motorhome hire", "home "));
        assert!(!mentions("Homeware", "home "));
        // A later occurrence counts where it starts a word.
        assert!(mentions("Accidental dents", "dent"));
        assert!(!mentions("Accident", "dent"));
        assert!(!mentions("", "tax"));
    }
}
