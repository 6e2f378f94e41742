//! The parts of the other kinds: a bundle (its embedded program and test
//! cases), a data file, a package (its native graph and samples).

use std::fmt::Write as _;

use pte_file::bpte::BundledFile;
use pte_file::ptd::PtdFile;
use pte_file::view::{PteView, SegmentTable};
use pte_ptn::{PtnFile, PtnTensor};
use pte_schema::bundled::{BundledValue, BundledView, Side};

use super::context::{wrap, Ctx, Parts};
use super::program::program;
use super::tensors::TensorRow;
use super::{graphs, sizes, summary, tensors};
use crate::html::{counted, escape, facts, head_row, row, thousands};

/// Test cases, samples and calls shown per set before the rest are counted.
const MAX_SHOWN: usize = 50;
/// Elements of a value shown in a preview.
const PREVIEW: usize = 8;

fn tensor_text(t: &PtnTensor<'_>) -> String {
    format!(
        "{} {} {}",
        pte_core::style::dtype(&pte_ptn::dtype_code(t.dtype)),
        pte_core::style::shape(&t.shape),
        pte_samples::tensor_preview(t, PREVIEW)
    )
}

fn bundled_value(v: &BundledValue<'_>) -> String {
    match v {
        BundledValue::Tensor(t) => {
            let dtype = pte_core::style::dtype(&t.scalar_type.to_string());
            let shape = pte_core::style::shape(t.sizes.iter().flatten());
            let preview = pte_samples::dtype_of(t.scalar_type).and_then(|d| {
                let shape = t.sizes.as_ref()?.iter().map(|&s| u64::try_from(s).ok()).collect::<Option<Vec<_>>>()?;
                let pt = PtnTensor::new(d, shape, t.data.as_deref().unwrap_or(&[])).ok()?;
                Some(pte_samples::tensor_preview(&pt, PREVIEW))
            });
            format!("tensor {dtype} {shape} {}", preview.unwrap_or_default()).trim_end().to_string()
        }
        BundledValue::Int(i) => format!("int {i}"),
        BundledValue::Bool(b) => format!("bool {b}"),
        BundledValue::Double(d) => format!("double {d}"),
        BundledValue::None => "none".into(),
    }
}

fn joined<T>(items: &[T], f: impl Fn(&T) -> String) -> String {
    if items.is_empty() {
        return "-".into();
    }
    items.iter().map(f).collect::<Vec<_>>().join("; ")
}

fn tests(cx: &Ctx, b: &BundledView<'_>) -> String {
    let mut s = String::new();
    if b.suite_count() == 0 {
        s.push_str("<p>The bundle holds no test suite.</p>");
    }
    for suite in b.suites() {
        let cases = suite.case_count().unwrap_or(0);
        let _ = write!(
            s,
            "<h4>{} ({})</h4><div class=\"scroll\"><table class=\"cases\">",
            escape(suite.method_name().unwrap_or("")),
            counted(cases as u64, "case")
        );
        s.push_str(&head_row(&["case", "inputs", "expected outputs"]));
        // only the cases shown are read
        for (j, c) in suite.cases().enumerate().take(MAX_SHOWN) {
            let side = |side| c.values(side).into_iter().flatten().flatten().collect::<Vec<_>>();
            s.push_str(&row(
                None,
                &[
                    j.to_string(),
                    joined(&side(Side::Inputs), bundled_value),
                    joined(&side(Side::ExpectedOutputs), bundled_value),
                ],
            ));
        }
        s.push_str("</table></div>");
        if cases > MAX_SHOWN {
            let _ = write!(s, "<p>… {} more cases.</p>", thousands(cases.saturating_sub(MAX_SHOWN) as u64));
        }
    }
    wrap(cx, "tests", "Test cases", &s)
}

