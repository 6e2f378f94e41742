//! `pte mutate`: break exactly one named thing in a valid file.

use std::path::Path;

use pte_core::FileKind;

use crate::failure::{CmdResult, Failure};
use crate::input::{describe, open};
use crate::paths::refuse_aliases;

pub(crate) fn run(rule: Option<&str>, list: bool, input: Option<&Path>, output: Option<&Path>) -> CmdResult {
    if list {
        for c in pte_gen::classes() {
            let expect = match c.expect {
                pte_gen::Expect::Kind(k) => format!("reader error {k:?}"),
                pte_gen::Expect::Rule(r) => format!("rule {r}"),
            };
            println!(
                "{:<36} {:<5} {:<28} {} ({expect})",
                c.name,
                format!("{:?}", c.input).to_lowercase(),
                c.rule,
                c.what
            );
        }
        return Ok(());
    }
    let (Some(rule), Some(input), Some(output)) = (rule, input, output) else {
        return Err(Failure::bad_input("mutate needs --rule NAME IN OUT (or --list)"));
    };
    refuse_aliases(&[input], &[output])?;
    let map = open(input)?;
    // A class name picks that class; a verifier rule name picks the first
    // class breaking that rule that applies to this input.
    let candidates: Vec<&pte_gen::Corruption> = match pte_gen::find(rule) {
        Some(c) => vec![c],
        None => pte_gen::breaking(rule).collect(),
    };
    if candidates.is_empty() {
        return Err(Failure::bad_input(format!(
            "no corruption class or verifier rule {rule:?} (pte mutate --list shows them)"
        )));
    }
    // A class edits bytes at fixed places: on a file of another kind (a text
    // file, a package for a program class) it would "succeed" on garbage.
    let kind = pte::kind_of(map.bytes());
    let fitting: Vec<&pte_gen::Corruption> = candidates.iter().copied().filter(|c| kind_of(c) == kind).collect();
    let Some(first) = candidates.first().filter(|_| fitting.is_empty()) else {
        return apply(&fitting, input, output, map.bytes());
    };
    Err(Failure::bad_input(format!("{}: {}; {rule} breaks {}", input.display(), describe(map.bytes()), kind_of(first))))
}

/// The kind of file a class starts from.
fn kind_of(c: &pte_gen::Corruption) -> FileKind {
    c.input
}

/// Applies the first of `candidates` that fits the input and writes the result.
fn apply(candidates: &[&pte_gen::Corruption], input: &Path, output: &Path, bytes: &[u8]) -> CmdResult {
    let mut reasons = vec![];
    let mut chosen = None;
    for c in candidates {
        match c.apply(bytes) {
            Ok(out) => {
                chosen = Some((c, out));
                break;
            }
            Err(e) => reasons.push(e.to_string()),
        }
    }
    let Some((class, out)) = chosen else {
        return Err(Failure::bad_input(format!("{}: {}", input.display(), reasons.join("; "))));
    };
    crate::files::write_file(output, &out)?;
    println!(
        "wrote {} ({} bytes, class {}, breaks {}): {}",
        output.display(),
        out.len(),
        class.name,
        class.rule,
        class.what
    );
    Ok(())
}
