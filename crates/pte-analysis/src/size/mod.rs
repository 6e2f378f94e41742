//! Where a file's bytes go: a partition of `[0, file_size)` into named parts.
//!
//! A format crate describes a file as [`Claim`]s, byte ranges with a name, a
//! kind and a level: containers (a program region, a segment) at a low
//! level, the things inside them (a header, a constant, a delegate blob) a
//! level up, and things inside those (a delegate's own constants) higher
//! still. [`Partition::finish`] gives every byte to the highest-level claim
//! covering it (the first one added among equals), gives the bytes no claim
//! covers to a `padding` part, and reports what did not fit: a claim running
//! out of its container or out of the file is cut and noted, two claims of
//! one level that partly overlap are noted, and two claims of one level over
//! the same range are one part naming the other in `shared_with`. The parts
//! therefore always add up to the file size, whatever the claims say.
//!
//! ```
//! use pte_analysis::size::{kinds, Claim, Partition};
//! let mut p = Partition::new(100);
//! p.add(Claim::new("program", kinds::PROGRAM, 0..64, 0));
//! p.add_within("program", 0..64, Claim::new("eh00", kinds::HEADER, 8..40, 1));
//! p.add(Claim::new("segment[0]", kinds::SEGMENT, 80..100, 0));
//! let r = p.finish("pte");
//! assert_eq!(r.total(), 100);
//! let names: Vec<_> = r.parts.iter().map(|p| (p.name.to_string(), p.bytes)).collect();
//! assert_eq!(names, [("program".into(), 32), ("eh00".into(), 32), ("padding".into(), 16), ("segment[0]".into(), 20)]);
//! ```

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::fmt;
use std::ops::Range;

/// The kinds of part the format crates give (`docs/cli.md`, `pte size`).
///
/// ```
/// assert!(pte_analysis::size::kinds::TENSORS.contains(&pte_analysis::size::kinds::CONSTANT));
/// ```
pub mod kinds {
    /// A file header (`eh00`).
    pub const HEADER: &str = "header";
    /// The program flatbuffer's tables (what is left of it once headers,
    /// inline constants and inline delegate data are counted apart).
    pub const PROGRAM: &str = "program";
    /// Bytes between things, kept for alignment.
    pub const PADDING: &str = "padding";
    /// Segment bytes nothing refers to.
    pub const SEGMENT: &str = "segment";
    /// A constant tensor's bytes.
    pub const CONSTANT: &str = "constant";
    /// A mutable buffer's initial state.
    pub const MUTABLE: &str = "mutable";
    /// A named-data blob.
    pub const NAMED_DATA: &str = "named_data";
    /// A delegate's processed blob (its own constants counted apart).
    pub const DELEGATE: &str = "delegate";
    /// A constant tensor of an XNNPACK delegate, in its payload or in named data.
    pub const XNNPACK_CONSTANT: &str = "xnnpack_constant";
    /// The `FH01` header of a `.ptd`.
    pub const PTD_HEADER: &str = "ptd_header";
    /// The `FT01` tables of a `.ptd`.
    pub const PTD_TABLES: &str = "ptd_tables";
    /// A tensor of a `.ptd` or of a package's safetensors.
    pub const TENSOR: &str = "tensor";
    /// A zip member's local header.
    pub const ZIP_HEADER: &str = "zip_header";
    /// A zip member's data not counted otherwise.
    pub const ZIP_MEMBER: &str = "zip_member";
    /// The zip central directory and end records.
    pub const ZIP_DIRECTORY: &str = "zip_directory";
    /// The JSON header of a safetensors member.
    pub const SAFETENSORS_HEADER: &str = "safetensors_header";
    /// The `BP08` tables of a bundled program.
    pub const BUNDLE: &str = "bundle";
    /// A bundled program's test-case tensor data.
    pub const TEST_DATA: &str = "test_data";
    /// The parts [`SizeReport::top`](super::SizeReport::top) folds together.
    pub const OTHER: &str = "other";
    /// A `--by operator` group.
    pub const OPERATOR: &str = "operator";
    /// The kinds holding one tensor's or blob's bytes, which `--by tensor`
    /// keeps by name.
    pub const TENSORS: &[&str] = &[CONSTANT, MUTABLE, XNNPACK_CONSTANT, TENSOR, NAMED_DATA, TEST_DATA];
}

mod formats;
mod name;
mod ptn;
mod shared;

pub use formats::{bpte_size_report, ptd_size_report, pte_size_report};
pub use ptn::ptn_size_report;

pub use name::{Label, Name, Pattern};
pub use shared::SharedWith;

use name::PrefixCache;
#[cfg(test)]
use shared::MAX_SHARED;

/// At most this many notes are kept; the rest are counted.
const MAX_NOTES: usize = 64;

