//! planus (an independent flatbuffers implementation) and the main path agree
//! on every corpus program, in both directions: each reads what the other writes.

use pte_file::program_region;
use pte_schema::{decode_program, encode_program, EncodeOptions, Limits};

#[test]
fn planus_and_main_reader_decode_the_same_content() {
    let root = pte_testkit::corpus_dir();
    let mut n = 0;
    for e in std::fs::read_dir(root).unwrap() {
        let path = e.unwrap().path().join("model.pte");
        let Ok(bytes) = std::fs::read(&path) else { continue };
        let (_, region) = program_region(&bytes).unwrap();
        let ours = decode_program(region, &Limits::default()).unwrap();
        let theirs = pte_oracle::decode(region).unwrap();

        // planus writes, we read: same model as reading the original
        let planus_bytes = pte_oracle::encode(&theirs);
        assert_eq!(decode_program(&planus_bytes, &Limits::default()).unwrap(), ours, "{}", path.display());

        // we write, planus reads: same model as planus reading the original
        let our_bytes = encode_program(&ours, &EncodeOptions::default()).unwrap();
        assert_eq!(pte_oracle::decode(&our_bytes).unwrap(), theirs, "{}", path.display());
        n += 1;
    }
    assert!(n >= 13, "only {n} corpus programs");
}
