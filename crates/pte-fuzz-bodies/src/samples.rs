//! The samples-sidecar target.

use pte_samples::{encode_set, parse_set, SampleLimits};

/// Splits the input into an index and a safetensors blob (the first four
/// bytes, little-endian, give the index length), parses the set, and when it
/// parses, encodes it and parses that back: the result must be equal.
///
/// ```
/// pte_fuzz_bodies::samples(b"\x19\0\0\0{\"format\":\"pte-samples\"}\x08\0\0\0\0\0\0\0{}      ");
/// ```
pub fn samples(data: &[u8]) {
    let Some((len, rest)) = data.split_first_chunk::<4>() else { return };
    let at = usize::try_from(u32::from_le_bytes(*len)).unwrap_or(usize::MAX).min(rest.len());
    let (index, blob) = rest.split_at(at);
    let limits = SampleLimits::default();
    let Ok(set) = parse_set(index, blob, None, &limits) else { return };
    let _ = pte_samples::tolerance_warnings(&set);
    match encode_set(&set, &limits) {
        Ok(enc) => match parse_set(&enc.index, &enc.data, None, &limits) {
            Ok(again) if again == set => {}
            Ok(_) => panic!("a written sample set reads back different"),
            Err(e) => panic!("our own sample set does not read: {e}"),
        },
        // Pretty-printing can push an index near the size limit over it.
        Err(e) if e.rule() == pte_samples::SampleRule::Limit => {}
        Err(e) => panic!("a set that read does not write: {e}"),
    }
}