/// A named byte range that a format says something occupies.
///
/// ```
/// let c = pte_analysis::size::Claim::new("w", "constant", 0..4, 1).with_operator(Some("aten::mm.out".into()));
/// assert_eq!(c.operator.as_deref(), Some("aten::mm.out"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The part's name.
    pub name: Name,
    /// Its kind (one of [`kinds`]).
    pub kind: &'static str,
    /// Bytes of the file.
    pub range: Range<u64>,
    /// Nesting level: higher levels win the bytes they cover.
    pub level: u8,
    /// The operator that consumes these bytes, for `--by operator`.
    pub operator: Option<Label>,
    /// The delegate these bytes belong to, for `--by delegate`.
    pub delegate: Option<Label>,
}

impl Claim {
    /// A claim with no operator or delegate.
    ///
    /// ```
    /// assert_eq!(pte_analysis::size::Claim::new("x", "padding", 2..4, 0).range, 2..4);
    /// ```
    pub fn new(name: impl Into<Name>, kind: &'static str, range: Range<u64>, level: u8) -> Self {
        Claim { name: name.into(), kind, range, level, operator: None, delegate: None }
    }

    /// The same claim, consumed by `operator`.
    ///
    /// ```
    /// let c = pte_analysis::size::Claim::new("x", "constant", 0..1, 1).with_operator(None);
    /// assert!(c.operator.is_none());
    /// ```
    pub fn with_operator(mut self, operator: Option<Label>) -> Self {
        self.operator = operator;
        self
    }

    /// The same claim, belonging to `delegate`.
    ///
    /// ```
    /// let c = pte_analysis::size::Claim::new("x", "delegate", 0..1, 1).with_delegate(Some("d".into()));
    /// assert_eq!(c.delegate.as_deref(), Some("d"));
    /// ```
    pub fn with_delegate(mut self, delegate: Option<Label>) -> Self {
        self.delegate = delegate;
        self
    }
}

/// One part of a [`SizeReport`]. Its name is kept compact ([`Name`]) and
/// written out when shown; operators and delegates are shared ([`Label`]).
///
/// ```
/// let r = pte_analysis::size::Partition::new(8).finish("pte");
/// assert_eq!((r.parts[0].name.to_string(), r.parts[0].bytes, r.parts[0].offset), ("padding".into(), 8, Some(0)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Part {
    /// What the bytes are: a fully qualified name, a key, `segment[3]`, ...
    pub name: Name,
    /// What kind of thing they are (one of [`kinds`], or a group's kind).
    pub kind: &'static str,
    /// How many bytes (never 0: empty parts are left out).
    pub bytes: u64,
    /// Where they start, when they are one range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// Other names referring to exactly these bytes, counted here once.
    #[serde(skip_serializing_if = "SharedWith::is_empty")]
    pub shared_with: SharedWith,
    /// The operator consuming the bytes (the first one in program order).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operator: Option<Label>,
    /// The delegate the bytes belong to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delegate: Option<Label>,
    /// For a group (`--by`, `--top`'s `other`), how many parts it holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
}

impl Part {
    fn group(name: Name, kind: &'static str) -> Part {
        Part {
            name,
            kind,
            bytes: 0,
            offset: None,
            shared_with: SharedWith::default(),
            operator: None,
            delegate: None,
            count: Some(0),
        }
    }
}

/// How [`SizeReport::grouped`] groups parts.
///
/// ```
/// assert_eq!(pte_analysis::size::By::Operator.as_str(), "operator");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// One row per kind.
    Kind,
    /// One row per tensor or blob ([`kinds::TENSORS`]); everything else by kind.
    Tensor,
    /// One row per consuming operator; bytes no operator consumes by kind.
    Operator,
    /// One row per delegate; bytes of no delegate by kind.
    Delegate,
}

impl By {
    /// The lower-case word (`kind`, `tensor`, `operator`, `delegate`).
    ///
    /// ```
    /// assert_eq!(pte_analysis::size::By::Kind.as_str(), "kind");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            By::Kind => "kind",
            By::Tensor => "tensor",
            By::Operator => "operator",
            By::Delegate => "delegate",
        }
    }
}

/// Every byte of a file, attributed once.
///
/// ```
/// use pte_analysis::size::{Claim, Partition};
/// let mut p = Partition::new(10);
/// p.add(Claim::new("a", "constant", 0..6, 1));
/// p.add(Claim::new("b", "constant", 4..12, 1));
/// let r = p.finish("pte");
/// assert_eq!(r.total(), 10);
/// assert_eq!(r.notes.len(), 2); // b runs past the file, and overlaps a
/// ```
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SizeReport {
    /// `pte`, `ptd`, `ptn` or `bpte`.
    pub format: String,
    /// Bytes of the file.
    pub file_size: u64,
    /// The grouping (`kind`, `tensor`, `operator`, `delegate`), `None` for the parts themselves.
    pub by: Option<String>,
    /// The parts: in file order, or largest first once grouped or cut to the top.
    pub parts: Vec<Part>,
    /// What could not be attributed as the file says, and why.
    pub notes: Vec<String>,
}

