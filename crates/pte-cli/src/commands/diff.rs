//! `pte diff A B`: layout, program and tensor-data differences between two
//! files of one kind; exit 0 when equal, 1 when different, 2 on bad input.

use std::path::PathBuf;

use clap::Args;

use crate::failure::{CmdResult, Failure};

/// Arguments of `pte diff`.
#[derive(Args)]
pub(crate) struct DiffArgs {
    /// First file (.pte, .ptd, .bpte or .ptn).
    a: PathBuf,
    /// Second file, of the same kind.
    b: PathBuf,
    /// Leave out layout differences (headers, offsets, alignment, placement).
    #[arg(long)]
    ignore_layout: bool,
    /// Absolute tolerance for tensor elements.
    #[arg(long, default_value_t = 0.0)]
    atol: f64,
    /// Relative tolerance for tensor elements (|a - b| <= atol + rtol * |b|).
    #[arg(long, default_value_t = 0.0)]
    rtol: f64,
    /// How many differing elements to list per tensor.
    #[arg(long, default_value_t = 10)]
    max_samples: usize,
    /// Print the report as JSON (documented in docs/cli.md).
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(a: DiffArgs) -> CmdResult {
    if !(a.atol >= 0.0 && a.rtol >= 0.0) {
        return Err(Failure::bad_input("--atol and --rtol must be non-negative numbers"));
    }
    let o =
        pte_diff::Options { atol: a.atol, rtol: a.rtol, ignore_layout: a.ignore_layout, max_samples: a.max_samples };
    let progress = crate::progress::Progress::spinner("diff");
    let r = pte_diff::diff_files(&a.a, &a.b, &o)?;
    drop(progress);
    if a.json {
        println!("{}", serde_json::to_string_pretty(&r.to_json())?);
    } else {
        print!("{}", r.to_text(&a.a.display().to_string(), &a.b.display().to_string()));
    }
    if r.is_equal() {
        Ok(())
    } else {
        Err(Failure::invalid(String::new()))
    }
}
