//! The page in process: its contract on the corpus, the same bytes twice,
//! hostile and damaged inputs answered part by part without a panic, and
//! the pieces (statistics, treemap, graphs) on inputs built to test them.

use proptest::prelude::*;
use pte_report::stats::{Elem, Stats};
use pte_report::treemap::{squarify, Rect};
use pte_report::{report, Source};

fn bytes(rel: &str) -> Vec<u8> {
    pte_testkit::corpus_bytes(rel)
}

fn one(name: &str, b: &[u8]) -> pte_report::Page {
    report(&[Source { name, bytes: b }], &[])
}

/// `data-NAME="N"` of the first file section.
fn data(html: &str, name: &str) -> usize {
    let key = format!(" data-{name}=\"");
    let i = html.find("<section class=\"file\"").unwrap();
    let at = html[i..].find(&key).unwrap() + i + key.len();
    html[at..at + html[at..].find('"').unwrap()].parse().unwrap()
}

#[test]
fn every_kind_reads_clean_and_the_summary_matches_the_attributes() {
    for rel in [
        "add/model.pte",
        "xnnpack_mlp/model.pte",
        "multi_method/model.pte",
        "mutable_buffer/model.pte",
        "dtypes/model.pte",
        "bundled/model.bpte",
        "native_ptn/model.ptn",
        "external/_default_external_constant.ptd",
    ] {
        let b = bytes(rel);
        let page = one(rel, &b);
        let f = &page.files[0];
        assert!(page.is_clean(), "{rel}: {:?}", f.unreadable);
        assert_eq!(data(&page.html, "methods"), f.methods, "{rel}");
        assert_eq!(data(&page.html, "nodes"), f.nodes, "{rel}");
        assert_eq!(data(&page.html, "tensors"), f.tensors, "{rel}");
        assert_eq!(page.html.matches("<tr class=\"tensor\">").count(), f.tensors, "{rel}");
        assert_eq!(page.html.matches("<figure class=\"graph\"").count(), f.methods, "{rel}");
        assert!(!page.html.contains("class=\"unreadable\""), "{rel}");
    }
}

#[test]
fn the_same_inputs_give_the_same_bytes() {
    let (a, b, c) = (bytes("linear/model.pte"), bytes("xnnpack_mlp/model.pte"), bytes("native_ptn/model.ptn"));
    let files = [Source { name: "a", bytes: &a }, Source { name: "b", bytes: &b }, Source { name: "c", bytes: &c }];
    let first = report(&files, &[]);
    assert_eq!(first, report(&files, &[]));
    assert!(first.html.contains("<section id=\"comparison\""));
}

#[test]
fn constants_get_statistics_of_their_data() {
    let b = bytes("linear/model.pte");
    let page = one("linear.pte", &b);
    let pte = pte_file::PteFile::from_bytes(&b).unwrap();
    let t = &pte.tensors().unwrap()[0];
    let v: Vec<f32> = t.bytes.unwrap().chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
    let max = v.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let shown = pte_report::html::float(f64::from(max));
    let row = page.html.split("<tr class=\"tensor\">").nth(1).unwrap();
    assert!(row.contains(&format!("<td class=\"num\">{shown}</td>")), "{shown} not in {row}");
}

#[test]
fn a_missing_or_broken_data_file_is_said_not_hidden() {
    let (p, d) = (bytes("external/model.pte"), bytes("external/_default_external_constant.ptd"));
    let page = report(&[Source { name: "e.pte", bytes: &p }], &[Source { name: "d.ptd", bytes: &d }]);
    assert!(page.is_clean());
    assert_eq!(page.html.matches("<tr class=\"found\">").count(), 4);
    // a data file holding none of the keys: each is missing, the link rule says so
    let other = bytes("external/_default_external_constant.ptd");
    let mut broken = other.clone();
    broken.truncate(100);
    let page = report(&[Source { name: "e.pte", bytes: &p }], &[Source { name: "d.ptd", bytes: &broken }]);
    assert!(!page.is_clean());
    assert!(page.html.contains("class=\"unreadable\">Data file d.ptd could not be read"), "{}", page.html);
}

