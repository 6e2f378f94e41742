//! The arguments of `pte pack`.

use std::path::PathBuf;

use clap::Args;

/// Arguments of `pte pack`.
#[derive(Args)]
pub(crate) struct PackArgs {
    /// An extract folder (manifest.json, program.json, segment files), or a JSON program from `pte dump` or `flatc --json --strict-json`.
    pub(crate) input: PathBuf,
    /// Output file (written atomically).
    pub(crate) output: PathBuf,
    /// With a JSON input: the bytes of each segment, in segment-table order (repeatable).
    #[arg(long = "segment")]
    pub(crate) segments: Vec<PathBuf>,
    /// With a JSON input: it holds a .ptd's tables (default when OUTPUT ends in .ptd).
    #[arg(long)]
    pub(crate) ptd: bool,
    /// With a JSON input: write the flatbuffer alone, without extended header (only for a program without segments).
    #[arg(long)]
    pub(crate) bare: bool,
    /// With a folder: follow symbolic links (and accept hard-linked files) among its files; a link must still stay inside the folder.
    #[arg(long)]
    pub(crate) allow_links: bool,
    #[command(flatten)]
    pub(crate) layout: crate::layout_args::LayoutArgs,
}
