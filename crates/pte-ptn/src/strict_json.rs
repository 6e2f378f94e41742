//! JSON objects read with duplicate keys rejected: serde maps keep one of two
//! equal keys silently, which lets two readers see different tensors.

use std::borrow::Cow;
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
        let mut seen = SeenKeys::default();
        let mut out = Vec::new();
        while let Some(Key(key)) = map.next_key()? {
            if let Err(key) = seen.insert(key.clone()) {
                return Err(serde::de::Error::custom(format!("duplicate key {key:?}")));
            }
            let value = map.next_value::<V>()?;
            out.push((key.into_owned(), value));
        }
        Ok(UniqueObject(out))
    }
}

/// An object key, borrowed from the JSON text when it holds no escape.
struct Key<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: serde::de::Error>(self, s: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(s)))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s.to_owned())))
            }
            fn visit_string<E: serde::de::Error>(self, s: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s)))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

/// Keys of one object, told apart as they come: a short list searched in
/// turn (a tensor entry has three keys), a set once it grows, so a hostile
/// object of many keys costs no more than a set would.
#[derive(Default)]
struct SeenKeys<'de> {
    few: Vec<Cow<'de, str>>,
    many: Option<BTreeSet<Cow<'de, str>>>,
}

impl<'de> SeenKeys<'de> {
    /// Keys searched in turn before the set takes over.
    const FEW: usize = 16;

    /// Notes `key`; gives it back when it came before.
    fn insert(&mut self, key: Cow<'de, str>) -> Result<(), Cow<'de, str>> {
        if let Some(set) = &mut self.many {
            if set.contains(&key) {
                return Err(key);
            }
            set.insert(key);
            return Ok(());
        }
        if self.few.contains(&key) {
            return Err(key);
        }
        self.few.push(key);
        if self.few.len() > Self::FEW {
            self.many = Some(std::mem::take(&mut self.few).into_iter().collect());
        }
        Ok(())
    }

    fn len(&self) -> usize {
        self.many.as_ref().map_or(self.few.len(), BTreeSet::len)
    }
}

/// An object whose values are skipped and whose keys are checked unique,
/// read without copying a key that needs no unescaping.
struct UniqueKeys;

impl<'de> Deserialize<'de> for UniqueKeys {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeysVisitor;
        impl<'de> Visitor<'de> for KeysVisitor {
            type Value = UniqueKeys;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<UniqueKeys, A::Error> {
                let mut seen = SeenKeys::default();
                while let Some(Key(key)) = map.next_key()? {
                    if let Err(key) = seen.insert(key) {
                        return Err(serde::de::Error::custom(format!("duplicate key {key:?}")));
                    }
                    map.next_value::<IgnoredAny>()?;
                }
                Ok(UniqueKeys)
            }
        }
        d.deserialize_map(KeysVisitor)
    }
}

/// `__metadata__` entries in file order.
pub(crate) type Metadata = Vec<(String, String)>;

/// Why a safetensors JSON header was refused.
pub(crate) enum HeaderError {
    /// Not JSON of the safetensors shape (or a repeated key).
    Json(serde_json::Error),
    /// More tensor entries than the limit: counted while parsing, so the
    /// refusal comes before anything past the limit is held.
    TooManyTensors,
    /// A tensor key longer than the limit (its first characters).
    KeyTooLong(String),
}

/// The bounds [`check_header`] holds while it parses.
#[derive(Clone, Copy)]
pub(crate) struct HeaderBounds {
    pub(crate) max_tensors: usize,
    pub(crate) max_key_len: usize,
    /// Whether the caller wants `__metadata__`: when not, its keys are still
    /// checked unique but its values are skipped, never copied (a 100 MB
    /// metadata string cost 100 MB more).
    pub(crate) keep_metadata: bool,
}

/// Parses a safetensors JSON header, returning its `__metadata__` map (if
/// any); tensor entries themselves are
/// parsed by the safetensors crate. Keys are checked unique and within
/// `bounds` one at a time, so a hostile header costs at most the limit's
/// worth of keys before it is refused.
pub(crate) fn check_header(json: &str, bounds: HeaderBounds) -> Result<Option<Metadata>, HeaderError> {
    let mut de = serde_json::Deserializer::from_str(json);
    let mut refused = None;
    let parsed = de.deserialize_map(HeaderVisitor { bounds, refused: &mut refused });
    let parsed = parsed.and_then(|p| de.end().map(|()| p));
    match (parsed, refused) {
        // the parse was stopped on purpose: the bound is the reason
        (_, Some(e)) => Err(e),
        (Ok(done), None) => Ok(done),
        (Err(e), None) => Err(HeaderError::Json(e)),
    }
}

struct HeaderVisitor<'r> {
    bounds: HeaderBounds,
    /// Set when a bound stops the parse (which then fails as JSON).
    refused: &'r mut Option<HeaderError>,
}

impl HeaderVisitor<'_> {
    fn refuse<E: serde::de::Error>(self, e: HeaderError) -> E {
        *self.refused = Some(e);
        E::custom("stopped at a limit")
    }
}

impl<'de> Visitor<'de> for HeaderVisitor<'_> {
    type Value = Option<Metadata>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut seen = SeenKeys::default();
        let mut metadata = None;
        while let Some(Key(key)) = map.next_key()? {
            if key == "__metadata__" {
                if metadata.is_some() {
                    return Err(serde::de::Error::custom(format!("duplicate key {key:?}")));
                }
                metadata = Some(if self.bounds.keep_metadata {
                    map.next_value::<UniqueObject<String>>()?.0
                } else {
                    map.next_value::<UniqueKeys>()?;
                    Vec::new()
                });
                continue;
            }
            if key.len() > self.bounds.max_key_len {
                return Err(self.refuse(HeaderError::KeyTooLong(key.chars().take(32).collect())));
            }
            if seen.len() >= self.bounds.max_tensors {
                return Err(self.refuse(HeaderError::TooManyTensors));
            }
            if let Err(key) = seen.insert(key) {
                return Err(serde::de::Error::custom(format!("duplicate key {key:?}")));
            }
            map.next_value::<UniqueKeys>()?;
        }
        Ok(metadata)
    }
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
