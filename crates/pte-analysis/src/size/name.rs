//! Names that stay small: a name of a numbered family (`segment[3]`,
//! `forward.cases[7].inputs[0]`) is its family's shared text and its
//! numbers, formatted when shown, so a million parts do not hold a million
//! strings; operators and delegates are [`Label`]s shared by every part they
//! consume.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// The text around the numbers of a family of names: `segment[` and `]`
/// around one number, `forward.cases[`, `].inputs[` and `]` around two.
///
/// ```
/// use pte_analysis::size::Pattern;
/// let seg = Pattern::one("segment[", "]");
/// assert_eq!(seg.name(3).to_string(), "segment[3]");
/// let case = Pattern::two("forward.cases[", "].inputs[", "]");
/// assert_eq!(case.name2(7, 0), "forward.cases[7].inputs[0]");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern(Arc<Pieces>);

#[derive(Debug, PartialEq, Eq)]
struct Pieces {
    before: Box<str>,
    /// Between the two numbers; `None` for a family of one number.
    between: Option<Box<str>>,
    after: Box<str>,
}

impl Pattern {
    /// Names with one number: `{before}{i}{after}`.
    ///
    /// ```
    /// assert_eq!(pte_analysis::size::Pattern::one("c[", "]").name(0), "c[0]");
    /// ```
    pub fn one(before: &str, after: &str) -> Pattern {
        Pattern(Arc::new(Pieces { before: before.into(), between: None, after: after.into() }))
    }

    /// Names with two numbers: `{before}{i}{between}{j}{after}`.
    ///
    /// ```
    /// assert_eq!(pte_analysis::size::Pattern::two("m[", "][", "]").name2(1, 2), "m[1][2]");
    /// ```
    pub fn two(before: &str, between: &str, after: &str) -> Pattern {
        Pattern(Arc::new(Pieces { before: before.into(), between: Some(between.into()), after: after.into() }))
    }

    /// The name numbered `i` (of a family of one number).
    ///
    /// ```
    /// let p = pte_analysis::size::Pattern::one("segment[", "]");
    /// assert_eq!(p.name(u64::MAX).to_string(), format!("segment[{}]", u64::MAX));
    /// ```
    pub fn name(&self, i: u64) -> Name {
        self.name2(i, 0)
    }

    /// The name numbered `i` and `j` (`j` unused for a family of one number).
    ///
    /// ```
    /// let p = pte_analysis::size::Pattern::two("a[", "].b[", "]");
    /// assert_eq!(p.name2(2, 3).to_string(), "a[2].b[3]");
    /// ```
    pub fn name2(&self, i: u64, j: u64) -> Name {
        match (u32::try_from(i), u32::try_from(j)) {
            (Ok(i), Ok(j)) => Name(Repr::Numbered(self.0.clone(), i, j)),
            // numbers this large never come from a file that maps; spelled out all the same
            _ => Name(Repr::Text(Numbered { pieces: &self.0, i, j }.to_string().into())),
        }
    }
}

/// A part's name: text, or a [`Pattern`] and its numbers.
///
/// ```
/// use pte_analysis::size::{Name, Pattern};
/// let a = Pattern::one("constant[", "]").name(10);
/// assert_eq!(a, "constant[10]");
/// assert_eq!(a, Name::from("constant[10]"));
/// // ordered as text: "constant[10]" < "constant[9]"
/// assert!(a < Pattern::one("constant[", "]").name(9));
/// ```
#[derive(Clone)]
pub struct Name(Repr);

#[derive(Clone)]
enum Repr {
    Text(Box<str>),
    Numbered(Arc<Pieces>, u32, u32),
}

/// A pattern's text with its numbers, for formatting.
struct Numbered<'p> {
    pieces: &'p Pieces,
    i: u64,
    j: u64,
}

impl Numbered<'_> {
    /// Writes the name, its numbers by itoa: a report names every constant
    /// this way, and the formatting machinery costs more than the name.
    fn write_to(&self, out: &mut impl fmt::Write) -> fmt::Result {
        let p = self.pieces;
        let mut digits = itoa::Buffer::new();
        out.write_str(&p.before)?;
        out.write_str(digits.format(self.i))?;
        if let Some(b) = &p.between {
            out.write_str(b)?;
            out.write_str(digits.format(self.j))?;
        }
        out.write_str(&p.after)
    }
}

impl fmt::Display for Numbered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

/// Room for most names, so comparing names formats them without allocating.
const STACK: usize = 120;

/// Text written on the stack, moving to the heap when it does not fit.
struct StackText {
    buf: [u8; STACK],
    len: usize,
    heap: Option<String>,
}

impl StackText {
    fn new() -> Self {
        StackText { buf: [0; STACK], len: 0, heap: None }
    }

    fn as_str(&self) -> &str {
        match &self.heap {
            Some(s) => s,
            // only whole `str`s are copied in
            None => self.buf.get(..self.len).and_then(|b| std::str::from_utf8(b).ok()).unwrap_or_default(),
        }
    }
}

impl fmt::Write for StackText {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if let Some(h) = &mut self.heap {
            h.push_str(s);
            return Ok(());
        }
        let end = self.len.checked_add(s.len()).filter(|&e| e <= STACK);
        match end.and_then(|e| Some((e, self.buf.get_mut(self.len..e)?))) {
            Some((e, room)) => {
                room.copy_from_slice(s.as_bytes());
                self.len = e;
            }
            None => {
                let mut h = String::with_capacity(self.len.saturating_add(s.len()).saturating_mul(2));
                h.push_str(self.as_str());
                h.push_str(s);
                self.heap = Some(h);
            }
        }
        Ok(())
    }
}

