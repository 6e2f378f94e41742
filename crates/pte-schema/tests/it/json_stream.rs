//! The streamed program JSON (`ProgramJson`) against the tree it replaces
//! (`program_to_json` + `serde_json::to_vec_pretty`): byte-identical on every
//! corpus program and on damaged copies of them, and refused with the same
//! error where the decoder refuses.

use pte_schema::{decode_program, program_to_json, JsonBytes, Limits, ProgramJson};

/// Every corpus program's flatbuffer region (up to the eh00 program_size).
fn regions() -> Vec<(String, Vec<u8>)> {
    let root = pte_testkit::corpus_dir();
    let mut out = vec![];
    for e in std::fs::read_dir(root).unwrap() {
        let dir = e.unwrap().path();
        let Ok(b) = std::fs::read(dir.join("model.pte")) else { continue };
        let end =
            if &b[8..12] == b"eh00" { u64::from_le_bytes(b[16..24].try_into().unwrap()) as usize } else { b.len() };
        out.push((dir.file_name().unwrap().to_string_lossy().into_owned(), b[..end].to_vec()));
    }
    out.sort();
    assert!(out.len() >= 14, "corpus missing");
    out
}

fn streamed(region: &[u8], limits: &Limits) -> Result<Vec<u8>, String> {
    let json = ProgramJson::new(region, limits).map_err(|e| e.to_string())?;
    let mut out = vec![];
    json.write_pretty(&mut out).unwrap();
    Ok(out)
}

fn tree(region: &[u8], limits: &Limits) -> Result<Vec<u8>, String> {
    let p = decode_program(region, limits).map_err(|e| e.to_string())?;
    Ok(serde_json::to_vec_pretty(&program_to_json(&p, JsonBytes::Integers)).unwrap())
}

#[test]
fn corpus_json_is_byte_identical() {
    for (name, region) in regions() {
        let l = Limits::default();
        let (a, b) = (streamed(&region, &l).unwrap(), tree(&region, &l).unwrap());
        assert!(a == b, "{name}: streamed JSON differs from the tree's");
    }
}

#[test]
fn damaged_copies_stream_the_same_or_fail_the_same() {
    let mut rng = 0xD1B5_4A32_D192_ED03u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let (mut same, mut refused) = (0, 0);
    for (name, region) in regions() {
        let edits = if region.len() > 1 << 20 { 8 } else { 200 };
        for k in 0..edits {
            let mut b = region.clone();
            let at = 8 + (next() as usize % (b.len() - 8));
            match k % 3 {
                0 => b[at] ^= 1 << (next() % 8),
                1 => b[at] = b[at].wrapping_add(1),
                _ => b[at] = [0, 12, 0xFF][next() as usize % 3],
            }
            let l = Limits::default();
            let (a, t) = (streamed(&b, &l), tree(&b, &l));
            assert!(a == t, "{name}: edit {k} at byte {at}: {:?} vs {:?}", a.as_ref().err(), t.as_ref().err());
            if a.is_ok() {
                same += 1;
            } else {
                refused += 1;
            }
        }
    }
    assert!(same > 0 && refused > 0);
}

#[test]
fn limits_refuse_as_the_decoder_does() {
    let (name, region) = regions().into_iter().find(|(n, _)| n == "xnnpack_mlp").unwrap();
    let tight = Limits { max_named_data: 0, ..Default::default() };
    let (a, t) = (streamed(&region, &tight), tree(&region, &tight));
    assert!(a.is_err(), "{name}");
    assert_eq!(a, t);
}
