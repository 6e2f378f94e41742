//! What inflating a package may cost, decided from the central directory
//! before a single byte is inflated: each member's declared size against its
//! own bound, and their sum against the package's. Inflation itself then
//! reads through a reader that stops one byte past the declared size, so a
//! header that understates the size fails at its claim, not at the real size.

use std::io::Cursor;

use pte_schema::{Error, ErrorKind, Result};
use zip::{CompressionMethod, ZipArchive};

use crate::PtnLimits;

/// The most bytes a member of this name may inflate to: metadata (`*.json`:
/// the alias map, sample indexes) has its own, smaller bound.
pub(crate) fn member_bound(name: &[u8], limits: &PtnLimits) -> u64 {
    if name.ends_with(b".json") {
        limits.max_json_member.min(limits.max_inflated_size)
    } else {
        limits.max_inflated_size
    }
}

/// Refuses, before inflating anything, a package whose deflated members
/// declare more than their bounds or more than the package's total.
pub(crate) fn check_declared_sizes(archive: &mut ZipArchive<Cursor<&[u8]>>, limits: &PtnLimits) -> Result<()> {
    let mut total = 0u64;
    for index in 0..archive.len() {
        let entry = archive
            .by_index_raw(index)
            .map_err(|e| Error::new(ErrorKind::Malformed, format!("member {index}: {e}")))?;
        if entry.compression() == CompressionMethod::Stored {
            // borrowed from the input: costs nothing to read
            continue;
        }
        let size = entry.size();
        let name = String::from_utf8_lossy(entry.name_raw()).into_owned();
        let bound = member_bound(entry.name_raw(), limits);
        let over = |msg: String| {
            Err(Error::new(ErrorKind::LimitExceeded, msg).at_path(name.clone()).at_offset(entry.header_start()))
        };
        if size > bound {
            return over(format!("compressed member declares {size} bytes inflated, over the limit of {bound}"));
        }
        total = total.saturating_add(size);
        if total > limits.max_total_inflated {
            return over(format!(
                "compressed members declare {total} bytes inflated in all, over the limit of {}",
                limits.max_total_inflated
            ));
        }
    }
    Ok(())
}
