//! The package verifier: every rule a reader applies, reported as named
//! violations (the same [`Report`] the `.pte` verifier returns).

use pte_core::{Report, Rule, Violation};
use pte_schema::Error;

use crate::members::read_members;
use crate::program::program_findings;
use crate::read::assemble;
use crate::{PtnLimits, ALIASES_MEMBER, PROGRAM_MEMBER, SAFETENSORS_MEMBER};

mod caps;
pub use crate::rules;

pub use rules::CATALOGUE;

fn rule_of(e: &Error) -> Rule {
    let path = e.path();
    if path.starts_with(PROGRAM_MEMBER) || e.message().contains(PROGRAM_MEMBER) {
        rules::PTN_PROGRAM
    } else if path.starts_with(SAFETENSORS_MEMBER) {
        rules::PTN_SAFETENSORS
    } else if path.starts_with(ALIASES_MEMBER) {
        rules::PTN_ALIASES
    } else {
        // a required member missing, or a duplicate key across members
        rules::PTN_CONTAINER
    }
}

fn violation(rule: Rule, e: &Error) -> Violation {
    Violation { rule, path: e.path().to_string(), offset: e.offset(), message: e.message().to_string() }
}

/// Verifies a package held in memory.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// assert!(pte_ptn::verify::verify_ptn_bytes(&bytes, &Default::default()).is_ok());
/// assert!(pte_ptn::verify::verify_ptn_bytes(&bytes[..100], &Default::default()).breaks("ptn.container"));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn verify_ptn_bytes(bytes: &[u8], limits: &PtnLimits) -> Report {
    let mut report = Report::default();
    caps::declared(bytes, &limits.caps, &mut report);
    let members = match read_members(bytes, limits) {
        Ok(m) => m,
        Err(e) => {
            report.violations.push(violation(rules::PTN_CONTAINER, &e));
            return report;
        }
    };
    caps::content(&members, &limits.caps, limits.max_safetensors_header, &mut report);
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
            report.violations.push(violation(rules::PTN_PROGRAM, &e));
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
                rule: rules::PTN_UNREFERENCED,
                path: format!("{SAFETENSORS_MEMBER}[{key:?}]"),
                offset: None,
                message: format!("tensor {key:?} is not referenced by the program"),
            });
        }
    }
    report
}
