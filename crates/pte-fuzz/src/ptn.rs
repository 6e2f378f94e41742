//! `.ptn` packages are zips: a member (the program, a safetensors file, the
//! alias table) is mutated by the strategy for its own format, or members are
//! dropped, repeated, renamed, and the package is zipped again (stored).

use std::io::{Cursor, Read, Write};

use pte_gen::Rng;

type Members = Vec<(String, Vec<u8>)>;

fn unzip(bytes: &[u8]) -> Option<Members> {
    let mut z = zip::ZipArchive::new(Cursor::new(bytes)).ok()?;
    let mut out = Vec::with_capacity(z.len());
    for i in 0..z.len() {
        let mut f = z.by_index(i).ok()?;
        // Sized from what the archive holds, never from a declared size.
        let mut data = Vec::new();
        f.by_ref().take((bytes.len() as u64).saturating_mul(4)).read_to_end(&mut data).ok()?;
        out.push((f.name().ok()?.to_string(), data));
    }
    Some(out)
}

fn rezip(members: &Members) -> Option<Vec<u8>> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .last_modified_time(zip::DateTime::default());
    for (name, data) in members {
        w.start_file(name.as_str(), opts).ok()?;
        w.write_all(data).ok()?;
    }
    Some(w.finish().ok()?.into_inner())
}

/// One member mutated, or the member list edited.
pub(crate) fn member(data: &[u8], max_size: usize, rng: &mut Rng) -> Option<Vec<u8>> {
    let mut members = unzip(data)?;
    let n = members.len();
    match rng.below(10) {
        0 if n > 0 => {
            members.remove(rng.below(n));
        }
        1 => {
            let copy = members.get(rng.below(n))?.clone();
            members.push(copy);
        }
        2 => {
            let m = members.get_mut(rng.below(n))?;
            m.0 = ["program.pte", "", "../escape", "data/x.safetensors", "aliases.json", "program.ptg"]
                .get(rng.below(6))?
                .to_string();
        }
        _ => {
            let m = members.get_mut(rng.below(n))?;
            m.1 = crate::mutate(&m.1, max_size, rng.next_u64());
        }
    }
    rezip(&members)
}

/// Members of `b` put in place of (or next to) members of `a`.
pub(crate) fn cross(a: &[u8], b: &[u8], rng: &mut Rng) -> Option<Vec<u8>> {
    let mut ma = unzip(a)?;
    let mb = unzip(b)?;
    let from = mb.get(rng.below(mb.len()))?.clone();
    match ma.iter_mut().find(|m| m.0 == from.0) {
        Some(m) if rng.below(3) != 0 => *m = from,
        _ => ma.push(from),
    }
    rezip(&ma)
}
