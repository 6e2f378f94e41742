//! `.bpte` against `.bpte`: the embedded programs as `.pte` files, then
//! every test case's inputs and expected outputs, read in place one pair of
//! values at a time (a bundle may hold hundreds of thousands of cases).

use pte_file::bpte::BundledFile;
use pte_schema::bundled::{BundledValue, BundledView, CaseView, Side, SuiteView};
use pte_schema::{Limits, Result, ScalarType, Tensor};

use crate::{program, side, Category, Difference, Options};

fn name<'a>(s: &SuiteView<'a>) -> &'a str {
    s.method_name().unwrap_or("")
}

pub(crate) fn diff(a: &[u8], b: &[u8], o: &Options, out: &mut Vec<Difference>) -> Result<()> {
    // the errors reading the whole bundles gives, then the cases read in place
    BundledFile::check(a).map_err(side("A"))?;
    BundledFile::check(b).map_err(side("B"))?;
    let limits = Limits::default();
    let fa = BundledView::new(a, &limits).map_err(side("A"))?;
    let fb = BundledView::new(b, &limits).map_err(side("B"))?;
    if fa.version() != fb.version() {
        out.push(Difference::new(Category::Program, "version", format!("{} vs {}", fa.version(), fb.version())));
    }
    let (pa, pb) = (fa.program().unwrap_or_default(), fb.program().unwrap_or_default());
    if pa != pb {
        crate::program::diff(pa, pb, o, "program.", out)?;
    }
    for sa in fa.suites() {
        let path = format!("method_test_suites[{:?}]", name(&sa));
        let Some(sb) = fb.suites().find(|s| name(s) == name(&sa)) else {
            out.push(Difference::new(Category::Program, path, "only in A"));
            continue;
        };
        let (na, nb) = (sa.case_count().unwrap_or(0), sb.case_count().unwrap_or(0));
        if na != nb {
            out.push(Difference::new(Category::Program, path.clone(), format!("{na} test cases vs {nb}")));
        }
        for (i, (x, y)) in sa.cases().zip(sb.cases()).enumerate() {
            for which in [Side::Inputs, Side::ExpectedOutputs] {
                values(&format!("{path}.test_cases[{i}].{}", which.field()), &x, &y, which, o, out)?;
            }
        }
    }
    for sb in fb.suites().filter(|s| !fa.suites().any(|x| name(&x) == name(s))) {
        out.push(Difference::new(Category::Program, format!("method_test_suites[{:?}]", name(&sb)), "only in B"));
    }
    if a.len() != b.len() {
        out.push(Difference::new(Category::Layout, "file", format!("size {} vs {}", a.len(), b.len())));
    }
    Ok(())
}

/// Compares the `side` values of two cases, one pair at a time.
fn values(
    path: &str,
    a: &CaseView<'_>,
    b: &CaseView<'_>,
    which: Side,
    o: &Options,
    out: &mut Vec<Difference>,
) -> Result<()> {
    let (na, nb) = (a.value_count(which).unwrap_or(0), b.value_count(which).unwrap_or(0));
    if na != nb {
        out.push(Difference::new(Category::Program, path, format!("{na} values vs {nb}")));
    }
    let (xs, ys) = (a.values(which).into_iter().flatten(), b.values(which).into_iter().flatten());
    for (i, (x, y)) in xs.zip(ys).enumerate() {
        let (x, y) = (x.map_err(side("A"))?, y.map_err(side("B"))?);
        let p = format!("{path}[{i}]");
        match (&x, &y) {
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
                let (da, db) = (ta.data.as_deref().unwrap_or(&[]), tb.data.as_deref().unwrap_or(&[]));
                if da == db {
                    continue;
                }
                let t =
                    Tensor { scalar_type: ScalarType(ta.scalar_type.0), sizes: ta.sizes.clone(), ..Tensor::default() };
                program::tensor_data(p, "tensor", &t, da, db, o, out);
            }
            _ if x == y => {}
            _ => out.push(Difference::new(Category::Program, p, format!("{} vs {}", show(&x), show(&y)))),
        }
    }
    Ok(())
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
