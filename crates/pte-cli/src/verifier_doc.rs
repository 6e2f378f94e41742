//! docs/verifier.md is generated from the format crates' rule catalogues, so
//! a rule added, renamed or redescribed cannot leave the page behind.
//! `PTE_BLESS=1 cargo test -p pte-cli verifier_doc` rewrites the page.

use pte_core::Catalogue;

/// Every catalogue, in the order the page shows them.
pub(crate) fn catalogues() -> Vec<Catalogue> {
    let mut all = pte_verify::CATALOGUES.to_vec();
    all.push(pte_ptn::verify::CATALOGUE);
    all.push(pte_samples::CATALOGUE);
    all
}

/// The runtime's error codes as a table, with the rules that lead to each.
#[cfg(test)]
fn error_table() -> String {
    let mut out = String::from("| code | name | what it means | rules that lead to it |\n| --- | --- | --- | --- |\n");
    for e in pte_core::errors::ALL {
        let rules: Vec<String> = catalogues()
            .iter()
            .flat_map(|c| c.rules.iter())
            .filter(|r| r.refusal().is_some_and(|f| f.error == *e))
            .map(|r| r.name().to_string())
            .collect();
        let rules = if rules.is_empty() { "—".to_string() } else { rules.join(", ") };
        out.push_str(&format!("| 0x{:02x} | `{}` | {} | {rules} |\n", e.code, e.name, e.means));
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use pte_core::Rule;

    /// What every rule is checked by, before the per-format sections.
    const PREAMBLE: &str = "\
# Verifier rules

`pte verify FILE` checks every rule below that applies to the file's kind and
reports each violation as `[rule] message at field.path (byte N)`, followed,
when the stock runtime enforces the rule, by the error it returns and the stage
at which it returns it (`Program::load`, `load_method` or `execute`). Rule
names are stable: tools may match on them (`pte verify --json` gives
`{\"valid\", \"violations\": [{\"rule\", \"path\", \"offset\", \"message\",
\"runtime_error\": {\"code\", \"hex\", \"name\", \"stage\"}}]}`, the last only
for rules the runtime enforces). `pte explain CODE|NAME|RULE` says what a
runtime error code means and which rules detect it.

Each format crate declares its rules as typed values (`pte_core::Rule`) in
public catalogues: `pte_verify::CATALOGUES`, `pte_ptn::verify::CATALOGUE`
and `pte_samples::CATALOGUE`. This page is generated from them; do not edit it
by hand (`PTE_BLESS=1 cargo test -p pte-cli verifier_doc` rewrites it).
";

    /// Where this verifier and the stock runtime part ways, after the sections.
    const KNOWN_DIFFERENCES: &str = "\
## Known differences from the stock runtime

* Strings must be valid UTF-8 (the flatbuffers verifier requires it; the C++
  runtime accepts any bytes in names). Such files fail `flatbuffer.structure`.
* Vector element alignment is not a difference: `flatbuffer.structure` holds
  a vector's length word to 4 bytes and its elements to the buffer's bounds,
  as the C++ verifier does, but not its elements to their own alignment, so a
  `[long]`/`[double]`/`[uint64]` vector 4 bytes off an 8-byte boundary passes
  ([H10](load-rules.md#h10)). The same holds for the native graph
  (`IntListArg`, `FloatListArg`); the .ptd, .bpte and XNNPACK schemas have
  no 8-byte vectors (a .bpte's embedded program is verified as a program).
  Scalar fields are still held to their size's alignment, as the runtime
  holds them.
* `segment.overlap`, `segment.bounds` against `segment_data_size`,
  `subsegment.offsets`, `header.segment_base`, `header.required`,
  `ptd.duplicate_key`, `ptd.size` and `link.size` are stricter than the
  runtime, which leaves these to its data loader or does not check them.
* `instruction.delegate` is checked at load time here; the runtime only fails
  when the instruction executes.
* Operator availability (kernels registered in a given runtime build) and
  backend availability are not checked: they depend on the runtime, not the file.
";

    use super::{catalogues, error_table};

    /// `text` with every load-rule code (`H3`, `trap 6`) a link to its
    /// definition in docs/load-rules.md.
    fn link_load_rules(text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut from = 0;
        for c in crate::docs_check::citations(text) {
            out.push_str(text.get(from..c.start).unwrap_or(""));
            out.push_str(&format!("[{}](load-rules.md#{})", text.get(c.start..c.end).unwrap_or(""), c.anchor));
            from = c.end;
        }
        out.push_str(text.get(from..).unwrap_or(""));
        out
    }

    /// The whole page.
    fn render() -> String {
        let mut out = String::from(PREAMBLE);
        for c in catalogues() {
            out.push('\n');
            out.push_str(&link_load_rules(&c.markdown()));
        }
        out.push_str("\n## The runtime's error codes\n\nThe codes of `executorch::runtime::Error` (numbered as in the 1.5.1 headers), and the rules above whose breach the runtime answers with each.\n\n");
        out.push_str(&error_table());
        out.push('\n');
        out.push_str(KNOWN_DIFFERENCES);
        out
    }

    #[test]
    fn verifier_doc_is_generated_from_the_catalogues() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/verifier.md");
        let page = render();
        if std::env::var_os("PTE_BLESS").is_some_and(|v| v == "1") {
            let written = std::fs::write(&path, &page);
            assert!(written.is_ok(), "cannot write {}: {written:?}", path.display());
            return;
        }
        // a packaged crate has no docs/ beside it: only the repository checks the page
        let Ok(on_disk) = std::fs::read_to_string(&path) else { return };
        assert!(
            on_disk == page,
            "docs/verifier.md is not what the catalogues generate: run PTE_BLESS=1 cargo test -p pte-cli verifier_doc"
        );
    }

    /// Rules citing a runtime load rule (H3, M7, T10, D5, ...) that the
    /// runtime nevertheless does not answer with an error code.
    const CITED_BUT_UNDIAGNOSED: &[&str] = &["ptd.structure"];

    #[test]
    fn every_rule_the_runtime_enforces_names_its_error() {
        let cites_load_rule = |text: &str| {
            text.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
                let mut chars = w.chars();
                chars.next().is_some_and(|c| "HPMTD".contains(c)) && w.len() > 1 && chars.all(|c| c.is_ascii_digit())
            })
        };
        let mut missing = vec![];
        for c in catalogues() {
            for r in c.rules {
                if cites_load_rule(r.checks()) && r.refusal().is_none() && !CITED_BUT_UNDIAGNOSED.contains(&r.name()) {
                    missing.push(r.name());
                }
            }
        }
        assert!(missing.is_empty(), "rules the runtime enforces but with no error code: {missing:?}");
        assert!(cites_load_rule("the schema version is 0 (H12)") && !cites_load_rule("HTML and M"));
    }

    #[test]
    fn verifier_doc_names_every_rule_once() {
        let page = render();
        let mut seen = BTreeSet::new();
        for c in catalogues() {
            for r in c.rules {
                assert!(Rule::is_well_named(r.name()), "{r} breaks the naming convention");
                assert!(seen.insert(r.name()), "{r} is in two catalogues");
                assert_eq!(page.matches(&format!("| `{r}` |")).count(), 1, "{r}");
            }
        }
        // the known differences name rules that exist
        for word in KNOWN_DIFFERENCES.split('`').skip(1).step_by(2).filter(|w| w.contains('.')) {
            assert!(seen.contains(word), "known differences name {word}, which no catalogue has");
        }
    }
}
