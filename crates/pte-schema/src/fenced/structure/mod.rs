//! A structural verifier for program flatbuffers, written for this one schema.
//!
//! The generated accessors read without bounds checks, so a buffer must be
//! proven well formed before they may touch it. The flatbuffers crate's
//! generic verifier proves it, but on a program-heavy file most of its time
//! goes to building error traces and field names that a valid file never
//! prints (its `Result` carries them on every step). This walk proves the same
//! things from a static description of the schema ([`schema`]), with a
//! one-word error and no allocation:
//!
//! * every table's vtable offset, vtable length, and each field slot it lists;
//! * every scalar field in bounds and aligned to its size;
//! * every vector's length word aligned, its length and elements in bounds
//!   (where the elements start is not checked, as the runtime's verifier
//!   does not: see [`Walk::vector`]), every string valid UTF-8 followed by
//!   its terminating zero;
//! * unions whose tag and value agree on presence;
//! * the same depth, table-count and apparent-size limits, counted the same
//!   way, so a buffer passes here exactly when it passes there;
//! * and the runtime's extra offset rule (no offset of 0, none with its sign
//!   bit set) that the old path checked in a second walk.
//!
//! A refusal carries only the byte offset where the walk stopped: the caller
//! re-runs the detailed path to say what is wrong, so messages are unchanged.
//! Tests hold the two paths to the same verdict on corpus files and on
//! mutations of them, and check the description against the generated code.

pub(crate) mod schema;
#[cfg(test)]
mod tests;

use crate::limits::Limits;
use crate::raw::RawTable;

/// The caller's per-element checks as the walk calls them: each value or
/// instruction as its union tag and member table. The public
/// `ElementChecks` has this as its supertrait, implemented for every checker
/// by turning the tag and table into its typed view, so the walk needs no
/// view types and each call is still one dynamic call. Public in name only
/// (this module is private): nothing outside the crate can name it.
pub trait MemberChecks: Sync {
    /// Whether value `index` of plan `plan`, of union tag `tag`, passes.
    fn value_member(&self, plan: usize, index: usize, tag: u8, table: Option<RawTable<'_>>) -> bool;

    /// Whether the instruction at `[chain, index]` of plan `plan` passes.
    fn instruction_member(&self, plan: usize, at: [usize; 2], tag: u8, table: Option<RawTable<'_>>) -> bool;
}

/// What a field holds, as far as verification is concerned.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind {
    /// An inline scalar or enum.
    Scalar(Width),
    /// An offset to a string.
    Str,
    /// An offset to a vector of scalars.
    Scalars(Width),
    /// An offset to a sub-table.
    Table(&'static Table),
    /// An offset to a vector of offsets to tables.
    Tables(&'static Table),
    /// A union's value slot; `tag` is its type slot and `members[t]` the
    /// table a tag `t` selects (`None`: not a table the schema knows, left
    /// unchecked as the generic verifier leaves it).
    Union { tag: u16, members: &'static [Option<&'static Table>] },
}

/// A scalar type's size and the alignment the generic verifier demands of
/// it (Rust's alignment of the type on this target, which it uses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Width {
    pub(crate) size: usize,
    pub(crate) align: usize,
}

impl Width {
    pub(crate) const fn of<T>() -> Width {
        Width { size: std::mem::size_of::<T>(), align: std::mem::align_of::<T>() }
    }
}

/// One field of a table: its vtable slot, schema name and kind.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Field {
    pub(crate) slot: u16,
    /// Read by the test that holds the description to the generated code.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) name: &'static str,
    pub(crate) kind: Kind,
}

impl Field {
    /// The lowest vtable slot the field reads (a union's tag precedes its value).
    pub(crate) const fn first_slot(&self) -> u16 {
        match self.kind {
            Kind::Union { tag, .. } if tag < self.slot => tag,
            _ => self.slot,
        }
    }
}

