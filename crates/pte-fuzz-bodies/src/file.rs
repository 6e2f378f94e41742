//! The `.pte`, `.ptd`, `.bpte` and delegate-payload targets, through `pte-file`.

use pte_file::ptd::{PtdFile, PtdLayout, PtdWriteOptions};
use pte_file::{PteFile, WriteOptions};

/// `.pte`: read, verify, and when it reads, rewrite and read back: the
/// result must equal the first read.
///
/// ```
/// pte_fuzz_bodies::pte(b"\x00\x01 anything");
/// ```
pub fn pte(data: &[u8]) {
    let _ = pte_verify::verify_bytes(data, &Default::default());
    if let Ok(p) = PteFile::from_bytes(data) {
        let _ = (p.constants(), p.mutable_segments(), p.named_data(), p.delegate_blobs());
        let _ = pte_schema::program_to_json(&p.program, pte_schema::JsonBytes::Integers);
        let legacy =
            p.program.constant_segment.as_ref().is_none_or(|c| c.offsets.as_ref().is_none_or(|o| o.is_empty()));
        if let Ok(out) = p.to_bytes(&WriteOptions::default()) {
            match PteFile::from_bytes(&out) {
                Ok(again) if legacy || again == p => {}
                Ok(_) => panic!("rewrite changed the aggregate"),
                Err(e) => panic!("our own output does not read: {e}"),
            }
        }
    }
}

/// `.ptd`: read, verify, rewrite with the layout kept, read back equal.
///
/// ```
/// pte_fuzz_bodies::ptd(b"FH01");
/// ```
pub fn ptd(data: &[u8]) {
    let _ = pte_verify::verify_ptd_bytes(data, &Default::default());
    if let Ok(p) = PtdFile::from_bytes(data) {
        let keep = PtdWriteOptions::new(PtdLayout::Keep { segment_alignment: 128 });
        if let Ok(out) = keep.and_then(|o| p.to_bytes(&o)) {
            match PtdFile::from_bytes(&out) {
                Ok(again) if again == p => {}
                Ok(_) => panic!("ptd rewrite changed the file"),
                Err(e) => panic!("our own ptd output does not read: {e}"),
            }
        }
    }
}

/// The two headers alone.
///
/// ```
/// pte_fuzz_bodies::headers(&[0u8; 3]);
/// ```
pub fn headers(data: &[u8]) {
    if let Ok(Some(h)) = pte_segments::ExtendedHeader::parse(data) {
        let _ = h.to_bytes();
    }
    if let Ok(h) = pte_segments::FlatTensorHeader::parse(data) {
        let _ = h.flatbuffer_end();
    }
}

/// `.bpte`: verify, read, and when it reads, write and read back equal; the
/// embedded program also goes through the `.pte` target.
///
/// ```
/// pte_fuzz_bodies::bpte(b"\x08\0\0\0BP08 not really");
/// ```
pub fn bpte(data: &[u8]) {
    let _ = pte_verify::verify_bpte_bytes(data, &Default::default());
    let _ = pte_schema::bundled::decode_bundled_program(data, &Default::default())
        .map(|b| pte_schema::bundled::bundled_program_to_json(&b));
    let Ok(b) = pte_file::bpte::BundledFile::from_bytes(data) else { return };
    pte(&b.program);
    match b.to_bytes() {
        Ok(out) => match pte_file::bpte::BundledFile::from_bytes(&out) {
            Ok(again) if again == b => {}
            Ok(_) => panic!("bundle rewrite changed it"),
            Err(e) => panic!("our own bundle does not read: {e}"),
        },
        Err(e) if e.kind() == pte_file::ErrorKind::LimitExceeded => {}
        Err(e) => panic!("a bundle that read does not write: {e}"),
    }
}

/// An XNNPACK delegate payload: the reader, JSON, the verifier's rules and
/// the `info` summary; a header that parses must write back to its bytes.
///
/// ```
/// pte_fuzz_bodies::xnnpack(b"\0\0\0\0XH00\x1e\0");
/// ```
pub fn xnnpack(data: &[u8]) {
    use pte_analysis::delegate_payload::{PayloadReader, XnnpackReader};
    use pte_schema::xnnpack::{xnn_graph_to_json, XnnHeader, XnnPayload, XNN_HEADER_SIZE};
    if let Ok(Some(h)) = XnnHeader::parse(data)
        && data.get(4..XNN_HEADER_SIZE) != h.to_bytes().get(4..)
    {
        panic!("a parsed XH00 header does not write back to its bytes");
    }
    if let Ok(p) = XnnPayload::new(data, &Default::default()) {
        let _ = (p.node_kinds().count(), p.named_keys().count(), p.version());
        if let Ok(g) = p.decode() {
            let _ = xnn_graph_to_json(&g);
            let _ = g.xnodes.iter().flatten().map(|n| n.value_ids().len()).sum::<usize>();
        }
    }
    let _ = XnnpackReader.check(data, &Default::default());
    let _ = XnnpackReader.summary(data, &Default::default());
}

/// A native-backend delegate payload (an `NPTG` program) through its
/// payload reader.
///
/// ```
/// pte_fuzz_bodies::native_payload(b"\x08\0\0\0NPTG");
/// ```
pub fn native_payload(data: &[u8]) {
    use pte_analysis::delegate_payload::{NativeReader, PayloadReader};
    let _ = NativeReader.check(data, &Default::default());
    let _ = NativeReader.summary(data, &Default::default());
    let _ = NativeReader.to_json(data, &Default::default());
}
