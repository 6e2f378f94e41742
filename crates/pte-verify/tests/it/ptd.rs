//! `.ptd` files: the corpus case, both writer layouts as property tests, and
//! the program-to-data link checks.

use std::borrow::Cow;

use proptest::prelude::*;
use pte_file::ptd::{PtdEntry, PtdFile, PtdLayout, PtdParts, PtdWriteOptions};
use pte_file::PteFile;
use pte_schema::ptd::TensorLayout;
use pte_schema::ScalarType;
use pte_verify::{verify_link, verify_ptd_bytes};

fn external(name: &str) -> Vec<u8> {
    std::fs::read(pte_testkit::corpus("external").join(name)).unwrap()
}

use pte_testkit::sha256_hex as hex;

#[test]
fn corpus_ptd_reads_and_matches_truth() {
    let bytes = external("_default_external_constant.ptd");
    let truth: serde_json::Value = serde_json::from_slice(&external("truth.json")).unwrap();
    let t = &truth["ptd_files"]["_default_external_constant.ptd"];
    assert_eq!(t["sha256"].as_str().unwrap(), hex(&bytes));
    assert_eq!(t["len"].as_u64().unwrap(), bytes.len() as u64);
    let ptd = PtdFile::from_bytes(&bytes).unwrap();
    assert_eq!(ptd.keys(), vec!["seq.0.weight", "seq.0.bias", "seq.2.weight", "seq.2.bias"]);
    for k in ptd.keys() {
        let (layout, blob) = ptd.get(k).unwrap().unwrap();
        assert_eq!(layout.unwrap().nbytes(), Some(blob.len() as u64), "{k}");
    }
    assert!(verify_ptd_bytes(&bytes, &Default::default()).is_ok());
    // the Python layout reproduces the exporter's segment region byte for byte
    let h = pte_segments::FlatTensorHeader::parse(&bytes).unwrap();
    for layout in [PtdLayout::Python { segment_alignment: 128 }, PtdLayout::Keep { segment_alignment: 128 }] {
        let out = ptd.to_bytes(&PtdWriteOptions::new(layout).unwrap()).unwrap();
        let h2 = pte_segments::FlatTensorHeader::parse(&out).unwrap();
        assert_eq!(&out[h2.segment_base_offset as usize..], &bytes[h.segment_base_offset as usize..]);
        assert_eq!(h2.flatbuffer_offset, 48);
        assert_eq!(PtdFile::from_bytes(&out).unwrap(), ptd);
    }
}

#[test]
fn program_and_data_link_and_each_mismatch_is_reported() {
    let pte_bytes = external("model.pte");
    let ptd_bytes = external("_default_external_constant.ptd");
    let pte = PteFile::from_bytes(&pte_bytes).unwrap();
    let ptd = PtdFile::from_bytes(&ptd_bytes).unwrap();
    assert!(verify_link(&pte.program, &[("d.ptd", &ptd)]).is_ok());

    let mut missing = ptd.clone();
    missing.flat_tensor.named_data.as_mut().unwrap()[1].key = Some("renamed".into());
    let r = verify_link(&pte.program, &[("d.ptd", &missing)]);
    assert!(r.breaks("link.missing"), "{:?}", r.violations);
    assert!(r.violations.iter().any(|v| v.message.contains("seq.0.bias")));

    let mut layout = ptd.clone();
    layout.flat_tensor.named_data.as_mut().unwrap()[0].tensor_layout.as_mut().unwrap().sizes = Some(vec![16, 32]);
    let r = verify_link(&pte.program, &[("d.ptd", &layout)]);
    assert!(r.breaks("link.layout"), "{:?}", r.violations);

    let mut dtype = ptd.clone();
    dtype.flat_tensor.named_data.as_mut().unwrap()[0].tensor_layout.as_mut().unwrap().scalar_type = ScalarType::HALF;
    assert!(verify_link(&pte.program, &[("d.ptd", &dtype)]).breaks("link.layout"));

    let mut size = ptd.clone();
    size.segments[3] = Cow::Owned(vec![0u8; 31]);
    let r = verify_link(&pte.program, &[("d.ptd", &size)]);
    assert!(r.breaks("link.size"), "{:?}", r.violations);
    // and the .ptd alone is inconsistent too
    let bytes = size.to_bytes(&Default::default()).unwrap();
    assert!(verify_ptd_bytes(&bytes, &Default::default()).breaks("ptd.size"));

    let r = verify_link(&pte.program, &[("a.ptd", &ptd), ("b.ptd", &ptd)]);
    assert!(r.breaks("link.duplicate"));
}

