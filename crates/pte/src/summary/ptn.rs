//! The summary of a `.ptn` package, typed: what `pte info --json` prints
//! for one. Fields are declared in alphabetical order, as a `serde_json`
//! tree sorts them (see the `.ptd` summary).

use std::collections::BTreeMap;

use serde::Serialize;

use pte_ptn::PtnFile;
use pte_schema::native::{NativeMethod, NativeProgram, TensorMeta};

use crate::Result;

/// The summary of a `.ptn`.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// let s = pte::PtnSummary::read(&bytes, false)?;
/// assert_eq!(s.format, "ptn");
/// assert_eq!(s.methods[0].name, "forward");
/// assert!(!s.constants.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PtnSummary {
    /// Alias key → the key whose bytes it shares.
    pub aliases: BTreeMap<String, String>,
    /// Every constant, aliases included, by key.
    pub constants: Vec<PtnConstant>,
    /// The file's size in bytes.
    pub file_size: usize,
    /// Always `"ptn"`.
    pub format: &'static str,
    /// The safetensors `__metadata__`, when present.
    pub metadata: Option<BTreeMap<String, String>>,
    /// The native program's methods (none when the program cannot be read).
    pub methods: Vec<PtnMethod>,
    /// The members besides the program, constants and aliases.
    pub other_members: Vec<PtnMember>,
    /// The size of `program.ptg`.
    pub program_size: usize,
    /// The tensor table (`pte info --tensors`), when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tensors: Option<Vec<PtnTensorRow>>,
    /// The native program's version (none when absent or unreadable).
    pub version: Option<String>,
}

/// One constant of a package.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PtnConstant {
    /// The key it aliases, when it is an alias.
    pub alias_of: Option<String>,
    /// Element type, as safetensors spells it.
    pub dtype: String,
    /// Its key.
    pub key: String,
    /// SHA-256 of its bytes, lower-case hex.
    pub sha256: String,
    /// Its shape.
    pub shape: Vec<u64>,
    /// Bytes stored.
    pub size: usize,
}

/// One method of the native program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PtnMethod {
    /// How many constants it names.
    pub constants: Option<usize>,
    /// How many inputs its graph has.
    pub inputs: Option<usize>,
    /// How many mutable buffers it names.
    pub mutable_buffers: Option<usize>,
    /// Its name.
    pub name: String,
    /// How many nodes its graph has.
    pub nodes: usize,
    /// How many outputs its graph has.
    pub outputs: Option<usize>,
    /// Its inputs and outputs with dtype and shape ranges.
    pub signature: PtnSignature,
}

/// A method's inputs and outputs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PtnSignature {
    /// The graph's inputs, in order.
    pub inputs: Vec<PtnValue>,
    /// The graph's outputs, in order.
    pub outputs: Vec<PtnValue>,
}

/// One input or output; dtype, sizes and dim order are none when the graph
/// has no tensor of that name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PtnValue {
    /// Dimension order.
    pub dim_order: Option<Vec<i32>>,
    /// Element type.
    pub dtype: Option<String>,
    /// Its name.
    pub name: String,
    /// Each dimension's size range.
    pub sizes: Option<Vec<PtnDim>>,
}

/// A dimension's size range (`max` negative when unbounded).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PtnDim {
    /// Largest size, negative when unbounded.
    pub max: i64,
    /// Smallest size.
    pub min: i64,
}

/// A member besides the program, constants and aliases.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PtnMember {
    /// Its name in the archive.
    pub name: String,
    /// Its (inflated) size.
    pub size: usize,
}

/// One row of a package's tensor table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PtnTensorRow {
    /// The key it aliases, when it is an alias.
    pub alias_of: Option<String>,
    /// Dimension order (always contiguous in a package).
    pub dim_order: Vec<u8>,
    /// Element type.
    pub dtype: String,
    /// Its bytes in the file, `[start, end)` (none when stored compressed).
    pub file_range: Option<[u64; 2]>,
    /// Its key.
    pub name: String,
    /// Bytes its dtype and shape make.
    pub nbytes: usize,
    /// Dimension sizes.
    pub sizes: Vec<u64>,
    /// Bytes stored.
    pub stored: usize,
}

