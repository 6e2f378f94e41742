//! include/pte.h is what cbindgen makes of the crate today (less the
//! rustdoc examples); `PTE_BLESS=1` rewrites it.

use std::path::Path;

#[test]
fn matches() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).unwrap();
    let bindings = cbindgen::Builder::new().with_crate(dir).with_config(config).generate().unwrap();
    let mut fresh = Vec::new();
    bindings.write(&mut fresh);
    let fresh = for_c(&String::from_utf8(fresh).unwrap());
    let path = dir.join("include").join("pte.h");
    if std::env::var_os("PTE_BLESS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
        return;
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        stored == fresh,
        "{} is stale: regenerate it with PTE_BLESS=1 cargo test -p pte-c --test it header",
        path.display()
    );
}

/// cbindgen's text with what only Rust readers need taken out of the
/// comments: the rustdoc examples (fenced blocks) and the link brackets.
fn for_c(raw: &str) -> String {
    let mut lines: Vec<&str> = vec![];
    let mut fenced = false;
    for line in raw.lines() {
        if line.trim_start().starts_with("// ```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // an empty comment line left last in its comment goes too
        if !line.trim_start().starts_with("//") && lines.last().is_some_and(|l| l.trim() == "//") {
            lines.pop();
        }
        lines.push(line);
    }
    let mut out = lines.join("\n").replace("[`crate::", "`").replace("[`", "`").replace("`]", "`");
    out.push('\n');
    out
}

#[test]
fn for_c_drops_examples_and_links() {
    let raw = "// Text [`crate::f`].\n//\n// ```\n// rust();\n// ```\nint f(void);\n";
    assert_eq!(for_c(raw), "// Text `f`.\nint f(void);\n");
}

#[test]
fn declares_every_entry_point() {
    let header = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("include/pte.h")).unwrap();
    for name in [
        "pte_abi_version",
        "pte_open",
        "pte_open_bytes",
        "pte_close",
        "pte_verify",
        "pte_report_finding",
        "pte_segment",
        "pte_call_output_tensor",
        "pte_rewrite",
        "PTE_STATUS_NULL_POINTER",
        "PTE_ABI_VERSION",
    ] {
        assert!(header.contains(name), "pte.h lacks {name}");
    }
}
