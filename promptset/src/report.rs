//! Reports of a prompt set: CSV tables (RFC 4180) and Markdown.
//!
//! CSV is what analysts open in a spreadsheet, so every text cell that a spreadsheet
//! would execute as a formula (one starting with `=`, `+`, `-`, `@`, a tab or a carriage
//! return) is neutralised with a leading apostrophe, as OWASP recommends for CSV
//! injection. The apostrophe shows in the cell; the text is otherwise unchanged.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Write;

use crate::error::Error;
use crate::model::{FunnelStage, Layer, PromptSet};

/// A CSV table of a prompt set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Table {
    /// One row per prompt, the 15 prompt fields in the format's order.
    #[default]
    Prompts,
    /// One row per topic of the topic map, with its prompt count.
    Topics,
    /// One row per entry of each priority list.
    Priorities,
    /// Prompt counts per topic by layer × funnel stage, with totals.
    Summary,
}

/// The header of the `prompts` table: the prompt fields in the format's order.
pub const PROMPT_COLUMNS: [&str; 15] = [
    "prompt",
    "topic",
    "topic_source",
    "topic_type",
    "layer",
    "funnel_stage",
    "category",
    "product_line",
    "target_customer",
    "business_value",
    "geo_priority",
    "monitoring_value",
    "answer_entry_mode",
    "recommended_asset_type",
    "why_it_matters",
];

/// The UTF-8 byte-order mark that makes Excel read CSV as UTF-8.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Neutralises a cell a spreadsheet would treat as a formula.
pub fn neutralize(cell: &str) -> Cow<'_, str> {
    match cell.as_bytes().first() {
        Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r') => Cow::Owned(format!("'{cell}")),
        _ => Cow::Borrowed(cell),
    }
}

/// Writes `table` of `set` as CSV to `out`, with a byte-order mark first when `bom`.
pub fn write_csv(
    set: &PromptSet<'_>,
    table: Table,
    bom: bool,
    out: impl Write,
) -> Result<(), Error> {
    let mut out = out;
    if bom {
        out.write_all(BOM)?;
    }
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(out);
    match table {
        Table::Prompts => {
            record(&mut writer, PROMPT_COLUMNS)?;
            for p in &set.prompts {
                record(
                    &mut writer,
                    [
                        neutralize(&p.prompt),
                        neutralize(&p.topic),
                        Cow::Borrowed(p.topic_source.as_str()),
                        opt(&p.topic_type),
                        Cow::Borrowed(p.layer.as_str()),
                        Cow::Borrowed(p.funnel_stage.as_str()),
                        neutralize(&p.category),
                        opt(&p.product_line),
                        opt(&p.target_customer),
                        Cow::Borrowed(p.business_value.as_str()),
                        Cow::Borrowed(p.geo_priority.as_str()),
                        Cow::Borrowed(p.monitoring_value.as_str()),
                        neutralize(&p.answer_entry_mode),
                        opt(&p.recommended_asset_type),
                        neutralize(&p.why_it_matters),
                    ],
                )?;
            }
        }
        Table::Topics => {
            let counts = prompt_counts(set);
            record(
                &mut writer,
                [
                    "topic",
                    "topic_source",
                    "topic_type",
                    "related_product_lines",
                    "priority",
                    "why_this_topic_exists",
                    "prompts",
                ],
            )?;
            for t in &set.topic_map {
                let lines = t
                    .related_product_lines
                    .as_deref()
                    .unwrap_or_default()
                    .join("; ");
                let count = counts.get(t.topic.as_ref()).map_or(0, |c| c.total);
                record(
                    &mut writer,
                    [
                        neutralize(&t.topic),
                        Cow::Borrowed(t.topic_source.as_str()),
                        Cow::Borrowed(t.topic_type.as_str()),
                        neutralize(&lines),
                        Cow::Borrowed(t.priority.as_str()),
                        neutralize(&t.why_this_topic_exists),
                        Cow::Owned(count.to_string()),
                    ],
                )?;
            }
        }
        Table::Priorities => {
            record(&mut writer, ["list", "rank", "entry"])?;
            if let Some(lists) = &set.priority_lists {
                let all = [
                    ("top_topics", &lists.top_topics),
                    ("top_non_brand_discovery", &lists.top_non_brand_discovery),
                    (
                        "top_competitor_comparison",
                        &lists.top_competitor_comparison,
                    ),
                    ("top_brand_defense", &lists.top_brand_defense),
                ];
                for (name, list) in all {
                    for (rank, entry) in list.iter().flatten().enumerate() {
                        record(
                            &mut writer,
                            [
                                Cow::Borrowed(name),
                                Cow::Owned((rank + 1).to_string()),
                                neutralize(entry),
                            ],
                        )?;
                    }
                }
            }
        }
        Table::Summary => {
            let mut header = vec![Cow::Borrowed("topic")];
            for layer in Layer::ALL {
                for stage in FunnelStage::ALL {
                    header.push(Cow::Owned(format!("{layer}/{stage}")));
                }
            }
            header.push(Cow::Borrowed("total"));
            record(&mut writer, header)?;
            let counts = prompt_counts(set);
            let mut totals = Counts::default();
            // Topic-map order first, then topics that only prompts name (invalid sets).
            let mut order: Vec<&str> = set.topic_map.iter().map(|t| t.topic.as_ref()).collect();
            for topic in counts.keys() {
                if !order.contains(topic) {
                    order.push(topic);
                }
            }
            for topic in order {
                let counts = counts.get(topic).cloned().unwrap_or_default();
                totals.add(&counts);
                record(&mut writer, counts_row(neutralize(topic), &counts))?;
            }
            record(
                &mut writer,
                counts_row(Cow::Borrowed("(all topics)"), &totals),
            )?;
        }
    }
    writer.flush()?;
    Ok(())
}

