//! `pte report`: the page's contract (docs/report.md) on every corpus file,
//! its counts against `pte info --json` and `pte verify --json`, the same
//! bytes twice, nothing loaded from the network, and hostile files answered
//! with a page or a one-line refusal, never a panic.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::{corpus, corpus_files, pte, s, stderr, stdout};

/// The value of `name="..."` in the tag `tag`.
fn attr(tag: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = tag[start..].find('"')? + start;
    Some(tag[start..end].to_string())
}

fn count_attr(tag: &str, name: &str) -> usize {
    attr(tag, name).unwrap_or_else(|| panic!("no {name} in {tag}")).parse().unwrap()
}

/// Every start tag beginning with `open` (`<figure class="graph"`) in `html`.
fn tags<'a>(html: &'a str, open: &str) -> Vec<&'a str> {
    html.match_indices(open).map(|(i, _)| &html[i..i + html[i..].find('>').unwrap() + 1]).collect()
}

/// The body of file section `k`.
fn file_section(html: &str, k: usize) -> &str {
    let start = html.find(&format!("<section class=\"file\" id=\"file-{k}\"")).unwrap();
    let rest = &html[start + 1..];
    let end = [rest.find("<section class=\"file\""), rest.find("<section id=\"comparison\""), rest.find("</main>")]
        .into_iter()
        .flatten()
        .min()
        .unwrap();
    &html[start..start + 1 + end]
}

fn json(args: &[&str]) -> Option<Value> {
    serde_json::from_str(&stdout(&pte(args))).ok()
}

/// Runs `pte report` into `out`, returning the exit status and the page.
fn report(args: &[&str], out: &Path) -> (Option<i32>, String) {
    let mut argv: Vec<&str> = vec!["report"];
    argv.extend(args);
    argv.extend(["-o", s(out)]);
    let o = pte(&argv);
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{argv:?}: {err}");
    let html = std::fs::read_to_string(out).unwrap_or_default();
    (o.status.code(), html)
}

/// Checks section `k` of `html` against the contract and the CLI's JSON for `file`.
fn check_section(html: &str, k: usize, file: &Path, ptd: Option<&Path>) {
    let sec = file_section(html, k);
    let tag = tags(sec, "<section class=\"file\"")[0];
    let name = file.display();
    let info = json(&["info", "--json", s(file)]).unwrap_or_else(|| panic!("{name}: info"));
    let mut verify_args = vec!["verify", "--json", s(file)];
    if let Some(p) = ptd {
        verify_args.extend(["--ptd", s(p)]);
    }
    let verify = json(&verify_args).unwrap_or_else(|| panic!("{name}: verify"));
    let kind = info["format"].as_str().unwrap();
    assert_eq!(attr(tag, "data-kind").as_deref(), Some(kind), "{name}");
    let program = if kind == "bpte" { &info["program"] } else { &info };
    let methods = program["methods"].as_array().map_or(0, Vec::len);
    assert_eq!(count_attr(tag, "data-methods"), methods, "{name}");
    let (v, w) = (verify["violations"].as_array().unwrap().len(), verify["warnings"].as_array().unwrap().len());
    assert_eq!((count_attr(tag, "data-violations"), count_attr(tag, "data-warnings")), (v, w), "{name}");
    assert_eq!(sec.matches("<tr class=\"violation\">").count(), v, "{name}");
    assert_eq!(sec.matches("<tr class=\"warning\">").count(), w, "{name}");
    assert_eq!(sec.matches("<table class=\"violations\">").count(), usize::from(v + w > 0), "{name}");
    let tensors = count_attr(tag, "data-tensors");
    assert_eq!(sec.matches("<tr class=\"tensor\">").count(), tensors, "{name}");
    assert_eq!(sec.matches("<table class=\"tensors\">").count(), usize::from(tensors > 0), "{name}");
    let figures = tags(sec, "<figure class=\"graph\"");
    assert_eq!(figures.len(), methods, "{name}");
    let nodes: usize = figures.iter().map(|f| count_attr(f, "data-nodes")).sum();
    assert_eq!(count_attr(tag, "data-nodes"), nodes, "{name}");
    for f in &figures {
        assert!(!attr(f, "data-method").unwrap().is_empty(), "{name}: {f}");
        count_attr(f, "data-edges");
    }
    let mut ids = vec!["summary", "verification", "graphs", "sizes", "tensors"];
    match kind {
        "pte" => ids.push("memory"),
        "bpte" => ids.extend(["memory", "tests"]),
        "ptn" => ids.push("samples"),
        _ => {}
    }
    if program["delegates"].as_array().is_some_and(|d| !d.is_empty()) {
        ids.push("delegates");
    }
    if ptd.is_some() {
        ids.push("external");
    }
    for id in ids {
        assert!(sec.contains(&format!("id=\"{id}-{k}\"")), "{name}: no #{id}-{k}");
    }
    assert!(sec.contains(&format!("<input type=\"search\" id=\"search-{k}\"")), "{name}");
    assert!(!sec.contains("class=\"unreadable\""), "{name}: a corpus file has an unreadable part");
}

