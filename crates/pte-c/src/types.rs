//! The plain C structs the accessors fill. Every pointer in them points
//! into the handle (or report) that filled them and stays valid while it
//! lives; none is to be freed by the caller.

use std::ffi::c_char;
use std::ptr;

use pte_core::FileKind;

use crate::report::PteSeverity;
use crate::samples::PteToleranceLevel;

/// An ABI version: bumped on any change that breaks a program built
/// against an older `pte.h` (compare with [`crate::pte_abi_version`]).
pub const PTE_ABI_VERSION: u32 = 1;

/// A file's kind, read from its content.
///
/// ```
/// assert_eq!(pte_c::PteKind::from(pte_core::FileKind::Ptn), pte_c::PteKind::Ptn);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PteKind {
    /// Not an ExecuTorch file.
    Unknown = 0,
    /// A `.pte` program (also one whose identifier was damaged).
    Pte = 1,
    /// A `.ptd` tensor-data file.
    Ptd = 2,
    /// A `.ptn` package.
    Ptn = 3,
    /// A `.bpte` bundled program.
    Bpte = 4,
}

/// The constant of each of the door's kinds, in [`pte::KINDS`]' order (so
/// numbered from 1 in it).
const KNOWN: [PteKind; 4] = [PteKind::Pte, PteKind::Ptd, PteKind::Ptn, PteKind::Bpte];

impl From<FileKind> for PteKind {
    fn from(k: FileKind) -> PteKind {
        pte::KINDS.into_iter().zip(KNOWN).find(|(known, _)| *known == k).map_or(PteKind::Unknown, |(_, c)| c)
    }
}

/// Bytes of the file: a segment or a constant.
///
/// ```
/// let b = pte_c::PteBlob::empty();
/// assert!(b.data.is_null() && b.len == 0);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PteBlob {
    /// The first byte (in the handle's mapping or copy).
    pub data: *const u8,
    /// How many bytes.
    pub len: usize,
    /// Where they start in the file.
    pub offset: u64,
}

impl PteBlob {
    /// A blob of nothing (a null pointer), what a failed call leaves.
    ///
    /// ```
    /// assert_eq!(pte_c::PteBlob::empty().offset, 0);
    /// ```
    pub fn empty() -> PteBlob {
        PteBlob { data: ptr::null(), len: 0, offset: 0 }
    }
}

/// A named blob: a program's named data (`NamedData`), or a `.ptd` entry.
///
/// ```
/// assert_eq!(std::mem::align_of::<pte_c::PteNamedData>(), 8);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PteNamedData {
    /// Its key (NUL-terminated UTF-8).
    pub key: *const c_char,
    /// The stored segment holding it.
    pub segment: u32,
    /// Its bytes.
    pub data: *const u8,
    /// How many bytes.
    pub len: usize,
    /// Where they start in the file.
    pub offset: u64,
}

/// A delegate's processed blob, the bytes its backend's `init` receives.
///
/// ```
/// assert_eq!(std::mem::align_of::<pte_c::PteDelegate>(), 8);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PteDelegate {
    /// The backend id (`XnnpackBackend`; empty when unset).
    pub id: *const c_char,
    /// The method (execution plan) it belongs to.
    pub plan: usize,
    /// Its index among the method's delegates.
    pub index: usize,
    /// Whether the blob is inline in the flatbuffer (else in a segment).
    pub inline_data: bool,
    /// Its bytes.
    pub data: *const u8,
    /// How many bytes.
    pub len: usize,
    /// Where they start in the file.
    pub offset: u64,
}

/// One finding of a verification: `pte verify --json`'s entry.
///
/// ```
/// assert_eq!(std::mem::align_of::<pte_c::PteFinding>(), 8);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PteFinding {
    /// A violation or a warning.
    pub severity: PteSeverity,
    /// The rule's stable id (`segment.bounds`).
    pub rule: *const c_char,
    /// The field path (`execution_plan[0].values[7].val.sizes`).
    pub path: *const c_char,
    /// What is wrong.
    pub message: *const c_char,
    /// Whether `offset` is known.
    pub has_offset: bool,
    /// The byte offset in the file, when `has_offset`.
    pub offset: u64,
    /// Whether the stock runtime refuses a file breaking the rule.
    pub has_runtime_error: bool,
    /// The runtime's `Error` code, when `has_runtime_error`.
    pub runtime_error_code: u32,
    /// The code's name (`InvalidProgram`); null without a runtime error.
    pub runtime_error_name: *const c_char,
    /// When the runtime refuses: `load`, `load_method` or `execute`; null without one.
    pub runtime_error_stage: *const c_char,
}

