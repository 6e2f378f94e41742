//! Names from a file reach a human output with their control characters
//! escaped, by the one rule (`pte_core::style::text`): an operator name
//! holding ESC, BEL, CR and LF cannot clear the screen, ring the bell or
//! start a line of its own in `info`, `ops`, `size`, `graph` or an error.

use std::path::{Path, PathBuf};

use crate::support::*;

/// The operator name of the test program: a screen clear, a bell, a line break.
const OP: &str = "aten::a\u{1b}[2Jdd\r\nevil\u{7}";
/// [`OP`] as every human output shows it.
const OP_SHOWN: &str = r"aten::a\u001b[2Jdd\r\nevil\u0007";
/// The method name of the test program, with DEL and a C1 control.
const METHOD: &str = "fwd\u{1b}[31m\u{7f}\u{9b}";

/// The corpus' `linear` program (its operators own constants, so `size --by
/// operator` names them) with its first operator named [`OP`] and its
/// method [`METHOD`].
fn hostile_program(dir: &Path) -> PathBuf {
    let bytes = std::fs::read(corpus("linear/model.pte")).unwrap();
    let mut f = pte_file::PteFile::from_bytes(&bytes).unwrap().into_owned();
    let plan = &mut f.program.execution_plan.as_mut().unwrap()[0];
    plan.name = Some(METHOD.into());
    for op in plan.operators.as_mut().unwrap() {
        op.name = Some(OP.into());
    }
    let p = dir.join("hostile.pte");
    std::fs::write(&p, f.to_bytes(&Default::default()).unwrap()).unwrap();
    p
}

/// No control character but the line breaks of the output itself.
fn no_raw_controls(what: &str, out: &[u8]) {
    let text = String::from_utf8_lossy(out);
    let raw: Vec<char> = text.chars().filter(|&c| c.is_control() && c != '\n').collect();
    assert!(raw.is_empty(), "{what}: raw control characters {raw:?} in\n{text}");
}

#[test]
fn operator_and_method_names_are_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let p = hostile_program(dir.path());
    for (args, shown) in [
        (&["info"][..], OP_SHOWN.to_string()),
        (&["ops"][..], OP_SHOWN.to_string()),
        (&["size", "--by", "operator"][..], OP_SHOWN.to_string()),
        // the syntax's own escaping then applies to the escaped text
        (&["graph"][..], OP_SHOWN.replace('\\', "\\\\")),
        (&["graph", "--format", "mermaid"][..], OP_SHOWN.to_string()),
    ] {
        let o = pte(&[args, &[s(&p)]].concat());
        ok(&o, &format!("{args:?}"));
        no_raw_controls(&format!("{args:?}"), &o.stdout);
        assert!(stdout(&o).contains(&shown), "{args:?}: {}", stdout(&o));
    }
    // info quotes a method name as JSON does, DEL and C1 escaped too
    let o = pte(&["info", s(&p)]);
    assert!(stdout(&o).contains(r#"method "fwd\u001b[31m\u007f\u009b": "#), "{}", stdout(&o));
    let o = pte(&["ops", s(&p)]);
    assert!(stdout(&o).contains(r"method fwd\u001b[31m\u007f\u009b: "), "{}", stdout(&o));
}

#[test]
fn json_output_stays_json() {
    let dir = tempfile::tempdir().unwrap();
    let p = hostile_program(dir.path());
    let o = pte(&["ops", "--json", s(&p)]);
    ok(&o, "ops --json");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v.to_string().contains(&serde_json::to_string(OP).unwrap()[1..20]), "{v}");
}

fn ok(o: &std::process::Output, what: &str) {
    assert!(o.status.success(), "{what}: {}", stderr(o));
}

#[test]
fn a_member_name_in_an_error_or_finding_is_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = std::fs::read(corpus("native_ptn/model.ptn")).unwrap();
    // the same length, so the zip's offsets still hold
    let (from, to) = (b"program.ptg", b"p\x1b[2J\x07\r\n.pg");
    assert_eq!(from.len(), to.len());
    let mut k = 0;
    while let Some(at) = bytes[k..].windows(from.len()).position(|w| w == from) {
        bytes[k + at..k + at + from.len()].copy_from_slice(to);
        k += at + from.len();
    }
    let p = dir.path().join("hostile.ptn");
    std::fs::write(&p, &bytes).unwrap();
    let shown = r"p\u001b[2J\u0007\r\n.pg";
    for args in [&["info"][..], &["samples", "list"][..], &["extract"][..]] {
        let out = dir.path().join("x");
        let mut argv = [args, &[s(&p)]].concat();
        if args == ["extract"] {
            argv.push(s(&out));
        }
        let o = pte(&argv);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = o.stderr.strip_suffix(b"\n").unwrap();
        no_raw_controls(&format!("{args:?}"), err);
        assert!(!err.contains(&b'\n'), "{args:?}: one line");
        assert!(stderr(&o).contains(shown), "{args:?}: {}", stderr(&o));
    }
    let o = pte(&["verify", s(&p)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    no_raw_controls("verify", o.stdout.strip_suffix(b"\n").unwrap());
    assert!(stdout(&o).contains(shown), "{}", stdout(&o));
}
