//! The NPTG schema's enums, open like the program's: unknown values survive
//! a read then write.

use crate::open_enum::open_enum;

open_enum! {
    /// Element type in a native program (`native_backend.ScalarType`).
    ///
    /// Not interchangeable with [`ScalarType`](crate::ScalarType): the unsigned
    /// types are 16, 17 and 18 here, where ExecuTorch uses 27, 28 and 29 (and
    /// 16, 17 mean QUINT4X2, QUINT2X4).
    ///
    /// ```
    /// use pte_schema::native::NativeScalarType;
    /// assert_eq!(NativeScalarType::UINT16.0, 16);
    /// assert_eq!(NativeScalarType::UINT16.safetensors_dtype(), Some("U16"));
    /// assert_eq!(NativeScalarType(9).safetensors_dtype(), None);
    /// ```
    NativeScalarType: i8 {
        BYTE = 0, CHAR = 1, SHORT = 2, INT = 3, LONG = 4, HALF = 5, FLOAT = 6, DOUBLE = 7,
        BOOL = 11, BFLOAT16 = 15, UINT16 = 16, UINT32 = 17, UINT64 = 18,
    }
}

impl NativeScalarType {
    /// The safetensors dtype code a constant of this type is stored as
    /// (exir's mapping), `None` for undeclared values.
    ///
    /// ```
    /// assert_eq!(pte_schema::native::NativeScalarType::BYTE.safetensors_dtype(), Some("U8"));
    /// ```
    pub fn safetensors_dtype(self) -> Option<&'static str> {
        Some(match self {
            Self::BYTE => "U8",
            Self::CHAR => "I8",
            Self::SHORT => "I16",
            Self::INT => "I32",
            Self::LONG => "I64",
            Self::HALF => "F16",
            Self::FLOAT => "F32",
            Self::DOUBLE => "F64",
            Self::BOOL => "BOOL",
            Self::BFLOAT16 => "BF16",
            Self::UINT16 => "U16",
            Self::UINT32 => "U32",
            Self::UINT64 => "U64",
            _ => return None,
        })
    }

    /// Bytes per element, `None` for undeclared values.
    ///
    /// ```
    /// assert_eq!(pte_schema::native::NativeScalarType::BFLOAT16.element_size(), Some(2));
    /// ```
    pub fn element_size(self) -> Option<u64> {
        Some(match self {
            Self::BYTE | Self::CHAR | Self::BOOL => 1,
            Self::SHORT | Self::HALF | Self::BFLOAT16 | Self::UINT16 => 2,
            Self::INT | Self::FLOAT | Self::UINT32 => 4,
            Self::LONG | Self::DOUBLE | Self::UINT64 => 8,
            _ => return None,
        })
    }
}

open_enum! {
    /// fx node kind (`node.op`).
    ///
    /// ```
    /// assert_eq!(pte_schema::native::OpKind::default(), pte_schema::native::OpKind::CALL_FUNCTION);
    /// ```
    OpKind: i8 { CALL_FUNCTION = 0, PLACEHOLDER = 1, OUTPUT = 2 }
}

open_enum! {
    /// What a graph input placeholder is bound to.
    ///
    /// ```
    /// assert_eq!(pte_schema::native::InputKind::BUFFER.0, 2);
    /// ```
    InputKind: i8 { USER_INPUT = 0, PARAMETER = 1, BUFFER = 2, CONSTANT_TENSOR = 3 }
}

open_enum! {
    /// Whether a graph output is a result or a state write-back.
    ///
    /// ```
    /// assert_eq!(pte_schema::native::OutputKind::BUFFER_MUTATION.0, 1);
    /// ```
    OutputKind: i8 { USER_OUTPUT = 0, BUFFER_MUTATION = 1, USER_INPUT_MUTATION = 2 }
}

open_enum! {
    /// The shape of what a node output produces.
    ///
    /// ```
    /// assert_eq!(pte_schema::native::OutputValueKind::TENSOR_LIST.0, 1);
    /// ```
    OutputValueKind: i8 { TENSOR = 0, TENSOR_LIST = 1, INT = 2, BOOL = 3, FLOAT = 4 }
}
