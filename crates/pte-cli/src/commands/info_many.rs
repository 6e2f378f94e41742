//! `pte info` over many files and folders (walked and shared out to
//! parallel workers by `crate::batch`): in path order, each file's summary
//! under a `==> FILE <==` header, or with `--json` one line per file holding
//! the object `info --json FILE` prints plus `"file"` (an unreadable file's
//! line is `{"file", "error"}`); then a summary. The exit status is the
//! worst result: 2 when any file could not be read.

// serde_json::Value indexing yields Null for a missing key and never panics.
#![allow(clippy::indexing_slicing)]

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::batch;
use crate::commands::info;
use crate::failure::{CmdResult, Exit};

pub(crate) fn run(paths: &[PathBuf], as_json: bool, tensors: bool) -> CmdResult {
    let files = batch::collect(paths)?;
    let results = batch::map(&files, "info", |f| {
        let v = info::value(f, tensors)?;
        // the text is drawn on the worker too, so printing is all that stays serial
        Ok(if as_json { v } else { Value::String(info::text(&v)) })
    });
    let mut unreadable = 0u64;
    for (i, (f, r)) in files.iter().zip(results).enumerate() {
        let path = f.display().to_string();
        match (r, as_json) {
            (Ok(mut v), true) => {
                v["file"] = json!(path);
                println!("{v}");
            }
            (Ok(v), false) => {
                let sep = if i == 0 { "" } else { "\n" };
                print!("{sep}==> {path} <==\n{}", v.as_str().unwrap_or(""));
            }
            (Err(e), true) => {
                unreadable = unreadable.saturating_add(1);
                println!("{}", json!({"file": path, "error": e.to_string()}));
            }
            (Err(e), false) => {
                unreadable = unreadable.saturating_add(1);
                let sep = if i == 0 { "" } else { "\n" };
                print!("{sep}==> {path} <==\nerror: {}\n", e.shown());
            }
        }
    }
    let total = files.len() as u64;
    let read = total.saturating_sub(unreadable);
    if as_json {
        println!("{}", json!({"summary": {"files": total, "read": read, "unreadable": unreadable}}));
    } else {
        println!("\n{}: {read} read, {unreadable} unreadable", crate::style::count(total, "file"));
    }
    batch::worst((unreadable > 0).then_some(Exit::BadInput))
}
