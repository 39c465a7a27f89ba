//! Maps JSON pointers to line:column positions in the source text.
//!
//! Parsers that build values (serde_json) drop positions, and validation errors name
//! values by JSON pointer. This module finds those values again in the source with a
//! small scanner: one pass over the document for any number of pointers, descending
//! only into the members and items that lead to a wanted pointer and skipping the
//! rest at byte speed. It is used only when a document has findings, so valid
//! documents never pay for it.
//!
//! The scanner is iterative (no recursion over the document), so hostile nesting
//! cannot overflow the stack, and it never panics on malformed text: positions it
//! cannot resolve fall back to the deepest value it did find.

use std::cell::OnceCell;
use std::collections::HashMap;

/// Finds line:column positions of JSON pointers in one source text.
pub struct Locator<'a> {
    source: &'a str,
    line_starts: OnceCell<Vec<usize>>,
}

/// A 1-based line and column (columns count characters, not bytes).
pub type Position = (usize, usize);

impl<'a> Locator<'a> {
    /// Prepares to locate values in `source`.
    pub fn new(source: &'a str) -> Self {
        Locator {
            source,
            line_starts: OnceCell::new(),
        }
    }

    /// The position of the value at `pointer` (RFC 6901); the document start for `""`.
    pub fn locate(&self, pointer: &str) -> Position {
        self.locate_many(&[pointer])[0]
    }

    /// The positions of the values at `pointers`, in one pass over the document.
    pub fn locate_many(&self, pointers: &[&str]) -> Vec<Position> {
        let offsets = self.offsets(pointers);
        offsets
            .into_iter()
            .map(|offset| self.position(offset))
            .collect()
    }

    /// The byte offsets of the values at `pointers`.
    pub fn offsets(&self, pointers: &[&str]) -> Vec<usize> {
        let mut trie = Trie::default();
        for (index, pointer) in pointers.iter().enumerate() {
            trie.insert(index, pointer);
        }
        let start = skip_whitespace(self.source.as_bytes(), 0);
        let mut found = vec![start; pointers.len()];
        Scanner {
            bytes: self.source.as_bytes(),
        }
        .walk(start, &trie, 0, &mut found);
        found
    }

    /// The 1-based line and column of a byte offset.
    pub fn position(&self, offset: usize) -> Position {
        let line_starts = self.line_starts.get_or_init(|| {
            let mut starts = vec![0];
            starts.extend(memchr::memchr_iter(b'\n', self.source.as_bytes()).map(|i| i + 1));
            starts
        });
        let offset = offset.min(self.source.len());
        let line = line_starts.partition_point(|&start| start <= offset);
        let line_start = line_starts[line - 1];
        let column = self
            .source
            .get(line_start..offset)
            .map_or(offset - line_start, |text| text.chars().count())
            + 1;
        (line, column)
    }
}

