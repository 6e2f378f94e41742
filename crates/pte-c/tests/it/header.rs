//! include/pte.h is what cbindgen makes of the crate today; `PTE_BLESS=1`
//! rewrites it.

use std::path::Path;

#[test]
fn matches() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).unwrap();
    let bindings = cbindgen::Builder::new().with_crate(dir).with_config(config).generate().unwrap();
    let mut fresh = Vec::new();
    bindings.write(&mut fresh);
    let fresh = String::from_utf8(fresh).unwrap();
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
