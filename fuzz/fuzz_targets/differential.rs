#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| pte_fuzz_bodies::differential(data));
