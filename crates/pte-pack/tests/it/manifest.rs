//! The typed extract manifest: written then read gives the same manifest,
//! manifests written before `name`/`dtype`/`shape` existed still read, and
//! the dtype and shape of XNNPACK weights kept as named data come from the
//! payload that reads them, with a hostile payload giving nothing (and no
//! panic).

use std::collections::BTreeMap;

use pte_analysis::delegate_payload::{builtin_registry, named_tensors, named_tensors_of, NamedTensor};
use pte_file::ptd::PtdFile;
use pte_file::PteFile;
use pte_pack::{Entry, EntryKind, Layout, Manifest, ManifestFormat, PtdBlobs, PteBlobs, MANIFEST_VERSION};
use pte_testkit::{corpus_bytes, corpus_program_bytes, sha256_hex};

/// The manifest `pte extract` writes for `bytes`, digests included.
fn manifest_of(bytes: &[u8]) -> Manifest {
    let blobs = PteBlobs::new(bytes).unwrap();
    let mut m = Manifest { source: Some("in.pte".into()), ..blobs.head() };
    for (mut e, b) in blobs.entries().unwrap() {
        e.sha256 = Some(sha256_hex(b));
        m.entries.push(e);
    }
    m
}

#[test]
fn every_kind_and_field_survives_a_write_and_a_read() {
    let mut described = Entry::new("constant-1.bin", 48, EntryKind::Constant { index: 1, offset: 0 });
    described.sha256 = Some("ab".into());
    described.name = Some("linear.weight".into());
    described.dtype = Some("FLOAT".into());
    described.shape = Some(vec![3, 4]);
    let kinds = [
        EntryKind::Segment { index: 0, offset: Some(0) },
        EntryKind::Segment { index: 1, offset: None },
        EntryKind::Mutable { segment: 0, index: 1, offset: 8 },
        EntryKind::Named { key: "k".into(), segment_index: 2 },
        EntryKind::Delegate {
            method: 0,
            delegate: 1,
            id: Some("XnnpackBackend".into()),
            location: Some("INLINE".into()),
            index: 0,
        },
        EntryKind::Program,
        EntryKind::PackageConstant { key: "w".into(), alias_of: Some("v".into()) },
        EntryKind::PackageConstant { key: "v".into(), alias_of: None },
        EntryKind::Member { member: "extra/x".into() },
        EntryKind::Other("future".into()),
        EntryKind::Other(String::new()),
    ];
    let mut m = Manifest {
        source: Some("a b.pte".into()),
        program: Some("program.json".into()),
        layout: Some(Layout {
            extended_header: Some(false),
            segment_alignment: Some(4096),
            constant_alignment: Some(16),
            delegate_alignment: None,
        }),
        aliases: Some(BTreeMap::from([("w".into(), "v".into())])),
        ..Manifest::new(ManifestFormat::Ptn)
    };
    m.entries.push(described);
    m.entries.extend(kinds.into_iter().enumerate().map(|(i, k)| Entry::new(format!("f{i}"), i as u64, k)));
    let text = m.to_vec().unwrap();
    assert_eq!(Manifest::from_slice(&text).unwrap(), m);
    // one entry a line, as a streaming writer leaves it
    assert_eq!(text.iter().filter(|&&b| b == b'\n').count(), m.entries.len() + 2);
    // serde's own form reads back the same too
    assert_eq!(serde_json::from_value::<Manifest>(serde_json::to_value(&m).unwrap()).unwrap(), m);
}

#[test]
fn every_corpus_program_and_tensor_file_manifest_round_trips() {
    for (case, bytes) in corpus_program_bytes() {
        let m = manifest_of(&bytes);
        assert_eq!(m.manifest_version, Some(MANIFEST_VERSION));
        assert_eq!(Manifest::from_slice(&m.to_vec().unwrap()).unwrap(), m, "{case}");
    }
    let bytes = corpus_bytes("external/_default_external_constant.ptd");
    let ptd = PtdFile::from_bytes(&bytes).unwrap();
    let blobs = PtdBlobs::new(&ptd, &bytes);
    let m = Manifest { entries: blobs.entries().map(|(e, _)| e).collect(), ..blobs.head() };
    assert_eq!(m.format(), ManifestFormat::Ptd);
    assert_eq!(Manifest::from_slice(&m.to_vec().unwrap()).unwrap(), m);
}

