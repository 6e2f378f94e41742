//! The C++ verifier's offset rules: an offset of 0 (pointing at itself) is
//! refused in every schema the runtime verifies, with the field path and the
//! byte offset of the slot, although the Rust verifier alone would read it as
//! an empty vector, string or table.

use pte_schema::{bundled::decode_bundled_program, decode_program, ptd::decode_flat_tensor, ErrorKind, Limits};

fn corpus(path: &str) -> Vec<u8> {
    std::fs::read(pte_testkit::corpus(path)).unwrap()
}

fn u32_at(b: &[u8], at: usize) -> usize {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize
}

/// The slot of field `vt` (a vtable byte offset) of the table at `table`.
fn slot(b: &[u8], table: usize, vt: usize) -> usize {
    let back = i32::from_le_bytes(b[table..table + 4].try_into().unwrap());
    let vtable = (table as i64 - i64::from(back)) as usize;
    let field = u16::from_le_bytes(b[vtable + vt..vtable + vt + 2].try_into().unwrap()) as usize;
    assert_ne!(field, 0, "field {vt} absent");
    table + field
}

fn follow(b: &[u8], at: usize) -> usize {
    at + u32_at(b, at)
}

fn zero(mut b: Vec<u8>, at: usize) -> Vec<u8> {
    b[at..at + 4].fill(0);
    b
}

/// A decoder, its model dropped: what [`refused`] runs.
type Decode = fn(&[u8], &Limits) -> pte_schema::Result<()>;

const PROGRAM: Decode = |b, l| decode_program(b, l).map(drop);

/// The error `decode` gives once the offset at `at` of `b`, which decodes
/// as it is, is zeroed: a Malformed one naming the field at `path`.
fn refused(b: Vec<u8>, at: usize, decode: Decode, path: &str) -> pte_schema::Error {
    decode(&b, &Limits::default()).unwrap();
    let err = decode(&zero(b, at), &Limits::default()).unwrap_err();
    assert_eq!((err.kind(), err.path()), (ErrorKind::Malformed, path));
    err
}

#[test]
fn program_root_field() {
    let b = corpus("add/model.pte");
    let at = slot(&b, u32_at(&b, 0), 6); // execution_plan
    assert_eq!(refused(b, at, PROGRAM, "execution_plan").offset(), Some(at as u64));
}

#[test]
fn program_nested_field() {
    let b = corpus("multi_method/model.pte");
    let plans = follow(&b, slot(&b, u32_at(&b, 0), 6));
    let inputs = slot(&b, follow(&b, plans + 8), 10); // the second plan's
    assert_eq!(refused(b, inputs, PROGRAM, "execution_plan[1].inputs").offset(), Some(inputs as u64));
}

#[test]
fn program_vector_element() {
    let b = corpus("add/model.pte");
    let plans = follow(&b, slot(&b, u32_at(&b, 0), 6));
    refused(b, plans + 4, PROGRAM, "execution_plan[0]");
}

#[test]
fn root_offset() {
    let err = decode_program(&zero(corpus("add/model.pte"), 0), &Limits::default()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Malformed);
}

#[test]
fn flat_tensor_field() {
    let b = corpus("external/_default_external_constant.ptd");
    let at = slot(&b, u32_at(&b, 0), 8);
    refused(b, at, |b, l| decode_flat_tensor(b, l).map(drop), "named_data");
}

#[test]
fn bundled_field() {
    let b = corpus("bundled/model.bpte");
    let at = slot(&b, u32_at(&b, 0), 6);
    refused(b, at, |b, l| decode_bundled_program(b, l).map(drop), "method_test_suites");
}

/// The count and key-length limits: readers refuse past them with
/// LimitExceeded, the writers refuse to write such a model.
#[test]
fn segment_named_data_and_key_limits() {
    use pte_schema::{encode_program, NamedData, Program};
    let b = corpus("xnnpack_mlp/model.pte");
    let p = decode_program(&b, &Limits::default()).unwrap();
    let named = p.named_data.as_ref().unwrap().len();
    let tight = Limits { max_named_data: named - 1, ..Limits::default() };
    let e = decode_program(&b, &tight).unwrap_err();
    assert_eq!((e.kind(), e.path()), (ErrorKind::LimitExceeded, "named_data"));
    let tight = Limits { max_segments: 1, ..Limits::default() };
    assert_eq!(decode_program(&b, &tight).unwrap_err().path(), "segments");
    let tight = Limits { max_key_len: 10, ..Limits::default() };
    assert_eq!(decode_program(&b, &tight).unwrap_err().path(), "named_data[0].key");
    let mut long = p.clone();
    long.named_data = Some(vec![NamedData { key: Some("k".repeat(4097)), segment_index: 0 }]);
    let e = encode_program(&long, &Default::default()).unwrap_err();
    assert_eq!((e.kind(), e.path()), (ErrorKind::LimitExceeded, "named_data[0].key"));
    let ok = Program { named_data: Some(vec![NamedData { key: Some("k".repeat(4096)), segment_index: 0 }]), ..p };
    assert!(encode_program(&ok, &Default::default()).is_ok());
}
