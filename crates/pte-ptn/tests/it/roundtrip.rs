//! Property tests: read(write(x)) == x, exir's dedup and alias rules,
//! mutable keys never aliased, deterministic bytes.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use pte_ptn::{Dtype, ErrorKind, Member, PtnFile, PtnTensor, SUPPORTED_DTYPES};

fn corpus() -> PtnFile<'static> {
    let bytes = pte_testkit::corpus_bytes("native_ptn/model.ptn");
    PtnFile::from_bytes(&bytes).unwrap().into_owned()
}

fn tensor() -> impl Strategy<Value = PtnTensor<'static>> {
    (0..SUPPORTED_DTYPES.len(), prop::collection::vec(0u64..4, 0..3), any::<u8>(), any::<bool>()).prop_map(
        |(d, shape, seed, constant)| {
            let dtype = SUPPORTED_DTYPES[d];
            let probe = PtnTensor { dtype, shape: shape.clone(), data: Vec::new().into() };
            let len = probe.expected_len().unwrap() as usize;
            // Few distinct contents, so duplicates are common.
            let data = (0..len)
                .map(|i| if constant { seed % 2 } else { (i as u8).wrapping_mul(seed) % 3 })
                .collect::<Vec<u8>>();
            PtnTensor::new(dtype, shape, data).unwrap()
        },
    )
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof!["[a-c]{1,3}(\\.[a-c]{1,2}){0,2}", "[é中\u{1F600}a ]{1,4}",]
}

fn constants() -> impl Strategy<Value = (BTreeMap<String, PtnTensor<'static>>, BTreeSet<String>)> {
    prop::collection::btree_map(key(), (tensor(), any::<bool>()), 0..12).prop_map(|m| {
        let mutable = m.iter().filter(|(_, (_, mu))| *mu).map(|(k, _)| k.clone()).collect();
        (m.into_iter().map(|(k, (t, _))| (k, t)).collect(), mutable)
    })
}

