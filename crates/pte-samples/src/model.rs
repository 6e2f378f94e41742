//! The in-memory form of a sample set.

use pte_ptn::PtnTensor;

/// A tensor value: dtype, shape and little-endian bytes (the package's tensor type).
pub type Tensor<'a> = PtnTensor<'a>;

/// A named group of recorded calls to one method
/// (`samples/<method>/<set>/` in a package).
///
/// ```
/// use pte_samples::*;
/// let set = SampleSet::new("forward", "smoke");
/// assert!(set.samples.is_empty() && set.tolerance.is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SampleSet<'a> {
    /// The method every call invokes.
    pub method: String,
    /// The set's name (unique per method).
    pub name: String,
    /// Tolerance for every call that gives none and whose sample gives none.
    pub tolerance: Option<Tolerance>,
    /// The samples, in order.
    pub samples: Vec<Sample<'a>>,
}

impl SampleSet<'_> {
    /// An empty set.
    ///
    /// ```
    /// assert_eq!(pte_samples::SampleSet::new("f", "s").method, "f");
    /// ```
    pub fn new(method: impl Into<String>, name: impl Into<String>) -> Self {
        SampleSet { method: method.into(), name: name.into(), tolerance: None, samples: Vec::new() }
    }

    /// Copies every borrowed byte.
    ///
    /// ```
    /// let s: pte_samples::SampleSet<'static> = pte_samples::SampleSet::new("f", "s").into_owned();
    /// assert_eq!(s.name, "s");
    /// ```
    pub fn into_owned(self) -> SampleSet<'static> {
        SampleSet {
            method: self.method,
            name: self.name,
            tolerance: self.tolerance,
            samples: self.samples.into_iter().map(Sample::into_owned).collect(),
        }
    }
}

/// An ordered list of calls run from the method's initial state, with no
/// reset between them.
///
/// ```
/// let s = pte_samples::Sample::default();
/// assert!(s.calls.is_empty());
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Sample<'a> {
    /// Optional label.
    pub name: Option<String>,
    /// Tolerance for every call of this sample that gives none.
    pub tolerance: Option<Tolerance>,
    /// The calls, in execution order.
    pub calls: Vec<Call<'a>>,
}

impl Sample<'_> {
    /// Copies every borrowed byte.
    ///
    /// ```
    /// let s: pte_samples::Sample<'static> = pte_samples::Sample::default().into_owned();
    /// assert!(s.name.is_none());
    /// ```
    pub fn into_owned(self) -> Sample<'static> {
        Sample {
            name: self.name,
            tolerance: self.tolerance,
            calls: self.calls.into_iter().map(Call::into_owned).collect(),
        }
    }
}

/// One method call: its inputs and the outputs it must produce.
///
/// ```
/// use pte_samples::*;
/// let c = Call { inputs: vec![Value::Int(3)], outputs: vec![Value::Bool(true)], tolerance: None };
/// assert_eq!(c.inputs.len(), 1);
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Call<'a> {
    /// Input values, in the method's input order.
    pub inputs: Vec<Value<'a>>,
    /// Expected outputs, in the method's output order.
    pub outputs: Vec<Value<'a>>,
    /// Tolerance for this call's outputs.
    pub tolerance: Option<Tolerance>,
}

impl Call<'_> {
    /// Copies every borrowed byte.
    ///
    /// ```
    /// let c: pte_samples::Call<'static> = pte_samples::Call::default().into_owned();
    /// assert!(c.outputs.is_empty());
    /// ```
    pub fn into_owned(self) -> Call<'static> {
        Call {
            inputs: self.inputs.into_iter().map(Value::into_owned).collect(),
            outputs: self.outputs.into_iter().map(Value::into_owned).collect(),
            tolerance: self.tolerance,
        }
    }
}