/// Largest first, then by name.
fn largest_first(a: &Part, b: &Part) -> std::cmp::Ordering {
    b.bytes.cmp(&a.bytes).then_with(|| a.name.cmp(&b.name))
}

impl SizeReport {
    /// The sum of the parts' bytes (the file size, by construction).
    ///
    /// ```
    /// assert_eq!(pte_analysis::size::Partition::new(3).finish("pte").total(), 3);
    /// ```
    pub fn total(&self) -> u64 {
        self.parts.iter().fold(0u64, |t, p| t.saturating_add(p.bytes))
    }

    /// The parts grouped `by`, largest first; bytes outside every group of
    /// that sort (headers, padding, ...) are grouped by kind.
    ///
    /// ```
    /// use pte_analysis::size::{By, Claim, Partition};
    /// let mut p = Partition::new(10);
    /// p.add(Claim::new("w", "constant", 0..4, 1).with_operator(Some("mm".into())));
    /// p.add(Claim::new("b", "constant", 4..6, 1).with_operator(Some("mm".into())));
    /// let r = p.finish("pte").grouped(By::Operator);
    /// assert_eq!((r.parts[0].name.to_string(), r.parts[0].bytes, r.parts[0].count), ("mm".into(), 6, Some(2)));
    /// assert_eq!(r.parts[1].name, "padding");
    /// ```
    pub fn grouped(self, by: By) -> SizeReport {
        let mut groups: BTreeMap<(String, &'static str), Part> = BTreeMap::new();
        let mut alone: Vec<Part> = vec![];
        for p in self.parts {
            let key = match by {
                By::Tensor if kinds::TENSORS.contains(&p.kind) => {
                    alone.push(p);
                    continue;
                }
                By::Operator if p.operator.is_some() => {
                    (p.operator.as_deref().unwrap_or_default().to_string(), kinds::OPERATOR)
                }
                By::Delegate if p.delegate.is_some() => {
                    (p.delegate.as_deref().unwrap_or_default().to_string(), kinds::DELEGATE)
                }
                _ => (p.kind.to_string(), p.kind),
            };
            let g = groups.entry(key).or_insert_with_key(|k| Part::group(Name::from(k.0.as_str()), k.1));
            g.bytes = g.bytes.saturating_add(p.bytes);
            g.count = g.count.map(|c| c.saturating_add(1));
            // a group of one range keeps its offset
            g.offset = if g.count == Some(1) { p.offset } else { None };
        }
        let mut parts: Vec<Part> = groups.into_values().chain(alone).collect();
        parts.sort_by(largest_first);
        SizeReport {
            format: self.format,
            file_size: self.file_size,
            by: Some(by.as_str().to_string()),
            parts,
            notes: self.notes,
        }
    }

    /// The `n` largest parts and one `other` part holding the rest (none
    /// when nothing is left over), so the sum stays the file size.
    ///
    /// ```
    /// use pte_analysis::size::{Claim, Partition};
    /// let mut p = Partition::new(10);
    /// p.add(Claim::new("a", "constant", 0..5, 1));
    /// p.add(Claim::new("b", "constant", 5..8, 1));
    /// let r = p.finish("pte").top(1);
    /// let rows: Vec<_> = r.parts.iter().map(|p| (p.name.to_string(), p.bytes)).collect();
    /// assert_eq!(rows, [("a".to_string(), 5), ("other".to_string(), 5)]);
    /// ```
    pub fn top(self, n: usize) -> SizeReport {
        let mut parts = self.parts;
        parts.sort_by(largest_first);
        let rest = parts.split_off(n.min(parts.len()));
        if !rest.is_empty() {
            let mut other = Part::group(Name::from(kinds::OTHER), kinds::OTHER);
            for p in &rest {
                other.bytes = other.bytes.saturating_add(p.bytes);
                let held = p.count.unwrap_or(1);
                other.count = other.count.map(|c| c.saturating_add(held));
            }
            parts.push(other);
        }
        SizeReport { parts, ..self }
    }
}

/// Where a claim lies, and its level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    start: u64,
    end: u64,
    level: u8,
}