fn with_corpus_constants(extra: BTreeMap<String, PtnTensor<'static>>) -> BTreeMap<String, PtnTensor<'static>> {
    let base = corpus();
    let mut all: BTreeMap<String, PtnTensor<'static>> =
        base.constants().map(|(k, t)| (k.to_string(), t.clone().into_owned())).collect();
    for (k, t) in extra {
        all.entry(format!("x.{k}")).or_insert(t);
    }
    all
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn built_packages_round_trip_deterministically((extra, mutable) in constants(), n_members in 0usize..3) {
        let all = with_corpus_constants(extra.clone());
        let mutable: BTreeSet<String> = mutable.into_iter().map(|k| format!("x.{k}")).collect();
        let mut ptn = PtnFile::from_constants(corpus().program.into_owned(), all.clone(), &mutable).unwrap();
        for i in 0..n_members {
            ptn.members.push(Member { name: format!("samples/m{i}/index.json"), data: vec![i as u8; i * 3].into() });
        }
        let bytes = ptn.to_bytes().unwrap();
        prop_assert_eq!(&bytes, &ptn.to_bytes().unwrap());
        let back = PtnFile::from_bytes(&bytes).unwrap();
        prop_assert_eq!(&back, &ptn);
        prop_assert_eq!(&back.to_bytes().unwrap(), &bytes);
        // Every key resolves to the tensor it was built from.
        let resolved: BTreeMap<String, PtnTensor<'_>> = back.constants().map(|(k, t)| (k.to_string(), t.clone())).collect();
        prop_assert_eq!(resolved, all.clone());
        // exir's rules: mutable keys own their bytes and are never alias targets;
        // an alias points to the smallest equal immutable key.
        for (alias, owner) in &back.aliases {
            prop_assert!(!mutable.contains(alias) && !mutable.contains(owner));
            prop_assert!(owner < alias);
            let (a, o) = (&all[alias], &all[owner]);
            prop_assert!(a == o);
            for (k, t) in &all {
                if k < owner && !mutable.contains(k) {
                    prop_assert!(t != a, "{k} is an earlier owner for {alias}");
                }
            }
        }
        for (k, t) in &back.tensors {
            if mutable.contains(k) { continue; }
            for (k2, t2) in &back.tensors {
                if k2 != k && !mutable.contains(k2) {
                    prop_assert!(t != t2, "{k} and {k2} are equal immutable owners");
                }
            }
        }
    }
}

#[test]
fn equal_bytes_with_another_dtype_or_shape_are_not_aliased() {
    let a = PtnTensor::new(Dtype::U8, vec![4], vec![1u8, 2, 3, 4]).unwrap();
    let b = PtnTensor::new(Dtype::I8, vec![4], vec![1u8, 2, 3, 4]).unwrap();
    let c = PtnTensor::new(Dtype::U8, vec![2, 2], vec![1u8, 2, 3, 4]).unwrap();
    let d = PtnTensor::new(Dtype::U8, vec![4], vec![1u8, 2, 3, 4]).unwrap();
    let consts = BTreeMap::from([("d".into(), d), ("c".into(), c), ("b".into(), b), ("a".into(), a)]);
    let p = PtnFile::from_constants(Vec::new(), consts, &BTreeSet::new()).unwrap();
    assert_eq!(p.aliases, BTreeMap::from([("d".to_string(), "a".to_string())]));
    assert_eq!(p.tensors.len(), 3);
}

#[test]
fn mutable_keys_over_shared_storage_are_refused() {
    let storage = [7u8; 16];
    let whole = PtnTensor::new(Dtype::U8, vec![16], &storage[..]).unwrap();
    let view = PtnTensor::new(Dtype::U8, vec![8], &storage[4..12]).unwrap();
    let consts = BTreeMap::from([("a".to_string(), whole.clone()), ("b".to_string(), view.clone())]);
    let err = PtnFile::from_constants(Vec::new(), consts.clone(), &BTreeSet::from(["b".to_string()])).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidUse);
    // Immutable views of one storage are fine.
    assert!(PtnFile::from_constants(Vec::new(), consts, &BTreeSet::new()).is_ok());
    // Adjacent but disjoint slices are not shared storage.
    let left = PtnTensor::new(Dtype::U8, vec![8], &storage[..8]).unwrap();
    let right = PtnTensor::new(Dtype::U8, vec![8], &storage[8..]).unwrap();
    let consts = BTreeMap::from([("l".to_string(), left), ("r".to_string(), right)]);
    assert!(PtnFile::from_constants(Vec::new(), consts, &BTreeSet::from(["l".to_string(), "r".to_string()])).is_ok());
}

#[test]
fn builder_preconditions() {
    let t = PtnTensor::new(Dtype::U8, vec![1], vec![1u8]).unwrap();
    let consts = BTreeMap::from([("__metadata__".to_string(), t.clone())]);
    assert_eq!(
        PtnFile::from_constants(Vec::new(), consts, &BTreeSet::new()).unwrap_err().kind(),
        ErrorKind::InvalidUse
    );
    let consts = BTreeMap::from([("a".to_string(), t)]);
    let missing = BTreeSet::from(["b".to_string()]);
    assert_eq!(PtnFile::from_constants(Vec::new(), consts, &missing).unwrap_err().kind(), ErrorKind::InvalidUse);
}

#[test]
fn the_writer_refuses_inconsistent_packages_before_writing() {
    let base = corpus();
    let mut p = base.clone();
    p.aliases.insert("x".into(), "missing".into());
    assert_eq!(p.to_bytes().unwrap_err().kind(), ErrorKind::InvalidUse);
    let mut p = base.clone();
    p.members.push(Member { name: "../evil".into(), data: Vec::new().into() });
    assert_eq!(p.to_bytes().unwrap_err().kind(), ErrorKind::InvalidUse);
    let mut p = base.clone();
    p.members.push(Member { name: "program.ptg".into(), data: Vec::new().into() });
    assert_eq!(p.to_bytes().unwrap_err().kind(), ErrorKind::InvalidUse);
    let mut p = base.clone();
    p.tensors.remove("seq.0.bias");
    assert!(p.to_bytes().is_err());
    let mut p = base;
    p.tensors.insert("bad".into(), PtnTensor { dtype: Dtype::F32, shape: vec![2], data: vec![0u8; 3].into() });
    assert_eq!(p.to_bytes().unwrap_err().kind(), ErrorKind::InvalidUse);
}
