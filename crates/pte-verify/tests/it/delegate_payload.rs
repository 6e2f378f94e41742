//! The delegate-payload rules through `verify_bytes`, and the registry as an
//! extension point.

use pte_analysis::delegate_payload::*;
use pte_verify::{verify_bytes, Report};

fn corpus(case: &str) -> Vec<u8> {
    pte_testkit::model_bytes(case)
}

fn verify(b: &[u8]) -> Report {
    verify_bytes(b, &Default::default())
}

#[test]
fn corpus_payloads_pass() {
    for case in ["xnnpack_mlp", "inline_delegate"] {
        let r = verify(&corpus(case));
        assert!(r.is_ok() && r.warnings.is_empty(), "{case}: {r:?}");
    }
}

#[test]
fn a_truncated_payload_header_is_reported_with_its_file_offset() {
    let mut b = corpus("xnnpack_mlp");
    // the payload is the delegate segment at 1536; its flatbuffer size at +14
    b[1536 + 14..1536 + 18].copy_from_slice(&0x7fff_0000u32.to_le_bytes());
    let r = verify(&b);
    let v = r.violations.iter().find(|v| v.rule == "payload.structure").unwrap();
    assert_eq!(v.path, "execution_plan[0].delegates[0].processed.xh00.flatbuffer_offset");
    assert_eq!(v.offset, Some(1536 + 10));
    assert!(v.message.starts_with("XnnpackBackend payload:"));
}

#[test]
fn an_inline_payload_is_checked_too() {
    let mut b = corpus("inline_delegate");
    let at = b.windows(4).position(|w| w == b"XN01").unwrap();
    b[at..at + 4].copy_from_slice(b"XN99");
    let r = verify(&b);
    let v = r.violations.iter().find(|v| v.rule == "payload.structure").unwrap();
    assert_eq!(v.offset, Some(at as u64));
}

#[test]
fn a_short_named_blob_is_reported() {
    let b = corpus("xnnpack_mlp");
    let pte = pte_file::PteFile::from_bytes(&b).unwrap();
    let mut program = pte.program.clone();
    // the last named blob (32 bytes of bias) now names the 128-byte segment's neighbour of 0 bytes
    let named = program.named_data.as_mut().unwrap();
    named[3].segment_index = 0;
    let r = check_payloads(&program, &b, builtin_registry(), &Default::default());
    let v = r.violations.iter().find(|v| v.rule == "payload.constant").unwrap();
    assert!(v.message.contains("holds 0 bytes; the backend reads 32"), "{}", v.message);
}

struct Counting;

impl PayloadReader for Counting {
    fn backend_id(&self) -> &str {
        "XnnpackBackend"
    }
    fn check(&self, payload: &[u8], _: &pte_schema::Limits) -> PayloadCheck {
        PayloadCheck {
            issues: vec![PayloadIssue::new(
                pte_verify::rules::PAYLOAD_VALUE,
                "",
                Some(0),
                format!("{} bytes", payload.len()),
            )],
            named_keys: vec![NeededKey { key: "elsewhere".into(), path: "k".into(), min_size: None }],
        }
    }
    fn summary(&self, _: &[u8], _: &pte_schema::Limits) -> pte_schema::Result<PayloadSummary> {
        Ok(PayloadSummary::default())
    }
    fn to_json(&self, _: &[u8], _: &pte_schema::Limits) -> pte_schema::Result<serde_json::Value> {
        Ok(serde_json::Value::Null)
    }
}

#[test]
fn a_registered_reader_replaces_the_builtin_one() {
    let b = corpus("xnnpack_mlp");
    let pte = pte_file::PteFile::from_bytes(&b).unwrap();
    let mut reg = PayloadRegistry::builtin();
    reg.register(Box::new(Counting));
    assert_eq!(reg.ids().count(), 2);
    let r = check_payloads(&pte.program, &b, &reg, &Default::default());
    assert_eq!(r.violations.len(), 1);
    assert_eq!(r.violations[0].message, "XnnpackBackend payload: 1184 bytes");
    assert_eq!(r.violations[0].offset, Some(1536));
    assert_eq!(r.warnings[0].rule, "payload.named_key");
    let links = verify_payload_links(&pte.program, &b, &reg, &Default::default(), &[]);
    assert_eq!(links.violations[0].rule, "link.payload_key");
    assert!(links.violations[0].message.contains("\"elsewhere\""));
    // an empty registry checks nothing
    assert!(check_payloads(&pte.program, &b, &PayloadRegistry::default(), &Default::default()).is_ok());
}

/// Position of field `slot` of the flatbuffer table at `table`.
fn field(b: &[u8], table: usize, slot: usize) -> usize {
    let u32_at = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let vtable = (table as i64 - i64::from(u32_at(table) as i32)) as usize;
    let off = u16::from_le_bytes(b[vtable + 4 + 2 * slot..vtable + 6 + 2 * slot].try_into().unwrap());
    assert_ne!(off, 0, "field {slot} is absent");
    table + off as usize
}

fn deref(b: &[u8], at: usize) -> usize {
    at + u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize
}

/// Element `i` (a table) of the vector in field `slot` of `table`.
fn element(b: &[u8], table: usize, slot: usize, i: usize) -> usize {
    deref(b, deref(b, field(b, table, slot)) + 4 + 4 * i)
}

/// One in-place edit of a program's bytes.
type Breakage<'a> = Box<dyn Fn(&mut Vec<u8>) + 'a>;

#[test]
fn each_payload_rule_fires_on_its_own_breakage() {
    // xnnpack_mlp: payload at 1536, flatbuffer 32 bytes in
    let good = corpus("xnnpack_mlp");
    let root = deref(&good, 1536 + 32);
    let union = |b: &[u8], vector: usize, i: usize| deref(b, field(b, element(b, root, vector, i), 1));
    let cases: Vec<(&str, Breakage<'_>)> = vec![
        ("payload.structure", Box::new(|b| b[1536 + 36..1536 + 40].copy_from_slice(b"XN99"))),
        // XNNFullyConnected.output_id of node 0
        (
            "payload.ids",
            Box::new(move |b| {
                let at = field(b, union(b, 1, 0), 3);
                b[at..at + 4].copy_from_slice(&77u32.to_le_bytes());
            }),
        ),
        // XNNTensorValue.flags of value 0 (the external input)
        (
            "payload.value",
            Box::new(move |b| {
                let at = field(b, union(b, 2, 0), 5);
                b[at + 1] = 1;
            }),
        ),
        // XNNTensorValue.constant_buffer_idx of value 1 (a weight)
        (
            "payload.constant",
            Box::new(move |b| {
                let at = field(b, union(b, 2, 1), 3);
                b[at..at + 4].copy_from_slice(&99u32.to_le_bytes());
            }),
        ),
        // ConstantDataOffset.named_key of entry 1
        (
            "payload.named_key",
            Box::new(move |b| {
                let at = deref(b, field(b, element(b, root, 8, 1), 2));
                b[at + 4] = b'z';
            }),
        ),
    ];
    for (rule, edit) in cases {
        let mut b = good.clone();
        edit(&mut b);
        let r = verify(&b);
        let v = r.violations.iter().chain(&r.warnings).find(|v| v.rule == rule);
        let v = v.unwrap_or_else(|| panic!("{rule} did not fire: {r:?}"));
        assert!(v.path.starts_with("execution_plan[0].delegates[0].processed"), "{v:?}");
        assert!(v.offset.is_some_and(|o| o >= 1536), "{v:?}");
        assert_eq!(rule == "payload.named_key", r.is_ok(), "only the key is a warning: {r:?}");
    }
}
