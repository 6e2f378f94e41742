//! The text conventions every output of the workspace shares (the CLI's
//! `docs/cli.md`, "Text conventions"): shapes as `[2, 16]`, the bounds of a
//! dynamic shape as `[<=2, 16]`, dtypes by their PyTorch names (`float32`).
//! The report and the CLI's text both draw from here, so a graph's edge
//! reads the same in `pte graph` and on the page. Text from a file (names,
//! keys, runner output) reaches a human output through [`text`] or
//! [`quoted`], the one escaping rule for control characters.

/// `[2, 16]`; `[]` for a scalar.
///
/// ```
/// assert_eq!(pte_core::style::shape([4, 16]), "[4, 16]");
/// assert_eq!(pte_core::style::shape(Vec::<u8>::new()), "[]");
/// ```
pub fn shape<T: std::fmt::Display>(dims: impl IntoIterator<Item = T>) -> String {
    let mut s = String::new();
    let _ = write_shape(&mut s, dims);
    s
}

/// [`shape`] written to `out`, for a table that writes many in one buffer.
///
/// ```
/// let mut row = String::from("x ");
/// pte_core::style::write_shape(&mut row, [4, 16]).unwrap();
/// assert_eq!(row, "x [4, 16]");
/// ```
pub fn write_shape<T: std::fmt::Display>(
    out: &mut impl std::fmt::Write,
    dims: impl IntoIterator<Item = T>,
) -> std::fmt::Result {
    out.write_char('[')?;
    for (k, d) in dims.into_iter().enumerate() {
        if k > 0 {
            out.write_str(", ")?;
        }
        write!(out, "{d}")?;
    }
    out.write_char(']')
}

/// A `.pte` shape with its dynamism (`STATIC`, `DYNAMIC_BOUND`,
/// `DYNAMIC_UNBOUND`): every size of a bound tensor is an upper bound
/// (`<=16`), of an unbound one only a hint (`16?`); the program does not say
/// which dimensions vary.
///
/// ```
/// assert_eq!(pte_core::style::dynamic_shape([16, 4], "DYNAMIC_BOUND"), "[<=16, <=4]");
/// assert_eq!(pte_core::style::dynamic_shape([16], "DYNAMIC_UNBOUND"), "[16?]");
/// assert_eq!(pte_core::style::dynamic_shape([16, 4], "STATIC"), "[16, 4]");
/// ```
pub fn dynamic_shape<T: std::fmt::Display>(dims: impl IntoIterator<Item = T>, dynamism: &str) -> String {
    shape(dims.into_iter().map(|d| match dynamism {
        "DYNAMIC_BOUND" => format!("<={d}"),
        "DYNAMIC_UNBOUND" => format!("{d}?"),
        _ => d.to_string(),
    }))
}

/// A native-graph dimension `{min, max}`: `4`, `1..16`, or `1..` when unbounded.
///
/// ```
/// assert_eq!(pte_core::style::dim_range(1, 16), "1..16");
/// assert_eq!(pte_core::style::dim_range(4, 4), "4");
/// assert_eq!(pte_core::style::dim_range(1, -1), "1..");
/// ```
pub fn dim_range(min: i64, max: i64) -> String {
    match (min, max) {
        (a, b) if a == b => a.to_string(),
        (a, b) if b < 0 => format!("{a}.."),
        (a, b) => format!("{a}..{b}"),
    }
}

/// The PyTorch name of a dtype spelled the ExecuTorch way (`FLOAT`), the
/// safetensors way (`F32`), the native-graph way or the XNNPACK way (`fp32`);
/// unknown names pass through.
///
/// ```
/// assert_eq!(pte_core::style::dtype("FLOAT"), "float32");
/// assert_eq!(pte_core::style::dtype("BF16"), "bfloat16");
/// assert_eq!(pte_core::style::dtype("fp32"), "float32"); // XNNPACK's spelling
/// assert_eq!(pte_core::style::dtype("ScalarType(99)"), "ScalarType(99)");
/// ```
pub fn dtype(name: &str) -> String {
    torch_dtype(name).to_string()
}

