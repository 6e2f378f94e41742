//! Writing the loose files of `extract` and `export` commands.

use sha2::{Digest, Sha256};

/// Lower-case hex SHA-256, as the manifests record it.
pub(crate) fn sha(b: &[u8]) -> String {
    Sha256::digest(b).iter().map(|x| format!("{x:02x}")).collect()
}

/// Keys can hold any characters; file names get a safe rendering plus the index.
pub(crate) fn safe(key: &str) -> String {
    let s: String =
        key.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' }).take(80).collect();
    s.trim_start_matches('.').to_string()
}
