//! Bounds applied while verifying untrusted flatbuffers.

/// Verifier bounds. The defaults tie the work and memory a read may cost to the
/// size of the input, so a small file cannot expand to gigabytes through
/// shared sub-objects.
///
/// ```
/// let l = pte_schema::Limits::default();
/// assert_eq!(l.max_depth, 64);
/// assert!(l.max_apparent_size_for(1000) <= 8000);
/// assert!(pte_schema::Limits::unlimited().max_apparent_size_for(1000) >= 1 << 31);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest table nesting accepted (the runtime's verifier uses 64).
    pub max_depth: usize,
    /// Most tables visited; `None` derives it from the input length (a table
    /// needs at least 4 bytes, so a real file never visits more than len / 4).
    pub max_tables: Option<usize>,
    /// Apparent size (the DAG expanded as a tree) allowed per input byte.
    pub apparent_size_factor: usize,
    /// Absolute cap on the apparent size.
    pub max_apparent_size: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_depth: 64, max_tables: None, apparent_size_factor: 8, max_apparent_size: 1 << 31 }
    }
}

impl Limits {
    /// No bounds beyond what flatbuffers itself can address.
    ///
    /// ```
    /// assert_eq!(pte_schema::Limits::unlimited().max_tables_for(10), usize::MAX);
    /// ```
    pub fn unlimited() -> Self {
        Limits {
            max_depth: usize::MAX,
            max_tables: Some(usize::MAX),
            apparent_size_factor: usize::MAX,
            max_apparent_size: usize::MAX,
        }
    }

    /// Table-visit bound for an input of `len` bytes.
    ///
    /// ```
    /// assert_eq!(pte_schema::Limits::default().max_tables_for(4000), 1016);
    /// ```
    pub fn max_tables_for(&self, len: usize) -> usize {
        self.max_tables.unwrap_or_else(|| (len / 4).saturating_add(16))
    }

    /// Apparent-size bound for an input of `len` bytes.
    ///
    /// ```
    /// assert_eq!(pte_schema::Limits::default().max_apparent_size_for(100), 800);
    /// ```
    pub fn max_apparent_size_for(&self, len: usize) -> usize {
        len.saturating_mul(self.apparent_size_factor).min(self.max_apparent_size)
    }

    pub(crate) fn verifier_options(&self, len: usize) -> flatbuffers::VerifierOptions {
        flatbuffers::VerifierOptions {
            max_depth: self.max_depth,
            max_tables: self.max_tables_for(len),
            max_apparent_size: self.max_apparent_size_for(len),
            ignore_missing_null_terminator: false,
        }
    }
}
