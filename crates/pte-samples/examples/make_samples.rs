//! Writes a sample set using every value kind (method `forward`) as
//! `DIR/index.json` + `DIR/data.safetensors` and, given a package, puts it
//! in the package too, for the conformance scripts. The set exercises the
//! sidecar's value kinds, not the method's signature (which `pte samples
//! add` holds sets to), so it goes in through the library's writer.
//!
//!     cargo run -p pte-samples --example make_samples -- DIR [PACKAGE.ptn]

use pte_ptn::{Dtype, PtnTensor};
use pte_samples::*;

fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args_os().nth(1).ok_or("usage: make_samples DIR")?;
    let dir = std::path::Path::new(&dir);
    let f32s = |shape: Vec<u64>, n: usize, scale: f32| -> std::result::Result<PtnTensor<'static>, pte_ptn::Error> {
        PtnTensor::new(Dtype::F32, shape, (0..n).flat_map(|i| (i as f32 * scale).to_le_bytes()).collect::<Vec<u8>>())
    };
    let mut set = SampleSet::new("forward", "conformance");
    set.tolerance = Some(Tolerance { atol: 1e-6, rtol: 1e-5 });
    let mut calls = Vec::new();
    for step in 0..3u8 {
        calls.push(Call {
            inputs: vec![
                Value::Tensor(f32s(vec![1, 16], 16, f32::from(step))?),
                Value::Int(i64::from(step)),
                Value::Float(f64::NAN),
                Value::Bool(step == 0),
                Value::String("teacher-forced".into()),
                Value::None,
                Value::TensorList(vec![PtnTensor::new(Dtype::I64, vec![1], i64::from(step).to_le_bytes().to_vec())?]),
            ],
            outputs: vec![Value::Tensor(f32s(vec![1, 8], 8, 0.25)?)],
            tolerance: (step == 2).then_some(Tolerance { atol: 1e-4, rtol: 0.0 }),
        });
    }
    set.samples.push(Sample { name: Some("three steps".into()), tolerance: None, calls });
    let enc = encode_set(&set, &SampleLimits::default())?;
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join(INDEX_FILE), &enc.index)?;
    std::fs::write(dir.join(DATA_FILE), &enc.data)?;
    if let Some(package) = std::env::args_os().nth(2) {
        put_set_in_file(std::path::Path::new(&package), &set, false)?;
    }
    Ok(())
}