/// An elementwise tolerance: `|actual - expected| <= atol + rtol * |expected|`.
///
/// ```
/// let t = pte_c::PteTolerance { atol: 1e-8, rtol: 1e-5 };
/// assert!(t.rtol > t.atol);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PteTolerance {
    /// Absolute tolerance.
    pub atol: f64,
    /// Relative tolerance.
    pub rtol: f64,
}

impl From<pte_samples::Tolerance> for PteTolerance {
    fn from(t: pte_samples::Tolerance) -> PteTolerance {
        PteTolerance { atol: t.atol, rtol: t.rtol }
    }
}

/// A set of recorded calls to one method.
///
/// ```
/// assert_eq!(std::mem::align_of::<pte_c::PteSampleSetInfo>(), 8);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PteSampleSetInfo {
    /// The method every call invokes.
    pub method: *const c_char,
    /// The set's name.
    pub name: *const c_char,
    /// How many samples.
    pub sample_count: usize,
    /// Whether the set gives a tolerance.
    pub has_tolerance: bool,
    /// The set's own tolerance, when `has_tolerance`.
    pub tolerance: PteTolerance,
}

/// A sample: calls run in order from the method's initial state.
///
/// ```
/// assert_eq!(std::mem::align_of::<pte_c::PteSampleInfo>(), 8);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PteSampleInfo {
    /// Its label; null when it has none.
    pub name: *const c_char,
    /// How many calls.
    pub call_count: usize,
    /// Whether the sample gives a tolerance.
    pub has_tolerance: bool,
    /// The sample's own tolerance, when `has_tolerance`.
    pub tolerance: PteTolerance,
}

/// One call: its inputs, expected outputs and the tolerance they are
/// compared with.
///
/// ```
/// assert_eq!(std::mem::align_of::<pte_c::PteCallInfo>(), 8);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PteCallInfo {
    /// How many inputs.
    pub input_count: usize,
    /// How many expected outputs.
    pub output_count: usize,
    /// The tolerance the outputs are checked with: the call's, else the
    /// sample's, else the set's, else the default.
    pub tolerance: PteTolerance,
    /// Which level gave it.
    pub tolerance_level: PteToleranceLevel,
}

/// What kind a value is.
///
/// ```
/// assert_eq!(pte_c::PteValueKind::TensorList as i32, 6);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PteValueKind {
    /// A tensor (`tensor_count` 1).
    Tensor = 0,
    /// An integer (`int_value`).
    Int = 1,
    /// A float (`float_value`).
    Float = 2,
    /// A boolean (`bool_value`).
    Bool = 3,
    /// A string (`string_value`).
    String = 4,
    /// No value.
    None = 5,
    /// A list of `tensor_count` tensors.
    TensorList = 6,
}

/// A call's input or output; its tensors are read with
/// `pte_call_input_tensor` / `pte_call_output_tensor`.
///
/// ```
/// assert_eq!(std::mem::align_of::<pte_c::PteValue>(), 8);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PteValue {
    /// Which field holds it.
    pub kind: PteValueKind,
    /// For `PTE_VALUE_KIND_INT`.
    pub int_value: i64,
    /// For `PTE_VALUE_KIND_FLOAT`.
    pub float_value: f64,
    /// For `PTE_VALUE_KIND_BOOL`.
    pub bool_value: bool,
    /// For `PTE_VALUE_KIND_STRING`; null otherwise.
    pub string_value: *const c_char,
    /// Tensors: 1 for a tensor, the list's length for a list, else 0.
    pub tensor_count: usize,
}

/// A recorded tensor: dtype, shape and little-endian bytes.
///
/// ```
/// assert_eq!(std::mem::align_of::<pte_c::PteTensor>(), 8);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PteTensor {
    /// The safetensors dtype code (`F32`, `BF16`, `I64`, `BOOL`, ...).
    pub dtype: *const c_char,
    /// How many dimensions.
    pub ndim: usize,
    /// The shape, `ndim` entries (row-major, contiguous).
    pub shape: *const u64,
    /// The bytes.
    pub data: *const u8,
    /// How many bytes.
    pub nbytes: usize,
    /// Whether `data` points into the file itself (stored, not compressed).
    pub in_file: bool,
}

#[cfg(test)]
mod tests {
    use super::PteKind;

    /// The values `pte.h` publishes, each kind by its name.
    #[test]
    fn each_kind_keeps_its_constant() {
        let by_name: Vec<_> = pte::KINDS.into_iter().map(|k| (k.extension(), PteKind::from(k) as u32)).collect();
        assert_eq!(by_name, [(Some("pte"), 1), (Some("ptd"), 2), (Some("ptn"), 3), (Some("bpte"), 4)]);
        assert_eq!(PteKind::from(pte::kind_of(b"hello, world")), PteKind::Unknown);
    }
}
