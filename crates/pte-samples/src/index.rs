//! The `index.json` document: serde types mirroring `docs/samples.md`, and
//! the float spelling JSON itself cannot carry (non-finite values).

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The `format` tag every index carries.
pub const FORMAT_TAG: &str = "pte-samples";
/// The index version this crate reads and writes.
pub const INDEX_VERSION: u64 = 1;

/// Just the fields that say whether the rest can be read at all.
#[derive(Deserialize)]
pub(crate) struct Probe {
    pub format: Option<serde_json::Value>,
    pub version: Option<serde_json::Value>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct IndexDoc {
    pub format: String,
    pub version: u64,
    pub method: String,
    pub set: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<ToleranceDoc>,
    pub samples: Vec<SampleDoc>,
}

#[derive(Serialize, Deserialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
pub(crate) struct ToleranceDoc {
    pub atol: f64,
    pub rtol: f64,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SampleDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<ToleranceDoc>,
    pub calls: Vec<CallDoc>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CallDoc {
    pub inputs: Vec<ValueDoc>,
    pub outputs: Vec<ValueDoc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<ToleranceDoc>,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum ValueDoc {
    Tensor { key: String, dtype: String, shape: Vec<u64> },
    Int { value: i64 },
    Float { value: FloatDoc },
    Bool { value: bool },
    String { value: String },
    None {},
    TensorList { items: Vec<TensorDoc> },
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TensorDoc {
    pub key: String,
    pub dtype: String,
    pub shape: Vec<u64>,
}

/// A float scalar: a JSON number when finite, otherwise `"inf"`, `"-inf"`,
/// `"nan"` (the canonical quiet NaN) or `"nan:0x<16 hex digits>"` (any other
/// NaN, by its bits), so every `f64` survives a round trip bit for bit.
#[derive(Clone, Copy)]
pub(crate) struct FloatDoc(pub f64);

const CANONICAL_NAN: u64 = 0x7ff8_0000_0000_0000;

impl Serialize for FloatDoc {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        if v.is_finite() {
            s.serialize_f64(v)
        } else if v == f64::INFINITY {
            s.serialize_str("inf")
        } else if v == f64::NEG_INFINITY {
            s.serialize_str("-inf")
        } else if v.to_bits() == CANONICAL_NAN {
            s.serialize_str("nan")
        } else {
            s.serialize_str(&format!("nan:0x{:016x}", v.to_bits()))
        }
    }
}

impl<'de> Deserialize<'de> for FloatDoc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = FloatDoc;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number, \"inf\", \"-inf\", \"nan\" or \"nan:0x<16 hex digits>\"")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<FloatDoc, E> {
                Ok(FloatDoc(v))
            }
            #[allow(clippy::cast_precision_loss)] // an integer literal in a float slot means its nearest float
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<FloatDoc, E> {
                Ok(FloatDoc(v as f64))
            }
            #[allow(clippy::cast_precision_loss)]
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<FloatDoc, E> {
                Ok(FloatDoc(v as f64))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<FloatDoc, E> {
                parse_special(v).map(FloatDoc).ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &self))
            }
        }
        d.deserialize_any(V)
    }
}

pub(crate) fn parse_special(v: &str) -> Option<f64> {
    match v {
        "inf" => Some(f64::INFINITY),
        "-inf" => Some(f64::NEG_INFINITY),
        "nan" => Some(f64::from_bits(CANONICAL_NAN)),
        _ => {
            let hex = v.strip_prefix("nan:0x")?;
            if hex.len() != 16 {
                return None;
            }
            let bits = u64::from_str_radix(hex, 16).ok()?;
            let f = f64::from_bits(bits);
            f.is_nan().then_some(f)
        }
    }
}

/// The byte offset of serde_json's 1-based line and column in `text`.
pub(crate) fn byte_offset(text: &[u8], line: usize, column: usize) -> u64 {
    let mut offset = 0usize;
    let mut lines = text.split_inclusive(|&b| b == b'\n');
    for _ in 1..line {
        match lines.next() {
            Some(l) => offset = offset.saturating_add(l.len()),
            None => break,
        }
    }
    let o = offset.saturating_add(column.saturating_sub(1)).min(text.len());
    u64::try_from(o).unwrap_or(u64::MAX)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn special_floats_round_trip_by_bits() {
        for bits in [
            CANONICAL_NAN,
            0x7ff0_0000_0000_0001,
            0xfff8_0000_0000_0000,
            f64::INFINITY.to_bits(),
            (-0.0f64).to_bits(),
            1.5f64.to_bits(),
            f64::MIN_POSITIVE.to_bits(),
            1u64,
        ] {
            let text = serde_json::to_string(&FloatDoc(f64::from_bits(bits))).unwrap();
            let back: FloatDoc = serde_json::from_str(&text).unwrap();
            assert_eq!(back.0.to_bits(), bits, "{text}");
        }
        for bad in ["\"nan:0x0000000000000000\"", "\"NaN\"", "\"nan:0x7ff8\"", "true"] {
            assert!(serde_json::from_str::<FloatDoc>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn offsets_follow_lines() {
        let t = b"ab\ncde\nf";
        assert_eq!(byte_offset(t, 1, 1), 0);
        assert_eq!(byte_offset(t, 2, 2), 4);
        assert_eq!(byte_offset(t, 9, 9), 8);
    }
}