fn head_checks(html: &str, names: &[&str]) {
    assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    assert!(html.contains(&format!("<title>pte report: {}</title>", names.join(", "))), "{names:?}");
    assert!(html.contains(&format!("<meta name=\"generator\" content=\"pte {}\">", env!("CARGO_PKG_VERSION"))));
}

/// No `src`, `href`, `url(...)`, `@import` or `action` leaves the page.
fn assert_offline(html: &str, what: &str) {
    let lower = html.to_ascii_lowercase();
    for attr in ["src=", "href=", "action=", "url(", "@import", "srcset="] {
        for (i, _) in lower.match_indices(attr) {
            let value = lower[i + attr.len()..].trim_start_matches(['"', '\'', ' ']);
            assert!(
                !value.starts_with("http:") && !value.starts_with("https:") && !value.starts_with("//"),
                "{what}: {}",
                &html[i..(i + 80).min(html.len())]
            );
        }
    }
    assert!(!lower.contains("<link"), "{what}: a <link> element");
    assert!(!lower.contains("<script src"), "{what}: an external script");
}

#[test]
fn every_corpus_file_meets_the_page_contract() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.html");
    let files = corpus_files(&["pte", "ptd", "ptn", "bpte"]);
    assert!(files.len() >= 15, "{files:?}");
    for f in &files {
        let (code, html) = report(&[s(f)], &out);
        assert_eq!(code, Some(0), "{}", f.display());
        head_checks(&html, &[f.file_name().unwrap().to_str().unwrap()]);
        check_section(&html, 0, f, None);
        assert_offline(&html, &f.display().to_string());
        assert!(!html.contains("id=\"comparison\""));
    }
}

#[test]
fn a_program_with_its_data_file_resolves_its_external_tensors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.html");
    let (pte_path, ptd) = (corpus("external/model.pte"), corpus("external/_default_external_constant.ptd"));
    let (code, html) = report(&[s(&pte_path), "--ptd", s(&ptd)], &out);
    assert_eq!(code, Some(0));
    check_section(&html, 0, &pte_path, Some(&ptd));
    let sec = file_section(&html, 0);
    assert_eq!(sec.matches("<tr class=\"found\">").count(), 4, "every EXTERNAL key is held by the .ptd");
    assert!(!sec.contains("<tr class=\"missing\">"));
    // alone, the program warns that its keys need a .ptd, and nothing resolves them
    let (code, html) = report(&[s(&pte_path)], &out);
    assert_eq!(code, Some(0));
    assert!(!html.contains("id=\"external-0\""));
    assert!(file_section(&html, 0).contains("<tr class=\"warning\">"));
}

#[test]
fn several_files_get_a_comparison_and_the_same_bytes_twice() {
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<PathBuf> = ["linear/model.pte", "add/model.pte", "native_ptn/model.ptn", "bundled/model.bpte"]
        .iter()
        .map(|c| corpus(c))
        .collect();
    let args: Vec<&str> = files.iter().map(|p| s(p)).collect();
    let (a, b) = (dir.path().join("a.html"), dir.path().join("b.html"));
    let (code, html) = report(&args, &a);
    assert_eq!(code, Some(0));
    report(&args, &b);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap(), "two runs differ");
    head_checks(&html, &["model.pte", "model.pte", "model.ptn", "model.bpte"]);
    for (k, f) in files.iter().enumerate() {
        check_section(&html, k, f, None);
    }
    let cmp = &html[html.find("<section id=\"comparison\"").unwrap()..];
    assert!(cmp.contains("<table class=\"differences\">"), "linear and add differ");
    assert!(cmp.contains("only files of one kind compare"), "a .pte and a .ptn are not compared");
    assert_offline(&html, "several files");
    // standard output carries the same page
    let o = pte(&[&["report"][..], &args, &["-o", "-"]].concat());
    assert_eq!(o.stdout, std::fs::read(&a).unwrap());
}

