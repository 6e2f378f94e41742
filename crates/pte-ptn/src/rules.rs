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

/// The `ptn.stored` rule.
pub const PTN_STORED: Rule = Rule::new("ptn.stored", "every member is stored, not compressed: upstream's C++ package reader serves stored members only (a deflated member is still read here, as exir's Python reader reads it)");
/// The `ptn.limit.program` rule.
pub const PTN_LIMIT_PROGRAM: Rule =
    Rule::new("ptn.limit.program", "program.ptg, by its declared size, is at most 1 GiB (upstream's C++ reader's cap)");
/// The `ptn.limit.json_size` rule.
pub const PTN_LIMIT_JSON_SIZE: Rule = Rule::new(
    "ptn.limit.json_size",
    "every *.json member, by its declared size, is at most 64 MiB (upstream's C++ reader's cap)",
);
/// The `ptn.limit.json_depth` rule.
pub const PTN_LIMIT_JSON_DEPTH: Rule = Rule::new("ptn.limit.json_depth", "arrays and objects nest at most 64 deep in every *.json member and in the safetensors header (upstream's C++ reader's cap)");
/// The `ptn.limit.rank` rule.
pub const PTN_LIMIT_RANK: Rule =
    Rule::new("ptn.limit.rank", "every stored tensor has rank 64 or less (upstream's C++ reader's cap)");
/// The `ptn.limit.dim` rule.
pub const PTN_LIMIT_DIM: Rule =
    Rule::new("ptn.limit.dim", "every stored tensor dimension is below 2^31 (upstream's C++ reader's cap)");
/// The `ptn.limit.members` rule.
pub const PTN_LIMIT_MEMBERS: Rule =
    Rule::new("ptn.limit.members", "the zip has at most 2^20 members (upstream's C++ reader's cap)");
/// The `ptn.limit.tensors` rule.
pub const PTN_LIMIT_TENSORS: Rule =
    Rule::new("ptn.limit.tensors", "program.safetensors holds at most 2^20 tensors (upstream's C++ reader's cap)");
/// The `ptn.limit.aliases` rule.
pub const PTN_LIMIT_ALIASES: Rule =
    Rule::new("ptn.limit.aliases", "aliases.json holds at most 2^20 aliases (upstream's C++ reader's cap)");
/// The `ptn.limit.package_size` rule.
pub const PTN_LIMIT_PACKAGE_SIZE: Rule = Rule::new("ptn.limit.package_size", "the package, by its length and by the sum of its members' declared sizes, is at most 2^40 bytes (upstream's C++ reader's cap)");
/// The `ptn.limit.constant_bytes` rule.
pub const PTN_LIMIT_CONSTANT_BYTES: Rule = Rule::new("ptn.limit.constant_bytes", "the constants' data, up to the largest offset the safetensors header declares, is at most 2^40 bytes (upstream's C++ reader's cap)");

/// The package rules.
pub const CATALOGUE: Catalogue = Catalogue {
    format: "`.ptn` packages",
    intro: "`pte verify PACKAGE.ptn` (library: `pte_ptn::verify::verify_ptn_bytes`) applies these rules. \
A container, program, safetensors or aliases failure stops the run; the cross-reference rules are all \
reported together. The `ptn.stored` and `ptn.limit.*` rules are the refusals of upstream ExecuTorch's C++ \
package reader (it serves stored members only, found through the central directory, and caps sizes, \
nesting and counts): they are checked first, on what the central directory and the JSON headers declare, \
so a package this workspace reads (as exir's Python reader does) is still reported when upstream's reader \
would refuse it.",
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
        PTN_STORED,
        PTN_LIMIT_PROGRAM,
        PTN_LIMIT_JSON_SIZE,
        PTN_LIMIT_JSON_DEPTH,
        PTN_LIMIT_RANK,
        PTN_LIMIT_DIM,
        PTN_LIMIT_MEMBERS,
        PTN_LIMIT_TENSORS,
        PTN_LIMIT_ALIASES,
        PTN_LIMIT_PACKAGE_SIZE,
        PTN_LIMIT_CONSTANT_BYTES,
    ],
};
