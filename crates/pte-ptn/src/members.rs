//! Strict zip reading: members located through the central directory, each
//! stored member borrowed from the input, every ambiguity a typed error.

use std::borrow::Cow;
use std::io::{Cursor, Read};

use pte_schema::{Bytes, Error, ErrorKind, Result};
use zip::read::{ArchiveOffset, Config};
use zip::{CompressionMethod, ZipArchive};

use crate::PtnLimits;

/// One zip member: its name and (decompressed) content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member<'a> {
    /// The member name, a relative `/`-separated path.
    pub name: String,
    /// Its content (borrowed when the member was stored).
    pub data: Bytes<'a>,
}

impl Member<'_> {
    /// Copies borrowed bytes.
    ///
    /// ```
    /// let m = pte_ptn::Member { name: "a".into(), data: (&b"x"[..]).into() }.into_owned();
    /// assert_eq!(m.data.as_ref(), b"x");
    /// ```
    pub fn into_owned(self) -> Member<'static> {
        Member { name: self.name, data: Cow::Owned(self.data.into_owned()) }
    }
}

const LOCAL_HEADER: &[u8; 4] = b"PK\x03\x04";
const END_OF_DIRECTORY: &[u8; 4] = b"PK\x05\x06";
const LOCAL_HEADER_LEN: usize = 30;
const EOCD_LEN: usize = 22;

fn bad(what: impl Into<String>) -> Error {
    Error::new(ErrorKind::Malformed, what)
}

/// Checks a member name is a plain relative path: no absolute path, drive
/// letter, backslash, `.`/`..` or empty component, NUL or control character.
///
/// ```
/// assert!(pte_ptn::check_member_name("samples/forward/a/index.json").is_ok());
/// assert!(pte_ptn::check_member_name("../evil").is_err());
/// assert!(pte_ptn::check_member_name("/etc/passwd").is_err());
/// ```
pub fn check_member_name(name: &str) -> Result<()> {
    let fail =
        |why: &str| Err(bad(format!("member name {} {why}", pte_core::style::quoted(name))).at_path(name.to_string()));
    if name.is_empty() {
        return fail("is empty");
    }
    if name.starts_with('/') {
        return fail("is an absolute path");
    }
    if name.contains('\\') {
        return fail("contains a backslash");
    }
    if name.chars().any(char::is_control) {
        return fail("contains a control character");
    }
    let body = name.strip_suffix('/').unwrap_or(name);
    for part in body.split('/') {
        if part.is_empty() || part == "." || part == ".." {
            return fail("has an empty, `.` or `..` component");
        }
    }
    if name.as_bytes().get(1) == Some(&b':') {
        return fail("starts with a drive letter");
    }
    Ok(())
}

/// Reads every member of a zip held in memory, in central-directory order.
pub(crate) fn read_members<'a>(bytes: &'a [u8], limits: &PtnLimits) -> Result<Vec<Member<'a>>> {
    check_end_of_directory(bytes)?;
    let config = Config { archive_offset: ArchiveOffset::Known(0) };
    let mut archive =
        ZipArchive::with_config(config, Cursor::new(bytes)).map_err(|e| bad(format!("not a readable zip: {e}")))?;
    if archive.offset() != 0 {
        return Err(bad("the zip has bytes prepended before its first member"));
    }
    if archive.has_duplicate_names() {
        return Err(bad("the zip lists the same member name twice"));
    }
    if archive.len() > limits.max_members {
        return Err(Error::new(
            ErrorKind::LimitExceeded,
            format!("{} members, more than the limit of {}", archive.len(), limits.max_members),
        ));
    }
    match archive.has_overlapping_entries() {
        Ok(false) => {}
        Ok(true) => return Err(bad("member data or headers overlap (or run into the central directory)")),
        Err(e) => return Err(bad(format!("locating member data: {e}"))),
    }
    crate::budget::check_declared_sizes(&mut archive, limits)?;
    let mut out = Vec::with_capacity(archive.len());
    for index in 0..archive.len() {
        out.push(read_member(&mut archive, index, bytes, limits)?);
    }
    Ok(out)
}

fn read_member<'a>(
    archive: &mut ZipArchive<Cursor<&'a [u8]>>,
    index: usize,
    bytes: &'a [u8],
    limits: &PtnLimits,
) -> Result<Member<'a>> {
    let entry = archive.by_index_raw(index).map_err(|e| bad(format!("member {index}: {e}")))?;
    let raw_name = entry.name_raw().to_vec();
    if raw_name.len() > limits.max_member_name {
        return Err(Error::new(ErrorKind::LimitExceeded, format!("member {index} has a name over the limit")));
    }
    let name = String::from_utf8(raw_name.clone()).map_err(|_| bad(format!("member {index} name is not UTF-8")))?;
    check_member_name(&name)?;
    let header_start = entry.header_start();
    let at = |e: Error| e.at_path(name.clone()).at_offset(header_start);
    if entry.encrypted() {
        return Err(at(Error::new(ErrorKind::Unsupported, "encrypted members are not supported")));
    }
    if entry.is_symlink() {
        return Err(at(Error::new(ErrorKind::Unsupported, "symbolic-link members are not supported")));
    }
    let data_start = entry.data_start().ok_or_else(|| at(bad("member data start unknown")))?;
    let (method, crc, csize, size) = (entry.compression(), entry.crc32(), entry.compressed_size(), entry.size());
    check_local_header(bytes, entry.header_start(), &raw_name, method, crc, csize, size).map_err(at)?;
    let range = usize::try_from(data_start)
        .ok()
        .zip(usize::try_from(csize).ok())
        .and_then(|(s, n)| Some(s..s.checked_add(n)?))
        .ok_or_else(|| at(bad("member data range overflows")))?;
    let raw = bytes.get(range).ok_or_else(|| at(bad(format!("member data ({csize} bytes) runs past the file"))))?;
    drop(entry);
    let data: Bytes<'a> = match method {
        CompressionMethod::Stored => {
            if size != csize {
                return Err(at(bad(format!("stored member says {size} bytes uncompressed but {csize} stored"))));
            }
            if crc32fast::hash(raw) != crc {
                return Err(at(bad("stored member data fails its CRC-32")));
            }
            Cow::Borrowed(raw)
        }
        CompressionMethod::Deflated => Cow::Owned(inflate(archive, index, size, limits).map_err(at)?),
        other => return Err(at(Error::new(ErrorKind::Unsupported, format!("compression method {other:?}")))),
    };
    Ok(Member { name, data })
}

