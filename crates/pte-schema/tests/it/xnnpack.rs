//! The XNNPACK payload reader on the corpus payloads, on broken headers and
//! identifiers (typed errors with path and offset), and on arbitrary bytes.

use proptest::prelude::*;
use pte_schema::xnnpack::*;
use pte_schema::{ErrorKind, Limits};

fn corpus(case: &str) -> Vec<u8> {
    std::fs::read(pte_testkit::model(case)).unwrap()
}

/// The `xnnpack_mlp` payload: the delegate segment at 1536, 1184 bytes.
fn mlp_payload() -> Vec<u8> {
    corpus("xnnpack_mlp")[1536..1536 + 1184].to_vec()
}

/// The inline payload of `inline_delegate`, found by its header magic.
fn inline_payload() -> Vec<u8> {
    let file = corpus("inline_delegate");
    let at = file.windows(4).position(|w| w == b"XH00").unwrap() - 4;
    let h = XnnHeader::parse(&file[at..]).unwrap().unwrap();
    file[at..at + (h.constant_data_offset as usize) + h.constant_data_size as usize].to_vec()
}

#[test]
fn corpus_payloads_decode_as_the_exporter_wrote_them() {
    for bytes in [mlp_payload(), inline_payload()] {
        let p = XnnPayload::new(&bytes, &Limits::default()).unwrap();
        let g = p.decode().unwrap();
        assert_eq!(&p.flatbuffer()[4..8], XNN_IDENTIFIER);
        assert_eq!(g.num_externs, 2);
        let nodes = g.xnodes.as_ref().unwrap();
        assert!(nodes.iter().all(|n| n.kind == XNodeKind::XNNFullyConnected));
        // node ids name values
        let ids: Vec<u32> = g.tensors().map(|t| t.unwrap().id_out).collect();
        assert!(nodes.iter().flat_map(|n| n.value_ids()).all(|(_, id)| ids.contains(&id)));
        assert_eq!(g.named_keys().count(), 4);
        let t = g.tensors().nth(1).unwrap().unwrap();
        let c = &g.constant_data.as_ref().unwrap()[t.constant_buffer_idx as usize];
        assert_eq!(Some(c.size), t.nbytes());
        let json = xnn_graph_to_json(&g);
        assert_eq!(json["xvalues"][0]["xvalue_union"]["datatype"], "xnn_datatype_fp32");
        assert_eq!(json["xnodes"][0]["output_min_max"]["output_max"], "inf");
        assert!(json["xvalues"][0]["xvalue_union"].get("dq_datatype").is_none());
    }
}

#[test]
fn a_bare_flatbuffer_is_read_without_a_header() {
    let bytes = mlp_payload();
    let h = XnnHeader::parse(&bytes).unwrap().unwrap();
    let fb = &bytes[h.flatbuffer_offset as usize..][..h.flatbuffer_size as usize];
    let p = XnnPayload::new(fb, &Limits::default()).unwrap();
    assert!(p.header().is_none() && p.constant_data().is_empty());
    assert_eq!(p.decode().unwrap(), XnnPayload::new(&bytes, &Limits::default()).unwrap().decode().unwrap());
}

fn err(bytes: &[u8]) -> pte_schema::Error {
    XnnPayload::new(bytes, &Limits::default()).unwrap_err()
}

#[test]
fn broken_headers_are_typed_errors() {
    let good = mlp_payload();
    let e = err(&good[..20]);
    assert_eq!((e.kind(), e.path(), e.offset()), (ErrorKind::Malformed, "xh00", Some(0)));

    let mut b = good.clone();
    b[14..18].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = err(&b);
    assert_eq!((e.kind(), e.path(), e.offset()), (ErrorKind::Malformed, "xh00.flatbuffer_offset", Some(10)));

    let mut b = good.clone();
    b[22..30].copy_from_slice(&u64::MAX.to_le_bytes());
    assert_eq!(err(&b).path(), "xh00.constant_data_offset");

    let mut b = good.clone();
    b[18..22].copy_from_slice(&40u32.to_le_bytes()); // inside the flatbuffer
    assert!(err(&b).message().contains("inside the flatbuffer"));

    let mut b = good.clone();
    b[14..18].copy_from_slice(&4u32.to_le_bytes());
    assert_eq!(err(&b).path(), "xh00.flatbuffer_size");
}

#[test]
fn identifiers_xn00_and_xn01_are_accepted_others_refused() {
    let mut b = mlp_payload();
    b[36..40].copy_from_slice(XNN_LEGACY_IDENTIFIER);
    assert!(XnnPayload::new(&b, &Limits::default()).is_ok());
    b[36..40].copy_from_slice(b"ET12");
    let e = err(&b);
    // the offset counts from the payload: the flatbuffer starts at 32
    assert_eq!((e.kind(), e.path(), e.offset()), (ErrorKind::Malformed, "identifier", Some(36)));
}

#[test]
fn an_unknown_node_tag_is_unsupported() {
    let bytes = mlp_payload();
    let p = XnnPayload::new(&bytes, &Limits::default()).unwrap();
    // find a node's union tag byte (value 2) by patching candidates
    let fb = p.flatbuffer_offset();
    let mut found = false;
    for at in fb..bytes.len() {
        if bytes[at] != 2 {
            continue;
        }
        let mut b = bytes.clone();
        b[at] = 200;
        if let Ok(q) = XnnPayload::new(&b, &Limits::default())
            && let Err(e) = q.decode()
            && e.kind() == ErrorKind::Unsupported
        {
            // the builder writes later tables first
            assert!(e.path().starts_with("xnodes[") && e.path().ends_with("].xnode_union_type"));
            found = true;
            break;
        }
    }
    assert!(found);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        if let Ok(p) = XnnPayload::new(&bytes, &Limits::default()) {
            if let Ok(g) = p.decode() {
                let _ = xnn_graph_to_json(&g);
            }
            let _ = (p.node_kinds().count(), p.named_keys().count());
        }
    }

    #[test]
    fn edited_corpus_payloads_never_panic(edits in proptest::collection::vec((0usize..1184, any::<u8>()), 1..8)) {
        let mut b = mlp_payload();
        for (at, v) in edits {
            b[at] = v;
        }
        if let Ok(p) = XnnPayload::new(&b, &Limits::default())
            && let Ok(g) = p.decode() {
                let _ = xnn_graph_to_json(&g);
            }
    }
}
