//! `pte dump` prints exactly what it printed before it read the buffer in
//! place: the digests in tests/data were recorded from the tree-building
//! implementation on every corpus file. (`info` changed its text on purpose;
//! its snapshots are in snapshots.rs.)

use std::path::Path;
use std::process::Command;

use sha2::{Digest, Sha256};

use crate::support::{corpus, PTE};

fn check(list: &str, args_for: impl Fn(&str) -> Vec<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("tests/data").join(list)).unwrap();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (want, file) = (fields[0], fields[fields.len() - 1]);
        let mode = if fields.len() == 3 { fields[1] } else { "" };
        let path = corpus(file);
        let mut args = args_for(mode);
        args.push(path.to_str().unwrap().to_string());
        let o = Command::new(PTE).args(&args).output().unwrap();
        assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        let got: String = Sha256::digest(&o.stdout).iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(got, want, "{args:?} prints something else than before");
        n += 1;
    }
    assert!(n >= 14);
}

#[test]
fn dump_output_is_unchanged_on_every_corpus_file() {
    check("dump.sha256", |_| vec!["dump".into()]);
}