/// Splits a JSON pointer into unescaped reference tokens.
pub fn pointer_tokens(pointer: &str) -> Vec<String> {
    if pointer.is_empty() {
        return Vec::new();
    }
    pointer
        .strip_prefix('/')
        .unwrap_or(pointer)
        .split('/')
        .map(|token| token.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// Escapes one reference token for a JSON pointer.
pub fn escape_token(token: &str) -> String {
    if token.contains(['~', '/']) {
        token.replace('~', "~0").replace('/', "~1")
    } else {
        token.to_owned()
    }
}

#[derive(Default)]
struct Trie {
    children: HashMap<String, Trie>,
    /// Indices of the pointers that end at this node.
    ends: Vec<usize>,
}

impl Trie {
    fn insert(&mut self, index: usize, pointer: &str) {
        let mut node = self;
        for token in pointer_tokens(pointer) {
            node = node.children.entry(token).or_default();
        }
        node.ends.push(index);
    }

    /// Records `offset` for this node and every pointer below it, so that a pointer
    /// whose target is missing falls back to its deepest existing ancestor.
    fn record(&self, offset: usize, found: &mut [usize]) {
        for &index in &self.ends {
            found[index] = offset;
        }
        for child in self.children.values() {
            child.record(offset, found);
        }
    }
}

struct Scanner<'b> {
    bytes: &'b [u8],
}

impl Scanner<'_> {
    /// Visits the value at `at` for trie node `node`; `depth` bounds the descent, which
    /// follows the pointers (never deeper than the longest one).
    fn walk(&self, at: usize, node: &Trie, depth: usize, found: &mut [usize]) {
        node.record(at, found);
        if node.children.is_empty() || depth > 4096 {
            return;
        }
        match self.bytes.get(at) {
            Some(b'{') => {
                let mut pos = at + 1;
                loop {
                    pos = skip_whitespace(self.bytes, pos);
                    match self.bytes.get(pos) {
                        Some(b'"') => {}
                        _ => return,
                    }
                    let Some((key, after_key)) = self.string(pos) else {
                        return;
                    };
                    pos = skip_whitespace(self.bytes, after_key);
                    if self.bytes.get(pos) != Some(&b':') {
                        return;
                    }
                    pos = skip_whitespace(self.bytes, pos + 1);
                    if let Some(child) = node.children.get(key.as_ref()) {
                        self.walk(pos, child, depth + 1, found);
                    }
                    let Some(end) = skip_value(self.bytes, pos) else {
                        return;
                    };
                    pos = skip_whitespace(self.bytes, end);
                    match self.bytes.get(pos) {
                        Some(b',') => pos += 1,
                        _ => return,
                    }
                }
            }
            Some(b'[') => {
                let mut pos = skip_whitespace(self.bytes, at + 1);
                if self.bytes.get(pos) == Some(&b']') {
                    return;
                }
                let mut index = 0usize;
                loop {
                    if let Some(child) = node.children.get(index.to_string().as_str()) {
                        self.walk(pos, child, depth + 1, found);
                    }
                    let Some(end) = skip_value(self.bytes, pos) else {
                        return;
                    };
                    pos = skip_whitespace(self.bytes, end);
                    match self.bytes.get(pos) {
                        Some(b',') => pos = skip_whitespace(self.bytes, pos + 1),
                        _ => return,
                    }
                    index += 1;
                }
            }
            _ => {}
        }
    }

    /// Decodes the string starting at `at` (a `"`) and returns it with the offset after it.
    fn string(&self, at: usize) -> Option<(std::borrow::Cow<'_, str>, usize)> {
        let end = skip_string(self.bytes, at)?;
        let raw = std::str::from_utf8(&self.bytes[at..end]).ok()?;
        if !raw.contains('\\') {
            return Some((std::borrow::Cow::Borrowed(&raw[1..raw.len() - 1]), end));
        }
        let decoded: String = serde_json::from_str(raw).ok()?;
        Some((std::borrow::Cow::Owned(decoded), end))
    }
}

pub(crate) fn skip_whitespace(bytes: &[u8], mut pos: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = bytes.get(pos) {
        pos += 1;
    }
    pos
}

/// The offset just after the string that starts at `at` (a `"`).
pub(crate) fn skip_string(bytes: &[u8], at: usize) -> Option<usize> {
    let mut pos = at + 1;
    loop {
        let next = memchr::memchr2(b'"', b'\\', bytes.get(pos..)?)?;
        pos += next;
        if bytes[pos] == b'\\' {
            pos += 2;
        } else {
            return Some(pos + 1);
        }
    }
}

/// The offset just after the value that starts at `at`, without building it.
pub(crate) fn skip_value(bytes: &[u8], at: usize) -> Option<usize> {
    match bytes.get(at)? {
        b'"' => skip_string(bytes, at),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut pos = at;
            loop {
                match bytes.get(pos)? {
                    b'"' => {
                        pos = skip_string(bytes, pos)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(pos + 1);
                        }
                    }
                    _ => {}
                }
                pos += 1;
            }
        }
        _ => {
            let mut pos = at;
            while let Some(byte) = bytes.get(pos) {
                if matches!(byte, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                    break;
                }
                pos += 1;
            }
            Some(pos)
        }
    }
}

