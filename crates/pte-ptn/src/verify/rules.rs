//! Every rule of the `.ptn` verifier as a typed [`Rule`], and the
//! [`CATALOGUE`] docs/verifier.md is generated from. A data table.
//!
//! ```
//! use pte_ptn::verify::rules;
//! assert_eq!(rules::PTN_CONTAINER.name(), "ptn.container");
//! assert!(rules::CATALOGUE.find("ptn.unreferenced").is_some());
//! ```

use pte_core::{Catalogue, Rule};

/// The `ptn.container` rule.
pub const PTN_CONTAINER: Rule = Rule::new("ptn.container", "the zip is read strictly: one end record ending the file, no prepended bytes, no duplicate, unsafe, overlapping or encrypted members, local headers agreeing with the central directory, CRCs matching, stored or deflated members only");
/// The `ptn.program` rule.
pub const PTN_PROGRAM: Rule =
    Rule::new("ptn.program", "program.ptg is present and is a valid NPTG flatbuffer within the limits");
/// The `ptn.safetensors` rule.
pub const PTN_SAFETENSORS: Rule = Rule::new("ptn.safetensors", "program.safetensors has a bounded header of unique keys, contiguous tensor ranges ending the member, sizes matching shapes, and supported dtypes");
/// The `ptn.aliases` rule.
pub const PTN_ALIASES: Rule = Rule::new(
    "ptn.aliases",
    "aliases.json is an object of strings; every alias names a real owner, no key is both, __metadata__ is never a key",
);
/// The `ptn.data_key` rule.
pub const PTN_DATA_KEY: Rule = Rule::new(
    "ptn.data_key",
    "every data key the program references (constants and quantization scales and zero points) resolves to a tensor",
);
/// The `ptn.dtype` rule.
pub const PTN_DTYPE: Rule = Rule::new("ptn.dtype", "a referenced tensor is stored with the dtype the program declares");
/// The `ptn.shape` rule.
pub const PTN_SHAPE: Rule =
    Rule::new("ptn.shape", "a referenced (unquantized) tensor is stored with the shape the program declares");
/// The `ptn.mutable_alias` rule.
pub const PTN_MUTABLE_ALIAS: Rule =
    Rule::new("ptn.mutable_alias", "a mutable data key owns its bytes: it is neither an alias nor an alias target");
/// The `ptn.unreferenced` rule.
pub const PTN_UNREFERENCED: Rule =
    Rule::new("ptn.unreferenced", "warning: a stored tensor that no data key of the program references");

/// The package rules.
pub const CATALOGUE: Catalogue = Catalogue {
    format: "`.ptn` packages",
    intro: "`pte verify PACKAGE.ptn` (library: `pte_ptn::verify::verify_ptn_bytes`) applies these rules. \
A container, program, safetensors or aliases failure stops the run; the cross-reference rules are all \
reported together.",
    rules: &[
        PTN_CONTAINER,
        PTN_PROGRAM,
        PTN_SAFETENSORS,
        PTN_ALIASES,
        PTN_DATA_KEY,
        PTN_DTYPE,
        PTN_SHAPE,
        PTN_MUTABLE_ALIAS,
        PTN_UNREFERENCED,
    ],
};
