//! The other names of a part's bytes: at most [`MAX_SHARED`] names and a
//! count of the rest, nothing at all (one null pointer) for the many parts
//! sharing nothing.

use std::fmt;

use super::Name;

/// At most this many names are listed in a part's `shared_with`.
pub(super) const MAX_SHARED: usize = 16;

/// Other names referring to exactly a part's bytes: the first
/// [`MAX_SHARED`](SharedWith::MAX) and how many more. Shown (and written as
/// JSON) as the names followed by `and N more`.
///
/// ```
/// use pte_analysis::size::{Claim, Partition};
/// let mut p = Partition::new(4);
/// for i in 0..20 {
///     p.add(Claim::new(format!("s{i}"), "segment", 0..4, 0));
/// }
/// let r = p.finish("pte");
/// let shared = &r.parts[0].shared_with;
/// assert_eq!((shared.names().len(), shared.more()), (16, 3));
/// assert_eq!(shared.to_strings().last().map(String::as_str), Some("and 3 more"));
/// assert!(shared.to_string().starts_with("s1, s2, "));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SharedWith(Option<Box<Shared>>);

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Shared {
    names: Vec<Name>,
    more: u64,
}

impl SharedWith {
    /// How many names are listed at most.
    pub const MAX: usize = MAX_SHARED;

    /// Whether no other name refers to the bytes.
    ///
    /// ```
    /// assert!(pte_analysis::size::SharedWith::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// The entries shown: the names, and one `and N more` when there are more.
    ///
    /// ```
    /// assert_eq!(pte_analysis::size::SharedWith::default().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |s| s.names.len().saturating_add(usize::from(s.more > 0)))
    }

    /// The names listed.
    ///
    /// ```
    /// assert!(pte_analysis::size::SharedWith::default().names().is_empty());
    /// ```
    pub fn names(&self) -> &[Name] {
        self.0.as_ref().map_or(&[], |s| &s.names)
    }

    /// How many names are left out of the list.
    ///
    /// ```
    /// assert_eq!(pte_analysis::size::SharedWith::default().more(), 0);
    /// ```
    pub fn more(&self) -> u64 {
        self.0.as_ref().map_or(0, |s| s.more)
    }

    /// The entries as text: the names, then `and N more`.
    ///
    /// ```
    /// assert!(pte_analysis::size::SharedWith::default().to_strings().is_empty());
    /// ```
    pub fn to_strings(&self) -> Vec<String> {
        let mut v: Vec<String> = self.names().iter().map(ToString::to_string).collect();
        if self.more() > 0 {
            v.push(more_text(self.more()));
        }
        v
    }

    /// Adds one name (counted past [`SharedWith::MAX`]).
    pub(super) fn push(&mut self, name: Name) {
        let s = self.0.get_or_insert_with(Box::default);
        if s.names.len() < MAX_SHARED {
            s.names.push(name);
        } else {
            s.more = s.more.saturating_add(1);
        }
    }

    /// Adds the names and count of `other`, after the ones here.
    pub(super) fn append(&mut self, other: SharedWith) {
        let Some(o) = other.0 else { return };
        for n in o.names {
            self.push(n);
        }
        if o.more > 0 {
            let s = self.0.get_or_insert_with(Box::default);
            s.more = s.more.saturating_add(o.more);
        }
    }

    /// The same names with `f` applied (a nested file's prefix).
    pub(super) fn map(self, mut f: impl FnMut(&Name) -> Name) -> SharedWith {
        SharedWith(self.0.map(|s| Box::new(Shared { names: s.names.iter().map(&mut f).collect(), more: s.more })))
    }
}

fn more_text(n: u64) -> String {
    format!("and {n} more")
}

impl fmt::Display for SharedWith {
    /// The entries joined with `, `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for n in self.names() {
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            write!(f, "{n}")?;
        }
        if self.more() > 0 {
            if !first {
                f.write_str(", ")?;
            }
            write!(f, "and {} more", self.more())?;
        }
        Ok(())
    }
}

impl serde::Serialize for SharedWith {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for n in self.names() {
            seq.serialize_element(n)?;
        }
        if self.more() > 0 {
            seq.serialize_element(&more_text(self.more()))?;
        }
        seq.end()
    }
}
