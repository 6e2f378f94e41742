//! `pte`: inspect, dump, verify, rewrite and extract ExecuTorch files.
//!
//! Exit status: 0 success; 1 the file was read and found wanting (verify
//! violations, a failed samples check); 2 bad input, usage or I/O. Errors are
//! one line on stderr.
//!
//! It owns the command line: one module per command (`commands/`), per-format
//! views (`formats/`), output styles and the exit-code contract. It owns no
//! format logic: reading, writing, verifying and comparing are the library
//! crates' (`pte-file`, `pte-ptn`, `pte-samples`, `pte-diff`, `pte-gen`).

#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::Parser;

#[macro_use]
mod out;

mod batch;
mod cli;
mod commands;
mod dataflow;
mod docs_check;
mod extract_out;
mod failure;
mod files;
mod formats;
mod input;
mod layout_args;
mod paths;
mod progress;
mod stream;
mod style;
mod verifier_doc;

fn main() -> ExitCode {
    // A file-size limit must fail a save with an error, not kill it mid-way.
    pte_core::ignore_file_size_signal();
    let cli = cli::Cli::parse();
    paths::set_lock_wait(if cli.no_wait { pte_core::LockWait::Fail } else { pte_core::LockWait::Block });
    match commands::run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            if !f.message.is_empty() {
                eprintln!("pte: {f}");
            }
            ExitCode::from(f.code())
        }
    }
}