/// [`dtype`] without a copy, for a table that writes many.
///
/// ```
/// assert_eq!(pte_core::style::torch_dtype("LONG"), "int64");
/// assert_eq!(pte_core::style::torch_dtype("ScalarType(99)"), "ScalarType(99)");
/// ```
pub fn torch_dtype(name: &str) -> &str {
    match name {
        "BYTE" | "U8" | "UINT8" => "uint8",
        "CHAR" | "I8" | "INT8" => "int8",
        "SHORT" | "I16" | "INT16" => "int16",
        "INT" | "I32" | "INT32" => "int32",
        "LONG" | "I64" | "INT64" => "int64",
        "HALF" | "F16" | "FLOAT16" | "fp16" => "float16",
        "FLOAT" | "F32" | "FLOAT32" | "fp32" => "float32",
        "DOUBLE" | "F64" | "FLOAT64" => "float64",
        "BOOL" => "bool",
        "BFLOAT16" | "BF16" | "bf16" => "bfloat16",
        "QINT8" => "qint8",
        "QUINT8" => "quint8",
        "QINT32" => "qint32",
        "QUINT4X2" => "quint4x2",
        "QUINT2X4" => "quint2x4",
        "BITS16" => "bits16",
        "FLOAT8E5M2" | "F8_E5M2" => "float8_e5m2",
        "FLOAT8E4M3FN" | "F8_E4M3" => "float8_e4m3fn",
        "FLOAT8E5M2FNUZ" => "float8_e5m2fnuz",
        "FLOAT8E4M3FNUZ" => "float8_e4m3fnuz",
        "UINT16" | "U16" => "uint16",
        "UINT32" | "U32" => "uint32",
        "UINT64" | "U64" => "uint64",
        "C64" => "complex64",
        other => other,
    }
}

/// `1 instruction`, `3 instructions`, `2 entries`: a count with its noun agreeing.
///
/// ```
/// use pte_core::style::count;
/// assert_eq!(count(1u64, "instruction"), "1 instruction");
/// assert_eq!(count(2u64, "entry"), "2 entries");
/// assert_eq!(count(0u64, "key"), "0 keys");
/// ```
pub fn count(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else if let Some(stem) = noun.strip_suffix('y').filter(|s| !s.ends_with(['a', 'e', 'o', 'u'])) {
        format!("{n} {stem}ies")
    } else {
        format!("{n} {noun}s")
    }
}

/// Text from a file as a human output shows it: every control character
/// (C0, DEL, C1) escaped as a JSON string spells it (`\n`, `\r`, `\t`,
/// `\b`, `\f`, otherwise `\u001b`), everything else as it is, so a name
/// cannot move the cursor, ring the bell or start a line of its own. The
/// one rule of every human output for names, keys and messages; JSON
/// output is JSON and needs none.
///
/// ```
/// use pte_core::style::text;
/// assert_eq!(text("aten::add"), "aten::add");
/// assert_eq!(text("a\u{1b}[2J\u{7}\r\nb"), r"a\u001b[2J\u0007\r\nb");
/// assert_eq!(text("\u{7f}\u{85}"), r"\u007f\u0085");
/// assert_eq!(text(r#"back\slash "quote""#), r#"back\slash "quote""#);
/// ```
pub fn text(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len().saturating_add(8));
    for c in s.chars() {
        let _ = write_char(&mut out, c);
    }
    std::borrow::Cow::Owned(out)
}

/// [`text`]'s rule applied as a value is displayed, without a copy: for
/// the rows of a long table.
///
/// ```
/// use pte_core::style::Escaped;
/// assert_eq!(Escaped("op\u{1b}[1m").to_string(), r"op\u001b[1m");
/// assert_eq!(format!("{:>4}|", Escaped(7)), "   7|");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Escaped<T>(pub T);

impl<T: std::fmt::Display> std::fmt::Display for Escaped<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        /// Passes text on with its control characters escaped.
        struct Escaping<'a, 'b>(&'a mut std::fmt::Formatter<'b>);
        impl std::fmt::Write for Escaping<'_, '_> {
            fn write_str(&mut self, s: &str) -> std::fmt::Result {
                if !s.chars().any(char::is_control) {
                    return self.0.write_str(s);
                }
                s.chars().try_for_each(|c| write_char(self, c))
            }
        }
        if f.width().is_some() || f.precision().is_some() {
            // padding counts the escaped text, so it is made first
            let mut s = String::new();
            std::fmt::Write::write_fmt(&mut s, format_args!("{}", self.0))?;
            return f.pad(&text(&s));
        }
        std::fmt::Write::write_fmt(&mut Escaping(f), format_args!("{}", self.0))
    }
}

/// `s` in double quotes, as a JSON string spells it (`"` and `\` escaped
/// too) with [`text`]'s rule for control characters: how `pte info` names
/// a method, a key or a member.
///
/// ```
/// use pte_core::style::quoted;
/// assert_eq!(quoted("forward"), r#""forward""#);
/// assert_eq!(quoted("a\"b\\c\u{1b}\n"), r#""a\"b\\c\u001b\n""#);
/// assert_eq!(quoted("\u{9b}"), r#""\u009b""#);
/// ```
pub fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len().saturating_add(2));
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c => {
                let _ = write_char(&mut out, c);
            }
        }
    }
    out.push('"');
    out
}

