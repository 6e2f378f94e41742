//! Hostile packages: each broken rule is a typed error, never a panic.

use std::io::{Cursor, Write};

use pte_ptn::{ErrorKind, PtnFile, PtnLimits};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

fn corpus_ptn() -> Vec<u8> {
    pte_testkit::corpus_bytes("native_ptn/model.ptn")
}

fn member(name: &str) -> Vec<u8> {
    let bytes = corpus_ptn();
    let mut z = zip::ZipArchive::new(Cursor::new(&bytes[..])).unwrap();
    let mut f = z.by_name(name).unwrap();
    let mut out = vec![];
    std::io::copy(&mut f, &mut out).unwrap();
    out
}

fn zip_of(entries: &[(&str, &[u8])], method: CompressionMethod) -> Vec<u8> {
    let mut w = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, data) in entries {
        w.start_file(*name, SimpleFileOptions::default().compression_method(method)).unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap().into_inner()
}

fn replace_all(bytes: &mut [u8], from: &[u8], to: &[u8]) -> usize {
    assert_eq!(from.len(), to.len());
    let mut n = 0;
    let mut i = 0;
    while i + from.len() <= bytes.len() {
        if &bytes[i..i + from.len()] == from {
            bytes[i..i + from.len()].copy_from_slice(to);
            n += 1;
            i += from.len();
        } else {
            i += 1;
        }
    }
    n
}

fn kind(bytes: &[u8]) -> ErrorKind {
    match PtnFile::from_bytes(bytes) {
        Ok(_) => panic!("accepted a hostile package"),
        Err(e) => {
            assert!(!e.message().is_empty());
            e.kind()
        }
    }
}

