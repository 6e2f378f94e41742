//! The selected-operators YAML, written the way PyYAML's `safe_dump`
//! (block style, keys sorted, width 80, ASCII only) writes the document
//! `gen_oplist.py` builds, so the two agree byte for byte.
//!
//! The document's shape is fixed; only three kinds of strings vary:
//! operator names (mapping keys), kernel keys and file names (list items).
//! Each is written plain, single-quoted or double-quoted by PyYAML's rules:
//! plain unless it would read back as something other than a string or
//! holds characters plain text cannot, double-quoted when it holds
//! anything outside printable ASCII, long lines folded at a space. A key of
//! 123 characters or more, or an empty or multi-line one, is a complex key
//! (`? key` then `: value`).

use std::collections::BTreeMap;

use super::UnionOperator;

/// Lines are folded past this column, as PyYAML's default width.
const WIDTH: usize = 80;

/// The whole document.
pub(super) fn selected_operators(ops: &BTreeMap<String, UnionOperator>) -> String {
    let mut w = Writer::default();
    w.text("build_features: []\ncustom_classes: []\net_kernel_metadata:");
    let called: Vec<(&String, &UnionOperator)> = ops.iter().filter(|(_, o)| !o.kernel_keys.is_empty()).collect();
    if called.is_empty() {
        w.text(" {}");
    }
    for (name, op) in called {
        w.key(name, 2);
        w.list(op.kernel_keys.iter(), 2);
    }
    w.text("\ninclude_all_non_op_selectives: false\ninclude_all_operators: false\nkernel_metadata: {}\noperators:");
    if ops.is_empty() {
        w.text(" {}");
    }
    for (name, op) in ops {
        w.key(name, 2);
        w.indent(4);
        w.text("debug_info:");
        w.list(op.files.iter(), 4);
        for flag in ["include_all_overloads: false", "is_root_operator: true", "is_used_for_training: true"] {
            w.indent(4);
            w.text(flag);
        }
    }
    w.text("\n");
    w.out
}

/// How a scalar is written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Style {
    Plain,
    Single,
    Double,
}

/// An output stream with the state PyYAML's emitter keeps: the column (in
/// characters), whether the last thing written was white space, and
/// whether only indentation has been written on the line.
struct Writer {
    out: String,
    column: usize,
    whitespace: bool,
    indention: bool,
}

impl Default for Writer {
    fn default() -> Self {
        Writer { out: String::new(), column: 0, whitespace: true, indention: true }
    }
}

impl Writer {
    /// Fixed ASCII text with no line break inside (a line break may end it).
    fn text(&mut self, s: &str) {
        for line in s.split_inclusive('\n') {
            self.out.push_str(line);
            if line.ends_with('\n') {
                self.column = 0;
                self.whitespace = true;
                self.indention = true;
            } else {
                self.column = self.column.saturating_add(line.len());
                self.whitespace = false;
                self.indention = false;
            }
        }
    }

    fn chars(&mut self, s: &[char]) {
        self.out.extend(s.iter());
        self.column = self.column.saturating_add(s.len());
    }

    fn indicator(&mut self, indicator: &str, need_space: bool, whitespace: bool, indention: bool) {
        if !self.whitespace && need_space {
            self.out.push(' ');
            self.column = self.column.saturating_add(1);
        }
        self.out.push_str(indicator);
        self.column = self.column.saturating_add(indicator.chars().count());
        self.whitespace = whitespace;
        self.indention = self.indention && indention;
    }

