//! `KeepRewrite` reads a sound program without decoding its plans, and
//! otherwise falls back to the decoding read: either way it fails exactly
//! where `SparsePte` fails, with the same error, and writes the same bytes.

use std::io::{Read, Seek};

use super::KeepRewrite;
use crate::{DelegatePlacement, SparsePte};
use pte_schema::*;

fn corpus() -> Vec<(String, Vec<u8>)> {
    let root = pte_testkit::corpus_dir();
    let mut out = vec![];
    for e in std::fs::read_dir(root).unwrap().flatten() {
        if let Ok(b) = std::fs::read(e.path().join("model.pte")) {
            out.push((e.file_name().to_string_lossy().into_owned(), b));
        }
    }
    out.sort();
    assert!(out.len() > 10);
    out
}

/// What each read writes for a keep-layout rewrite of `bytes` (`None`: not
/// kept), or its error.
type Outcome = std::result::Result<Option<Vec<u8>>, String>;

fn outcome(bytes: &[u8]) -> (Outcome, Outcome) {
    let mut src = tempfile::tempfile().unwrap();
    std::io::Write::write_all(&mut src, bytes).unwrap();
    let run = |write: &dyn Fn(&std::fs::File) -> crate::Result<Option<u64>>| {
        let mut dst = tempfile::tempfile().unwrap();
        let n = write(&dst).map_err(|e| e.to_string())?;
        Ok(n.map(|_| {
            let mut out = vec![];
            dst.rewind().unwrap();
            dst.read_to_end(&mut out).unwrap();
            out
        }))
    };
    let ours = match KeepRewrite::from_bytes(bytes) {
        Ok(r) => run(&|dst| r.write_keeping_program(dst, &r.matching_options(), &src)),
        Err(e) => Err(e.to_string()),
    };
    let theirs = match SparsePte::from_bytes(bytes) {
        Ok(s) => run(&|dst| s.write_keeping_program(dst, &crate::WriteOptions::matching(&s.file, bytes), &src)),
        Err(e) => Err(e.to_string()),
    };
    // the read that copies the program while verifying it writes the same
    let prefilled = run(&|dst| {
        let read = KeepRewrite::read_prefilling(bytes, &src, dst)?;
        let o = read.read().matching_options();
        read.finish(&o)
    });
    assert_eq!(prefilled, ours);
    (ours, theirs)
}

#[test]
fn sound_corpus_programs_are_copied_without_decoding() {
    for (name, bytes) in corpus() {
        let read = KeepRewrite::from_bytes(&bytes).unwrap();
        assert!(!read.decoded(), "{name}");
        let (ours, theirs) = outcome(&bytes);
        assert_eq!(ours, theirs, "{name}");
        if let Ok(Some(out)) = ours {
            assert_eq!(out, bytes, "{name}: a keep-layout rewrite reproduces the file");
        }
    }
}

#[test]
fn damaged_programs_fail_as_the_decoding_read_fails() {
    let mut decoded = 0;
    let mut failed = 0;
    for (name, bytes) in corpus().into_iter().filter(|(_, b)| b.len() < 1 << 16) {
        let program_size = if &bytes[8..12] == b"eh00" {
            u64::from_le_bytes(bytes[16..24].try_into().unwrap()) as usize
        } else {
            bytes.len()
        };
        for at in (0..program_size).step_by(7) {
            for x in [0x01u8, 0x80, 0xff] {
                let mut m = bytes.clone();
                m[at] ^= x;
                let (ours, theirs) = outcome(&m);
                assert_eq!(ours, theirs, "{name}: byte {at} ^ {x:#x}");
                failed += usize::from(theirs.is_err());
                // verified, yet refused: the fallback read named the problem
                let region = &m[..program_size.min(m.len())];
                decoded += usize::from(ProgramView::new(region, &Limits::default()).is_ok() && theirs.is_err());
            }
        }
    }
    assert!(failed > 100 && decoded > 0, "{failed} failed, {decoded} verified but refused");
}

