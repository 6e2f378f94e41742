//! Bounds applied while verifying untrusted flatbuffers.

use pte_core::{Error, ErrorKind, Result};

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
    /// Most entries in a segment table (`.pte` and `.ptd`).
    pub max_segments: usize,
    /// Most named-data entries (`.pte` and `.ptd`).
    pub max_named_data: usize,
    /// Longest named-data key or external tensor name, in bytes.
    pub max_key_len: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 64,
            max_tables: None,
            apparent_size_factor: 8,
            max_apparent_size: 1 << 31,
            max_segments: 1 << 20,
            max_named_data: 1 << 20,
            max_key_len: 4096,
        }
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
            max_segments: usize::MAX,
            max_named_data: usize::MAX,
            max_key_len: usize::MAX,
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

    /// Checks a program's segment table, named data and key lengths: the
    /// readers apply it after decoding, and the writers before writing, so a
    /// file we write always reads back under the default limits.
    ///
    /// ```
    /// let mut p = pte_schema::Program::default();
    /// p.named_data = Some(vec![pte_schema::NamedData { key: Some("k".repeat(5000)), segment_index: 0 }]);
    /// let e = pte_schema::Limits::default().check_program(&p).unwrap_err();
    /// assert_eq!(e.kind(), pte_schema::ErrorKind::LimitExceeded);
    /// assert_eq!(e.path(), "named_data[0].key");
    /// assert!(pte_schema::Limits::unlimited().check_program(&p).is_ok());
    /// ```
    pub fn check_program(&self, p: &crate::Program<'_>) -> Result<()> {
        self.count("segments", p.segment_table().len(), self.max_segments)?;
        let named = p.named_data.as_deref().unwrap_or(&[]);
        self.count("named_data", named.len(), self.max_named_data)?;
        for (i, n) in named.iter().enumerate() {
            self.key(|| format!("named_data[{i}].key"), n.key.as_deref())?;
        }
        for (i, plan) in p.plans().iter().enumerate() {
            for (j, v) in plan.value_list().iter().enumerate() {
                if let Some(crate::KernelTypes::Tensor(t)) = &v.val {
                    self.key(
                        || format!("execution_plan[{i}].values[{j}].val.extra_tensor_info.fully_qualified_name"),
                        t.fqn(),
                    )?;
                }
            }
        }
        Ok(())
    }

    pub(crate) fn count(&self, what: &str, n: usize, max: usize) -> Result<()> {
        if n > max {
            return Err(Error::new(ErrorKind::LimitExceeded, format!("{n} {what} entries exceed the limit of {max}"))
                .at_path(what));
        }
        Ok(())
    }

    pub(crate) fn key(&self, path: impl FnOnce() -> String, key: Option<&str>) -> Result<()> {
        match key {
            Some(k) if k.len() > self.max_key_len => Err(Error::new(
                ErrorKind::LimitExceeded,
                format!("a {}-byte key exceeds the limit of {}", k.len(), self.max_key_len),
            )
            .at_path(path())),
            _ => Ok(()),
        }
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