/// The fields of one table type, in schema order (which is slot order).
pub(crate) struct Table {
    /// Read by the test that holds the description to the generated code.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) name: &'static str,
    /// Read by the test that holds the description to the generated code.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fields: &'static [Field],
    /// The type's own number, below [`schema::TABLE_TYPES`]: where the
    /// walk keeps the last vtable a table of this type had. The walk is
    /// compiled with it; a test holds the numbers distinct.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) id: usize,
    /// Whether its walk notes its tables for the element checks
    /// (`schema::member_table!`): a test holds that exactly the members
    /// of the unions do.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) member: bool,
    /// The walk of one table of this type: [`schema`]'s `table!` writes it
    /// out field by field from `fields`, so each field's checks are compiled
    /// with its slot, width and sub-table as constants, the way a generated
    /// verifier is, instead of being looked up for every table of a large
    /// program.
    pub(crate) walk: WalkTable,
}

/// Walks the table at a position (see [`Table::walk`]).
pub(crate) type WalkTable = for<'a> fn(&mut Walk<'a>, usize) -> Step;

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// A buffer this module has walked as a `Program` and found well formed.
/// Only [`check_program`] makes one, which is what lets the fenced module
/// hand out unchecked accessors for it.
#[derive(Clone, Copy)]
pub(crate) struct CheckedProgram<'a>(&'a [u8], Findings);

impl<'a> CheckedProgram<'a> {
    pub(crate) fn bytes(self) -> &'a [u8] {
        self.0
    }

    pub(crate) fn findings(self) -> Findings {
        self.1
    }
}

/// What the walk noticed on its way, which readers would otherwise need a
/// pass of their own to learn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Findings {
    /// Bytes of the longest string anywhere in the buffer.
    pub(crate) longest_string: usize,
    /// Whether some union carries a tag the schema does not declare.
    pub(crate) unknown_union_tag: bool,
    /// Whether one of the caller's [`MemberChecks`] failed.
    pub(crate) checks_failed: bool,
}

/// Where the walk stopped; the detailed path explains why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Refused {
    pub(crate) at: usize,
}

/// A vector element that is an offset: the generic verifier's offset type
/// is a 4-byte word with 4-byte alignment.
const OFFSET: Width = Width { size: 4, align: 4 };

pub(crate) type Step<T = ()> = Result<T, Refused>;

/// Walks `buf` from its root offset as a program within `limits`.
pub(crate) fn check_program<'a>(
    buf: &'a [u8],
    limits: &Limits,
    checks: Option<&dyn MemberChecks>,
) -> Step<CheckedProgram<'a>> {
    let findings = check(buf, &schema::PROGRAM, limits, checks)?;
    Ok(CheckedProgram(buf, findings))
}

/// Walks `buf` from its root offset as a `root` table within `limits`.
fn check(buf: &[u8], root: &'static Table, limits: &Limits, checks: Option<&dyn MemberChecks>) -> Step<Findings> {
    let mut walk = Walk {
        buf,
        apparent: 0,
        max_apparent: (limits.max_apparent_size_for(buf.len()) as u64).min(APPARENT_CEILING),
        tables: 0,
        max_tables: limits.max_tables_for(buf.len()),
        depth: 0,
        max_depth: limits.max_depth,
        found: Findings::default(),
        may_split: true,
        checks,
        plan: 0,
        chain: 0,
        member: (0, None),
        vtables: [None; schema::TABLE_TYPES],
    };
    let table = walk.offset(0)?;
    (root.walk)(&mut walk, table)?;
    walk.within_budget(0)?;
    Ok(walk.found)
}

/// The highest apparent size a walk may reach, whatever the limits: a
/// quarter of the counter's range, which no walk reaches in finite time, so
/// the counter grows by plain (wrapping) adds, the most frequent arithmetic
/// of the walk, and never wraps.
const APPARENT_CEILING: u64 = u64::MAX / 4;

