//! docs/cli.md and the README's command list are checked against the clap
//! definition, so a command added, renamed or removed cannot leave them behind.

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use crate::cli::Cli;

    /// Every command path: `info`, `bpte unbundle`, `samples import-io`, ...
    fn commands() -> Vec<(Option<String>, String)> {
        let mut out = vec![];
        for c in Cli::command().get_subcommands() {
            let name = c.get_name().to_string();
            if name == "help" {
                continue;
            }
            let subs: Vec<String> =
                c.get_subcommands().map(|s| s.get_name().to_string()).filter(|n| n != "help").collect();
            if subs.is_empty() {
                out.push((None, name));
            } else {
                out.extend(subs.into_iter().map(|s| (Some(name.clone()), s)));
            }
        }
        out
    }

    fn read(rel: &str) -> String {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel);
        std::fs::read_to_string(&p).unwrap_or_else(|e| format!("cannot read {}: {e}", p.display()))
    }

    /// Whether `text` names the command as `pte PARENT CHILD` or in a
    /// `pte PARENT a|b|c` list.
    fn mentions(text: &str, parent: Option<&str>, name: &str) -> bool {
        match parent {
            None => text.contains(&format!("pte {name}")),
            Some(p) => {
                text.contains(&format!("pte {p} {name}"))
                    || text.match_indices(&format!("pte {p} ")).any(|(i, m)| {
                        let rest = text.get(i.saturating_add(m.len())..).unwrap_or("");
                        let word = rest.split_whitespace().next().unwrap_or("");
                        word.split('|').any(|w| w == name)
                    })
            }
        }
    }

    #[test]
    fn cli_md_documents_every_command() {
        let doc = read("docs/cli.md");
        let missing: Vec<String> = commands()
            .into_iter()
            .filter(|(p, n)| {
                !doc.contains(&format!("`pte {}{n}", p.as_ref().map(|p| format!("{p} ")).unwrap_or_default()))
            })
            .map(|(p, n)| format!("{} {n}", p.unwrap_or_default()))
            .collect();
        assert!(missing.is_empty(), "docs/cli.md lacks a `pte ...` entry for: {missing:?}");
    }

    #[test]
    fn readme_lists_every_command() {
        let readme = read("README.md");
        let missing: Vec<String> = commands()
            .into_iter()
            .filter(|(p, n)| !mentions(&readme, p.as_deref(), n))
            .map(|(p, n)| format!("{} {n}", p.unwrap_or_default()))
            .collect();
        assert!(missing.is_empty(), "README.md's command list lacks: {missing:?}");
    }

    #[test]
    fn the_checks_can_fail() {
        assert!(!mentions("pte samples list|show", Some("samples"), "import-io"));
        assert!(mentions("pte samples list|show FILE", Some("samples"), "show"));
        assert!(!mentions("pte infos", None, "graph"));
    }
}
