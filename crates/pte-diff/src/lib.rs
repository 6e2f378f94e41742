//! Comparing two ExecuTorch files: what differs in their layout, in their
//! programs, and in their tensor data, element by element.
//!
//! [`diff_files`] maps both files and compares them in place; [`diff_bytes`]
//! does the same for bytes in memory. Both files must be of one kind:
//! `.pte` programs, `.ptd` tensor data, `.bpte` bundles (embedded program
//! and test cases) or `.ptn` packages (program, constants, other members
//! such as the samples sidecar).
//!
//! Every difference has a [`Category`]: [`Category::Layout`] for where things
//! are (headers, segment offsets, alignment, placement of blobs), which a
//! `pte rewrite` with other layout options changes, and [`Category::Program`]
//! and [`Category::Data`] for what the file means. [`Options::ignore_layout`]
//! leaves layout out, so a file and its rewrite compare equal.
//!
//! Tensor data is compared by element type: the count of differing elements,
//! the largest and mean absolute difference and the first differing elements
//! with their index, as exir's `diff_pte.py` reports them; `atol`/`rtol`
//! tolerate `|a - b| <= atol + rtol * |b|`.
//!
//! It owns the comparison only: reading every format is the format crates'
//! (`pte-file`, `pte-ptn`), and it neither verifies nor writes files.
//!
//! ```
//! let path = pte_testkit::corpus("linear/model.pte");
//! let r = pte_diff::diff_files(&path, &path, &Default::default())?;
//! assert!(r.is_equal());
//! # Ok::<(), pte_schema::Error>(())
//! ```

#![forbid(unsafe_code)]

mod bpte;
mod elements;
mod jsondiff;
mod plan;
mod program;
mod ptd;
mod ptn;
mod render;

use pte_schema::{Error, ErrorKind, Result};

/// Comparison options.
///
/// ```
/// let o = pte_diff::Options::default();
/// assert_eq!((o.atol, o.rtol, o.max_samples, o.ignore_layout), (0.0, 0.0, 10, false));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Absolute tolerance for tensor elements.
    pub atol: f64,
    /// Relative tolerance for tensor elements (relative to the second file's value).
    pub rtol: f64,
    /// Leave layout differences out of the report.
    pub ignore_layout: bool,
    /// How many differing elements to list per tensor.
    pub max_samples: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options { atol: 0.0, rtol: 0.0, ignore_layout: false, max_samples: 10 }
    }
}

/// What a difference is about.
///
/// ```
/// assert_eq!(pte_diff::Category::Layout.name(), "layout");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Category {
    /// Where things are stored: headers, segment offsets, padding, placement.
    Layout,
    /// The program or tables: methods, operators, values, keys, test cases.
    Program,
    /// The bytes of tensors and blobs.
    Data,
}

impl Category {
    /// Lower-case name used in the text and JSON reports.
    ///
    /// ```
    /// assert_eq!(pte_diff::Category::Data.name(), "data");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Category::Layout => "layout",
            Category::Program => "program",
            Category::Data => "data",
        }
    }
}

/// One differing element of a tensor.
///
/// ```
/// let e = pte_diff::ElementDiff { flat_index: 5, index: vec![1, 2], a: 1.0, b: 2.0 };
/// assert_eq!(e.index, [1, 2]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ElementDiff {
    /// Position in the flattened tensor.
    pub flat_index: u64,
    /// The same position per dimension.
    pub index: Vec<u64>,
    /// Value in the first file.
    pub a: f64,
    /// Value in the second file.
    pub b: f64,
}

/// Element-wise statistics of one tensor whose data differs.
///
/// ```
/// let s = pte_diff::TensorStats::default();
/// assert_eq!(s.num_differing, 0);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TensorStats {
    /// Elements compared (the smaller of the declared count and the bytes present).
    pub num_elements: u64,
    /// Elements outside the tolerance.
    pub num_differing: u64,
    /// Largest absolute difference among them.
    pub max_abs_diff: f64,
    /// Mean absolute difference among them.
    pub mean_abs_diff: f64,
    /// The first differing elements, at most [`Options::max_samples`].
    pub first: Vec<ElementDiff>,
}

/// One difference between the two files.
///
/// ```
/// let d = pte_diff::Difference::new(pte_diff::Category::Program, "version", "0 vs 1");
/// assert!(d.tensor.is_none());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// Layout, program or data.
    pub category: Category,
    /// Where: a JSON-like path (`execution_plan[0].values[3]`) or a key.
    pub path: String,
    /// What differs, in words (`sizes [3, 4] vs [3, 8]`).
    pub message: String,
    /// For tensor data: the element-wise statistics.
    pub tensor: Option<TensorStats>,
}

impl Difference {
    /// A difference without tensor statistics.
    ///
    /// ```
    /// let d = pte_diff::Difference::new(pte_diff::Category::Layout, "file", "size 10 vs 12");
    /// assert_eq!(d.path, "file");
    /// ```
    pub fn new(category: Category, path: impl Into<String>, message: impl Into<String>) -> Self {
        Difference { category, path: path.into(), message: message.into(), tensor: None }
    }
}

/// The result of a comparison.
///
/// ```
/// let r = pte_diff::Comparison::default();
/// assert!(r.is_equal());
/// assert_eq!(r.to_json()["equal"], true);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Comparison {
    /// File kind (`pte`, `ptd`, `bpte`, `ptn`).
    pub kind: String,
    /// Size of the first file.
    pub size_a: u64,
    /// Size of the second file.
    pub size_b: u64,
    /// Whether the two files are the same bytes.
    pub bitwise_equal: bool,
    /// Every difference found, in file order (layout first).
    pub differences: Vec<Difference>,
}

