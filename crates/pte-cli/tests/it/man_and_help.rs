//! `pte man [COMMAND]...` and the help of each command: every manual page a
//! page names is one `pte man` prints, and an option shows only in the help
//! of the commands it acts on.

use std::collections::BTreeSet;

use crate::support::{pte, stderr, stdout};

/// `pte man PATH...`, which must succeed.
fn page(path: &[String]) -> String {
    let mut args = vec!["man"];
    args.extend(path.iter().map(String::as_str));
    let o = pte(&args);
    assert_eq!(o.status.code(), Some(0), "pte man {}: {}", path.join(" "), stderr(&o));
    stdout(&o)
}

/// Every `pte-...(1)` a page names, roff's `\-` read as `-`.
fn references(page: &str) -> Vec<String> {
    let text = page.replace("\\-", "-");
    let word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    text.match_indices("(1)")
        .map(|(i, _)| {
            let head = &text[..i];
            &head[head.rfind(|c: char| !word(c)).map_or(0, |k| k + 1)..]
        })
        .filter(|name| name.starts_with("pte-"))
        .map(str::to_string)
        .collect()
}

/// Every page, walked from `pte(1)` through the pages each one names: the
/// command path of each (`["bpte", "unbundle"]`) and its text.
fn pages() -> Vec<(Vec<String>, String)> {
    let mut todo: Vec<Vec<String>> = vec![vec![]];
    let mut named = BTreeSet::new();
    let mut titles = BTreeSet::new();
    let mut out = vec![];
    while let Some(path) = todo.pop() {
        let title = std::iter::once("pte").chain(path.iter().map(String::as_str)).collect::<Vec<_>>().join("-");
        let text = page(&path);
        let th = text.lines().find(|l| l.starts_with(".TH ")).unwrap_or("").replace("\\-", "-");
        assert!(th.starts_with(&format!(".TH {title} 1 ")), "pte man {}: {th}", path.join(" "));
        for r in references(&text) {
            // a page of one of this command's commands, or of a command above it
            if let Some(child) = r.strip_prefix(&format!("{title}-")) {
                if named.insert(r.clone()) {
                    todo.push(path.iter().cloned().chain([child.to_string()]).collect());
                }
            } else {
                assert!(title.starts_with(&format!("{r}-")), "{title}(1) names {r}(1), neither above nor below it");
            }
        }
        titles.insert(title);
        out.push((path, text));
    }
    assert!(named.iter().all(|n| titles.contains(n)), "{named:?} vs {titles:?}");
    out
}

#[test]
fn every_manual_page_a_page_names_is_printed_by_pte_man() {
    let pages = pages();
    let titles: Vec<String> = pages.iter().map(|(p, _)| p.join(" ")).collect();
    // every command has its page, nested ones too, and `help` is none
    for want in ["info", "man", "bpte", "bpte unbundle", "samples import-io", "samples check"] {
        assert!(titles.iter().any(|t| t == want), "no page for {want}: {titles:?}");
    }
    assert!(pages.len() > 25, "{titles:?}");
    assert!(!titles.iter().any(|t| t.split(' ').any(|w| w == "help")), "{titles:?}");
    for (path, text) in &pages {
        assert!(!text.contains("pte\\-help") && !text.contains("help(1)"), "pte man {}: {text}", path.join(" "));
    }
    // a command's page names its parent's
    let info = &pages.iter().find(|(p, _)| p == &["info"]).unwrap().1;
    assert!(info.contains(".SH \"SEE ALSO\"\npte(1)\n"), "{info}");
    let unbundle = &pages.iter().find(|(p, _)| p == &["bpte", "unbundle"]).unwrap().1;
    assert!(unbundle.contains(".SH \"SEE ALSO\"\npte\\-bpte(1)\n"), "{unbundle}");
    // `pte man` alone is the page docs/pte.1 holds
    let top = &pages.iter().find(|(p, _)| p.is_empty()).unwrap().1;
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/pte.1")).unwrap();
    assert_eq!(*top, docs);
    // no page for what is no command: one `pte: ` line naming what there is
    for bad in [&["help"][..], &["nothing"], &["info", "more"], &["bpte", "help"]] {
        let o = pte(&[&["man"][..], bad].concat());
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert!(stderr(&o).starts_with("pte: ") && stderr(&o).lines().count() == 1, "{}", stderr(&o));
        assert!(stdout(&o).is_empty());
    }
    assert!(stderr(&pte(&["man", "bpte", "nothing"])).contains("unbundle, export-samples, bundle"));
}

/// The commands that lock the file they edit in place (docs/cli.md).
const EDITS: [&str; 4] = ["rewrite", "internalize", "samples add", "samples remove"];

#[test]
fn no_wait_shows_only_in_the_help_of_commands_that_edit_in_place() {
    let mut seen = 0;
    for (path, _) in pages() {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let o = pte(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let edits = EDITS.contains(&path.join(" ").as_str());
        seen += usize::from(edits);
        assert_eq!(stdout(&o).contains("--no-wait"), edits, "pte {}:\n{}", args.join(" "), stdout(&o));
    }
    assert_eq!(seen, EDITS.len());
    // still taken before the command or after it, as before, by any command
    let f = crate::support::model("add");
    let f = f.to_str().unwrap();
    for args in [&["--no-wait", "info", f][..], &["info", "--no-wait", f], &["verify", f, "--no-wait"]] {
        let o = pte(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    }
}
