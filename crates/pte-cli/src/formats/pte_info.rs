//! `pte info` of a `.pte`, printed while the segment table is walked in
//! place: the summary of everything else is built as before, but the table
//! (a million entries in a hostile file) is never decoded, held or turned
//! into a JSON tree, so memory does not grow with it.

// serde_json::Value indexing yields Null for a missing key and never panics.
#![allow(clippy::indexing_slicing)]

use std::collections::BTreeMap;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

use pte_core::FileKind;
use pte_file::SparsePte;

use crate::failure::{at, CmdResult};
use crate::formats::{inspect, pte};
use crate::input::require_kind;

/// `pte info FILE` (text or `--json`) for a `.pte`.
pub(crate) fn run(file: &Path, bytes: &[u8], json: bool, tensors: bool) -> CmdResult {
    require_kind(file, bytes, FileKind::Pte)?;
    let sparse = SparsePte::from_bytes(bytes).map_err(at(file))?;
    let program = &sparse.file;
    let index_of = |i: u32| sparse.original(i);
    let mut v = pte::summary_json(program, bytes, &index_of);
    for (m, d) in v["methods"].as_array_mut().into_iter().flatten().zip(inspect::buffer_devices(&program.program)) {
        m["buffer_devices"] = d;
    }
    v["external_data"] = inspect::external_groups(program, file);
    let mut extra = inspect::external_text(&v["external_data"]);
    if tensors {
        v["tensors"] = inspect::pte_tensors(program, bytes, &index_of);
        extra.push_str(&inspect::tensors_text(&v["tensors"]));
    }
    let kinds = pte::segment_kinds(program, sparse.segment_count(), &index_of);
    let rows = Rows { sparse: &sparse, kinds: &kinds };
    write_stdout(|w| {
        if json {
            serde_json::to_writer_pretty(&mut *w, &WithRows { summary: &v, key: "segments", rows })?;
            return w.write_all(b"\n");
        }
        w.write_all(pte::text_head(&v).as_bytes())?;
        w.write_all(pte::segments_title(sparse.segment_count()).as_bytes())?;
        rows.each(|row| w.write_all(pte::segment_line(&row).as_bytes()))?;
        w.write_all(pte::text_tail(&v).as_bytes())?;
        w.write_all(extra.as_bytes())
    })
}

/// Runs `write` over a buffered standard output; standard output closed
/// early (`pte info x | head`) ends the process quietly.
pub(crate) fn write_stdout(write: impl FnOnce(&mut BufWriter<io::StdoutLock<'static>>) -> io::Result<()>) -> CmdResult {
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    if write(&mut out).and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
    Ok(())
}

/// The segment list, one entry at a time.
#[derive(Clone, Copy)]
struct Rows<'r, 'a> {
    sparse: &'r SparsePte<'a>,
    kinds: &'r BTreeMap<u32, Vec<String>>,
}

impl Rows<'_, '_> {
    fn each<E>(&self, mut f: impl FnMut(Value) -> Result<(), E>) -> Result<(), E> {
        for (i, (s, _)) in self.sparse.segments().enumerate() {
            f(pte::segment_json(i, &s, u32::try_from(i).ok().and_then(|i| self.kinds.get(&i))))?;
        }
        Ok(())
    }
}

impl Serialize for Rows<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.sparse.segment_count()))?;
        self.each(|row| seq.serialize_element(&row))?;
        seq.end()
    }
}

/// The summary with its `key` entry written from `rows`: the same keys in
/// the same (sorted) order, so the text is what the whole tree gives.
pub(crate) struct WithRows<'v, R> {
    pub(crate) summary: &'v Value,
    pub(crate) key: &'static str,
    pub(crate) rows: R,
}

impl<R: Serialize> Serialize for WithRows<'_, R> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Some(fields) = self.summary.as_object() else { return self.summary.serialize(s) };
        let mut map = s.serialize_map(Some(fields.len()))?;
        for (k, x) in fields {
            if k == self.key {
                map.serialize_entry(k, &self.rows)?;
            } else {
                map.serialize_entry(k, x)?;
            }
        }
        map.end()
    }
}
