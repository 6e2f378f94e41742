//! The keep-layout rewrite of a [`SparsePte`]: when the options change
//! nothing in the program, the stored flatbuffer is copied and the segment
//! data follows in table order, read from the table in place, so a table of
//! a million entries is rewritten without being decoded.

use std::io::Write;

use pte_schema::{DataSegment, Error, ErrorKind, Result};

use super::stored_program::{copy_if_bare, StoredProgram};
use crate::options::{ConstantPlacement, DelegatePlacement, SegmentLayout};
use crate::write::{copy_from, write_zeros};
use crate::{SparsePte, WriteOptions};

impl SparsePte<'_> {
    /// Writes into `dst` what [`crate::PteFile::write_keeping_program`]
    /// writes, byte for byte, when `options` keep the program as stored
    /// (constants and delegates where they are, stored offsets and
    /// alignments, an `eh00` header of 32 bytes, segment data present);
    /// `Ok(None)`, with nothing written, when they do not, and the caller
    /// takes the decoding path. A bare program is copied as stored
    /// ([`copy_if_bare`]). `source` is the file this was read from.
    pub(crate) fn write_keeping_program(
        &self,
        dst: &std::fs::File,
        options: &WriteOptions,
        source: &std::fs::File,
    ) -> Result<Option<u64>> {
        self.write_keeping(dst, options, source, false)
    }

    /// [`SparsePte::write_keeping_program`]; with `prefilled`, the program
    /// flatbuffer is in `dst` already ([`super::undecoded_plans::KeepRewrite::read_prefilling`]).
    pub(crate) fn write_keeping(
        &self,
        dst: &std::fs::File,
        options: &WriteOptions,
        source: &std::fs::File,
        prefilled: bool,
    ) -> Result<Option<u64>> {
        let bytes = self.bytes;
        let stored = WriteOptions::matching(&self.file, bytes);
        if options.constants() == ConstantPlacement::Segment
            || options.repacks_constants()
            || options.delegates() != DelegatePlacement::Keep
            || options.layout() != SegmentLayout::Keep
            || options.tensor_alignment() != stored.tensor_alignment()
            || options.delegate_alignment() != stored.delegate_alignment()
        {
            return Ok(None);
        }
        let data_size = self.segments().try_fold(0u64, |m, (s, _)| s.offset.checked_add(s.size).map(|e| m.max(e)));
        if let (Some(n), false) = (data_size, prefilled)
            && let Some(written) = copy_if_bare(dst, (source, bytes), n)?
        {
            return Ok(Some(written));
        }
        let Some(program) = StoredProgram::split(bytes)? else { return Ok(None) };
        let Some(order) = self.write_order()? else { return Ok(None) };
        let Some(data_size) = data_size.filter(|&n| n > 0) else { return Ok(None) };
        if !program.header_fits() {
            return Ok(None);
        }
        let (mut w, file_size) =
            program.write_prologue(dst, (source, bytes), options.segment_alignment(), data_size, prefilled)?;
        let mut at = 0u64;
        let mut put = |w: &mut std::io::BufWriter<&std::fs::File>, s: DataSegment, d: &[u8]| -> Result<()> {
            // empty segments, and a second entry for a range already written, add no bytes
            if s.size == 0 || s.offset.saturating_add(s.size) <= at {
                return Ok(());
            }
            write_zeros(w, s.offset.saturating_sub(at))?;
            copy_from(source, bytes, w, d)?;
            at = s.offset.saturating_add(s.size);
            Ok(())
        };
        match order {
            Order::Table => {
                for (s, d) in self.segments() {
                    put(&mut w, s, d)?;
                }
            }
            Order::Sorted(list) => {
                for i in list {
                    if let Some((s, d)) = self.entry(i) {
                        put(&mut w, s, d)?;
                    }
                }
            }
        }
        write_zeros(&mut w, data_size.saturating_sub(at))?;
        w.flush()?;
        Ok(Some(file_size))
    }

    /// The order segments are written in (by offset), after checking, as
    /// the decoding writer checks, that no two distinct ranges overlap. A
    /// table already in order, as writers lay it out, needs no heap.
    fn write_order(&self) -> Result<Option<Order>> {
        let mut sorted = true;
        let mut last: Option<(u64, u64)> = None;
        for (s, _) in self.segments() {
            let key = (s.offset, s.size);
            sorted &= last.is_none_or(|l| l <= key);
            last = Some(key);
        }
        let mut ranges: Vec<(u64, u64, usize)> = vec![];
        let check = |r: (u64, u64, usize), prev: &mut Option<(u64, u64, usize)>| -> Result<()> {
            if let Some((s0, end, a)) = *prev {
                let (start, e1, b) = r;
                // the same range: the same bytes, so a shared blob
                if !(s0 == start && end == e1) && start < end {
                    return Err(Error::new(
                        ErrorKind::InvalidUse,
                        format!("segments[{a}] and segments[{b}] overlap, so their stored offsets cannot be kept; write with SegmentLayout::Repack"),
                    ));
                }
            }
            *prev = Some(r);
            Ok(())
        };
        let mut prev = None;
        let nonempty = self.segments().enumerate().filter(|(_, (s, _))| s.size > 0);
        let spans = nonempty.map(|(i, (s, _))| (s.offset, s.offset.saturating_add(s.size), i));
        if sorted {
            for r in spans {
                check(r, &mut prev)?;
            }
            return Ok(Some(Order::Table));
        }
        ranges.extend(spans);
        ranges.sort_unstable();
        for r in ranges.iter().copied() {
            check(r, &mut prev)?;
        }
        let mut order: Vec<(u64, u64, usize)> =
            self.segments().enumerate().map(|(i, (s, _))| (s.offset, s.size, i)).collect();
        // stable: entries naming one range keep their table order
        order.sort_by_key(|&(offset, size, _)| (offset, size));
        Ok(Some(Order::Sorted(order.into_iter().map(|(_, _, i)| i).collect())))
    }
}

enum Order {
    /// The table is in offset order already.
    Table,
    /// Table indices in offset order.
    Sorted(Vec<usize>),
}

#[cfg(test)]
#[path = "table_in_place_tests.rs"]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]
mod tests;
