#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| pte_ptn::fuzzing::safetensors_differential(data));
