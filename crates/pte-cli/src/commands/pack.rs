//! `pte pack`: an extract folder, or a JSON program plus segment files, back
//! into a `.pte` or `.ptd` (the inverse of `extract` and `dump`).

use std::path::PathBuf;

use clap::Args;

use pte_file::pack::{from_json, read_dir, Packed};
use pte_file::ptd::{PtdLayout, PtdWriteOptions};

use crate::failure::{at, CmdResult, Failure};

/// Arguments of `pte pack`.
#[derive(Args)]
pub(crate) struct PackArgs {
    /// An extract folder (manifest.json, program.json, segment files), or a JSON program from `pte dump` or `flatc --json --strict-json`.
    input: PathBuf,
    /// Output file (written atomically).
    output: PathBuf,
    /// With a JSON input: the bytes of each segment, in segment-table order (repeatable).
    #[arg(long = "segment")]
    segments: Vec<PathBuf>,
    /// With a JSON input: it holds a .ptd's tables (default when OUTPUT ends in .ptd).
    #[arg(long)]
    ptd: bool,
    /// With a JSON input: write the flatbuffer alone, without extended header (only for a program without segments).
    #[arg(long)]
    bare: bool,
    #[command(flatten)]
    layout: crate::layout_args::LayoutArgs,
}

fn usage(msg: &str) -> Failure {
    Failure::bad_input(msg)
}

pub(crate) fn run(a: PackArgs) -> CmdResult {
    let progress = crate::progress::Progress::spinner("pack: reading");
    let mut packed = if a.input.is_dir() {
        if !a.segments.is_empty() || a.ptd || a.bare {
            return Err(usage("--segment, --ptd and --bare apply to a JSON input; a folder's manifest says all that"));
        }
        read_dir(&a.input).map_err(at(&a.input))?
    } else {
        let text = String::from_utf8(pte_core::read_input(&a.input)?)
            .map_err(|e| Failure::bad_input(format!("{}: not UTF-8 text: {e}", a.input.display())))?;
        let mut segs = Vec::with_capacity(a.segments.len());
        for s in &a.segments {
            segs.push(pte_core::read_input(s)?);
        }
        let ptd = a.ptd || a.output.extension().is_some_and(|e| e == "ptd");
        let mut p = from_json(&text, segs, ptd).map_err(at(&a.input))?;
        if let Packed::Pte { bare, .. } = &mut p {
            *bare = a.bare;
        }
        p
    };
    match &mut packed {
        Packed::Pte { options, .. } => *options = a.layout.apply(*options)?,
        Packed::Ptd { options, .. } => {
            if !a.layout.keeps_all_but_segments() {
                return Err(usage("a .ptd takes only --segment-alignment"));
            }
            if let Some(x) = a.layout.segment_alignment {
                *options = PtdWriteOptions::new(PtdLayout::Python { segment_alignment: x })?;
            }
        }
    }
    progress.message("pack: writing");
    let n = packed.save(&a.output).map_err(at(&a.output))?;
    drop(progress);
    println!("wrote {} ({n} bytes)", a.output.display());
    Ok(())
}
