//! Field reads for the hot views, one vtable lookup per table.
//!
//! The generated accessors find a field's vtable again on every call, through
//! a function of the flatbuffers crate that is never inlined across crates;
//! a checker that reads ten fields of each of a hundred thousand tensors pays
//! that a million times. [`RawTable`] reads a table's vtable once and then
//! each field with one bounds-checked slice access, in safe code: the buffer
//! has been verified, so no check here ever fails, and if one did the read
//! would answer "absent" rather than touch memory it should not.
//!
//! [`List`] is a scalar vector as its element bytes, read the same way.

use std::marker::PhantomData;

/// `N` bytes at `pos`, if the buffer holds them.
#[inline(always)]
fn bytes_at<const N: usize>(buf: &[u8], pos: usize) -> Option<[u8; N]> {
    buf.get(pos..pos.checked_add(N)?).and_then(|b| <[u8; N]>::try_from(b).ok())
}

#[inline(always)]
fn u32_at(buf: &[u8], pos: usize) -> Option<usize> {
    bytes_at::<4>(buf, pos).and_then(|b| usize::try_from(u32::from_le_bytes(b)).ok())
}

/// A table of a verified buffer with its vtable in hand. Public in name
/// only, as the walk's element hook (`MemberChecks`) passes it: this module
/// is private, so nothing outside the crate can name or make one.
#[derive(Clone, Copy)]
pub struct RawTable<'a> {
    buf: &'a [u8],
    loc: usize,
    /// The whole vtable (its two header words included), so a field's slot
    /// number is its byte offset here, as the generated `VT_*` constants give it.
    vtable: &'a [u8],
}

/// The readers of scalar fields, one per type and named after it: the
/// field of a slot, little-endian, or `default` when the table lacks it.
macro_rules! scalar_fields {
    ($($t:ident),*) => {$(
        #[inline(always)]
        pub(crate) fn $t(&self, slot: u16, default: $t) -> $t {
            self.scalar::<{ std::mem::size_of::<$t>() }>(slot).map_or(default, $t::from_le_bytes)
        }
    )*};
}

impl<'a> RawTable<'a> {
    /// The table a generated accessor type wraps.
    #[inline(always)]
    pub(crate) fn new(t: flatbuffers::Table<'a>) -> Self {
        Self::at(t.buf(), t.loc())
    }

    /// The table at `loc` of `buf` whose vtable (header words included)
    /// the structural walk has read and checked already.
    #[inline(always)]
    pub(crate) fn from_parts(buf: &'a [u8], loc: usize, vtable: &'a [u8]) -> Self {
        RawTable { buf, loc, vtable }
    }

    /// The table at `loc` of `buf`.
    #[inline(always)]
    fn at(buf: &'a [u8], loc: usize) -> Self {
        let vtable = bytes_at::<4>(buf, loc)
            .map(i32::from_le_bytes)
            .and_then(|back| {
                let distance = usize::try_from(back.unsigned_abs()).ok()?;
                if back >= 0 {
                    loc.checked_sub(distance)
                } else {
                    loc.checked_add(distance)
                }
            })
            .and_then(|start| {
                let len = usize::from(u16::from_le_bytes(bytes_at::<2>(buf, start)?));
                buf.get(start..start.checked_add(len)?)
            })
            .unwrap_or_default();
        RawTable { buf, loc, vtable }
    }

    /// Where the field of vtable slot `slot` lies, if it is present.
    #[inline(always)]
    fn field(&self, slot: u16) -> Option<usize> {
        let slot = usize::from(slot);
        let entry = self.vtable.get(slot..slot.checked_add(2)?)?;
        match u16::from_le_bytes(<[u8; 2]>::try_from(entry).ok()?) {
            0 => None,
            o => self.loc.checked_add(usize::from(o)),
        }
    }

    #[inline(always)]
    fn scalar<const N: usize>(&self, slot: u16) -> Option<[u8; N]> {
        bytes_at::<N>(self.buf, self.field(slot)?)
    }

