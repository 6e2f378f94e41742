//! Text in the drawing: box widths estimated from label length (the SVG
//! uses a monospace font, so an average advance is close), truncation with an
//! ellipsis, XML escaping of hostile labels, and numbers with one decimal.

use std::fmt;

/// The monospace fonts the drawings' labels are written in, so that a
/// label's width follows from its length.
pub(crate) const MONOSPACE: &str = "ui-monospace, Menlo, Consolas, monospace";
/// The advance of one character of those fonts, as a share of the font
/// size (0.6 in DejaVu Sans Mono, Liberation Mono and Menlo, less in
/// Consolas).
pub(crate) const ADVANCE: f64 = 0.6;
/// Font size of node labels, in SVG units.
pub(crate) const FONT_SIZE: f64 = 12.0;
/// Estimated advance of one character at [`FONT_SIZE`] in a monospace font.
pub(crate) const CHAR_WIDTH: f64 = FONT_SIZE * ADVANCE;
/// Room between the text and the box's sides.
pub(crate) const PAD: f64 = 8.0;
/// No box is narrower than this many characters.
const MIN_CHARS: usize = 3;

/// The width of a box for `label`, showing at most `max_chars` characters.
pub(crate) fn box_width(label: &str, max_chars: usize) -> f64 {
    let shown = label.chars().filter(|&c| valid(c)).count().min(max_chars.max(1)).max(MIN_CHARS);
    shown as f64 * CHAR_WIDTH + 2.0 * PAD
}

/// `label` cut to what a box of `width` shows, ending in `…` when cut.
pub(crate) fn fit(label: &str, width: f64) -> String {
    cut(label, chars_in(width - 2.0 * PAD, CHAR_WIDTH))
}

/// How many characters of advance `advance` fit in `width` (0 when none
/// or when `width` is not a number).
pub(crate) fn chars_in(width: f64, advance: f64) -> usize {
    let room = (width / advance + 1e-6).floor();
    if room.is_finite() && room > 0.0 {
        room as usize
    } else {
        0
    }
}

/// `label` cut to at most `room` characters, ending in `…` when cut; the
/// characters XML does not allow are left out first.
pub(crate) fn cut(label: &str, room: usize) -> String {
    let mut chars = label.chars().filter(|&c| valid(c));
    if chars.clone().count() <= room {
        return chars.collect();
    }
    let mut cut: String = chars.by_ref().take(room.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// Whether XML 1.0 allows `c` (surrogates cannot be in a `str`).
fn valid(c: char) -> bool {
    !matches!(c, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

/// Appends `s` escaped for XML text and attribute values (either quote);
/// characters XML 1.0 does not allow are dropped, and whitespace that an
/// attribute would normalise is kept as character references.
pub(crate) fn escape_into(out: &mut String, s: &str) {
    for c in s.chars() {
        if let Some(entity) = crate::html::markup_entity(c) {
            out.push_str(entity);
            continue;
        }
        match c {
            '\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if valid(c) => out.push(c),
            _ => {}
        }
    }
}

/// `s` as [`escape_into`] writes it.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    escape_into(&mut out, s);
    out
}

/// Below it every integer is exact in an `f64`.
const EXACT: f64 = 9_007_199_254_740_992.0;

/// A coordinate printed with at most one decimal, the same way on every
/// platform: `12`, `12.5`, `-3.2`, never `-0` (non-finite values print `0`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Num(pub f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tenths = (self.0 * 10.0).round();
        if !tenths.is_finite() || tenths == 0.0 {
            return f.write_str("0");
        }
        // a page holds a few numbers per node: integer digits, not float
        // formatting, while the tenths are exact as an integer
        if tenths.abs() < EXACT {
            #[allow(clippy::cast_possible_truncation)] // |tenths| < 2^53, an integer: exact
            let t = tenths as i64;
            let (whole, frac) = (t.unsigned_abs() / 10, t.unsigned_abs() % 10);
            let sign = if t < 0 { "-" } else { "" };
            return if frac == 0 { write!(f, "{sign}{whole}") } else { write!(f, "{sign}{whole}.{frac}") };
        }
        let s = format!("{:.1}", tenths / 10.0);
        f.write_str(s.strip_suffix(".0").unwrap_or(&s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        let show = |v: f64| Num(v).to_string();
        assert_eq!(show(12.0), "12");
        assert_eq!(show(12.25), "12.3");
        assert_eq!(show(-0.04), "0");
        assert_eq!(show(-3.21), "-3.2");
        assert_eq!(show(0.96), "1");
        assert_eq!(show(f64::NAN), "0");
        assert_eq!(show(1e7 + 0.05), "10000000.1");
        assert_eq!(show(-0.25), "-0.3");
        assert_eq!(show(1e300), format!("{:.1}", 1e300).trim_end_matches(".0"));
        // the integer path agrees with float formatting wherever both apply
        for k in (-200_000i64..200_000).step_by(7).chain([i64::from(i32::MAX), -(1 << 52), (1 << 53) - 1]) {
            let v = k as f64 / 10.0;
            let s = format!("{:.1}", (v * 10.0).round() / 10.0);
            let want = if (v * 10.0).round() == 0.0 { "0" } else { s.strip_suffix(".0").unwrap_or(&s) };
            assert_eq!(show(v), want, "{k}");
        }
    }

    #[test]
    fn escaping_hostile_text() {
        assert_eq!(
            escape("a<b>&\"c'\u{0}\u{1b}\u{fffe}\t\nz\u{1F600}"),
            "a&lt;b&gt;&amp;&quot;c&apos;&#9;&#10;z\u{1F600}"
        );
    }

    #[test]
    fn widths_and_truncation() {
        assert_eq!(box_width("ab", 40), 3.0 * CHAR_WIDTH + 2.0 * PAD);
        let long = "x".repeat(100);
        let w = box_width(&long, 40);
        assert_eq!(w, 40.0 * CHAR_WIDTH + 2.0 * PAD);
        let shown = fit(&long, w);
        assert_eq!(shown.chars().count(), 40);
        assert!(shown.ends_with('…'));
        assert_eq!(fit("aten::add.out", box_width("aten::add.out", 40)), "aten::add.out");
        assert_eq!(fit("abc", 0.0), "…");
        assert_eq!(fit("", 0.0), "");
    }
}