/// Every corruption class on a file of each kind, seeded mutants, and the
/// regression files: a page every time, its counts consistent, what could
/// not be read said, and no panic.
#[test]
fn hostile_inputs_get_a_page_part_by_part() {
    let mut inputs = pte_testkit::regression_inputs();
    for (rel, kind) in [
        ("linear/model.pte", pte_gen::FileKind::Pte),
        ("xnnpack_mlp/model.pte", pte_gen::FileKind::Pte),
        ("mutable_plain/model.pte", pte_gen::FileKind::Pte),
        ("multi_method/model.pte", pte_gen::FileKind::Pte),
        ("external/_default_external_constant.ptd", pte_gen::FileKind::Ptd),
        ("bundled/model.bpte", pte_gen::FileKind::Bpte),
        ("native_ptn/model.ptn", pte_gen::FileKind::Ptn),
    ] {
        inputs.extend(pte_gen::test_hostile::damaged(rel, &pte_testkit::corpus_bytes(rel), kind, 5, 40));
    }
    inputs.push(("empty".into(), vec![]));
    inputs.push(("short".into(), b"\x1c\0\0\0ET12".to_vec()));
    assert!(inputs.len() > 300, "{}", inputs.len());
    let mut unreadable = 0;
    for (name, b) in &inputs {
        let page = one(name, b);
        let f = &page.files[0];
        assert_eq!(data(&page.html, "violations"), f.violations, "{name}");
        assert_eq!(page.html.matches("<tr class=\"violation\">").count(), f.violations, "{name}");
        assert_eq!(page.html.matches("<tr class=\"tensor\">").count(), f.tensors, "{name}");
        assert_eq!(page.html.matches("class=\"unreadable\"").count(), f.unreadable.len(), "{name}");
        assert!(page.html.ends_with("</html>\n"), "{name}");
        unreadable += usize::from(!f.unreadable.is_empty());
    }
    assert!(unreadable > 20, "{unreadable} pages with unreadable parts");
}

#[test]
fn statistics_read_every_float_integer_and_bool_dtype() {
    let f16: Vec<u8> = [0x3c00u16, 0xc000, 0x7e00, 0xfc00, 0x0001].iter().flat_map(|x| x.to_le_bytes()).collect();
    let s = Stats::of(Elem::F16, &f16, u64::MAX);
    assert_eq!((s.min, s.max, s.nan, s.inf), (-2.0, 1.0, 1, 1));
    let bf16: Vec<u8> = [0x3f80u16, 0x4040].iter().flat_map(|x| x.to_le_bytes()).collect();
    let s = Stats::of(Elem::Bf16, &bf16, u64::MAX);
    assert_eq!((s.min, s.max, s.mean), (1.0, 3.0, 2.0));
    let f64s: Vec<u8> = [1.5f64, f64::INFINITY].iter().flat_map(|x| x.to_le_bytes()).collect();
    assert_eq!(Stats::of(Elem::F64, &f64s, u64::MAX).inf, 1);
    let i64s: Vec<u8> = [-5i64, 7].iter().flat_map(|x| x.to_le_bytes()).collect();
    let s = Stats::of(Elem::Int(8), &i64s, u64::MAX);
    assert_eq!((s.min, s.max, s.float), (-5.0, 7.0, false));
    let s = Stats::of(Elem::Uint(1), &[255, 0], u64::MAX);
    assert_eq!((s.min, s.max), (0.0, 255.0));
    let s = Stats::of(Elem::Bool, &[0, 1, 2], u64::MAX);
    assert_eq!((s.max, s.total), (1.0, 3));
    let s = Stats::of(Elem::F32, &[], u64::MAX);
    assert!(s.min.is_nan() && s.read == 0);
    // the bound: no more than MAX_ELEMENTS read
    let big = vec![0u8; (pte_report::stats::MAX_ELEMENTS as usize + 10) * 4];
    let s = Stats::of(Elem::F32, &big, u64::MAX);
    assert_eq!((s.read, s.total), (pte_report::stats::MAX_ELEMENTS, pte_report::stats::MAX_ELEMENTS + 10));
}

#[test]
fn the_dataflow_graphs_index_their_own_nodes() {
    for rel in
        ["xnnpack_mlp/model.pte", "multi_method/model.pte", "inline_delegate/model.pte", "mutable_buffer/model.pte"]
    {
        let b = bytes(rel);
        let pte = pte_file::PteFile::from_bytes(&b).unwrap();
        for plan in pte.program.plans() {
            let g = pte_report::graph::of_plan(plan);
            assert!(g.edges.iter().all(|e| e.from < g.nodes.len() && e.to < g.nodes.len() && e.from != e.to), "{rel}");
            let ids: std::collections::BTreeSet<&str> = g.nodes.iter().map(|n| n.id.as_str()).collect();
            assert_eq!(ids.len(), g.nodes.len(), "{rel}: ids are unique");
        }
    }
    let b = bytes("xnnpack_mlp/model.pte");
    let pte = pte_file::PteFile::from_bytes(&b).unwrap();
    let g = pte_report::graph::of_plan(&pte.program.plans()[0]);
    assert!(g.nodes.iter().any(|n| n.kind == pte_report::graph::NodeKind::Delegate));
}