    fn line_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
        self.whitespace = true;
        self.indention = true;
    }

    /// A new line at `indent`, unless the line holds only indentation so far.
    fn indent(&mut self, indent: usize) {
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.line_break();
        }
        if self.column < indent {
            self.whitespace = true;
            for _ in self.column..indent {
                self.out.push(' ');
            }
            self.column = indent;
        }
    }

    /// A key of a block mapping at `indent` and its `:`, the value to follow.
    fn key(&mut self, key: &str, indent: usize) {
        let chars: Vec<char> = key.chars().collect();
        let a = analyze(&chars);
        self.indent(indent);
        // the emitter counts the key's tag (`!!str`, 5 characters) too
        if chars.len().saturating_add(5) < 128 && !a.empty && !a.multiline {
            self.scalar(&chars, &a, true, indent.saturating_add(2));
            self.indicator(":", false, false, false);
        } else {
            self.indicator("?", true, false, true);
            self.scalar(&chars, &a, false, indent.saturating_add(2));
            self.indent(indent);
            self.indicator(":", true, false, true);
        }
    }

    /// A block sequence of strings, the value of the key just written; at
    /// `indent` when it follows a simple key, one level deeper after `? key`.
    fn list<'s>(&mut self, items: impl Iterator<Item = &'s String>, indent: usize) {
        let indent = if self.indention { indent.saturating_add(2) } else { indent };
        for item in items {
            self.indent(indent);
            self.indicator("-", true, false, true);
            let chars: Vec<char> = item.chars().collect();
            let a = analyze(&chars);
            self.scalar(&chars, &a, false, indent.saturating_add(2));
        }
    }

    fn scalar(&mut self, s: &[char], a: &Analysis, simple_key: bool, indent: usize) {
        let split = !simple_key;
        match a.style(s, simple_key) {
            Style::Plain => self.plain(s, split, indent),
            Style::Single => self.single_quoted(s, split, indent),
            Style::Double => self.double_quoted(s, split, indent),
        }
    }

    fn plain(&mut self, s: &[char], split: bool, indent: usize) {
        if s.is_empty() {
            return;
        }
        if !self.whitespace {
            self.out.push(' ');
            self.column = self.column.saturating_add(1);
        }
        self.whitespace = false;
        self.indention = false;
        let mut spaces = false;
        let mut start = 0usize;
        for end in 0..=s.len() {
            let ch = s.get(end).copied();
            if spaces {
                if ch != Some(' ') {
                    if start.saturating_add(1) == end && self.column > WIDTH && split {
                        self.indent(indent);
                        self.whitespace = false;
                        self.indention = false;
                    } else {
                        self.chars(part(s, start, end));
                    }
                    start = end;
                }
            } else if ch.is_none_or(|c| c == ' ' || is_break(c)) {
                self.chars(part(s, start, end));
                start = end;
            }
            if let Some(c) = ch {
                spaces = c == ' ';
            }
        }
    }

    fn single_quoted(&mut self, s: &[char], split: bool, indent: usize) {
        self.indicator("'", true, false, false);
        let (mut spaces, mut breaks) = (false, false);
        let mut start = 0usize;
        for end in 0..=s.len() {
            let ch = s.get(end).copied();
            if spaces {
                if ch != Some(' ') {
                    if start.saturating_add(1) == end && self.column > WIDTH && split && start != 0 && end != s.len() {
                        self.indent(indent);
                    } else {
                        self.chars(part(s, start, end));
                    }
                    start = end;
                }
            } else if breaks {
                if ch.is_none_or(|c| !is_break(c)) {
                    if s.get(start) == Some(&'\n') {
                        self.line_break();
                    }
                    // only '\n' gets here: other breaks force double quotes
                    for _ in start..end {
                        self.line_break();
                    }
                    self.indent(indent);
                    start = end;
                }
            } else if ch.is_none_or(|c| c == ' ' || c == '\'' || is_break(c)) && start < end {
                self.chars(part(s, start, end));
                start = end;
            }
            if ch == Some('\'') {
                self.chars(&['\'', '\'']);
                start = end.saturating_add(1);
            }
            if let Some(c) = ch {
                spaces = c == ' ';
                breaks = is_break(c);
            }
        }
        self.indicator("'", false, false, false);
    }

    fn double_quoted(&mut self, s: &[char], split: bool, indent: usize) {
        self.indicator("\"", true, false, false);
        let mut start = 0usize;
        for end in 0..=s.len() {
            let ch = s.get(end).copied();
            if ch.is_none_or(|c| {
                matches!(c, '"' | '\\' | '\u{85}' | '\u{2028}' | '\u{2029}' | '\u{FEFF}') || !is_printable_ascii(c)
            }) {
                if start < end {
                    self.chars(part(s, start, end));
                    start = end;
                }
                if let Some(c) = ch {
                    let escaped = escape(c);
                    self.out.push_str(&escaped);
                    self.column = self.column.saturating_add(escaped.len());
                    start = end.saturating_add(1);
                }
            }
            let inside = end > 0 && end.saturating_add(1) < s.len();
            if inside
                && (ch == Some(' ') || start >= end)
                && self.column.saturating_add(end) > WIDTH.saturating_add(start)
                && split
            {
                self.chars(part(s, start, end));
                self.chars(&['\\']);
                start = start.max(end);
                self.indent(indent);
                self.whitespace = false;
                self.indention = false;
                if s.get(start) == Some(&' ') {
                    self.chars(&['\\']);
                }
            }
        }
        self.indicator("\"", false, false, false);
    }
}

