//! Adding, replacing and removing sets in the corpus `native_ptn` package
//! leaves every other member byte-identical.

use std::io::Read;

use pte_ptn::{Dtype, PtnFile, PtnTensor};
use pte_samples::*;

const CORPUS: &str = "native_ptn/model.ptn";

/// Every member's name and stored bytes, read with the `zip` crate (an
/// independent reader).
fn members(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    (0..zip.len())
        .map(|i| {
            let mut f = zip.by_index(i).unwrap();
            assert_eq!(f.compression(), zip::CompressionMethod::Stored);
            let mut data = Vec::new();
            f.read_to_end(&mut data).unwrap();
            (f.name().unwrap().to_string(), data)
        })
        .collect()
}

fn set(name: &str, scale: f32) -> SampleSet<'static> {
    let x: Vec<u8> = (0..16).flat_map(|i| (i as f32 * scale).to_le_bytes()).collect();
    let y: Vec<u8> = (0..8).flat_map(|i| (i as f32 - scale).to_le_bytes()).collect();
    let mut set = SampleSet::new("forward", name);
    set.samples.push(Sample {
        name: Some("first".into()),
        tolerance: None,
        calls: vec![Call {
            inputs: vec![Value::Tensor(PtnTensor::new(Dtype::F32, vec![1, 16], x).unwrap())],
            outputs: vec![Value::Tensor(PtnTensor::new(Dtype::F32, vec![1, 8], y).unwrap())],
            tolerance: None,
        }],
    });
    set
}

#[test]
fn adding_samples_leaves_every_other_member_byte_identical() {
    let original = pte_testkit::corpus_bytes(CORPUS);
    let before = members(&original);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("model.ptn");
    std::fs::write(&path, &original).unwrap();

    put_set_in_file(&path, &set("a", 1.0), false).unwrap();
    put_set_in_file(&path, &set("b", 2.0), false).unwrap();
    let after = members(&std::fs::read(&path).unwrap());
    assert_eq!(after[..before.len()], before[..], "the original members come first, unchanged");
    let added: Vec<&str> = after[before.len()..].iter().map(|m| m.0.as_str()).collect();
    assert_eq!(
        added,
        [
            "samples/forward/a/index.json",
            "samples/forward/a/data.safetensors",
            "samples/forward/b/index.json",
            "samples/forward/b/data.safetensors"
        ]
    );

    // Replacing keeps the set's position; the other set and the program are untouched.
    put_set_in_file(&path, &set("a", 3.0), true).unwrap();
    let replaced = members(&std::fs::read(&path).unwrap());
    assert_eq!(replaced.iter().map(|m| &m.0).collect::<Vec<_>>(), after.iter().map(|m| &m.0).collect::<Vec<_>>());
    assert_eq!(replaced[..before.len()], before[..]);
    assert_eq!(replaced[before.len() + 2..], after[before.len() + 2..]);
    assert_ne!(replaced[before.len() + 1], after[before.len() + 1]);
    let bytes = std::fs::read(&path).unwrap();
    let ptn = PtnFile::from_bytes(&bytes).unwrap();
    assert_eq!(read_samples(&ptn).unwrap(), vec![set("a", 3.0), set("b", 2.0)]);
    // Loaders see the same program and constants.
    let plain = PtnFile::from_bytes(&original).unwrap();
    assert_eq!((&ptn.program, &ptn.tensors, &ptn.aliases), (&plain.program, &plain.tensors, &plain.aliases));
    assert!(pte_ptn::verify::verify_ptn_bytes(&bytes, &Default::default()).is_ok());

    // Removing both sets gives back the original bytes exactly.
    remove_set_from_file(&path, "forward", "a").unwrap();
    remove_set_from_file(&path, "forward", "b").unwrap();
    assert_eq!(members(&std::fs::read(&path).unwrap()), before);
    assert_eq!(std::fs::read(&path).unwrap(), PtnFile::from_bytes(&original).unwrap().to_bytes().unwrap());
}

#[test]
fn a_refused_change_leaves_the_file_alone() {
    let original = pte_testkit::corpus_bytes(CORPUS);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("model.ptn");
    std::fs::write(&path, &original).unwrap();
    put_set_in_file(&path, &set("a", 1.0), false).unwrap();
    let with_a = std::fs::read(&path).unwrap();
    assert_eq!(put_set_in_file(&path, &set("a", 2.0), false).unwrap_err().rule(), SampleRule::DuplicateSet);
    assert_eq!(remove_set_from_file(&path, "forward", "zzz").unwrap_err().rule(), SampleRule::InvalidUse);
    assert_eq!(std::fs::read(&path).unwrap(), with_a);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file is left behind");
    let e = put_set_in_file(&dir.path().join("missing.ptn"), &set("a", 1.0), false).unwrap_err();
    assert_eq!((e.rule(), e.kind()), (SampleRule::Package, ErrorKind::Io));
}