/// An optional text cell: empty when absent.
fn opt<'c>(value: &'c Option<Cow<'_, str>>) -> Cow<'c, str> {
    value.as_deref().map_or(Cow::Borrowed(""), neutralize)
}

/// Writes one CSV record of text cells without collecting them first.
fn record<W: Write, S: AsRef<str>>(
    writer: &mut csv::Writer<W>,
    cells: impl IntoIterator<Item = S>,
) -> csv::Result<()> {
    for cell in cells {
        writer.write_field(cell.as_ref())?;
    }
    writer.write_record(None::<&[u8]>)
}

/// Prompt counts of one topic by layer × funnel stage.
#[derive(Debug, Clone, Default)]
pub struct Counts {
    /// `cells[layer][stage]`, in the order of [`Layer::ALL`] and [`FunnelStage::ALL`].
    pub cells: [[usize; 3]; 3],
    /// All prompts of the topic.
    pub total: usize,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        for (row, other_row) in self.cells.iter_mut().zip(other.cells) {
            for (cell, other_cell) in row.iter_mut().zip(other_row) {
                *cell += other_cell;
            }
        }
        self.total += other.total;
    }
}

fn counts_row<'c>(label: Cow<'c, str>, counts: &Counts) -> Vec<Cow<'c, str>> {
    let mut row = vec![label];
    row.extend(
        counts
            .cells
            .iter()
            .flatten()
            .map(|n| Cow::Owned(n.to_string())),
    );
    row.push(Cow::Owned(counts.total.to_string()));
    row
}

/// Counts the prompts of every topic by layer and funnel stage.
pub fn prompt_counts<'s>(set: &'s PromptSet<'_>) -> BTreeMap<&'s str, Counts> {
    let mut counts: BTreeMap<&str, Counts> = BTreeMap::new();
    for p in &set.prompts {
        let entry = counts.entry(p.topic.as_ref()).or_default();
        entry.cells[layer_index(p.layer)][stage_index(p.funnel_stage)] += 1;
        entry.total += 1;
    }
    counts
}

fn layer_index(layer: Layer) -> usize {
    Layer::ALL
        .iter()
        .position(|l| *l == layer)
        .unwrap_or_default()
}

fn stage_index(stage: FunnelStage) -> usize {
    FunnelStage::ALL
        .iter()
        .position(|s| *s == stage)
        .unwrap_or_default()
}

/// Escapes text for a Markdown table cell.
fn md(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
}

