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

/// A reason the runtime returns a code while a method runs that lies in how
/// it is called (the inputs given, the calls made), not in the file, so no
/// verifier rule can detect it: the API that returns it, and why.
struct RunCause {
    error: RuntimeError,
    call: &'static str,
    cause: &'static str,
}

/// The causes upstream's `Method::set_input(s)`, `Method::execute` and
/// `Method::set_output_data_ptr` return (runtime/executor/method.cpp; a
/// tensor input is resized as runtime/core/portable_type/tensor_impl.cpp
/// resizes), in the order a runner meets them.
const RUN_CAUSES: &[RunCause] = {
    use pte_core::errors::{INVALID_ARGUMENT, INVALID_STATE, NOT_SUPPORTED};
    &[
        RunCause {
            error: INVALID_ARGUMENT,
            call: "Method::set_inputs",
            cause: "the number of inputs given is not the method's (\"Invalid number of inputs provided\")",
        },
        RunCause {
            error: INVALID_ARGUMENT,
            call: "Method::set_input",
            cause: "an input index past the method's inputs, or an input of another kind than the method declares (a scalar for a tensor, ...)",
        },
        RunCause {
            error: INVALID_ARGUMENT,
            call: "Method::set_input",
            cause: "an input tensor of another dtype than the method declares (\"has unexpected scalar type\")",
        },
        RunCause {
            error: INVALID_ARGUMENT,
            call: "Method::set_input",
            cause: "an int, bool, float or string input other than the value the method was exported with (such inputs are fixed)",
        },
        RunCause {
            error: NOT_SUPPORTED,
            call: "Method::set_input",
            cause: "an input tensor of another shape than a static input's, of another rank, or with more elements than a dynamic input's upper bound (\"Attempted to resize\")",
        },
        RunCause {
            error: INVALID_STATE,
            call: "Method::set_input",
            cause: "inputs set while an execution is under way (between steps)",
        },
        RunCause {
            error: INVALID_ARGUMENT,
            call: "Method::execute",
            cause: "an input that was never set (\"Input N has not been set\")",
        },
        RunCause {
            error: NOT_SUPPORTED,
            call: "Method::execute",
            cause: "a method that was not loaded (its load_method failed)",
        },
        RunCause { error: INVALID_STATE, call: "Method::execute", cause: "an execution already under way" },
        RunCause {
            error: INVALID_ARGUMENT,
            call: "Method::set_output_data_ptr",
            cause: "an output buffer smaller than the output tensor, or an output that is not a tensor",
        },
        RunCause {
            error: INVALID_STATE,
            call: "Method::set_output_data_ptr",
            cause: "an output the plan places in memory (or a constant): its data cannot be redirected",
        },
    ]
};

fn explain_code(e: RuntimeError, as_json: bool) -> CmdResult {
    let mut by_stage: Vec<(Stage, &'static str, &'static str)> = catalogues()
        .iter()
        .flat_map(|c| c.rules.iter())
        .filter_map(|r| r.refusal().filter(|f| f.error == e).map(|f| (f.stage, r.name(), r.checks())))
        .collect();
    by_stage.sort();
    let causes: Vec<&RunCause> = RUN_CAUSES.iter().filter(|c| c.error == e).collect();
    let at_run = Stage::Execute.name();
    if as_json {
        let rules: Vec<_> =
            by_stage.iter().map(|(s, n, c)| json!({"rule": n, "stage": s.name(), "checks": c})).collect();
        let causes: Vec<_> =
            causes.iter().map(|c| json!({"call": c.call, "stage": at_run, "cause": c.cause})).collect();
        let j = json!({"code": e.code, "hex": format!("0x{:02x}", e.code), "name": e.name, "means": e.means, "rules": rules, "causes": causes});
        println!("{}", serde_json::to_string_pretty(&j)?);
        return Ok(());
    }
    println!("{e}: {}", e.means);
    if by_stage.is_empty() {
        println!("no verifier rule leads to it: it comes from the runtime build or the inputs, not from the file");
    } else {
        println!("rules that detect a file the runtime would refuse with it:");
        for (stage, name, checks) in by_stage {
            println!("  {name} (at {}): {checks}", stage.name());
        }
    }
    if e == pte_core::errors::OPERATOR_MISSING {
        println!(
            "the operators a program calls: pte ops FILE; those a release's stock kernels lack: pte ops --runtime VERSION FILE; the list a selective build reads: pte ops --yaml FILE"
        );
    }
    if !causes.is_empty() {
        println!("causes when a method runs, in how it is called rather than in the file:");
        for c in causes {
            println!("  {} (at {at_run}): {}", c.call, c.cause);
        }
    }
    Ok(())
}
