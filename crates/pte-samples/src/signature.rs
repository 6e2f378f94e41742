//! Recorded calls against the method they call: as many inputs and outputs
//! as the method declares, and each tensor of the declared dtype, rank and
//! sizes (exactly where a dimension is static, within its range where not).

use pte_schema::native::{Dim, NativeMethod, NativeProgram, OutputKind, TensorMeta};

use crate::location::Location;
use crate::{Error, SampleRule, SampleSet, Value};

/// Every way `set`'s calls contradict the signature of the method they call
/// in `program` (none when the program lacks the method: that is
/// [`SampleRule::UnknownMethod`]'s to report).
///
/// ```
/// use pte_samples::*;
/// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// let program = pte_ptn::PtnFile::from_bytes(&bytes)?.native_program(&Default::default())?;
/// let mut set = SampleSet::new("forward", "wrong");
/// let x = pte_ptn::PtnTensor::new(pte_ptn::Dtype::F32, vec![1, 16], vec![0u8; 64])?;
/// set.samples.push(Sample { calls: vec![Call { inputs: vec![Value::Tensor(x)], ..Default::default() }], ..Default::default() });
/// let found = check_signature(&program, &set);
/// assert!(found.iter().all(|e| e.rule() == SampleRule::Signature));
/// assert_eq!(found.len(), 2); // the input's first dimension, and the missing output
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_signature(program: &NativeProgram, set: &SampleSet<'_>) -> Vec<Error> {
    let Some(method) = program.methods.iter().find(|m| m.name == set.method) else { return Vec::new() };
    let (inputs, outputs) = declared(method);
    let member = Location::new(set.method.clone(), set.name.clone()).index_member();
    let mut found = Vec::new();
    for (si, sample) in set.samples.iter().enumerate() {
        for (ci, call) in sample.calls.iter().enumerate() {
            let at = format!("{member}:samples[{si}].calls[{ci}]");
            for (what, values, want) in [("inputs", &call.inputs, &inputs), ("outputs", &call.outputs, &outputs)] {
                if values.len() != want.len() {
                    found.push(
                        Error::new(
                            SampleRule::Signature,
                            format!(
                                "{} {what} recorded, method {:?} declares {}",
                                values.len(),
                                set.method,
                                want.len()
                            ),
                        )
                        .at_path(format!("{at}.{what}")),
                    );
                }
                for (i, (value, meta)) in values.iter().zip(want.iter()).enumerate() {
                    if let Some(problem) = meta.and_then(|m| contradiction(value, m)) {
                        let name = what.trim_end_matches('s');
                        found.push(
                            Error::new(SampleRule::Signature, format!("{name} {i}: {problem}"))
                                .at_path(format!("{at}.{what}[{i}]")),
                        );
                    }
                }
            }
        }
    }
    found
}

/// [`check_signature`] as one refusal, the way every writer refuses such a
/// set before writing it: the first four contradictions, each with where it
/// lies, and how many more there are.
///
/// ```
/// use pte_samples::*;
/// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// let program = pte_ptn::PtnFile::from_bytes(&bytes)?.native_program(&Default::default())?;
/// let mut set = SampleSet::new("forward", "wrong");
/// let x = pte_ptn::PtnTensor::new(pte_ptn::Dtype::F32, vec![1, 16], vec![0u8; 64])?;
/// set.samples.push(Sample { calls: vec![Call { inputs: vec![Value::Tensor(x)], ..Default::default() }], ..Default::default() });
/// let e = require_signature(&program, &set).unwrap_err();
/// assert_eq!(e.rule(), SampleRule::Signature);
/// assert!(e.to_string().contains("dimension 0 is 1"), "{e}");
/// assert!(require_signature(&program, &SampleSet::new("forward", "empty")).is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn require_signature(program: &NativeProgram, set: &SampleSet<'_>) -> crate::Result<()> {
    const SHOWN: usize = 4;
    let found = check_signature(program, set);
    if found.is_empty() {
        return Ok(());
    }
    let shown: Vec<String> = found
        .iter()
        .take(SHOWN)
        .map(|e| if e.path().is_empty() { e.message().to_string() } else { format!("{} at {}", e.message(), e.path()) })
        .collect();
    let more = found.len().saturating_sub(shown.len());
    let tail = if more > 0 { format!(" (and {more} more)") } else { String::new() };
    Err(Error::new(SampleRule::Signature, format!("{}{tail}", shown.join("; "))))
}

/// The tensor metadata of each declared input and returned output (`None`
/// where the value is not a tensor the graph describes). Outputs that write
/// state back (buffer and input mutations) are not returned to the caller.
fn declared(method: &NativeMethod) -> (Vec<Option<&TensorMeta>>, Vec<Option<&TensorMeta>>) {
    let graph = &method.graph;
    let meta = |name: &String| graph.tensor_values.iter().flatten().find(|v| &v.name == name).map(|v| &v.meta);
    let inputs = graph.inputs.iter().flatten().map(meta).collect();
    let names = graph.outputs.as_deref().unwrap_or(&[]);
    let specs = method.output_specs.as_deref().filter(|s| s.len() == names.len());
    let outputs = names
        .iter()
        .enumerate()
        .filter(|(i, _)| specs.and_then(|s| s.get(*i)).is_none_or(|spec| spec.kind == OutputKind::USER_OUTPUT))
        .map(|(_, n)| meta(n))
        .collect();
    (inputs, outputs)
}

/// How a recorded value contradicts the tensor the method declares.
fn contradiction(value: &Value<'_>, meta: &TensorMeta) -> Option<String> {
    let Value::Tensor(t) = value else {
        return Some(format!("a {} where the method declares a tensor", value.kind().replace('_', " ")));
    };
    let ours = pte_ptn::dtype_code(t.dtype);
    if let Some(want) = meta.dtype.safetensors_dtype()
        && ours != want
    {
        return Some(format!("dtype {ours} where the method declares {want}"));
    }
    let dims = meta.sizes.as_deref()?;
    if t.shape.len() != dims.len() {
        return Some(format!(
            "rank {} (shape {:?}) where the method declares rank {}",
            t.shape.len(),
            t.shape,
            dims.len()
        ));
    }
    for (d, (&size, dim)) in t.shape.iter().zip(dims).enumerate() {
        if !fits(size, *dim) {
            let want = if dim.min == dim.max {
                dim.min.to_string()
            } else if dim.max < 0 {
                format!("at least {}", dim.min)
            } else {
                format!("{}..={}", dim.min, dim.max)
            };
            return Some(format!("dimension {d} is {size} (shape {:?}) where the method declares {want}", t.shape));
        }
    }
    None
}

/// Whether a size lies in a dimension's range (a negative maximum is unbounded).
fn fits(size: u64, dim: Dim) -> bool {
    let Ok(size) = i64::try_from(size) else { return dim.max < 0 };
    size >= dim.min && (dim.max < 0 || size <= dim.max)
}
