//! Method and set names become path segments inside the zip, so they are
//! held to what every file system and zip reader agrees is one segment.

use crate::{Error, Result, SampleRule};

/// Longest accepted method or set name, in bytes.
pub const MAX_NAME_LEN: usize = 255;

/// Checks that `name` is a single, plain path segment: not empty, not `.`
/// or `..`, no `/` or `\`, no control characters, at most [`MAX_NAME_LEN`] bytes.
///
/// ```
/// use pte_samples::check_name;
/// assert!(check_name("forward").is_ok());
/// for bad in ["", "..", "a/b", "a\\b", "tab\there", "."] {
///     assert!(check_name(bad).is_err(), "{bad:?}");
/// }
/// ```
pub fn check_name(name: &str) -> Result<()> {
    let why = if name.is_empty() {
        "is empty"
    } else if name == "." || name == ".." {
        "is a relative path component"
    } else if name.contains('/') || name.contains('\\') {
        "contains a path separator"
    } else if name.chars().any(char::is_control) {
        "contains a control character"
    } else if name.len() > MAX_NAME_LEN {
        "is longer than 255 bytes"
    } else {
        return Ok(());
    };
    Err(Error::new(
        SampleRule::Name,
        format!(
            "name {:?} {why}; method and set names must be single path segments",
            name.chars().take(64).collect::<String>()
        ),
    ))
}
