//! The arguments of `pte shrink`.

use std::ffi::OsString;
use std::path::PathBuf;

/// `pte shrink`.
#[derive(clap::Args)]
pub(crate) struct ShrinkArgs {
    /// The file to shrink (.pte, .bpte, .ptd, .ptn, or any bytes).
    pub(crate) input: PathBuf,
    /// Where the smallest interesting file goes (written atomically).
    #[arg(short, long)]
    pub(crate) output: PathBuf,
    /// Seconds one run of the command may take; a run past it is stopped and counts as not interesting.
    #[arg(long, default_value_t = 60.0, value_name = "SECONDS")]
    pub(crate) timeout_per_run: f64,
    /// Stop after this many runs of the command (the check of the input included).
    #[arg(long, value_name = "N")]
    pub(crate) max_runs: Option<u64>,
    /// Stop starting runs after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub(crate) time: Option<f64>,
    /// Plain byte-level delta debugging only (no structure): the baseline to compare with.
    #[arg(long)]
    pub(crate) bytes_only: bool,
    /// The command, after `--`: `{}` in an argument is replaced by the candidate's path
    /// (appended as the last argument when no argument has `{}`); exit 0 means interesting.
    #[arg(last = true, required = true, value_name = "CMD")]
    pub(crate) command: Vec<OsString>,
}