impl Name {
    /// Calls `f` with the name's text, formatted on the stack if need be.
    fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        match &self.0 {
            Repr::Text(t) => f(t),
            Repr::Numbered(p, i, j) => {
                let mut s = StackText::new();
                let _ = Numbered { pieces: p, i: u64::from(*i), j: u64::from(*j) }.write_to(&mut s);
                f(s.as_str())
            }
        }
    }

    /// The name's text when it is stored as text (not a pattern's).
    ///
    /// ```
    /// use pte_analysis::size::{Name, Pattern};
    /// assert_eq!(Name::from("eh00").as_text(), Some("eh00"));
    /// assert_eq!(Pattern::one("s[", "]").name(1).as_text(), None);
    /// ```
    pub fn as_text(&self) -> Option<&str> {
        match &self.0 {
            Repr::Text(t) => Some(t),
            Repr::Numbered(..) => None,
        }
    }

    /// The same name with `prefix` in front; patterns are prefixed once per
    /// `cache` (a nested file's families stay shared).
    pub(super) fn prefixed(&self, prefix: &str, cache: &mut PrefixCache) -> Name {
        match &self.0 {
            Repr::Text(t) => Name(Repr::Text(format!("{prefix}{t}").into())),
            Repr::Numbered(p, i, j) => {
                let key = Arc::as_ptr(p) as usize;
                // the original is held beside its prefixed copy, so its
                // address cannot be freed and reused for another pattern
                let (_, q) = cache.0.entry(key).or_insert_with(|| {
                    let q = Pieces {
                        before: format!("{prefix}{}", p.before).into(),
                        between: p.between.clone(),
                        after: p.after.clone(),
                    };
                    (p.clone(), Arc::new(q))
                });
                Name(Repr::Numbered(q.clone(), *i, *j))
            }
        }
    }
}

/// The prefixed patterns of one nesting, by the address of the original
/// (held here too).
#[derive(Default)]
pub(super) struct PrefixCache(HashMap<usize, (Arc<Pieces>, Arc<Pieces>)>);

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Text(t) => f.write_str(t),
            Repr::Numbered(p, i, j) => Numbered { pieces: p, i: u64::from(*i), j: u64::from(*j) }.fmt(f),
        }
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.with_text(|t| fmt::Debug::fmt(t, f))
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        Name(Repr::Text(s.into()))
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name(Repr::Text(s.into()))
    }
}

impl From<&Label> for Name {
    fn from(s: &Label) -> Name {
        Name::from(&**s)
    }
}

impl Name {
    /// Whether both are one pattern's name for the same numbers: equal
    /// without writing either out.
    fn same_numbering(&self, other: &Name) -> bool {
        match (&self.0, &other.0) {
            (Repr::Numbered(p, i, j), Repr::Numbered(q, k, l)) if Arc::ptr_eq(p, q) => {
                (i, j) == (k, l) || (p.between.is_none() && i == k)
            }
            _ => false,
        }
    }
}

impl PartialEq for Name {
    fn eq(&self, other: &Name) -> bool {
        self.same_numbering(other) || self.with_text(|a| other.with_text(|b| a == b))
    }
}

impl Eq for Name {}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.with_text(|a| a == other)
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self == *other
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Name) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Name {
    fn cmp(&self, other: &Name) -> Ordering {
        if self.same_numbering(other) {
            return Ordering::Equal;
        }
        self.with_text(|a| other.with_text(|b| a.cmp(b)))
    }
}

impl serde::Serialize for Name {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // one string, escaped in one pass
        self.with_text(|t| s.serialize_str(t))
    }
}

/// The name of an operator or delegate, shared by every part it consumes.
///
/// ```
/// let l = pte_analysis::size::Label::from("aten::mm.out");
/// assert_eq!(&*l, "aten::mm.out");
/// assert_eq!(l.clone(), "aten::mm.out");
/// ```
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Label(Arc<Box<str>>);

impl Deref for Label {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Label {
    fn as_ref(&self) -> &str {
        self
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

impl fmt::Debug for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl From<&str> for Label {
    fn from(s: &str) -> Label {
        Label(Arc::new(s.into()))
    }
}

impl From<String> for Label {
    fn from(s: String) -> Label {
        Label(Arc::new(s.into()))
    }
}

impl PartialEq<str> for Label {
    fn eq(&self, other: &str) -> bool {
        **self == *other
    }
}

impl PartialEq<&str> for Label {
    fn eq(&self, other: &&str) -> bool {
        **self == **other
    }
}

impl serde::Serialize for Label {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn names_compare_as_their_text() {
        let p = Pattern::one("constant[", "]");
        let long = "x".repeat(300);
        let q = Pattern::one(&long, "]");
        let mut names = [p.name(9), p.name(10), Name::from("constant[1]"), q.name(2), q.name(1), p.name(9)];
        names.sort();
        let text: Vec<String> = names.iter().map(ToString::to_string).collect();
        let mut expected = text.clone();
        expected.sort();
        assert_eq!(text, expected);
        assert_eq!(q.name(1), format!("{long}1]").as_str());
        assert_eq!(p.name(1), Name::from("constant[1]"));
        assert_ne!(p.name(1), p.name(2));
    }

    #[test]
    fn prefixed_patterns_are_shared() {
        let p = Pattern::two("f.cases[", "].inputs[", "]");
        let mut cache = PrefixCache::default();
        let a = p.name2(1, 2).prefixed("program:", &mut cache);
        let b = p.name2(3, 4).prefixed("program:", &mut cache);
        assert_eq!(a, "program:f.cases[1].inputs[2]");
        assert_eq!(b, "program:f.cases[3].inputs[4]");
        assert_eq!(cache.0.len(), 1);
        assert_eq!(Name::from("x").prefixed("p:", &mut cache), "p:x");
    }
}
