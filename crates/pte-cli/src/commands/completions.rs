//! `pte completions SHELL` and `pte man [COMMAND]...`: generated from the
//! clap definition itself, so they cannot drift from the commands.

use clap::CommandFactory;

use crate::cli::Cli;
use crate::failure::{CmdResult, Failure};

pub(crate) fn completions(shell: clap_complete::Shell) -> CmdResult {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "pte", &mut out);
    print!("{}", String::from_utf8_lossy(&out));
    Ok(())
}

pub(crate) fn man(path: &[String]) -> CmdResult {
    print!("{}", man_page(path)?);
    Ok(())
}

/// The manual page (roff) of `pte` (an empty `path`) or of the command at
/// `path` (`["bpte", "unbundle"]`), titled `pte-bpte-unbundle`. Every page
/// it lists among its commands (`pte-bpte-unbundle(1)`) is one this prints
/// too, and a command's page names its parent's under SEE ALSO. `help` is
/// no command here: it has no page.
pub(crate) fn man_page(path: &[String]) -> Result<String, Failure> {
    let mut root = without_help_command(Cli::command());
    // names each command's page after its path (`pte-bpte-unbundle`)
    root.build();
    let version = root.get_version().unwrap_or_default().to_string();
    let mut parent: Option<&clap::Command> = None;
    let mut at = &root;
    for name in path {
        let next = at.find_subcommand(name).ok_or_else(|| {
            let known: Vec<&str> = at.get_subcommands().map(clap::Command::get_name).collect();
            let whose = at.get_bin_name().unwrap_or("pte");
            if known.is_empty() {
                Failure::bad_input(format!("`{whose}` has no commands, so no page {name:?}"))
            } else {
                Failure::bad_input(format!("`{whose}` has no command {name:?} (its commands: {})", known.join(", ")))
            }
        })?;
        parent = Some(at);
        at = next;
    }
    let mut out = Vec::new();
    clap_mangen::Man::new(at.clone()).source(format!("pte {version}")).render(&mut out)?;
    let mut page = String::from_utf8_lossy(&out).into_owned();
    if let Some(p) = parent {
        let title = p.get_display_name().unwrap_or_else(|| p.get_name());
        // roff: a hyphen in running text is `\-`
        page.push_str(&format!(".SH \"SEE ALSO\"\n{}(1)\n", title.replace('-', "\\-")));
    }
    Ok(page)
}

/// `cmd` without clap's `help` command, at every level: it is no page of
/// its own, so the pages must not list it.
fn without_help_command(cmd: clap::Command) -> clap::Command {
    let names: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_string()).collect();
    names.iter().fold(cmd.disable_help_subcommand(true), |c, n| c.mut_subcommand(n, without_help_command))
}
