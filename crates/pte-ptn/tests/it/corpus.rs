//! The corpus package: constants equal truth.json, the verifier passes, the
//! program decodes, and writing reproduces exir's safetensors member.

use std::io::{Cursor, Read};
use std::path::PathBuf;

use pte_ptn::{verify::verify_ptn_bytes, PtnFile};
use pte_testkit::sha256_hex as hex;

fn dir() -> PathBuf {
    pte_testkit::corpus("native_ptn")
}

fn member(zip_bytes: &[u8], name: &str) -> Vec<u8> {
    let mut z = zip::ZipArchive::new(Cursor::new(zip_bytes)).unwrap();
    let mut out = vec![];
    z.by_name(name).unwrap().read_to_end(&mut out).unwrap();
    out
}

#[test]
fn constants_equal_truth() {
    let bytes = std::fs::read(dir().join("model.ptn")).unwrap();
    let truth: serde_json::Value = serde_json::from_slice(&std::fs::read(dir().join("truth.json")).unwrap()).unwrap();
    assert_eq!(bytes.len() as u64, truth["ptn_size"].as_u64().unwrap());
    let ptn = PtnFile::from_bytes(&bytes).unwrap();
    assert_eq!(ptn.program.len() as u64, truth["ptg_size"].as_u64().unwrap());
    assert_eq!(hex(&ptn.program), truth["ptg_sha256"].as_str().unwrap());
    let expected = truth["constants"].as_object().unwrap();
    let ours: Vec<(&str, _)> = ptn.constants().collect();
    assert_eq!(ours.len(), expected.len());
    for (key, t) in ours {
        let e = &expected[key];
        let torch = format!(
            "torch.{}",
            match pte_ptn::dtype_code(t.dtype).as_str() {
                "F32" => "float32",
                other => panic!("unexpected dtype {other}"),
            }
        );
        assert_eq!(e["dtype"], torch.as_str(), "{key}");
        let shape: Vec<u64> = e["shape"].as_array().unwrap().iter().map(|d| d.as_u64().unwrap()).collect();
        assert_eq!(t.shape, shape, "{key}");
        assert_eq!(hex(&t.data), e["sha256"].as_str().unwrap(), "{key}");
    }
}

#[test]
fn tensors_are_borrowed_from_the_input() {
    let bytes = std::fs::read(dir().join("model.ptn")).unwrap();
    let ptn = PtnFile::from_bytes(&bytes).unwrap();
    let range = bytes.as_ptr_range();
    for (_, t) in ptn.constants() {
        assert!(matches!(t.data, std::borrow::Cow::Borrowed(_)));
        assert!(range.contains(&t.data.as_ptr()));
    }
    assert!(range.contains(&ptn.program.as_ptr()));
}

#[test]
fn the_verifier_passes_and_the_program_decodes() {
    let bytes = std::fs::read(dir().join("model.ptn")).unwrap();
    let report = verify_ptn_bytes(&bytes, &Default::default());
    assert!(report.is_ok(), "{:?}", report.violations);
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    let ptn = PtnFile::from_bytes(&bytes).unwrap();
    let program = ptn.native_program(&Default::default()).unwrap();
    assert_eq!(program.methods.len(), 1);
    let json = pte_schema::native::native_program_to_json(&program);
    assert_eq!(json["methods"][0]["name"], "forward");
}

#[test]
fn writing_reproduces_exirs_members() {
    let bytes = std::fs::read(dir().join("model.ptn")).unwrap();
    let ptn = PtnFile::from_bytes(&bytes).unwrap();
    let out = ptn.to_bytes().unwrap();
    for name in ["program.ptg", "program.safetensors"] {
        assert_eq!(member(&out, name), member(&bytes, name), "{name}");
    }
    // The tensor data of the rewritten package is 8-aligned in the file.
    let again = PtnFile::from_bytes(&out).unwrap();
    for (_, t) in again.constants() {
        let at = t.data.as_ptr() as usize - out.as_ptr() as usize;
        assert_eq!(at % 8, 0);
    }
}

#[test]
fn the_mapped_package_reads_without_copies() {
    let map = pte_ptn::MappedFile::open(dir().join("model.ptn")).unwrap();
    let ptn = PtnFile::from_bytes(map.bytes()).unwrap();
    assert_eq!(ptn.tensors.len(), 4);
}

/// docs/verifier.md is generated from the catalogue (pte-cli checks it);
/// here every rule is well named, described, under `ptn.`, and listed once.
#[test]
fn every_package_rule_is_catalogued_once_and_well_named() {
    let mut seen = std::collections::BTreeSet::new();
    for r in pte_ptn::verify::CATALOGUE.rules {
        assert!(pte_core::Rule::is_well_named(r.name()) && r.name().starts_with("ptn."), "{r}");
        assert!(!r.checks().is_empty(), "{r}");
        assert!(seen.insert(r.name()), "{r} is catalogued twice");
    }
    assert_eq!(seen.len(), 20);
}