#[test]
fn a_key_over_the_limit_or_an_unknown_tag_is_judged_by_the_decoding_read() {
    let tensor = |fqn: String| Tensor {
        extra_tensor_info: Some(ExtraTensorInfo { fully_qualified_name: Some(fqn), ..Default::default() }),
        ..Default::default()
    };
    let program = |fqn: String| {
        let plan = ExecutionPlan {
            name: Some("forward".into()),
            values: Some(vec![EValue { val: Some(KernelTypes::Tensor(tensor(fqn))) }, EValue { val: None }]),
            ..Default::default()
        };
        Program { execution_plan: Some(vec![plan]), ..Default::default() }
    };
    // a long string that is not a key: still copied without decoding
    let mut p = program("w".into());
    p.execution_plan.as_mut().unwrap()[0].operators =
        Some(vec![Operator { name: Some("x".repeat(5000)), overload: None }]);
    let bytes = encode_program(&p, &EncodeOptions::default()).unwrap();
    assert!(!KeepRewrite::from_bytes(&bytes).unwrap().decoded());
    // a key over the limit (our writer refuses to write one, planus does not):
    // the decoding read names it
    let bytes = encode_program(&program("k".into()), &EncodeOptions::default()).unwrap();
    let mut planus = pte_oracle::decode(&bytes).unwrap();
    let values = planus.execution_plan.as_mut().unwrap()[0].values.as_mut().unwrap();
    let Some(pte_oracle::schema::KernelTypes::Tensor(t)) = values[0].val.as_mut() else { panic!() };
    t.extra_tensor_info.as_mut().unwrap().fully_qualified_name = Some("k".repeat(5000));
    let bytes = pte_oracle::encode(&planus);
    let (ours, theirs) = outcome(&bytes);
    assert!(ours.as_ref().unwrap_err().contains("exceeds the limit"), "{ours:?}");
    assert_eq!(ours, theirs);
    // an unknown union tag: the view sees it while verifying
    let mut bytes = encode_program(&program("w".into()), &EncodeOptions::default()).unwrap();
    let view = ProgramView::new(&bytes, &Limits::default()).unwrap();
    assert!(!view.has_unknown_union_tag());
    let tag = bytes.iter().position(|&b| b == 5).unwrap(); // KernelTypes::Tensor, the only 5 here
    bytes[tag] = 77;
    if let Ok(view) = ProgramView::new(&bytes, &Limits::default()) {
        assert!(view.has_unknown_union_tag());
        let (ours, theirs) = outcome(&bytes);
        assert!(ours.as_ref().unwrap_err().contains("unknown union tag 77"), "{ours:?}");
        assert_eq!(ours, theirs);
    } else {
        panic!("the byte changed was not the union tag");
    }
}

/// A program large enough to be copied by a second thread while it is
/// verified (deep_program): the copy is written around as the plain
/// rewrite writes, a damaged program fails with the plain read's error, and
/// options that change the program leave the output empty for the writer
/// that decodes it.
#[test]
fn a_program_copied_while_verified_is_written_around_or_given_back() {
    let bytes = std::fs::read(pte_testkit::corpus("deep_program/model.pte")).unwrap();
    let program_size = u64::from_le_bytes(bytes[16..24].try_into().unwrap()) as usize;
    assert!(program_size > 1 << 20, "large enough for the copying thread");
    let (ours, theirs) = outcome(&bytes);
    assert_eq!(ours, theirs);
    assert_eq!(ours.unwrap().unwrap(), bytes);
    // damage spread over the program: a read that fails, fails the same way
    let mut failed = 0;
    for at in (0..program_size).step_by(program_size / 61) {
        let mut m = bytes.clone();
        m[at] ^= 0xff;
        let (ours, theirs) = outcome(&m);
        assert_eq!(ours, theirs, "byte {at}");
        failed += usize::from(theirs.is_err());
    }
    assert!(failed > 10, "{failed}");
    // options that change the file: nothing kept, the output empty again,
    // as the plain read declines them
    let mut src = tempfile::tempfile().unwrap();
    std::io::Write::write_all(&mut src, &bytes).unwrap();
    let plain = KeepRewrite::from_bytes(&bytes).unwrap();
    let changes = [
        plain.matching_options().with_delegates(DelegatePlacement::Inline),
        plain.matching_options().with_segment_alignment(1 << 16).unwrap(),
    ];
    for change in changes {
        assert_eq!(plain.write_keeping_program(&tempfile::tempfile().unwrap(), &change, &src).unwrap(), None);
        let mut dst = tempfile::tempfile().unwrap();
        let read = KeepRewrite::read_prefilling(&bytes, &src, &dst).unwrap();
        assert_eq!(read.finish(&change).unwrap(), None);
        assert_eq!((dst.metadata().unwrap().len(), dst.stream_position().unwrap()), (0, 0));
    }
}

/// A large program that fails verification at once (its root offset points
/// outside the buffer): the read beside the copy fails as the plain read
/// fails. (That the copy then stops is held by a unit test of the copy.)
#[test]
fn a_program_that_fails_at_once_is_not_copied_whole() {
    let size = 32usize << 20;
    let mut bytes = vec![0u8; size];
    bytes[..4].copy_from_slice(&0xffff_fff0u32.to_le_bytes());
    bytes[4..8].copy_from_slice(b"ET12");
    let header = pte_segments::ExtendedHeader::new(size as u64, size as u64, 0).to_bytes();
    bytes[8..8 + header.len()].copy_from_slice(&header);
    let plain = KeepRewrite::from_bytes(&bytes).err().unwrap().to_string();
    let mut src = tempfile::tempfile().unwrap();
    std::io::Write::write_all(&mut src, &bytes).unwrap();
    let dst = tempfile::tempfile().unwrap();
    let e = KeepRewrite::read_prefilling(&bytes, &src, &dst).err().unwrap();
    assert_eq!(e.to_string(), plain);
}