/// The walk's position-independent state. The apparent size only grows, so
/// comparing it with its bound at every table and before every vector's
/// contents are read gives the verdict of comparing at every claim, and
/// still stops a buffer whose shared parts expand without end.
#[derive(Clone, Copy)]
pub(crate) struct Walk<'a> {
    buf: &'a [u8],
    /// Grown with wrapping adds, each of at most a buffer's length, and held
    /// to `max_apparent` (never above [`APPARENT_CEILING`]) at every table:
    /// it cannot wrap within any walk that ends.
    apparent: u64,
    max_apparent: u64,
    tables: usize,
    max_tables: usize,
    depth: usize,
    max_depth: usize,
    found: Findings,
    /// Whether a long vector may be walked by two threads at once
    /// ([`crate::share`]); forks walk theirs alone.
    may_split: bool,
    /// The caller's checks of each value and instruction, run as the walk
    /// passes them (see [`MemberChecks`]).
    checks: Option<&'a dyn MemberChecks>,
    /// The plan whose values and instructions are being walked.
    plan: usize,
    /// The chain (of that plan) whose instructions are being walked.
    chain: usize,
    /// The tag of the union the walk passed last (0: none) and the table
    /// of the union member it entered last: after an `EValue` or
    /// `Instruction`, its own (no member reaches another, as a test holds),
    /// so the checks read it without finding it again.
    member: (u8, Option<Slots<'a>>),
    /// The vtable each table type had last ([`Table::id`]), checked:
    /// writers share one vtable among the tables of a type whose fields
    /// are laid out alike, so most tables find theirs here.
    vtables: [Option<Seen<'a>>; schema::TABLE_TYPES],
}

/// A vtable the walk has checked: its position and its entries (the two
/// header words included). Whatever table points to it, the vtable at a
/// position is the same bytes, so what was checked holds for every table.
#[derive(Clone, Copy)]
struct Seen<'a> {
    at: usize,
    entries: &'a [u8],
}

/// The elements of a vector that [`MemberChecks`] are run on.
#[derive(Clone, Copy)]
enum Checked {
    Values,
    Instructions,
}

impl Checked {
    /// Whether, and how, the elements of a vector of `sub` tables are checked.
    fn of(sub: &'static Table) -> Option<Checked> {
        if std::ptr::eq(sub, &schema::EVALUE) {
            Some(Checked::Values)
        } else if std::ptr::eq(sub, &schema::INSTRUCTION) {
            Some(Checked::Instructions)
        } else {
            None
        }
    }
}

impl<'a> Walk<'a> {
    /// Claims `size` bytes at `pos`: they must lie in the buffer, and they
    /// count toward the apparent size (the DAG expanded as a tree).
    #[inline(always)]
    fn claim(&mut self, pos: usize, size: usize) -> Step {
        match pos.checked_add(size) {
            Some(end) if end <= self.buf.len() => {
                self.grow(size);
                Ok(())
            }
            _ => Err(Refused { at: pos }),
        }
    }

    /// Counts `n` more bytes (at most a buffer's length) toward the
    /// apparent size.
    #[inline(always)]
    fn grow(&mut self, n: usize) {
        self.apparent = self.apparent.wrapping_add(n as u64);
    }

    #[inline(always)]
    fn within_budget(&self, pos: usize) -> Step {
        if self.apparent > self.max_apparent {
            return Err(Refused { at: pos });
        }
        Ok(())
    }

    /// `pos` is a multiple of `w.align` (a power of two).
    #[inline(always)]
    fn aligned(pos: usize, w: Width) -> Step {
        if pos & w.align.saturating_sub(1) != 0 {
            return Err(Refused { at: pos });
        }
        Ok(())
    }

    #[inline(always)]
    fn read<const N: usize>(&self, pos: usize) -> Step<[u8; N]> {
        pos.checked_add(N)
            .and_then(|end| self.buf.get(pos..end))
            .and_then(|b| <[u8; N]>::try_from(b).ok())
            .ok_or(Refused { at: pos })
    }