/// One character under [`text`]'s rule.
fn write_char(out: &mut impl std::fmt::Write, c: char) -> std::fmt::Result {
    match c {
        '\n' => out.write_str("\\n"),
        '\r' => out.write_str("\\r"),
        '\t' => out.write_str("\\t"),
        '\u{8}' => out.write_str("\\b"),
        '\u{c}' => out.write_str("\\f"),
        c if c.is_control() => write!(out, "\\u{:04x}", u32::from(c)),
        c => out.write_char(c),
    }
}

/// `part` of `whole` as a percentage with one decimal (`93.7%`), as
/// `format!("{:.1}%", part as f64 * 100.0 / whole as f64)` spells it; `-`
/// of a whole of 0. It pads as a string does (`{:>6}`). The one rule of
/// every share a human output shows (`pte size`, the report's sizes and
/// treemap).
///
/// ```
/// use pte_core::style::Share;
/// assert_eq!(Share { part: 1428936, whole: 1524996 }.to_string(), "93.7%");
/// assert_eq!(format!("{:>6}|", Share { part: 1, whole: 3 }), " 33.3%|");
/// assert_eq!(Share { part: 5, whole: 0 }.to_string(), "-");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Share {
    /// The bytes (or anything counted) of the part.
    pub part: u64,
    /// The whole they are a share of.
    pub whole: u64,
}

impl Share {
    /// The share in tenths of a percent, rounded as the float formatting
    /// rounds it, where integer arithmetic is sure to agree: a part at most
    /// the whole, a whole under 2^40 and not an exact tie. There the
    /// quotient's float error (at most 1000 × 2^-53 in tenths) is below the
    /// distance to the nearest tie (at least 1 / (2 × whole)), so both round
    /// the same way. Elsewhere the caller formats the float.
    fn tenths(self) -> Option<u64> {
        if self.whole == 0 || self.whole >= 1 << 40 || self.part > self.whole {
            return None;
        }
        let n = u128::from(self.part).checked_mul(1000)?;
        let whole = u128::from(self.whole);
        let (q, r) = (n.checked_div(whole)?, n.checked_rem(whole)?);
        let twice = r.checked_mul(2)?;
        if twice == whole {
            return None;
        }
        let t = if twice > whole { q.checked_add(1)? } else { q };
        u64::try_from(t).ok()
    }
}

impl std::fmt::Display for Share {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.whole == 0 {
            return f.pad("-");
        }
        let Some(t) = self.tenths() else {
            return f.pad(&format!("{:.1}%", self.part as f64 * 100.0 / self.whole as f64));
        };
        // at most "100.0%", written from the end on the stack: the float
        // and integer formatting machinery costs more than the table row
        let mut buf = [0u8; 8];
        let mut at = buf.len();
        let mut put = |b: u8| {
            at = at.saturating_sub(1);
            if let Some(slot) = buf.get_mut(at) {
                *slot = b;
            }
        };
        // a remainder by 10 is a digit: the additions cannot wrap
        let digit = |n: u64| b'0'.wrapping_add((n % 10) as u8);
        put(b'%');
        put(digit(t));
        put(b'.');
        let mut units = t / 10;
        loop {
            put(digit(units));
            units /= 10;
            if units == 0 {
                break;
            }
        }
        f.pad(std::str::from_utf8(buf.get(at..).unwrap_or_default()).map_err(|_| std::fmt::Error)?)
    }
}

#[cfg(test)]
mod share_tests {
    use super::Share;

    fn by_float(part: u64, whole: u64) -> String {
        format!("{:.1}%", part as f64 * 100.0 / whole as f64)
    }

    /// Every part of small wholes (all their ties included), and a spread
    /// of parts of large ones up to and past the integer path's bound.
    #[test]
    fn shares_are_spelled_as_the_float_formatting_spells_them() {
        let mut checked = 0u64;
        for whole in 1..=2000u64 {
            for part in 0..=whole {
                assert_eq!(Share { part, whole }.to_string(), by_float(part, whole), "{part}/{whole}");
                checked += 1;
            }
        }
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for shift in [20u32, 30, 39, 40, 41, 50, 63] {
            for _ in 0..20_000 {
                // xorshift: a fixed, reproducible spread
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let whole = (x >> (63 - shift)).max(1);
                let part = x % whole.saturating_add(1);
                assert_eq!(Share { part, whole }.to_string(), by_float(part, whole), "{part}/{whole}");
                // the ties: an odd number of half tenths
                let tie = whole / 2000 * 2000;
                if tie > 0 {
                    let part = tie / 2000 * (2 * (x % 1000) + 1);
                    assert_eq!(Share { part, whole: tie }.to_string(), by_float(part, tie), "{part}/{tie}");
                }
                checked += 1;
            }
        }
        assert!(checked > 2_000_000);
        assert!(Share { part: 3, whole: 2 }.tenths().is_none(), "more than the whole takes the float path");
        assert_eq!(format!("{:<7}|", Share { part: 1, whole: 8 }), "12.5%  |");
    }
}
