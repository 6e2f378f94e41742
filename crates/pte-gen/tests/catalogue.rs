//! Every corruption class, applied to the corpus files of its kind, gives
//! the error kind or verifier rule it promises, and nothing panics.

#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::BTreeSet;
use std::path::Path;

use pte_gen::*;

fn corpus_files(kind: FileKind) -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut out = Vec::new();
    let mut dirs: Vec<_> =
        std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    for dir in dirs {
        let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for f in files {
            let ext = f.extension().and_then(|e| e.to_str()).unwrap_or("");
            let wanted = match kind {
                FileKind::Pte => ext == "pte",
                FileKind::Ptd => ext == "ptd",
                FileKind::Ptn => ext == "ptn",
                FileKind::Bpte => ext == "bpte",
            };
            if wanted {
                out.push((f.strip_prefix(&root).unwrap().display().to_string(), std::fs::read(&f).unwrap()));
            }
        }
    }
    out
}

#[test]
fn every_class_gives_its_typed_result_on_every_corpus_file_it_applies_to() {
    assert!(CATALOGUE.len() >= 30, "{} classes", CATALOGUE.len());
    let names: BTreeSet<&str> = classes().map(|c| c.name).collect();
    assert_eq!(names.len(), classes().count(), "names are unique");
    let mut failures = Vec::new();
    for class in classes() {
        let mut applied = 0;
        for (name, bytes) in corpus_files(class.input) {
            assert!(judge(class.input, &bytes).error.is_none(), "{name} must read before it is broken");
            let Ok(broken) = class.apply(&bytes) else { continue };
            applied += 1;
            let verdict = judge(class.input, &broken);
            // a link rule shows only when the pair is verified together (below)
            if !class.rule.starts_with("link.") && !class.expect.is_met(&verdict) {
                failures.push(format!("{} on {name}: expected {:?}, got {verdict:?}", class.name, class.expect));
            }
            let named = if class.rule.starts_with("link.") {
                link_rules(class.input, &broken).contains(&class.rule)
            } else {
                verdict.rules.contains(&class.rule) || verdict.warnings.contains(&class.rule)
            };
            if !named {
                failures
                    .push(format!("{} on {name}: pte verify does not name {}: {verdict:?}", class.name, class.rule));
            }
        }
        if applied == 0 {
            failures.push(format!("{} applies to no corpus file", class.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_class_is_documented() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/fuzzing.md")).unwrap();
    for c in classes() {
        assert!(doc.contains(&format!("| `{}` |", c.name)), "docs/fuzzing.md lacks {}", c.name);
    }
}

/// The `link.*` rules `pte verify model.pte --ptd data.ptd` reports when
/// `broken` replaces its side of the corpus pair `external`.
fn link_rules(kind: FileKind, broken: &[u8]) -> Vec<&'static str> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/external");
    let pte = std::fs::read(dir.join("model.pte")).unwrap();
    let ptd = std::fs::read(dir.join("_default_external_constant.ptd")).unwrap();
    let (pte, ptd) = match kind {
        FileKind::Pte => (broken, &ptd[..]),
        _ => (&pte[..], broken),
    };
    let program = pte_file::PteFile::from_bytes(pte).unwrap();
    let data = pte_file::ptd::PtdFile::from_bytes(ptd).unwrap();
    let report = pte_file::verify::verify_link(&program.program, &[("data.ptd", &data)]);
    let registry = pte_file::delegate_payload::builtin_registry();
    let payloads = pte_file::delegate_payload::verify_payload_links(
        &program.program,
        pte,
        registry,
        &Default::default(),
        &[("data.ptd", &data)],
    );
    report.violations.iter().chain(&payloads.violations).map(|v| v.rule).collect()
}

/// Rules a file cannot break: the samples writer's own refusals.
const WRITER_ONLY: [&str; 3] = ["ptn.samples.duplicate-set", "ptn.samples.invalid-use", "ptn.samples.package"];

#[test]
fn every_verifier_rule_has_a_class_that_breaks_it() {
    let rules: Vec<&str> = pte_file::verify::RULES
        .iter()
        .chain(pte_ptn::verify::PTN_RULES)
        .map(|(n, _)| *n)
        .chain(pte_samples::Rule::ALL.iter().map(|r| r.verifier_rule()))
        .filter(|r| !WRITER_ONLY.contains(r))
        .collect();
    assert!(rules.len() >= 80, "{} rules", rules.len());
    let missing: Vec<&&str> = rules.iter().filter(|r| breaking(r).next().is_none()).collect();
    assert!(missing.is_empty(), "rules no class breaks: {missing:?}");
}

#[test]
fn no_class_applies_to_a_file_of_another_kind() {
    let kinds = [FileKind::Pte, FileKind::Ptd, FileKind::Ptn, FileKind::Bpte];
    for class in classes() {
        for other in kinds.iter().filter(|k| **k != class.input) {
            for (name, bytes) in corpus_files(*other) {
                let e = class.apply(&bytes).err();
                assert!(e.is_some(), "{} applied to {name}, a {other:?}", class.name);
            }
        }
        assert!(class.apply(b"plain text, no identifier").is_err(), "{}", class.name);
    }
}
