//! The native program's references into the package: every data key it
//! names must resolve to a tensor of the dtype and shape it declares, and
//! mutable keys own their bytes.

use std::collections::BTreeSet;

use pte_schema::native::{decode_native_program, NativeProgram};
use pte_schema::{Error, ErrorKind, Limits, Result};

use crate::rules;
use crate::tensor::dtype_code;
use crate::{in_member, PtnFile, PROGRAM_MEMBER};

/// One broken cross-reference between the program and the constants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The rule broken (one of [`rules`](crate::rules)).
    pub rule: pte_core::Rule,
    /// Field path in the program (`methods[0].constants[1].data_key`).
    pub path: String,
    /// What is wrong.
    pub message: String,
}

/// What [`check_program`] found: the decoded program and every finding.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramCheck {
    /// The decoded native program.
    pub program: NativeProgram,
    /// Keys the program references.
    pub referenced: BTreeSet<String>,
    /// Broken references; empty when the package is consistent.
    pub findings: Vec<Finding>,
}

/// Decodes `program.ptg` and checks its references against the package's
/// tensors; the first finding is returned as a `Malformed` error.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// let ptn = pte_ptn::PtnFile::from_bytes(&bytes)?;
/// let check = pte_ptn::check_program(&ptn, &Default::default())?;
/// assert_eq!(check.referenced.len(), 4);
/// # Ok::<(), pte_ptn::Error>(())
/// ```
pub fn check_program(ptn: &PtnFile<'_>, limits: &Limits) -> Result<ProgramCheck> {
    let check = program_findings(ptn, limits)?;
    match check.findings.first() {
        Some(f) => {
            Err(Error::new(ErrorKind::Malformed, f.message.clone()).at_path(format!("{PROGRAM_MEMBER}:{}", f.path)))
        }
        None => Ok(check),
    }
}

/// Every finding, without stopping at the first (for the verifier).
pub(crate) fn program_findings(ptn: &PtnFile<'_>, limits: &Limits) -> Result<ProgramCheck> {
    let program = decode_native_program(&ptn.program, limits).map_err(|e| in_member(e, PROGRAM_MEMBER))?;
    let mut findings = Vec::new();
    let mut referenced = BTreeSet::new();
    let mut add = |rule, path: &str, message: String| findings.push(Finding { rule, path: path.to_string(), message });
    for r in program.data_keys() {
        referenced.insert(r.key.to_string());
        let Some(t) = ptn.constant(r.key) else {
            add(rules::PTN_DATA_KEY, &r.path, format!("data key {:?} has no tensor in the package", r.key));
            continue;
        };
        if let Some(dtype) = r.dtype {
            let want = dtype.safetensors_dtype();
            if want != Some(dtype_code(t.dtype).as_str()) {
                add(
                    rules::PTN_DTYPE,
                    &r.path,
                    format!(
                        "data key {:?} is declared {} but stored as {}",
                        r.key,
                        want.unwrap_or("an unknown dtype"),
                        dtype_code(t.dtype)
                    ),
                );
            }
        }
        if let Some(shape) = r.shape
            && shape != t.shape
        {
            add(
                rules::PTN_SHAPE,
                &r.path,
                format!("data key {:?} is declared shape {shape:?} but stored as {:?}", r.key, t.shape),
            );
        }
    }
    for key in program.mutable_keys() {
        if ptn.aliases.contains_key(key) || ptn.aliases.values().any(|o| o == key) {
            add(
                rules::PTN_MUTABLE_ALIAS,
                "",
                format!("mutable data key {key:?} is deduplicated through aliases.json; it must own its bytes"),
            );
        }
    }
    Ok(ProgramCheck { program, referenced, findings })
}
