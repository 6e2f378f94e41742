//! The `.ptn` targets: the package, its `program.ptg`, and its safetensors
//! reader against the `safetensors` crate.

use pte_schema::native::{decode_native_program, encode_native_program, native_program_to_json};

use pte_ptn::PtnFile;

/// `.ptn`: read, verify, and when it reads, write again and read back: the
/// result must equal the first read, and writing it again must give the same bytes.
///
/// ```
/// pte_fuzz_bodies::ptn(b"PK\x05\x06 not really");
/// ```
pub fn ptn(data: &[u8]) {
    let _ = pte_ptn::verify::verify_ptn_bytes(data, &Default::default());
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
/// pte_fuzz_bodies::native(b"\x08\0\0\0NPTG");
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

/// Differential: whenever our strict safetensors reader accepts a blob, the
/// `safetensors` crate must accept it too and agree on every key, dtype,
/// shape and byte (ours is allowed to refuse more).
///
/// ```
/// pte_fuzz_bodies::safetensors(b"\x08\0\0\0\0\0\0\0{}      ");
/// ```
pub fn safetensors(data: &[u8]) {
    let Ok(ours) = pte_ptn::read_safetensors_member(data, "fuzz.safetensors", &Default::default()) else { return };
    let theirs = match ::safetensors::SafeTensors::deserialize(data) {
        Ok(t) => t,
        Err(e) => panic!("we accept a blob the safetensors crate refuses: {e}"),
    };
    let mut names: Vec<String> = theirs.names().into_iter().map(str::to_string).collect();
    names.sort();
    if names.iter().map(String::as_str).ne(ours.keys().map(String::as_str)) {
        panic!("the two readers list different keys");
    }
    for (key, t) in &ours {
        let Ok(v) = theirs.tensor(key) else { panic!("the safetensors crate cannot open {key}") };
        let shape: Vec<u64> = v.shape().iter().map(|&d| d as u64).collect();
        if v.dtype() != t.dtype || shape != t.shape || v.data() != t.data.as_ref() {
            panic!("the two readers disagree on {key}");
        }
    }
}
