//! Every corruption class, applied to the corpus files of its kind, gives
//! the error kind or verifier rule it promises, and nothing panics.

#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::BTreeSet;
use std::path::Path;

use pte_gen::*;

fn corpus_files(kind: FileKind) -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus");
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
    let names: BTreeSet<&str> = CATALOGUE.iter().map(|c| c.name).collect();
    assert_eq!(names.len(), CATALOGUE.len(), "names are unique");
    let mut failures = Vec::new();
    for class in CATALOGUE {
        let mut applied = 0;
        for (name, bytes) in corpus_files(class.input) {
            assert!(judge(class.input, &bytes).error.is_none(), "{name} must read before it is broken");
            let Ok(broken) = class.apply(&bytes) else { continue };
            applied += 1;
            let verdict = judge(class.input, &broken);
            if !class.expect.is_met(&verdict) {
                failures.push(format!("{} on {name}: expected {:?}, got {verdict:?}", class.name, class.expect));
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
    for c in CATALOGUE {
        assert!(doc.contains(&format!("| `{}` |", c.name)), "docs/fuzzing.md lacks {}", c.name);
    }
}
