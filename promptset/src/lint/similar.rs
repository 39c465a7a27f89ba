//! Duplicate and near-duplicate prompts, in linear time.
//!
//! Exact duplicates share the same normalised text (case, punctuation and spacing
//! ignored). Near duplicates have content-token sets (see
//! [`super::text::content_tokens`]) with a Jaccard similarity of at least
//! [`NEAR_DUPLICATE_JACCARD`]: `What is the best CRM for small businesses?` and `Which
//! is the best CRM for a small business?` are near duplicates, while the same question
//! for two different markets is not.
//!
//! Comparing every pair would be quadratic, which a 100,000-prompt set cannot afford.
//! Candidates come from MinHash locality-sensitive hashing instead: 32 min-hashes per
//! prompt, cut into 8 bands of 4; prompts that agree on a whole band share a bucket,
//! and only bucket mates are compared exactly. With these numbers a pair at Jaccard 0.8
//! becomes a candidate with probability 0.985 and a pair at 0.3 with probability 0.06.
//! A bucket keeps at most [`BUCKET_REPRESENTATIVES`] members to compare against, so a
//! set full of one template cannot make the work quadratic again; the price is that a
//! near duplicate hiding in an overfull bucket may be missed.

use std::collections::HashMap;

use rayon::prelude::*;

/// The Jaccard similarity of content tokens from which two prompts are near duplicates.
pub const NEAR_DUPLICATE_JACCARD: f64 = 0.8;

/// How many members of one LSH bucket a new prompt is compared against.
pub const BUCKET_REPRESENTATIVES: usize = 12;

const HASHES: usize = 32;
const ROWS: usize = 4;
const BANDS: usize = HASHES / ROWS;

/// What [`find`] learned about each prompt, by index.
#[derive(Debug, Default)]
pub struct Similarity {
    /// For each prompt, the index of the first earlier prompt with the same normalised text.
    pub duplicate_of: Vec<Option<usize>>,
    /// For each prompt that is not an exact duplicate, the first earlier prompt it nearly
    /// duplicates, with their Jaccard similarity.
    pub near_duplicate_of: Vec<Option<(usize, f64)>>,
}

fn hash_str(text: &str) -> u64 {
    // FNV-1a, then a finalizer so that similar strings spread over all bits.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    mix(hash)
}

