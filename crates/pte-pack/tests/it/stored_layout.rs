//! The stored layout of an extract folder: any source cut into any set of
//! (possibly overlapping) blob regions packs back into its exact bytes, and
//! a blob edited in place lands where it sat, nowhere else.

use std::path::Path;

use proptest::prelude::*;
use sha2::{Digest, Sha256};

use pte_pack::{read_dir_with, Entry, EntryKind, Manifest, ManifestFormat, PackOptions, Packed, StoredBuilder};

fn hex(b: &[u8]) -> String {
    Sha256::digest(b).iter().map(|x| format!("{x:02x}")).collect()
}

/// Writes `source` cut at `regions` as an extract folder would, with a
/// program JSON whose digest the stored layout records.
fn folder(dir: &Path, source: &[u8], regions: &[(usize, usize)]) -> Manifest {
    let mut b = StoredBuilder::new(source);
    let mut m = Manifest::new(ManifestFormat::Pte);
    for (i, &(at, len)) in regions.iter().enumerate() {
        let name = format!("r{i}.bin");
        let bytes = &source[at..at + len];
        std::fs::write(dir.join(&name), bytes).unwrap();
        b.add(at as u64, len as u64, &name);
        let mut e = Entry::new(&name, len as u64, EntryKind::Other("blob".into()));
        e.sha256 = Some(hex(bytes));
        e.at = Some(at as u64);
        m.entries.push(e);
    }
    std::fs::write(dir.join("program.json"), b"{}").unwrap();
    let (stored, filler) = b.finish(Some(hex(b"{}")), "filler.bin");
    let filler: Vec<u8> = filler.concat();
    if stored.filler.is_some() {
        std::fs::write(dir.join("filler.bin"), &filler).unwrap();
        let mut e = Entry::new("filler.bin", filler.len() as u64, EntryKind::Filler);
        e.sha256 = Some(hex(&filler));
        m.entries.push(e);
    }
    m.stored = Some(stored);
    std::fs::write(dir.join("manifest.json"), m.to_vec().unwrap()).unwrap();
    m
}

fn case() -> impl Strategy<Value = (Vec<u8>, Vec<(usize, usize)>)> {
    // mostly zeros, as padding is, with some non-zero runs
    let source = prop::collection::vec(prop_oneof![3 => Just(0u8), 1 => any::<u8>()], 1..600);
    source.prop_flat_map(|s| {
        let n = s.len();
        let region = (0..n).prop_flat_map(move |at| (Just(at), 1..=(n - at).min(80)));
        (Just(s), prop::collection::vec(region, 0..12))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn an_unedited_folder_packs_into_its_source((source, regions) in case()) {
        let dir = tempfile::tempdir().unwrap();
        let m = folder(dir.path(), &source, &regions);
        prop_assert_eq!(m.stored.as_ref().unwrap().size, source.len() as u64);
        let f = read_dir_with(dir.path(), &PackOptions::default()).unwrap();
        prop_assert!(f.note.is_none());
        prop_assert!(matches!(f.packed, Packed::Verbatim(_)));
        prop_assert_eq!(f.packed.to_bytes().unwrap(), source);
    }

    #[test]
    fn a_blob_edited_in_place_lands_where_it_sat((source, regions) in case(), pick in any::<prop::sample::Index>()) {
        prop_assume!(!regions.is_empty());
        let dir = tempfile::tempdir().unwrap();
        folder(dir.path(), &source, &regions);
        let k = pick.index(regions.len());
        let (at, len) = regions[k];
        let edited: Vec<u8> = source[at..at + len].iter().map(|b| !b).collect();
        std::fs::write(dir.path().join(format!("r{k}.bin")), &edited).unwrap();
        let mut want = source.clone();
        want[at..at + len].copy_from_slice(&edited);
        // the other files still hold the source's bytes: the edit wins its range
        let f = read_dir_with(dir.path(), &PackOptions::default()).unwrap();
        prop_assert!(f.note.is_none());
        prop_assert_eq!(f.packed.to_bytes().unwrap(), want);
    }
}

#[test]
fn a_stored_flatbuffer_edited_alone_is_refused_and_removed_is_encoded_again() {
    let dir = tempfile::tempdir().unwrap();
    let source: Vec<u8> = (0..200u8).collect();
    let mut m = folder(dir.path(), &source, &[(0, 100)]);
    m.entries[0].kind = EntryKind::Flatbuffer;
    std::fs::write(dir.path().join("manifest.json"), m.to_vec().unwrap()).unwrap();
    assert!(read_dir_with(dir.path(), &PackOptions::default()).unwrap().note.is_none());
    std::fs::write(dir.path().join("r0.bin"), [9u8; 100]).unwrap();
    let e = read_dir_with(dir.path(), &PackOptions::default()).unwrap_err();
    assert!(e.to_string().contains("edit program.json instead"), "{e}");
    std::fs::remove_file(dir.path().join("r0.bin")).unwrap();
    // removed, it gives way to the JSON: `{}` encodes as an empty program
    let f = read_dir_with(dir.path(), &PackOptions::default()).unwrap();
    assert!(f.note.as_deref().is_some_and(|n| n.contains("r0.bin was removed")), "{:?}", f.note);
    assert!(matches!(f.packed, Packed::Pte { .. }));
}

#[test]
fn pieces_that_do_not_add_up_or_name_missing_bytes_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let source = vec![7u8; 64];
    let mut m = folder(dir.path(), &source, &[(8, 16)]);
    m.stored.as_mut().unwrap().size = 65;
    std::fs::write(dir.path().join("manifest.json"), m.to_vec().unwrap()).unwrap();
    let e = read_dir_with(dir.path(), &PackOptions::default()).unwrap_err();
    assert!(e.to_string().contains("add up"), "{e}");
    let mut m = folder(dir.path(), &source, &[(8, 16)]);
    if let Some(pte_pack::Piece::File { len, .. }) =
        m.stored.as_mut().unwrap().pieces.iter_mut().find(|p| matches!(p, pte_pack::Piece::File { .. }))
    {
        *len = 17;
    }
    std::fs::write(dir.path().join("manifest.json"), m.to_vec().unwrap()).unwrap();
    let e = read_dir_with(dir.path(), &PackOptions::default()).unwrap_err();
    assert!(e.to_string().contains("shorter"), "{e}");
}

/// A blob file replaced by another file between the folder's check and the
/// write (an edit of the same size, made through a new file and a rename,
/// or a link's target swapped) is refused, not read: what is packed is what
/// was checked.
#[test]
fn a_file_swapped_after_the_check_is_refused_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let source: Vec<u8> = (0..64u8).collect();
    folder(dir.path(), &source, &[(0, 16), (16, 16)]);
    let f = read_dir_with(dir.path(), &PackOptions::default()).unwrap();
    assert!(matches!(f.packed, Packed::Verbatim(_)));
    let swapped = dir.path().join("swap.bin");
    std::fs::write(&swapped, [7u8; 16]).unwrap();
    std::fs::rename(&swapped, dir.path().join("r1.bin")).unwrap();
    let e = f.packed.to_bytes().unwrap_err();
    assert!(e.to_string().contains("another file took its place"), "{e}");
}