/// A bundled program: its own facts, the embedded program's parts, its tests.
pub(super) fn bundle(cx: &mut Ctx, bytes: &[u8]) -> Parts {
    // checked as decoding checks it (the same error where it fails), then
    // read in place: a bundle of 300,000 cases is never decoded whole
    let read =
        BundledFile::check(bytes).and_then(|()| BundledView::new(bytes, &pte_file::ReadOptions::default().limits));
    let b = match read {
        Ok(b) => b,
        Err(e) => {
            let note = cx.fail("the bundle", e);
            let mut parts = Parts { summary: summary::wrap(cx, &note), ..Parts::default() };
            parts.graphs = Some(cx.failed_part("graphs", "Graphs", "the graphs", "the bundle could not be read"));
            parts.sizes = Some(sizes::section(cx, bytes, 0));
            parts.memory =
                Some(cx.failed_part("memory", "Memory plan", "the memory plan", "the bundle could not be read"));
            parts.tensors = Some(cx.failed_part("tensors", "Tensors", "the tensors", "the bundle could not be read"));
            parts.tests = Some(cx.failed_part("tests", "Test cases", "the test cases", "the bundle could not be read"));
            return parts;
        }
    };
    // every value of a test case holds its own bytes: a part each
    let values = b.suites().flat_map(|s| s.cases()).fold(0u64, |t, c| {
        let count = |side| c.value_count(side).unwrap_or(0);
        t.saturating_add(count(Side::Inputs).saturating_add(count(Side::ExpectedOutputs)) as u64)
    });
    let embedded = b.program().unwrap_or_default();
    let mut parts = program(cx, bytes, embedded, PteView::read(embedded, SegmentTable::Whole), &[], values);
    let at = (embedded.as_ptr() as usize).checked_sub(bytes.as_ptr() as usize);
    let mut head = facts(
        "summary",
        &[
            ("format".into(), format!("bundled program (.bpte), schema version {}", b.version())),
            ("bytes".into(), thousands(bytes.len() as u64)),
            (
                "embedded program".into(),
                format!(
                    "{} bytes{}",
                    thousands(embedded.len() as u64),
                    at.map(|a| format!(" at byte {}", thousands(a as u64))).unwrap_or_default()
                ),
            ),
            ("test suites".into(), thousands(b.suite_count() as u64)),
        ],
    );
    head.push_str("<h4>The embedded program</h4>");
    // the program's summary, under the bundle's facts
    let inner = parts.summary.split_once("</h3>").map_or("", |(_, rest)| rest);
    head.push_str(inner.strip_suffix("</section>\n").unwrap_or(inner));
    parts.summary = summary::wrap(cx, &head);
    parts.tests = Some(tests(cx, &b));
    parts
}

/// A `.ptd`: its facts and its tensors; it has no graph and no plan.
pub(super) fn data_file(cx: &mut Ctx, bytes: &[u8]) -> Parts {
    let mut parts = Parts::default();
    let ptd = PtdFile::from_bytes(bytes);
    let (graphs, _, _) = graphs::section(cx, &[], "A .ptd holds tensor data only: it has no method to draw.");
    parts.graphs = Some(graphs);
    let keys = ptd.as_ref().map_or(0, |p| p.keys().len() as u64);
    parts.sizes = Some(sizes::section(cx, bytes, keys));
    let ptd = match ptd {
        Ok(p) => p,
        Err(e) => {
            let note = cx.fail("the data file", e);
            parts.summary = summary::wrap(cx, &note);
            parts.tensors =
                Some(cx.failed_part("tensors", "Tensors", "the tensors", "the data file could not be read"));
            return parts;
        }
    };
    let keys = ptd.keys().len();
    parts.summary = summary::wrap(
        cx,
        &facts(
            "summary",
            &[
                ("format".into(), format!("ExecuTorch tensor data (.ptd), schema version {}", ptd.flat_tensor.version)),
                ("bytes".into(), thousands(bytes.len() as u64)),
                ("segments".into(), thousands(ptd.flat_tensor.segments.as_ref().map_or(0, Vec::len) as u64)),
                ("keys".into(), thousands(keys as u64)),
            ],
        ),
    );
    let base = pte_segments::FlatTensorHeader::parse(bytes).map_or(0, |h| h.segment_base_offset);
    let (t, n) = match ptd.tensors() {
        Ok(list) => {
            let rows = list.iter().map(|t| TensorRow {
                name: t.key.to_string(),
                dtype: t.layout.map_or_else(|| "opaque".into(), |l| l.scalar_type.to_string()),
                shape: t.layout.map_or_else(|| "-".into(), |l| pte_core::style::shape(l.sizes.iter().flatten())),
                negative_dim: t.layout.is_some_and(|l| l.sizes.iter().flatten().any(|&d| d < 0)),
                place: format!(
                    "segment {}, file bytes {}..{}",
                    t.segment_index,
                    base.saturating_add(t.range.start),
                    base.saturating_add(t.range.end)
                ),
                bytes: Some(t.bytes.len() as u64),
                data: t.layout.is_some().then_some(t.bytes),
            });
            tensors::table(cx, rows, "Every key of the data file, in table order.")
        }
        Err(e) => (cx.failed_part("tensors", "Tensors", "the tensors", e), 0),
    };
    parts.tensors = Some(t);
    parts.tensor_rows = n;
    parts
}

