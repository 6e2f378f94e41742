//! Where a program's (or data file's) stored bytes lie: segments,
//! constants, named data and delegate blobs, as offsets into the file.

use std::ffi::CString;

use pte_core::FileKind;
use pte_file::ptd::PtdFile;
use pte_file::view::{PteView, SegmentTable};
use pte_schema::DataLocation;

use crate::error::{c_string, Fail, PteStatus};

/// A range of the file's bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) offset: usize,
    pub(crate) len: usize,
}

/// The span of `part` in `whole`; an empty part outside it (a placeholder
/// slice) is the empty span at 0.
pub(crate) fn span_in(whole: &[u8], part: &[u8]) -> Option<Span> {
    // comparing addresses only: no pointer is dereferenced
    let start = whole.as_ptr() as usize;
    let at = part.as_ptr() as usize;
    let offset = at.checked_sub(start).filter(|o| o.checked_add(part.len()).is_some_and(|end| end <= whole.len()));
    match offset {
        Some(offset) => Some(Span { offset, len: part.len() }),
        None if part.is_empty() => Some(Span::default()),
        None => None,
    }
}

fn located(whole: &[u8], part: &[u8]) -> Result<Span, Fail> {
    span_in(whole, part).ok_or_else(|| Fail::new(PteStatus::Internal, "a view's bytes lie outside the file"))
}

/// A named blob: a program's named data, or a `.ptd` entry.
#[derive(Debug)]
pub(crate) struct Named {
    pub(crate) key: CString,
    /// Its segment in the stored table.
    pub(crate) segment: u32,
    pub(crate) span: Span,
}

/// A delegate's processed blob.
#[derive(Debug)]
pub(crate) struct Delegate {
    pub(crate) id: CString,
    pub(crate) plan: usize,
    pub(crate) index: usize,
    pub(crate) inline: bool,
    pub(crate) span: Span,
}

/// One table, or why it cannot be read (the others may still be).
pub(crate) type Table<T> = Result<Vec<T>, (PteStatus, String)>;

/// The tables of one file, built once.
#[derive(Debug)]
pub(crate) struct Blobs {
    /// Each stored segment; `None` where it lies outside the file.
    pub(crate) segments: Vec<Option<Span>>,
    pub(crate) constants: Table<Span>,
    pub(crate) named: Table<Named>,
    pub(crate) delegates: Table<Delegate>,
}

fn broken<T>(what: &str) -> Table<T> {
    Err((PteStatus::Malformed, format!("the {what} table does not read: `pte verify` names the problem")))
}

fn wrong<T>(what: &str, kind: FileKind) -> Table<T> {
    Err((PteStatus::WrongKind, format!("a {kind} file has no {what}")))
}

impl Blobs {
    pub(crate) fn read(kind: FileKind, bytes: &[u8]) -> Result<Blobs, Fail> {
        if kind.is_pte() {
            Blobs::program(bytes)
        } else if kind.is_ptd() {
            Blobs::data_file(bytes)
        } else {
            Err(Fail::kind("segments, constants, named data and delegate blobs", kind))
        }
    }

    fn program(bytes: &[u8]) -> Result<Blobs, Fail> {
        // the whole stored table, as `PteFile` reads it: every segment answers
        let view = PteView::read(bytes, SegmentTable::Whole)?;
        let n = view.program().segment_count();
        let mut segments = Vec::with_capacity(n.min(bytes.len()));
        for i in 0..n {
            let seg = u32::try_from(i).ok().and_then(|i| view.segment(i));
            segments.push(seg.map(|s| located(bytes, s)).transpose()?);
        }
        let constants = match view.constants() {
            None => broken("constant"),
            Some(subs) => {
                let inline: Vec<&[u8]> = match subs.segment() {
                    Some(_) => vec![],
                    None => view
                        .program()
                        .constant_buffer()
                        .map(|b| b.map(Option::unwrap_or_default).collect())
                        .unwrap_or_default(),
                };
                let seg = subs.segment().and_then(|s| view.segment(s)).unwrap_or_default();
                let mut out = Vec::with_capacity(subs.len());
                for c in subs.iter() {
                    let part = match subs.segment() {
                        Some(_) => usize::try_from(c.offset)
                            .ok()
                            .zip(usize::try_from(c.len).ok())
                            .and_then(|(o, l)| seg.get(o..o.checked_add(l)?)),
                        None => inline.get(c.index).copied(),
                    };
                    let part =
                        part.ok_or_else(|| Fail::new(PteStatus::Internal, "a constant lies outside its segment"))?;
                    out.push(located(bytes, part)?);
                }
                Ok(out)
            }
        };
        let named = match view.named_data() {
            None => broken("named data"),
            Some(entries) => {
                let mut out = vec![];
                for (key, segment, data) in entries {
                    out.push(Named { key: c_string(key), segment, span: located(bytes, data)? });
                }
                Ok(out)
            }
        };
        let delegates = match view.delegates() {
            None => broken("delegate"),
            Some(list) => {
                let mut out = Vec::with_capacity(list.len());
                for d in list {
                    out.push(Delegate {
                        id: c_string(d.id),
                        plan: d.plan,
                        index: d.delegate,
                        inline: d.location == DataLocation::INLINE,
                        span: located(bytes, d.bytes)?,
                    });
                }
                Ok(out)
            }
        };
        Ok(Blobs { segments, constants, named, delegates })
    }

    fn data_file(bytes: &[u8]) -> Result<Blobs, Fail> {
        let ptd = PtdFile::from_bytes(bytes)?;
        let mut segments = Vec::with_capacity(ptd.segments.len());
        for s in &ptd.segments {
            segments.push(Some(located(bytes, s)?));
        }
        let mut named = vec![];
        for key in ptd.keys() {
            let Some((_, data)) = ptd.get(key)? else { continue };
            // the segment holding the entry: the one whose span contains its bytes
            let span = located(bytes, data)?;
            let segment = segments
                .iter()
                .position(|s| {
                    s.is_some_and(|s| span.offset >= s.offset && span.offset <= s.offset.saturating_add(s.len))
                })
                .and_then(|i| u32::try_from(i).ok())
                .unwrap_or(u32::MAX);
            named.push(Named { key: c_string(key), segment, span });
        }
        Ok(Blobs {
            segments,
            constants: wrong("constants", FileKind::Ptd),
            named: Ok(named),
            delegates: wrong("delegate blobs", FileKind::Ptd),
        })
    }
}