/// Manifests as `pte extract` wrote them before the typed manifest: keys in
/// alphabetical order, no `name`, `dtype` or `shape`, and (version 1) no
/// `manifest_version` or `format`.
#[test]
fn manifests_written_before_the_new_fields_still_read() {
    let v2 = r#"{"format":"pte","layout":{"constant_alignment":16,"delegate_alignment":16,"extended_header":true,"segment_alignment":512},"manifest_version":2,"program":"program.json","source":"m.pte","entries":[
{"file":"segment-0.bin","size":0,"sha256":"e3","index":0,"kind":"segment","offset":0},
{"file":"segment-2.bin","size":2048,"sha256":"91","key":"91b3","kind":"named","segment_index":2},
{"file":"segment-1.bin","size":1184,"sha256":"ff","delegate":0,"id":"XnnpackBackend","index":1,"kind":"delegate","location":"SEGMENT","method":0},
{"file":"mutable-0-1.bin","size":32,"sha256":"05","index":1,"kind":"mutable","offset":0,"segment":0}
]}"#;
    let m = Manifest::from_slice(v2.as_bytes()).unwrap();
    assert_eq!((m.version(), m.format()), (2, ManifestFormat::Pte));
    assert_eq!(m.layout.unwrap().segment_alignment, Some(512));
    let kinds: Vec<&EntryKind> = m.entries.iter().map(|e| &e.kind).collect();
    assert_eq!(
        kinds,
        [
            &EntryKind::Segment { index: 0, offset: Some(0) },
            &EntryKind::Named { key: "91b3".into(), segment_index: 2 },
            &EntryKind::Delegate {
                method: 0,
                delegate: 0,
                id: Some("XnnpackBackend".into()),
                location: Some("SEGMENT".into()),
                index: 1
            },
            &EntryKind::Mutable { segment: 0, index: 1, offset: 0 },
        ]
    );
    assert!(m.entries.iter().all(|e| e.name.is_none() && e.dtype.is_none() && e.shape.is_none()));
    let v1 = r#"{"source":"m.pte","program":"program.json","entries":[{"file":"constant-1.bin","size":48,"sha256":"ab","index":1,"kind":"constant","offset":0}]}"#;
    let m = Manifest::from_slice(v1.as_bytes()).unwrap();
    assert_eq!((m.version(), m.format(), m.layout), (1, ManifestFormat::Pte, None));
    assert_eq!(m.entries[0].kind, EntryKind::Constant { index: 1, offset: 0 });
    m.check_version().unwrap();
    // a package's constants (key, dtype code, shape, alias) as they were written
    let ptn = r#"{"aliases":{},"format":"ptn","manifest_version":2,"entries":[{"file":"c.bin","size":128,"sha256":"a5","alias_of":null,"dtype":"F32","key":"seq.0.bias","kind":"constant","shape":[32]}]}"#;
    let m = Manifest::from_slice(ptn.as_bytes()).unwrap();
    assert_eq!(m.entries[0].kind, EntryKind::PackageConstant { key: "seq.0.bias".into(), alias_of: None });
    assert_eq!((m.entries[0].dtype.as_deref(), m.entries[0].shape.as_deref()), (Some("F32"), Some(&[32][..])));
}