#[test]
fn ptd_rules_fire() {
    let ptd = PtdFile::from_bytes(&external("_default_external_constant.ptd")).unwrap().into_owned();
    let w = |p: &PtdFile<'_>| p.to_bytes(&Default::default()).unwrap();
    let good = w(&ptd);
    let mut bad_magic = good.clone();
    bad_magic[8..12].copy_from_slice(b"FH02");
    assert!(verify_ptd_bytes(&bad_magic, &Default::default()).breaks("ptd.header"));
    let mut bad_id = good.clone();
    bad_id[4..8].copy_from_slice(b"FT02");
    assert!(verify_ptd_bytes(&bad_id, &Default::default()).breaks("ptd.identifier"));
    assert!(verify_ptd_bytes(&good[..good.len() - 1], &Default::default()).breaks("ptd.header"));
    let mut v = ptd.clone();
    v.flat_tensor.version = 1;
    assert!(verify_ptd_bytes(&w(&v), &Default::default()).breaks("ptd.version"));
    let mut d = ptd.clone();
    let first = d.flat_tensor.named_data.as_ref().unwrap()[0].clone();
    d.flat_tensor.named_data.as_mut().unwrap().push(first);
    assert!(verify_ptd_bytes(&w(&d), &Default::default()).breaks("ptd.duplicate_key"));
    let mut l = ptd.clone();
    l.flat_tensor.named_data.as_mut().unwrap()[0].tensor_layout.as_mut().unwrap().dim_order = Some(vec![0]);
    assert!(verify_ptd_bytes(&w(&l), &Default::default()).breaks("ptd.layout"));
    let mut s = ptd.clone();
    s.flat_tensor.named_data.as_mut().unwrap()[0].segment_index = 9;
    assert!(verify_ptd_bytes(&w(&s), &Default::default()).breaks("ptd.segment"));
    let mut k = ptd.clone();
    k.flat_tensor.named_data.as_mut().unwrap()[0].key = None;
    assert!(verify_ptd_bytes(&w(&k), &Default::default()).breaks("ptd.fields"));
    let mut garbage = good.clone();
    garbage[0..4].copy_from_slice(&0x7fff_ff00u32.to_le_bytes());
    let r = verify_ptd_bytes(&garbage, &Default::default());
    assert!(r.breaks("ptd.structure"), "{:?}", r.violations);
}

fn parts() -> impl Strategy<Value = (PtdParts<'static>, PtdLayout)> {
    let layout = proptest::option::of((0i8..30, proptest::collection::vec(0i32..6, 0..4)));
    (
        proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..300), 0..6),
        proptest::collection::vec((0usize..6, layout, 1u64..200), 0..8),
        prop_oneof![
            (1u64..300).prop_map(|a| PtdLayout::Python { segment_alignment: a }),
            (0u32..8).prop_map(|p| PtdLayout::Packed { tensor_alignment: 1 << p }),
        ],
    )
        .prop_map(|(blobs, entries, layout)| {
            let entries = if blobs.is_empty() {
                vec![]
            } else {
                entries
                    .into_iter()
                    .enumerate()
                    .map(|(i, (b, l, a))| PtdEntry {
                        key: format!("k{i}"),
                        blob: b % blobs.len(),
                        layout: l.map(|(st, sizes)| TensorLayout {
                            scalar_type: ScalarType(st),
                            dim_order: Some((0..sizes.len() as u8).collect()),
                            sizes: Some(sizes),
                        }),
                        alignment: a,
                    })
                    .collect()
            };
            (PtdParts { entries, blobs: blobs.into_iter().map(Cow::Owned).collect() }, layout)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn ptd_round_trips_in_both_layouts((parts, layout) in parts()) {
        let opts = PtdWriteOptions::new(layout).unwrap();
        let x = parts.build(&opts).unwrap();
        let bytes = x.to_bytes(&opts).unwrap();
        let y = PtdFile::from_bytes(&bytes).unwrap();
        prop_assert_eq!(&y, &x);
        prop_assert_eq!(y.to_bytes(&opts).unwrap(), bytes.clone());
        let h = pte_segments::FlatTensorHeader::parse(&bytes).unwrap();
        prop_assert_eq!(h.segment_base_offset + h.segment_data_size, bytes.len() as u64);
        match layout {
            PtdLayout::Python { segment_alignment } => {
                prop_assert_eq!(h.flatbuffer_offset, 48);
                prop_assert_eq!(h.segment_base_offset % segment_alignment, 0);
                for s in y.flat_tensor.segments.iter().flatten() {
                    prop_assert_eq!(s.offset % segment_alignment, 0);
                }
            }
            PtdLayout::Packed { tensor_alignment } => {
                prop_assert_eq!(h.segment_base_offset % tensor_alignment, 0);
                for s in y.flat_tensor.segments.iter().flatten() {
                    prop_assert_eq!(s.offset % tensor_alignment, 0);
                }
            }
            PtdLayout::Keep { .. } => {}
        }
        for k in x.keys() {
            prop_assert_eq!(x.get(k).unwrap(), y.get(k).unwrap());
        }
    }
}