/// A method input or output.
///
/// Equality is bitwise for floats (so `NaN == NaN` and `0.0 != -0.0`): a
/// read of a written set must give back exactly what was written.
///
/// ```
/// use pte_samples::Value;
/// assert_eq!(Value::Float(f64::NAN), Value::Float(f64::NAN));
/// assert_ne!(Value::Float(0.0), Value::Float(-0.0));
/// assert_eq!(Value::None.kind(), "none");
/// ```
#[derive(Clone, Debug)]
pub enum Value<'a> {
    /// A tensor.
    Tensor(Tensor<'a>),
    /// An integer scalar.
    Int(i64),
    /// A floating-point scalar.
    Float(f64),
    /// A boolean scalar.
    Bool(bool),
    /// A string.
    String(String),
    /// No value.
    None,
    /// A list of tensors.
    TensorList(Vec<Tensor<'a>>),
}

impl PartialEq for Value<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Value::Tensor(a), Value::Tensor(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::String(a), Value::String(b)) => a == b,
            (Value::None, Value::None) => true,
            (Value::TensorList(a), Value::TensorList(b)) => a == b,
            _ => false,
        }
    }
}

impl Value<'_> {
    /// The kind's name in the index format (`tensor`, `int`, ...).
    ///
    /// ```
    /// assert_eq!(pte_samples::Value::TensorList(vec![]).kind(), "tensor_list");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Tensor(_) => "tensor",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Bool(_) => "bool",
            Value::String(_) => "string",
            Value::None => "none",
            Value::TensorList(_) => "tensor_list",
        }
    }

    /// Copies every borrowed byte.
    ///
    /// ```
    /// let v: pte_samples::Value<'static> = pte_samples::Value::Int(1).into_owned();
    /// assert_eq!(v, pte_samples::Value::Int(1));
    /// ```
    pub fn into_owned(self) -> Value<'static> {
        match self {
            Value::Tensor(t) => Value::Tensor(t.into_owned()),
            Value::Int(i) => Value::Int(i),
            Value::Float(f) => Value::Float(f),
            Value::Bool(b) => Value::Bool(b),
            Value::String(s) => Value::String(s),
            Value::None => Value::None,
            Value::TensorList(l) => Value::TensorList(l.into_iter().map(PtnTensor::into_owned).collect()),
        }
    }
}

/// Elementwise tolerance for floating outputs: `|a - e| <= atol + rtol * |e|`.
///
/// ```
/// let t = pte_samples::Tolerance { atol: 1e-6, rtol: 0.0 };
/// assert!(t.admits(1.0, 1.0 + 1e-7));
/// assert!(!t.admits(1.0, 1.1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Absolute tolerance.
    pub atol: f64,
    /// Relative tolerance (scaled by the expected value).
    pub rtol: f64,
}

/// What applies when no level gives a tolerance: ExecuTorch's own bundled
/// program defaults (`atol` 1e-8, `rtol` 1e-5).
pub const DEFAULT_TOLERANCE: Tolerance = Tolerance { atol: 1e-8, rtol: 1e-5 };

/// A resolved tolerance above this in either field makes the writer warn.
pub const WARN_TOLERANCE: f64 = 1e-3;

impl Default for Tolerance {
    /// [`DEFAULT_TOLERANCE`].
    ///
    /// ```
    /// assert_eq!(pte_samples::Tolerance::default(), pte_samples::DEFAULT_TOLERANCE);
    /// ```
    fn default() -> Self {
        DEFAULT_TOLERANCE
    }
}

impl Tolerance {
    /// Whether `actual` is close enough to `expected`: NaN matches only NaN,
    /// an infinity only the same infinity.
    ///
    /// ```
    /// let t = pte_samples::DEFAULT_TOLERANCE;
    /// assert!(t.admits(f64::NAN, f64::NAN));
    /// assert!(!t.admits(f64::INFINITY, 1e308));
    /// ```
    pub fn admits(&self, expected: f64, actual: f64) -> bool {
        if expected.is_nan() || actual.is_nan() {
            return expected.is_nan() && actual.is_nan();
        }
        if expected.is_infinite() || actual.is_infinite() {
            return expected == actual;
        }
        (actual - expected).abs() <= self.allowed(expected)
    }

    /// The largest admitted `|a - e|` for an expected value.
    ///
    /// ```
    /// assert_eq!(pte_samples::Tolerance { atol: 1.0, rtol: 0.5 }.allowed(-2.0), 2.0);
    /// ```
    pub fn allowed(&self, expected: f64) -> f64 {
        self.atol + self.rtol * expected.abs()
    }
}
