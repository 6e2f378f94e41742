#![no_main]
// The main decoder and planus must decode the same content whenever both accept.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let ours = pte_schema::decode_program(data, &Default::default());
    let theirs = pte_oracle::decode(data);
    if let (Ok(ours), Ok(theirs)) = (ours, theirs) {
        let planus_bytes = pte_oracle::encode(&theirs);
        let again = pte_schema::decode_program(&planus_bytes, &pte_schema::Limits::unlimited())
            .expect("planus output must decode");
        assert_eq!(again, ours, "planus and the main decoder disagree");
    }
});
