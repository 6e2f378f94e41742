//! Every rule of the samples sidecar as a typed [`Rule`],
//! under the `ptn.samples.` prefix `pte verify` reports them with, and the
//! [`CATALOGUE`] docs/verifier.md is generated from. A data table.
//!
//! ```
//! assert_eq!(pte_samples::rules::PTN_SAMPLES_MISSING_TENSOR.name(), "ptn.samples.missing_tensor");
//! assert_eq!(pte_samples::SampleRule::MissingTensor.verifier_rule(), pte_samples::rules::PTN_SAMPLES_MISSING_TENSOR);
//! ```

use pte_core::{Catalogue, Rule};

/// The `ptn.samples.name` rule ([`crate::SampleRule::Name`]).
pub const PTN_SAMPLES_NAME: Rule =
    Rule::new("ptn.samples.name", "A method or set name is not a single plain path segment.");
/// The `ptn.samples.layout` rule ([`crate::SampleRule::Layout`]).
pub const PTN_SAMPLES_LAYOUT: Rule = Rule::new("ptn.samples.layout", "A member under `samples/` is not `samples/<method>/<set>/index.json` or `data.safetensors`, one of the pair is missing, or the directory names differ from the method and set the index declares.");
/// The `ptn.samples.index` rule ([`crate::SampleRule::Index`]).
pub const PTN_SAMPLES_INDEX: Rule = Rule::new(
    "ptn.samples.index",
    "The index is not JSON of the documented shape (syntax, a missing or unknown field, a value of the wrong type).",
);
/// The `ptn.samples.unknown_version` rule ([`crate::SampleRule::UnknownVersion`]).
pub const PTN_SAMPLES_UNKNOWN_VERSION: Rule =
    Rule::new("ptn.samples.unknown_version", "The index's `format` tag or `version` is not one this crate reads.");
/// The `ptn.samples.tolerance` rule ([`crate::SampleRule::Tolerance`]).
pub const PTN_SAMPLES_TOLERANCE: Rule = Rule::new("ptn.samples.tolerance", "A tolerance is negative or not finite.");
/// The `ptn.samples.missing_tensor` rule ([`crate::SampleRule::MissingTensor`]).
pub const PTN_SAMPLES_MISSING_TENSOR: Rule =
    Rule::new("ptn.samples.missing_tensor", "A tensor key is not in `data.safetensors`.");
/// The `ptn.samples.dtype_mismatch` rule ([`crate::SampleRule::DtypeMismatch`]).
pub const PTN_SAMPLES_DTYPE_MISMATCH: Rule =
    Rule::new("ptn.samples.dtype_mismatch", "A tensor's declared dtype differs from the stored one.");
/// The `ptn.samples.shape_mismatch` rule ([`crate::SampleRule::ShapeMismatch`]).
pub const PTN_SAMPLES_SHAPE_MISMATCH: Rule =
    Rule::new("ptn.samples.shape_mismatch", "A tensor's declared shape differs from the stored one.");
/// The `ptn.samples.unreferenced_tensor` rule ([`crate::SampleRule::UnreferencedTensor`]).
pub const PTN_SAMPLES_UNREFERENCED_TENSOR: Rule =
    Rule::new("ptn.samples.unreferenced_tensor", "`data.safetensors` holds a tensor no value refers to.");
/// The `ptn.samples.reused_tensor` rule ([`crate::SampleRule::ReusedTensor`]).
pub const PTN_SAMPLES_REUSED_TENSOR: Rule = Rule::new(
    "ptn.samples.reused_tensor",
    "Two values refer to the same tensor key (each key is used once, so a rewrite is never larger than what was read).",
);
/// The `ptn.samples.safetensors` rule ([`crate::SampleRule::Safetensors`]).
pub const PTN_SAMPLES_SAFETENSORS: Rule =
    Rule::new("ptn.samples.safetensors", "`data.safetensors` itself is not a valid safetensors blob.");
/// The `ptn.samples.limit` rule ([`crate::SampleRule::Limit`]).
pub const PTN_SAMPLES_LIMIT: Rule =
    Rule::new("ptn.samples.limit", "A size or count is over the configured `SampleLimits`.");
/// The `ptn.samples.duplicate_set` rule ([`crate::SampleRule::DuplicateSet`]).
pub const PTN_SAMPLES_DUPLICATE_SET: Rule = Rule::new("ptn.samples.duplicate_set", "Two sets share a method and name.");
/// The `ptn.samples.unknown_method` rule ([`crate::SampleRule::UnknownMethod`]).
pub const PTN_SAMPLES_UNKNOWN_METHOD: Rule = Rule::new(
    "ptn.samples.unknown_method",
    "A set records calls to a method the program lacks (refused by the writer, reported by `check_sidecar`).",
);
/// The `ptn.samples.signature` rule ([`crate::SampleRule::Signature`]).
pub const PTN_SAMPLES_SIGNATURE: Rule = Rule::new("ptn.samples.signature", "A call's inputs or outputs contradict the signature of the method it calls: their count, or a tensor's dtype, rank or a size (static dimensions exactly, dynamic ones within their range).");
/// The `ptn.samples.invalid_use` rule ([`crate::SampleRule::InvalidUse`]).
pub const PTN_SAMPLES_INVALID_USE: Rule = Rule::new("ptn.samples.invalid_use", "The writer was handed an inconsistent set (a tensor whose bytes do not match its shape, removing a set the package lacks).");
/// The `ptn.samples.package` rule ([`crate::SampleRule::Package`]).
pub const PTN_SAMPLES_PACKAGE: Rule =
    Rule::new("ptn.samples.package", "The package itself did not read or write, or a file operation failed.");

/// The sidecar rules.
pub const CATALOGUE: Catalogue = Catalogue {
    format: "The `.ptn` samples sidecar",
    intro: "`pte verify` also reads a package's `samples/` sidecar (library: `pte_samples::check_sidecar`; \
format in `docs/samples.md`). Reading stops at the first broken rule; every set naming a method the program \
lacks is reported.",
    rules: &[
        PTN_SAMPLES_NAME,
        PTN_SAMPLES_LAYOUT,
        PTN_SAMPLES_INDEX,
        PTN_SAMPLES_UNKNOWN_VERSION,
        PTN_SAMPLES_TOLERANCE,
        PTN_SAMPLES_MISSING_TENSOR,
        PTN_SAMPLES_DTYPE_MISMATCH,
        PTN_SAMPLES_SHAPE_MISMATCH,
        PTN_SAMPLES_UNREFERENCED_TENSOR,
        PTN_SAMPLES_REUSED_TENSOR,
        PTN_SAMPLES_SAFETENSORS,
        PTN_SAMPLES_LIMIT,
        PTN_SAMPLES_DUPLICATE_SET,
        PTN_SAMPLES_UNKNOWN_METHOD,
        PTN_SAMPLES_SIGNATURE,
        PTN_SAMPLES_INVALID_USE,
        PTN_SAMPLES_PACKAGE,
    ],
};