/// `s[start..end]`, empty when `start >= end`.
fn part(s: &[char], start: usize, end: usize) -> &[char] {
    s.get(start..end).unwrap_or_default()
}

fn is_break(c: char) -> bool {
    matches!(c, '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_printable_ascii(c: char) -> bool {
    (' '..='~').contains(&c)
}

fn is_space_or_break(c: char) -> bool {
    matches!(c, '\0' | ' ' | '\t' | '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// A character of a double-quoted scalar as an escape.
fn escape(c: char) -> String {
    let short = match c {
        '\0' => "0",
        '\u{07}' => "a",
        '\u{08}' => "b",
        '\t' => "t",
        '\n' => "n",
        '\u{0B}' => "v",
        '\u{0C}' => "f",
        '\r' => "r",
        '\u{1B}' => "e",
        '"' => "\"",
        '\\' => "\\",
        '\u{85}' => "N",
        '\u{A0}' => "_",
        '\u{2028}' => "L",
        '\u{2029}' => "P",
        _ => "",
    };
    let n = u32::from(c);
    match (short, n) {
        ("", 0..=0xFF) => format!("\\x{n:02X}"),
        ("", 0x100..=0xFFFF) => format!("\\u{n:04X}"),
        ("", _) => format!("\\U{n:08X}"),
        (e, _) => format!("\\{e}"),
    }
}

/// What a scalar's characters allow.
#[derive(Debug)]
struct Analysis {
    empty: bool,
    multiline: bool,
    plain: bool,
    single: bool,
}

impl Analysis {
    fn style(&self, s: &[char], simple_key: bool) -> Style {
        if !reads_as_other_type(s) && !(simple_key && (self.empty || self.multiline)) && self.plain {
            Style::Plain
        } else if self.single && !(simple_key && self.multiline) {
            Style::Single
        } else {
            Style::Double
        }
    }
}

fn analyze(s: &[char]) -> Analysis {
    if s.is_empty() {
        return Analysis { empty: true, multiline: false, plain: true, single: true };
    }
    let mut indicators = s.starts_with(&['-', '-', '-']) || s.starts_with(&['.', '.', '.']);
    let (mut breaks, mut special) = (false, false);
    let (mut leading, mut trailing_space, mut trailing_break) = (false, false, false);
    let (mut break_space, mut space_break) = (false, false);
    let (mut previous_space, mut previous_break) = (false, false);
    let last = s.len().saturating_sub(1);
    let mut preceded_by_space = true;
    for (i, &c) in s.iter().enumerate() {
        let followed_by_space = s.get(i.saturating_add(1)).is_none_or(|&n| is_space_or_break(n));
        if i == 0 {
            indicators |= "#,[]{}&*!|>'\"%@`".contains(c)
                || (matches!(c, '?' | ':') && followed_by_space)
                || (c == '-' && followed_by_space);
        } else {
            indicators |= (c == ':' && followed_by_space) || (c == '#' && preceded_by_space);
        }
        breaks |= is_break(c);
        special |= c != '\n' && !is_printable_ascii(c);
        if c == ' ' {
            leading |= i == 0;
            trailing_space |= i == last;
            break_space |= previous_break;
            (previous_space, previous_break) = (true, false);
        } else if is_break(c) {
            leading |= i == 0;
            trailing_break |= i == last;
            space_break |= previous_space;
            (previous_space, previous_break) = (false, true);
        } else {
            (previous_space, previous_break) = (false, false);
        }
        preceded_by_space = is_space_or_break(c);
    }
    let mut plain = !(leading || trailing_space || trailing_break);
    let mut single = true;
    if break_space {
        plain = false;
        single = false;
    }
    if space_break || special {
        plain = false;
        single = false;
    }
    if breaks || indicators {
        plain = false;
    }
    Analysis { empty: false, multiline: breaks, plain, single }
}

/// Whether YAML reads the text, unquoted, as something other than a
/// string: null, a boolean, an integer, a float, a timestamp, or the merge
/// and value keys (PyYAML's implicit resolvers).
fn reads_as_other_type(s: &[char]) -> bool {
    let text: String = s.iter().collect();
    let t = text.as_str();
    match s.first() {
        None => true,
        Some('~') => t == "~",
        Some('<') => t == "<<",
        Some('=') => t == "=",
        Some('y' | 'Y' | 'n' | 'N' | 't' | 'T' | 'f' | 'F' | 'o' | 'O') => {
            matches!(
                t,
                "yes"
                    | "Yes"
                    | "YES"
                    | "no"
                    | "No"
                    | "NO"
                    | "true"
                    | "True"
                    | "TRUE"
                    | "false"
                    | "False"
                    | "FALSE"
                    | "on"
                    | "On"
                    | "ON"
                    | "off"
                    | "Off"
                    | "OFF"
                    | "null"
                    | "Null"
                    | "NULL"
            )
        }
        Some('-' | '+' | '.' | '0'..='9') => is_float(s) || is_int(s) || is_timestamp(s),
        Some(_) => false,
    }
}

/// A cursor over characters for the resolvers' patterns.
struct Scan<'s> {
    s: &'s [char],
    at: usize,
}

impl Scan<'_> {
    fn peek(&self) -> Option<char> {
        self.s.get(self.at).copied()
    }
    fn peek2(&self) -> Option<char> {
        self.s.get(self.at.saturating_add(1)).copied()
    }
    fn eat(&mut self, f: impl Fn(char) -> bool) -> bool {
        if self.peek().is_some_and(f) {
            self.at = self.at.saturating_add(1);
            true
        } else {
            false
        }
    }
    /// Eats characters while `f` holds; how many.
    fn run(&mut self, f: impl Fn(char) -> bool) -> usize {
        let from = self.at;
        while self.eat(&f) {}
        self.at.saturating_sub(from)
    }
    fn done(&self) -> bool {
        self.at >= self.s.len()
    }
    fn sign(&mut self) {
        self.eat(|c| c == '-' || c == '+');
    }
    /// `(:[0-5]?[0-9])+`; what follows it is never a digit.
    fn sexagesimal(&mut self) -> bool {
        let mut groups = 0usize;
        while self.eat(|c| c == ':') {
            if self.peek().is_some_and(|c| ('0'..='5').contains(&c)) && self.peek2().is_some_and(|c| c.is_ascii_digit())
            {
                self.at = self.at.saturating_add(2);
            } else if !self.eat(|c| c.is_ascii_digit()) {
                return false;
            }
            groups = groups.saturating_add(1);
        }
        groups > 0 && !self.peek().is_some_and(|c| c.is_ascii_digit())
    }
    /// `[eE][-+][0-9]+`, optional.
    fn exponent(&mut self) -> bool {
        if self.eat(|c| c == 'e' || c == 'E') {
            self.eat(|c| c == '-' || c == '+') && self.run(|c| c.is_ascii_digit()) > 0
        } else {
            true
        }
    }
}

fn digit_(c: char) -> bool {
    c.is_ascii_digit() || c == '_'
}

fn is_float(s: &[char]) -> bool {
    let text: String = s.iter().collect();
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(&text);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") || matches!(text.as_str(), ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let mut c = Scan { s, at: 0 };
    if c.eat(|c| c == '.') {
        // \.[0-9][0-9_]*([eE][-+][0-9]+)?
        return c.eat(|c| c.is_ascii_digit()) && {
            c.run(digit_);
            c.exponent() && c.done()
        };
    }
    c.sign();
    if !c.eat(|c| c.is_ascii_digit()) {
        return false;
    }
    c.run(digit_);
    if c.peek() == Some(':') && !c.sexagesimal() {
        return false;
    }
    // [0-9][0-9_]*\.[0-9_]*(exponent)?, or the sexagesimal form, whose
    // fraction takes no exponent
    let sexagesimal = c.s.get(..c.at).is_some_and(|p| p.contains(&':'));
    c.eat(|c| c == '.') && {
        c.run(digit_);
        (sexagesimal || c.exponent()) && c.done()
    }
}

fn is_int(s: &[char]) -> bool {
    let mut c = Scan { s, at: 0 };
    c.sign();
    let rest = c.s.get(c.at..).unwrap_or_default();
    if rest == ['0'] {
        return true;
    }
    if rest.starts_with(&['0', 'b']) {
        c.at = c.at.saturating_add(2);
        return c.run(|c| matches!(c, '0' | '1' | '_')) > 0 && c.done();
    }
    if rest.starts_with(&['0', 'x']) {
        c.at = c.at.saturating_add(2);
        return c.run(|c| c.is_ascii_hexdigit() || c == '_') > 0 && c.done();
    }
    if c.eat(|c| c == '0') {
        return c.run(|c| matches!(c, '0'..='7' | '_')) > 0 && c.done();
    }
    if !c.eat(|c| matches!(c, '1'..='9')) {
        return false;
    }
    c.run(digit_);
    c.done() || (c.sexagesimal() && c.done())
}

fn is_timestamp(s: &[char]) -> bool {
    let mut c = Scan { s, at: 0 };
    let digits = |c: &mut Scan<'_>, least: usize, most: usize| {
        let n = c.run(|x| x.is_ascii_digit());
        (least..=most).contains(&n)
    };
    if !(digits(&mut c, 4, 4) && c.eat(|x| x == '-')) {
        return false;
    }
    let from = c.at;
    // yyyy-mm-dd exactly
    if digits(&mut c, 2, 2) && c.eat(|x| x == '-') && digits(&mut c, 2, 2) && c.done() {
        return true;
    }
    c.at = from;
    if !(digits(&mut c, 1, 2) && c.eat(|x| x == '-') && digits(&mut c, 1, 2)) {
        return false;
    }
    if !(c.eat(|x| x == 'T' || x == 't') || c.run(|x| x == ' ' || x == '\t') > 0) {
        return false;
    }
    if !(digits(&mut c, 1, 2)
        && c.eat(|x| x == ':')
        && digits(&mut c, 2, 2)
        && c.eat(|x| x == ':')
        && digits(&mut c, 2, 2))
    {
        return false;
    }
    if c.eat(|x| x == '.') {
        c.run(|x| x.is_ascii_digit());
    }
    c.run(|x| x == ' ' || x == '\t');
    if c.done() {
        return true;
    }
    if c.eat(|x| x == 'Z') {
        return c.done();
    }
    c.eat(|x| x == '-' || x == '+')
        && digits(&mut c, 1, 2)
        && (c.done() || (c.eat(|x| x == ':') && digits(&mut c, 2, 2) && c.done()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn the_implicit_types_match_pyyaml() {
        for t in [
            "",
            "~",
            "null",
            "NULL",
            "yes",
            "Off",
            "1",
            "-1",
            "0",
            "0o7",
            "017",
            "0b10",
            "0x1F",
            "1_000",
            "1:30",
            "1.5",
            "-1.5e+3",
            ".5",
            "1.",
            "+.inf",
            ".NaN",
            "1:30.5",
            "2001-12-14",
            "2001-12-14t21:59:43.10-05:00",
            "2001-12-14 21:59:43.10 -5",
            "2001-1-1 1:00:00",
            "<<",
            "=",
        ] {
            let expect = !matches!(t, "0o7");
            assert_eq!(reads_as_other_type(&chars(t)), expect, "{t:?}");
        }
        for t in [
            "aten::add.out",
            "v1/6;0,1",
            "1.5.5",
            "1e5",
            "1.5e5",
            ".",
            "-",
            "1:60",
            "1:3a",
            "2001-12-1",
            "yes!",
            "2001-12-14x",
            "0b",
            "0x",
            "08",
            "+",
            "._1",
            "2001-12-14 1:00",
        ] {
            assert!(!reads_as_other_type(&chars(t)), "{t:?}");
        }
    }

    #[test]
    fn styles_follow_pyyaml() {
        let style = |t: &str| analyze(&chars(t)).style(&chars(t), false);
        assert_eq!(style("aten::add.out"), Style::Plain);
        assert_eq!(style("v1/6;0,1|6;0,1"), Style::Plain);
        assert_eq!(style("a b"), Style::Plain);
        assert_eq!(style("a: b"), Style::Single);
        assert_eq!(style("- x"), Style::Single);
        assert_eq!(style("-x"), Style::Plain);
        assert_eq!(style("#c"), Style::Single);
        assert_eq!(style("a #b"), Style::Single);
        assert_eq!(style("a#b"), Style::Plain);
        assert_eq!(style(" lead"), Style::Single);
        assert_eq!(style("1.5"), Style::Single);
        assert_eq!(style("é"), Style::Double);
        assert_eq!(style("tab\tx"), Style::Double);
        assert_eq!(style("line\nbreak"), Style::Single);
        assert_eq!(style("a \nb"), Style::Double);
    }
}
