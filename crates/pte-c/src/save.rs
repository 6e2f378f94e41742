//! Saving a handle's file, as stored or with its layout changed: always
//! atomically (temporary file beside the target, fsync, rename), the way
//! `pte rewrite` saves.

use std::path::Path;

use pte_file::{ConstantPlacement, DelegatePlacement, LayoutChange, WriteOptions};

use crate::error::{Fail, PteStatus};
use crate::handle::PteHandle;

/// Where a rewrite puts delegate blobs (`PteLayoutOptions::delegates`).
///
/// ```
/// assert_eq!(pte_c::PteDelegatePlacement::Keep as u32, 0);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PteDelegatePlacement {
    /// As stored.
    Keep = 0,
    /// Every delegate blob inline in the flatbuffer.
    Inline = 1,
    /// Every non-empty delegate blob in its own segment.
    Segment = 2,
}

/// What a rewrite does with legacy inline constants (`PteLayoutOptions::constants`).
///
/// ```
/// assert_eq!(pte_c::PteConstantPlacement::Segment as u32, 1);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PteConstantPlacement {
    /// As stored.
    Keep = 0,
    /// Moved into a constant segment.
    Segment = 1,
}

/// A `.pte` rewrite's layout (`pte rewrite`'s options): a zero alignment and
/// the `KEEP` placements keep what the file shows. The placements are
/// plain integers so that a value C made up is refused, never undefined.
///
/// ```
/// let keep = pte_c::PteLayoutOptions { segment_alignment: 0, constant_alignment: 0, delegate_alignment: 0, delegates: 0, constants: 0 };
/// assert_eq!(keep.delegates, pte_c::PteDelegatePlacement::Keep as u32);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PteLayoutOptions {
    /// Alignment of the segment base and every segment (0: as stored).
    pub segment_alignment: u64,
    /// Alignment of constant tensors in the constant segment (0: as stored).
    pub constant_alignment: u64,
    /// Alignment of inline delegate data (0: as stored).
    pub delegate_alignment: u64,
    /// A `PteDelegatePlacement`.
    pub delegates: u32,
    /// A `PteConstantPlacement`.
    pub constants: u32,
}

impl PteLayoutOptions {
    fn change(&self) -> Result<LayoutChange, Fail> {
        let some = |a: u64| (a != 0).then_some(a);
        let delegates = match self.delegates {
            0 => DelegatePlacement::Keep,
            1 => DelegatePlacement::Inline,
            2 => DelegatePlacement::Segment,
            n => {
                return Err(Fail::new(PteStatus::InvalidArgument, format!("delegates: {n} is no PteDelegatePlacement")))
            }
        };
        let constants = match self.constants {
            0 => None,
            1 => Some(ConstantPlacement::Segment),
            n => {
                return Err(Fail::new(PteStatus::InvalidArgument, format!("constants: {n} is no PteConstantPlacement")))
            }
        };
        let change = LayoutChange {
            segment_alignment: some(self.segment_alignment),
            constant_alignment: some(self.constant_alignment),
            delegate_alignment: some(self.delegate_alignment),
            delegates,
            constants,
            ..LayoutChange::default()
        };
        // a bad alignment is the caller's, reported before any file is touched
        change.apply(WriteOptions::default())?;
        Ok(change)
    }
}

/// The bytes as they are, to `path`.
pub(crate) fn save(h: &PteHandle, path: &Path) -> Result<u64, Fail> {
    let bytes = h.bytes();
    Ok(pte_core::write_atomically(path, |w| {
        w.write_all(bytes)?;
        Ok(bytes.len() as u64)
    })?)
}

/// `pte rewrite FILE OUT` with `options`, through the door: a handle
/// opened from a path is rewritten from that file (`pte::rewrite`, segments
/// copied file to file, an in-place edit locked), one opened from bytes
/// from its bytes (`pte::rewrite_bytes`); both write the same bytes.
pub(crate) fn rewrite(h: &PteHandle, path: &Path, options: &PteLayoutOptions) -> Result<u64, Fail> {
    let change = options.change()?;
    let kind = h.kind();
    if !kind.is_pte() && !kind.is_ptn() {
        return Err(Fail::kind("rewrite", kind));
    }
    let done = match (h.map(), h.path()) {
        (Some(_), Some(input)) => pte::rewrite(input, path, &change, pte_core::LockWait::Block),
        _ => pte::rewrite_bytes(h.bytes(), h.path(), true, path, &change, pte_core::LockWait::Block),
    };
    Ok(done?)
}
