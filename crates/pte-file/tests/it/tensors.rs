//! The tensor-level view on the corpus: every constant's bytes match the
//! constant table, EXTERNAL tensors match the `.ptd` beside them, ranges
//! point at the bytes in the file.

use std::path::PathBuf;

use pte_file::ptd::PtdFile;
use pte_file::{PteFile, TensorStorage};
use pte_schema::{ScalarType, TensorShapeDynamism};
use pte_segments::ExtendedHeader;

fn case(name: &str) -> PathBuf {
    pte_testkit::corpus_dir().join(name)
}

#[test]
fn every_stored_tensor_has_its_bytes_at_its_range() {
    for e in std::fs::read_dir(pte_testkit::corpus_dir()).unwrap() {
        let p = e.unwrap().path().join("model.pte");
        let Ok(bytes) = std::fs::read(&p) else { continue };
        let pte = PteFile::from_bytes(&bytes).unwrap();
        let base = ExtendedHeader::parse(&bytes).unwrap().map_or(0, |h| h.segment_base_offset);
        for t in pte.tensors().unwrap() {
            assert!(!t.users.is_empty(), "{}: {}", p.display(), t.name);
            if let (Some(b), Some(r)) = (t.bytes, t.file_range(base)) {
                assert_eq!(&bytes[r.start as usize..r.end as usize], b, "{}: {}", p.display(), t.name);
                assert_eq!(Some(b.len() as u64), t.nbytes(), "{}: {}", p.display(), t.name);
            }
        }
    }
}

#[test]
fn linear_lists_weight_and_bias() {
    let bytes = std::fs::read(case("linear/model.pte")).unwrap();
    let pte = PteFile::from_bytes(&bytes).unwrap();
    let t = pte.tensors().unwrap();
    assert_eq!(t.len(), 2);
    assert_eq!((t[0].name.as_str(), t[0].storage), ("constant[1]", TensorStorage::Constant));
    assert_eq!(t[0].sizes, [3, 4]);
    assert_eq!(t[0].dim_order, [0, 1]);
    assert_eq!(t[0].dtype, ScalarType::FLOAT);
    assert_eq!(t[1].bytes.unwrap().len(), 12);
}

#[test]
fn multi_method_shares_constants_between_methods() {
    let bytes = std::fs::read(case("multi_method/model.pte")).unwrap();
    let pte = PteFile::from_bytes(&bytes).unwrap();
    let t = pte.tensors().unwrap();
    let methods: std::collections::BTreeSet<&str> =
        t.iter().flat_map(|e| e.users.iter().map(|(m, _)| m.as_str())).collect();
    assert_eq!(methods.len(), 2, "{t:?}");
    let idx: Vec<u32> = t.iter().map(|e| e.data_buffer_idx).collect();
    let mut dedup = idx.clone();
    dedup.dedup();
    assert_eq!(idx, dedup, "one entry per stored constant");
}

#[test]
fn mutable_buffers_with_and_without_initial_state() {
    let bytes = std::fs::read(case("mutable_buffer/model.pte")).unwrap();
    let pte = PteFile::from_bytes(&bytes).unwrap();
    let m: Vec<_> = pte.tensors().unwrap().into_iter().filter(|t| t.storage == TensorStorage::Mutable).collect();
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].bytes.map(<[u8]>::len), Some(32));

    let bytes = std::fs::read(case("mutable_plain/model.pte")).unwrap();
    let pte = PteFile::from_bytes(&bytes).unwrap();
    let m: Vec<_> = pte.tensors().unwrap().into_iter().filter(|t| t.storage == TensorStorage::Mutable).collect();
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].name, "state");
    assert!(m[0].bytes.is_none() && m[0].range.is_none());
}

#[test]
fn external_tensors_match_the_ptd_layouts() {
    let bytes = std::fs::read(case("external/model.pte")).unwrap();
    let pte = PteFile::from_bytes(&bytes).unwrap();
    let data = std::fs::read(case("external/_default_external_constant.ptd")).unwrap();
    let ptd = PtdFile::from_bytes(&data).unwrap();
    let ext = pte.tensors().unwrap();
    let keys: Vec<&str> = ext.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(keys, ["seq.0.weight", "seq.0.bias", "seq.2.weight", "seq.2.bias"]);
    let base = pte_segments::FlatTensorHeader::parse(&data).unwrap().segment_base_offset;
    for (t, d) in ext.iter().zip(ptd.tensors().unwrap()) {
        assert_eq!(t.storage, TensorStorage::External);
        assert_eq!(t.name, d.key);
        let l = d.layout.unwrap();
        assert_eq!(Some(&t.sizes), l.sizes.as_ref());
        assert_eq!(Some(&t.dim_order), l.dim_order.as_ref());
        assert_eq!(t.nbytes(), Some(d.bytes.len() as u64));
        let (s, e) = ((base + d.range.start) as usize, (base + d.range.end) as usize);
        assert_eq!(&data[s..e], d.bytes);
    }
}

#[test]
fn dynamic_shapes_are_marked() {
    let bytes = std::fs::read(case("dynamic/model.pte")).unwrap();
    let pte = PteFile::from_bytes(&bytes).unwrap();
    // constants are static even in a program with a dynamic batch
    assert!(pte.tensors().unwrap().iter().all(|t| t.dynamism == TensorShapeDynamism::STATIC));
}

#[test]
fn legacy_inline_constants_have_bytes_but_no_segment() {
    let bytes = std::fs::read(case("legacy_inline_constants/model.pte")).unwrap();
    let pte = PteFile::from_bytes(&bytes).unwrap();
    let t = pte.tensors().unwrap();
    assert!(!t.is_empty());
    assert!(t.iter().all(|t| t.bytes.is_some() && t.segment.is_none()));
}
