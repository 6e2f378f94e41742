//! The keep-layout rewrite over the table in place writes what the decoding
//! writer writes, byte for byte, on every corpus program and on tables out
//! of order or naming one range many times.

use std::io::{Read, Seek, Write};

use crate::{PteFile, SparsePte, WriteOptions};

fn read_back(f: &mut std::fs::File) -> Vec<u8> {
    let mut out = vec![];
    f.rewind().unwrap();
    f.read_to_end(&mut out).unwrap();
    out
}

/// Both writers on `bytes`; `None` when the sparse one declines.
fn both(bytes: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    let mut src = tempfile::tempfile().unwrap();
    src.write_all(bytes).unwrap();
    let sparse = SparsePte::from_bytes(bytes).unwrap();
    let o = WriteOptions::matching(&sparse.file, bytes);
    let mut a = tempfile::tempfile().unwrap();
    let n = sparse.write_keeping_program(&a, &o, &src).unwrap()?;
    let mut b = tempfile::tempfile().unwrap();
    let m = PteFile::from_bytes(bytes).unwrap().write_keeping_program(&b, &o, &src, bytes).unwrap();
    assert_eq!(n, m);
    Some((read_back(&mut a), read_back(&mut b)))
}

#[test]
fn the_same_bytes_as_the_decoding_writer() {
    let root = pte_testkit::corpus_dir();
    let mut kept = 0;
    for e in std::fs::read_dir(root).unwrap() {
        let Ok(bytes) = std::fs::read(e.unwrap().path().join("model.pte")) else { continue };
        if let Some((a, b)) = both(&bytes) {
            assert!(a == b);
            kept += 1;
        }
        // a table with its order reversed and an entry shared, refs following
        let pte = PteFile::from_bytes(&bytes).unwrap();
        let n = pte.program.segment_table().len();
        if n < 2 {
            continue;
        }
        let mut p = pte.program.clone();
        let mut table = p.segments.take().unwrap();
        table.reverse();
        table.push(table[0]);
        p.segments = Some(table);
        let last = u32::try_from(n).unwrap() - 1;
        if let Some(c) = &mut p.constant_segment {
            c.segment_index = last - c.segment_index;
        }
        for d in p.named_data.iter_mut().flatten() {
            d.segment_index = last - d.segment_index;
        }
        for m in p.mutable_data_segments.iter_mut().flatten() {
            m.segment_index = last - m.segment_index;
        }
        for plan in p.execution_plan.iter_mut().flatten() {
            for d in plan.delegates.iter_mut().flatten() {
                if let Some(r) = d.processed.as_mut().filter(|r| r.location == pte_schema::DataLocation::SEGMENT) {
                    r.index = last - r.index;
                }
            }
        }
        let fb = pte_schema::encode_program(&p, &Default::default()).unwrap();
        let mut out = vec![];
        crate::splice_flatbuffer(&mut out, &bytes, &fb, &WriteOptions::matching(&pte, &bytes)).unwrap();
        if let Some((a, b)) = both(&out) {
            assert!(a == b);
            kept += 1;
        }
    }
    assert!(kept >= 8, "{kept}");
}

#[test]
fn a_bare_program_is_copied_as_stored() {
    // no header, no segments, constants inline: the file is its flatbuffer
    let bytes = crate::test_programs::program_heavy_legacy_bytes(100);
    let (a, b) = both(&bytes).expect("a bare program is kept");
    assert!(a == b && a == bytes);
    // one its writer laid out otherwise (a flatbuffer 8 bytes longer, as
    // older writers left it) is kept as it was by both writers, where an
    // encoder would lay it out anew
    let mut padded = bytes.clone();
    padded.extend_from_slice(&[0; 8]);
    let (a, b) = both(&padded).expect("a bare program is kept");
    assert!(a == b && a == padded);
}