/// Like the other writers, `report -o OUT` says what it wrote, whether the
/// files are clean (exit 0) or found wanting (exit 1, and the line on
/// stderr); the page on standard output comes alone.
#[test]
fn report_says_what_it_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.html");
    let mut damaged = std::fs::read(corpus("linear/model.pte")).unwrap();
    damaged.truncate(damaged.len() - 8);
    let bad = dir.path().join("bad.pte");
    std::fs::write(&bad, &damaged).unwrap();
    for (file, code) in [(corpus("linear/model.pte"), 0), (bad, 1)] {
        let o = pte(&["report", s(&file), "-o", s(&out)]);
        assert_eq!(o.status.code(), Some(code), "{}", stderr(&o));
        let n = std::fs::metadata(&out).unwrap().len();
        assert_eq!(stdout(&o), format!("wrote {} ({n} bytes)\n", out.display()));
    }
    let o = pte(&["report", s(&corpus("linear/model.pte")), "-o", "-"]);
    assert!(stdout(&o).starts_with("<!DOCTYPE html>") && stdout(&o).ends_with("</html>\n"));
}

#[test]
fn the_deep_program_folds_its_drawing_and_stays_whole() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.html");
    let f = corpus("deep_program/model.pte");
    let (code, html) = report(&[s(&f)], &out);
    assert_eq!(code, Some(0));
    check_section(&html, 0, &f, None);
    let fig = tags(&html, "<figure class=\"graph\"")[0];
    assert!(count_attr(fig, "data-nodes") > 10_000, "{fig}");
    assert!(html.contains("<details class=\"big\">"), "a graph of thousands of nodes starts folded");
}

/// Hostile and damaged files: the regressions, every corruption class of
/// `pte mutate` on a file of each kind, and seeded blind mutants. Each gets
/// a page (exit 0 or 1; exit 1 only with violations or unreadable parts,
/// which the page shows) or a one-line refusal (exit 2), never a panic.
#[test]
fn hostile_files_get_a_page_or_a_one_line_refusal() {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = pte_testkit::regression_inputs();
    for (rel, kind) in [
        ("xnnpack_mlp/model.pte", pte_gen::FileKind::Pte),
        ("multi_method/model.pte", pte_gen::FileKind::Pte),
        ("external/_default_external_constant.ptd", pte_gen::FileKind::Ptd),
        ("bundled/model.bpte", pte_gen::FileKind::Bpte),
        ("native_ptn/model.ptn", pte_gen::FileKind::Ptn),
    ] {
        inputs.extend(pte_gen::test_hostile::damaged(rel, &pte_testkit::corpus_bytes(rel), kind, 11, 12));
    }
    assert!(inputs.len() > 100, "{} inputs", inputs.len());
    let (mut pages, mut refused) = (0, 0);
    let out = dir.path().join("r.html");
    for (name, bytes) in &inputs {
        let file = dir.path().join("input");
        std::fs::write(&file, bytes).unwrap();
        let _ = std::fs::remove_file(&out);
        let o = pte(&["report", s(&file), "-o", s(&out)]);
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "{name}: {err}");
        match o.status.code() {
            Some(0 | 1) => {
                pages += 1;
                let html = std::fs::read_to_string(&out).unwrap();
                let tag = tags(&html, "<section class=\"file\"")[0];
                let wanting = count_attr(tag, "data-violations") > 0 || html.contains("class=\"unreadable\"");
                assert_eq!(o.status.code() == Some(1), wanting, "{name}: exit {:?} {err}", o.status.code());
                assert_eq!(
                    html.matches("<tr class=\"violation\">").count(),
                    count_attr(tag, "data-violations"),
                    "{name}"
                );
                assert_eq!(html.matches("<tr class=\"tensor\">").count(), count_attr(tag, "data-tensors"), "{name}");
                assert!(html.ends_with("</html>\n"), "{name}");
            }
            Some(2) => {
                refused += 1;
                assert!(err.starts_with("pte: ") && err.lines().count() == 1, "{name}: {err}");
                assert!(!out.exists(), "{name}: a refusal wrote a page");
            }
            other => panic!("{name}: exit {other:?}: {err}"),
        }
    }
    assert!(pages > 50, "{pages} pages, {refused} refused");
}