    /// A claimed, aligned 32-bit word at `pos`.
    #[inline(always)]
    fn word(&mut self, pos: usize) -> Step<u32> {
        Self::aligned(pos, OFFSET)?;
        let word = u32::from_le_bytes(self.read(pos)?);
        self.grow(4);
        Ok(word)
    }

    /// Follows the forward offset stored at `pos`. The runtime's verifier
    /// refuses 0 (an object cannot start at its own offset) and offsets with
    /// the sign bit set, so they are refused here too.
    #[inline(always)]
    fn offset(&mut self, pos: usize) -> Step<usize> {
        let o = self.word(pos)?;
        if o == 0 || o > i32::MAX as u32 {
            return Err(Refused { at: pos });
        }
        // pos lies in the buffer (the word was read there), so below
        // isize::MAX, and o is at most i32::MAX: the sum fits a usize of 32
        // bits or more
        Ok(pos.wrapping_add(o as usize))
    }

    /// Checks the vector at `pos` (length word, then `len` elements of
    /// width `elem`) and returns its element range.
    ///
    /// Only the length word's alignment is checked, not the elements': the
    /// runtime's C++ verifier (`VerifyVectorOrString`) checks no more, and
    /// ExecuTorch's writer leaves `[long]` vectors 4 bytes off an 8-byte
    /// boundary. The elements start right after an aligned word, so every
    /// element type of 4 bytes or less is aligned anyway; only 8-byte scalars
    /// may not be, and nothing reads those through a reference into the
    /// buffer: the generated accessors copy each one out
    /// (`flatbuffers::read_scalar`), and no code here views a vector's bytes
    /// as a typed slice. The generated verifiers are held to the same rule
    /// (`crate::fenced::Unaligned`).
    #[inline(always)]
    fn vector(&mut self, pos: usize, elem: Width) -> Step<(usize, usize)> {
        let len = self.word(pos)? as usize;
        let start = pos.checked_add(4).ok_or(Refused { at: pos })?;
        let size = len.checked_mul(elem.size).ok_or(Refused { at: pos })?;
        self.claim(start, size)?;
        self.within_budget(pos)?;
        Ok((start, start.saturating_add(size)))
    }

    fn string(&mut self, pos: usize) -> Step {
        let (start, end) = self.vector(pos, Width::of::<u8>())?;
        let text = self.buf.get(start..end).ok_or(Refused { at: pos })?;
        if std::str::from_utf8(text).is_err() || self.buf.get(end) != Some(&0) {
            return Err(Refused { at: pos });
        }
        self.found.longest_string = self.found.longest_string.max(text.len());
        Ok(())
    }

