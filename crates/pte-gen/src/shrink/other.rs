//! Structural moves on the other kinds: a bundle's test suites, cases and
//! values (and its program, by the program moves), a `.ptd`'s entries and
//! segments, a package's tensors, aliases and members.

use std::borrow::Cow;

use pte_file::ptd::{PtdFile, PtdWriteOptions};
use pte_ptn::PtnFile;
use pte_schema::bundled::{decode_bundled_program, encode_bundled_program, BundledProgram as Bundle};

use super::search::{without, Search};
use super::Lens;

/// The program inside a bundle.
pub(crate) struct BundledProgram;

impl Lens for BundledProgram {
    fn get(&self, outer: &[u8]) -> Option<Vec<u8>> {
        decode_bundled_program(outer, &Default::default()).ok()?.program.map(|p| p.into_owned())
    }

    fn put(&self, outer: &[u8], inner: &[u8]) -> Option<Vec<u8>> {
        bundle(outer, |b| {
            b.program = Some(Cow::Owned(inner.to_vec()));
            Some(())
        })
    }
}

/// A bundle edited by `change`, encoded again.
fn bundle(bytes: &[u8], change: impl FnOnce(&mut Bundle<'_>) -> Option<()>) -> Option<Vec<u8>> {
    let mut b = decode_bundled_program(bytes, &Default::default()).ok()?;
    change(&mut b)?;
    encode_bundled_program(&b).ok()
}

/// Reduces every list `lists(model)` names, re-reading the current best for
/// each: `count(model, i)` is list `i`'s length, `cut(model, i, range)`
/// removes a range of it. True on progress.
fn lists<M>(
    s: &mut Search<'_>,
    read: impl Fn(&[u8]) -> Option<M>,
    write: impl Fn(&M) -> Option<Vec<u8>>,
    count: impl Fn(&M, usize) -> Option<usize>,
    cut: impl Fn(&mut M, usize, std::ops::Range<usize>) -> Option<()>,
) -> bool {
    let mut progress = false;
    let mut i = 0usize;
    while s.stop.is_none() {
        let Some(n) = read(&s.best).and_then(|m| count(&m, i)) else { break };
        progress |= s.reduce(n, 1, |best, r| {
            let mut m = read(best)?;
            cut(&mut m, i, r)?;
            write(&m)
        });
        i = i.saturating_add(1);
    }
    progress
}

/// A bundle's suites, then each suite's cases, then each case's inputs and
/// expected outputs (list `i` in that order, flattened).
pub(crate) fn bpte(s: &mut Search<'_>) -> bool {
    let read = |b: &[u8]| decode_bundled_program(b, &Default::default()).ok().map(Bundle::into_owned);
    let write = |m: &Bundle<'static>| encode_bundled_program(m).ok();
    // list 0: suites; then per suite: cases; then per case: inputs, outputs
    fn locate(m: &mut Bundle<'static>, i: usize, f: &mut dyn FnMut(ListRef<'_>) -> Option<usize>) -> Option<usize> {
        let suites = m.method_test_suites.get_or_insert_with(Vec::new);
        if i == 0 {
            return f(ListRef::Suites(suites));
        }
        let mut k = 1usize;
        for suite in suites.iter_mut() {
            let cases = suite.test_cases.get_or_insert_with(Vec::new);
            if k == i {
                return f(ListRef::Cases(cases));
            }
            k = k.saturating_add(1);
            for case in cases.iter_mut() {
                for list in [&mut case.inputs, &mut case.expected_outputs] {
                    if k == i {
                        return f(ListRef::Values(list.get_or_insert_with(Vec::new)));
                    }
                    k = k.saturating_add(1);
                }
            }
        }
        None
    }
    let count = |m: &Bundle<'static>, i: usize| {
        let mut m = m.clone();
        locate(&mut m, i, &mut |l| Some(l.len()))
    };
    let cut = |m: &mut Bundle<'static>, i: usize, r: std::ops::Range<usize>| {
        locate(m, i, &mut |l| l.cut(r.clone())).map(|_| ())
    };
    let mut progress = lists(s, read, write, count, cut);
    progress |= super::program::pass(s, &BundledProgram);
    progress
}

/// One list of a bundle.
enum ListRef<'m> {
    Suites(&'m mut Vec<pte_schema::bundled::TestSuite<'static>>),
    Cases(&'m mut Vec<pte_schema::bundled::TestCase<'static>>),
    Values(&'m mut Vec<pte_schema::bundled::BundledValue<'static>>),
}

impl ListRef<'_> {
    fn len(&self) -> usize {
        match self {
            ListRef::Suites(v) => v.len(),
            ListRef::Cases(v) => v.len(),
            ListRef::Values(v) => v.len(),
        }
    }
    fn cut(self, r: std::ops::Range<usize>) -> Option<usize> {
        match self {
            ListRef::Suites(v) => *v = without(v, r)?,
            ListRef::Cases(v) => *v = without(v, r)?,
            ListRef::Values(v) => *v = without(v, r)?,
        }
        Some(0)
    }
}