    scalar_fields!(u8, i8, i32, u32, i64, u64, f64);

    #[inline(always)]
    pub(crate) fn bool(&self, slot: u16) -> bool {
        self.u8(slot, 0) != 0
    }

    /// Where the offset field of slot `slot` points.
    #[inline(always)]
    fn target(&self, slot: u16) -> Option<usize> {
        let at = self.field(slot)?;
        at.checked_add(u32_at(self.buf, at)?)
    }

    /// The sub-table of slot `slot`.
    #[inline(always)]
    pub(crate) fn table(&self, slot: u16) -> Option<RawTable<'a>> {
        self.target(slot).map(|at| Self::at(self.buf, at))
    }

    /// The element bytes of the vector of slot `slot`, `size` bytes each.
    #[inline(always)]
    fn vector_bytes(&self, slot: u16, size: usize) -> Option<&'a [u8]> {
        let at = self.target(slot)?;
        let len = u32_at(self.buf, at)?.checked_mul(size)?;
        let start = at.checked_add(4)?;
        self.buf.get(start..start.checked_add(len)?)
    }

    /// The vector of tables of slot `slot`.
    #[inline(always)]
    pub(crate) fn tables(&self, slot: u16) -> Option<RawTables<'a>> {
        let at = self.target(slot)?;
        let len = u32_at(self.buf, at)?;
        let first = at.checked_add(4)?;
        // a length the buffer cannot hold is no vector
        first.checked_add(len.checked_mul(4)?).filter(|&end| end <= self.buf.len())?;
        Some(RawTables { buf: self.buf, first, len })
    }

    /// The root table of a program buffer.
    #[inline]
    pub(crate) fn root(buf: &'a [u8]) -> Option<Self> {
        u32_at(buf, 0).map(|at| Self::at(buf, at))
    }

    /// The scalar vector of slot `slot`.
    #[inline(always)]
    pub(crate) fn list<T: ListItem>(&self, slot: u16) -> Option<List<'a, T>> {
        self.vector_bytes(slot, T::SIZE).map(List::from_bytes)
    }

    /// The byte vector of slot `slot`.
    #[inline(always)]
    pub(crate) fn bytes(&self, slot: u16) -> Option<&'a [u8]> {
        self.vector_bytes(slot, 1)
    }

    /// The string of slot `slot` (verified as UTF-8 already; checked again
    /// because this module takes nothing on trust).
    #[inline(always)]
    pub(crate) fn str(&self, slot: u16) -> Option<&'a str> {
        std::str::from_utf8(self.bytes(slot)?).ok()
    }
}

/// A vector of tables: offsets to them, one after another.
#[derive(Clone, Copy)]
pub(crate) struct RawTables<'a> {
    buf: &'a [u8],
    /// Where the first offset lies.
    first: usize,
    len: usize,
}

impl<'a> RawTables<'a> {
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Table `i`, if the vector has it.
    #[inline(always)]
    pub(crate) fn get(&self, i: usize) -> Option<RawTable<'a>> {
        if i >= self.len {
            return None;
        }
        let at = self.first.checked_add(i.checked_mul(4)?)?;
        Some(RawTable::at(self.buf, at.checked_add(u32_at(self.buf, at)?)?))
    }
}

mod sealed {
    pub trait Sealed {}
}

/// A scalar type a [`List`] holds: `i32`, `i64`, `u64`, `f64` or `bool`,
/// stored little-endian. Sealed: the schema has no other scalar vectors.
///
/// ```
/// fn total<T: pte_schema::ListItem + Into<f64>>(l: pte_schema::List<'_, T>) -> f64 {
///     l.iter().map(Into::into).sum()
/// }
/// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
/// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
/// let inputs = v.plan(0).unwrap().input_list().unwrap();
/// assert_eq!(total(inputs), inputs.iter().map(f64::from).sum::<f64>());
/// ```
pub trait ListItem: Copy + 'static + sealed::Sealed {
    /// Bytes per element.
    #[doc(hidden)]
    const SIZE: usize;
    /// The element stored in `b` (exactly [`ListItem::SIZE`] bytes).
    #[doc(hidden)]
    fn read(b: &[u8]) -> Self;
}