#[test]
fn a_known_kind_without_its_index_is_refused_by_name() {
    let e = Manifest::from_slice(br#"{"entries":[{"file":"segment-0.bin","kind":"segment"}]}"#).unwrap_err();
    assert!(e.to_string().contains("segment-0.bin") && e.to_string().contains("`index`"), "{e}");
    let e = Manifest::from_slice(br#"{"manifest_version":"two"}"#).unwrap_err();
    assert_eq!(e.kind(), pte_file::ErrorKind::Malformed);
}

/// The MLP's two linear layers, `Linear(16, 32)` and `Linear(32, 8)`, in the
/// order the payload defines their weights and biases.
const MLP: [[u64; 2]; 4] = [[32, 16], [32, 0], [8, 32], [8, 0]];

#[test]
fn xnnpack_weights_get_dtype_and_shape_from_the_payload() {
    let bytes = corpus_bytes("xnnpack_mlp/model.pte");
    let pte = PteFile::from_bytes(&bytes).unwrap();
    let t = named_tensors(&pte.program, &bytes, builtin_registry(), &Default::default());
    let truth: serde_json::Value =
        serde_json::from_slice(&std::fs::read(pte_testkit::corpus("xnnpack_mlp/truth.json")).unwrap()).unwrap();
    let keys: Vec<&str> = pte.named_data().unwrap().iter().map(|n| n.key).collect();
    assert_eq!(keys.len(), 4);
    for (key, want) in keys.iter().zip(MLP) {
        let got = &t[*key];
        let want: Vec<u64> = want.into_iter().filter(|&d| d > 0).collect();
        assert_eq!(got, &NamedTensor { dtype: "fp32".into(), shape: want }, "{key}");
        // the blob holds exactly the elements the shape calls for
        let len = truth["named_data"][*key]["len"].as_u64().unwrap();
        assert_eq!(got.shape.iter().product::<u64>() * 4, len, "{key}");
    }
    // the manifest entries carry the same facts, the key as name
    let m = manifest_of(&bytes);
    let named: Vec<&Entry> = m.entries.iter().filter(|e| matches!(e.kind, EntryKind::Named { .. })).collect();
    assert_eq!(named.len(), 4);
    for e in named {
        let EntryKind::Named { key, .. } = &e.kind else { unreachable!() };
        assert_eq!(e.name.as_deref(), Some(key.as_str()));
        assert_eq!(e.dtype.as_deref(), Some("fp32"));
        let shape: Vec<u64> = e.shape.as_ref().unwrap().iter().map(|&d| d as u64).collect();
        assert_eq!(shape, t[key].shape);
    }
    // the inline-delegate case keeps its weights as named data as well
    let bytes = corpus_bytes("inline_delegate/model.pte");
    let pte = PteFile::from_bytes(&bytes).unwrap();
    let t = named_tensors(&pte.program, &bytes, builtin_registry(), &Default::default());
    let shapes: Vec<&[u64]> = pte.named_data().unwrap().iter().map(|n| t[n.key].shape.as_slice()).collect();
    assert_eq!(shapes, [&[32, 16][..], &[32], &[8, 32], &[8]]);
}

#[test]
fn constants_are_named_as_the_tensor_table_names_them() {
    let mut named = 0;
    for (case, bytes) in corpus_program_bytes() {
        let pte = PteFile::from_bytes(&bytes).unwrap();
        let tensors = pte.tensors().unwrap();
        for e in manifest_of(&bytes).entries {
            let (mutable, index) = match e.kind {
                EntryKind::Constant { index, .. } => (false, index),
                EntryKind::Mutable { segment: 0, index, .. } => (true, index),
                _ => continue,
            };
            let t = tensors.iter().find(|t| {
                u64::from(t.data_buffer_idx) == index
                    && (t.storage == pte_file::TensorStorage::Mutable) == mutable
                    && t.storage != pte_file::TensorStorage::External
            });
            match t {
                None => assert!(e.name.is_none(), "{case} {e:?}"),
                Some(t) => {
                    named += 1;
                    assert_eq!(e.name.as_deref(), Some(t.name.as_str()), "{case}");
                    assert_eq!(e.dtype, Some(t.dtype.to_string()), "{case}");
                    assert_eq!(e.shape, Some(t.sizes.iter().map(|&s| i64::from(s)).collect()), "{case}");
                    // the bytes are what the dtype and shape call for
                    if let Some(n) = t.nbytes() {
                        assert!(e.size >= n, "{case} {e:?}");
                    }
                }
            }
        }
    }
    assert!(named >= 10, "{named} named constants and buffers");
}

#[test]
fn a_hostile_payload_describes_nothing_and_does_not_panic() {
    let bytes = corpus_bytes("xnnpack_mlp/model.pte");
    let pte = PteFile::from_bytes(&bytes).unwrap();
    let payload = pte.delegate_blobs().unwrap()[0].bytes.to_vec();
    let reg = builtin_registry();
    let describe = |p: &[u8]| named_tensors_of([("XnnpackBackend", p)], reg, &Default::default());
    assert_eq!(describe(&payload).len(), 4);
    for cut in 0..payload.len() {
        assert!(describe(&payload[..cut]).is_empty(), "cut at {cut}");
    }
    for i in 0..payload.len() {
        for bit in [0x01u8, 0x80] {
            let mut p = payload.clone();
            p[i] ^= bit;
            // whatever a corrupt table says, what is kept is bounded by the payload
            let t = describe(&p);
            assert!(t.len() <= payload.len());
            assert!(t.values().all(|t| t.shape.len() <= payload.len()));
        }
    }
    assert!(describe(&[]).is_empty());
    assert!(describe(&[0xff; 64]).is_empty());
    // a backend without a reader, or one that describes nothing, adds nothing
    assert!(named_tensors_of([("NoSuchBackend", &payload[..])], reg, &Default::default()).is_empty());
    assert!(named_tensors_of([("NativeBackend", &payload[..])], reg, &Default::default()).is_empty());
}
