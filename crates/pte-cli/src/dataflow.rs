//! A method's dataflow (walked by `pte_report::graph` from a `.pte` plan or
//! a `.ptn`'s native method) in the two syntaxes of `pte graph`: Graphviz
//! DOT and Mermaid. Delegate calls and moves are drawn as operators are.
//!
//! Both list every node before any edge, while the walk tells them
//! interleaved: the text is written in two walks, the nodes' then the
//! edges', so nothing per node is held however large the method.

use std::io::{self, Write};

use pte_report::graph::{Endpoint, NodeKind, Sink};

/// The syntax written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Syntax {
    Dot,
    Mermaid,
}

/// Writes `s` with `\` and `"` escaped for a DOT string, after its control
/// characters ([`pte_core::style::text`]).
fn dot_escaped(w: &mut dyn Write, s: &str) -> io::Result<()> {
    let s = pte_core::style::text(s);
    let mut rest = &*s;
    while let Some(k) = rest.find(['\\', '"']) {
        let (plain, tail) = rest.split_at(k);
        w.write_all(plain.as_bytes())?;
        let mut chars = tail.chars();
        if let Some(c) = chars.next() {
            w.write_all(if c == '\\' { b"\\\\" } else { b"\\\"" })?;
        }
        rest = chars.as_str();
    }
    w.write_all(rest.as_bytes())
}

/// Writes `s` with `"` escaped for a Mermaid label, after its control
/// characters ([`pte_core::style::text`]).
fn mermaid_escaped(w: &mut dyn Write, s: &str) -> io::Result<()> {
    let s = pte_core::style::text(s);
    let mut parts = s.split('"');
    if let Some(first) = parts.next() {
        w.write_all(first.as_bytes())?;
    }
    for p in parts {
        w.write_all(b"#quot;")?;
        w.write_all(p.as_bytes())?;
    }
    Ok(())
}

/// One of the two walks: writes the nodes or the edges, the first error
/// kept (the walk cannot be stopped, so the rest is skipped).
struct Writing<'w> {
    out: &'w mut dyn Write,
    syntax: Syntax,
    edges: bool,
    error: Option<io::Error>,
}

impl Writing<'_> {
    fn write(&mut self, f: impl FnOnce(&mut dyn Write, Syntax) -> io::Result<()>) {
        if self.error.is_none()
            && let Err(e) = f(self.out, self.syntax)
        {
            self.error = Some(e);
        }
    }
}

impl Sink for Writing<'_> {
    fn method(&mut self, name: &str) {
        if self.edges {
            return;
        }
        self.write(|w, syntax| match syntax {
            Syntax::Dot => {
                w.write_all(b"digraph \"")?;
                dot_escaped(w, name)?;
                w.write_all(b"\" {\n  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=11];\n  edge [fontname=\"Helvetica\", fontsize=9];\n")
            }
            Syntax::Mermaid => w.write_all(b"flowchart TD\n"),
        });
    }
    fn wants_edge_labels(&self) -> bool {
        self.edges
    }
    fn node(&mut self, at: Endpoint, kind: NodeKind, label: &str) {
        if self.edges {
            return;
        }
        self.write(|w, syntax| match syntax {
            Syntax::Dot => {
                let shape = match kind {
                    NodeKind::Input | NodeKind::Output => "shape=oval, style=filled, fillcolor=\"#e8f0fe\"",
                    NodeKind::Data => "shape=note, style=filled, fillcolor=\"#fff4e0\"",
                    _ => "shape=box, style=\"rounded,filled\", fillcolor=\"#f2f2f2\"",
                };
                write!(w, "  {} [label=\"", at.id)?;
                dot_escaped(w, label)?;
                writeln!(w, "\", {shape}];")
            }
            Syntax::Mermaid => {
                let (open, close) = match kind {
                    NodeKind::Input | NodeKind::Output => ("([\"", "\"])"),
                    NodeKind::Data => ("[(\"", "\")]"),
                    _ => ("[\"", "\"]"),
                };
                write!(w, "  {}{open}", at.id)?;
                mermaid_escaped(w, label)?;
                writeln!(w, "{close}")
            }
        });
    }
    fn edge(&mut self, from: Endpoint, to: Endpoint, label: &str) {
        if !self.edges {
            return;
        }
        self.write(|w, syntax| match syntax {
            Syntax::Dot => {
                write!(w, "  {} -> {} [label=\"", from.id, to.id)?;
                dot_escaped(w, label)?;
                w.write_all(b"\"];\n")
            }
            Syntax::Mermaid => {
                write!(w, "  {} -->|\"", from.id)?;
                mermaid_escaped(w, label)?;
                writeln!(w, "\"| {}", to.id)
            }
        });
    }
}

/// Writes the method `walk` tells in `syntax` to `out` (`walk` is called
/// twice and must tell the same both times).
pub(crate) fn write(out: &mut dyn Write, syntax: Syntax, walk: &dyn Fn(&mut dyn Sink)) -> io::Result<()> {
    for edges in [false, true] {
        let mut pass = Writing { out: &mut *out, syntax, edges, error: None };
        walk(&mut pass);
        if let Some(e) = pass.error {
            return Err(e);
        }
    }
    if syntax == Syntax::Dot {
        out.write_all(b"}\n")?;
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn escaped(f: fn(&mut dyn Write, &str) -> io::Result<()>, s: &str) -> String {
        let mut v = vec![];
        f(&mut v, s).unwrap();
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn escapes_as_the_syntaxes_want() {
        assert_eq!(escaped(dot_escaped, r#"a"b\c""#), r#"a\"b\\c\""#);
        assert_eq!(escaped(dot_escaped, "plain"), "plain");
        assert_eq!(escaped(mermaid_escaped, r#""x"y"#), "#quot;x#quot;y");
        assert_eq!(escaped(mermaid_escaped, ""), "");
    }
}
