//! `splice_flatbuffer`: a new flatbuffer in front of the old segment region.

use pte_file::{splice_flatbuffer, ErrorKind, PteFile, WriteOptions};
use pte_segments::ExtendedHeader;

fn corpus(name: &str) -> Vec<u8> {
    pte_testkit::model_bytes(name)
}

fn splice(file: &[u8], fb: &[u8], options: &WriteOptions) -> pte_file::Result<Vec<u8>> {
    let mut out = vec![];
    let n = splice_flatbuffer(&mut out, file, fb, options)?;
    assert_eq!(n as usize, out.len());
    Ok(out)
}

#[test]
fn segments_keep_their_bytes_under_a_renamed_method() {
    let bytes = corpus("xnnpack_mlp");
    let old = ExtendedHeader::parse(&bytes).unwrap().unwrap();
    let mut pte = PteFile::from_bytes(&bytes).unwrap().into_owned();
    pte.program.execution_plan.as_mut().unwrap()[0].name = Some("a_method_renamed_".repeat(20));
    let fb = pte_schema::encode_program(&pte.program, &Default::default()).unwrap();
    let out = splice(&bytes, &fb, &Default::default()).unwrap();
    let new = ExtendedHeader::parse(&out).unwrap().unwrap();
    assert_ne!(new.segment_base_offset, old.segment_base_offset);
    assert_eq!(new.segment_base_offset % 128, 0);
    assert_eq!(new.segment_data_size, old.segment_data_size);
    let seg = |b: &[u8], h: ExtendedHeader| {
        b[h.segment_base_offset as usize..(h.segment_base_offset + h.segment_data_size) as usize].to_vec()
    };
    assert_eq!(seg(&out, new), seg(&bytes, old));
    assert_eq!(PteFile::from_bytes(&out).unwrap(), pte);
    assert!(pte_verify::verify_bytes(&out, &Default::default()).is_ok());
}

#[test]
fn segment_alignment_comes_from_the_options() {
    let bytes = corpus("linear");
    let pte = PteFile::from_bytes(&bytes).unwrap();
    let fb = pte_schema::encode_program(&pte.program, &Default::default()).unwrap();
    let options = WriteOptions::default().with_segment_alignment(4096).unwrap();
    let out = splice(&bytes, &fb, &options).unwrap();
    assert_eq!(ExtendedHeader::parse(&out).unwrap().unwrap().segment_base_offset, 4096);
    assert_eq!(PteFile::from_bytes(&out).unwrap(), pte);
}

#[test]
fn a_file_without_a_header_becomes_the_flatbuffer() {
    let bytes = corpus("add");
    assert_eq!(ExtendedHeader::parse(&bytes).unwrap(), None);
    let fb = pte_schema::encode_program(&PteFile::from_bytes(&bytes).unwrap().program, &Default::default()).unwrap();
    assert_eq!(splice(&bytes, &fb, &Default::default()).unwrap(), fb);
}

#[test]
fn a_segment_region_past_the_end_is_malformed() {
    let bytes = corpus("linear");
    let fb = pte_schema::encode_program(&PteFile::from_bytes(&bytes).unwrap().program, &Default::default()).unwrap();
    let e = splice(&bytes[..bytes.len() - 1], &fb, &Default::default()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Malformed);
}
