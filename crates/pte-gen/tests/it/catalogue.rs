//! Every corruption class, applied to the corpus files of its kind, gives
//! the error kind or verifier rule it promises, and nothing panics.

use std::collections::BTreeSet;
use std::path::Path;

use pte_gen::*;
use pte_verify::Rule;

fn corpus_files(kind: FileKind) -> Vec<(String, Vec<u8>)> {
    let root = pte_testkit::corpus_dir();
    let mut out = Vec::new();
    let mut dirs: Vec<_> =
        std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    for dir in dirs {
        let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for f in files {
            let ext = f.extension().and_then(|e| e.to_str()).unwrap_or("");
            let wanted = kind.extension() == Some(ext);
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
    let mut emitted = BTreeSet::new();
    for class in classes() {
        let mut applied = 0;
        for (name, bytes) in corpus_files(class.input) {
            assert!(judge(class.input, &bytes).error.is_none(), "{name} must read before it is broken");
            let Ok(broken) = class.apply(&bytes) else { continue };
            applied += 1;
            let verdict = judge(class.input, &broken);
            emitted.extend(verdict.rules.iter().chain(&verdict.warnings).copied());
            // a link rule shows only when the pair is verified together (below)
            if !class.rule.name().starts_with("link.") && !class.expect.is_met(&verdict) {
                failures.push(format!("{} on {name}: expected {:?}, got {verdict:?}", class.name, class.expect));
            }
            let named = if class.rule.name().starts_with("link.") {
                let links = link_rules(class.input, &broken);
                emitted.extend(links.iter().copied());
                links.contains(&class.rule)
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
    // whatever a verifier emitted on these files, some catalogue declares it
    failures
        .extend(emitted.iter().filter(|r| !catalogued(**r)).map(|r| format!("emitted rule {r} is in no catalogue")));
    assert!(emitted.len() >= 80, "only {} rules emitted", emitted.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_class_is_documented() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/fuzzing.md")).unwrap();
    for c in classes() {
        assert!(doc.contains(&format!("| `{}` |", c.name)), "docs/fuzzing.md lacks {}", c.name);
    }
}

/// The `link.*` rules `pte verify model.pte --ptd data.ptd` reports when
/// `broken` replaces its side of the corpus pair `external`.
fn link_rules(kind: FileKind, broken: &[u8]) -> Vec<Rule> {
    let dir = pte_testkit::corpus("external");
    let pte = std::fs::read(dir.join("model.pte")).unwrap();
    let ptd = std::fs::read(dir.join("_default_external_constant.ptd")).unwrap();
    let (pte, ptd) = if kind.is_pte() { (broken, &ptd[..]) } else { (&pte[..], broken) };
    let program = pte_file::PteFile::from_bytes(pte).unwrap();
    let data = pte_file::ptd::PtdFile::from_bytes(ptd).unwrap();
    let report = pte_verify::verify_link(&program.program, &[("data.ptd", &data)]);
    let registry = pte_analysis::delegate_payload::builtin_registry();
    let payloads = pte_analysis::delegate_payload::verify_payload_links(
        &program.program,
        pte,
        registry,
        &Default::default(),
        &[("data.ptd", &data)],
    );
    report.violations.iter().chain(&payloads.violations).map(|v| v.rule).collect()
}

/// Rules a file cannot break: the samples writer's own refusals.
const WRITER_ONLY: [Rule; 3] = [
    pte_samples::rules::PTN_SAMPLES_DUPLICATE_SET,
    pte_samples::rules::PTN_SAMPLES_INVALID_USE,
    pte_samples::rules::PTN_SAMPLES_PACKAGE,
];

/// Caps no small file can break (tens of megabytes to a terabyte): their
/// tests in pte-ptn lower the caps instead.
const TOO_LARGE_TO_BUILD: [Rule; 4] = [
    pte_ptn::verify::rules::PTN_LIMIT_MEMBERS,
    pte_ptn::verify::rules::PTN_LIMIT_TENSORS,
    pte_ptn::verify::rules::PTN_LIMIT_ALIASES,
    pte_ptn::verify::rules::PTN_LIMIT_PACKAGE_SIZE,
];

/// Every catalogue of every format crate.
fn catalogues() -> Vec<pte_verify::Catalogue> {
    let mut all = pte_verify::CATALOGUES.to_vec();
    all.push(pte_ptn::verify::CATALOGUE);
    all.push(pte_samples::CATALOGUE);
    all
}

/// Whether some format's catalogue lists `rule`, under the same description.
fn catalogued(rule: Rule) -> bool {
    catalogues().iter().any(|c| c.find(rule.name()).is_some_and(|r| r.checks() == rule.checks()))
}

#[test]
fn every_verifier_rule_has_a_class_that_breaks_it() {
    // the needs.* warnings are a command-level check of what a sound file lacks
    let rules: Vec<Rule> = catalogues()
        .iter()
        .filter(|c| c.format != pte_verify::rules::NEEDS.format)
        .flat_map(|c| c.rules.iter().copied())
        .filter(|r| !WRITER_ONLY.contains(r) && !TOO_LARGE_TO_BUILD.contains(r))
        .collect();
    assert!(rules.len() >= 80, "{} rules", rules.len());
    let missing: Vec<&Rule> = rules.iter().filter(|r| breaking(r.name()).next().is_none()).collect();
    assert!(missing.is_empty(), "rules no class breaks: {missing:?}");
}

#[test]
fn every_rule_is_well_named_and_catalogued_once() {
    let mut seen = BTreeSet::new();
    for c in catalogues() {
        assert!(!c.rules.is_empty(), "{} is empty", c.format);
        for r in c.rules {
            assert!(Rule::is_well_named(r.name()), "{r} breaks the naming convention");
            assert!(!r.checks().trim().is_empty(), "{r} says nothing about what it checks");
            assert!(seen.insert(r.name()), "{r} is catalogued twice");
        }
    }
    for class in classes() {
        assert!(catalogued(class.rule), "{}: rule {} is in no catalogue", class.name, class.rule);
        // a class named after a rule (`pte mutate --rule tensor.dim_order`) breaks that rule
        if seen.contains(class.name) {
            assert_eq!(class.rule.name(), class.name, "class {} breaks another rule", class.name);
        }
        if let Expect::Rule(r) = class.expect {
            assert!(catalogued(r), "{}: expected rule {r} is in no catalogue", class.name);
        }
    }
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