/// A `.ptd`'s entries, segments, keys and segment bytes.
pub(crate) fn ptd(s: &mut Search<'_>) -> bool {
    let read = |b: &[u8]| PtdFile::from_bytes(b).ok().map(PtdFile::into_owned);
    let write = |m: &PtdFile<'static>| m.to_bytes(&PtdWriteOptions::default()).ok();
    // list 0: entries; 1: segments; then each entry's key; then each segment's bytes
    let count = |m: &PtdFile<'static>, i: usize| {
        let entries = m.flat_tensor.named_data.as_ref().map_or(0, Vec::len);
        match i {
            0 => Some(entries),
            1 => Some(m.segments.len()),
            _ => {
                let k = i.checked_sub(2)?;
                match k.checked_sub(entries) {
                    None => m.flat_tensor.named_data.as_ref()?.get(k)?.key.as_ref().map(String::len),
                    Some(j) => m.segments.get(j).map(|b| b.len()),
                }
            }
        }
    };
    let cut = |m: &mut PtdFile<'static>, i: usize, r: std::ops::Range<usize>| -> Option<()> {
        let entries = m.flat_tensor.named_data.as_ref().map_or(0, Vec::len);
        match i {
            0 => {
                let v = m.flat_tensor.named_data.as_mut()?;
                *v = without(v, r)?;
            }
            1 => {
                let t = m.flat_tensor.segments.as_mut()?;
                *t = without(t, r.clone())?;
                m.segments = without(&m.segments, r)?;
            }
            _ => {
                let k = i.checked_sub(2)?;
                match k.checked_sub(entries) {
                    None => {
                        let key = m.flat_tensor.named_data.as_mut()?.get_mut(k)?.key.as_mut()?;
                        let bytes = without(key.as_bytes(), r)?;
                        *key = String::from_utf8(bytes).ok()?;
                    }
                    Some(j) => {
                        let b = m.segments.get_mut(j)?;
                        *b = Cow::Owned(without(b, r)?);
                    }
                }
            }
        }
        Some(())
    };
    lists(s, read, write, count, cut)
}

/// A package's tensors (by key order), aliases and other members; then
/// each tensor emptied.
pub(crate) fn ptn(s: &mut Search<'_>) -> bool {
    let read = |b: &[u8]| PtnFile::from_bytes(b).ok().map(PtnFile::into_owned);
    let write = |m: &PtnFile<'static>| m.to_bytes().ok();
    let count = |m: &PtnFile<'static>, i: usize| match i {
        0 => Some(m.tensors.len()),
        1 => Some(m.aliases.len()),
        2 => Some(m.members.len()),
        3 => Some(m.metadata.as_ref().map_or(0, |x| x.len())),
        _ => None,
    };
    let cut = |m: &mut PtnFile<'static>, i: usize, r: std::ops::Range<usize>| -> Option<()> {
        fn drop_keys<V>(map: &mut std::collections::BTreeMap<String, V>, r: std::ops::Range<usize>) -> Option<()> {
            let keys: Vec<String> = map.keys().skip(r.start).take(r.end.checked_sub(r.start)?).cloned().collect();
            for k in keys {
                map.remove(&k);
            }
            Some(())
        }
        match i {
            0 => drop_keys(&mut m.tensors, r),
            1 => drop_keys(&mut m.aliases, r),
            2 => {
                m.members = without(&m.members, r)?;
                Some(())
            }
            3 => drop_keys(m.metadata.as_mut()?, r),
            _ => None,
        }
    };
    let mut progress = lists(s, read, write, count, cut);
    progress |= super::flatbuf::pass(s, &PackageProgram);
    // every tensor emptied (shape [0]) in turn, the data with it
    let n = read(&s.best).map_or(0, |m| m.tensors.len());
    progress |= s.reduce(n, 1, |best, r| {
        let mut m = read(best)?;
        for t in m.tensors.values_mut().skip(r.start).take(r.end.checked_sub(r.start)?) {
            *t = pte_ptn::PtnTensor::new(t.dtype, vec![0], Vec::new()).ok()?;
        }
        write(&m)
    });
    progress
}

/// The native program (`program.ptg`) inside a package.
struct PackageProgram;

impl Lens for PackageProgram {
    fn get(&self, outer: &[u8]) -> Option<Vec<u8>> {
        PtnFile::from_bytes(outer).ok().map(|p| p.program.into_owned())
    }

    fn put(&self, outer: &[u8], inner: &[u8]) -> Option<Vec<u8>> {
        let mut p = PtnFile::from_bytes(outer).ok()?;
        p.program = Cow::Owned(inner.to_vec());
        p.to_bytes().ok()
    }
}