/// Writes a Markdown report: summary, layer and funnel counts, topics, priority lists
/// and every prompt.
pub fn write_markdown(set: &PromptSet<'_>, title: &str, out: &mut impl Write) -> Result<(), Error> {
    let summary = &set.client_summary;
    let total = set.prompts.len();
    writeln!(out, "# Prompt set: {}\n", md(&summary.brand_name))?;
    writeln!(out, "_Source: {}_\n", md(title))?;
    writeln!(out, "| | |\n|---|---|")?;
    writeln!(out, "| Brand | {} |", md(&summary.brand_name))?;
    writeln!(out, "| Business model | {} |", md(&summary.business_model))?;
    writeln!(
        out,
        "| Target markets | {} |",
        md(&summary.target_markets.join(", "))
    )?;
    if let Some(lines) = &summary.input_product_lines {
        writeln!(out, "| Product lines | {} |", md(&lines.join(", ")))?;
    }
    if let Some(topics) = &summary.input_topics {
        writeln!(out, "| Input topics | {} |", md(&topics.join(", ")))?;
    }
    writeln!(out, "| Topics | {} |", set.topic_map.len())?;
    writeln!(out, "| Prompts | {total} |\n")?;
    if let Some(inferences) = summary.key_inferences.as_ref().filter(|i| !i.is_empty()) {
        writeln!(out, "## Key inferences\n")?;
        for inference in inferences {
            writeln!(out, "- {}", md(inference))?;
        }
        writeln!(out)?;
    }

    let counts = prompt_counts(set);
    let mut totals = Counts::default();
    counts.values().for_each(|c| totals.add(c));
    writeln!(out, "## Layer mix\n")?;
    writeln!(
        out,
        "| Layer | Declared | Actual | Prompts |\n|---|---|---|---|"
    )?;
    let mix = &set.strategy.layer_mix;
    let declared = [
        &mix.non_brand_discovery,
        &mix.competitor_comparison,
        &mix.brand_defense,
    ];
    for ((layer, declared), row) in Layer::ALL.iter().zip(declared).zip(totals.cells) {
        let n: usize = row.iter().sum();
        writeln!(
            out,
            "| {layer} | {} | {} | {n} |",
            md(declared),
            percent(n, total)
        )?;
    }
    writeln!(out, "\n## Funnel\n")?;
    writeln!(out, "| Layer | TOFU | MOFU | BOFU |\n|---|---|---|---|")?;
    for (layer, row) in Layer::ALL.iter().zip(totals.cells) {
        writeln!(out, "| {layer} | {} | {} | {} |", row[0], row[1], row[2])?;
    }
    if !set.strategy.funnel_notes.is_empty() {
        writeln!(out)?;
        for note in &set.strategy.funnel_notes {
            writeln!(out, "- {}", md(note))?;
        }
    }
    if let Some(assets) = set
        .strategy
        .recommended_assets
        .as_ref()
        .filter(|a| !a.is_empty())
    {
        writeln!(out, "\n## Recommended assets\n")?;
        for asset in assets {
            writeln!(out, "- {}", md(asset))?;
        }
    }

    writeln!(out, "\n## Topics\n")?;
    writeln!(
        out,
        "| Topic | Source | Type | Priority | Prompts | Why |\n|---|---|---|---|---|---|"
    )?;
    for t in &set.topic_map {
        let n = counts.get(t.topic.as_ref()).map_or(0, |c| c.total);
        writeln!(
            out,
            "| {} | {} | {} | {} | {n} | {} |",
            md(&t.topic),
            t.topic_source,
            t.topic_type,
            t.priority,
            md(&t.why_this_topic_exists)
        )?;
    }
    if let Some(lists) = &set.priority_lists {
        writeln!(out, "\n## Priority lists")?;
        let all = [
            ("Top topics", &lists.top_topics),
            ("Top non-brand discovery", &lists.top_non_brand_discovery),
            (
                "Top competitor comparison",
                &lists.top_competitor_comparison,
            ),
            ("Top brand defense", &lists.top_brand_defense),
        ];
        for (name, list) in all {
            if let Some(list) = list.as_ref().filter(|l| !l.is_empty()) {
                writeln!(out, "\n### {name}\n")?;
                for (rank, entry) in list.iter().enumerate() {
                    writeln!(out, "{}. {}", rank + 1, md(entry))?;
                }
            }
        }
    }
    writeln!(out, "\n## Prompts\n")?;
    writeln!(
        out,
        "| # | Prompt | Topic | Layer | Stage | Value | Entry mode |\n|---|---|---|---|---|---|---|"
    )?;
    for (i, p) in set.prompts.iter().enumerate() {
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} |",
            i + 1,
            md(&p.prompt),
            md(&p.topic),
            p.layer,
            p.funnel_stage,
            p.business_value,
            md(&p.answer_entry_mode)
        )?;
    }
    Ok(())
}

fn percent(n: usize, total: usize) -> String {
    if total == 0 {
        "0%".to_owned()
    } else {
        format!("{:.0}%", n as f64 * 100.0 / total as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::neutralize;

    #[test]
    fn neutralizes_formula_cells_only() {
        for cell in ["=SUM(A1)", "+1", "-2", "@cmd", "\tx", "\rx"] {
            assert_eq!(neutralize(cell), format!("'{cell}"));
        }
        for cell in ["plain", "", "a=b", " =x", "'quoted"] {
            assert_eq!(neutralize(cell), cell);
        }
    }
}
