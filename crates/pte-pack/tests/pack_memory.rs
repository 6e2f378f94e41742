//! Packing an edited extract folder holds each blob file at most once: a
//! delegate blob grown to 64 MiB is named by two manifest entries (its
//! segment and its delegate), and an unedited blob is recognised by its
//! digest read in chunks, so the peak heap stays near one copy of the blob
//! (two copies before: 128 MiB, and 8.4 GB for a blob grown to 4 GiB).
//!
//! A test binary of its own, apart from any `tests/it`: the counting
//! allocator is global to the process, so other tests running beside this
//! one would add their allocations to the peak it measures.

#![allow(clippy::unwrap_used, clippy::arithmetic_side_effects, clippy::indexing_slicing, missing_docs)]

use peak_alloc::PeakAlloc;
use sha2::{Digest, Sha256};

use pte_pack::{read_dir_with, Entry, EntryKind, Manifest, ManifestFormat, PackOptions};
use pte_schema::{program_to_json, JsonBytes};

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

const MIB: usize = 1 << 20;

fn hex(b: &[u8]) -> String {
    Sha256::digest(b).iter().map(|x| format!("{x:02x}")).collect()
}

/// A writer that only counts what it is given.
struct Counter(u64);

impl std::io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_grown_delegate_blob_is_held_once_while_packing() {
    let src = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte")).unwrap();
    let pte = pte_file::PteFile::from_bytes(&src).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("program.json"), program_to_json(&pte.program, JsonBytes::Integers).to_string())
        .unwrap();
    // the folder as extract writes it, without a stored layout (so it is
    // encoded): a file per segment, each blob entry naming its segment's file
    let mut m = Manifest::new(ManifestFormat::Pte);
    let mut delegate = None;
    for (i, bytes) in pte.segments.iter().enumerate() {
        let name = format!("segment-{i}.bin");
        std::fs::write(dir.path().join(&name), bytes).unwrap();
        let mut e = Entry::new(&name, bytes.len() as u64, EntryKind::Segment { index: i as u64, offset: None });
        e.sha256 = Some(hex(bytes));
        m.entries.push(e.clone());
        // as `pte extract` finds it, the XNNPACK blob is segment 1
        if i == 1 {
            e.kind = EntryKind::Delegate {
                method: 0,
                delegate: 0,
                id: None,
                location: Some("SEGMENT".into()),
                index: i as u64,
            };
            m.entries.push(e);
            delegate = Some(name);
        }
    }
    let delegate = delegate.unwrap();
    std::fs::write(dir.path().join("manifest.json"), m.to_vec().unwrap()).unwrap();
    // the blob grows to 64 MiB (an edit: its digest and size no longer match)
    let grown = 64 * MIB;
    std::fs::File::options().append(true).open(dir.path().join(&delegate)).unwrap().set_len(grown as u64).unwrap();

    ALLOC.reset_peak_usage();
    let before = ALLOC.current_usage();
    let folder = read_dir_with(dir.path(), &PackOptions::default()).unwrap();
    assert!(folder.note.is_some(), "the grown blob is encoded, not kept verbatim");
    let mut out = Counter(0);
    folder.packed.write_to(&mut out).unwrap();
    let peak = ALLOC.peak_usage().saturating_sub(before);
    println!("packed {} bytes; peak heap {peak} bytes", out.0);
    assert!(out.0 > grown as u64);
    assert!(peak < grown + grown / 4, "packing a {grown}-byte blob took {peak} bytes of heap (two copies or more)");
}