fn inflate(archive: &mut ZipArchive<Cursor<&[u8]>>, index: usize, size: u64, limits: &PtnLimits) -> Result<Vec<u8>> {
    // check_declared_sizes has bounded every member; checked again here so
    // this function is safe on its own
    let bound = archive
        .name_for_index(index)
        .and_then(|n| n.ok())
        .map_or(limits.max_inflated_size, |n| crate::budget::member_bound(n.as_bytes(), limits));
    if size > bound {
        return Err(Error::new(
            ErrorKind::LimitExceeded,
            format!("deflated member declares {size} bytes, over the limit of {bound}"),
        ));
    }
    let mut entry = archive.by_index(index).map_err(|e| bad(format!("opening deflated member: {e}")))?;
    // Grow from the bytes actually produced; the declared size is only a bound.
    let mut out = Vec::new();
    let limit = size.saturating_add(1);
    (&mut entry).take(limit).read_to_end(&mut out).map_err(|e| bad(format!("inflating member: {e}")))?;
    // the reader stopped one byte past the claim: more means the header lied
    if u64::try_from(out.len()).ok() != Some(size) {
        return Err(bad(format!("deflated member inflates to {} bytes, not the declared {size}", out.len())));
    }
    Ok(out)
}

fn le16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at.checked_add(2)?)?.try_into().ok()?))
}

fn le32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at.checked_add(4)?)?.try_into().ok()?))
}

/// The local header must agree with the central directory: name, method, and
/// (unless a data descriptor or zip64 defers them) CRC and sizes.
fn check_local_header(
    bytes: &[u8],
    header_start: u64,
    name: &[u8],
    method: CompressionMethod,
    crc: u32,
    csize: u64,
    size: u64,
) -> Result<()> {
    let start = usize::try_from(header_start).map_err(|_| bad("local header offset overflows"))?;
    let header = start
        .checked_add(LOCAL_HEADER_LEN)
        .and_then(|end| bytes.get(start..end))
        .ok_or_else(|| bad("local header runs past the file"))?;
    if header.get(..4) != Some(LOCAL_HEADER.as_slice()) {
        return Err(bad("no local header signature where the central directory points"));
    }
    let field = |at| le16(header, at).ok_or_else(|| bad("short local header"));
    let (flags, local_method, name_len) = (field(6)?, field(8)?, usize::from(field(26)?));
    let local_name = start
        .checked_add(LOCAL_HEADER_LEN)
        .and_then(|s| bytes.get(s..s.checked_add(name_len)?))
        .ok_or_else(|| bad("local header name runs past the file"))?;
    if local_name != name {
        return Err(bad("local header names a different member than the central directory"));
    }
    let central_method: u16 = match method {
        CompressionMethod::Stored => 0,
        CompressionMethod::Deflated => 8,
        _ => local_method,
    };
    if local_method != central_method {
        return Err(bad("local header and central directory disagree on the compression method"));
    }
    let deferred = flags & 0x0008 != 0;
    let word = |at| le32(header, at).ok_or_else(|| bad("short local header"));
    let (local_crc, local_csize, local_size) = (word(14)?, word(18)?, word(22)?);
    if !deferred {
        let zip64 = local_csize == u32::MAX || local_size == u32::MAX;
        if local_crc != crc || (!zip64 && (u64::from(local_csize) != csize || u64::from(local_size) != size)) {
            return Err(bad("local header and central directory disagree on the CRC or sizes"));
        }
    }
    Ok(())
}

/// The end-of-central-directory record must end the file exactly: no
/// trailing bytes after its comment.
fn check_end_of_directory(bytes: &[u8]) -> Result<()> {
    let len = bytes.len();
    if len < EOCD_LEN {
        return Err(bad(format!("{len} bytes is too short for a zip")));
    }
    // The comment is at most 65535 bytes, so the record is in the last 64 KiB + 22.
    let earliest = len.saturating_sub(EOCD_LEN.saturating_add(usize::from(u16::MAX)));
    let latest = len.saturating_sub(EOCD_LEN);
    let found = (earliest..=latest).rev().find(|&at| {
        bytes.get(at..at.saturating_add(4)) == Some(END_OF_DIRECTORY.as_slice())
            && le16(bytes, at.saturating_add(20)).map(usize::from)
                == Some(len.saturating_sub(at).saturating_sub(EOCD_LEN))
    });
    match found {
        Some(at) => {
            let comment_start = at.saturating_add(EOCD_LEN);
            let comment = bytes.get(comment_start..).unwrap_or_default();
            if comment.windows(4).any(|w| w == END_OF_DIRECTORY) {
                return Err(bad("a second end-of-central-directory record hides in the comment"));
            }
            Ok(())
        }
        None => Err(bad("no end-of-central-directory record ends the file (truncated, or trailing bytes)")),
    }
}
