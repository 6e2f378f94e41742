//! `aliases.json`: duplicate key → owner key.

use std::collections::BTreeMap;

use pte_schema::{Error, ErrorKind, Result};

use crate::strict_json::{push_ascii, UniqueObject};
use crate::{PtnLimits, ALIASES_MEMBER, METADATA_KEY};

fn bad(what: impl Into<String>) -> Error {
    Error::new(ErrorKind::Malformed, what).at_path(ALIASES_MEMBER)
}

/// Parses the alias map: a JSON object of strings, no repeated key, no
/// `__metadata__`.
pub(crate) fn parse_aliases(data: &[u8], limits: &PtnLimits) -> Result<BTreeMap<String, String>> {
    if data.len() > limits.max_aliases_size {
        return Err(Error::new(ErrorKind::LimitExceeded, format!("{} bytes, over the limit", data.len()))
            .at_path(ALIASES_MEMBER));
    }
    let text = std::str::from_utf8(data).map_err(|e| bad(format!("not UTF-8: {e}")))?;
    let parsed: UniqueObject<String> =
        serde_json::from_str(text).map_err(|e| bad(format!("must be a JSON object of strings: {e}")))?;
    let mut out = BTreeMap::new();
    for (key, owner) in parsed.0 {
        if key == METADATA_KEY {
            return Err(bad(format!("{METADATA_KEY:?} is reserved and cannot be an alias")));
        }
        if key.len() > limits.max_key_len || owner.len() > limits.max_key_len {
            return Err(Error::new(ErrorKind::LimitExceeded, "alias key over the length limit").at_path(ALIASES_MEMBER));
        }
        out.insert(key, owner);
    }
    Ok(out)
}

/// The form exir writes: `json.dumps(aliases, indent=2, sort_keys=True)`.
pub(crate) fn aliases_json(aliases: &BTreeMap<String, String>) -> String {
    let mut out = String::from("{");
    for (i, (k, v)) in aliases.iter().enumerate() {
        out.push_str(if i == 0 { "\n  " } else { ",\n  " });
        push_ascii(&mut out, &serde_json::Value::String(k.clone()).to_string());
        out.push_str(": ");
        push_ascii(&mut out, &serde_json::Value::String(v.clone()).to_string());
    }
    out.push_str(if aliases.is_empty() { "}" } else { "\n}" });
    out
}
