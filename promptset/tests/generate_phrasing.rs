//! Phrasing rules every generated set keeps, checked over every fixture brief: markets
//! read as places, channels are not used as shops, audiences are not pasted, plural
//! labels are not used as modifiers, mass nouns agree, no doubled words or tautologies.

use std::path::{Path, PathBuf};

use promptset::brief::{Brief, BriefFormat, BusinessModel, ChannelKind, parse_brief};
use promptset::generate::phrasing::{channel_kind, is_global};
use promptset::generate::{Generator, Options};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every fixture brief with its English prompts.
fn generated() -> Vec<(String, Brief, Vec<String>)> {
    let generator = Generator::new(None).expect("built-in templates compile");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("fixtures/briefs"))
        .expect("fixtures/briefs exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| promptset::brief::is_brief_path(p))
        .collect();
    paths.sort();
    assert!(paths.len() >= 23, "two new briefs per business model");
    paths
        .into_iter()
        .filter_map(|path| {
            let bytes = std::fs::read(&path).expect("readable");
            let brief = parse_brief(&bytes, BriefFormat::from_path(&path))
                .unwrap_or_else(|d| panic!("{}: {d:#?}", path.display()));
            let generated = generator
                .generate(&brief, &Options::default())
                .expect("generates");
            (generated.language == "en").then(|| {
                let prompts = generated
                    .set
                    .prompts
                    .iter()
                    .map(|p| p.prompt.to_string())
                    .collect();
                let name = path.file_name().unwrap_or_default().to_string_lossy();
                (name.into_owned(), brief, prompts)
            })
        })
        .collect()
}

fn kind_of(brief: &Brief, channel: &str) -> ChannelKind {
    brief
        .channel_kinds
        .get(channel)
        .copied()
        .unwrap_or_else(|| channel_kind(channel))
}

#[test]
fn every_business_model_has_three_briefs() {
    let sets = generated();
    for model in BusinessModel::ALL {
        let count = sets
            .iter()
            .filter(|(_, b, _)| b.business_model == *model)
            .count();
        assert!(count >= 3, "{model}: {count} English briefs");
    }
}

#[test]
fn markets_are_places_and_channels_are_not_shops() {
    for (name, brief, prompts) in generated() {
        for prompt in &prompts {
            let lower = prompt.to_lowercase();
            for market in brief.target_markets.iter().filter(|m| is_global(m)) {
                let market = market.to_lowercase();
                for bad in [format!("in {market}"), format!("in the {market}")] {
                    assert!(!lower.contains(&bad), "{name}: `{prompt}` uses `{bad}`");
                }
            }
            for channel in &brief.priority_channels {
                let kind = kind_of(&brief, channel);
                let channel = channel.to_lowercase();
                // Only marketplaces, app stores, review sites, listings and social
                // platforms are places something is "on"; none of the others is named
                // as a place at all (they are phrased by what they are).
                if !matches!(
                    kind,
                    ChannelKind::Marketplace
                        | ChannelKind::AppStore
                        | ChannelKind::ReviewSite
                        | ChannelKind::LocalListing
                        | ChannelKind::Social
                ) {
                    // People buy through distributors and see products at trade
                    // shows; nobody buys "on Distributors" or "on Own website".
                    let wrong: &[&str] = match kind {
                        ChannelKind::Distributor | ChannelKind::Referral => &["on", "at", "in"],
                        ChannelKind::TradeShow => &["on", "in", "from", "through", "via"],
                        ChannelKind::Retailer | ChannelKind::Other => &["on"],
                        _ => &["on", "at", "in", "from", "through", "via"],
                    };
                    for preposition in wrong {
                        let bad = format!("{preposition} {channel}");
                        assert!(
                            !lower.contains(&bad),
                            "{name}: `{prompt}` names the {} channel `{channel}` as a place",
                            kind.as_str()
                        );
                    }
                }
                if kind != ChannelKind::Marketplace && kind != ChannelKind::Retailer {
                    for verb in ["buy", "order"] {
                        let bad = format!("{verb} ");
                        let shop = format!(" on {channel}");
                        assert!(
                            !(lower.contains(&bad) && lower.contains(&shop)),
                            "{name}: `{prompt}` buys on `{channel}`, which is no shop"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn audiences_are_short_and_labels_are_nouns() {
    for (name, brief, prompts) in generated() {
        for prompt in &prompts {
            let lower = prompt.to_lowercase();
            for customer in &brief.target_customers {
                if customer.split_whitespace().count() > 5 {
                    assert!(
                        !lower.contains(&customer.to_lowercase()),
                        "{name}: `{prompt}` pastes the audience `{customer}`"
                    );
                }
            }
            for line in &brief.core_product_lines {
                let label = line.name.to_lowercase();
                // A plural label (`trail running shoes`) is not a modifier; a mass noun
                // that ends in s (`product analytics`) is (`product analytics vendors`).
                let mass = ["analytics", "logistics", "news", "fitness", "business"]
                    .iter()
                    .any(|word| label.ends_with(word));
                if label.ends_with('s') && !label.ends_with("ss") && !mass {
                    for next in [
                        "brands",
                        "options",
                        "vendors",
                        "manufacturers",
                        "suppliers",
                        "apps",
                        "sites",
                    ] {
                        let bad = format!("{label} {next}");
                        assert!(!lower.contains(&bad), "{name}: `{prompt}` uses `{bad}`");
                    }
                }
                assert!(
                    !lower.contains("mens ") && !lower.contains("womens "),
                    "{name}: `{prompt}` lacks an apostrophe"
                );
            }
        }
    }
}

#[test]
fn grammar_holds() {
    const MASS: &[&str] = &["software", "analytics", "packaging", "advice", "charging"];
    for (name, brief, prompts) in generated() {
        for prompt in &prompts {
            let lower = prompt.to_lowercase();
            let words: Vec<&str> = lower
                .split(|c: char| !c.is_alphanumeric() && c != '\'' && c != '-')
                .filter(|w| !w.is_empty())
                .collect();
            for (index, pair) in words.windows(2).enumerate() {
                assert!(
                    pair[0] != pair[1],
                    "{name}: `{prompt}` doubles `{}`",
                    pair[0]
                );
                // `sites for personal finance advice are` agrees with `sites`.
                let in_post_modifier = words[index.saturating_sub(4)..index]
                    .iter()
                    .any(|w| ["for", "of", "about", "on", "with"].contains(w));
                assert!(
                    !(MASS.contains(&pair[0]) && pair[1] == "are" && !in_post_modifier),
                    "{name}: `{prompt}`: mass noun `{}` with `are`",
                    pair[0]
                );
                assert!(
                    !(pair[0] == "a" && pair[1] == "the"),
                    "{name}: `{prompt}`: `a the`"
                );
            }
            assert!(
                !lower.contains("mean when comparing"),
                "{name}: `{prompt}` is a tautology"
            );
            assert!(
                !lower.contains("  ") && !lower.contains(" ?") && !lower.contains(" ,"),
                "{name}: `{prompt}` has stray spaces"
            );
            if brief.business_model == BusinessModel::Marketplace {
                assert!(
                    !lower.contains("marketplaces"),
                    "{name}: `{prompt}` treats marketplaces as what users book"
                );
            }
            if brief.business_model != BusinessModel::Ecommerce {
                for goods in ["delivered", "warranty and returns", "in stock"] {
                    assert!(
                        !lower.contains(goods)
                            || brief.business_model == BusinessModel::Manufacturer,
                        "{name}: `{prompt}` frames a {} offer as shipped goods",
                        brief.business_model
                    );
                }
            }
        }
    }
}
