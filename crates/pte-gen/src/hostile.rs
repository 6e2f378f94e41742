//! Resource-hostile files: packages whose members inflate to gigabytes from
//! a few megabytes, packages at the member-count limit, and programs whose
//! segment table lists one range a million times. Built without ever
//! holding the inflated bytes: a deflate stream of one repeated byte is the
//! same full-flushed block over and over, so it is written once and copied.

use std::io::Write;

use flate2::{Compress, Compression, FlushCompress};

use crate::edit::{unzip, Edit};

/// One member to put in a hostile package.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Payload {
    /// Stored bytes.
    Stored(Vec<u8>),
    /// A deflated run of `fill` bytes that inflates to `inflated` bytes while
    /// both zip headers claim `declared` (equal for an honest header).
    Bomb {
        /// Bytes the stream really inflates to.
        inflated: u64,
        /// Bytes the local and central headers claim.
        declared: u64,
        /// The repeated byte.
        fill: u8,
    },
}

/// How much one full-flushed block inflates to: a mebibyte deflates to about
/// a kibibyte.
const CHUNK: u64 = 1 << 20;

/// A raw deflate stream of `n` copies of `fill` (a multiple of 1 MiB, or
/// rounded up to one) and the CRC-32 of those bytes.
fn deflate_run(n: u64, fill: u8) -> Edit<(Vec<u8>, u32, u64)> {
    let chunks = n.div_ceil(CHUNK).max(1);
    let plain = vec![fill; usize::try_from(CHUNK).map_err(|e| e.to_string())?];
    let mut block = Vec::with_capacity(1 << 16);
    Compress::new(Compression::best(), false)
        .compress_vec(&plain, &mut block, FlushCompress::Full)
        .map_err(|e| e.to_string())?;
    let mut end = Vec::with_capacity(16);
    Compress::new(Compression::best(), false)
        .compress_vec(&[], &mut end, FlushCompress::Finish)
        .map_err(|e| e.to_string())?;
    let cap = block.len().saturating_mul(usize::try_from(chunks).map_err(|e| e.to_string())?);
    let mut out = Vec::with_capacity(cap.saturating_add(end.len()));
    let mut crc = crc32fast::Hasher::new();
    let mut one = crc32fast::Hasher::new();
    one.update(&plain);
    for _ in 0..chunks {
        out.extend_from_slice(&block);
        crc.combine(&one);
    }
    out.extend_from_slice(&end);
    Ok((out, crc.finalize(), chunks.saturating_mul(CHUNK)))
}

fn u16_of(n: usize) -> Edit<u16> {
    u16::try_from(n).map_err(|_| format!("{n} does not fit a 16-bit zip field"))
}

fn u32_of(n: u64) -> Edit<u32> {
    u32::try_from(n).map_err(|_| format!("{n} does not fit a 32-bit zip field (no zip64 here)"))
}

/// Writes a plain zip (no zip64: under 65,535 members and 4 GiB) by hand,
/// so headers can claim what the data is not.
fn raw_zip(members: &[(String, u16, u32, Vec<u8>, u64)]) -> Edit<Vec<u8>> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, method, crc, data, declared) in members {
        let offset = u32_of(out.len() as u64)?;
        let header = |sig: &[u8], out: &mut Vec<u8>, central: bool| -> Edit<()> {
            out.extend_from_slice(sig);
            if central {
                out.extend_from_slice(&20u16.to_le_bytes()); // made by
            }
            out.extend_from_slice(&20u16.to_le_bytes()); // needed to extract
            out.extend_from_slice(&0u16.to_le_bytes()); // flags
            out.extend_from_slice(&method.to_le_bytes());
            out.extend_from_slice(&0u32.to_le_bytes()); // time, date
            out.extend_from_slice(&crc.to_le_bytes());
            out.extend_from_slice(&u32_of(data.len() as u64)?.to_le_bytes());
            out.extend_from_slice(&u32_of(*declared)?.to_le_bytes());
            out.extend_from_slice(&u16_of(name.len())?.to_le_bytes());
            out.extend_from_slice(&0u16.to_le_bytes()); // extra
            if central {
                out.extend_from_slice(&[0u8; 6]); // comment length, disk, internal attributes
                out.extend_from_slice(&0u32.to_le_bytes()); // external attributes
                out.extend_from_slice(&offset.to_le_bytes());
            }
            out.extend_from_slice(name.as_bytes());
            Ok(())
        };
        header(b"PK\x03\x04", &mut out, false)?;
        out.extend_from_slice(data);
        header(b"PK\x01\x02", &mut central, true)?;
    }
    let start = u32_of(out.len() as u64)?;
    let count = u16_of(members.len())?;
    out.extend_from_slice(&central);
    out.extend_from_slice(b"PK\x05\x06");
    out.extend_from_slice(&[0u8; 4]); // disk numbers
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&u32_of(central.len() as u64)?.to_le_bytes());
    out.extend_from_slice(&start.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes()); // comment length
    Ok(out)
}

