//! A `.pte` read for summaries of files whose segment table is huge: the
//! program is decoded without its table, which stays in the buffer and is
//! read through the view; only the entries the program refers to are
//! decoded, renumbered in order, so the accessors of [`PteFile`] work on
//! them. A table of a million entries then costs no heap at all.

use std::borrow::Cow;
use std::collections::BTreeMap;

use pte_schema::{
    BackendDelegateInlineData, Buffer, DataSegment, Error, ErrorKind, Limits, NamedData, Program, ProgramView, Result,
    SubsegmentOffsets, ValueRef,
};
use pte_segments::ranges::segment_bytes;

use crate::read::{program_region, ReadOptions};
use crate::transform::remap_segment_refs;
use crate::PteFile;

/// A `.pte` whose [`PteFile`] holds only the referenced segment entries.
///
/// `file` is the program as stored except that its segment table lists only
/// the entries the program refers to (constant, mutable, named and delegate
/// segments), in table order, and every reference is renumbered to match.
/// The whole table is read from the buffer ([`SparsePte::segments`]).
pub(crate) struct SparsePte<'a> {
    /// The program with its segment table cut to the referenced entries.
    pub(crate) file: PteFile<'a>,
    /// The stored program, whole table included.
    pub(crate) view: ProgramView<'a>,
    pub(crate) bytes: &'a [u8],
    pub(super) base: u64,
}

impl<'a> SparsePte<'a> {
    /// Reads `bytes` with default limits; fails exactly where
    /// [`PteFile::from_bytes`] fails, with the same error.
    pub(crate) fn from_bytes(bytes: &'a [u8]) -> Result<Self> {
        Self::from_bytes_with(bytes, &ReadOptions::default())
    }

    /// Reads `bytes` with `options`, as [`PteFile::from_bytes_with`].
    pub(crate) fn from_bytes_with(bytes: &'a [u8], options: &ReadOptions) -> Result<Self> {
        let (header, region) = program_region(bytes)?;
        let view = ProgramView::new(region, &options.limits)?;
        let mut program = without_table(&view)?;
        // the checks decode_program makes after decoding, in its order
        let limits = &options.limits;
        if view.segment_count() > limits.max_segments {
            return Err(Error::new(
                ErrorKind::LimitExceeded,
                format!("{} segments entries exceed the limit of {}", view.segment_count(), limits.max_segments),
            )
            .at_path("segments"));
        }
        limits.check_program(&program)?;
        let base = header.map_or(0, |h| h.segment_base_offset);
        let n = view.segment_count();
        let seen = std::cell::RefCell::new(BTreeMap::<u32, u32>::new());
        remap_segment_refs(&mut program, |i| {
            if usize::try_from(i).is_ok_and(|i| i < n) {
                seen.borrow_mut().insert(i, 0);
            }
            i
        });
        let mut wanted = seen.into_inner();
        for (k, v) in wanted.values_mut().enumerate() {
            *v = u32::try_from(k).unwrap_or(u32::MAX);
        }
        let mut table = Vec::with_capacity(wanted.len());
        let mut segments = Vec::with_capacity(wanted.len());
        for (i, s) in view.segments().enumerate() {
            let data = entry_bytes(bytes, base, i, s)?;
            if u32::try_from(i).is_ok_and(|i| wanted.contains_key(&i)) {
                table.push(s);
                segments.push(Cow::Borrowed(data));
            }
        }
        // an index past the table stays past the (shorter) table
        remap_segment_refs(&mut program, |i| wanted.get(&i).copied().unwrap_or(u32::MAX));
        program.segments = view.has_segments().then_some(table);
        Ok(SparsePte { file: PteFile::new(program, segments), view, bytes, base })
    }

    /// Every entry of the stored table with its bytes, read in place.
    pub(crate) fn segments(&self) -> impl Iterator<Item = (DataSegment, &'a [u8])> + 'a + use<'a> {
        let (bytes, base) = (self.bytes, self.base);
        // every entry was checked when the file was read
        self.view.segments().enumerate().map(move |(i, s)| (s, entry_bytes(bytes, base, i, s).unwrap_or(&[])))
    }
}

impl SparsePte<'_> {
    /// Whether [`SparsePte::from_bytes_with`] would read `bytes`, given the
    /// verified view of its program: no union tag the model cannot hold,
    /// the counts and key lengths of `limits`, and every stored segment
    /// inside the file. Answered from the views and what verification
    /// noted, without decoding, so a reader can skip the decoding read of a
    /// sound file and still fail exactly where it fails.
    pub(crate) fn would_read(bytes: &[u8], view: &ProgramView<'_>, limits: &Limits) -> bool {
        let base = pte_segments::ExtendedHeader::parse(bytes).ok().flatten().map_or(0, |h| h.segment_base_offset);
        !view.has_unknown_union_tag()
            && within_limits(view, limits)
            && view.segments().enumerate().all(|(i, s)| entry_bytes(bytes, base, i, s).is_ok())
    }
}

/// The counts and key lengths the decoding read checks. The longest string
/// in the program, known from verification, answers for every key at once
/// unless some string is longer than a key may be.
fn within_limits(view: &ProgramView<'_>, limits: &Limits) -> bool {
    let key_ok = |k: Option<&str>| k.is_none_or(|k| k.len() <= limits.max_key_len);
    let keys_ok = || {
        view.named_data().all(|(k, _)| key_ok(k))
            && (0..view.plan_count()).filter_map(|i| view.plan(i)).all(|plan| {
                plan.value_refs().all(|v| match v {
                    ValueRef::Tensor(t) => key_ok(t.fqn()),
                    _ => true,
                })
            })
    };
    view.segment_count() <= limits.max_segments
        && view.named_data_count() <= limits.max_named_data
        && (view.longest_string() <= limits.max_key_len || keys_ok())
}