proptest! {
    /// The rectangles tile the area: inside it, areas proportional to the values, summing to it.
    #[test]
    fn squarified_rectangles_tile_the_area(mut values in prop::collection::vec(1u32..1_000_000, 1..60), w in 10.0f64..2000.0, h in 10.0f64..2000.0) {
        values.sort_unstable_by(|a, b| b.cmp(a));
        let v: Vec<f64> = values.iter().map(|&x| f64::from(x)).collect();
        let area = Rect { x: 5.0, y: 7.0, w, h };
        let r = squarify(&v, area);
        prop_assert_eq!(r.len(), v.len());
        let total: f64 = v.iter().sum();
        let eps = 1e-6 * w * h;
        for (rect, x) in r.iter().zip(&v) {
            prop_assert!((rect.w * rect.h - x / total * w * h).abs() <= eps.max(1e-6));
            prop_assert!(rect.x >= area.x - 1e-6 && rect.y >= area.y - 1e-6);
            prop_assert!(rect.x + rect.w <= area.x + w + 1e-6 && rect.y + rect.h <= area.y + h + 1e-6);
        }
    }
}

/// A constant whose shape has a negative dimension (`[-3, 4]`, which a
/// hostile or damaged program can carry) gives no element count: its row
/// says so instead of showing statistics over a count made up from the
/// bytes stored.
#[test]
fn a_negative_dimension_gets_a_note_not_statistics() {
    use pte_file::test_programs::{float_tensor, one_operator_plan, to_bytes};
    let mut plan = one_operator_plan(vec![float_tensor(1, vec![-3, 4])], 0);
    plan.operators = Some(vec![]);
    let data: Vec<u8> = (1..=12u8).flat_map(|i| f32::from(i).to_le_bytes()).collect();
    let parts = pte_file::PteParts {
        program: pte_schema::Program { execution_plan: Some(vec![plan]), ..Default::default() },
        constants: vec![std::borrow::Cow::Owned(vec![]), std::borrow::Cow::Owned(data)],
        ..Default::default()
    };
    let b = to_bytes(&parts);
    let page = one("negative.pte", &b);
    let rows: Vec<&str> =
        page.html.split("<tr class=\"tensor\">").skip(1).map(|r| &r[..r.find("</tr>").unwrap()]).collect();
    assert_eq!(rows.len(), 1, "{}", page.html);
    let row = rows[0];
    assert!(row.contains("<td>[-3, 4]</td>"), "{row}");
    assert!(row.contains("invalid shape: a negative dimension gives no element count"), "{row}");
    // min, max, mean, NaN and Inf are not given
    assert_eq!(row.matches("<td class=\"num\">-</td>").count(), 5, "{row}");
    assert!(!row.contains(">12<") && !row.contains(">6.5<"), "{row}");
}

/// Each treemap label is cut to what its rectangle holds in the monospace
/// font (6.6 units a character at 11), clipped to the rectangle besides,
/// and whole in the part's tooltip.
#[test]
fn treemap_labels_stay_inside_their_rectangles() {
    let b = bytes("xnnpack_mlp/model.pte");
    let r = pte_analysis::size::pte_size_report(&b).unwrap();
    let long = r.parts.iter().map(|p| p.name.to_string()).max_by_key(String::len).unwrap();
    let svg = pte_report::treemap::svg(&r, "sizes", "t-");
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let mut labelled = 0;
    let mut cut = 0;
    for part in doc.descendants().filter(|d| d.attribute("class") == Some("part")) {
        let rect = part.children().find(|c| c.has_tag_name("rect")).unwrap();
        let num = |n: roxmltree::Node, a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
        let title = part.children().find(|c| c.has_tag_name("title")).unwrap().text().unwrap();
        let texts: Vec<_> = part.descendants().filter(|d| d.has_tag_name("text")).collect();
        if texts.is_empty() {
            continue;
        }
        labelled += 1;
        let clipped = part.children().find(|c| c.attribute("clip-path").is_some()).unwrap();
        let id = clipped.attribute("clip-path").unwrap().trim_start_matches("url(#").trim_end_matches(')');
        let clip = doc.descendants().find(|d| d.has_tag_name("clipPath") && d.attribute("id") == Some(id)).unwrap();
        let area = clip.first_element_child().unwrap();
        for a in ["x", "y", "width", "height"] {
            assert_eq!(num(area, a), num(rect, a), "{title}: clip {a}");
        }
        for t in &texts {
            assert!(texts.iter().all(|t| clipped.descendants().any(|d| d == *t)), "{title}: text outside the clip");
            let shown = t.text().unwrap();
            let right = num(*t, "x") + shown.chars().count() as f64 * 6.6;
            assert!(right <= num(rect, "x") + num(rect, "width") - 3.0 + 0.01, "{title}: {shown:?} overflows");
            if shown.ends_with('…') {
                cut += 1;
                let kept = shown.trim_end_matches('…');
                assert!(title.starts_with(kept), "{title} / {shown}");
            }
        }
        assert!(title.contains(" bytes, "), "{title}");
    }
    assert!(labelled > 0 && cut > 0, "{labelled} labelled, {cut} cut; longest name {long}");
    assert_eq!(doc.root_element().attribute("font-family"), Some("ui-monospace, Menlo, Consolas, monospace"));
}
