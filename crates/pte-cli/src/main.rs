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
    // Ctrl-C or SIGTERM during a save removes its temporary file and fails it.
    pte_core::stop_saves_on_signals();
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    paths::set_lock_wait(if cli.no_wait() { pte_core::LockWait::Fail } else { pte_core::LockWait::Block });
    let result = commands::run(cli.command);
    if let Some(sig) = pte_core::interrupted() {
        // the save under way was abandoned, or the runner of a check was
        // stopped (which says so); the shell's convention for a process
        // stopped by a signal is 128 plus its number
        match &result {
            Err(f) if f.message.starts_with("interrupted by signal") => eprintln!("pte: {f}"),
            _ => eprintln!("pte: interrupted by signal {sig}; the file being saved was not written"),
        }
        return ExitCode::from(u8::try_from(sig).map_or(255, |s| s.saturating_add(128)));
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            if !f.message.is_empty() {
                eprintln!("pte: {}", f.shown());
            }
            ExitCode::from(f.code())
        }
    }
}

/// An argument error as the one `pte: ` line every failure gets (exit 2):
/// clap's message, then the usage line. Help and version requests print as
/// clap prints them.
fn usage_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
    }
    let text = e.render().to_string();
    // the message may list items on indented lines before the first blank one
    let message: Vec<&str> = text.lines().take_while(|l| !l.trim().is_empty()).map(str::trim).collect();
    let message = message.join(" ");
    let message = message.trim_start_matches("error: ");
    match text.lines().find_map(|l| l.strip_prefix("Usage: ")) {
        Some(usage) => eprintln!("pte: {message} (usage: {}; --help says more)", usage.trim()),
        None => eprintln!("pte: {message}"),
    }
    ExitCode::from(2)
}