macro_rules! list_item {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl ListItem for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            #[inline(always)]
            fn read(b: &[u8]) -> Self {
                <[u8; std::mem::size_of::<$t>()]>::try_from(b).map_or(0 as $t, <$t>::from_le_bytes)
            }
        }
    )*};
}
list_item!(i32, i64, u64, f64);

impl sealed::Sealed for bool {}
impl ListItem for bool {
    const SIZE: usize = 1;
    #[inline(always)]
    fn read(b: &[u8]) -> Self {
        b.first().is_some_and(|&b| b != 0)
    }
}

/// A vector of scalars (`i32`, `i64`, `u64`, `f64`, `bool`) in the buffer.
///
/// ```
/// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
/// let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
/// let inputs = v.plan(0).unwrap().input_list().unwrap();
/// assert_eq!(inputs.len(), 2);
/// assert_eq!(inputs.iter().collect::<Vec<_>>(), v.plan(0).unwrap().inputs());
/// ```
#[derive(Clone, Copy)]
pub struct List<'a, T> {
    bytes: &'a [u8],
    item: PhantomData<T>,
}

impl<'a, T: ListItem> List<'a, T> {
    #[inline(always)]
    pub(crate) fn from_bytes(bytes: &'a [u8]) -> Self {
        List { bytes, item: PhantomData }
    }

    /// The list a generated vector accessor returned.
    #[inline(always)]
    pub(crate) fn from_vector(v: flatbuffers::Vector<'a, T>) -> Self {
        Self::from_bytes(v.bytes())
    }

    /// Number of items.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().output_list().unwrap().len(), 1);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.bytes.len().checked_div(T::SIZE).unwrap_or(0)
    }

    /// Whether the vector is empty.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert!(!v.plan(0).unwrap().output_list().unwrap().is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Item `i`, if it exists.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// let outputs = v.plan(0).unwrap().output_list().unwrap();
    /// assert!(outputs.get(0).is_some() && outputs.get(1).is_none());
    /// ```
    #[inline]
    pub fn get(&self, i: usize) -> Option<T> {
        let start = i.checked_mul(T::SIZE)?;
        self.bytes.get(start..start.checked_add(T::SIZE)?).map(T::read)
    }

    /// The items in order.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().output_list().unwrap().iter().count(), 1);
    /// ```
    #[inline]
    pub fn iter(&self) -> impl ExactSizeIterator<Item = T> + Clone + 'a + use<'a, T> {
        self.bytes.chunks_exact(T::SIZE).map(T::read)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_little_endian_items_and_ignore_a_ragged_tail() {
        let bytes = [1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 7];
        let l = List::<i32>::from_bytes(&bytes);
        assert_eq!((l.len(), l.get(0), l.get(1), l.get(2)), (2, Some(1), Some(-1), None));
        assert_eq!(l.iter().collect::<Vec<_>>(), [1, -1]);
        let b = List::<bool>::from_bytes(&[0, 2]);
        assert_eq!(b.iter().collect::<Vec<_>>(), [false, true]);
    }

    #[test]
    fn a_table_whose_vtable_is_out_of_reach_reads_as_all_defaults() {
        // soffset pointing past the end: every field reads as absent
        let buf = [0x00, 0x00, 0x00, 0x80];
        let t = RawTable::at(&buf, 0);
        assert_eq!((t.i32(4, 9), t.list::<i64>(6).is_none(), t.str(8)), (9, true, None));
        // a vtable of one field (slot 4) at 0; the table at 8, its field at +4
        let buf = [6, 0, 8, 0, 4, 0, 0, 0, 8, 0, 0, 0, 42, 0, 0, 0];
        let t = RawTable::at(&buf, 8);
        assert_eq!(t.vtable.len(), 6);
        assert_eq!((t.i32(4, 0), t.i32(6, -5)), (42, -5));
    }
}
