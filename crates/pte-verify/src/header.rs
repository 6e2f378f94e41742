//! The extended header and the segment table: the header's sizes against
//! the file, and every segment and sub-segment offset against its region.

use pte_schema::Program;
use pte_segments::ExtendedHeader;

use super::checker::Checker;
use super::rules;

pub(super) fn check_header(c: &mut Checker<'_>, h: &ExtendedHeader, len: u64) {
    if h.program_size < 8 || h.program_size > len {
        c.add(
            rules::HEADER_PROGRAM_SIZE,
            "eh00.program_size",
            Some(16),
            format!("program_size {} is outside [8, {len}]", h.program_size),
        );
    }
    let (sbo, sds) = (h.segment_base_offset, h.segment_data_size);
    if (sds == 0 && sbo == 0) || sds > 0 {
        match sbo.checked_add(sds) {
            None => c.add(
                rules::HEADER_FILE_SIZE,
                "eh00.segment_data_size",
                Some(32),
                "segment_base_offset + segment_data_size overflows",
            ),
            Some(end) => {
                let expected = if sbo == 0 { h.program_size } else { end };
                if expected > len {
                    c.add(
                        rules::HEADER_FILE_SIZE,
                        "eh00",
                        Some(24),
                        format!("header says the file has {expected} bytes, it has {len}"),
                    );
                }
            }
        }
    }
    if sbo != 0 && sbo < h.program_size {
        c.add(
            rules::HEADER_SEGMENT_BASE,
            "eh00.segment_base_offset",
            Some(24),
            format!("segment base {sbo} lies inside the {}-byte program", h.program_size),
        );
    }
}

pub(super) fn check_offsets(c: &mut Checker<'_>, offsets: &[u64], seg: Option<u64>, path: &str) {
    let mut prev = 0u64;
    for (i, &o) in offsets.iter().enumerate() {
        if o < prev {
            c.add(
                rules::SUBSEGMENT_OFFSETS,
                format!("{path}[{i}]"),
                None,
                format!("offset {o} is below the previous offset {prev}"),
            );
        }
        if let Some(size) = seg
            && o > size
        {
            c.add(
                rules::SUBSEGMENT_OFFSETS,
                format!("{path}[{i}]"),
                None,
                format!("offset {o} is past the {size}-byte segment"),
            );
        }
        prev = prev.max(o);
    }
}

pub(super) fn check_segments(c: &mut Checker<'_>, p: &Program<'_>, header: Option<&ExtendedHeader>, bytes: &[u8]) {
    let table = p.segment_table();
    let len = bytes.len() as u64;
    let base = header.map_or(0, |h| h.segment_base_offset);
    let sds = header.map_or(0, |h| h.segment_data_size);
    let mut spans = vec![];
    for (i, s) in table.iter().enumerate() {
        let path = format!("segments[{i}]");
        if s.size == 0 {
            continue;
        }
        if base == 0 {
            c.add(
                rules::HEADER_REQUIRED,
                &path,
                None,
                format!("segment holds {} bytes but the file has no segment base", s.size),
            );
            continue;
        }
        match base.checked_add(s.offset).and_then(|a| a.checked_add(s.size).map(|e| (a, e))) {
            None => c.add(rules::SEGMENT_BOUNDS, &path, None, "segment range overflows 64 bits"),
            Some((start, end)) => {
                if end > len {
                    c.add(
                        rules::SEGMENT_BOUNDS,
                        &path,
                        Some(start),
                        format!("segment ends at byte {end}, past the {len}-byte file"),
                    );
                }
                if sds > 0 && s.offset.saturating_add(s.size) > sds {
                    c.add(
                        rules::SEGMENT_BOUNDS,
                        &path,
                        Some(start),
                        format!("segment ends past segment_data_size {sds}"),
                    );
                }
                spans.push((s.offset, s.offset.saturating_add(s.size), i, start));
            }
        }
    }
    spans.sort_unstable();
    for w in spans.windows(2) {
        if let [(s0, end, a, _), (start, e1, b, off)] = w {
            // the same range named twice is sharing, not overlap
            if start < end && !(s0 == start && end == e1) {
                c.add(rules::SEGMENT_OVERLAP, format!("segments[{b}]"), Some(*off), format!("overlaps segments[{a}]"));
            }
        }
    }
}
