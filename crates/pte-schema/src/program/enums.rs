//! The program schema's enums (`executorch_flatbuffer`), open: an undeclared
//! value is kept and written back unchanged.

use crate::open_enum::open_enum;

open_enum! {
    /// Tensor element type (`executorch_flatbuffer.ScalarType`, an int8 on the wire).
    ///
    /// ```
    /// use pte_schema::ScalarType;
    /// assert_eq!(ScalarType::FLOAT.element_size(), Some(4));
    /// assert_eq!(ScalarType(30).name(), None); // unknown values are kept, not rejected
    /// ```
    ScalarType: i8 {
        BYTE = 0, CHAR = 1, SHORT = 2, INT = 3, LONG = 4, HALF = 5, FLOAT = 6, DOUBLE = 7,
        BOOL = 11, QINT8 = 12, QUINT8 = 13, QINT32 = 14, BFLOAT16 = 15, QUINT4X2 = 16,
        QUINT2X4 = 17, BITS16 = 22, FLOAT8E5M2 = 23, FLOAT8E4M3FN = 24, FLOAT8E5M2FNUZ = 25,
        FLOAT8E4M3FNUZ = 26, UINT16 = 27, UINT32 = 28, UINT64 = 29,
    }
}

impl ScalarType {
    /// Bytes per element as the runtime counts them (`elementSize`), for every
    /// value the runtime accepts (0 through 29, including the undeclared
    /// complex and bit types); `None` outside that range.
    ///
    /// ```
    /// use pte_schema::ScalarType;
    /// assert_eq!(ScalarType::BFLOAT16.element_size(), Some(2));
    /// assert_eq!(ScalarType(9).element_size(), Some(8)); // complex float, undeclared
    /// assert_eq!(ScalarType(-1).element_size(), None);
    /// ```
    #[inline]
    pub fn element_size(self) -> Option<u64> {
        Some(match self.0 {
            0 | 1 | 11 | 12 | 13 | 16 | 17 | 18..=21 | 23..=26 => 1,
            2 | 5 | 15 | 22 | 27 => 2,
            3 | 6 | 14 | 28 => 4,
            4 | 7 | 29 => 8,
            8 => 4,
            9 => 8,
            10 => 16,
            _ => return None,
        })
    }

    /// Whether the runtime's `isValid` accepts this value (0 through 29).
    ///
    /// ```
    /// assert!(pte_schema::ScalarType(8).is_runtime_valid());
    /// assert!(!pte_schema::ScalarType(30).is_runtime_valid());
    /// ```
    #[inline]
    pub fn is_runtime_valid(self) -> bool {
        (0..=29).contains(&self.0)
    }
}

open_enum! {
    /// How a tensor's shape may change at run time.
    ///
    /// ```
    /// assert_eq!(pte_schema::TensorShapeDynamism::default(), pte_schema::TensorShapeDynamism::STATIC);
    /// ```
    TensorShapeDynamism: i8 { STATIC = 0, DYNAMIC_BOUND = 1, DYNAMIC_UNBOUND = 2 }
}

open_enum! {
    /// Where a tensor's data lives: in this program's segments or in external data.
    ///
    /// ```
    /// assert_eq!(pte_schema::TensorDataLocation::EXTERNAL.0, 1);
    /// ```
    TensorDataLocation: i8 { SEGMENT = 0, EXTERNAL = 1 }
}

open_enum! {
    /// Device a tensor or planned buffer belongs to.
    ///
    /// ```
    /// assert_eq!(pte_schema::DeviceType::default(), pte_schema::DeviceType::CPU);
    /// ```
    DeviceType: i8 { CPU = 0, CUDA = 1 }
}

open_enum! {
    /// Where a delegate's processed blob is stored.
    ///
    /// ```
    /// assert_eq!(pte_schema::DataLocation::SEGMENT.name(), Some("SEGMENT"));
    /// ```
    DataLocation: i8 { INLINE = 0, SEGMENT = 1 }
}
