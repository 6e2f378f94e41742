//! Builds a package exercising the writer's rules from an existing one: its
//! program and constants, plus a duplicate (aliased), a mutable key with the
//! same bytes (not aliased), a tensor of every supported dtype, a
//! zero-element tensor and an extra member.
//!
//!     cargo run -p pte-ptn --example make_ptn -- IN.ptn OUT.ptn

#![allow(clippy::arithmetic_side_effects)]
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::ExitCode;

use pte_ptn::{Member, PtnFile, PtnTensor, SUPPORTED_DTYPES};

fn run(input: &Path, output: &Path) -> pte_ptn::Result<()> {
    let bytes = std::fs::read(input)?;
    let src = PtnFile::from_bytes(&bytes)?;
    let mut constants: BTreeMap<String, PtnTensor<'_>> =
        src.constants().map(|(k, t)| (k.to_string(), t.clone())).collect();
    if let Some((key, t)) = src.constants().next() {
        constants.insert(format!("{key}.copy"), t.clone());
        // State must own its bytes: a view of the same storage would be refused.
        let owned = PtnTensor { data: t.data.to_vec().into(), ..t.clone() };
        constants.insert(format!("{key}.state"), owned);
    }
    for (i, &dtype) in SUPPORTED_DTYPES.iter().enumerate() {
        let probe = PtnTensor { dtype, shape: vec![2, 3], data: Vec::new().into() };
        let len = usize::try_from(probe.expected_len().unwrap_or(0)).unwrap_or(0);
        let data: Vec<u8> = (0..len).map(|b| u8::try_from((b * 7 + i) % 2).unwrap_or(0)).collect();
        constants.insert(format!("dtypes.{}", pte_ptn::dtype_code(dtype)), PtnTensor::new(dtype, vec![2, 3], data)?);
    }
    constants.insert("empty".into(), PtnTensor::new(pte_ptn::Dtype::F32, vec![0, 4], Vec::new())?);
    let mutable: BTreeSet<String> = constants.keys().filter(|k| k.ends_with(".state")).cloned().collect();
    let mut ptn = PtnFile::from_constants(src.program.clone(), constants, &mutable)?;
    ptn.members.push(Member { name: "notes/readme.txt".into(), data: (&b"kept as is\n"[..]).into() });
    ptn.save(output).map(drop)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = args.as_slice() else {
        eprintln!("usage: make_ptn IN.ptn OUT.ptn");
        return ExitCode::from(2);
    };
    match run(Path::new(input), Path::new(output)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("make_ptn: {e}");
            ExitCode::FAILURE
        }
    }
}
