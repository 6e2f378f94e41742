//! `pte explain CODE|NAME|RULE`: what a runtime error code means, what in a
//! file causes it and which verifier rules detect it; or, for a rule, what
//! it checks and what the runtime answers a file that breaks it.

use pte_core::{RuntimeError, Stage};
use serde_json::json;

use crate::failure::{CmdResult, Failure};
use crate::verifier_doc::catalogues;

pub(crate) fn run(what: &str, as_json: bool) -> CmdResult {
    if let Some(e) = RuntimeError::find(what) {
        return explain_code(e, as_json);
    }
    let rule = catalogues().iter().find_map(|c| c.find(what.trim()).map(|r| (c.format, r)));
    if let Some((format, r)) = rule {
        if as_json {
            let refusal = r.refusal().map(|f| {
                json!({"code": f.error.code, "hex": format!("0x{:02x}", f.error.code), "name": f.error.name, "stage": f.stage.name()})
            });
            let j = json!({"rule": r.name(), "format": format, "checks": r.checks(), "runtime_error": refusal});
            println!("{}", serde_json::to_string_pretty(&j)?);
            return Ok(());
        }
        println!("{} ({format}): {}", r.name(), r.checks());
        match r.refusal() {
            Some(f) => println!("the stock runtime refuses a file breaking it with {f}: {}", f.error.means),
            None => println!(
                "the stock runtime does not diagnose it (a rule of this verifier, or one the runtime leaves to chance)"
            ),
        }
        return Ok(());
    }
    Err(Failure::bad_input(format!(
        "{what:?} is neither a runtime error code (0x23, 35), an error name (InvalidProgram) nor a verifier rule (tensor.sizes)"
    )))
}

fn explain_code(e: RuntimeError, as_json: bool) -> CmdResult {
    let mut by_stage: Vec<(Stage, &'static str, &'static str)> = catalogues()
        .iter()
        .flat_map(|c| c.rules.iter())
        .filter_map(|r| r.refusal().filter(|f| f.error == e).map(|f| (f.stage, r.name(), r.checks())))
        .collect();
    by_stage.sort();
    if as_json {
        let rules: Vec<_> =
            by_stage.iter().map(|(s, n, c)| json!({"rule": n, "stage": s.name(), "checks": c})).collect();
        let j = json!({"code": e.code, "hex": format!("0x{:02x}", e.code), "name": e.name, "means": e.means, "rules": rules});
        println!("{}", serde_json::to_string_pretty(&j)?);
        return Ok(());
    }
    println!("{e}: {}", e.means);
    if by_stage.is_empty() {
        println!("no verifier rule leads to it: it comes from the runtime build or the inputs, not from the file");
        if e == pte_core::errors::OPERATOR_MISSING {
            println!(
                "the operators a program calls: pte ops FILE; the list a selective build reads: pte ops --yaml FILE"
            );
        }
        return Ok(());
    }
    println!("rules that detect a file the runtime would refuse with it:");
    for (stage, name, checks) in by_stage {
        println!("  {name} (at {}): {checks}", stage.name());
    }
    Ok(())
}
