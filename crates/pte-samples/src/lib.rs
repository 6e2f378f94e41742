//! The `.ptn` samples sidecar: recorded method calls that let anyone check
//! a package still computes what the exporter saw.
//!
//! A set lives in two members, `samples/<method>/<set>/index.json` (the
//! versioned index of `docs/samples.md`) and
//! `samples/<method>/<set>/data.safetensors` (its tensors). Program loaders
//! ignore both. A [`Sample`] is an ordered list of [`Call`]s run from the
//! method's initial state with no reset between them, so stateful methods (an
//! LLM's prefill then teacher-forced decode steps) can be checked.
//!
//! * [`read_samples`] / [`parse_set`] read strictly, each rule failure its
//!   own [`SampleRule`]; tensors borrow from the package bytes.
//! * [`write_samples`], [`put_set`], [`remove_set`] change a package in
//!   memory; [`put_set_in_file`] and [`remove_set_from_file`] do it on disk
//!   atomically. Writers return loose-tolerance [`Warning`]s as data.
//! * [`compare`] checks one value; [`verify_samples`] replays every sample
//!   through any [`Runner`]; [`check_actual`] checks outputs another runtime
//!   stored in a safetensors file.
//!
//! It owns the sidecar's meaning (index, values, tolerances, comparison,
//! replay); the package container and its atomic save are `pte-ptn`'s.
//!
//! ```
//! use pte_samples::*;
//! use pte_ptn::{Dtype, PtnTensor};
//! let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
//! let mut ptn = pte_ptn::PtnFile::from_bytes(&bytes)?;
//! let x = PtnTensor::new(Dtype::F32, vec![1], 2.0f32.to_le_bytes().to_vec())?;
//! let mut set = SampleSet::new("forward", "smoke");
//! set.samples.push(Sample { calls: vec![Call { inputs: vec![Value::Tensor(x.clone())], outputs: vec![Value::Tensor(x)], tolerance: None }], ..Default::default() });
//! write_samples(&mut ptn, &[set.clone()])?;
//! let written = ptn.to_bytes()?;
//! let again = pte_ptn::PtnFile::from_bytes(&written)?;
//! assert_eq!(read_samples(&again)?, vec![set]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

mod bundled;
mod compare;
mod error;
mod index;
mod limits;
mod location;
mod matrix;
mod model;
mod names;
mod process;
mod protocol;
mod read;
mod report;
pub mod rules;
mod serve;
mod signature;
mod source;
mod tolerance;
mod verify;
mod wire;
mod write;

pub use bundled::{bundle_from_sets, bundled_sets, dtype_of, scalar_type_of, BUNDLED_SET};
pub use compare::{compare, error_stats, tensor_preview, Mismatch};
pub use error::{Error, Result, SampleRule};
pub use index::{FORMAT_TAG, INDEX_VERSION};
pub use limits::SampleLimits;
pub use matrix::{Cell, Matrix, NamedReport};
pub use model::{Call, Sample, SampleSet, Tensor, Tolerance, Value, DEFAULT_TOLERANCE, WARN_TOLERANCE};
pub use names::{check_name, MAX_NAME_LEN};
pub use process::{ProcessRunner, STDERR_LINE_MAX, STDERR_TAIL_LINES};
pub use protocol::{MAX_HEADER_LEN, PROTOCOL, PROTOCOL_VERSION};
pub use pte_schema::ErrorKind;
pub use read::{check_sidecar, list_sets, parse_set, read_samples, read_samples_with, Location};
pub use report::{CallResult, CheckReport, Failure, Outcome, Problem};
pub use rules::CATALOGUE;
pub use serve::serve;
pub use signature::{check_signature, require_signature};
pub use source::{open_set_dir, set_dirs, with_source_sets, Selection};
pub use tolerance::{resolve, tolerance_warnings, Level, Warning};
pub use verify::{check, check_actual, verify_samples, verify_sets, Engine, RunError, RunResult, Runner};
pub use wire::{MAX_METHODS, MAX_PARSED_VALUES, MAX_TEXT_SHOWN};
pub use write::{
    add_sets_to_file, encode_set, put_set, put_set_in_file, put_set_in_file_with, remove_set, remove_set_from_file,
    remove_set_from_file_with, write_samples, EncodedSet,
};

/// The package directory holding every set.
pub const SAMPLES_DIR: &str = "samples";
/// A set's index file name.
pub const INDEX_FILE: &str = "index.json";
/// A set's tensor file name.
pub const DATA_FILE: &str = "data.safetensors";
