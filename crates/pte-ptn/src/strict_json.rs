//! JSON objects read with duplicate keys rejected: serde maps keep one of two
//! equal keys silently, which lets two readers see different tensors.

use std::collections::BTreeSet;
use std::fmt;
use std::fmt::Write as _;
use std::marker::PhantomData;

use serde::de::{DeserializeOwned, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;

/// Top-level object keys, in file order; fails on a repeated key.
pub(crate) struct UniqueObject<V>(pub Vec<(String, V)>);

impl<'de, V: DeserializeOwned> Deserialize<'de> for UniqueObject<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(UniqueVisitor(PhantomData))
    }
}

struct UniqueVisitor<V>(PhantomData<V>);

impl<'de, V: DeserializeOwned> Visitor<'de> for UniqueVisitor<V> {
    type Value = UniqueObject<V>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(serde::de::Error::custom(format!("duplicate key {key:?}")));
            }
            let value = map.next_value::<V>()?;
            out.push((key, value));
        }
        Ok(UniqueObject(out))
    }
}

/// `__metadata__` entries in file order.
pub(crate) type Metadata = Vec<(String, String)>;

/// Parses a safetensors JSON header, returning the tensor keys in file order
/// and the `__metadata__` map (if any); tensor entries themselves are parsed
/// by the safetensors crate.
pub(crate) fn header_keys(json: &str) -> Result<(Vec<String>, Option<Metadata>), serde_json::Error> {
    let raw: UniqueObject<Box<serde_json::value::RawValue>> = serde_json::from_str(json)?;
    let mut keys = Vec::with_capacity(raw.0.len());
    let mut metadata = None;
    for (key, value) in raw.0 {
        if key == "__metadata__" {
            let m: UniqueObject<String> = serde_json::from_str(value.get())?;
            metadata = Some(m.0);
        } else {
            let _: UniqueObject<IgnoredAny> = serde_json::from_str(value.get())?;
            keys.push(key);
        }
    }
    Ok((keys, metadata))
}

/// Appends JSON text with every non-ASCII character escaped as `\uXXXX`
/// (UTF-16 units), the form Python's `json.dumps` writes by default.
pub(crate) fn push_ascii(out: &mut String, json_text: &str) {
    for c in json_text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{u:04x}");
            }
        }
    }
}
