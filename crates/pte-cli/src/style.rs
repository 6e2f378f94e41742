//! The one text convention of every command (docs/cli.md, "Text
//! conventions"): shapes as `[2, 16]`, upper bounds of a dynamic shape as
//! `[<=2, 16]`, dtypes by their PyTorch names (`float32`), counts with the
//! noun agreeing (`1 instruction`, `3 instructions`), and text from a file
//! with its control characters escaped (`text`, `quoted`). JSON keeps each
//! schema's own spelling, so scripts written against it keep working.

use serde_json::Value;

pub(crate) use pte_core::style::{count, dim_range, dtype, quoted, shape, text, torch_dtype, write_shape};

/// [`text`] of a JSON string value (a name from the file); any other value
/// as JSON prints it.
pub(crate) fn text_of(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), |s| text(s).into_owned())
}

/// [`text`] of each line of `s`: for text whose line breaks are its own
/// (a runner's last stderr lines), not a name's.
pub(crate) fn text_lines(s: &str) -> String {
    s.split('\n').map(text).collect::<Vec<_>>().join("\n")
}

/// [`quoted`] of a JSON string value; any other value as JSON prints it.
pub(crate) fn quoted_of(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), quoted)
}

/// A `.pte` shape with its dynamism, from JSON sizes
/// (`pte_core::style::dynamic_shape`).
pub(crate) fn pte_shape(sizes: &Value, dynamism: &str) -> String {
    pte_core::style::dynamic_shape(sizes.as_array().into_iter().flatten(), dynamism)
}

/// [`dtype`] of a JSON string value.
pub(crate) fn dtype_of(v: &Value) -> String {
    dtype(v.as_str().unwrap_or(""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conventions() {
        assert_eq!(shape([4, 16]), "[4, 16]");
        assert_eq!(shape(Vec::<u8>::new()), "[]");
        assert_eq!(pte_shape(&serde_json::json!([16, 4]), "DYNAMIC_BOUND"), "[<=16, <=4]");
        assert_eq!(pte_shape(&serde_json::json!([16, 4]), "STATIC"), "[16, 4]");
        assert_eq!(dim_range(1, 16), "1..16");
        assert_eq!(dim_range(4, 4), "4");
        assert_eq!(count(1u64, "instruction"), "1 instruction");
        assert_eq!(count(2u64, "entry"), "2 entries");
        assert_eq!(count(0u64, "key"), "0 keys");
        assert_eq!(dtype("FLOAT"), dtype("F32"));
        assert_eq!(dtype("BF16"), "bfloat16");
    }
}