/// The claims of one file, turned into a [`SizeReport`] by [`Partition::finish`].
///
/// A claim over the same range at the same level as the one added just
/// before it (a million segment entries naming one range) is kept as a name
/// in that one's `shared_with` only, so repeated claims cost no part.
///
/// ```
/// use pte_analysis::size::{Claim, Partition};
/// let mut p = Partition::new(16);
/// p.add(Claim::new("segment[0]", "segment", 0..16, 0));
/// p.add(Claim::new("k", "named_data", 0..16, 1));
/// p.add(Claim::new("d", "delegate", 0..16, 1));
/// let r = p.finish("pte");
/// assert_eq!(r.parts.len(), 1);
/// assert_eq!(r.parts[0].shared_with.to_strings(), ["d"]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Partition {
    file_size: u64,
    /// One per claim kept, in the order added: what it is, and (once
    /// swept) the bytes it received.
    parts: Vec<Part>,
    /// Where each claim of `parts` lies.
    spans: Vec<Span>,
    notes: Vec<String>,
    /// Notes left out past [`MAX_NOTES`].
    more_notes: u64,
}

/// `range` cut to `outer`; `None` when nothing is left.
fn clip(range: &Range<u64>, outer: &Range<u64>) -> Option<Range<u64>> {
    let start = range.start.max(outer.start);
    let end = range.end.min(outer.end);
    (start < end).then_some(start..end)
}

/// What the bytes no claim covers received.
#[derive(Clone, Copy, Default)]
struct Gap {
    bytes: u64,
    /// Start of the first run.
    first: u64,
    /// Number of separate runs.
    runs: u64,
}

/// Who received the bytes just before the ones being given.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Previous {
    Nobody,
    Gap,
    Claim(usize),
}

impl Partition {
    /// An empty partition of a file of `file_size` bytes.
    ///
    /// ```
    /// assert_eq!(pte_analysis::size::Partition::new(5).file_size(), 5);
    /// ```
    pub fn new(file_size: u64) -> Self {
        Partition { file_size, ..Default::default() }
    }

    /// The file size given to [`Partition::new`].
    ///
    /// ```
    /// assert_eq!(pte_analysis::size::Partition::new(0).file_size(), 0);
    /// ```
    pub fn file_size(&self) -> u64 {
        self.file_size
    }

    /// Adds `claim`, cut to the file (with a note when it runs past it).
    /// Empty claims are left out.
    ///
    /// ```
    /// use pte_analysis::size::{Claim, Partition};
    /// let mut p = Partition::new(4);
    /// p.add(Claim::new("x", "segment", 2..9, 0));
    /// let r = p.finish("pte");
    /// assert_eq!(r.total(), 4);
    /// assert!(r.notes[0].contains("past the end of the file"));
    /// ```
    pub fn add(&mut self, claim: Claim) {
        self.add_sharing(claim, SharedWith::default());
    }

    /// [`Partition::add`] of a claim that other names share already.
    fn add_sharing(&mut self, claim: Claim, shared: SharedWith) {
        let file = 0..self.file_size;
        if claim.range.start >= claim.range.end {
            return;
        }
        match clip(&claim.range, &file) {
            Some(r) if r == claim.range => self.push(claim, shared),
            Some(r) => {
                self.note(format!(
                    "{} [{}, {}) runs past the end of the file ({} bytes): {} bytes counted",
                    claim.name,
                    claim.range.start,
                    claim.range.end,
                    self.file_size,
                    r.end.saturating_sub(r.start)
                ));
                self.push(Claim { range: r, ..claim }, shared);
            }
            None => self.note(format!(
                "{} [{}, {}) lies past the end of the file ({} bytes): not counted",
                claim.name, claim.range.start, claim.range.end, self.file_size
            )),
        }
    }

    /// Keeps a claim that fits the file: as a name shared by the claim
    /// before it when both cover one range at one level (it would get no
    /// byte of its own), else as a part to sweep.
    fn push(&mut self, claim: Claim, shared: SharedWith) {
        let span = Span { start: claim.range.start, end: claim.range.end, level: claim.level };
        if self.spans.last() == Some(&span)
            && let Some(before) = self.parts.last_mut()
        {
            before.shared_with.push(claim.name);
            before.shared_with.append(shared);
            return;
        }
        self.spans.push(span);
        self.parts.push(Part {
            name: claim.name,
            kind: claim.kind,
            bytes: 0,
            offset: None,
            shared_with: shared,
            operator: claim.operator,
            delegate: claim.delegate,
            count: None,
        });
    }