/// Finds object members whose key appeared earlier in the same object, returning the
/// JSON pointer of each repeated member and the byte offset of its key.
///
/// serde_json keeps the last of duplicate keys silently; the format is strict, so a
/// repeated key is reported. Iterative, so any nesting depth is safe.
pub fn duplicate_keys(source: &str) -> Vec<(String, usize)> {
    enum Frame {
        Object { pointer: String, keys: Vec<String> },
        Array { pointer: String, index: usize },
    }
    let bytes = source.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut duplicates = Vec::new();
    // The pointer of the value that starts next.
    let mut pending = String::new();
    let mut pos = 0usize;
    while pos < bytes.len() {
        match bytes[pos] {
            b'"' => {
                let Some(end) = skip_string(bytes, pos) else {
                    break;
                };
                let after = skip_whitespace(bytes, end);
                let is_key = bytes.get(after) == Some(&b':')
                    && matches!(stack.last(), Some(Frame::Object { .. }));
                if is_key {
                    let raw = &source[pos..end];
                    let key: String = if raw.contains('\\') {
                        serde_json::from_str(raw)
                            .unwrap_or_else(|_| raw[1..raw.len() - 1].to_owned())
                    } else {
                        raw[1..raw.len() - 1].to_owned()
                    };
                    if let Some(Frame::Object { pointer, keys }) = stack.last_mut() {
                        let member = format!("{pointer}/{}", escape_token(&key));
                        if keys.contains(&key) {
                            duplicates.push((member.clone(), pos));
                        } else {
                            keys.push(key);
                        }
                        pending = member;
                    }
                    pos = after + 1;
                    continue;
                }
                pos = end;
                continue;
            }
            b'{' => {
                let pointer = if stack.is_empty() {
                    String::new()
                } else {
                    std::mem::take(&mut pending)
                };
                stack.push(Frame::Object {
                    pointer,
                    keys: Vec::new(),
                });
            }
            b'[' => {
                let pointer = if stack.is_empty() {
                    String::new()
                } else {
                    std::mem::take(&mut pending)
                };
                stack.push(Frame::Array {
                    pointer: pointer.clone(),
                    index: 0,
                });
                pending = format!("{pointer}/0");
            }
            b'}' | b']' => {
                stack.pop();
            }
            b',' => {
                if let Some(Frame::Array { pointer, index }) = stack.last_mut() {
                    *index += 1;
                    pending = format!("{pointer}/{index}");
                }
            }
            _ => {}
        }
        pos += 1;
    }
    duplicates
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "{\n  \"a\": {\"b\": [10, {\"c\": \"x\"}]},\n  \"é/~\": \"ü\", \"d\": 1\n}";

    #[test]
    fn locates_nested_values() {
        let locator = Locator::new(DOC);
        assert_eq!(locator.locate(""), (1, 1));
        assert_eq!(locator.locate("/a"), (2, 8));
        assert_eq!(locator.locate("/a/b/0"), (2, 15));
        assert_eq!(locator.locate("/a/b/1/c"), (2, 25));
        assert_eq!(locator.locate("/\u{e9}~1~0"), (3, 10));
        assert_eq!(locator.locate("/d"), (3, 20));
    }

    #[test]
    fn missing_target_falls_back_to_deepest_ancestor() {
        let locator = Locator::new(DOC);
        assert_eq!(locator.locate("/a/b/7"), (2, 14));
        assert_eq!(locator.locate("/zzz"), (1, 1));
    }

    #[test]
    fn never_panics_on_broken_text() {
        for text in [
            "",
            "{",
            "{\"a\":",
            "[1,",
            "{\"a\" 1}",
            "\"unterminated",
            "{\"a\":[{\"b\":",
        ] {
            let locator = Locator::new(text);
            let _ = locator.locate_many(&["/a/0/b", "/0", ""]);
            let _ = duplicate_keys(text);
        }
    }

    #[test]
    fn finds_duplicate_keys_with_pointers() {
        let text = r#"{"a": 1, "b": [{"x": 1, "x": 2}], "a": 3}"#;
        let found: Vec<String> = duplicate_keys(text).into_iter().map(|(p, _)| p).collect();
        assert_eq!(found, vec!["/b/0/x".to_owned(), "/a".to_owned()]);
    }
}
