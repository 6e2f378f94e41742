//! The one text convention of every command (docs/cli.md, "Text
//! conventions"): shapes as `[2, 16]`, upper bounds of a dynamic shape as
//! `[<=2, 16]`, dtypes by their PyTorch names (`float32`), counts with the
//! noun agreeing (`1 instruction`, `3 instructions`). JSON keeps each
//! schema's own spelling, so scripts written against it keep working.

use serde_json::Value;

/// `[2, 16]`; `[]` for a scalar.
pub(crate) fn shape<T: std::fmt::Display>(dims: impl IntoIterator<Item = T>) -> String {
    use std::fmt::Write as _;
    let mut s = String::from("[");
    for (k, d) in dims.into_iter().enumerate() {
        let _ = if k == 0 { write!(s, "{d}") } else { write!(s, ", {d}") };
    }
    s.push(']');
    s
}

/// A `.pte` shape with its dynamism: every size of a DYNAMIC_BOUND tensor
/// is an upper bound (`<=16`), of a DYNAMIC_UNBOUND one only a hint (`16?`);
/// the program does not say which dimensions vary.
pub(crate) fn pte_shape(sizes: &Value, dynamism: &str) -> String {
    let dims = sizes.as_array().into_iter().flatten().map(|d| match dynamism {
        "DYNAMIC_BOUND" => format!("<={d}"),
        "DYNAMIC_UNBOUND" => format!("{d}?"),
        _ => d.to_string(),
    });
    shape(dims)
}

/// A native-graph dimension `{min, max}`: `4`, `1..16`, or `1..` when unbounded.
pub(crate) fn dim_range(min: i64, max: i64) -> String {
    match (min, max) {
        (a, b) if a == b => a.to_string(),
        (a, b) if b < 0 => format!("{a}.."),
        (a, b) => format!("{a}..{b}"),
    }
}

/// `1 instruction`, `0 instructions`.
pub(crate) fn count(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else if let Some(stem) = noun.strip_suffix('y').filter(|s| !s.ends_with(['a', 'e', 'o', 'u'])) {
        format!("{n} {stem}ies")
    } else {
        format!("{n} {noun}s")
    }
}

/// The PyTorch name of a dtype spelled the ExecuTorch way (`FLOAT`), the
/// safetensors way (`F32`) or the native-graph way; unknown names pass through.
pub(crate) fn dtype(name: &str) -> String {
    let torch = match name {
        "BYTE" | "U8" | "UINT8" => "uint8",
        "CHAR" | "I8" | "INT8" => "int8",
        "SHORT" | "I16" | "INT16" => "int16",
        "INT" | "I32" | "INT32" => "int32",
        "LONG" | "I64" | "INT64" => "int64",
        "HALF" | "F16" | "FLOAT16" => "float16",
        "FLOAT" | "F32" | "FLOAT32" => "float32",
        "DOUBLE" | "F64" | "FLOAT64" => "float64",
        "BOOL" => "bool",
        "BFLOAT16" | "BF16" => "bfloat16",
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
        other => return other.to_string(),
    };
    torch.to_string()
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
