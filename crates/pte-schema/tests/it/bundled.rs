//! The bundled-program schema against the corpus file from the stock exporter.

use pte_schema::bundled::*;

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(pte_testkit::corpus("bundled").join(name)).unwrap()
}

fn offset_in(outer: &[u8], inner: &[u8]) -> usize {
    inner.as_ptr() as usize - outer.as_ptr() as usize
}

#[test]
fn the_corpus_bundle_decodes_with_its_program_byte_identical() {
    let bytes = corpus("model.bpte");
    let b = decode_bundled_program(&bytes, &Default::default()).unwrap();
    assert_eq!(b.version, BUNDLED_PROGRAM_VERSION);
    let program = b.program.as_deref().unwrap();
    assert_eq!(program, &corpus("model.pte")[..]);
    assert_eq!(offset_in(&bytes, program) % 32, 0);
    let suites = b.method_test_suites.as_ref().unwrap();
    assert_eq!(suites.len(), 1);
    assert_eq!(suites[0].method_name.as_deref(), Some("forward"));
    let cases = suites[0].test_cases.as_ref().unwrap();
    assert_eq!(cases.len(), 3);
    for c in cases {
        for v in c.inputs.iter().chain(c.expected_outputs.iter()).flatten() {
            let BundledValue::Tensor(t) = v else { panic!("{v:?}") };
            assert_eq!(offset_in(&bytes, t.data.as_deref().unwrap()) % 16, 0);
            assert_eq!(t.nbytes(), Some(t.data.as_ref().unwrap().len() as u64));
        }
    }
}

#[test]
fn re_encoding_keeps_every_field_and_the_alignments() {
    let bytes = corpus("model.bpte");
    let b = decode_bundled_program(&bytes, &Default::default()).unwrap();
    let again = encode_bundled_program(&b).unwrap();
    let back = decode_bundled_program(&again, &Default::default()).unwrap();
    assert_eq!(back, b);
    assert_eq!(offset_in(&again, back.program.as_deref().unwrap()) % 32, 0);
    assert_eq!(encode_bundled_program(&back).unwrap(), again, "deterministic");
}

#[test]
fn planus_reads_what_we_write() {
    let bytes = corpus("model.bpte");
    let b = decode_bundled_program(&bytes, &Default::default()).unwrap();
    let ours = encode_bundled_program(&b).unwrap();
    for buf in [&bytes[..], &ours[..]] {
        let owned = pte_oracle::bundled::decode(buf).unwrap();
        assert_eq!(owned.version, 2);
        assert_eq!(owned.program.as_deref(), b.program.as_deref());
        assert_eq!(owned.method_test_suites.unwrap()[0].test_cases.as_ref().unwrap().len(), 3);
    }
}
