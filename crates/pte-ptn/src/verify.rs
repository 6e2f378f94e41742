//! The package verifier: every rule a reader applies, reported as named
//! violations (the same [`Report`] the `.pte` verifier returns).

use pte_core::{Report, Violation};
use pte_schema::Error;

use crate::members::read_members;
use crate::program::program_findings;
use crate::read::assemble;
use crate::{PtnLimits, ALIASES_MEMBER, PROGRAM_MEMBER, SAFETENSORS_MEMBER};

/// Every `.ptn` rule: name and what it checks.
pub const PTN_RULES: &[(&str, &str)] = &[
    ("ptn.container", "the zip is read strictly: one end record ending the file, no prepended bytes, no duplicate, unsafe, overlapping or encrypted members, local headers agreeing with the central directory, CRCs matching, stored or deflated members only"),
    ("ptn.program", "program.ptg is present and is a valid NPTG flatbuffer within the limits"),
    ("ptn.safetensors", "program.safetensors has a bounded header of unique keys, contiguous tensor ranges ending the member, sizes matching shapes, and supported dtypes"),
    ("ptn.aliases", "aliases.json is an object of strings; every alias names a real owner, no key is both, __metadata__ is never a key"),
    ("ptn.data_key", "every data key the program references (constants and quantization scales and zero points) resolves to a tensor"),
    ("ptn.dtype", "a referenced tensor is stored with the dtype the program declares"),
    ("ptn.shape", "a referenced (unquantized) tensor is stored with the shape the program declares"),
    ("ptn.mutable_alias", "a mutable data key owns its bytes: it is neither an alias nor an alias target"),
    ("ptn.unreferenced", "warning: a stored tensor that no data key of the program references"),
];

fn rule_of(e: &Error) -> &'static str {
    let path = e.path();
    if path.starts_with(PROGRAM_MEMBER) || e.message().contains(PROGRAM_MEMBER) {
        "ptn.program"
    } else if path.starts_with(SAFETENSORS_MEMBER) {
        "ptn.safetensors"
    } else if path.starts_with(ALIASES_MEMBER) {
        "ptn.aliases"
    } else {
        // a required member missing, or a duplicate key across members
        "ptn.container"
    }
}

fn violation(rule: &'static str, e: &Error) -> Violation {
    Violation { rule, path: e.path().to_string(), offset: e.offset(), message: e.message().to_string() }
}

/// Verifies a package held in memory.
///
/// ```
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/native_ptn/model.ptn"))?;
/// assert!(pte_ptn::verify::verify_ptn_bytes(&bytes, &Default::default()).is_ok());
/// assert!(pte_ptn::verify::verify_ptn_bytes(&bytes[..100], &Default::default()).breaks("ptn.container"));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn verify_ptn_bytes(bytes: &[u8], limits: &PtnLimits) -> Report {
    let mut report = Report::default();
    let members = match read_members(bytes, limits) {
        Ok(m) => m,
        Err(e) => {
            report.violations.push(violation("ptn.container", &e));
            return report;
        }
    };
    let ptn = match assemble(members, limits) {
        Ok(p) => p,
        Err(e) => {
            report.violations.push(violation(rule_of(&e), &e));
            return report;
        }
    };
    let check = match program_findings(&ptn, &limits.flatbuffer) {
        Ok(c) => c,
        Err(e) => {
            report.violations.push(violation("ptn.program", &e));
            return report;
        }
    };
    for f in &check.findings {
        report.violations.push(Violation {
            rule: f.rule,
            path: format!("{PROGRAM_MEMBER}:{}", f.path),
            offset: None,
            message: f.message.clone(),
        });
    }
    for (key, _) in ptn.constants() {
        if !check.referenced.contains(key) {
            report.warnings.push(Violation {
                rule: "ptn.unreferenced",
                path: format!("{SAFETENSORS_MEMBER}[{key:?}]"),
                offset: None,
                message: format!("tensor {key:?} is not referenced by the program"),
            });
        }
    }
    report
}
