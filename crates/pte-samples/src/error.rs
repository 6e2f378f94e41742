//! Errors: each reading rule has its own [`SampleRule`], on top of the workspace's
//! [`ErrorKind`] taxonomy, so callers (and tests) match on the rule, never
//! on a message.

use std::fmt;

use pte_schema::ErrorKind;

use crate::rules;

/// Which rule a sidecar or a call to the writer broke.
///
/// ```
/// assert_eq!(pte_samples::SampleRule::MissingTensor.name(), "missing_tensor");
/// assert_eq!(pte_samples::SampleRule::UnknownVersion.kind(), pte_samples::ErrorKind::Unsupported);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SampleRule {
    /// A method or set name is not a single plain path segment.
    Name,
    /// A member under `samples/` is not `samples/<method>/<set>/index.json` or
    /// `data.safetensors`, one of the pair is missing, or the directory names
    /// differ from the method and set the index declares.
    Layout,
    /// The index is not JSON of the documented shape (syntax, a missing or
    /// unknown field, a value of the wrong type).
    Index,
    /// The index's `format` tag or `version` is not one this crate reads.
    UnknownVersion,
    /// A tolerance is negative or not finite.
    Tolerance,
    /// A tensor key is not in `data.safetensors`.
    MissingTensor,
    /// A tensor's declared dtype differs from the stored one.
    DtypeMismatch,
    /// A tensor's declared shape differs from the stored one.
    ShapeMismatch,
    /// `data.safetensors` holds a tensor no value refers to.
    UnreferencedTensor,
    /// Two values refer to the same tensor key (each key is used once, so a
    /// rewrite is never larger than what was read).
    ReusedTensor,
    /// `data.safetensors` itself is not a valid safetensors blob.
    Safetensors,
    /// A size or count is over the configured [`SampleLimits`](crate::SampleLimits).
    Limit,
    /// Two sets share a method and name.
    DuplicateSet,
    /// A set records calls to a method the program lacks (refused by the
    /// writer, reported by [`check_sidecar`](crate::check_sidecar)).
    UnknownMethod,
    /// A call's inputs or outputs contradict the signature of the method it
    /// calls: their count, or a tensor's dtype, rank or a size (static
    /// dimensions exactly, dynamic ones within their range).
    Signature,
    /// The writer was handed an inconsistent set (a tensor whose bytes do not
    /// match its shape, removing a set the package lacks).
    InvalidUse,
    /// The package itself did not read or write, or a file operation failed.
    Package,
}

impl SampleRule {
    /// Every rule, in declaration order.
    pub const ALL: &'static [SampleRule] = &[
        SampleRule::Name,
        SampleRule::Layout,
        SampleRule::Index,
        SampleRule::UnknownVersion,
        SampleRule::Tolerance,
        SampleRule::MissingTensor,
        SampleRule::DtypeMismatch,
        SampleRule::ShapeMismatch,
        SampleRule::UnreferencedTensor,
        SampleRule::ReusedTensor,
        SampleRule::Safetensors,
        SampleRule::Limit,
        SampleRule::DuplicateSet,
        SampleRule::UnknownMethod,
        SampleRule::Signature,
        SampleRule::InvalidUse,
        SampleRule::Package,
    ];

    /// The rule's short name (`missing_tensor`), as errors print it: its
    /// [`verifier_rule`](SampleRule::verifier_rule) without the `ptn.samples.` prefix.
    ///
    /// ```
    /// assert_eq!(pte_samples::SampleRule::Layout.name(), "layout");
    /// assert_eq!(pte_samples::SampleRule::MissingTensor.name(), "missing_tensor");
    /// ```
    pub fn name(self) -> &'static str {
        let full = self.verifier_rule().name();
        full.strip_prefix("ptn.samples.").unwrap_or(full)
    }

    /// The rule as `pte verify` reports it (`ptn.samples.missing_tensor`),
    /// one of [`CATALOGUE`](crate::CATALOGUE).
    ///
    /// ```
    /// assert_eq!(pte_samples::SampleRule::Name.verifier_rule().name(), "ptn.samples.name");
    /// ```
    pub fn verifier_rule(self) -> pte_core::Rule {
        match self {
            SampleRule::Name => rules::PTN_SAMPLES_NAME,
            SampleRule::Layout => rules::PTN_SAMPLES_LAYOUT,
            SampleRule::Index => rules::PTN_SAMPLES_INDEX,
            SampleRule::UnknownVersion => rules::PTN_SAMPLES_UNKNOWN_VERSION,
            SampleRule::Tolerance => rules::PTN_SAMPLES_TOLERANCE,
            SampleRule::MissingTensor => rules::PTN_SAMPLES_MISSING_TENSOR,
            SampleRule::DtypeMismatch => rules::PTN_SAMPLES_DTYPE_MISMATCH,
            SampleRule::ShapeMismatch => rules::PTN_SAMPLES_SHAPE_MISMATCH,
            SampleRule::UnreferencedTensor => rules::PTN_SAMPLES_UNREFERENCED_TENSOR,
            SampleRule::ReusedTensor => rules::PTN_SAMPLES_REUSED_TENSOR,
            SampleRule::Safetensors => rules::PTN_SAMPLES_SAFETENSORS,
            SampleRule::Limit => rules::PTN_SAMPLES_LIMIT,
            SampleRule::DuplicateSet => rules::PTN_SAMPLES_DUPLICATE_SET,
            SampleRule::UnknownMethod => rules::PTN_SAMPLES_UNKNOWN_METHOD,
            SampleRule::Signature => rules::PTN_SAMPLES_SIGNATURE,
            SampleRule::InvalidUse => rules::PTN_SAMPLES_INVALID_USE,
            SampleRule::Package => rules::PTN_SAMPLES_PACKAGE,
        }
    }

    /// The error kind a breach of this rule has when reading
    /// ([`SampleRule::Safetensors`] and [`SampleRule::Package`] keep the underlying kind).
    ///
    /// ```
    /// assert_eq!(pte_samples::SampleRule::Limit.kind(), pte_samples::ErrorKind::LimitExceeded);
    /// ```
    pub fn kind(self) -> ErrorKind {
        match self {
            SampleRule::UnknownVersion => ErrorKind::Unsupported,
            SampleRule::Limit => ErrorKind::LimitExceeded,
            SampleRule::UnknownMethod | SampleRule::InvalidUse => ErrorKind::InvalidUse,
            _ => ErrorKind::Malformed,
        }
    }
}