fn samples(cx: &mut Ctx, ptn: &PtnFile<'_>) -> String {
    let sets = match pte_samples::read_samples(ptn) {
        Ok(s) => s,
        Err(e) => {
            return cx.failed_part("samples", "Samples", "the samples", e);
        }
    };
    let mut s = String::new();
    if sets.is_empty() {
        s.push_str("<p>The package records no calls (no <code>samples/</code> sidecar).</p>");
    } else {
        s.push_str("<div class=\"scroll\"><table class=\"sets\">");
        s.push_str(&head_row(&["method", "set", "samples", "calls", "tolerance"]));
        for set in &sets {
            let calls: usize = set.samples.iter().map(|x| x.calls.len()).sum();
            s.push_str(&row(
                None,
                &[
                    set.method.clone(),
                    set.name.clone(),
                    thousands(set.samples.len() as u64),
                    thousands(calls as u64),
                    set.tolerance.map_or_else(
                        || "default (atol 1e-8, rtol 1e-5)".into(),
                        |t| format!("atol {} rtol {}", t.atol, t.rtol),
                    ),
                ],
            ));
        }
        s.push_str("</table></div>");
    }
    let value = |v: &pte_samples::Value<'_>| match v {
        pte_samples::Value::Tensor(t) => format!("tensor {}", tensor_text(t)),
        pte_samples::Value::TensorList(l) => format!("tensor list of {}", l.len()),
        pte_samples::Value::Int(i) => format!("int {i}"),
        pte_samples::Value::Float(f) => format!("float {f}"),
        pte_samples::Value::Bool(b) => format!("bool {b}"),
        pte_samples::Value::String(x) => format!("string {x:?}"),
        pte_samples::Value::None => "none".into(),
    };
    for set in &sets {
        let _ = write!(
            s,
            "<details><summary>{}/{}: the recorded calls</summary><div class=\"scroll\"><table class=\"calls\">",
            escape(&set.method),
            escape(&set.name)
        );
        s.push_str(&head_row(&["sample", "call", "inputs", "outputs"]));
        for (i, sample) in set.samples.iter().enumerate().take(MAX_SHOWN) {
            let label = sample.name.clone().unwrap_or_else(|| i.to_string());
            for (j, c) in sample.calls.iter().enumerate().take(MAX_SHOWN) {
                s.push_str(&row(
                    None,
                    &[label.clone(), j.to_string(), joined(&c.inputs, value), joined(&c.outputs, value)],
                ));
            }
        }
        s.push_str("</table></div>");
        if set.samples.len() > MAX_SHOWN {
            let _ =
                write!(s, "<p>… {} more samples.</p>", thousands(set.samples.len().saturating_sub(MAX_SHOWN) as u64));
        }
        s.push_str("</details>");
    }
    wrap(cx, "samples", "Samples", &s)
}