impl Comparison {
    /// True when no difference was reported.
    ///
    /// ```
    /// assert!(pte_diff::Comparison::default().is_equal());
    /// ```
    pub fn is_equal(&self) -> bool {
        self.differences.is_empty()
    }

    /// Differences of one category.
    ///
    /// ```
    /// assert_eq!(pte_diff::Comparison::default().of(pte_diff::Category::Data).count(), 0);
    /// ```
    pub fn of(&self, c: Category) -> impl Iterator<Item = &Difference> {
        self.differences.iter().filter(move |d| d.category == c)
    }

    /// The report as JSON (documented in `docs/cli.md`).
    ///
    /// ```
    /// assert!(pte_diff::Comparison::default().to_json()["differences"].as_array().unwrap().is_empty());
    /// ```
    pub fn to_json(&self) -> serde_json::Value {
        render::json(self)
    }

    /// The report as text, one line per difference and a few per tensor.
    ///
    /// ```
    /// assert!(pte_diff::Comparison::default().to_text("a", "b").contains("equal"));
    /// ```
    pub fn to_text(&self, name_a: &str, name_b: &str) -> String {
        render::text(self, name_a, name_b)
    }
}

/// The kind of a file, from its content (`pte::identify`), or what it is instead.
fn kind(which: &str, bytes: &[u8]) -> Result<pte::FileKind> {
    match pte::identify(bytes) {
        pte::Identity::ExecuTorch(k) => Ok(k),
        pte::Identity::Foreign(what) => Err(Error::new(ErrorKind::Malformed, format!("{which}: {what}"))),
        pte::Identity::DamagedProgram => {
            Err(Error::new(ErrorKind::Malformed, format!("{which}: not a .pte, .ptd, .bpte or .ptn file")))
        }
    }
}

/// Two files of one kind, compared by that kind's tables.
struct Compare<'a> {
    a: &'a [u8],
    b: &'a [u8],
    options: &'a Options,
    out: &'a mut Vec<Difference>,
}

impl pte::PerKind for Compare<'_> {
    type Output = Result<()>;
    fn pte(self) -> Result<()> {
        program::diff(self.a, self.b, self.options, "", self.out)
    }
    fn ptd(self) -> Result<()> {
        ptd::diff(self.a, self.b, self.options, self.out)
    }
    fn bpte(self) -> Result<()> {
        bpte::diff(self.a, self.b, self.options, self.out)
    }
    fn ptn(self) -> Result<()> {
        ptn::diff(self.a, self.b, self.options, self.out)
    }
    fn other(self, kind: pte::FileKind) -> Result<()> {
        // `kind` above refuses anything that is not one of the four
        Err(Error::new(ErrorKind::Malformed, format!("{kind}: not a file diff compares")))
    }
}

/// Compares two files given as bytes.
///
/// Fails ([`ErrorKind::Malformed`] or another kind) when either file cannot
/// be read as its kind or the two are of different kinds; the error says
/// which file (`A:` or `B:`).
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let r = pte_diff::diff_bytes(&bytes, &bytes, &Default::default())?;
/// assert!(r.bitwise_equal && r.is_equal());
/// assert!(pte_diff::diff_bytes(&bytes, b"nonsense", &Default::default()).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn diff_bytes(a: &[u8], b: &[u8], options: &Options) -> Result<Comparison> {
    let (kind_a, kind_b) = (kind("A", a)?, kind("B", b)?);
    let (ka, kb) = (kind_a.extension().unwrap_or("?"), kind_b.extension().unwrap_or("?"));
    if kind_a != kind_b {
        return Err(Error::new(
            ErrorKind::InvalidUse,
            format!("A is a .{ka} and B a .{kb}: only files of one kind compare"),
        ));
    }
    let mut r =
        Comparison { kind: ka.to_string(), size_a: a.len() as u64, size_b: b.len() as u64, ..Comparison::default() };
    r.bitwise_equal = a == b;
    if r.bitwise_equal {
        // still parsed, so a malformed file is an error even against itself
        pte::read_strictly(pte::kind_of(a), a)?;
        return Ok(r);
    }
    let mut out = Vec::new();
    pte::per_kind(kind_a, Compare { a, b, options, out: &mut out })?;
    if options.ignore_layout {
        out.retain(|d| d.category != Category::Layout);
    }
    r.differences = out;
    Ok(r)
}

/// Compares two files on disk through memory maps: memory is what the two
/// programs take, and segment bytes are compared where they lie.
///
/// ```
/// let p = pte_testkit::corpus("add/model.pte");
/// assert!(pte_diff::diff_files(&p, "missing.pte".as_ref(), &Default::default()).is_err());
/// ```
pub fn diff_files(a: &std::path::Path, b: &std::path::Path, options: &Options) -> Result<Comparison> {
    let ma = pte_schema::MappedFile::open(a).map_err(|e| Error::new(e.kind(), format!("{}: {e}", a.display())))?;
    let mb = pte_schema::MappedFile::open(b).map_err(|e| Error::new(e.kind(), format!("{}: {e}", b.display())))?;
    diff_bytes(ma.bytes(), mb.bytes(), options)
}

/// Tags an error with the file it came from.
pub(crate) fn side(which: &'static str) -> impl Fn(Error) -> Error {
    move |e| {
        let path = e.path().to_string();
        let mut out = Error::new(e.kind(), format!("{which}: {}", e.message())).at_path(path);
        if let Some(o) = e.offset() {
            out = out.at_offset(o);
        }
        out
    }
}