    /// Adds `claim`, cut to `outer` (the range of the container called
    /// `outer_name`) with a note when it runs out of it, so it cannot take
    /// bytes from a neighbour.
    ///
    /// ```
    /// use pte_analysis::size::{Claim, Partition};
    /// let mut p = Partition::new(20);
    /// p.add(Claim::new("segment[0]", "padding", 0..10, 0));
    /// p.add_within("segment[0]", 0..10, Claim::new("c", "constant", 8..14, 1));
    /// let r = p.finish("pte");
    /// assert_eq!(r.parts.iter().find(|p| p.name == "c").map(|p| p.bytes), Some(2));
    /// assert!(r.notes[0].contains("runs out of segment[0]"));
    /// ```
    pub fn add_within(&mut self, outer_name: impl fmt::Display, outer: Range<u64>, claim: Claim) {
        if claim.range.start >= claim.range.end {
            return;
        }
        match clip(&claim.range, &outer) {
            Some(r) if r == claim.range => self.add(claim),
            Some(r) => {
                self.note(format!(
                    "{} [{}, {}) runs out of {outer_name} [{}, {}): {} bytes counted",
                    claim.name,
                    claim.range.start,
                    claim.range.end,
                    outer.start,
                    outer.end,
                    r.end.saturating_sub(r.start)
                ));
                self.add(Claim { range: r, ..claim });
            }
            None => self.note(format!(
                "{} [{}, {}) lies outside {outer_name} [{}, {}): not counted",
                claim.name, claim.range.start, claim.range.end, outer.start, outer.end
            )),
        }
    }

    /// Records something that could not be attributed as the file says.
    ///
    /// ```
    /// let mut p = pte_analysis::size::Partition::new(0);
    /// p.note("delegate 0 does not parse");
    /// assert_eq!(p.finish("pte").notes, ["delegate 0 does not parse"]);
    /// ```
    pub fn note(&mut self, text: impl Into<String>) {
        if self.notes.len() < MAX_NOTES {
            self.notes.push(text.into());
        } else {
            self.more_notes = self.more_notes.saturating_add(1);
        }
    }

    /// Adds the claims of `inner`, a partition of the bytes that start at
    /// `at` in this file (an embedded file): ranges shifted by `at`, names
    /// and notes prefixed with `prefix`, levels raised by `levels`. The
    /// bytes none of them covers go to whatever this partition has there.
    ///
    /// ```
    /// use pte_analysis::size::{Claim, Partition};
    /// let mut inner = Partition::new(4);
    /// inner.add(Claim::new("eh00", "header", 0..4, 1));
    /// let mut outer = Partition::new(10);
    /// outer.add(Claim::new("program:padding", "padding", 2..6, 1));
    /// outer.nest(inner, "program:", 2, 1);
    /// let r = outer.finish("bpte");
    /// assert_eq!(r.parts.iter().find(|p| p.name == "program:eh00").and_then(|p| p.offset), Some(2));
    /// ```
    pub fn nest(&mut self, inner: Partition, prefix: &str, at: u64, levels: u8) {
        for n in inner.notes {
            self.note(format!("{prefix} {n}"));
        }
        self.more_notes = self.more_notes.saturating_add(inner.more_notes);
        let mut cache = PrefixCache::default();
        // the inner parts are real, each one claim here
        self.parts.reserve(inner.parts.len());
        self.spans.reserve(inner.spans.len());
        for (p, s) in inner.parts.into_iter().zip(inner.spans) {
            let (Some(start), Some(end)) = (s.start.checked_add(at), s.end.checked_add(at)) else {
                continue;
            };
            let shared = p.shared_with.map(|n| n.prefixed(prefix, &mut cache));
            let claim = Claim {
                name: p.name.prefixed(prefix, &mut cache),
                kind: p.kind,
                range: start..end,
                level: s.level.saturating_add(levels),
                operator: p.operator,
                delegate: p.delegate,
            };
            self.add_sharing(claim, shared);
        }
    }