/// `base` (a valid `.ptn`) with `extra` members appended, every member
/// written by hand so a bomb's headers say exactly what [`Payload::Bomb`]
/// asks. A bomb's real inflated size is rounded up to whole mebibytes.
///
/// ```
/// use pte_gen::hostile::{ptn_with_members, Payload};
/// let base = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// let bomb = Payload::Bomb { inflated: 4 << 20, declared: 4 << 20, fill: 0 };
/// let bytes = ptn_with_members(&base, &[("program.safetensors".into(), bomb)])?;
/// assert!(bytes.len() < base.len() + (1 << 20));
/// assert!(pte_ptn::PtnFile::from_bytes(&bytes).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn ptn_with_members(base: &[u8], extra: &[(String, Payload)]) -> Edit<Vec<u8>> {
    let replaced = |n: &str| extra.iter().any(|(e, _)| e == n);
    let mut members = Vec::new();
    for (name, data) in unzip(base)? {
        if !replaced(&name) {
            members.push((name, 0u16, crc32fast::hash(&data), data.clone(), data.len() as u64));
        }
    }
    for (name, payload) in extra {
        members.push(match payload {
            Payload::Stored(data) => (name.clone(), 0, crc32fast::hash(data), data.clone(), data.len() as u64),
            Payload::Bomb { inflated, declared, fill } => {
                let (data, crc, real) = deflate_run(*inflated, *fill)?;
                let declared = if declared == inflated { real } else { *declared };
                (name.clone(), 8, crc, data, declared)
            }
        });
    }
    raw_zip(&members)
}

/// `base` with empty stored members `extra/NNNNN` added until the package
/// holds `total` members (zip64 end records when past 65,535).
///
/// ```
/// let base = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// let bytes = pte_gen::hostile::ptn_many_members(&base, 100)?;
/// assert_eq!(zip::ZipArchive::new(std::io::Cursor::new(&bytes)).map_err(|e| e.to_string())?.len(), 100);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn ptn_many_members(base: &[u8], total: usize) -> Edit<Vec<u8>> {
    let members = unzip(base)?;
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .last_modified_time(zip::DateTime::default());
    for (name, data) in &members {
        w.start_file(name.as_str(), opts).map_err(|e| e.to_string())?;
        w.write_all(data).map_err(|e| e.to_string())?;
    }
    for i in members.len()..total {
        w.start_file(format!("extra/{i:05}"), opts).map_err(|e| e.to_string())?;
    }
    Ok(w.finish().map_err(|e| e.to_string())?.into_inner())
}

/// `base` (a valid `.pte` with at least one segment) with its segment table
/// replaced by `count` entries all naming the first segment's range: a small
/// file that asks a naive extractor for `count` files.
///
/// ```
/// let base = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let bytes = pte_gen::hostile::pte_shared_segments(&base, 1000)?;
/// assert_eq!(pte_file::PteFile::from_bytes(&bytes).map_err(|e| e.to_string())?.segments.len(), 1000);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn pte_shared_segments(base: &[u8], count: usize) -> Edit<Vec<u8>> {
    let mut pte = pte_file::PteFile::from_bytes(base).map_err(|e| format!("not a readable program: {e}"))?;
    let table = pte.program.segments.as_mut().ok_or("the program has no segment table")?;
    let first = *table.first().ok_or("the program has no segment")?;
    let bytes = pte.segments.first().cloned().ok_or("the program has no segment")?;
    *table = vec![first; count];
    pte.segments = vec![bytes; count];
    pte.to_bytes(&pte_file::WriteOptions::default()).map_err(|e| format!("the writer refused: {e}"))
}
