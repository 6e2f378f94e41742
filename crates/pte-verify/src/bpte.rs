//! The `.bpte` rules: the bundle's structure, the embedded program (every
//! program rule), and each test case against the method it tests, since the
//! runtime indexes case values by the method's input and output counts
//! without bounds checks.

use pte_schema::bundled::{BundledTensor, BundledValue, BundledView, CaseView, Side, TestCase};
use pte_schema::{ExecutionPlan, KernelTypes, Program, Tensor, TensorShapeDynamism};

use crate::{rules, verify_bytes, Report, Rule, VerifyOptions, Violation};

fn v(rule: Rule, path: impl Into<String>, offset: Option<u64>, message: impl Into<String>) -> Violation {
    Violation { rule, path: path.into(), offset, message: message.into() }
}

/// Where `inner` starts inside `outer` (both from the same buffer).
fn offset_in(outer: &[u8], inner: &[u8]) -> u64 {
    (inner.as_ptr() as usize).checked_sub(outer.as_ptr() as usize).map_or(0, |o| o as u64)
}

/// Verifies a `.bpte` held in memory.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("bundled/model.bpte"))?;
/// assert!(pte_verify::verify_bpte_bytes(&bytes, &Default::default()).is_ok());
/// assert!(pte_verify::verify_bpte_bytes(&bytes[..100], &Default::default()).breaks("bpte.structure"));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn verify_bpte_bytes(bytes: &[u8], options: &VerifyOptions) -> Report {
    let mut report = Report::default();
    // read in place: a bundle of hundreds of thousands of cases is walked a
    // case at a time, never decoded whole; the first value that fails to read
    // is where decoding fails, with the same error
    let bundle =
        match BundledView::new(bytes, &options.limits).and_then(|b| pte_file::bpte::read_every_value(&b).map(|()| b)) {
            Ok(b) => b,
            Err(e) => {
                report.violations.push(v(rules::BPTE_STRUCTURE, e.path(), e.offset(), e.message()));
                return report;
            }
        };
    let Some(program) = bundle.program() else {
        report.violations.push(v(rules::BPTE_PROGRAM, "program", None, "the bundle has no embedded program"));
        return report;
    };
    let base = offset_in(bytes, program);
    if !base.is_multiple_of(16) {
        report.violations.push(v(
            rules::BPTE_ALIGNMENT,
            "program",
            Some(base),
            format!("the embedded program starts at byte {base}, not a multiple of 16 (the runtime needs a 16-aligned program)"),
        ));
    } else if !base.is_multiple_of(32) {
        report.warnings.push(v(
            rules::BPTE_ALIGNMENT,
            "program",
            Some(base),
            format!("the embedded program starts at byte {base}, not a multiple of 32 as the schema asks"),
        ));
    }
    let inner = verify_bytes(program, options);
    let relocate = |x: Violation| Violation {
        path: if x.path.is_empty() { "program".into() } else { format!("program:{}", x.path) },
        offset: x.offset.map(|o| o.saturating_add(base)),
        ..x
    };
    let program_ok = inner.is_ok();
    report.violations.extend(inner.violations.into_iter().map(relocate));
    report.warnings.extend(inner.warnings.into_iter().map(relocate));
    let Ok(decoded) = pte_schema::decode_program(program_region(program), &options.limits) else {
        if program_ok {
            report.violations.push(v(
                rules::BPTE_PROGRAM,
                "program",
                Some(base),
                "the embedded program does not decode",
            ));
        }
        return report;
    };
    check_suites(bytes, &bundle, &decoded, &mut report);
    report
}

/// One case's values, read from the view (every value was read once
/// before: none fails now).
fn case_of<'a>(case: &CaseView<'a>) -> TestCase<'a> {
    let side = |side| case.values(side).map(|values| values.filter_map(Result::ok).collect());
    TestCase { inputs: side(Side::Inputs), expected_outputs: side(Side::ExpectedOutputs) }
}

fn program_region(program: &[u8]) -> &[u8] {
    pte_file::program_region(program).map_or(program, |(_, r)| r)
}

fn check_suites(bytes: &[u8], bundle: &BundledView<'_>, program: &Program<'_>, report: &mut Report) {
    let plans = program.execution_plan.as_deref().unwrap_or(&[]);
    let mut seen: Vec<&str> = Vec::new();
    for (i, suite) in bundle.suites().enumerate() {
        let path = format!("method_test_suites[{i}]");
        let Some(name) = suite.method_name() else {
            report.violations.push(v(
                rules::BPTE_SUITE_METHOD,
                format!("{path}.method_name"),
                None,
                "the suite names no method",
            ));
            continue;
        };
        let Some(plan) = plans.iter().find(|p| p.name.as_deref() == Some(name)) else {
            report.violations.push(v(
                rules::BPTE_SUITE_METHOD,
                format!("{path}.method_name"),
                None,
                format!("the program has no method {name:?}"),
            ));
            continue;
        };
        if seen.contains(&name) {
            report.warnings.push(v(
                rules::BPTE_SUITE_METHOD,
                format!("{path}.method_name"),
                None,
                format!("a second suite for {name:?}: the runtime only uses the first"),
            ));
        }
        seen.push(name);
        for (j, case) in suite.cases().enumerate() {
            check_case(bytes, plan, &case_of(&case), &format!("{path}.test_cases[{j}]"), report);
        }
    }
}

