//! Writing HTML by hand, safely: every text and attribute value goes
//! through [`escape`], numbers through [`thousands`], so a tensor named
//! `<script>` stays a name.

use std::fmt::Write as _;

/// Text or an attribute value with `& < > " '` escaped.
///
/// ```
/// assert_eq!(pte_report::html::escape(r#"<a href="x">&'"#), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
/// ```
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if let Some(entity) = markup_entity(c) {
            out.push_str(entity);
            continue;
        }
        match c {
            '\'' => out.push_str("&#39;"),
            // control characters other than tab and newlines are not
            // allowed in HTML text; a name holding one shows U+FFFD
            c if c.is_control() && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// The entity for a character that markup text and attribute values
/// both escape, the page's HTML as the layout's SVG (`& < > "`); `None`
/// for any other. The apostrophe is each writer's own (`&#39;` in HTML,
/// `&apos;` in XML), as is what a control character becomes.
pub(crate) fn markup_entity(c: char) -> Option<&'static str> {
    Some(match c {
        '&' => "&amp;",
        '<' => "&lt;",
        '>' => "&gt;",
        '"' => "&quot;",
        _ => return None,
    })
}

/// `1,234,567`: a count or a byte size as the page shows it.
///
/// ```
/// assert_eq!(pte_report::html::thousands(1234567), "1,234,567");
/// assert_eq!(pte_report::html::thousands(12), "12");
/// ```
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len().saturating_mul(4) / 3);
    let len = digits.len();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && len.saturating_sub(i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A float as the page shows it: fixed formatting, so the same value always
/// reads the same (`0.125`, `-3.5e-7`, `NaN`).
///
/// ```
/// use pte_report::html::float;
/// assert_eq!(float(0.125), "0.125");
/// assert_eq!(float(-3.5e-7), "-3.5e-7");
/// assert_eq!(float(1.0 / 3.0), "0.333333");
/// assert_eq!(float(2.5e9), "2.5e9");
/// assert_eq!(float(f64::NEG_INFINITY), "-inf");
/// ```
pub fn float(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if x == 0.0 {
        return "0".into();
    }
    let a = x.abs();
    if (1e-4..1e6).contains(&a) {
        let s = format!("{x:.6}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        return s.to_string();
    }
    let s = format!("{x:.5e}");
    match s.split_once('e') {
        Some((m, e)) => format!("{}e{e}", m.trim_end_matches('0').trim_end_matches('.')),
        None => s,
    }
}

/// A table's header row: one `<th scope="col">` per column.
///
/// ```
/// assert_eq!(pte_report::html::head_row(&["a", "b"]), r#"<tr><th scope="col">a</th><th scope="col">b</th></tr>"#);
/// ```
pub fn head_row(cols: &[&str]) -> String {
    let mut s = String::from("<tr>");
    for c in cols {
        let _ = write!(s, "<th scope=\"col\">{}</th>", escape(c));
    }
    s.push_str("</tr>");
    s
}

/// A row of text cells (escaped), with an optional class.
///
/// ```
/// assert_eq!(pte_report::html::row(Some("tensor"), &["w", "<1>"]), r#"<tr class="tensor"><td>w</td><td>&lt;1&gt;</td></tr>"#);
/// ```
pub fn row<S: AsRef<str>>(class: Option<&str>, cells: &[S]) -> String {
    let mut s = match class {
        Some(c) => format!("<tr class=\"{}\">", escape(c)),
        None => String::from("<tr>"),
    };
    for c in cells {
        let _ = write!(s, "<td>{}</td>", escape(c.as_ref()));
    }
    s.push_str("</tr>");
    s
}

/// A two-column table of facts: a `<th scope="row">` per name.
///
/// ```
/// let t = pte_report::html::facts("summary", &[("bytes".into(), "12".into())]);
/// assert!(t.contains(r#"<th scope="row">bytes</th><td>12</td>"#));
/// ```
pub fn facts(class: &str, rows: &[(String, String)]) -> String {
    let mut s = format!("<table class=\"{}\">", escape(class));
    for (k, v) in rows {
        let _ = write!(s, "<tr><th scope=\"row\">{}</th><td>{}</td></tr>", escape(k), escape(v));
    }
    s.push_str("</table>");
    s
}

/// `<p class="unreadable">` saying what could not be read and why.
///
/// ```
/// assert_eq!(pte_report::html::unreadable("the tensors", "bad"), r#"<p class="unreadable">The tensors could not be read: bad</p>"#);
/// ```
pub fn unreadable(what: &str, why: &str) -> String {
    let mut what = escape(what);
    if let Some(first) = what.get(..1) {
        what = format!("{}{}", first.to_uppercase(), what.get(1..).unwrap_or(""));
    }
    format!("<p class=\"unreadable\">{what} could not be read: {}</p>", escape(why))
}

/// A count with thousands separators and its noun agreeing (`1 part`, `1,024 parts`).
///
/// ```
/// assert_eq!(pte_report::html::counted(1, "entry"), "1 entry");
/// assert_eq!(pte_report::html::counted(1024, "entry"), "1,024 entries");
/// ```
pub fn counted(n: u64, noun: &str) -> String {
    let word = pte_core::style::count(n, noun);
    let noun = word.split_once(' ').map_or("", |(_, w)| w);
    format!("{} {noun}", thousands(n))
}

/// An SVG coordinate with at most two decimals (`12`, `12.5`, `12.25`),
/// written without the slow exact float formatting: drawings hold tens of
/// thousands of them.
///
/// ```
/// use pte_report::html::Coord;
/// assert_eq!(Coord(12.0).to_string(), "12");
/// assert_eq!(Coord(12.504).to_string(), "12.5");
/// assert_eq!(Coord(-0.256).to_string(), "-0.26");
/// assert_eq!(Coord(f64::NAN).to_string(), "0");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Coord(pub f64);

impl std::fmt::Display for Coord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.0.is_finite() {
            return f.write_str("0");
        }
        // a float-to-int cast saturates: no overflow
        let c = (self.0 * 100.0).round() as i64;
        let sign = if c < 0 { "-" } else { "" };
        let a = c.unsigned_abs();
        let (whole, frac) = (a / 100, a % 100);
        match (frac, frac % 10) {
            (0, _) => write!(f, "{sign}{whole}"),
            (_, 0) => write!(f, "{sign}{whole}.{}", frac / 10),
            _ => write!(f, "{sign}{whole}.{frac:02}"),
        }
    }
}
