//! A bundled program read in place: suites, cases and values are read when
//! asked for, so a bundle of hundreds of thousands of cases costs no more
//! than the one value being looked at. Verified as
//! [`decode_bundled_program`](super::decode_bundled_program) verifies, and a
//! value fails to read where decoding would fail.

use crate::decode_common::{check_identifier, from_verifier};
use crate::fenced::bp;
use crate::limits::Limits;
use pte_core::Result;

use super::{value, BundledValue, BUNDLED_PROGRAM_IDENTIFIER};

/// A verified `BP08` buffer, read in place.
///
/// ```
/// use pte_schema::bundled::*;
/// let case = TestCase { inputs: Some(vec![BundledValue::Int(3)]), expected_outputs: None };
/// let suite = TestSuite { method_name: Some("forward".into()), test_cases: Some(vec![case]) };
/// let b = BundledProgram { version: 2, method_test_suites: Some(vec![suite]), program: Some(b"pte"[..].into()) };
/// let bytes = encode_bundled_program(&b)?;
/// let v = BundledView::new(&bytes, &Default::default())?;
/// assert_eq!((v.version(), v.program(), v.suite_count()), (2, Some(&b"pte"[..]), 1));
/// let s = v.suites().next().unwrap();
/// assert_eq!((s.method_name(), s.case_count()), (Some("forward"), Some(1)));
/// let c = s.cases().next().unwrap();
/// assert_eq!(c.values(Side::Inputs).unwrap().collect::<Result<Vec<_>, _>>()?, [BundledValue::Int(3)]);
/// assert!(c.values(Side::ExpectedOutputs).is_none());
/// # Ok::<(), pte_schema::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct BundledView<'a> {
    pub(super) root: bp::BundledProgram<'a>,
}

/// One suite of a [`BundledView`].
#[derive(Clone, Copy)]
pub struct SuiteView<'a> {
    suite: bp::BundledMethodTestSuite<'a>,
    index: usize,
}

/// One case of a [`SuiteView`].
#[derive(Clone, Copy)]
pub struct CaseView<'a> {
    case: bp::BundledMethodTestCase<'a>,
    suite: usize,
    index: usize,
}

/// Which values of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The inputs.
    Inputs,
    /// The expected outputs.
    ExpectedOutputs,
}

impl Side {
    /// The schema's field name (`inputs`, `expected_outputs`).
    ///
    /// ```
    /// assert_eq!(pte_schema::bundled::Side::ExpectedOutputs.field(), "expected_outputs");
    /// ```
    pub fn field(self) -> &'static str {
        match self {
            Side::Inputs => "inputs",
            Side::ExpectedOutputs => "expected_outputs",
        }
    }
}

impl<'a> BundledView<'a> {
    /// Verifies `buf` as [`decode_bundled_program`](super::decode_bundled_program)
    /// does (identifier, tables, offsets), without decoding it.
    ///
    /// ```
    /// let e = pte_schema::bundled::BundledView::new(b"\x08\0\0\0ET12\0\0\0\0", &Default::default()).err().unwrap();
    /// assert_eq!(e.offset(), Some(4));
    /// ```
    pub fn new(buf: &'a [u8], limits: &Limits) -> Result<Self> {
        check_identifier(buf, BUNDLED_PROGRAM_IDENTIFIER)?;
        let opts = limits.verifier_options(buf.len());
        let root = bp::root_as_bundled_program_with_opts(&opts, buf).map_err(from_verifier)?;
        crate::offsets::check_offsets(buf, crate::offsets::Schema::Bundled, limits.max_depth)?;
        Ok(BundledView { root })
    }

    /// The schema version.
    ///
    /// ```
    /// # use pte_schema::bundled::*;
    /// let bytes = encode_bundled_program(&BundledProgram { version: 7, ..Default::default() })?;
    /// assert_eq!(BundledView::new(&bytes, &Default::default())?.version(), 7);
    /// # Ok::<(), pte_schema::Error>(())
    /// ```
    pub fn version(&self) -> u32 {
        self.root.version()
    }

    /// The embedded program's bytes, borrowed from the buffer.
    ///
    /// ```
    /// # use pte_schema::bundled::*;
    /// let bytes = encode_bundled_program(&BundledProgram::default())?;
    /// assert_eq!(BundledView::new(&bytes, &Default::default())?.program(), None);
    /// # Ok::<(), pte_schema::Error>(())
    /// ```
    pub fn program(&self) -> Option<&'a [u8]> {
        self.root.program().map(|p| p.bytes())
    }

    /// Whether the suite table is present (`Some(vec![])` and `None` differ
    /// in the decoded model).
    ///
    /// ```
    /// # use pte_schema::bundled::*;
    /// let bytes = encode_bundled_program(&BundledProgram::default())?;
    /// assert!(!BundledView::new(&bytes, &Default::default())?.has_suites());
    /// # Ok::<(), pte_schema::Error>(())
    /// ```
    pub fn has_suites(&self) -> bool {
        self.root.method_test_suites().is_some()
    }

    /// Number of suites (0 when absent).
    ///
    /// ```
    /// # use pte_schema::bundled::*;
    /// let bytes = encode_bundled_program(&BundledProgram::default())?;
    /// assert_eq!(BundledView::new(&bytes, &Default::default())?.suite_count(), 0);
    /// # Ok::<(), pte_schema::Error>(())
    /// ```
    pub fn suite_count(&self) -> usize {
        self.root.method_test_suites().map_or(0, |v| v.len())
    }

    /// The suites, in order.
    ///
    /// ```
    /// # use pte_schema::bundled::*;
    /// let bytes = encode_bundled_program(&BundledProgram::default())?;
    /// assert_eq!(BundledView::new(&bytes, &Default::default())?.suites().count(), 0);
    /// # Ok::<(), pte_schema::Error>(())
    /// ```
    pub fn suites(&self) -> impl Iterator<Item = SuiteView<'a>> + 'a + use<'a> {
        let suites = self.root.method_test_suites();
        suites.into_iter().flat_map(|v| v.iter()).enumerate().map(|(index, suite)| SuiteView { suite, index })
    }
}

