//! `pte completions SHELL` and `pte man`: generated from the clap
//! definition itself, so they cannot drift from the commands.

use clap::CommandFactory;

use crate::cli::Cli;
use crate::failure::CmdResult;

pub(crate) fn completions(shell: clap_complete::Shell) -> CmdResult {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "pte", &mut out);
    print!("{}", String::from_utf8_lossy(&out));
    Ok(())
}

pub(crate) fn man() -> CmdResult {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut out)?;
    print!("{}", String::from_utf8_lossy(&out));
    Ok(())
}