    /// Attributes every byte once and lists the parts in file order.
    ///
    /// ```
    /// use pte_analysis::size::{Claim, Partition};
    /// let mut p = Partition::new(8);
    /// p.add(Claim::new("segment[0]", "segment", 0..8, 0));
    /// p.add(Claim::new("c", "constant", 2..4, 1));
    /// let r = p.finish("pte");
    /// let rows: Vec<_> = r.parts.iter().map(|p| (p.name.to_string(), p.bytes, p.offset)).collect();
    /// assert_eq!(rows, [("segment[0]".into(), 6, None), ("c".into(), 2, Some(2))]);
    /// ```
    pub fn finish(mut self, format: &str) -> SizeReport {
        self.share_same_ranges();
        let (gap, split) = self.sweep();
        self.spans = Vec::new();
        // the parts that received bytes, and which of them in several runs
        let mut parts = std::mem::take(&mut self.parts);
        let (mut k, mut kept) = (0usize, 0usize);
        let mut several: Vec<usize> = vec![];
        parts.retain(|p| {
            let keep = p.bytes > 0;
            if keep {
                if split.get(k).copied().unwrap_or(false) {
                    several.push(kept);
                }
                kept = kept.saturating_add(1);
            }
            k = k.saturating_add(1);
            keep
        });
        drop(split);
        // each part's offset is its first byte until here; claims come mostly
        // in file order: put the parts there in place
        let first = |p: &Part| p.offset.unwrap_or(0);
        let order: Option<Vec<(u64, u32)>> = if parts.is_sorted_by_key(first) {
            None
        } else {
            let mut o: Vec<(u64, u32)> =
                parts.iter().enumerate().map(|(i, p)| (first(p), u32::try_from(i).unwrap_or(u32::MAX))).collect();
            o.sort_unstable();
            Some(o)
        };
        // the gap goes after the parts that start where it does
        let pad_at = match &order {
            None => parts.partition_point(|p| first(p) <= gap.first),
            Some(o) => o.partition_point(|&(f, _)| f <= gap.first),
        };
        for i in several {
            if let Some(p) = parts.get_mut(i) {
                p.offset = None;
            }
        }
        if let Some(order) = order {
            permute(&mut parts, &order);
        }
        if gap.bytes > 0 {
            let padding = Part {
                name: Name::from(kinds::PADDING),
                kind: kinds::PADDING,
                bytes: gap.bytes,
                offset: (gap.runs == 1).then_some(gap.first),
                shared_with: SharedWith::default(),
                operator: None,
                delegate: None,
                count: None,
            };
            parts.insert(pad_at.min(parts.len()), padding);
        }
        if self.more_notes > 0 {
            self.notes.push(format!("and {} more notes", self.more_notes));
        }
        SizeReport { format: format.to_string(), file_size: self.file_size, by: None, parts, notes: self.notes }
    }

    /// Notes claims of one level that partly overlap, and gives the names
    /// of claims of one level over exactly the same range to the first of
    /// them (the one the sweep gives the bytes to).
    fn share_same_ranges(&mut self) {
        let spans = &self.spans;
        let n = u32::try_from(spans.len()).unwrap_or(u32::MAX);
        let span = |i: u32| usize::try_from(i).ok().and_then(|i| spans.get(i));
        let mut order: Vec<u32> = (0..n).collect();
        order.sort_unstable_by_key(|&i| span(i).map(|s| (s.level, s.start, Reverse(s.end), i)));
        let mut shared: Vec<(u32, u32)> = vec![];
        // notes past the cap are only counted: a file may overlap a million times
        let room = MAX_NOTES.saturating_sub(self.notes.len());
        let (mut notes, mut unwritten) = (vec![], 0u64);
        let mut owner: Option<(Span, u32)> = None;
        let name = |i: u32| usize::try_from(i).ok().and_then(|i| self.parts.get(i)).map(|p| &p.name);
        for i in order {
            let Some(&c) = span(i) else { continue };
            match owner {
                Some((o, oi)) if o.level == c.level && c.start < o.end => {
                    if (c.start, c.end) == (o.start, o.end) {
                        shared.push((oi, i));
                    } else if notes.len() >= room {
                        unwritten = unwritten.saturating_add(1);
                    } else {
                        let (s, e) = (c.start.max(o.start), c.end.min(o.end));
                        let (cn, on) = (name(i), name(oi));
                        let show = |n: Option<&Name>| n.map(ToString::to_string).unwrap_or_default();
                        notes.push(format!(
                            "{} [{}, {}) overlaps {} [{}, {}): bytes [{s}, {e}) counted once, under {}",
                            show(cn),
                            c.start,
                            c.end,
                            show(on),
                            o.start,
                            o.end,
                            show(if i < oi { cn } else { on })
                        ));
                    }
                    if c.end > o.end {
                        owner = Some((c, i));
                    }
                }
                _ => owner = Some((c, i)),
            }
        }
        for n in notes {
            self.note(n);
        }
        self.more_notes = self.more_notes.saturating_add(unwritten);
        for (owner, other) in shared {
            let get = |i: u32| usize::try_from(i).ok();
            let Some(o) = get(other).and_then(|i| self.parts.get_mut(i)) else { continue };
            let (name, theirs) = (o.name.clone(), std::mem::take(&mut o.shared_with));
            if let Some(w) = get(owner).and_then(|i| self.parts.get_mut(i)) {
                w.shared_with.push(name);
                w.shared_with.append(theirs);
            }
        }
    }