fn st(header: &str, data: &[u8]) -> Vec<u8> {
    let mut out = (header.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    out
}

fn with_safetensors(st: &[u8]) -> Vec<u8> {
    let ptg = member("program.ptg");
    zip_of(&[("program.ptg", &ptg), ("program.safetensors", st)], CompressionMethod::Stored)
}

fn with_aliases(aliases: &str) -> Vec<u8> {
    let ptg = member("program.ptg");
    let s = member("program.safetensors");
    zip_of(
        &[("program.ptg", &ptg), ("program.safetensors", &s), ("aliases.json", aliases.as_bytes())],
        CompressionMethod::Stored,
    )
}

#[test]
fn the_corpus_package_and_its_deflated_twin_read() {
    let corpus_bytes = corpus_ptn();
    let plain = PtnFile::from_bytes(&corpus_bytes).unwrap();
    let ptg = member("program.ptg");
    let s = member("program.safetensors");
    let deflated = zip_of(&[("program.ptg", &ptg), ("program.safetensors", &s)], CompressionMethod::Deflated);
    let inflated = PtnFile::from_bytes(&deflated).unwrap();
    assert_eq!(inflated, plain);
    // Written back stored.
    let again = inflated.to_bytes().unwrap();
    assert_eq!(PtnFile::from_bytes(&again).unwrap(), plain);
}

#[test]
fn zip_slip_names_are_refused() {
    let ptg = member("program.ptg");
    for evil in ["../x/evil", "/abs/evil", "a\\b\\evil", "C:/x/evil", "a//b/evil", "a/./b/evil", "a/b\u{1}evil"] {
        let placeholder: String = "q".repeat(evil.len());
        let mut bytes = zip_of(&[("program.ptg", &ptg), (&placeholder, b"x")], CompressionMethod::Stored);
        assert_eq!(replace_all(&mut bytes, placeholder.as_bytes(), evil.as_bytes()), 2, "{evil}");
        assert_eq!(kind(&bytes), ErrorKind::Malformed, "{evil}");
    }
}

#[test]
fn duplicate_members_are_refused() {
    let ptg = member("program.ptg");
    let mut bytes = zip_of(&[("program.ptg", &ptg), ("program.ptq", &ptg)], CompressionMethod::Stored);
    assert_eq!(replace_all(&mut bytes, b"program.ptq", b"program.ptg"), 2);
    assert_eq!(kind(&bytes), ErrorKind::Malformed);
}

#[test]
fn every_truncation_of_the_corpus_package_is_an_error() {
    let bytes = corpus_ptn();
    for len in 0..bytes.len() {
        assert!(PtnFile::from_bytes(&bytes[..len]).is_err(), "accepted a package truncated to {len}");
    }
}

#[test]
fn trailing_and_prepended_bytes_are_refused() {
    let mut bytes = corpus_ptn();
    bytes.extend_from_slice(b"junk");
    assert_eq!(kind(&bytes), ErrorKind::Malformed);
    let mut pre = b"#!/bin/sh\n".to_vec();
    pre.extend_from_slice(&corpus_ptn());
    assert_eq!(kind(&pre), ErrorKind::Malformed);
}

#[test]
fn a_corrupted_stored_member_fails_its_crc() {
    let mut bytes = corpus_ptn();
    // Inside program.ptg's data (its local header is at 0, 30 + 11 bytes long).
    bytes[100] ^= 0x40;
    assert_eq!(kind(&bytes), ErrorKind::Malformed);
}

#[test]
fn local_and_central_names_must_agree() {
    let ptg = member("program.ptg");
    let mut bytes = zip_of(&[("program.ptg", &ptg), ("extra.bin", b"x")], CompressionMethod::Stored);
    // Only the local header (the first occurrence) is renamed.
    let at = bytes.windows(9).position(|w| w == b"extra.bin").unwrap();
    bytes[at..at + 9].copy_from_slice(b"other.bin");
    assert_eq!(kind(&bytes), ErrorKind::Malformed);
}

#[test]
fn a_missing_program_is_refused() {
    let bytes = zip_of(&[("program.safetensors", &member("program.safetensors"))], CompressionMethod::Stored);
    assert_eq!(kind(&bytes), ErrorKind::Malformed);
}

#[test]
fn safetensors_header_claiming_more_bytes_than_exist() {
    let mut s = member("program.safetensors");
    let len = s.len() as u64;
    s[..8].copy_from_slice(&len.to_le_bytes());
    assert_eq!(kind(&with_safetensors(&s)), ErrorKind::Malformed);
    s[..8].copy_from_slice(&u64::MAX.to_le_bytes());
    assert_eq!(kind(&with_safetensors(&s)), ErrorKind::LimitExceeded);
    let small = PtnLimits { max_safetensors_header: 16, ..PtnLimits::default() };
    let err = PtnFile::from_bytes_with(&corpus_ptn(), &small).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded);
}