/// A `.ptn` package: its facts, its native graph, its constants, its samples.
pub(super) fn package(cx: &mut Ctx, bytes: &[u8]) -> Parts {
    let mut parts = Parts::default();
    let ptn = match PtnFile::from_bytes(bytes) {
        Ok(p) => p,
        Err(e) => {
            let note = cx.fail("the package", e);
            parts.summary = summary::wrap(cx, &note);
            parts.graphs = Some(cx.failed_part("graphs", "Graphs", "the graphs", "the package could not be read"));
            parts.sizes = Some(sizes::section(cx, bytes, 0));
            parts.tensors = Some(cx.failed_part("tensors", "Tensors", "the tensors", "the package could not be read"));
            parts.samples = Some(cx.failed_part("samples", "Samples", "the samples", "the package could not be read"));
            return parts;
        }
    };
    let program = ptn.native_program(&Default::default());
    let methods: Vec<String> = program.iter().flat_map(|p| p.methods.iter()).map(|m| m.name.clone()).collect();
    let mut rows = vec![
        ("format".to_string(), "ExecuTorch native package (.ptn)".to_string()),
        ("bytes".into(), thousands(bytes.len() as u64)),
        ("program.ptg".into(), format!("{} bytes", thousands(ptn.program.len() as u64))),
        ("program version".into(), program.as_ref().ok().and_then(|p| p.version.clone()).unwrap_or_else(|| "-".into())),
        ("methods".into(), summary::listed(&methods)),
        (
            "constants".into(),
            format!(
                "{} ({})",
                counted(ptn.constants().count() as u64, "key"),
                match ptn.aliases.len() {
                    1 => "1 alias".to_string(),
                    n => format!("{} aliases", thousands(n as u64)),
                }
            ),
        ),
    ];
    let others: Vec<String> = ptn.members.iter().map(|m| m.name.clone()).collect();
    rows.push(("other members".into(), thousands(others.len() as u64)));
    parts.summary = summary::wrap(cx, &facts("summary", &rows));
    let (g, m, n) = match &program {
        Ok(p) => {
            let list: Vec<(String, graphs::Walk<'_>)> = p
                .methods
                .iter()
                .map(|m| {
                    let walk: graphs::Walk<'_> =
                        Box::new(move |sink: &mut dyn crate::graph::Sink| crate::graph::walk_native(m, sink));
                    (m.name.clone(), walk)
                })
                .collect();
            graphs::section(cx, &list, "The package has no method.")
        }
        Err(e) => (cx.failed_part("graphs", "Graphs", "the native program", e), 0, 0),
    };
    parts.graphs = Some(g);
    parts.methods = m;
    parts.nodes = n;
    let counted = (ptn.members.len() as u64).saturating_add(ptn.constants().count() as u64);
    parts.sizes = Some(sizes::section(cx, bytes, counted));
    let list = ptn.tensors();
    let rows = list.iter().map(|t| TensorRow {
        name: match t.alias_of {
            Some(o) => format!("{} (alias of {o})", t.key),
            None => t.key.to_string(),
        },
        dtype: pte_ptn::dtype_code(t.dtype),
        shape: pte_core::style::shape(t.shape),
        // a package's dimensions are unsigned
        negative_dim: false,
        place: t.range_in(bytes).map_or_else(
            || "program.safetensors".into(),
            |r| format!("program.safetensors, file bytes {}..{}", r.start, r.end),
        ),
        bytes: Some(t.bytes.len() as u64),
        data: Some(t.bytes),
    });
    let (t, rows_n) = tensors::table(cx, rows, "Every constant key of the package (owners and aliases), in key order.");
    parts.tensors = Some(t);
    parts.tensor_rows = rows_n;
    parts.samples = Some(samples(cx, &ptn));
    parts
}