impl PtnSummary {
    /// Reads `bytes` as a `.ptn` and summarises it, with the tensor table
    /// when `tensors`; fails where [`PtnFile::from_bytes`] fails.
    ///
    /// ```
    /// assert!(pte::PtnSummary::read(b"PK\x05\x06", false).is_err());
    /// ```
    pub fn read(bytes: &[u8], tensors: bool) -> Result<PtnSummary> {
        let ptn = PtnFile::from_bytes(bytes)?;
        Ok(PtnSummary::of(&ptn, bytes, tensors))
    }

    /// The summary of a package already read from `bytes`.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
    /// let ptn = pte_ptn::PtnFile::from_bytes(&bytes)?;
    /// let s = pte::PtnSummary::of(&ptn, &bytes, true);
    /// assert_eq!(s.tensors.map(|t| t.len()), Some(s.constants.len()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of(ptn: &PtnFile<'_>, bytes: &[u8], tensors: bool) -> PtnSummary {
        let program = ptn.native_program(&Default::default()).ok();
        let constants = ptn
            .constants()
            .map(|(key, t)| PtnConstant {
                alias_of: ptn.aliases.get(key).cloned(),
                dtype: pte_ptn::dtype_code(t.dtype),
                key: key.to_string(),
                sha256: pte_pack::sha256_hex(&t.data),
                shape: t.shape.clone(),
                size: t.data.len(),
            })
            .collect();
        PtnSummary {
            aliases: ptn.aliases.clone(),
            constants,
            file_size: bytes.len(),
            format: "ptn",
            metadata: ptn.metadata.clone(),
            methods: program.iter().flat_map(|p| p.methods.iter()).map(method).collect(),
            other_members: ptn.members.iter().map(|m| PtnMember { name: m.name.clone(), size: m.data.len() }).collect(),
            program_size: ptn.program.len(),
            tensors: tensors.then(|| tensor_table(ptn, bytes)),
            version: program.and_then(|p: NativeProgram| p.version),
        }
    }
}

fn method(m: &NativeMethod) -> PtnMethod {
    let metas: BTreeMap<&str, &TensorMeta> =
        m.graph.tensor_values.iter().flatten().map(|t| (t.name.as_str(), &t.meta)).collect();
    let side = |names: &Option<Vec<String>>| -> Vec<PtnValue> {
        names.iter().flatten().map(|n| value(n, metas.get(n.as_str()).copied())).collect()
    };
    PtnMethod {
        constants: m.constants.as_ref().map(Vec::len),
        inputs: m.graph.inputs.as_ref().map(Vec::len),
        mutable_buffers: m.mutable_buffers.as_ref().map(Vec::len),
        name: m.name.clone(),
        nodes: m.graph.nodes.len(),
        outputs: m.graph.outputs.as_ref().map(Vec::len),
        signature: PtnSignature { inputs: side(&m.graph.inputs), outputs: side(&m.graph.outputs) },
    }
}

fn value(name: &str, meta: Option<&TensorMeta>) -> PtnValue {
    PtnValue {
        dim_order: meta.and_then(|m| m.dim_order.clone()),
        dtype: meta.map(|m| m.dtype.to_string()),
        name: name.to_string(),
        sizes: meta.map(|m| m.sizes.iter().flatten().map(|d| PtnDim { max: d.max, min: d.min }).collect()),
    }
}

fn tensor_table(ptn: &PtnFile<'_>, bytes: &[u8]) -> Vec<PtnTensorRow> {
    ptn.tensors()
        .iter()
        .map(|t| PtnTensorRow {
            alias_of: t.alias_of.map(str::to_string),
            dim_order: t.dim_order.clone(),
            dtype: pte_ptn::dtype_code(t.dtype),
            file_range: t.range_in(bytes).map(|r| [r.start, r.end]),
            name: t.key.to_string(),
            nbytes: t.bytes.len(),
            sizes: t.shape.to_vec(),
            stored: t.bytes.len(),
        })
        .collect()
}
