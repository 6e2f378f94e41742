//! `pte pack`: an extract folder, or a JSON program plus segment files, back
//! into a `.pte` or `.ptd` (the inverse of `extract` and `dump`).

use pte_file::ptd::{PtdLayout, PtdWriteOptions};
use pte_pack::{from_json, PackOptions, Packed};

use crate::cli::PackArgs;
use crate::failure::{at, CmdResult, Failure};

fn usage(msg: &str) -> Failure {
    Failure::bad_input(msg)
}

pub(crate) fn run(a: PackArgs) -> CmdResult {
    let progress = crate::progress::Progress::spinner("pack: reading");
    let how = if a.input.is_dir() {
        if !a.segments.is_empty() || a.ptd || a.bare {
            return Err(usage("--segment, --ptd and --bare apply to a JSON input; a folder's manifest says all that"));
        }
        let options = PackOptions { allow_links: a.allow_links, relayout: !a.layout.keeps_everything() };
        let mut packed = pte::pack_dir(&a.input, &options).map_err(at(&a.input))?;
        match packed.file_mut() {
            Some(p) => apply_layout(p, &a.layout)?,
            None if !a.layout.keeps_everything() => {
                return Err(usage("a package folder takes no layout options (they apply to .pte and .ptd)"));
            }
            None => {}
        }
        progress.message("pack: writing");
        let n = packed.save(&a.output).map_err(at(&a.output))?;
        match packed.note() {
            None if packed.edited().is_empty() => {
                format!("wrote {} ({n} bytes, the source's bytes as stored)", a.output.display())
            }
            None => format!(
                "wrote {} ({n} bytes, the source's layout; edited in place: {})",
                a.output.display(),
                packed.edited().join(", ")
            ),
            Some(why) => format!("wrote {} ({n} bytes, encoded again: {why})", a.output.display()),
        }
    } else {
        if a.allow_links {
            return Err(usage("--allow-links applies to a folder input"));
        }
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
        apply_layout(&mut p, &a.layout)?;
        progress.message("pack: writing");
        let n = p.save(&a.output).map_err(at(&a.output))?;
        format!("wrote {} ({n} bytes)", a.output.display())
    };
    drop(progress);
    println!("{how}");
    check_written(&a.output)
}

fn apply_layout(packed: &mut Packed, layout: &crate::layout_args::LayoutArgs) -> CmdResult {
    match packed {
        Packed::Pte { options, .. } => *options = layout.apply(*options)?,
        Packed::Ptd { options, .. } => {
            if !layout.keeps_all_but_segments() {
                return Err(usage("a .ptd takes only --segment-alignment"));
            }
            if let Some(x) = layout.segment_alignment {
                *options = PtdWriteOptions::new(PtdLayout::Python { segment_alignment: x })?;
            }
        }
        Packed::Verbatim(_) => {}
    }
    Ok(())
}

/// Verifies what was written: a file the runtime would refuse is kept (it
/// may be what the user meant to build, for a test) but named, exit 1.
fn check_written(output: &std::path::Path) -> CmdResult {
    let report = crate::commands::verify::report(output, &[])?;
    if report.is_ok() {
        return Ok(());
    }
    for v in &report.violations {
        println!("{}: {}", output.display(), crate::style::text(&pte::finding_line(v)));
    }
    Err(Failure::invalid(format!(
        "{}: written, but it breaks {} the runtime checks (the file is kept; `pte verify` tells the same)",
        output.display(),
        pte_core::style::count(report.violations.len() as u64, "rule")
    )))
}