fn check_case(bytes: &[u8], plan: &ExecutionPlan, case: &TestCase<'_>, path: &str, report: &mut Report) {
    let sides = [
        ("inputs", case.inputs.as_deref().unwrap_or(&[]), plan.inputs.as_deref().unwrap_or(&[])),
        ("expected_outputs", case.expected_outputs.as_deref().unwrap_or(&[]), plan.outputs.as_deref().unwrap_or(&[])),
    ];
    for (side, values, indices) in sides {
        let is_output = side == "expected_outputs";
        if values.len() != indices.len() {
            report.violations.push(v(
                rules::BPTE_CASE_COUNT,
                format!("{path}.{side}"),
                None,
                format!(
                    "{} values for a method with {} {}",
                    values.len(),
                    indices.len(),
                    if is_output { "outputs" } else { "inputs" }
                ),
            ));
        }
        if is_output && values.is_empty() {
            report.violations.push(v(
                rules::BPTE_CASE_COUNT,
                format!("{path}.{side}"),
                None,
                "no expected outputs (the runtime refuses to verify)",
            ));
        }
        for (k, (value, &index)) in values.iter().zip(indices).enumerate() {
            let at = format!("{path}.{side}[{k}]");
            let declared =
                usize::try_from(index).ok().and_then(|i| plan.value_list().get(i)).and_then(|e| e.val.as_ref());
            check_value(bytes, value, declared, is_output, &at, report);
        }
    }
}

fn kind_name(k: Option<&KernelTypes>) -> &'static str {
    match k {
        Some(KernelTypes::Tensor(_)) => "tensor",
        Some(KernelTypes::Int(_)) => "int",
        Some(KernelTypes::Bool(_)) => "bool",
        Some(KernelTypes::Double(_)) => "double",
        Some(KernelTypes::Null) | None => "none",
        Some(_) => "list or string",
    }
}

fn check_value(
    bytes: &[u8],
    value: &BundledValue<'_>,
    declared: Option<&KernelTypes>,
    output: bool,
    at: &str,
    report: &mut Report,
) {
    let mut wrong = |why: String| report.violations.push(v(rules::BPTE_VALUE_KIND, at.to_string(), None, why));
    match (value, declared) {
        (BundledValue::Tensor(t), Some(KernelTypes::Tensor(d))) => check_tensor(bytes, t, d, at, report),
        (BundledValue::Tensor(_), _) if output => {
            wrong(format!("the method's output is a {}, not a tensor", kind_name(declared)))
        }
        (_, _) if output => wrong(format!("expected outputs must be tensors, this is a {}", value.kind())),
        (BundledValue::Int(_), Some(KernelTypes::Int(_)))
        | (BundledValue::Bool(_), Some(KernelTypes::Bool(_)))
        | (BundledValue::Double(_), Some(KernelTypes::Double(_))) => {}
        (BundledValue::None, _) => wrong("an empty value (the runtime refuses it as an input)".into()),
        _ => wrong(format!("a {} for a {} input", value.kind(), kind_name(declared))),
    }
}

fn check_tensor(bytes: &[u8], t: &BundledTensor<'_>, d: &Tensor, at: &str, report: &mut Report) {
    let mut bad = |why: String| report.violations.push(v(rules::BPTE_TENSOR, at.to_string(), None, why));
    if t.scalar_type != d.scalar_type {
        bad(format!("dtype {:?} where the method declares {:?}", t.scalar_type, d.scalar_type));
        return;
    }
    let sizes = t.sizes.as_deref().unwrap_or(&[]);
    let declared = d.sizes.as_deref().unwrap_or(&[]);
    if t.sizes.is_none() || sizes.len() != declared.len() {
        bad(format!("rank {} where the method declares rank {}", sizes.len(), declared.len()));
        return;
    }
    for (dim, (&s, &b)) in sizes.iter().zip(declared).enumerate() {
        let fits = match d.shape_dynamism {
            TensorShapeDynamism::STATIC => s == b,
            TensorShapeDynamism::DYNAMIC_BOUND => (0..=b).contains(&s),
            _ => s >= 0,
        };
        if !fits {
            bad(format!("size {s} in dimension {dim}, where the method declares {b} ({:?})", d.shape_dynamism));
            return;
        }
    }
    let order = t.dim_order.as_deref().unwrap_or(&[]);
    let want = d.dim_order.as_deref();
    if t.dim_order.is_none() || order.len() != sizes.len() || want.is_some_and(|w| w != order) {
        bad(format!("dim_order {:?} where the method declares {:?}", t.dim_order, want));
        return;
    }
    let data = t.data.as_deref().unwrap_or(&[]);
    match t.nbytes() {
        Some(n) if n == data.len() as u64 => {}
        n => bad(format!("{} data bytes where the sizes and dtype call for {n:?}", data.len())),
    }
    if !data.is_empty() {
        let off = offset_in(bytes, data);
        if !off.is_multiple_of(16) {
            report.warnings.push(v(
                rules::BPTE_ALIGNMENT,
                format!("{at}.data"),
                Some(off),
                format!("tensor data at byte {off}, not 16-aligned as the schema asks"),
            ));
        }
    }
}
