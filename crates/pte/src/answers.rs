//! What a file holds, asked the same way of every kind: where its bytes go
//! ([`size`]), its memory plan ([`memory`]) and the operators it calls
//! ([`operators`]). The CLI, Python, the C ABI and the report ask these;
//! which kinds answer, and how the others are refused, is decided here.

use serde::Serialize;

use pte_analysis::memory::MemoryPlan;
use pte_analysis::operators::MethodOperators;
use pte_analysis::size::SizeReport;
use pte_core::{Error, ErrorKind, FileKind};

use crate::Result;

/// The kinds [`memory`] answers for, in the order messages list them.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("bundled/model.bpte"))?;
/// assert!(pte::MEMORY_KINDS.contains(&pte::kind_of(&bytes)));
/// # Ok::<(), std::io::Error>(())
/// ```
pub const MEMORY_KINDS: [FileKind; 2] = [FileKind::Pte, FileKind::Bpte];

/// The kinds [`operators`] answers for, in the order messages list them.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// assert!(pte::OPERATOR_KINDS.contains(&pte::kind_of(&bytes)));
/// # Ok::<(), std::io::Error>(())
/// ```
pub const OPERATOR_KINDS: [FileKind; 3] = [FileKind::Pte, FileKind::Bpte, FileKind::Ptn];

fn not_executorch(kind: FileKind) -> Error {
    // Unknown's phrase is "not an ExecuTorch file"
    Error::new(ErrorKind::Unsupported, kind.to_string())
}

/// Where every byte of `bytes`, read as `kind`, goes: the report `pte
/// size --json` prints (before grouping). A `.ptn` is partitioned by its
/// archive members, every other kind by its format's parts.
///
/// ```
/// use pte_core::FileKind;
/// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// let report = pte::size(FileKind::Ptn, &bytes)?;
/// assert_eq!(report.parts.iter().map(|p| p.bytes).sum::<u64>(), bytes.len() as u64);
/// assert!(pte::size(FileKind::Unknown, &bytes).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn size(kind: FileKind, bytes: &[u8]) -> Result<SizeReport> {
    match kind {
        FileKind::Pte => pte_analysis::size::pte_size_report(bytes),
        FileKind::Ptd => pte_analysis::size::ptd_size_report(bytes),
        FileKind::Bpte => pte_analysis::size::bpte_size_report(bytes),
        FileKind::Ptn => pte_analysis::size::ptn_size_report(bytes),
        other => Err(not_executorch(other)),
    }
}

/// The memory plan of a program: of `bytes` read as a `.pte`, or of the
/// program a `.bpte` bundles (errors then under `program`); kept to the
/// method named `method` when one is given, refused when there is no such
/// method. A `.ptd` holds no program, and a `.ptn`'s native program plans
/// no memory (its runtime allocates as it goes): both are refused.
///
/// ```
/// use pte_core::FileKind;
/// let bytes = std::fs::read(pte_testkit::corpus("bundled/model.bpte"))?;
/// let plan = pte::memory(FileKind::Bpte, &bytes, Some("forward"))?;
/// assert_eq!(plan.methods.len(), 1);
/// let e = pte::memory(FileKind::Bpte, &bytes, Some("nope")).unwrap_err();
/// assert!(e.to_string().contains("no method \"nope\"; the program has \"forward\""));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn memory(kind: FileKind, bytes: &[u8], method: Option<&str>) -> Result<MemoryPlan> {
    let mut plan = match kind {
        FileKind::Pte => MemoryPlan::from_bytes(bytes, &Default::default())?,
        FileKind::Bpte => {
            let program = pte_file::bpte::BundledFile::program_in(bytes)?;
            MemoryPlan::from_bytes(program, &Default::default()).map_err(|e| e.within("program"))?
        }
        FileKind::Ptd => {
            return Err(Error::new(
                ErrorKind::InvalidUse,
                "a .ptd holds tensor data only, no memory plan; only programs (.pte, or the program in a .bpte) have one",
            ));
        }
        FileKind::Ptn => {
            return Err(Error::new(
                ErrorKind::InvalidUse,
                "a .ptn package's native program has no memory plan (its runtime allocates as it runs); only programs (.pte, or the program in a .bpte) have one",
            ));
        }
        other => return Err(not_executorch(other)),
    };
    if let Some(name) = method {
        let names: Vec<String> =
            plan.methods.iter().map(|m| format!("{:?}", m.name.as_deref().unwrap_or(""))).collect();
        plan.methods.retain(|m| m.name.as_deref() == Some(name));
        if plan.methods.is_empty() {
            let has = if names.is_empty() { "none".into() } else { names.join(", ") };
            return Err(Error::new(ErrorKind::InvalidUse, format!("no method {name:?}; the program has {has}")));
        }
    }
    Ok(plan)
}

/// The operators and delegates each method of a file calls: the entry
/// `pte ops --json` lists for it (`{"format", "methods"}`).
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let ops = pte::operators(pte_core::FileKind::Pte, &bytes)?;
/// assert_eq!(serde_json::to_value(&ops)?["format"], "pte");
/// assert!(!ops.methods[0].operators.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct FileOperators {
    /// The kind it was read as: `pte`, `bpte` or `ptn`.
    pub format: &'static str,
    /// One entry per method, in the program's order.
    pub methods: Vec<MethodOperators>,
}

/// The operators `bytes`, read as `kind`, call: a `.pte`'s, the program a
/// `.bpte` bundles (errors under `program`), or a `.ptn`'s native graph by
/// target (no kernel keys, no delegates; errors under `program.ptg`). A
/// `.ptd` holds tensor data only and is refused.
///
/// ```
/// use pte_core::FileKind;
/// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// assert_eq!(pte::operators(FileKind::Ptn, &bytes)?.format, "ptn");
/// assert!(pte::operators(FileKind::Ptd, &bytes).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn operators(kind: FileKind, bytes: &[u8]) -> Result<FileOperators> {
    let (format, ops) = match kind {
        FileKind::Pte => ("pte", pte_analysis::operators::of_program(bytes)?),
        FileKind::Bpte => ("bpte", pte_analysis::operators::of_bundle(bytes)?),
        FileKind::Ptn => {
            let ptn = pte_ptn::PtnFile::from_bytes(bytes)?;
            ("ptn", pte_analysis::operators::of_native(&ptn.program).map_err(|e| e.within("program.ptg"))?)
        }
        FileKind::Ptd => {
            return Err(Error::new(
                ErrorKind::InvalidUse,
                "a .ptd holds tensor data only, no operators; list those of the .pte whose EXTERNAL tensors it holds",
            ));
        }
        other => return Err(not_executorch(other)),
    };
    Ok(FileOperators { format, methods: ops.methods })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lists say which kinds answer: each kind outside one is refused
    /// by its answer, whatever its bytes.
    #[test]
    fn the_lists_name_the_kinds_that_answer() {
        for kind in crate::KINDS {
            if !MEMORY_KINDS.contains(&kind) {
                assert!(memory(kind, b"", None).is_err_and(|e| e.kind() == ErrorKind::InvalidUse), "{kind}");
            }
            if !OPERATOR_KINDS.contains(&kind) {
                assert!(operators(kind, b"").is_err_and(|e| e.kind() == ErrorKind::InvalidUse), "{kind}");
            }
        }
    }
}