    /// Gives each byte to the highest-level claim covering it (the first
    /// added among equals): each part's `bytes` and first byte (in
    /// `offset`), whether it got them in several runs, and the bytes none
    /// covers.
    fn sweep(&mut self) -> (Gap, Vec<bool>) {
        let spans = &self.spans;
        let n = u32::try_from(spans.len()).unwrap_or(u32::MAX);
        let span = |i: u32| usize::try_from(i).ok().and_then(|i| spans.get(i));
        let mut by_start: Vec<u32> = (0..n).collect();
        by_start.sort_unstable_by_key(|&i| span(i).map_or(0, |s| s.start));
        let mut by_end = by_start.clone();
        by_end.sort_unstable_by_key(|&i| span(i).map_or(0, |s| s.end));
        let mut several = vec![false; spans.len()];
        let mut gap = Gap::default();
        // the highest level first, then the first added; ended claims are
        // dropped when they reach the top
        let mut active: BinaryHeap<(u8, Reverse<u32>)> = BinaryHeap::new();
        let mut ended = vec![false; spans.len()];
        let mut before = Previous::Nobody;
        let (mut s, mut e) = (0usize, 0usize);
        let mut pos = 0u64;
        let parts = &mut self.parts;
        let mut give = |owner: Option<u32>, r: Range<u64>, before: &mut Previous| {
            let len = r.end.saturating_sub(r.start);
            let who = owner.and_then(|i| usize::try_from(i).ok());
            match who.and_then(|i| Some((i, parts.get_mut(i)?))) {
                Some((i, p)) => {
                    if p.bytes == 0 {
                        p.offset = Some(r.start);
                    } else if *before != Previous::Claim(i)
                        && let Some(f) = several.get_mut(i)
                    {
                        *f = true;
                    }
                    p.bytes = p.bytes.saturating_add(len);
                    *before = Previous::Claim(i);
                }
                None => {
                    if gap.runs == 0 {
                        gap.first = r.start;
                        gap.runs = 1;
                    } else if *before != Previous::Gap {
                        gap.runs = gap.runs.saturating_add(1);
                    }
                    gap.bytes = gap.bytes.saturating_add(len);
                    *before = Previous::Gap;
                }
            }
        };
        loop {
            let next_start = by_start.get(s).and_then(|&i| span(i)).map(|x| x.start);
            let next_end = by_end.get(e).and_then(|&i| span(i)).map(|x| x.end);
            let next = match (next_start, next_end) {
                (Some(a), Some(b)) => a.min(b),
                (Some(a), None) => a,
                (None, Some(b)) => b,
                (None, None) => break,
            };
            if next > pos {
                while active
                    .peek()
                    .is_some_and(|&(_, Reverse(i))| usize::try_from(i).ok().and_then(|i| ended.get(i)) != Some(&false))
                {
                    active.pop();
                }
                give(active.peek().map(|&(_, Reverse(i))| i), pos..next, &mut before);
                pos = next;
            }
            while let Some(&i) = by_start.get(s).filter(|&&i| span(i).is_some_and(|x| x.start == next)) {
                active.push((span(i).map_or(0, |x| x.level), Reverse(i)));
                s = s.saturating_add(1);
            }
            while let Some(&i) = by_end.get(e).filter(|&&i| span(i).is_some_and(|x| x.end == next)) {
                if let Some(f) = usize::try_from(i).ok().and_then(|i| ended.get_mut(i)) {
                    *f = true;
                }
                e = e.saturating_add(1);
            }
        }
        if self.file_size > pos {
            give(None, pos..self.file_size, &mut before);
        }
        (gap, several)
    }
}

