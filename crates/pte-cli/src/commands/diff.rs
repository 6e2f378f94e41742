//! `pte diff A B`: layout, program and tensor-data differences between two
//! files of one kind; exit 0 when equal, 1 when different, 2 on bad input.

use crate::cli::DiffArgs;
use crate::failure::{CmdResult, Failure};

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
