//! The arguments of `pte diff`.

use std::path::PathBuf;

use clap::Args;

/// Arguments of `pte diff`.
#[derive(Args)]
pub(crate) struct DiffArgs {
    /// First file (.pte, .ptd, .bpte or .ptn).
    pub(crate) a: PathBuf,
    /// Second file, of the same kind.
    pub(crate) b: PathBuf,
    /// Leave out layout differences (headers, offsets, alignment, placement).
    #[arg(long)]
    pub(crate) ignore_layout: bool,
    /// Absolute tolerance for tensor elements.
    #[arg(long, default_value_t = 0.0)]
    pub(crate) atol: f64,
    /// Relative tolerance for tensor elements (|a - b| <= atol + rtol * |b|).
    #[arg(long, default_value_t = 0.0)]
    pub(crate) rtol: f64,
    /// How many differing elements to list per tensor.
    #[arg(long, default_value_t = 10)]
    pub(crate) max_samples: usize,
    /// Print the report as JSON (documented in docs/cli.md).
    #[arg(long)]
    pub(crate) json: bool,
}