impl<'a> SuiteView<'a> {
    /// The method tested.
    ///
    /// ```
    /// # use pte_schema::bundled::*;
    /// let s = TestSuite { method_name: Some("f".into()), test_cases: None };
    /// let bytes = encode_bundled_program(&BundledProgram { method_test_suites: Some(vec![s]), ..Default::default() })?;
    /// let v = BundledView::new(&bytes, &Default::default())?;
    /// assert_eq!(v.suites().next().unwrap().method_name(), Some("f"));
    /// # Ok::<(), pte_schema::Error>(())
    /// ```
    pub fn method_name(&self) -> Option<&'a str> {
        self.suite.method_name()
    }

    /// Number of cases, `None` when the table is absent.
    ///
    /// ```
    /// # use pte_schema::bundled::*;
    /// let bytes = encode_bundled_program(&BundledProgram { method_test_suites: Some(vec![TestSuite::default()]), ..Default::default() })?;
    /// let v = BundledView::new(&bytes, &Default::default())?;
    /// assert_eq!(v.suites().next().unwrap().case_count(), None);
    /// # Ok::<(), pte_schema::Error>(())
    /// ```
    pub fn case_count(&self) -> Option<usize> {
        self.suite.test_cases().map(|v| v.len())
    }

    /// The cases, in order.
    ///
    /// ```
    /// # use pte_schema::bundled::*;
    /// let s = TestSuite { method_name: None, test_cases: Some(vec![TestCase::default(); 3]) };
    /// let bytes = encode_bundled_program(&BundledProgram { method_test_suites: Some(vec![s]), ..Default::default() })?;
    /// let v = BundledView::new(&bytes, &Default::default())?;
    /// assert_eq!(v.suites().next().unwrap().cases().count(), 3);
    /// # Ok::<(), pte_schema::Error>(())
    /// ```
    pub fn cases(&self) -> impl Iterator<Item = CaseView<'a>> + 'a + use<'a> {
        let suite = self.index;
        let cases = self.suite.test_cases();
        cases.into_iter().flat_map(|v| v.iter()).enumerate().map(move |(index, case)| CaseView { case, suite, index })
    }
}

impl<'a> CaseView<'a> {
    /// Number of values of `side`, `None` when the table is absent.
    ///
    /// ```
    /// # use pte_schema::bundled::*;
    /// let c = TestCase { inputs: Some(vec![BundledValue::None; 2]), expected_outputs: None };
    /// let s = TestSuite { method_name: None, test_cases: Some(vec![c]) };
    /// let bytes = encode_bundled_program(&BundledProgram { method_test_suites: Some(vec![s]), ..Default::default() })?;
    /// let v = BundledView::new(&bytes, &Default::default())?;
    /// let c = v.suites().next().unwrap().cases().next().unwrap();
    /// assert_eq!((c.value_count(Side::Inputs), c.value_count(Side::ExpectedOutputs)), (Some(2), None));
    /// # Ok::<(), pte_schema::Error>(())
    /// ```
    pub fn value_count(&self, side: Side) -> Option<usize> {
        self.table(side).map(|v| v.len())
    }

    fn table(&self, side: Side) -> Option<flatbuffers::Vector<'a, flatbuffers::ForwardsUOffset<bp::Value<'a>>>> {
        match side {
            Side::Inputs => self.case.inputs(),
            Side::ExpectedOutputs => self.case.expected_outputs(),
        }
    }

    /// The values of `side`, each read (and checked as decoding checks it)
    /// when reached; `None` when the table is absent.
    ///
    /// ```
    /// # use pte_schema::bundled::*;
    /// let case = TestCase { inputs: None, expected_outputs: Some(vec![BundledValue::Bool(true)]) };
    /// let suite = TestSuite { method_name: None, test_cases: Some(vec![case]) };
    /// let bytes = encode_bundled_program(&BundledProgram { method_test_suites: Some(vec![suite]), ..Default::default() })?;
    /// let v = BundledView::new(&bytes, &Default::default())?;
    /// let c = v.suites().next().and_then(|s| s.cases().next()).unwrap();
    /// assert!(c.values(Side::Inputs).is_none());
    /// let outputs: Vec<_> = c.values(Side::ExpectedOutputs).unwrap().collect::<Result<_, _>>()?;
    /// assert_eq!(outputs, [BundledValue::Bool(true)]);
    /// # Ok::<(), pte_schema::Error>(())
    /// ```
    pub fn values(&self, side: Side) -> Option<impl Iterator<Item = Result<BundledValue<'a>>> + 'a + use<'a>> {
        let (suite, case) = (self.suite, self.index);
        self.table(side)
            .map(move |v| v.iter().enumerate().map(move |(k, x)| value(x, || value_path(suite, case, side, k))))
    }
}

/// Where value `k` of one side of a case is, as errors name it.
pub(super) fn value_path(suite: usize, case: usize, side: Side, k: usize) -> String {
    format!("method_test_suites[{suite}].test_cases[{case}].{}[{k}]", side.field())
}
