//! A verified XNNPACK payload borrowed from its bytes: header, flatbuffer and
//! constant data located, the flatbuffer verified, nothing copied.

use crate::fenced::xn;
use crate::limits::Limits;
use pte_core::Result;

use super::decode::verify_xnn_root;
use super::enums::XNodeKind;
use super::header::XnnHeader;
use super::model::XnnGraph;

/// An XNNPACK delegate payload: the processed bytes of an `XnnpackBackend`
/// delegate, inline or in a segment alike.
///
/// ```
/// use pte_schema::xnnpack::*;
/// let file = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
/// let p = XnnPayload::new(&file[1536..1536 + 1184], &Default::default())?;
/// assert_eq!(p.header().map(|h| h.flatbuffer_offset), Some(32));
/// assert_eq!(p.node_kinds().filter(|k| *k == XNodeKind::XNNFullyConnected).count(), 2);
/// assert_eq!(p.named_keys().count(), 4);
/// assert_eq!(p.decode()?.xvalues.map(|v| v.len()), Some(p.value_count()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct XnnPayload<'a> {
    header: Option<XnnHeader>,
    flatbuffer_offset: usize,
    flatbuffer: &'a [u8],
    constant_data: &'a [u8],
    root: xn::XNNGraph<'a>,
}

impl std::fmt::Debug for XnnPayload<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("XnnPayload")
            .field("header", &self.header)
            .field("nodes", &self.node_count())
            .field("values", &self.value_count())
            .finish()
    }
}

impl<'a> XnnPayload<'a> {
    /// Parses the header (when the payload has one) and verifies the
    /// flatbuffer under `limits`. Error offsets count from the start of the
    /// payload.
    ///
    /// ```
    /// let e = pte_schema::xnnpack::XnnPayload::new(b"\0\0\0\0XH00", &Default::default()).unwrap_err();
    /// assert_eq!(e.kind(), pte_schema::ErrorKind::Malformed);
    /// ```
    pub fn new(payload: &'a [u8], limits: &Limits) -> Result<Self> {
        let header = XnnHeader::parse(payload)?;
        let (start, flatbuffer, constant_data) = match header {
            None => (0, payload, &[][..]),
            Some(h) => {
                let fb = slice(payload, u64::from(h.flatbuffer_offset), u64::from(h.flatbuffer_size));
                let cd = slice(payload, u64::from(h.constant_data_offset), h.constant_data_size);
                (h.flatbuffer_offset as usize, fb, cd)
            }
        };
        let root = verify_xnn_root(flatbuffer, limits).map_err(|e| e.shifted(start as u64))?;
        Ok(XnnPayload { header, flatbuffer_offset: start, flatbuffer, constant_data, root })
    }

