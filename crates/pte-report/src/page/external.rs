//! The EXTERNAL tensors of a program resolved against the data files given.

use std::fmt::Write as _;

use pte_file::ptd::PtdFile;
use pte_file::view::PteView;

use super::context::{wrap, Ctx, Source};
use crate::html::{counted, escape, head_row, row, thousands};

/// The EXTERNAL tensors of a program and which data file holds each.
pub(super) fn external(cx: &mut Ctx, pte: Option<&PteView<'_>>, data: &[Source<'_>]) -> String {
    let Some(pte) = pte else {
        return cx.failed_part("external", "External tensors", "the EXTERNAL tensors", "the program could not be read");
    };
    let mut s = String::new();
    let mut held: Vec<(&str, std::collections::BTreeSet<String>)> = vec![];
    for d in data {
        match PtdFile::from_bytes(d.bytes) {
            Ok(p) => held.push((d.name, p.keys().into_iter().map(str::to_string).collect())),
            Err(e) => s.push_str(&cx.fail(&format!("data file {}", d.name), e)),
        }
    }
    let names: Vec<&str> = data.iter().map(|d| d.name).collect();
    let summary = pte::Summary::new(*pte, &pte::SummaryOptions { tensors: true, ..Default::default() });
    let external: Vec<pte::TensorRow> = summary.tensors(false).filter(|t| t.storage == "external").collect();
    let _ = write!(
        s,
        "<p>{}, looked up by name in {}.</p>",
        counted(external.len() as u64, "EXTERNAL tensor"),
        escape(&names.join(", "))
    );
    if !external.is_empty() {
        s.push_str("<div class=\"scroll\"><table class=\"external\">");
        s.push_str(&head_row(&["key", "dtype", "shape", "bytes", "held by"]));
        for t in external {
            let holder = held.iter().find(|(_, keys)| keys.contains(&t.name));
            let (class, where_) = match holder {
                Some((name, _)) => ("found", format!("found in {name}")),
                None => ("missing", "missing from every data file given".to_string()),
            };
            let facts = t.facts.as_ref();
            s.push_str(&row(
                Some(class),
                &[
                    t.name.clone(),
                    pte_core::style::dtype(t.dtype.as_deref().unwrap_or("")),
                    pte_core::style::dynamic_shape(t.sizes.iter().flatten(), facts.map_or("", |f| f.dynamism.as_str())),
                    facts.and_then(|f| f.nbytes).map_or_else(|| "?".into(), thousands),
                    where_,
                ],
            ));
        }
        s.push_str("</table></div>");
    }
    wrap(cx, "external", "External tensors", &s)
}