impl fmt::Display for SampleRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A samples error: the rule broken and the workspace error (kind, path such
/// as `samples/forward/smoke/index.json:samples[0].calls[1].outputs[0]`, byte offset).
///
/// ```
/// let e = pte_samples::parse_set(b"{", b"", None, &Default::default()).unwrap_err();
/// assert_eq!(e.rule(), pte_samples::SampleRule::Index);
/// assert_eq!(e.kind(), pte_samples::ErrorKind::Malformed);
/// assert!(e.to_string().starts_with("[index]"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    rule: SampleRule,
    inner: pte_schema::Error,
}

impl Error {
    /// An error breaking `rule`, with the rule's kind.
    ///
    /// ```
    /// let e = pte_samples::Error::new(pte_samples::SampleRule::Name, "bad");
    /// assert_eq!(e.message(), "bad");
    /// ```
    pub fn new(rule: SampleRule, message: impl Into<String>) -> Self {
        Error { rule, inner: pte_schema::Error::new(rule.kind(), message) }
    }

    /// Wraps a workspace error under `rule`, keeping its kind, path and offset.
    ///
    /// ```
    /// let base = pte_schema::Error::new(pte_schema::ErrorKind::Io, "disk full");
    /// let e = pte_samples::Error::wrap(pte_samples::SampleRule::Package, base);
    /// assert_eq!(e.kind(), pte_samples::ErrorKind::Io);
    /// ```
    pub fn wrap(rule: SampleRule, inner: pte_schema::Error) -> Self {
        Error { rule, inner }
    }

    /// Sets the path (member, then `:` and the field path inside it).
    ///
    /// ```
    /// assert_eq!(pte_samples::Error::new(pte_samples::SampleRule::Name, "x").at_path("a").path(), "a");
    /// ```
    pub fn at_path(mut self, path: impl Into<String>) -> Self {
        self.inner = self.inner.at_path(path);
        self
    }

    /// Sets the byte offset inside the member the path names.
    ///
    /// ```
    /// assert_eq!(pte_samples::Error::new(pte_samples::SampleRule::Index, "x").at_offset(3).offset(), Some(3));
    /// ```
    pub fn at_offset(mut self, offset: u64) -> Self {
        self.inner = self.inner.at_offset(offset);
        self
    }

    /// The rule broken.
    ///
    /// ```
    /// assert_eq!(pte_samples::Error::new(pte_samples::SampleRule::Limit, "x").rule(), pte_samples::SampleRule::Limit);
    /// ```
    pub fn rule(&self) -> SampleRule {
        self.rule
    }

    /// The error kind.
    ///
    /// ```
    /// assert_eq!(pte_samples::Error::new(pte_samples::SampleRule::Limit, "x").kind(), pte_samples::ErrorKind::LimitExceeded);
    /// ```
    pub fn kind(&self) -> ErrorKind {
        self.inner.kind()
    }

    /// Where: the member and the field path inside it.
    ///
    /// ```
    /// assert_eq!(pte_samples::Error::new(pte_samples::SampleRule::Limit, "x").path(), "");
    /// ```
    pub fn path(&self) -> &str {
        self.inner.path()
    }

    /// Byte offset inside the member, when known.
    ///
    /// ```
    /// assert_eq!(pte_samples::Error::new(pte_samples::SampleRule::Limit, "x").offset(), None);
    /// ```
    pub fn offset(&self) -> Option<u64> {
        self.inner.offset()
    }

    /// The description, without rule, path and offset.
    ///
    /// ```
    /// assert_eq!(pte_samples::Error::new(pte_samples::SampleRule::Limit, "x").message(), "x");
    /// ```
    pub fn message(&self) -> &str {
        self.inner.message()
    }

    /// Prefixes the path with the member the error was found in.
    pub(crate) fn in_member(mut self, member: &str) -> Self {
        let path = if self.inner.path().is_empty() {
            member.to_string()
        } else if self.inner.path().starts_with(member) {
            self.inner.path().to_string()
        } else {
            format!("{member}:{}", self.inner.path())
        };
        self.inner = self.inner.at_path(path);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] {}", self.rule, self.inner)
    }
}

impl std::error::Error for Error {}

impl From<Error> for pte_schema::Error {
    fn from(e: Error) -> Self {
        let mut out =
            pte_schema::Error::new(e.kind(), format!("[{}] {}", e.rule, e.message())).at_path(e.path().to_string());
        if let Some(o) = e.offset() {
            out = out.at_offset(o);
        }
        out
    }
}

/// Result alias for this crate.
pub type Result<T> = std::result::Result<T, Error>;
