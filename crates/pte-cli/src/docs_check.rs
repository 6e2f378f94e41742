//! docs/cli.md and the README's command list are checked against the clap
//! definition, so a command added, renamed or removed cannot leave them behind;
//! every load-rule code (`H3`, `T10`, `trap 6`, ...) cited in the code or the
//! docs must be defined in docs/load-rules.md.

/// A citation of a load rule in some text: its byte range and the anchor of
/// its heading in docs/load-rules.md (`h3`, `trap-6`).
#[cfg(test)]
pub(crate) struct Citation {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) anchor: String,
}

/// The letters docs/load-rules.md groups its codes under.
#[cfg(test)]
const CODE_LETTERS: &str = "HPMTNSD";

/// Every load-rule citation in `text`: a word made of one of
/// [`CODE_LETTERS`] and a number from 1 (`H3`, `D15`), or `trap N`.
#[cfg(test)]
pub(crate) fn citations(text: &str) -> Vec<Citation> {
    let bytes = text.as_bytes();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let digits_from = |i: usize| bytes.get(i..).map_or(0, |r| r.iter().take_while(|b| b.is_ascii_digit()).count());
    let mut out = vec![];
    let mut i = 0usize;
    while i < bytes.len() {
        let at_word_start = i == 0 || !bytes.get(i.wrapping_sub(1)).is_some_and(|b| is_word(*b));
        let mut found = None;
        if at_word_start {
            let first = bytes.get(i).copied().unwrap_or(0);
            let n = digits_from(i.saturating_add(1));
            let after = i.saturating_add(1).saturating_add(n);
            if CODE_LETTERS.as_bytes().contains(&first)
                && (1..=2).contains(&n)
                && bytes.get(i.saturating_add(1)) != Some(&b'0')
                && !bytes.get(after).is_some_and(|b| is_word(*b))
            {
                let code = text.get(i..after).unwrap_or("");
                found = Some((after, code.to_ascii_lowercase()));
            } else if text.get(i..i.saturating_add(5)).is_some_and(|w| w.eq_ignore_ascii_case("trap ")) {
                let n = digits_from(i.saturating_add(5));
                let after = i.saturating_add(5).saturating_add(n);
                if n > 0 && !bytes.get(after).is_some_and(|b| is_word(*b)) {
                    found = Some((after, format!("trap-{}", text.get(i.saturating_add(5)..after).unwrap_or(""))));
                }
            }
        }
        match found {
            Some((end, anchor)) => {
                out.push(Citation { start: i, end, anchor });
                i = end;
            }
            None => i = i.saturating_add(1),
        }
    }
    out
}

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
        let want = crate::commands::completions::man_page(&[]).unwrap_or_else(|e| e.message);
        assert!(read("docs/pte.1") == want, "docs/pte.1 is stale: regenerate it with `pte man > docs/pte.1`");
    }

    /// The anchors GitHub gives the headings of a markdown page: lower case,
    /// spaces as dashes, punctuation other than `-` and `_` dropped.
    fn anchors(page: &str) -> std::collections::BTreeSet<String> {
        page.lines()
            .filter(|l| l.starts_with('#'))
            .map(|l| {
                l.trim_start_matches('#')
                    .trim()
                    .to_lowercase()
                    .chars()
                    .filter_map(|c| match c {
                        ' ' => Some('-'),
                        c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                        _ => None,
                    })
                    .collect()
            })
            .collect()
    }

    /// Every `.rs` and `.md` file under `dir`, skipping build output and
    /// generated code (whose identifiers look like codes).
    fn sources(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().to_string();
            if p.is_dir() && !p.is_symlink() {
                if !matches!(name.as_str(), "target" | "generated" | "node_modules") && !name.starts_with('.') {
                    sources(&p, out);
                }
            } else if name.ends_with(".rs") || name.ends_with(".md") {
                out.push(p);
            }
        }
    }

    #[test]
    fn every_load_rule_cited_is_defined() {
        let page = read("docs/load-rules.md");
        let defined = anchors(&page);
        assert!(defined.contains("h1") && defined.contains("trap-6"), "docs/load-rules.md lost its headings");
        // the crates are only beside us in the repository, not in a package
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut files = vec![];
        if root.join("crates/pte-cli/Cargo.toml").is_file() {
            sources(&root.join("crates"), &mut files);
            files.push(root.join("README.md"));
        }
        sources(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs"), &mut files);
        let mut undefined = vec![];
        for f in &files {
            let Ok(text) = std::fs::read_to_string(f) else { continue };
            for c in super::citations(&text) {
                if !defined.contains(&c.anchor) {
                    undefined.push(format!("{}: {}", f.display(), text.get(c.start..c.end).unwrap_or("")));
                }
            }
            for (i, _) in text.match_indices("load-rules.md#") {
                let rest = text.get(i.saturating_add(14)..).unwrap_or("");
                let anchor: String =
                    rest.chars().take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_').collect();
                // an empty anchor is this check's own source, building one
                if !anchor.is_empty() && !defined.contains(&anchor) {
                    undefined.push(format!("{}: load-rules.md#{anchor}", f.display()));
                }
            }
        }
        assert!(undefined.is_empty(), "load rules cited but not defined in docs/load-rules.md: {undefined:?}");
    }

    #[test]
    fn the_checks_can_fail() {
        let found: Vec<String> =
            super::citations("(H3, T10) M0 XH00 BT12 trap 6; trap 'x'; D1-D4").into_iter().map(|c| c.anchor).collect();
        assert_eq!(found, ["h3", "t10", "trap-6", "d1", "d4"]);
        assert!(anchors("### H1\n## The runtime's error codes\n").contains("the-runtimes-error-codes"));
        assert!(!mentions("pte samples list|show", Some("samples"), "import-io"));
        assert!(mentions("pte samples list|show FILE", Some("samples"), "show"));
        assert!(!mentions("pte infos", None, "graph"));
        assert!(!names_option("`--max-files N`", "--max"));
        assert!(names_option("[--json]", "--json"));
        let doc = "see `pte a`\n\n## `pte a [--x]`\n\ntext\n\n## `pte b`\n\n`--y`\n";
        assert!(names_option(section(doc, "a"), "--x") && !names_option(section(doc, "a"), "--y"));
    }
}