impl<'a> SparsePte<'a> {
    /// Entry `i` of the stored table with its bytes.
    pub(crate) fn entry(&self, i: usize) -> Option<(DataSegment, &'a [u8])> {
        let s = self.view.segment(i)?;
        Some((s, entry_bytes(self.bytes, self.base, i, s).unwrap_or(&[])))
    }
}

/// The bytes of table entry `i`, checked as [`PteFile::from_bytes_with`] checks them.
fn entry_bytes(bytes: &[u8], base: u64, i: usize, s: DataSegment) -> Result<&[u8]> {
    let field = || format!("segments[{i}]");
    if s.size == 0 {
        // even an empty segment's offset must lie in the file
        segment_bytes(bytes, base, s.offset, 0, &field())?;
        Ok(&[])
    } else if base == 0 {
        Err(Error::new(
            ErrorKind::Malformed,
            format!("segment of {} bytes listed, but the file has no segment base (no extended header)", s.size),
        )
        .at_path(field()))
    } else {
        segment_bytes(bytes, base, s.offset, s.size, &field())
    }
}

/// The owned program of `view`, except its segment table (left empty).
fn without_table<'a>(view: &ProgramView<'a>) -> Result<Program<'a>> {
    let plans = if view.has_execution_plan() {
        Some((0..view.plan_count()).filter_map(|i| view.plan(i)).map(|p| p.to_model()).collect::<Result<Vec<_>>>()?)
    } else {
        None
    };
    let inline = view.inline_delegate_count().map(|n| {
        (0..n)
            .map(|i| BackendDelegateInlineData { data: view.inline_delegate_data(i).flatten().map(Cow::Borrowed) })
            .collect()
    });
    let sub = |(segment_index, offsets): (u32, Option<pte_schema::List<'a, u64>>)| SubsegmentOffsets {
        segment_index,
        offsets: offsets.map(|o| o.iter().collect()),
    };
    Ok(Program {
        version: view.version(),
        execution_plan: plans,
        constant_buffer: view.constant_buffer().map(|b| b.map(|s| Buffer { storage: s.map(Cow::Borrowed) }).collect()),
        backend_delegate_data: inline,
        segments: None,
        constant_segment: view.constant_offsets().map(sub),
        mutable_data_segments: view.mutable_offsets().map(|m| m.map(sub).collect()),
        named_data: view.has_named_data().then(|| {
            view.named_data()
                .map(|(key, segment_index)| NamedData { key: key.map(str::to_string), segment_index })
                .collect()
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus() -> Vec<Vec<u8>> {
        let root = pte_testkit::corpus_dir();
        let mut out = vec![];
        for e in std::fs::read_dir(root).into_iter().flatten().flatten() {
            if let Ok(b) = std::fs::read(e.path().join("model.pte")) {
                out.push(b);
            }
        }
        out
    }

    #[test]
    fn sparse_agrees_with_the_full_read() {
        let files = corpus();
        assert!(files.len() > 5);
        for bytes in &files {
            let full = PteFile::from_bytes(bytes);
            let sparse = SparsePte::from_bytes(bytes);
            let (full, sparse) = match (full, sparse) {
                (Ok(f), Ok(s)) => (f, s),
                (Err(a), Err(b)) => {
                    assert_eq!(a, b);
                    continue;
                }
                (a, b) => panic!("one read failed: {:?} {:?}", a.err(), b.err()),
            };
            let data: Vec<&[u8]> = sparse.segments().map(|(_, d)| d).collect();
            assert_eq!(data, full.segments.iter().map(|d| d.as_ref()).collect::<Vec<_>>());
            assert_eq!(sparse.file.constants().ok(), full.constants().ok());
            assert_eq!(sparse.file.mutable_segments().ok(), full.mutable_segments().ok());
            // indices into the table are renumbered in the sparse read: the blobs must agree
            let named = |p: &PteFile<'_>| {
                p.named_data().ok().map(|v| v.iter().map(|n| (n.key.to_string(), n.bytes.to_vec())).collect::<Vec<_>>())
            };
            assert_eq!(named(&sparse.file), named(&full));
            let blobs = |p: &PteFile<'_>| {
                p.delegate_blobs().ok().map(|v| {
                    v.iter()
                        .map(|d| (d.plan, d.delegate, d.id.to_string(), d.location, d.bytes.to_vec()))
                        .collect::<Vec<_>>()
                })
            };
            assert_eq!(blobs(&sparse.file), blobs(&full));
            assert_eq!(sparse.file.program.plans(), full.program.plans());
        }
    }

    #[test]
    fn a_broken_reference_stays_broken() {
        let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte")).unwrap();
        let mut program = pte_schema::decode_program(program_region(&bytes).unwrap().1, &Default::default()).unwrap();
        program.constant_segment.as_mut().unwrap().segment_index = 7;
        // no header: the one segment must be empty to be readable at all
        program.segments = Some(vec![DataSegment { offset: 0, size: 0 }]);
        let fb = pte_schema::encode_program(&program, &Default::default()).unwrap();
        let sparse = SparsePte::from_bytes(&fb).unwrap();
        let full = PteFile::from_bytes(&fb).unwrap();
        assert!(full.constants().is_err());
        assert!(sparse.file.constants().is_err());
    }
}