#[test]
fn overlapping_and_gapped_tensor_ranges_are_refused() {
    let cases: [(&str, &[u8]); 4] = [
        (
            r#"{"a":{"dtype":"U8","shape":[4],"data_offsets":[0,4]},"b":{"dtype":"U8","shape":[4],"data_offsets":[2,6]}}"#,
            &[0; 6],
        ),
        (
            r#"{"a":{"dtype":"U8","shape":[2],"data_offsets":[0,2]},"b":{"dtype":"U8","shape":[2],"data_offsets":[4,6]}}"#,
            &[0; 6],
        ),
        (r#"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}}"#, &[0; 4]),
        (r#"{"a":{"dtype":"F32","shape":[4611686018427387904,8],"data_offsets":[0,4]}}"#, &[0; 4]),
    ];
    // overlapping, gapped, the wrong size for the dtype, a size that overflows
    for (header, data) in cases {
        assert_eq!(kind(&with_safetensors(&st(header, data))), ErrorKind::Malformed, "{header}");
    }
}

#[test]
fn duplicate_json_keys_are_refused() {
    let dup = st(
        r#"{"w":{"dtype":"U8","shape":[4],"data_offsets":[0,4]},"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}"#,
        &[0; 4],
    );
    assert_eq!(kind(&with_safetensors(&dup)), ErrorKind::Malformed);
    assert_eq!(kind(&with_aliases(r#"{"x": "seq.0.bias", "x": "seq.2.bias"}"#)), ErrorKind::Malformed);
}

#[test]
fn unsupported_dtypes_are_refused() {
    let f8 = st(r#"{"a":{"dtype":"F8_E4M3","shape":[4],"data_offsets":[0,4]}}"#, &[0; 4]);
    assert_eq!(kind(&with_safetensors(&f8)), ErrorKind::Unsupported);
}

#[test]
fn alias_rules() {
    assert!(PtnFile::from_bytes(&with_aliases(r#"{"x": "seq.0.bias"}"#)).is_ok());
    for bad in [
        r#"{"x": "nobody"}"#,                // dangling
        r#"{"x": "y", "y": "x"}"#,           // cycle
        r#"{"x": "y", "y": "seq.0.bias"}"#,  // chain
        r#"{"seq.0.bias": "seq.2.bias"}"#,   // owner and alias
        r#"{"__metadata__": "seq.0.bias"}"#, // reserved
        r#"["not", "an object"]"#,
        r#"{"x": 3}"#,
    ] {
        assert_eq!(kind(&with_aliases(bad)), ErrorKind::Malformed, "{bad}");
    }
}

#[test]
fn a_referenced_key_must_resolve_with_matching_dtype_and_shape() {
    let ptg = member("program.ptg");
    // Missing tensors.
    assert_eq!(kind(&zip_of(&[("program.ptg", &ptg)], CompressionMethod::Stored)), ErrorKind::Malformed);
    let mut s = member("program.safetensors");
    // seq.2.bias is F32 [8]; relabel it I32 [8] (same byte size).
    let n = u64::from_le_bytes(s[..8].try_into().unwrap()) as usize;
    let header = std::str::from_utf8(&s[8..8 + n]).unwrap().to_string();
    let relabelled = header.replacen(r#""seq.2.bias":{"dtype":"F32""#, r#""seq.2.bias":{"dtype":"I32""#, 1);
    assert_ne!(relabelled, header);
    s[8..8 + n].copy_from_slice(relabelled.as_bytes());
    assert_eq!(kind(&with_safetensors(&s)), ErrorKind::Malformed);
}

#[test]
fn too_many_members_is_a_limit() {
    let small = PtnLimits { max_members: 1, ..PtnLimits::default() };
    assert_eq!(PtnFile::from_bytes_with(&corpus_ptn(), &small).unwrap_err().kind(), ErrorKind::LimitExceeded);
}

#[test]
fn the_tensor_limit_holds_while_the_header_is_parsed() {
    // the entries past the limit are even malformed: the count refuses first,
    // so nothing past the limit is ever parsed or held
    let entry = |i: usize| format!(r#""t{i}":{{"dtype":"U8","shape":[1],"data_offsets":[{i},{}]}}"#, i + 1);
    let mut entries: Vec<String> = (0..3).map(entry).collect();
    entries.push(r#""t3":{"dtype":"U8","shape":"not a shape"}"#.into());
    let header = format!("{{{}}}", entries.join(","));
    let bytes = with_safetensors(&st(&header, &[0; 3]));
    let three = PtnLimits { max_tensors: 3, ..PtnLimits::default() };
    let err = PtnFile::from_bytes_with(&bytes, &three).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::LimitExceeded, "{err}");
    assert!(err.message().contains("more than 3 tensors"), "{err}");
    // within the limit, the same malformed entry is what is reported
    let four = PtnLimits { max_tensors: 4, ..PtnLimits::default() };
    assert_eq!(PtnFile::from_bytes_with(&bytes, &four).unwrap_err().kind(), ErrorKind::Malformed);
    // a repeated key and an over-long key are still refused
    let twice = format!("{{{},{}}}", entry(0), entry(0));
    assert_eq!(kind(&with_safetensors(&st(&twice, &[0; 1]))), ErrorKind::Malformed);
    let long = format!(r#"{{"{}":{{"dtype":"U8","shape":[1],"data_offsets":[0,1]}}}}"#, "k".repeat(5000));
    assert_eq!(kind(&with_safetensors(&st(&long, &[0; 1]))), ErrorKind::LimitExceeded);
}