/// Puts `parts` in the order `order` lists them (by their first byte), in
/// place: along each cycle of the permutation, one swap per part.
fn permute(parts: &mut [Part], order: &[(u64, u32)]) {
    let mut target: Vec<u32> = vec![0; order.len()];
    for (to, &(_, from)) in order.iter().enumerate() {
        if let Some(t) = usize::try_from(from).ok().and_then(|f| target.get_mut(f)) {
            *t = u32::try_from(to).unwrap_or(u32::MAX);
        }
    }
    for i in 0..target.len() {
        // swap along the cycle through i until i holds what belongs there
        while let Some(t) = target.get(i).and_then(|&t| usize::try_from(t).ok()).filter(|&t| t != i) {
            if t >= parts.len() || t >= target.len() {
                break;
            }
            parts.swap(i, t);
            target.swap(i, t);
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::arithmetic_side_effects)]
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn any_claims_partition_the_file(
            size in 0u64..300,
            claims in proptest::collection::vec((0u64..400, 0u64..120, 0u8..4), 0..40),
        ) {
            let mut p = Partition::new(size);
            for (i, (start, len, level)) in claims.iter().enumerate() {
                let c = Claim::new(format!("c{i}"), kinds::CONSTANT, *start..start + len, *level);
                if i % 3 == 0 {
                    p.add_within("outer", 50..200, c);
                } else {
                    p.add(c);
                }
            }
            let r = p.finish("pte");
            prop_assert_eq!(r.total(), size);
            prop_assert!(r.parts.iter().all(|p| p.bytes > 0));
            let mut firsts = vec![];
            let mut ranges: Vec<(u64, u64)> = r.parts.iter().filter_map(|p| Some((p.offset?, p.offset? + p.bytes))).collect();
            ranges.sort_unstable();
            for w in ranges.windows(2) {
                prop_assert!(w[0].1 <= w[1].0, "{:?}", w);
            }
            for p in &r.parts {
                firsts.extend(p.offset);
            }
            // parts with an offset come in file order
            prop_assert!(firsts.is_sorted());
            let by = r.clone().grouped(By::Kind).top(1);
            prop_assert_eq!(by.total(), size);
        }
    }

    #[test]
    fn identical_claims_of_one_level_are_one_part() {
        let mut p = Partition::new(10);
        for i in 0..40 {
            p.add(Claim::new(format!("s{i}"), kinds::SEGMENT, 0..10, 0));
        }
        let r = p.finish("pte");
        assert_eq!(r.parts.len(), 1);
        assert_eq!(r.parts[0].name, "s0");
        assert_eq!(r.parts[0].shared_with.len(), MAX_SHARED + 1);
        assert_eq!(r.parts[0].shared_with.to_strings().last().map(String::as_str), Some("and 23 more"));
        assert!(r.notes.is_empty());
    }

    #[test]
    fn the_first_of_partly_overlapping_claims_keeps_the_shared_bytes() {
        let mut p = Partition::new(10);
        p.add(Claim::new("b", kinds::CONSTANT, 4..10, 1));
        p.add(Claim::new("a", kinds::CONSTANT, 0..6, 1));
        let r = p.finish("pte");
        let rows: Vec<_> = r.parts.iter().map(|p| (p.name.to_string(), p.bytes)).collect();
        assert_eq!(rows, [("a".into(), 4), ("b".into(), 6)]);
        assert_eq!(r.notes.len(), 1);
        assert!(r.notes[0].contains("under b"), "{:?}", r.notes);
    }

    #[test]
    fn a_split_part_has_no_offset_and_gaps_are_padding() {
        let mut p = Partition::new(20);
        p.add(Claim::new("program", kinds::PROGRAM, 0..10, 0));
        p.add(Claim::new("h", kinds::HEADER, 2..4, 1));
        p.add(Claim::new("s", kinds::SEGMENT, 12..16, 0));
        let r = p.finish("pte");
        let rows: Vec<_> = r.parts.iter().map(|p| (p.name.to_string(), p.bytes, p.offset)).collect();
        let expected = [("program", 8, None), ("h", 2, Some(2)), ("padding", 6, None), ("s", 4, Some(12))];
        assert_eq!(rows, expected.map(|(n, b, o)| (n.to_string(), b, o)));
    }

    #[test]
    fn notes_are_capped() {
        let mut p = Partition::new(1);
        for i in 0..100 {
            p.add(Claim::new(format!("c{i}"), kinds::CONSTANT, 5..6, 1));
        }
        let r = p.finish("pte");
        assert_eq!(r.notes.len(), MAX_NOTES + 1);
        assert_eq!(r.notes.last().map(String::as_str), Some("and 36 more notes"));
        assert_eq!(r.total(), 1);
    }

    #[test]
    fn overlap_notes_past_the_cap_are_counted() {
        let mut p = Partition::new(200);
        for i in 0..100u64 {
            p.add(Claim::new(format!("c{i}"), kinds::CONSTANT, i..i + 2, 1));
        }
        let r = p.finish("pte");
        // 99 partial overlaps, each with the one before
        assert_eq!(r.notes.len(), MAX_NOTES + 1);
        assert!(r.notes[0].contains("c1 [1, 3) overlaps c0 [0, 2)"), "{:?}", r.notes[0]);
        assert_eq!(r.notes.last().map(String::as_str), Some("and 35 more notes"));
    }

    #[test]
    fn grouping_and_top_keep_the_sum() {
        let mut p = Partition::new(100);
        for i in 0..10u64 {
            p.add(
                Claim::new(format!("c{i}"), kinds::CONSTANT, i * 10..i * 10 + 5, 1)
                    .with_operator(Some(format!("op{}", i % 3).into())),
            );
        }
        let r = p.finish("pte");
        for by in [By::Kind, By::Tensor, By::Operator, By::Delegate] {
            let g = r.clone().grouped(by);
            assert_eq!(g.total(), 100, "{by:?}");
            let top = g.top(2);
            assert_eq!(top.total(), 100, "{by:?}");
            assert!(top.parts.len() <= 3);
        }
        assert_eq!(r.clone().grouped(By::Operator).parts.len(), 4);
        let none = r.top(0);
        assert_eq!(none.parts.len(), 1);
        assert_eq!(none.parts[0].count, Some(11));
    }
}
