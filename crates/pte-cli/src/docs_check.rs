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

    /// `docs/` is linked into the crate, so its checks run in the package too;
    /// the workspace README is not, and `readme()` is `None` outside the repository.
    fn read(rel: &str) -> String {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
        std::fs::read_to_string(&p).unwrap_or_else(|e| format!("cannot read {}: {e}", p.display()))
    }

    fn readme() -> Option<String> {
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md")).ok()
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
        let Some(readme) = readme() else { return };
        let missing: Vec<String> = commands()
            .into_iter()
            .filter(|(p, n)| !mentions(&readme, p.as_deref(), n))
            .map(|(p, n)| format!("{} {n}", p.unwrap_or_default()))
            .collect();
        assert!(missing.is_empty(), "README.md's command list lacks: {missing:?}");
    }

    /// Every long option of every command, with the command path it belongs to.
    fn options() -> Vec<(String, String)> {
        fn walk(c: &clap::Command, path: &str, out: &mut Vec<(String, String)>) {
            for a in c.get_arguments() {
                if a.is_global_set() && !path.is_empty() {
                    continue;
                }
                if let Some(long) = a.get_long().filter(|l| !matches!(*l, "help" | "version")) {
                    out.push((path.to_string(), format!("--{long}")));
                }
            }
            for sub in c.get_subcommands().filter(|s| s.get_name() != "help") {
                let p = if path.is_empty() { sub.get_name().to_string() } else { format!("{path} {}", sub.get_name()) };
                walk(sub, &p, out);
            }
        }
        let mut out = vec![];
        walk(&Cli::command(), "", &mut out);
        out
    }

    /// The part of docs/cli.md about `pte PATH`: from its heading (or else
    /// the first line naming it in backquotes) to the next `## ` heading (a
    /// `pte PATH` not found gives the whole text).
    fn section<'d>(doc: &'d str, path: &str) -> &'d str {
        let named = format!("`pte {path}");
        let heading =
            ["\n## ", "\n### "].iter().find_map(|h| doc.find(&format!("{h}{named}")).map(|i| i.saturating_add(1)));
        let Some(start) = heading.or_else(|| doc.find(&named)) else { return doc };
        let head = doc.get(..start).and_then(|d| d.rfind('\n')).map_or(0, |i| i.saturating_add(1));
        let rest = doc.get(head..).unwrap_or("");
        let end = rest.get(1..).and_then(|r| r.find("\n## ")).map_or(rest.len(), |i| i.saturating_add(1));
        rest.get(..end).unwrap_or(rest)
    }

    /// Whether `text` names `option` as an option (not as the start of a longer one).
    fn names_option(text: &str, option: &str) -> bool {
        text.match_indices(option).any(|(i, _)| {
            let next = text.get(i.saturating_add(option.len())..).and_then(|r| r.chars().next());
            !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
        })
    }

    #[test]
    fn cli_md_documents_every_option_where_its_command_is() {
        let doc = read("docs/cli.md");
        let missing: Vec<String> = options()
            .into_iter()
            .filter(|(p, o)| !names_option(if p.is_empty() { &doc } else { section(&doc, p) }, o))
            .map(|(p, o)| if p.is_empty() { format!("pte {o}") } else { format!("pte {p} {o}") })
            .collect();
        assert!(missing.is_empty(), "docs/cli.md's section of each command does not mention: {missing:?}");
    }

    #[test]
    fn readme_command_list_names_every_option() {
        let Some(readme) = readme() else { return };
        let start = readme.find("## The `pte` command").unwrap_or(0);
        let rest = readme.get(start..).unwrap_or("");
        let list = rest.get(..rest.get(1..).and_then(|r| r.find("\n## ")).unwrap_or(rest.len())).unwrap_or(rest);
        let missing: Vec<String> = options()
            .into_iter()
            .filter(|(_, o)| !names_option(list, o))
            .map(|(p, o)| format!("pte {p} {o}"))
            .collect();
        assert!(missing.is_empty(), "README.md's command list never mentions: {missing:?}");
    }

    #[test]
    fn the_man_page_in_docs_is_the_generated_one() {
        let mut out = Vec::new();
        let rendered = clap_mangen::Man::new(Cli::command()).render(&mut out);
        assert!(rendered.is_ok());
        let want = String::from_utf8_lossy(&out);
        assert!(read("docs/pte.1") == want, "docs/pte.1 is stale: regenerate it with `pte man > docs/pte.1`");
    }

    #[test]
    fn the_checks_can_fail() {
        assert!(!mentions("pte samples list|show", Some("samples"), "import-io"));
        assert!(mentions("pte samples list|show FILE", Some("samples"), "show"));
        assert!(!mentions("pte infos", None, "graph"));
        assert!(!names_option("`--max-files N`", "--max"));
        assert!(names_option("[--json]", "--json"));
        let doc = "see `pte a`\n\n## `pte a [--x]`\n\ntext\n\n## `pte b`\n\n`--y`\n";
        assert!(names_option(section(doc, "a"), "--x") && !names_option(section(doc, "a"), "--y"));
    }
}