fn mix(mut x: u64) -> u64 {
    // splitmix64's finalizer.
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Jaccard index of two sorted, deduplicated hash lists (0.0 when both are empty).
pub(crate) fn jaccard(a: &[u64], b: &[u64]) -> f64 {
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    let union = a.len() + b.len() - common;
    if union == 0 {
        0.0
    } else {
        common as f64 / union as f64
    }
}

/// The MinHash signature and LSH band keys of a sorted, deduplicated set of token hashes.
fn signature(hashes: &[u64]) -> ([u64; HASHES], [u64; BANDS]) {
    let mut signature = [u64::MAX; HASHES];
    for &hash in hashes {
        for (slot, seed) in signature.iter_mut().zip(1u64..) {
            let value = mix(hash ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            if value < *slot {
                *slot = value;
            }
        }
    }
    let mut keys = [0u64; BANDS];
    for (band, key) in keys.iter_mut().enumerate() {
        let mut hash = mix(band as u64 + 1);
        for &value in &signature[band * ROWS..(band + 1) * ROWS] {
            hash = mix(hash ^ value);
        }
        *key = hash;
    }
    (signature, keys)
}

/// The number of equal slots of two signatures: an unbiased estimate of their Jaccard
/// similarity (times [`HASHES`]), branch-free and much cheaper than the exact merge.
fn agreeing_slots(a: &[u64; HASHES], b: &[u64; HASHES]) -> usize {
    a.iter().zip(b).map(|(x, y)| usize::from(x == y)).sum()
}

/// Candidates whose signatures agree on fewer slots than this are not compared exactly.
/// At a true Jaccard of 0.8 the estimate from 32 slots has a standard deviation of 0.07,
/// so 0.5 lies more than four deviations below it.
const MIN_AGREEING_SLOTS: usize = HASHES / 2;

/// Finds exact and near duplicates among prompts given as normalised texts and their
/// content tokens (same length, same order).
pub fn find(normalized: &[&str], tokens: &[&[String]]) -> Similarity {
    let count = normalized.len();
    let mut similarity = Similarity {
        duplicate_of: vec![None; count],
        near_duplicate_of: vec![None; count],
    };
    let mut first_by_text: HashMap<&str, usize> = HashMap::with_capacity(count);
    for (index, text) in normalized.iter().enumerate() {
        let first = *first_by_text.entry(text.trim()).or_insert(index);
        if first != index {
            similarity.duplicate_of[index] = Some(first);
        }
    }

    let mut buckets: HashMap<u64, Vec<usize>> = HashMap::new();
    // Hashing and min-hashing are independent per prompt: done in parallel. Only the
    // bucket phase, which depends on prompt order, runs sequentially.
    type Signature = ([u64; HASHES], [u64; BANDS]);
    let prepared: Vec<(Vec<u64>, Option<Signature>)> = tokens
        .par_iter()
        .enumerate()
        .map(|(index, words)| {
            let mut hashes: Vec<u64> = words.iter().map(|w| hash_str(w)).collect();
            hashes.sort_unstable();
            hashes.dedup();
            let keys = (!hashes.is_empty() && similarity.duplicate_of[index].is_none())
                .then(|| signature(&hashes));
            (hashes, keys)
        })
        .collect();
    let mut candidates: Vec<usize> = Vec::new();
    for (index, (hashes, signed)) in prepared.iter().enumerate() {
        let Some((minhashes, keys)) = signed else {
            continue;
        };
        candidates.clear();
        for key in keys {
            if let Some(members) = buckets.get(key) {
                candidates.extend_from_slice(members);
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        for &candidate in &candidates {
            let (other, other_signed) = &prepared[candidate];
            if other_signed
                .as_ref()
                .is_some_and(|(theirs, _)| agreeing_slots(minhashes, theirs) < MIN_AGREEING_SLOTS)
            {
                continue;
            }
            // |A ∩ B| / |A ∪ B| ≤ min / max, so sets of very different sizes cannot match.
            let (small, large) = (hashes.len().min(other.len()), hashes.len().max(other.len()));
            if (small as f64) < NEAR_DUPLICATE_JACCARD * large as f64 {
                continue;
            }
            let score = jaccard(hashes, other);
            if score >= NEAR_DUPLICATE_JACCARD {
                similarity.near_duplicate_of[index] = Some((candidate, score));
                break;
            }
        }
        for &key in keys {
            let members = buckets.entry(key).or_default();
            if members.len() < BUCKET_REPRESENTATIVES {
                members.push(index);
            }
        }
    }
    similarity
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::text::{content_tokens, normalize};

    fn run(prompts: &[&str]) -> Similarity {
        let normalized: Vec<String> = prompts.iter().map(|p| normalize(p)).collect();
        let tokens: Vec<Vec<String>> = normalized.iter().map(|n| content_tokens(n)).collect();
        let texts: Vec<&str> = normalized.iter().map(String::as_str).collect();
        let token_refs: Vec<&[String]> = tokens.iter().map(Vec::as_slice).collect();
        find(&texts, &token_refs)
    }

    #[test]
    fn finds_exact_and_near_duplicates() {
        let found = run(&[
            "What is the best CRM for small businesses?",
            "what is the best crm for small businesses",
            "Which is the best CRM for a small business?",
            "What is the best CRM for startups in Germany?",
            "What is the best CRM for startups in France?",
        ]);
        assert_eq!(found.duplicate_of, vec![None, Some(0), None, None, None]);
        assert_eq!(found.near_duplicate_of[2].map(|(i, _)| i), Some(0));
        assert_eq!(found.near_duplicate_of[3], None);
        assert_eq!(found.near_duplicate_of[4], None);
    }

    #[test]
    fn distinct_prompts_are_left_alone() {
        let prompts: Vec<String> = (0..2000)
            .map(|i| {
                format!(
                    "How does vendor{i} handle topic{} for segment{}?",
                    i * 7 % 1000,
                    i * 13 % 997
                )
            })
            .collect();
        let refs: Vec<&str> = prompts.iter().map(String::as_str).collect();
        let found = run(&refs);
        assert!(found.duplicate_of.iter().all(Option::is_none));
        assert!(found.near_duplicate_of.iter().all(Option::is_none));
    }
}
