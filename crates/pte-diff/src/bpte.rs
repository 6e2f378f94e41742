//! `.bpte` against `.bpte`: the embedded programs as `.pte` files, then
//! every test case's inputs and expected outputs.

use pte_file::bpte::BundledFile;
use pte_schema::bundled::{BundledValue, TestSuite};
use pte_schema::{Result, ScalarType, Tensor};

use crate::{pte, side, Category, Difference, Options};

pub(crate) fn diff(a: &[u8], b: &[u8], o: &Options, out: &mut Vec<Difference>) -> Result<()> {
    let fa = BundledFile::from_bytes(a).map_err(side("A"))?;
    let fb = BundledFile::from_bytes(b).map_err(side("B"))?;
    if fa.version != fb.version {
        out.push(Difference::new(Category::Program, "version", format!("{} vs {}", fa.version, fb.version)));
    }
    if fa.program != fb.program {
        pte::diff(&fa.program, &fb.program, o, "program.", out)?;
    }
    let name = |s: &TestSuite<'_>| s.method_name.clone().unwrap_or_default();
    for sa in fa.suites() {
        let path = format!("method_test_suites[{:?}]", name(sa));
        let Some(sb) = fb.suites().iter().find(|s| name(s) == name(sa)) else {
            out.push(Difference::new(Category::Program, path, "only in A"));
            continue;
        };
        let (ca, cb) = (sa.test_cases.as_deref().unwrap_or(&[]), sb.test_cases.as_deref().unwrap_or(&[]));
        if ca.len() != cb.len() {
            out.push(Difference::new(
                Category::Program,
                path.clone(),
                format!("{} test cases vs {}", ca.len(), cb.len()),
            ));
        }
        for (i, (x, y)) in ca.iter().zip(cb).enumerate() {
            values(&format!("{path}.test_cases[{i}].inputs"), x.inputs.as_deref(), y.inputs.as_deref(), o, out);
            values(
                &format!("{path}.test_cases[{i}].expected_outputs"),
                x.expected_outputs.as_deref(),
                y.expected_outputs.as_deref(),
                o,
                out,
            );
        }
    }
    for sb in fb.suites().iter().filter(|s| !fa.suites().iter().any(|x| name(x) == name(s))) {
        out.push(Difference::new(Category::Program, format!("method_test_suites[{:?}]", name(sb)), "only in B"));
    }
    if a.len() != b.len() {
        out.push(Difference::new(Category::Layout, "file", format!("size {} vs {}", a.len(), b.len())));
    }
    Ok(())
}

fn values(
    path: &str,
    a: Option<&[BundledValue<'_>]>,
    b: Option<&[BundledValue<'_>]>,
    o: &Options,
    out: &mut Vec<Difference>,
) {
    let (a, b) = (a.unwrap_or(&[]), b.unwrap_or(&[]));
    if a.len() != b.len() {
        out.push(Difference::new(Category::Program, path, format!("{} values vs {}", a.len(), b.len())));
    }
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        let p = format!("{path}[{i}]");
        match (x, y) {
            (BundledValue::Tensor(ta), BundledValue::Tensor(tb)) => {
                if (ta.scalar_type, &ta.sizes, &ta.dim_order) != (tb.scalar_type, &tb.sizes, &tb.dim_order) {
                    out.push(Difference::new(
                        Category::Program,
                        p.clone(),
                        format!(
                            "tensor {}{:?} vs {}{:?}",
                            ta.scalar_type,
                            ta.sizes.as_deref().unwrap_or(&[]),
                            tb.scalar_type,
                            tb.sizes.as_deref().unwrap_or(&[])
                        ),
                    ));
                }
                let t =
                    Tensor { scalar_type: ScalarType(ta.scalar_type.0), sizes: ta.sizes.clone(), ..Tensor::default() };
                pte::tensor_data(
                    p,
                    "tensor",
                    &t,
                    ta.data.as_deref().unwrap_or(&[]),
                    tb.data.as_deref().unwrap_or(&[]),
                    o,
                    out,
                );
            }
            _ if x == y => {}
            _ => out.push(Difference::new(Category::Program, p, format!("{} vs {}", show(x), show(y)))),
        }
    }
}

fn show(v: &BundledValue<'_>) -> String {
    match v {
        BundledValue::None => "none".into(),
        BundledValue::Tensor(_) => "tensor".into(),
        BundledValue::Int(x) => format!("int {x}"),
        BundledValue::Bool(x) => format!("bool {x}"),
        BundledValue::Double(x) => format!("double {x}"),
    }
}