    /// Opens the table at `pos`, of the type numbered `id`: its vtable
    /// checked and claimed, the table counted and one level deeper.
    /// [`Walk::leave`] closes it.
    #[inline(always)]
    pub(crate) fn enter(&mut self, pos: usize, id: usize) -> Step<Slots<'a>> {
        Self::aligned(pos, OFFSET)?;
        let back = i32::from_le_bytes(self.read(pos)?);
        // pos lies in the buffer, below isize::MAX, and back is an i32: a
        // vtable inside the buffer comes out at its exact position, and one
        // before the buffer's start or past its end at a position past the
        // end (64-bit: the negative ones wrap to the highest; 32-bit: the
        // truncated difference of a negative one lies in 2^31 + 1..2^32, of a
        // too-large one is exact), which the read of its length refuses.
        let vtable = (pos as i64).wrapping_sub(i64::from(back)) as usize;
        // Only a vtable checked here is remembered: no position stands for
        // "none", since a vtable before the buffer's start wraps to any of
        // the highest ones.
        let entries = match self.vtables.get(id) {
            Some(Some(seen)) if seen.at == vtable => seen.entries,
            _ => self.vtable(pos, vtable, id)?,
        };
        let vlen = entries.len();
        // vlen is at most u16::MAX
        self.grow(vlen.wrapping_add(6));
        // One more per table or level. Neither can wrap: every table also
        // grows the apparent size by at least 10 (its offset and a vtable of
        // at least its length word, claimed before the budget check below),
        // which holds the table count under max_apparent / 10 + 1, itself
        // under usize::MAX; and the schema nests no table type in itself,
        // which bounds the depth by its few levels.
        self.tables = self.tables.wrapping_add(1);
        self.depth = self.depth.wrapping_add(1);
        if self.tables > self.max_tables || self.depth > self.max_depth {
            return Err(Refused { at: pos });
        }
        self.within_budget(pos)?;
        Ok(Slots { table: pos, entries })
    }

    /// Checks the vtable at `vtable` of the table at `pos` (of type `id`)
    /// and keeps it as that type's last; answers its entries.
    #[inline(always)]
    fn vtable(&mut self, pos: usize, vtable: usize, id: usize) -> Step<&'a [u8]> {
        let vlen = usize::from(u16::from_le_bytes(self.read(vtable).map_err(|_| Refused { at: pos })?));
        Self::aligned(vtable, Width::of::<u16>())?;
        if vlen & 1 != 0 {
            return Err(Refused { at: vtable });
        }
        let entries = self.buf.get(vtable..).and_then(|v| v.get(..vlen)).ok_or(Refused { at: vtable })?;
        if let Some(seen) = self.vtables.get_mut(id) {
            *seen = Some(Seen { at: vtable, entries });
        }
        Ok(entries)
    }

    /// Closes the table [`Walk::enter`] opened.
    #[inline(always)]
    pub(crate) fn leave(&mut self) -> Step {
        // enter counted this level, so the depth is at least one
        self.depth = self.depth.wrapping_sub(1);
        Ok(())
    }

    /// Notes the open table `at` as the union member just entered, for the
    /// element checks ([`Walk::elements`]): the walks of the members of the
    /// unions do (`schema::member_table!`; a test holds that every member
    /// is one, and that none reaches another).
    #[inline(always)]
    pub(crate) fn member_is(&mut self, at: Slots<'a>) {
        self.member.1 = Some(at);
    }

    /// Checks `field` of the open table `at`; `Ok(false)` when the field
    /// lies beyond the vtable, and so (fields coming in slot order) does
    /// every later one: absent, and claiming nothing.
    #[inline(always)]
    pub(crate) fn next_field(&mut self, at: Slots<'_>, field: Field) -> Step<bool> {
        let first = usize::from(field.first_slot());
        // Vtable lengths are even (enter refuses odd ones) and so are slots:
        // a slot lies wholly inside the vtable or wholly beyond it.
        let Some(&[lo, hi]) = at.entries.get(first..first.wrapping_add(2)) else { return Ok(false) };
        if let Kind::Union { tag, members } = field.kind {
            self.union(at, field.slot, tag, members)?;
        } else if let Some(pos) = self.entry(at, [lo, hi]) {
            self.field(pos, &field)?;
        }
        Ok(true)
    }

    /// The position of the field in vtable slot `slot`, if present. Every
    /// slot the vtable covers is claimed, present or not, as the generic
    /// verifier claims it.
    #[inline(always)]
    fn slot(&mut self, at: Slots<'_>, slot: u16) -> Option<usize> {
        let slot = usize::from(slot);
        let &[lo, hi] = at.entries.get(slot..slot.saturating_add(2))? else { return None };
        self.entry(at, [lo, hi])
    }

    /// Claims the vtable entry `entry` of the table `at`; the position of
    /// its field, if present.
    #[inline(always)]
    fn entry(&mut self, at: Slots<'_>, entry: [u8; 2]) -> Option<usize> {
        self.grow(2);
        match u16::from_le_bytes(entry) {
            0 => None,
            // the table lies in the buffer, below isize::MAX: adding a
            // u16 cannot wrap
            o => Some(at.table.wrapping_add(usize::from(o))),
        }
    }

    /// Checks `field` (not a union), present at `pos`.
    #[inline(always)]
    fn field(&mut self, pos: usize, field: &Field) -> Step {
        match field.kind {
            Kind::Scalar(w) => {
                Self::aligned(pos, w)?;
                self.claim(pos, w.size)
            }
            Kind::Str => {
                let s = self.offset(pos)?;
                self.string(s)
            }
            Kind::Scalars(elem) => {
                let v = self.offset(pos)?;
                self.vector(v, elem).map(drop)
            }
            Kind::Table(sub) => {
                let t = self.offset(pos)?;
                (sub.walk)(self, t)
            }
            Kind::Tables(sub) => {
                let v = self.offset(pos)?;
                let (start, end) = self.vector(v, OFFSET)?;
                let count = end.saturating_sub(start) / OFFSET.size;
                if !self.may_split || count < crate::SPLIT_MIN {
                    return self.elements(start, end, sub, 0);
                }
                self.split_elements(v, start, count, sub)
            }
            // next_field hands unions to Walk::union; were one to come here,
            // it is refused rather than accepted unchecked
            Kind::Union { .. } => Err(Refused { at: pos }),
        }
    }

    /// The `count` tables of a long vector whose offsets start at `start`,
    /// walked by two threads at once ([`crate::share`]): each walks its
    /// chunks on a fork with the budget left, then both forks' counts are
    /// added up and held to the limits as one walk would be.
    #[inline(never)]
    fn split_elements(&mut self, v: usize, start: usize, count: usize, sub: &'static Table) -> Step {
        let fork = self.fork();
        let at = |i: usize| start.saturating_add(i.saturating_mul(OFFSET.size));
        let (mine, theirs) = crate::share(
            count,
            || Ok(fork),
            |walk: &mut Step<Walk<'a>>, chunk| {
                let Ok(w) = walk else { return false };
                if let Err(refused) = w.elements(at(chunk.start), at(chunk.end), sub, chunk.start) {
                    *walk = Err(refused);
                }
                walk.is_ok()
            },
        );
        self.merge(mine?, v)?;
        self.merge(theirs?, v)
    }

    /// The tables whose offsets fill `start..end` of a vector.
    /// `first` is the index of the one at `start`. Each kind of vector has
    /// a loop of its own, so no loop asks per element what it walks.
    fn elements(&mut self, start: usize, end: usize, sub: &'static Table, first: usize) -> Step {
        let walk = sub.walk;
        match self.checks.zip(Checked::of(sub)) {
            Some((checks, Checked::Values)) => self.checked_each(start, end, first, walk, |w, index| {
                checks.value_member(w.plan, index, w.member.0, w.member_table())
            }),
            Some((checks, Checked::Instructions)) => self.checked_each(start, end, first, walk, |w, index| {
                checks.instruction_member(w.plan, [w.chain, index], w.member.0, w.member_table())
            }),
            None if std::ptr::eq(sub, &schema::EXECUTION_PLAN) => self.each(start, end, first, |w, t, index| {
                w.plan = index;
                walk(w, t)
            }),
            None if std::ptr::eq(sub, &schema::CHAIN) => self.each(start, end, first, |w, t, index| {
                w.chain = index;
                walk(w, t)
            }),
            None => self.each(start, end, first, |w, t, _| walk(w, t)),
        }
    }

    /// Walks each table whose offset lies in `start..end` with `walk`, then
    /// runs `check` on it (the walk and its index) until one check fails.
    #[inline(always)]
    fn checked_each(
        &mut self,
        start: usize,
        end: usize,
        first: usize,
        walk: WalkTable,
        check: impl Fn(&Self, usize) -> bool,
    ) -> Step {
        self.each(start, end, first, |w, t, index| {
            w.member = (0, None);
            walk(w, t)?;
            if !w.found.checks_failed {
                w.found.checks_failed = !check(w, index);
            }
            Ok(())
        })
    }

    /// Runs `one` on each table whose offset lies in `start..end` (the
    /// table's position and index; `first` is the index at `start`).
    ///
    /// The range is part of a vector [`Walk::vector`] has checked: in the
    /// buffer and aligned, so its offsets are read as one slice. Each is
    /// claimed again, as the generic verifier claims each offset it follows;
    /// claiming them all before the loop rather than one by one gives the
    /// same total, and the apparent size is held to its bound on the total.
    #[inline(always)]
    fn each(
        &mut self,
        start: usize,
        end: usize,
        first: usize,
        mut one: impl FnMut(&mut Self, usize, usize) -> Step,
    ) -> Step {
        let offsets = self.buf.get(start..end).ok_or(Refused { at: start })?;
        Self::aligned(start, OFFSET)?;
        self.grow(offsets.len());
        let mut index = first;
        let mut pos = start;
        for word in offsets.chunks_exact(OFFSET.size) {
            let o = word.try_into().map(u32::from_le_bytes).map_err(|_| Refused { at: pos })?;
            if o == 0 || o > i32::MAX as u32 {
                return Err(Refused { at: pos });
            }
            // as in Walk::offset: pos lies in the buffer, o below 2^31
            one(self, pos.wrapping_add(o as usize), index)?;
            // pos stays in the buffer; index counts the elements of one vector
            pos = pos.wrapping_add(OFFSET.size);
            index = index.wrapping_add(1);
        }
        Ok(())
    }

    /// The table of the union member the walk passed last, for the checks.
    #[inline(always)]
    fn member_table(&self) -> Option<RawTable<'a>> {
        self.member.1.map(|s| RawTable::from_parts(self.buf, s.table, s.entries))
    }

    /// A walk of part of the buffer from the current depth, with what is
    /// left of the limits and nothing counted yet; it never splits again.
    fn fork(&self) -> Self {
        Walk {
            apparent: 0,
            max_apparent: self.max_apparent.saturating_sub(self.apparent),
            tables: 0,
            max_tables: self.max_tables.saturating_sub(self.tables),
            found: Findings::default(),
            may_split: false,
            ..*self
        }
    }

    /// Adds a finished fork's counts and findings to this walk.
    fn merge(&mut self, fork: Self, pos: usize) -> Step {
        self.apparent = self.apparent.saturating_add(fork.apparent);
        self.tables = self.tables.saturating_add(fork.tables);
        self.found.longest_string = self.found.longest_string.max(fork.found.longest_string);
        self.found.unknown_union_tag |= fork.found.unknown_union_tag;
        self.found.checks_failed |= fork.found.checks_failed;
        if self.tables > self.max_tables {
            return Err(Refused { at: pos });
        }
        self.within_budget(pos)
    }

    /// A union: the value and tag must be both present or both absent; a
    /// known tag's table is walked, an unknown one is left alone.
    #[inline(always)]
    fn union(&mut self, at: Slots<'_>, value: u16, tag: u16, members: &'static [Option<&'static Table>]) -> Step {
        let value = self.slot(at, value);
        let tag = self.slot(at, tag);
        match (tag, value) {
            (None, None) => Ok(()),
            (Some(t), Some(v)) => {
                let [tag] = self.read::<1>(t)?;
                self.grow(1);
                match members.get(usize::from(tag)) {
                    Some(Some(sub)) => {
                        let table = self.offset(v)?;
                        self.member = (tag, None);
                        (sub.walk)(self, table)
                    }
                    _ => {
                        self.found.unknown_union_tag |= tag != 0;
                        self.member = (tag, None);
                        Ok(())
                    }
                }
            }
            (Some(t), None) => Err(Refused { at: t }),
            (None, Some(v)) => Err(Refused { at: v }),
        }
    }
}

/// A table's position and its vtable's entries, for slot lookups.
#[derive(Clone, Copy)]
pub(crate) struct Slots<'a> {
    table: usize,
    entries: &'a [u8],
}
