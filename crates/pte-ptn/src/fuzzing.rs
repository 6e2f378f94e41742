//! Bodies of the `.ptn` fuzz targets in `fuzz/`, kept here so `cargo test`
//! runs them on stable (`tests/sweeps.rs`). Each returns normally for any
//! input; the only panics report a broken invariant of our own output, which
//! is how libFuzzer detects it.

#![allow(clippy::panic)]

use pte_schema::native::{decode_native_program, encode_native_program, native_program_to_json};

use crate::PtnFile;

/// `.ptn`: read, verify, and when it reads, write again and read back: the
/// result must equal the first read, and writing it again must give the same bytes.
///
/// ```
/// pte_ptn::fuzzing::ptn(b"PK\x05\x06 not really");
/// ```
pub fn ptn(data: &[u8]) {
    let _ = crate::verify::verify_ptn_bytes(data, &Default::default());
    let Ok(p) = PtnFile::from_bytes_unchecked(data) else { return };
    let _ = p.native_program(&Default::default());
    if let Ok(out) = p.to_bytes() {
        match PtnFile::from_bytes_unchecked(&out) {
            Ok(again) if again == p => {
                if again.to_bytes().ok().as_ref() != Some(&out) {
                    panic!("writing a package twice gave different bytes");
                }
            }
            Ok(_) => panic!("ptn rewrite changed the package"),
            Err(e) => panic!("our own ptn output does not read: {e}"),
        }
    }
}

/// `program.ptg` alone: decode, render, and when it decodes, encode and
/// decode back equal.
///
/// ```
/// pte_ptn::fuzzing::native(b"\x08\0\0\0NPTG");
/// ```
pub fn native(data: &[u8]) {
    let Ok(p) = decode_native_program(data, &Default::default()) else { return };
    let _ = native_program_to_json(&p);
    let _ = p.data_keys();
    match encode_native_program(&p).map(|b| decode_native_program(&b, &pte_schema::Limits::unlimited())) {
        Ok(Ok(again)) if again == p => {}
        // a NaN literal is not equal to itself; compare its bits through the encoding instead
        Ok(Ok(again)) if encode_native_program(&again).ok() == encode_native_program(&p).ok() => {}
        Ok(Ok(_)) => panic!("native program changed on re-encoding"),
        Ok(Err(e)) => panic!("our own native program does not decode: {e}"),
        Err(_) => {}
    }
}
