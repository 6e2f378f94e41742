//! One stored constant: dtype, shape and bytes.

use pte_schema::{Bytes, Error, ErrorKind, Result};
pub use safetensors::Dtype;

/// The dtypes a package may hold: the ones exir's writer can emit. Others
/// (the float8 and sub-byte kinds) are `Unsupported` on read and write.
///
/// ```
/// use pte_ptn::{Dtype, SUPPORTED_DTYPES};
/// assert!(SUPPORTED_DTYPES.contains(&Dtype::BF16));
/// assert!(!SUPPORTED_DTYPES.contains(&Dtype::F8_E4M3));
/// ```
pub const SUPPORTED_DTYPES: &[Dtype] = &[
    Dtype::F64,
    Dtype::F32,
    Dtype::F16,
    Dtype::BF16,
    Dtype::I64,
    Dtype::I32,
    Dtype::I16,
    Dtype::I8,
    Dtype::U8,
    Dtype::BOOL,
    Dtype::C64,
    Dtype::U16,
    Dtype::U32,
    Dtype::U64,
];

/// The safetensors code of a dtype (`"F32"`).
///
/// ```
/// assert_eq!(pte_ptn::dtype_code(pte_ptn::Dtype::BF16), "BF16");
/// ```
pub fn dtype_code(dtype: Dtype) -> String {
    match serde_json::to_value(dtype) {
        Ok(serde_json::Value::String(s)) => s,
        _ => format!("{dtype:?}"),
    }
}

/// A constant tensor: element type, shape and its little-endian bytes,
/// borrowed from the package when it was read from memory.
///
/// ```
/// use pte_ptn::{Dtype, PtnTensor};
/// let t = PtnTensor::new(Dtype::F32, vec![2], vec![0u8; 8])?;
/// assert_eq!(t.data.len(), 8);
/// assert!(PtnTensor::new(Dtype::F32, vec![3], vec![0u8; 8]).is_err());
/// # Ok::<(), pte_ptn::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtnTensor<'a> {
    /// Element type.
    pub dtype: Dtype,
    /// Shape (row-major, contiguous).
    pub shape: Vec<u64>,
    /// Raw bytes, `numel × element size` long.
    pub data: Bytes<'a>,
}

impl<'a> PtnTensor<'a> {
    /// Builds a tensor, checking the dtype is supported and the byte length
    /// matches the shape.
    ///
    /// ```
    /// let t = pte_ptn::PtnTensor::new(pte_ptn::Dtype::U8, vec![], vec![7u8])?;
    /// assert_eq!(t.shape, Vec::<u64>::new());
    /// # Ok::<(), pte_ptn::Error>(())
    /// ```
    pub fn new(dtype: Dtype, shape: Vec<u64>, data: impl Into<Bytes<'a>>) -> Result<Self> {
        let t = PtnTensor { dtype, shape, data: data.into() };
        t.check()?;
        Ok(t)
    }

    /// Number of bytes the shape and dtype call for, `None` on overflow.
    ///
    /// ```
    /// let t = pte_ptn::PtnTensor::new(pte_ptn::Dtype::I64, vec![2, 3], vec![0u8; 48])?;
    /// assert_eq!(t.expected_len(), Some(48));
    /// # Ok::<(), pte_ptn::Error>(())
    /// ```
    pub fn expected_len(&self) -> Option<u64> {
        let numel = self.shape.iter().try_fold(1u64, |a, &d| a.checked_mul(d))?;
        let bits = numel.checked_mul(u64::try_from(self.dtype.bitsize()).ok()?)?;
        if bits % 8 != 0 {
            return None;
        }
        Some(bits / 8)
    }

    /// Checks the dtype is supported and the length matches the shape.
    ///
    /// ```
    /// let t = pte_ptn::PtnTensor { dtype: pte_ptn::Dtype::F16, shape: vec![1], data: vec![0u8; 3].into() };
    /// assert_eq!(t.check().unwrap_err().kind(), pte_ptn::ErrorKind::InvalidUse);
    /// ```
    pub fn check(&self) -> Result<()> {
        if !SUPPORTED_DTYPES.contains(&self.dtype) {
            return Err(Error::new(
                ErrorKind::Unsupported,
                format!("dtype {} is not one a package may hold", dtype_code(self.dtype)),
            ));
        }
        match self.expected_len() {
            Some(n) if u64::try_from(self.data.len()).ok() == Some(n) => Ok(()),
            Some(n) => Err(Error::new(
                ErrorKind::InvalidUse,
                format!(
                    "shape {:?} of {} needs {n} bytes, the tensor has {}",
                    self.shape,
                    dtype_code(self.dtype),
                    self.data.len()
                ),
            )),
            None => Err(Error::new(ErrorKind::InvalidUse, format!("shape {:?} overflows", self.shape))),
        }
    }

    /// Copies borrowed bytes so the tensor owns them.
    ///
    /// ```
    /// let t = pte_ptn::PtnTensor::new(pte_ptn::Dtype::U8, vec![1], &[1u8][..])?.into_owned();
    /// assert!(matches!(t.data, std::borrow::Cow::Owned(_)));
    /// # Ok::<(), pte_ptn::Error>(())
    /// ```
    pub fn into_owned(self) -> PtnTensor<'static> {
        PtnTensor { dtype: self.dtype, shape: self.shape, data: Bytes::Owned(self.data.into_owned()) }
    }
}