    /// The `XH00` header, `None` for a bare flatbuffer (legacy: constants then
    /// live in the flatbuffer's `constant_buffer`).
    ///
    /// ```
    /// # let file = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
    /// let p = pte_schema::xnnpack::XnnPayload::new(&file[1536..1536 + 1184], &Default::default())?;
    /// assert_eq!(p.header().map(|h| h.constant_data_size), Some(0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn header(&self) -> Option<XnnHeader> {
        self.header
    }

    /// The flatbuffer's bytes.
    ///
    /// ```
    /// # let file = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
    /// let p = pte_schema::xnnpack::XnnPayload::new(&file[1536..1536 + 1184], &Default::default())?;
    /// assert_eq!(&p.flatbuffer()[4..8], b"XN01");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn flatbuffer(&self) -> &'a [u8] {
        self.flatbuffer
    }

    /// Where the flatbuffer starts in the payload.
    ///
    /// ```
    /// # let file = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
    /// let p = pte_schema::xnnpack::XnnPayload::new(&file[1536..1536 + 1184], &Default::default())?;
    /// assert_eq!(p.flatbuffer_offset(), 32);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn flatbuffer_offset(&self) -> usize {
        self.flatbuffer_offset
    }

    /// The constant data the header locates (empty without a header).
    ///
    /// ```
    /// # let file = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
    /// let p = pte_schema::xnnpack::XnnPayload::new(&file[1536..1536 + 1184], &Default::default())?;
    /// assert!(p.constant_data().is_empty()); // its weights are named data
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn constant_data(&self) -> &'a [u8] {
        self.constant_data
    }

    /// The schema version string.
    ///
    /// ```
    /// # let file = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
    /// let p = pte_schema::xnnpack::XnnPayload::new(&file[1536..1536 + 1184], &Default::default())?;
    /// assert_eq!(p.version(), Some("0"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn version(&self) -> Option<&'a str> {
        self.root.version()
    }

    /// Number of nodes.
    ///
    /// ```
    /// # let file = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
    /// let p = pte_schema::xnnpack::XnnPayload::new(&file[1536..1536 + 1184], &Default::default())?;
    /// assert_eq!(p.node_count(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn node_count(&self) -> usize {
        self.root.xnodes().map_or(0, |v| v.len())
    }

    /// Number of values.
    ///
    /// ```
    /// # let file = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
    /// let p = pte_schema::xnnpack::XnnPayload::new(&file[1536..1536 + 1184], &Default::default())?;
    /// assert!(p.value_count() > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn value_count(&self) -> usize {
        self.root.xvalues().map_or(0, |v| v.len())
    }

    /// The kind of each node, in order.
    ///
    /// ```
    /// # let file = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
    /// let p = pte_schema::xnnpack::XnnPayload::new(&file[1536..1536 + 1184], &Default::default())?;
    /// assert_eq!(p.node_kinds().count(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn node_kinds(&self) -> impl Iterator<Item = XNodeKind> + 'a + use<'a> {
        self.root.xnodes().into_iter().flatten().map(|n| XNodeKind(n.xnode_union_type().0))
    }

    /// The named-data keys the constants refer to, in table order (empty
    /// keys, which the exporter gives the reserved entry 0, skipped).
    ///
    /// ```
    /// # let file = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
    /// let p = pte_schema::xnnpack::XnnPayload::new(&file[1536..1536 + 1184], &Default::default())?;
    /// assert!(p.named_keys().all(|k| k.len() == 64)); // the exporter's keys are sha256 digests
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn named_keys(&self) -> impl Iterator<Item = &'a str> + 'a + use<'a> {
        self.root.constant_data().into_iter().flatten().filter_map(|c| c.named_key()).filter(|k| !k.is_empty())
    }

    /// Every entry of the constant table, located in the payload: with an
    /// `XH00` header the `constant_data` entries (offsets into the constant
    /// data), without one the legacy `constant_buffer` entries (bytes inside
    /// the flatbuffer). Index 0 is included (the reserved "no constant").
    ///
    /// ```
    /// # let file = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
    /// let p = pte_schema::xnnpack::XnnPayload::new(&file[1536..1536 + 1184], &Default::default())?;
    /// let c: Vec<_> = p.constants().collect();
    /// assert_eq!(c.len(), 5);
    /// assert_eq!((c[1].size, c[1].range.clone()), (2048, None)); // in named data, not in the payload
    /// assert!(c[1].named_key.is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn constants(&self) -> impl Iterator<Item = XnnConstant<'a>> + 'a + use<'a> {
        let header = self.header;
        let (fb, fb_at) = (self.flatbuffer, self.flatbuffer_offset as u64);
        let data = self.root.constant_data().filter(|_| header.is_some());
        let located = data.into_iter().flatten().enumerate().map(move |(index, c)| {
            let named_key = c.named_key().filter(|k| !k.is_empty());
            let (cd_at, cd_len) = header.map_or((0, 0), |h| (u64::from(h.constant_data_offset), h.constant_data_size));
            let range = named_key.is_none().then(|| {
                let end = c.offset().checked_add(c.size()).filter(|&e| e <= cd_len)?;
                Some(cd_at.checked_add(c.offset())?..cd_at.checked_add(end)?)
            });
            XnnConstant { index, named_key, size: c.size(), range: range.flatten() }
        });
        let legacy = self.root.constant_buffer().filter(|_| header.is_none());
        let inline = legacy.into_iter().flatten().enumerate().map(move |(index, b)| {
            let bytes = b.storage().map(|s| s.bytes());
            let range = bytes.and_then(|b| {
                let start = (b.as_ptr() as usize).checked_sub(fb.as_ptr() as usize)? as u64;
                let start = start.checked_add(fb_at)?;
                Some(start..start.checked_add(b.len() as u64)?)
            });
            XnnConstant { index, named_key: None, size: bytes.map_or(0, |b| b.len() as u64), range }
        });
        located.chain(inline)
    }

    /// Decodes the flatbuffer into the owned model (error offsets count from
    /// the start of the payload).
    ///
    /// ```
    /// # let file = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
    /// let p = pte_schema::xnnpack::XnnPayload::new(&file[1536..1536 + 1184], &Default::default())?;
    /// assert_eq!(p.decode()?.named_keys().count(), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn decode(&self) -> Result<XnnGraph> {
        super::decode::graph(self.root).map_err(|e| e.shifted(self.flatbuffer_offset as u64))
    }
}

/// One entry of a payload's constant table ([`XnnPayload::constants`]).
///
/// ```
/// let c = pte_schema::xnnpack::XnnConstant { index: 1, named_key: None, size: 16, range: Some(64..80) };
/// assert_eq!(c.range.map(|r| r.end - r.start), Some(c.size));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XnnConstant<'a> {
    /// Its index in the table (what a tensor's `constant_buffer_idx` names).
    pub index: usize,
    /// The named-data key holding its bytes, when they are outside the payload.
    pub named_key: Option<&'a str>,
    /// Its byte length as the table gives it.
    pub size: u64,
    /// Where its bytes are in the payload; `None` for a named constant, or
    /// when the table points outside the constant data.
    pub range: Option<std::ops::Range<u64>>,
}

/// `bytes[offset..offset + len]`, empty when out of range (the header check
/// has already refused such ranges).
fn slice(bytes: &[u8], offset: u64, len: u64) -> &[u8] {
    let start = usize::try_from(offset).unwrap_or(usize::MAX);
    let end = usize::try_from(offset.saturating_add(len)).unwrap_or(usize::MAX);
    bytes.get(start..end).unwrap_or(&[])
}
