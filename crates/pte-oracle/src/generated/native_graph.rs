pub use root::*;

const _: () = ::planus::check_version_compatibility("planus-1.3.0");

/// The root namespace
///
/// Generated from these locations:
/// * File `schema/native_graph.fbs`
#[no_implicit_prelude]
#[allow(clippy::needless_lifetimes)]
mod root {
    /// The namespace `native_backend`
    ///
    /// Generated from these locations:
    /// * File `schema/native_graph.fbs`
    pub mod native_backend {
        /// The enum `ScalarType` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Enum `ScalarType` in the file `schema/native_graph.fbs:18`
        #[derive(
            Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, ::serde::Serialize, ::serde::Deserialize,
        )]
        #[repr(i8)]
        pub enum ScalarType {
            /// The variant `BYTE` in the enum `ScalarType`
            Byte = 0,

            /// The variant `CHAR` in the enum `ScalarType`
            Char = 1,

            /// The variant `SHORT` in the enum `ScalarType`
            Short = 2,

            /// The variant `INT` in the enum `ScalarType`
            Int = 3,

            /// The variant `LONG` in the enum `ScalarType`
            Long = 4,

            /// The variant `HALF` in the enum `ScalarType`
            Half = 5,

            /// The variant `FLOAT` in the enum `ScalarType`
            Float = 6,

            /// The variant `DOUBLE` in the enum `ScalarType`
            Double = 7,

            /// The variant `BOOL` in the enum `ScalarType`
            Bool = 11,

            /// The variant `BFLOAT16` in the enum `ScalarType`
            Bfloat16 = 15,

            /// The variant `UINT16` in the enum `ScalarType`
            Uint16 = 16,

            /// The variant `UINT32` in the enum `ScalarType`
            Uint32 = 17,

            /// The variant `UINT64` in the enum `ScalarType`
            Uint64 = 18,
        }

        impl ScalarType {
            /// Array containing all valid variants of ScalarType
            pub const ENUM_VALUES: [Self; 13] = [
                Self::Byte,
                Self::Char,
                Self::Short,
                Self::Int,
                Self::Long,
                Self::Half,
                Self::Float,
                Self::Double,
                Self::Bool,
                Self::Bfloat16,
                Self::Uint16,
                Self::Uint32,
                Self::Uint64,
            ];
        }

        impl ::core::convert::TryFrom<i8> for ScalarType {
            type Error = ::planus::errors::UnknownEnumTagKind;
            #[inline]
            fn try_from(value: i8) -> ::core::result::Result<Self, ::planus::errors::UnknownEnumTagKind> {
                #[allow(clippy::match_single_binding)]
                match value {
                    0 => ::core::result::Result::Ok(ScalarType::Byte),
                    1 => ::core::result::Result::Ok(ScalarType::Char),
                    2 => ::core::result::Result::Ok(ScalarType::Short),
                    3 => ::core::result::Result::Ok(ScalarType::Int),
                    4 => ::core::result::Result::Ok(ScalarType::Long),
                    5 => ::core::result::Result::Ok(ScalarType::Half),
                    6 => ::core::result::Result::Ok(ScalarType::Float),
                    7 => ::core::result::Result::Ok(ScalarType::Double),
                    11 => ::core::result::Result::Ok(ScalarType::Bool),
                    15 => ::core::result::Result::Ok(ScalarType::Bfloat16),
                    16 => ::core::result::Result::Ok(ScalarType::Uint16),
                    17 => ::core::result::Result::Ok(ScalarType::Uint32),
                    18 => ::core::result::Result::Ok(ScalarType::Uint64),

                    _ => ::core::result::Result::Err(::planus::errors::UnknownEnumTagKind { tag: value as i128 }),
                }
            }
        }

        impl ::core::convert::From<ScalarType> for i8 {
            #[inline]
            fn from(value: ScalarType) -> Self {
                value as i8
            }
        }

        /// # Safety
        /// The Planus compiler correctly calculates `ALIGNMENT` and `SIZE`.
        unsafe impl ::planus::Primitive for ScalarType {
            const ALIGNMENT: usize = 1;
            const SIZE: usize = 1;
        }

        impl ::planus::WriteAsPrimitive<ScalarType> for ScalarType {
            #[inline]
            fn write<const N: usize>(&self, cursor: ::planus::Cursor<'_, N>, buffer_position: u32) {
                (*self as i8).write(cursor, buffer_position);
            }
        }

        impl ::planus::WriteAs<ScalarType> for ScalarType {
            type Prepared = Self;

            #[inline]
            fn prepare(&self, _builder: &mut ::planus::Builder) -> ScalarType {
                *self
            }
        }

        impl ::planus::WriteAsDefault<ScalarType, ScalarType> for ScalarType {
            type Prepared = Self;

            #[inline]
            fn prepare(
                &self,
                _builder: &mut ::planus::Builder,
                default: &ScalarType,
            ) -> ::core::option::Option<ScalarType> {
                if self == default {
                    ::core::option::Option::None
                } else {
                    ::core::option::Option::Some(*self)
                }
            }
        }

        impl ::planus::WriteAsOptional<ScalarType> for ScalarType {
            type Prepared = Self;

            #[inline]
            fn prepare(&self, _builder: &mut ::planus::Builder) -> ::core::option::Option<ScalarType> {
                ::core::option::Option::Some(*self)
            }
        }

        impl<'buf> ::planus::TableRead<'buf> for ScalarType {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'buf>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                let n: i8 = ::planus::TableRead::from_buffer(buffer, offset)?;
                ::core::result::Result::Ok(::core::convert::TryInto::try_into(n)?)
            }
        }

        impl<'buf> ::planus::VectorReadInner<'buf> for ScalarType {
            type Error = ::planus::errors::UnknownEnumTag;
            const STRIDE: usize = 1;
            #[inline]
            unsafe fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'buf>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::UnknownEnumTag> {
                let value = unsafe { *buffer.buffer.get_unchecked(offset) as i8 };
                let value: ::core::result::Result<Self, _> = ::core::convert::TryInto::try_into(value);
                value.map_err(|error_kind| {
                    error_kind.with_error_location("ScalarType", "VectorRead::from_buffer", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<ScalarType> for ScalarType {
            const STRIDE: usize = 1;

            type Value = Self;

            #[inline]
            fn prepare(&self, _builder: &mut ::planus::Builder) -> Self {
                *self
            }

            #[inline]
            unsafe fn write_values(values: &[Self], bytes: *mut ::core::mem::MaybeUninit<u8>, buffer_position: u32) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 1];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - i as u32,
                    );
                }
            }
        }

        /// The enum `OpKind` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Enum `OpKind` in the file `schema/native_graph.fbs:35`
        #[derive(
            Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, ::serde::Serialize, ::serde::Deserialize,
        )]
        #[repr(i8)]
        pub enum OpKind {
            /// The variant `CALL_FUNCTION` in the enum `OpKind`
            CallFunction = 0,

            /// The variant `PLACEHOLDER` in the enum `OpKind`
            Placeholder = 1,

            /// The variant `OUTPUT` in the enum `OpKind`
            Output = 2,
        }

        impl OpKind {
            /// Array containing all valid variants of OpKind
            pub const ENUM_VALUES: [Self; 3] = [Self::CallFunction, Self::Placeholder, Self::Output];
        }

        impl ::core::convert::TryFrom<i8> for OpKind {
            type Error = ::planus::errors::UnknownEnumTagKind;
            #[inline]
            fn try_from(value: i8) -> ::core::result::Result<Self, ::planus::errors::UnknownEnumTagKind> {
                #[allow(clippy::match_single_binding)]
                match value {
                    0 => ::core::result::Result::Ok(OpKind::CallFunction),
                    1 => ::core::result::Result::Ok(OpKind::Placeholder),
                    2 => ::core::result::Result::Ok(OpKind::Output),

                    _ => ::core::result::Result::Err(::planus::errors::UnknownEnumTagKind { tag: value as i128 }),
                }
            }
        }

        impl ::core::convert::From<OpKind> for i8 {
            #[inline]
            fn from(value: OpKind) -> Self {
                value as i8
            }
        }

        /// # Safety
        /// The Planus compiler correctly calculates `ALIGNMENT` and `SIZE`.
        unsafe impl ::planus::Primitive for OpKind {
            const ALIGNMENT: usize = 1;
            const SIZE: usize = 1;
        }

        impl ::planus::WriteAsPrimitive<OpKind> for OpKind {
            #[inline]
            fn write<const N: usize>(&self, cursor: ::planus::Cursor<'_, N>, buffer_position: u32) {
                (*self as i8).write(cursor, buffer_position);
            }
        }

        impl ::planus::WriteAs<OpKind> for OpKind {
            type Prepared = Self;

            #[inline]
            fn prepare(&self, _builder: &mut ::planus::Builder) -> OpKind {
                *self
            }
        }

        impl ::planus::WriteAsDefault<OpKind, OpKind> for OpKind {
            type Prepared = Self;

            #[inline]
            fn prepare(&self, _builder: &mut ::planus::Builder, default: &OpKind) -> ::core::option::Option<OpKind> {
                if self == default {
                    ::core::option::Option::None
                } else {
                    ::core::option::Option::Some(*self)
                }
            }
        }

        impl ::planus::WriteAsOptional<OpKind> for OpKind {
            type Prepared = Self;

            #[inline]
            fn prepare(&self, _builder: &mut ::planus::Builder) -> ::core::option::Option<OpKind> {
                ::core::option::Option::Some(*self)
            }
        }

        impl<'buf> ::planus::TableRead<'buf> for OpKind {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'buf>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                let n: i8 = ::planus::TableRead::from_buffer(buffer, offset)?;
                ::core::result::Result::Ok(::core::convert::TryInto::try_into(n)?)
            }
        }

        impl<'buf> ::planus::VectorReadInner<'buf> for OpKind {
            type Error = ::planus::errors::UnknownEnumTag;
            const STRIDE: usize = 1;
            #[inline]
            unsafe fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'buf>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::UnknownEnumTag> {
                let value = unsafe { *buffer.buffer.get_unchecked(offset) as i8 };
                let value: ::core::result::Result<Self, _> = ::core::convert::TryInto::try_into(value);
                value.map_err(|error_kind| {
                    error_kind.with_error_location("OpKind", "VectorRead::from_buffer", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<OpKind> for OpKind {
            const STRIDE: usize = 1;

            type Value = Self;

            #[inline]
            fn prepare(&self, _builder: &mut ::planus::Builder) -> Self {
                *self
            }

            #[inline]
            unsafe fn write_values(values: &[Self], bytes: *mut ::core::mem::MaybeUninit<u8>, buffer_position: u32) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 1];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - i as u32,
                    );
                }
            }
        }

        /// The enum `InputKind` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Enum `InputKind` in the file `schema/native_graph.fbs:42`
        #[derive(
            Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, ::serde::Serialize, ::serde::Deserialize,
        )]
        #[repr(i8)]
        pub enum InputKind {
            /// The variant `USER_INPUT` in the enum `InputKind`
            UserInput = 0,

            /// The variant `PARAMETER` in the enum `InputKind`
            Parameter = 1,

            /// The variant `BUFFER` in the enum `InputKind`
            Buffer = 2,

            /// The variant `CONSTANT_TENSOR` in the enum `InputKind`
            ConstantTensor = 3,
        }

        impl InputKind {
            /// Array containing all valid variants of InputKind
            pub const ENUM_VALUES: [Self; 4] = [Self::UserInput, Self::Parameter, Self::Buffer, Self::ConstantTensor];
        }

        impl ::core::convert::TryFrom<i8> for InputKind {
            type Error = ::planus::errors::UnknownEnumTagKind;
            #[inline]
            fn try_from(value: i8) -> ::core::result::Result<Self, ::planus::errors::UnknownEnumTagKind> {
                #[allow(clippy::match_single_binding)]
                match value {
                    0 => ::core::result::Result::Ok(InputKind::UserInput),
                    1 => ::core::result::Result::Ok(InputKind::Parameter),
                    2 => ::core::result::Result::Ok(InputKind::Buffer),
                    3 => ::core::result::Result::Ok(InputKind::ConstantTensor),

                    _ => ::core::result::Result::Err(::planus::errors::UnknownEnumTagKind { tag: value as i128 }),
                }
            }
        }

        impl ::core::convert::From<InputKind> for i8 {
            #[inline]
            fn from(value: InputKind) -> Self {
                value as i8
            }
        }

        /// # Safety
        /// The Planus compiler correctly calculates `ALIGNMENT` and `SIZE`.
        unsafe impl ::planus::Primitive for InputKind {
            const ALIGNMENT: usize = 1;
            const SIZE: usize = 1;
        }

        impl ::planus::WriteAsPrimitive<InputKind> for InputKind {
            #[inline]
            fn write<const N: usize>(&self, cursor: ::planus::Cursor<'_, N>, buffer_position: u32) {
                (*self as i8).write(cursor, buffer_position);
            }
        }

        impl ::planus::WriteAs<InputKind> for InputKind {
            type Prepared = Self;

            #[inline]
            fn prepare(&self, _builder: &mut ::planus::Builder) -> InputKind {
                *self
            }
        }

        impl ::planus::WriteAsDefault<InputKind, InputKind> for InputKind {
            type Prepared = Self;

            #[inline]
            fn prepare(
                &self,
                _builder: &mut ::planus::Builder,
                default: &InputKind,
            ) -> ::core::option::Option<InputKind> {
                if self == default {
                    ::core::option::Option::None
                } else {
                    ::core::option::Option::Some(*self)
                }
            }
        }

        impl ::planus::WriteAsOptional<InputKind> for InputKind {
            type Prepared = Self;

            #[inline]
            fn prepare(&self, _builder: &mut ::planus::Builder) -> ::core::option::Option<InputKind> {
                ::core::option::Option::Some(*self)
            }
        }

        impl<'buf> ::planus::TableRead<'buf> for InputKind {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'buf>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                let n: i8 = ::planus::TableRead::from_buffer(buffer, offset)?;
                ::core::result::Result::Ok(::core::convert::TryInto::try_into(n)?)
            }
        }

        impl<'buf> ::planus::VectorReadInner<'buf> for InputKind {
            type Error = ::planus::errors::UnknownEnumTag;
            const STRIDE: usize = 1;
            #[inline]
            unsafe fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'buf>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::UnknownEnumTag> {
                let value = unsafe { *buffer.buffer.get_unchecked(offset) as i8 };
                let value: ::core::result::Result<Self, _> = ::core::convert::TryInto::try_into(value);
                value.map_err(|error_kind| {
                    error_kind.with_error_location("InputKind", "VectorRead::from_buffer", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<InputKind> for InputKind {
            const STRIDE: usize = 1;

            type Value = Self;

            #[inline]
            fn prepare(&self, _builder: &mut ::planus::Builder) -> Self {
                *self
            }

            #[inline]
            unsafe fn write_values(values: &[Self], bytes: *mut ::core::mem::MaybeUninit<u8>, buffer_position: u32) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 1];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - i as u32,
                    );
                }
            }
        }

        /// The enum `OutputKind` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Enum `OutputKind` in the file `schema/native_graph.fbs:50`
        #[derive(
            Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, ::serde::Serialize, ::serde::Deserialize,
        )]
        #[repr(i8)]
        pub enum OutputKind {
            /// The variant `USER_OUTPUT` in the enum `OutputKind`
            UserOutput = 0,

            /// The variant `BUFFER_MUTATION` in the enum `OutputKind`
            BufferMutation = 1,

            /// The variant `USER_INPUT_MUTATION` in the enum `OutputKind`
            UserInputMutation = 2,
        }

        impl OutputKind {
            /// Array containing all valid variants of OutputKind
            pub const ENUM_VALUES: [Self; 3] = [Self::UserOutput, Self::BufferMutation, Self::UserInputMutation];
        }

        impl ::core::convert::TryFrom<i8> for OutputKind {
            type Error = ::planus::errors::UnknownEnumTagKind;
            #[inline]
            fn try_from(value: i8) -> ::core::result::Result<Self, ::planus::errors::UnknownEnumTagKind> {
                #[allow(clippy::match_single_binding)]
                match value {
                    0 => ::core::result::Result::Ok(OutputKind::UserOutput),
                    1 => ::core::result::Result::Ok(OutputKind::BufferMutation),
                    2 => ::core::result::Result::Ok(OutputKind::UserInputMutation),

                    _ => ::core::result::Result::Err(::planus::errors::UnknownEnumTagKind { tag: value as i128 }),
                }
            }
        }

        impl ::core::convert::From<OutputKind> for i8 {
            #[inline]
            fn from(value: OutputKind) -> Self {
                value as i8
            }
        }

        /// # Safety
        /// The Planus compiler correctly calculates `ALIGNMENT` and `SIZE`.
        unsafe impl ::planus::Primitive for OutputKind {
            const ALIGNMENT: usize = 1;
            const SIZE: usize = 1;
        }

        impl ::planus::WriteAsPrimitive<OutputKind> for OutputKind {
            #[inline]
            fn write<const N: usize>(&self, cursor: ::planus::Cursor<'_, N>, buffer_position: u32) {
                (*self as i8).write(cursor, buffer_position);
            }
        }

        impl ::planus::WriteAs<OutputKind> for OutputKind {
            type Prepared = Self;

            #[inline]
            fn prepare(&self, _builder: &mut ::planus::Builder) -> OutputKind {
                *self
            }
        }

        impl ::planus::WriteAsDefault<OutputKind, OutputKind> for OutputKind {
            type Prepared = Self;

            #[inline]
            fn prepare(
                &self,
                _builder: &mut ::planus::Builder,
                default: &OutputKind,
            ) -> ::core::option::Option<OutputKind> {
                if self == default {
                    ::core::option::Option::None
                } else {
                    ::core::option::Option::Some(*self)
                }
            }
        }

        impl ::planus::WriteAsOptional<OutputKind> for OutputKind {
            type Prepared = Self;

            #[inline]
            fn prepare(&self, _builder: &mut ::planus::Builder) -> ::core::option::Option<OutputKind> {
                ::core::option::Option::Some(*self)
            }
        }

        impl<'buf> ::planus::TableRead<'buf> for OutputKind {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'buf>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                let n: i8 = ::planus::TableRead::from_buffer(buffer, offset)?;
                ::core::result::Result::Ok(::core::convert::TryInto::try_into(n)?)
            }
        }

        impl<'buf> ::planus::VectorReadInner<'buf> for OutputKind {
            type Error = ::planus::errors::UnknownEnumTag;
            const STRIDE: usize = 1;
            #[inline]
            unsafe fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'buf>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::UnknownEnumTag> {
                let value = unsafe { *buffer.buffer.get_unchecked(offset) as i8 };
                let value: ::core::result::Result<Self, _> = ::core::convert::TryInto::try_into(value);
                value.map_err(|error_kind| {
                    error_kind.with_error_location("OutputKind", "VectorRead::from_buffer", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<OutputKind> for OutputKind {
            const STRIDE: usize = 1;

            type Value = Self;

            #[inline]
            fn prepare(&self, _builder: &mut ::planus::Builder) -> Self {
                *self
            }

            #[inline]
            unsafe fn write_values(values: &[Self], bytes: *mut ::core::mem::MaybeUninit<u8>, buffer_position: u32) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 1];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - i as u32,
                    );
                }
            }
        }

        /// The enum `OutputValueKind` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Enum `OutputValueKind` in the file `schema/native_graph.fbs:57`
        #[derive(
            Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, ::serde::Serialize, ::serde::Deserialize,
        )]
        #[repr(i8)]
        pub enum OutputValueKind {
            /// The variant `TENSOR` in the enum `OutputValueKind`
            Tensor = 0,

            /// The variant `TENSOR_LIST` in the enum `OutputValueKind`
            TensorList = 1,

            /// The variant `INT` in the enum `OutputValueKind`
            Int = 2,

            /// The variant `BOOL` in the enum `OutputValueKind`
            Bool = 3,

            /// The variant `FLOAT` in the enum `OutputValueKind`
            Float = 4,
        }

        impl OutputValueKind {
            /// Array containing all valid variants of OutputValueKind
            pub const ENUM_VALUES: [Self; 5] = [Self::Tensor, Self::TensorList, Self::Int, Self::Bool, Self::Float];
        }

        impl ::core::convert::TryFrom<i8> for OutputValueKind {
            type Error = ::planus::errors::UnknownEnumTagKind;
            #[inline]
            fn try_from(value: i8) -> ::core::result::Result<Self, ::planus::errors::UnknownEnumTagKind> {
                #[allow(clippy::match_single_binding)]
                match value {
                    0 => ::core::result::Result::Ok(OutputValueKind::Tensor),
                    1 => ::core::result::Result::Ok(OutputValueKind::TensorList),
                    2 => ::core::result::Result::Ok(OutputValueKind::Int),
                    3 => ::core::result::Result::Ok(OutputValueKind::Bool),
                    4 => ::core::result::Result::Ok(OutputValueKind::Float),

                    _ => ::core::result::Result::Err(::planus::errors::UnknownEnumTagKind { tag: value as i128 }),
                }
            }
        }

        impl ::core::convert::From<OutputValueKind> for i8 {
            #[inline]
            fn from(value: OutputValueKind) -> Self {
                value as i8
            }
        }

        /// # Safety
        /// The Planus compiler correctly calculates `ALIGNMENT` and `SIZE`.
        unsafe impl ::planus::Primitive for OutputValueKind {
            const ALIGNMENT: usize = 1;
            const SIZE: usize = 1;
        }

        impl ::planus::WriteAsPrimitive<OutputValueKind> for OutputValueKind {
            #[inline]
            fn write<const N: usize>(&self, cursor: ::planus::Cursor<'_, N>, buffer_position: u32) {
                (*self as i8).write(cursor, buffer_position);
            }
        }

        impl ::planus::WriteAs<OutputValueKind> for OutputValueKind {
            type Prepared = Self;

            #[inline]
            fn prepare(&self, _builder: &mut ::planus::Builder) -> OutputValueKind {
                *self
            }
        }

        impl ::planus::WriteAsDefault<OutputValueKind, OutputValueKind> for OutputValueKind {
            type Prepared = Self;

            #[inline]
            fn prepare(
                &self,
                _builder: &mut ::planus::Builder,
                default: &OutputValueKind,
            ) -> ::core::option::Option<OutputValueKind> {
                if self == default {
                    ::core::option::Option::None
                } else {
                    ::core::option::Option::Some(*self)
                }
            }
        }

        impl ::planus::WriteAsOptional<OutputValueKind> for OutputValueKind {
            type Prepared = Self;

            #[inline]
            fn prepare(&self, _builder: &mut ::planus::Builder) -> ::core::option::Option<OutputValueKind> {
                ::core::option::Option::Some(*self)
            }
        }

        impl<'buf> ::planus::TableRead<'buf> for OutputValueKind {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'buf>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                let n: i8 = ::planus::TableRead::from_buffer(buffer, offset)?;
                ::core::result::Result::Ok(::core::convert::TryInto::try_into(n)?)
            }
        }

        impl<'buf> ::planus::VectorReadInner<'buf> for OutputValueKind {
            type Error = ::planus::errors::UnknownEnumTag;
            const STRIDE: usize = 1;
            #[inline]
            unsafe fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'buf>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::UnknownEnumTag> {
                let value = unsafe { *buffer.buffer.get_unchecked(offset) as i8 };
                let value: ::core::result::Result<Self, _> = ::core::convert::TryInto::try_into(value);
                value.map_err(|error_kind| {
                    error_kind.with_error_location(
                        "OutputValueKind",
                        "VectorRead::from_buffer",
                        buffer.offset_from_start,
                    )
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<OutputValueKind> for OutputValueKind {
            const STRIDE: usize = 1;

            type Value = Self;

            #[inline]
            fn prepare(&self, _builder: &mut ::planus::Builder) -> Self {
                *self
            }

            #[inline]
            unsafe fn write_values(values: &[Self], bytes: *mut ::core::mem::MaybeUninit<u8>, buffer_position: u32) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 1];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - i as u32,
                    );
                }
            }
        }

        /// The table `AffineGroup` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `AffineGroup` in the file `schema/native_graph.fbs:67`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct AffineGroup {
            /// The field `scale_data_key` in the table `AffineGroup`
            pub scale_data_key: ::planus::alloc::string::String,
            /// The field `scale_dtype` in the table `AffineGroup`
            pub scale_dtype: self::ScalarType,
            /// The field `quant_min` in the table `AffineGroup`
            pub quant_min: i32,
            /// The field `quant_max` in the table `AffineGroup`
            pub quant_max: i32,
            /// The field `group_size` in the table `AffineGroup`
            pub group_size: i32,
            /// The field `zero_point_data_key` in the table `AffineGroup`
            pub zero_point_data_key: ::core::option::Option<::planus::alloc::string::String>,
            /// The field `zero_point_dtype` in the table `AffineGroup`
            pub zero_point_dtype: self::ScalarType,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for AffineGroup {
            fn default() -> Self {
                Self {
                    scale_data_key: ::core::default::Default::default(),
                    scale_dtype: self::ScalarType::Byte,
                    quant_min: 0,
                    quant_max: 0,
                    group_size: 0,
                    zero_point_data_key: ::core::default::Default::default(),
                    zero_point_dtype: self::ScalarType::Byte,
                }
            }
        }

        impl AffineGroup {
            /// Creates a [AffineGroupBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> AffineGroupBuilder<()> {
                AffineGroupBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_scale_data_key: impl ::planus::WriteAs<::planus::Offset<str>>,
                field_scale_dtype: impl ::planus::WriteAsDefault<self::ScalarType, self::ScalarType>,
                field_quant_min: impl ::planus::WriteAsDefault<i32, i32>,
                field_quant_max: impl ::planus::WriteAsDefault<i32, i32>,
                field_group_size: impl ::planus::WriteAsDefault<i32, i32>,
                field_zero_point_data_key: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                field_zero_point_dtype: impl ::planus::WriteAsDefault<self::ScalarType, self::ScalarType>,
            ) -> ::planus::Offset<Self> {
                let prepared_scale_data_key = field_scale_data_key.prepare(builder);
                let prepared_scale_dtype = field_scale_dtype.prepare(builder, &self::ScalarType::Byte);
                let prepared_quant_min = field_quant_min.prepare(builder, &0);
                let prepared_quant_max = field_quant_max.prepare(builder, &0);
                let prepared_group_size = field_group_size.prepare(builder, &0);
                let prepared_zero_point_data_key = field_zero_point_data_key.prepare(builder);
                let prepared_zero_point_dtype = field_zero_point_dtype.prepare(builder, &self::ScalarType::Byte);

                let mut table_writer: ::planus::table_writer::TableWriter<18> = ::core::default::Default::default();
                table_writer.write_entry::<::planus::Offset<str>>(0);
                if prepared_quant_min.is_some() {
                    table_writer.write_entry::<i32>(2);
                }
                if prepared_quant_max.is_some() {
                    table_writer.write_entry::<i32>(3);
                }
                if prepared_group_size.is_some() {
                    table_writer.write_entry::<i32>(4);
                }
                if prepared_zero_point_data_key.is_some() {
                    table_writer.write_entry::<::planus::Offset<str>>(5);
                }
                if prepared_scale_dtype.is_some() {
                    table_writer.write_entry::<self::ScalarType>(1);
                }
                if prepared_zero_point_dtype.is_some() {
                    table_writer.write_entry::<self::ScalarType>(6);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        object_writer.write::<_, _, 4>(&prepared_scale_data_key);
                        if let ::core::option::Option::Some(prepared_quant_min) = prepared_quant_min {
                            object_writer.write::<_, _, 4>(&prepared_quant_min);
                        }
                        if let ::core::option::Option::Some(prepared_quant_max) = prepared_quant_max {
                            object_writer.write::<_, _, 4>(&prepared_quant_max);
                        }
                        if let ::core::option::Option::Some(prepared_group_size) = prepared_group_size {
                            object_writer.write::<_, _, 4>(&prepared_group_size);
                        }
                        if let ::core::option::Option::Some(prepared_zero_point_data_key) = prepared_zero_point_data_key
                        {
                            object_writer.write::<_, _, 4>(&prepared_zero_point_data_key);
                        }
                        if let ::core::option::Option::Some(prepared_scale_dtype) = prepared_scale_dtype {
                            object_writer.write::<_, _, 1>(&prepared_scale_dtype);
                        }
                        if let ::core::option::Option::Some(prepared_zero_point_dtype) = prepared_zero_point_dtype {
                            object_writer.write::<_, _, 1>(&prepared_zero_point_dtype);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<AffineGroup>> for AffineGroup {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<AffineGroup> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<AffineGroup>> for AffineGroup {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<AffineGroup>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<AffineGroup> for AffineGroup {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<AffineGroup> {
                AffineGroup::create(
                    builder,
                    &self.scale_data_key,
                    self.scale_dtype,
                    self.quant_min,
                    self.quant_max,
                    self.group_size,
                    &self.zero_point_data_key,
                    self.zero_point_dtype,
                )
            }
        }

        /// Builder for serializing an instance of the [AffineGroup] type.
        ///
        /// Can be created using the [AffineGroup::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct AffineGroupBuilder<State>(State);

        impl AffineGroupBuilder<()> {
            /// Setter for the [`scale_data_key` field](AffineGroup#structfield.scale_data_key).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn scale_data_key<T0>(self, value: T0) -> AffineGroupBuilder<(T0,)>
            where
                T0: ::planus::WriteAs<::planus::Offset<str>>,
            {
                AffineGroupBuilder((value,))
            }
        }

        impl<T0> AffineGroupBuilder<(T0,)> {
            /// Setter for the [`scale_dtype` field](AffineGroup#structfield.scale_dtype).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn scale_dtype<T1>(self, value: T1) -> AffineGroupBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAsDefault<self::ScalarType, self::ScalarType>,
            {
                let (v0,) = self.0;
                AffineGroupBuilder((v0, value))
            }

            /// Sets the [`scale_dtype` field](AffineGroup#structfield.scale_dtype) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn scale_dtype_as_default(self) -> AffineGroupBuilder<(T0, ::planus::DefaultValue)> {
                self.scale_dtype(::planus::DefaultValue)
            }
        }

        impl<T0, T1> AffineGroupBuilder<(T0, T1)> {
            /// Setter for the [`quant_min` field](AffineGroup#structfield.quant_min).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn quant_min<T2>(self, value: T2) -> AffineGroupBuilder<(T0, T1, T2)>
            where
                T2: ::planus::WriteAsDefault<i32, i32>,
            {
                let (v0, v1) = self.0;
                AffineGroupBuilder((v0, v1, value))
            }

            /// Sets the [`quant_min` field](AffineGroup#structfield.quant_min) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn quant_min_as_default(self) -> AffineGroupBuilder<(T0, T1, ::planus::DefaultValue)> {
                self.quant_min(::planus::DefaultValue)
            }
        }

        impl<T0, T1, T2> AffineGroupBuilder<(T0, T1, T2)> {
            /// Setter for the [`quant_max` field](AffineGroup#structfield.quant_max).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn quant_max<T3>(self, value: T3) -> AffineGroupBuilder<(T0, T1, T2, T3)>
            where
                T3: ::planus::WriteAsDefault<i32, i32>,
            {
                let (v0, v1, v2) = self.0;
                AffineGroupBuilder((v0, v1, v2, value))
            }

            /// Sets the [`quant_max` field](AffineGroup#structfield.quant_max) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn quant_max_as_default(self) -> AffineGroupBuilder<(T0, T1, T2, ::planus::DefaultValue)> {
                self.quant_max(::planus::DefaultValue)
            }
        }

        impl<T0, T1, T2, T3> AffineGroupBuilder<(T0, T1, T2, T3)> {
            /// Setter for the [`group_size` field](AffineGroup#structfield.group_size).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn group_size<T4>(self, value: T4) -> AffineGroupBuilder<(T0, T1, T2, T3, T4)>
            where
                T4: ::planus::WriteAsDefault<i32, i32>,
            {
                let (v0, v1, v2, v3) = self.0;
                AffineGroupBuilder((v0, v1, v2, v3, value))
            }

            /// Sets the [`group_size` field](AffineGroup#structfield.group_size) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn group_size_as_default(self) -> AffineGroupBuilder<(T0, T1, T2, T3, ::planus::DefaultValue)> {
                self.group_size(::planus::DefaultValue)
            }
        }

        impl<T0, T1, T2, T3, T4> AffineGroupBuilder<(T0, T1, T2, T3, T4)> {
            /// Setter for the [`zero_point_data_key` field](AffineGroup#structfield.zero_point_data_key).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn zero_point_data_key<T5>(self, value: T5) -> AffineGroupBuilder<(T0, T1, T2, T3, T4, T5)>
            where
                T5: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            {
                let (v0, v1, v2, v3, v4) = self.0;
                AffineGroupBuilder((v0, v1, v2, v3, v4, value))
            }

            /// Sets the [`zero_point_data_key` field](AffineGroup#structfield.zero_point_data_key) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn zero_point_data_key_as_null(self) -> AffineGroupBuilder<(T0, T1, T2, T3, T4, ())> {
                self.zero_point_data_key(())
            }
        }

        impl<T0, T1, T2, T3, T4, T5> AffineGroupBuilder<(T0, T1, T2, T3, T4, T5)> {
            /// Setter for the [`zero_point_dtype` field](AffineGroup#structfield.zero_point_dtype).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn zero_point_dtype<T6>(self, value: T6) -> AffineGroupBuilder<(T0, T1, T2, T3, T4, T5, T6)>
            where
                T6: ::planus::WriteAsDefault<self::ScalarType, self::ScalarType>,
            {
                let (v0, v1, v2, v3, v4, v5) = self.0;
                AffineGroupBuilder((v0, v1, v2, v3, v4, v5, value))
            }

            /// Sets the [`zero_point_dtype` field](AffineGroup#structfield.zero_point_dtype) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn zero_point_dtype_as_default(
                self,
            ) -> AffineGroupBuilder<(T0, T1, T2, T3, T4, T5, ::planus::DefaultValue)> {
                self.zero_point_dtype(::planus::DefaultValue)
            }
        }

        impl<T0, T1, T2, T3, T4, T5, T6> AffineGroupBuilder<(T0, T1, T2, T3, T4, T5, T6)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [AffineGroup].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<AffineGroup>
            where
                Self: ::planus::WriteAsOffset<AffineGroup>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<str>>,
                T1: ::planus::WriteAsDefault<self::ScalarType, self::ScalarType>,
                T2: ::planus::WriteAsDefault<i32, i32>,
                T3: ::planus::WriteAsDefault<i32, i32>,
                T4: ::planus::WriteAsDefault<i32, i32>,
                T5: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                T6: ::planus::WriteAsDefault<self::ScalarType, self::ScalarType>,
            > ::planus::WriteAs<::planus::Offset<AffineGroup>> for AffineGroupBuilder<(T0, T1, T2, T3, T4, T5, T6)>
        {
            type Prepared = ::planus::Offset<AffineGroup>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<AffineGroup> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<str>>,
                T1: ::planus::WriteAsDefault<self::ScalarType, self::ScalarType>,
                T2: ::planus::WriteAsDefault<i32, i32>,
                T3: ::planus::WriteAsDefault<i32, i32>,
                T4: ::planus::WriteAsDefault<i32, i32>,
                T5: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                T6: ::planus::WriteAsDefault<self::ScalarType, self::ScalarType>,
            > ::planus::WriteAsOptional<::planus::Offset<AffineGroup>>
            for AffineGroupBuilder<(T0, T1, T2, T3, T4, T5, T6)>
        {
            type Prepared = ::planus::Offset<AffineGroup>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<AffineGroup>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<str>>,
                T1: ::planus::WriteAsDefault<self::ScalarType, self::ScalarType>,
                T2: ::planus::WriteAsDefault<i32, i32>,
                T3: ::planus::WriteAsDefault<i32, i32>,
                T4: ::planus::WriteAsDefault<i32, i32>,
                T5: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                T6: ::planus::WriteAsDefault<self::ScalarType, self::ScalarType>,
            > ::planus::WriteAsOffset<AffineGroup> for AffineGroupBuilder<(T0, T1, T2, T3, T4, T5, T6)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<AffineGroup> {
                let (v0, v1, v2, v3, v4, v5, v6) = &self.0;
                AffineGroup::create(builder, v0, v1, v2, v3, v4, v5, v6)
            }
        }

        /// Reference to a deserialized [AffineGroup].
        #[derive(Copy, Clone)]
        pub struct AffineGroupRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> AffineGroupRef<'a> {
            /// Getter for the [`scale_data_key` field](AffineGroup#structfield.scale_data_key).
            #[inline]
            pub fn scale_data_key(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                self.0.access_required(0, "AffineGroup", "scale_data_key")
            }

            /// Getter for the [`scale_dtype` field](AffineGroup#structfield.scale_dtype).
            #[inline]
            pub fn scale_dtype(&self) -> ::planus::Result<self::ScalarType> {
                ::core::result::Result::Ok(
                    self.0.access(1, "AffineGroup", "scale_dtype")?.unwrap_or(self::ScalarType::Byte),
                )
            }

            /// Getter for the [`quant_min` field](AffineGroup#structfield.quant_min).
            #[inline]
            pub fn quant_min(&self) -> ::planus::Result<i32> {
                ::core::result::Result::Ok(self.0.access(2, "AffineGroup", "quant_min")?.unwrap_or(0))
            }

            /// Getter for the [`quant_max` field](AffineGroup#structfield.quant_max).
            #[inline]
            pub fn quant_max(&self) -> ::planus::Result<i32> {
                ::core::result::Result::Ok(self.0.access(3, "AffineGroup", "quant_max")?.unwrap_or(0))
            }

            /// Getter for the [`group_size` field](AffineGroup#structfield.group_size).
            #[inline]
            pub fn group_size(&self) -> ::planus::Result<i32> {
                ::core::result::Result::Ok(self.0.access(4, "AffineGroup", "group_size")?.unwrap_or(0))
            }

            /// Getter for the [`zero_point_data_key` field](AffineGroup#structfield.zero_point_data_key).
            #[inline]
            pub fn zero_point_data_key(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                self.0.access(5, "AffineGroup", "zero_point_data_key")
            }

            /// Getter for the [`zero_point_dtype` field](AffineGroup#structfield.zero_point_dtype).
            #[inline]
            pub fn zero_point_dtype(&self) -> ::planus::Result<self::ScalarType> {
                ::core::result::Result::Ok(
                    self.0.access(6, "AffineGroup", "zero_point_dtype")?.unwrap_or(self::ScalarType::Byte),
                )
            }
        }

        impl<'a> ::core::fmt::Debug for AffineGroupRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("AffineGroupRef");
                f.field("scale_data_key", &self.scale_data_key());
                f.field("scale_dtype", &self.scale_dtype());
                f.field("quant_min", &self.quant_min());
                f.field("quant_max", &self.quant_max());
                f.field("group_size", &self.group_size());
                if let ::core::option::Option::Some(field_zero_point_data_key) = self.zero_point_data_key().transpose()
                {
                    f.field("zero_point_data_key", &field_zero_point_data_key);
                }
                f.field("zero_point_dtype", &self.zero_point_dtype());
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<AffineGroupRef<'a>> for AffineGroup {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: AffineGroupRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    scale_data_key: ::core::convert::Into::into(value.scale_data_key()?),
                    scale_dtype: ::core::convert::TryInto::try_into(value.scale_dtype()?)?,
                    quant_min: ::core::convert::TryInto::try_into(value.quant_min()?)?,
                    quant_max: ::core::convert::TryInto::try_into(value.quant_max()?)?,
                    group_size: ::core::convert::TryInto::try_into(value.group_size()?)?,
                    zero_point_data_key: value.zero_point_data_key()?.map(::core::convert::Into::into),
                    zero_point_dtype: ::core::convert::TryInto::try_into(value.zero_point_dtype()?)?,
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for AffineGroupRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for AffineGroupRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[AffineGroupRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<AffineGroup>> for AffineGroup {
            type Value = ::planus::Offset<AffineGroup>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<AffineGroup>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for AffineGroupRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[AffineGroupRef]", "read_as_root", 0))
            }
        }

        /// The table `PackedQuant` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `PackedQuant` in the file `schema/native_graph.fbs:78`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct PackedQuant {
            /// The field `codec` in the table `PackedQuant`
            pub codec: ::planus::alloc::string::String,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for PackedQuant {
            fn default() -> Self {
                Self { codec: ::core::default::Default::default() }
            }
        }

        impl PackedQuant {
            /// Creates a [PackedQuantBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> PackedQuantBuilder<()> {
                PackedQuantBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_codec: impl ::planus::WriteAs<::planus::Offset<str>>,
            ) -> ::planus::Offset<Self> {
                let prepared_codec = field_codec.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<6> = ::core::default::Default::default();
                table_writer.write_entry::<::planus::Offset<str>>(0);

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        object_writer.write::<_, _, 4>(&prepared_codec);
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<PackedQuant>> for PackedQuant {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<PackedQuant> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<PackedQuant>> for PackedQuant {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<PackedQuant>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<PackedQuant> for PackedQuant {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<PackedQuant> {
                PackedQuant::create(builder, &self.codec)
            }
        }

        /// Builder for serializing an instance of the [PackedQuant] type.
        ///
        /// Can be created using the [PackedQuant::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct PackedQuantBuilder<State>(State);

        impl PackedQuantBuilder<()> {
            /// Setter for the [`codec` field](PackedQuant#structfield.codec).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn codec<T0>(self, value: T0) -> PackedQuantBuilder<(T0,)>
            where
                T0: ::planus::WriteAs<::planus::Offset<str>>,
            {
                PackedQuantBuilder((value,))
            }
        }

        impl<T0> PackedQuantBuilder<(T0,)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [PackedQuant].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<PackedQuant>
            where
                Self: ::planus::WriteAsOffset<PackedQuant>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<str>>> ::planus::WriteAs<::planus::Offset<PackedQuant>>
            for PackedQuantBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<PackedQuant>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<PackedQuant> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<str>>> ::planus::WriteAsOptional<::planus::Offset<PackedQuant>>
            for PackedQuantBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<PackedQuant>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<PackedQuant>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<str>>> ::planus::WriteAsOffset<PackedQuant> for PackedQuantBuilder<(T0,)> {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<PackedQuant> {
                let (v0,) = &self.0;
                PackedQuant::create(builder, v0)
            }
        }

        /// Reference to a deserialized [PackedQuant].
        #[derive(Copy, Clone)]
        pub struct PackedQuantRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> PackedQuantRef<'a> {
            /// Getter for the [`codec` field](PackedQuant#structfield.codec).
            #[inline]
            pub fn codec(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                self.0.access_required(0, "PackedQuant", "codec")
            }
        }

        impl<'a> ::core::fmt::Debug for PackedQuantRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("PackedQuantRef");
                f.field("codec", &self.codec());
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<PackedQuantRef<'a>> for PackedQuant {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: PackedQuantRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self { codec: ::core::convert::Into::into(value.codec()?) })
            }
        }

        impl<'a> ::planus::TableRead<'a> for PackedQuantRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for PackedQuantRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[PackedQuantRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<PackedQuant>> for PackedQuant {
            type Value = ::planus::Offset<PackedQuant>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<PackedQuant>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for PackedQuantRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[PackedQuantRef]", "read_as_root", 0))
            }
        }

        /// The union `QuantScheme` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Union `QuantScheme` in the file `schema/native_graph.fbs:82`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub enum QuantScheme {
            /// The variant of type `AffineGroup` in the union `QuantScheme`
            AffineGroup(::planus::alloc::boxed::Box<self::AffineGroup>),

            /// The variant of type `PackedQuant` in the union `QuantScheme`
            PackedQuant(::planus::alloc::boxed::Box<self::PackedQuant>),
        }

        impl QuantScheme {
            /// Creates a [QuantSchemeBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> QuantSchemeBuilder<::planus::Uninitialized> {
                QuantSchemeBuilder(::planus::Uninitialized)
            }

            #[inline]
            pub fn create_affine_group(
                builder: &mut ::planus::Builder,
                value: impl ::planus::WriteAsOffset<self::AffineGroup>,
            ) -> ::planus::UnionOffset<Self> {
                ::planus::UnionOffset::new(1, value.prepare(builder).downcast())
            }

            #[inline]
            pub fn create_packed_quant(
                builder: &mut ::planus::Builder,
                value: impl ::planus::WriteAsOffset<self::PackedQuant>,
            ) -> ::planus::UnionOffset<Self> {
                ::planus::UnionOffset::new(2, value.prepare(builder).downcast())
            }
        }

        impl ::planus::WriteAsUnion<QuantScheme> for QuantScheme {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<Self> {
                match self {
                    Self::AffineGroup(value) => Self::create_affine_group(builder, value),
                    Self::PackedQuant(value) => Self::create_packed_quant(builder, value),
                }
            }
        }

        impl ::planus::WriteAsOptionalUnion<QuantScheme> for QuantScheme {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::UnionOffset<Self>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }

        /// Builder for serializing an instance of the [QuantScheme] type.
        ///
        /// Can be created using the [QuantScheme::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct QuantSchemeBuilder<T>(T);

        impl QuantSchemeBuilder<::planus::Uninitialized> {
            /// Creates an instance of the [`AffineGroup` variant](QuantScheme#variant.AffineGroup).
            #[inline]
            pub fn affine_group<T>(self, value: T) -> QuantSchemeBuilder<::planus::Initialized<1, T>>
            where
                T: ::planus::WriteAsOffset<self::AffineGroup>,
            {
                QuantSchemeBuilder(::planus::Initialized(value))
            }

            /// Creates an instance of the [`PackedQuant` variant](QuantScheme#variant.PackedQuant).
            #[inline]
            pub fn packed_quant<T>(self, value: T) -> QuantSchemeBuilder<::planus::Initialized<2, T>>
            where
                T: ::planus::WriteAsOffset<self::PackedQuant>,
            {
                QuantSchemeBuilder(::planus::Initialized(value))
            }
        }

        impl<const N: u8, T> QuantSchemeBuilder<::planus::Initialized<N, T>> {
            /// Finish writing the builder to get an [UnionOffset](::planus::UnionOffset) to a serialized [QuantScheme].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<QuantScheme>
            where
                Self: ::planus::WriteAsUnion<QuantScheme>,
            {
                ::planus::WriteAsUnion::prepare(&self, builder)
            }
        }

        impl<T> ::planus::WriteAsUnion<QuantScheme> for QuantSchemeBuilder<::planus::Initialized<1, T>>
        where
            T: ::planus::WriteAsOffset<self::AffineGroup>,
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<QuantScheme> {
                ::planus::UnionOffset::new(1, (self.0).0.prepare(builder).downcast())
            }
        }

        impl<T> ::planus::WriteAsOptionalUnion<QuantScheme> for QuantSchemeBuilder<::planus::Initialized<1, T>>
        where
            T: ::planus::WriteAsOffset<self::AffineGroup>,
        {
            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::UnionOffset<QuantScheme>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }
        impl<T> ::planus::WriteAsUnion<QuantScheme> for QuantSchemeBuilder<::planus::Initialized<2, T>>
        where
            T: ::planus::WriteAsOffset<self::PackedQuant>,
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<QuantScheme> {
                ::planus::UnionOffset::new(2, (self.0).0.prepare(builder).downcast())
            }
        }

        impl<T> ::planus::WriteAsOptionalUnion<QuantScheme> for QuantSchemeBuilder<::planus::Initialized<2, T>>
        where
            T: ::planus::WriteAsOffset<self::PackedQuant>,
        {
            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::UnionOffset<QuantScheme>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }

        /// Reference to a deserialized [QuantScheme].
        #[derive(Copy, Clone, Debug)]
        pub enum QuantSchemeRef<'a> {
            AffineGroup(self::AffineGroupRef<'a>),
            PackedQuant(self::PackedQuantRef<'a>),
        }

        impl<'a> ::core::convert::TryFrom<QuantSchemeRef<'a>> for QuantScheme {
            type Error = ::planus::Error;

            fn try_from(value: QuantSchemeRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(match value {
                    QuantSchemeRef::AffineGroup(value) => {
                        Self::AffineGroup(::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?))
                    }

                    QuantSchemeRef::PackedQuant(value) => {
                        Self::PackedQuant(::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?))
                    }
                })
            }
        }

        impl<'a> ::planus::TableReadUnion<'a> for QuantSchemeRef<'a> {
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                tag: u8,
                field_offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                match tag {
                    1 => ::core::result::Result::Ok(Self::AffineGroup(::planus::TableRead::from_buffer(
                        buffer,
                        field_offset,
                    )?)),
                    2 => ::core::result::Result::Ok(Self::PackedQuant(::planus::TableRead::from_buffer(
                        buffer,
                        field_offset,
                    )?)),
                    _ => ::core::result::Result::Err(::planus::errors::ErrorKind::UnknownUnionTag { tag }),
                }
            }
        }

        impl<'a> ::planus::VectorReadUnion<'a> for QuantSchemeRef<'a> {
            const VECTOR_NAME: &'static str = "[QuantSchemeRef]";
        }

        /// The table `QuantSpec` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `QuantSpec` in the file `schema/native_graph.fbs:88`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct QuantSpec {
            /// The field `scheme` in the table `QuantSpec`
            pub scheme: ::core::option::Option<self::QuantScheme>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for QuantSpec {
            fn default() -> Self {
                Self { scheme: ::core::default::Default::default() }
            }
        }

        impl QuantSpec {
            /// Creates a [QuantSpecBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> QuantSpecBuilder<()> {
                QuantSpecBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_scheme: impl ::planus::WriteAsOptionalUnion<self::QuantScheme>,
            ) -> ::planus::Offset<Self> {
                let prepared_scheme = field_scheme.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                if prepared_scheme.is_some() {
                    table_writer.write_entry::<::planus::Offset<self::QuantScheme>>(1);
                }
                if prepared_scheme.is_some() {
                    table_writer.write_entry::<u8>(0);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        if let ::core::option::Option::Some(prepared_scheme) = prepared_scheme {
                            object_writer.write::<_, _, 4>(&prepared_scheme.offset());
                        }
                        if let ::core::option::Option::Some(prepared_scheme) = prepared_scheme {
                            object_writer.write::<_, _, 1>(&prepared_scheme.tag());
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<QuantSpec>> for QuantSpec {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<QuantSpec> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<QuantSpec>> for QuantSpec {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<QuantSpec>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<QuantSpec> for QuantSpec {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<QuantSpec> {
                QuantSpec::create(builder, &self.scheme)
            }
        }

        /// Builder for serializing an instance of the [QuantSpec] type.
        ///
        /// Can be created using the [QuantSpec::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct QuantSpecBuilder<State>(State);

        impl QuantSpecBuilder<()> {
            /// Setter for the [`scheme` field](QuantSpec#structfield.scheme).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn scheme<T0>(self, value: T0) -> QuantSpecBuilder<(T0,)>
            where
                T0: ::planus::WriteAsOptionalUnion<self::QuantScheme>,
            {
                QuantSpecBuilder((value,))
            }

            /// Sets the [`scheme` field](QuantSpec#structfield.scheme) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn scheme_as_null(self) -> QuantSpecBuilder<((),)> {
                self.scheme(())
            }
        }

        impl<T0> QuantSpecBuilder<(T0,)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [QuantSpec].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<QuantSpec>
            where
                Self: ::planus::WriteAsOffset<QuantSpec>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<T0: ::planus::WriteAsOptionalUnion<self::QuantScheme>> ::planus::WriteAs<::planus::Offset<QuantSpec>>
            for QuantSpecBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<QuantSpec>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<QuantSpec> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<T0: ::planus::WriteAsOptionalUnion<self::QuantScheme>>
            ::planus::WriteAsOptional<::planus::Offset<QuantSpec>> for QuantSpecBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<QuantSpec>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<QuantSpec>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<T0: ::planus::WriteAsOptionalUnion<self::QuantScheme>> ::planus::WriteAsOffset<QuantSpec>
            for QuantSpecBuilder<(T0,)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<QuantSpec> {
                let (v0,) = &self.0;
                QuantSpec::create(builder, v0)
            }
        }

        /// Reference to a deserialized [QuantSpec].
        #[derive(Copy, Clone)]
        pub struct QuantSpecRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> QuantSpecRef<'a> {
            /// Getter for the [`scheme` field](QuantSpec#structfield.scheme).
            #[inline]
            pub fn scheme(&self) -> ::planus::Result<::core::option::Option<self::QuantSchemeRef<'a>>> {
                self.0.access_union(0, "QuantSpec", "scheme")
            }
        }

        impl<'a> ::core::fmt::Debug for QuantSpecRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("QuantSpecRef");
                if let ::core::option::Option::Some(field_scheme) = self.scheme().transpose() {
                    f.field("scheme", &field_scheme);
                }
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<QuantSpecRef<'a>> for QuantSpec {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: QuantSpecRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    scheme: if let ::core::option::Option::Some(scheme) = value.scheme()? {
                        ::core::option::Option::Some(::core::convert::TryInto::try_into(scheme)?)
                    } else {
                        ::core::option::Option::None
                    },
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for QuantSpecRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for QuantSpecRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[QuantSpecRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<QuantSpec>> for QuantSpec {
            type Value = ::planus::Offset<QuantSpec>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<QuantSpec>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for QuantSpecRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[QuantSpecRef]", "read_as_root", 0))
            }
        }

        /// The table `Dim` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `Dim` in the file `schema/native_graph.fbs:93`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct Dim {
            /// The field `min` in the table `Dim`
            pub min: i64,
            /// The field `max` in the table `Dim`
            pub max: i64,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for Dim {
            fn default() -> Self {
                Self { min: 0, max: -1 }
            }
        }

        impl Dim {
            /// Creates a [DimBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> DimBuilder<()> {
                DimBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_min: impl ::planus::WriteAsDefault<i64, i64>,
                field_max: impl ::planus::WriteAsDefault<i64, i64>,
            ) -> ::planus::Offset<Self> {
                let prepared_min = field_min.prepare(builder, &0);
                let prepared_max = field_max.prepare(builder, &-1);

                let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                if prepared_min.is_some() {
                    table_writer.write_entry::<i64>(0);
                }
                if prepared_max.is_some() {
                    table_writer.write_entry::<i64>(1);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        if let ::core::option::Option::Some(prepared_min) = prepared_min {
                            object_writer.write::<_, _, 8>(&prepared_min);
                        }
                        if let ::core::option::Option::Some(prepared_max) = prepared_max {
                            object_writer.write::<_, _, 8>(&prepared_max);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<Dim>> for Dim {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Dim> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<Dim>> for Dim {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Dim>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<Dim> for Dim {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Dim> {
                Dim::create(builder, self.min, self.max)
            }
        }

        /// Builder for serializing an instance of the [Dim] type.
        ///
        /// Can be created using the [Dim::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct DimBuilder<State>(State);

        impl DimBuilder<()> {
            /// Setter for the [`min` field](Dim#structfield.min).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn min<T0>(self, value: T0) -> DimBuilder<(T0,)>
            where
                T0: ::planus::WriteAsDefault<i64, i64>,
            {
                DimBuilder((value,))
            }

            /// Sets the [`min` field](Dim#structfield.min) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn min_as_default(self) -> DimBuilder<(::planus::DefaultValue,)> {
                self.min(::planus::DefaultValue)
            }
        }

        impl<T0> DimBuilder<(T0,)> {
            /// Setter for the [`max` field](Dim#structfield.max).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn max<T1>(self, value: T1) -> DimBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAsDefault<i64, i64>,
            {
                let (v0,) = self.0;
                DimBuilder((v0, value))
            }

            /// Sets the [`max` field](Dim#structfield.max) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn max_as_default(self) -> DimBuilder<(T0, ::planus::DefaultValue)> {
                self.max(::planus::DefaultValue)
            }
        }

        impl<T0, T1> DimBuilder<(T0, T1)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Dim].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Dim>
            where
                Self: ::planus::WriteAsOffset<Dim>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<T0: ::planus::WriteAsDefault<i64, i64>, T1: ::planus::WriteAsDefault<i64, i64>>
            ::planus::WriteAs<::planus::Offset<Dim>> for DimBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<Dim>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Dim> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<T0: ::planus::WriteAsDefault<i64, i64>, T1: ::planus::WriteAsDefault<i64, i64>>
            ::planus::WriteAsOptional<::planus::Offset<Dim>> for DimBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<Dim>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Dim>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<T0: ::planus::WriteAsDefault<i64, i64>, T1: ::planus::WriteAsDefault<i64, i64>>
            ::planus::WriteAsOffset<Dim> for DimBuilder<(T0, T1)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Dim> {
                let (v0, v1) = &self.0;
                Dim::create(builder, v0, v1)
            }
        }

        /// Reference to a deserialized [Dim].
        #[derive(Copy, Clone)]
        pub struct DimRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> DimRef<'a> {
            /// Getter for the [`min` field](Dim#structfield.min).
            #[inline]
            pub fn min(&self) -> ::planus::Result<i64> {
                ::core::result::Result::Ok(self.0.access(0, "Dim", "min")?.unwrap_or(0))
            }

            /// Getter for the [`max` field](Dim#structfield.max).
            #[inline]
            pub fn max(&self) -> ::planus::Result<i64> {
                ::core::result::Result::Ok(self.0.access(1, "Dim", "max")?.unwrap_or(-1))
            }
        }

        impl<'a> ::core::fmt::Debug for DimRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("DimRef");
                f.field("min", &self.min());
                f.field("max", &self.max());
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<DimRef<'a>> for Dim {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: DimRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    min: ::core::convert::TryInto::try_into(value.min()?)?,
                    max: ::core::convert::TryInto::try_into(value.max()?)?,
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for DimRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for DimRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset)
                    .map_err(|error_kind| error_kind.with_error_location("[DimRef]", "get", buffer.offset_from_start))
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<Dim>> for Dim {
            type Value = ::planus::Offset<Dim>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<Dim>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for DimRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[DimRef]", "read_as_root", 0))
            }
        }

        /// The table `TensorMeta` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `TensorMeta` in the file `schema/native_graph.fbs:98`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct TensorMeta {
            /// The field `dtype` in the table `TensorMeta`
            pub dtype: self::ScalarType,
            /// The field `sizes` in the table `TensorMeta`
            pub sizes: ::core::option::Option<::planus::alloc::vec::Vec<self::Dim>>,
            /// The field `dim_order` in the table `TensorMeta`
            pub dim_order: ::core::option::Option<::planus::alloc::vec::Vec<i32>>,
            /// The field `quant` in the table `TensorMeta`
            pub quant: ::core::option::Option<::planus::alloc::boxed::Box<self::QuantSpec>>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for TensorMeta {
            fn default() -> Self {
                Self {
                    dtype: self::ScalarType::Byte,
                    sizes: ::core::default::Default::default(),
                    dim_order: ::core::default::Default::default(),
                    quant: ::core::default::Default::default(),
                }
            }
        }

        impl TensorMeta {
            /// Creates a [TensorMetaBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> TensorMetaBuilder<()> {
                TensorMetaBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_dtype: impl ::planus::WriteAsDefault<self::ScalarType, self::ScalarType>,
                field_sizes: impl ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Dim>]>>,
                field_dim_order: impl ::planus::WriteAsOptional<::planus::Offset<[i32]>>,
                field_quant: impl ::planus::WriteAsOptional<::planus::Offset<self::QuantSpec>>,
            ) -> ::planus::Offset<Self> {
                let prepared_dtype = field_dtype.prepare(builder, &self::ScalarType::Byte);
                let prepared_sizes = field_sizes.prepare(builder);
                let prepared_dim_order = field_dim_order.prepare(builder);
                let prepared_quant = field_quant.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<12> = ::core::default::Default::default();
                if prepared_sizes.is_some() {
                    table_writer.write_entry::<::planus::Offset<[::planus::Offset<self::Dim>]>>(1);
                }
                if prepared_dim_order.is_some() {
                    table_writer.write_entry::<::planus::Offset<[i32]>>(2);
                }
                if prepared_quant.is_some() {
                    table_writer.write_entry::<::planus::Offset<self::QuantSpec>>(3);
                }
                if prepared_dtype.is_some() {
                    table_writer.write_entry::<self::ScalarType>(0);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        if let ::core::option::Option::Some(prepared_sizes) = prepared_sizes {
                            object_writer.write::<_, _, 4>(&prepared_sizes);
                        }
                        if let ::core::option::Option::Some(prepared_dim_order) = prepared_dim_order {
                            object_writer.write::<_, _, 4>(&prepared_dim_order);
                        }
                        if let ::core::option::Option::Some(prepared_quant) = prepared_quant {
                            object_writer.write::<_, _, 4>(&prepared_quant);
                        }
                        if let ::core::option::Option::Some(prepared_dtype) = prepared_dtype {
                            object_writer.write::<_, _, 1>(&prepared_dtype);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<TensorMeta>> for TensorMeta {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorMeta> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<TensorMeta>> for TensorMeta {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<TensorMeta>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<TensorMeta> for TensorMeta {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorMeta> {
                TensorMeta::create(builder, self.dtype, &self.sizes, &self.dim_order, &self.quant)
            }
        }

        /// Builder for serializing an instance of the [TensorMeta] type.
        ///
        /// Can be created using the [TensorMeta::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct TensorMetaBuilder<State>(State);

        impl TensorMetaBuilder<()> {
            /// Setter for the [`dtype` field](TensorMeta#structfield.dtype).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn dtype<T0>(self, value: T0) -> TensorMetaBuilder<(T0,)>
            where
                T0: ::planus::WriteAsDefault<self::ScalarType, self::ScalarType>,
            {
                TensorMetaBuilder((value,))
            }

            /// Sets the [`dtype` field](TensorMeta#structfield.dtype) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn dtype_as_default(self) -> TensorMetaBuilder<(::planus::DefaultValue,)> {
                self.dtype(::planus::DefaultValue)
            }
        }

        impl<T0> TensorMetaBuilder<(T0,)> {
            /// Setter for the [`sizes` field](TensorMeta#structfield.sizes).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn sizes<T1>(self, value: T1) -> TensorMetaBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Dim>]>>,
            {
                let (v0,) = self.0;
                TensorMetaBuilder((v0, value))
            }

            /// Sets the [`sizes` field](TensorMeta#structfield.sizes) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn sizes_as_null(self) -> TensorMetaBuilder<(T0, ())> {
                self.sizes(())
            }
        }

        impl<T0, T1> TensorMetaBuilder<(T0, T1)> {
            /// Setter for the [`dim_order` field](TensorMeta#structfield.dim_order).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn dim_order<T2>(self, value: T2) -> TensorMetaBuilder<(T0, T1, T2)>
            where
                T2: ::planus::WriteAsOptional<::planus::Offset<[i32]>>,
            {
                let (v0, v1) = self.0;
                TensorMetaBuilder((v0, v1, value))
            }

            /// Sets the [`dim_order` field](TensorMeta#structfield.dim_order) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn dim_order_as_null(self) -> TensorMetaBuilder<(T0, T1, ())> {
                self.dim_order(())
            }
        }

        impl<T0, T1, T2> TensorMetaBuilder<(T0, T1, T2)> {
            /// Setter for the [`quant` field](TensorMeta#structfield.quant).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn quant<T3>(self, value: T3) -> TensorMetaBuilder<(T0, T1, T2, T3)>
            where
                T3: ::planus::WriteAsOptional<::planus::Offset<self::QuantSpec>>,
            {
                let (v0, v1, v2) = self.0;
                TensorMetaBuilder((v0, v1, v2, value))
            }

            /// Sets the [`quant` field](TensorMeta#structfield.quant) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn quant_as_null(self) -> TensorMetaBuilder<(T0, T1, T2, ())> {
                self.quant(())
            }
        }

        impl<T0, T1, T2, T3> TensorMetaBuilder<(T0, T1, T2, T3)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [TensorMeta].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorMeta>
            where
                Self: ::planus::WriteAsOffset<TensorMeta>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsDefault<self::ScalarType, self::ScalarType>,
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Dim>]>>,
                T2: ::planus::WriteAsOptional<::planus::Offset<[i32]>>,
                T3: ::planus::WriteAsOptional<::planus::Offset<self::QuantSpec>>,
            > ::planus::WriteAs<::planus::Offset<TensorMeta>> for TensorMetaBuilder<(T0, T1, T2, T3)>
        {
            type Prepared = ::planus::Offset<TensorMeta>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorMeta> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsDefault<self::ScalarType, self::ScalarType>,
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Dim>]>>,
                T2: ::planus::WriteAsOptional<::planus::Offset<[i32]>>,
                T3: ::planus::WriteAsOptional<::planus::Offset<self::QuantSpec>>,
            > ::planus::WriteAsOptional<::planus::Offset<TensorMeta>> for TensorMetaBuilder<(T0, T1, T2, T3)>
        {
            type Prepared = ::planus::Offset<TensorMeta>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<TensorMeta>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAsDefault<self::ScalarType, self::ScalarType>,
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Dim>]>>,
                T2: ::planus::WriteAsOptional<::planus::Offset<[i32]>>,
                T3: ::planus::WriteAsOptional<::planus::Offset<self::QuantSpec>>,
            > ::planus::WriteAsOffset<TensorMeta> for TensorMetaBuilder<(T0, T1, T2, T3)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorMeta> {
                let (v0, v1, v2, v3) = &self.0;
                TensorMeta::create(builder, v0, v1, v2, v3)
            }
        }

        /// Reference to a deserialized [TensorMeta].
        #[derive(Copy, Clone)]
        pub struct TensorMetaRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> TensorMetaRef<'a> {
            /// Getter for the [`dtype` field](TensorMeta#structfield.dtype).
            #[inline]
            pub fn dtype(&self) -> ::planus::Result<self::ScalarType> {
                ::core::result::Result::Ok(self.0.access(0, "TensorMeta", "dtype")?.unwrap_or(self::ScalarType::Byte))
            }

            /// Getter for the [`sizes` field](TensorMeta#structfield.sizes).
            #[inline]
            pub fn sizes(
                &self,
            ) -> ::planus::Result<::core::option::Option<::planus::Vector<'a, ::planus::Result<self::DimRef<'a>>>>>
            {
                self.0.access(1, "TensorMeta", "sizes")
            }

            /// Getter for the [`dim_order` field](TensorMeta#structfield.dim_order).
            #[inline]
            pub fn dim_order(&self) -> ::planus::Result<::core::option::Option<::planus::Vector<'a, i32>>> {
                self.0.access(2, "TensorMeta", "dim_order")
            }

            /// Getter for the [`quant` field](TensorMeta#structfield.quant).
            #[inline]
            pub fn quant(&self) -> ::planus::Result<::core::option::Option<self::QuantSpecRef<'a>>> {
                self.0.access(3, "TensorMeta", "quant")
            }
        }

        impl<'a> ::core::fmt::Debug for TensorMetaRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("TensorMetaRef");
                f.field("dtype", &self.dtype());
                if let ::core::option::Option::Some(field_sizes) = self.sizes().transpose() {
                    f.field("sizes", &field_sizes);
                }
                if let ::core::option::Option::Some(field_dim_order) = self.dim_order().transpose() {
                    f.field("dim_order", &field_dim_order);
                }
                if let ::core::option::Option::Some(field_quant) = self.quant().transpose() {
                    f.field("quant", &field_quant);
                }
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<TensorMetaRef<'a>> for TensorMeta {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: TensorMetaRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    dtype: ::core::convert::TryInto::try_into(value.dtype()?)?,
                    sizes: if let ::core::option::Option::Some(sizes) = value.sizes()? {
                        ::core::option::Option::Some(sizes.to_vec_result()?)
                    } else {
                        ::core::option::Option::None
                    },
                    dim_order: if let ::core::option::Option::Some(dim_order) = value.dim_order()? {
                        ::core::option::Option::Some(dim_order.to_vec()?)
                    } else {
                        ::core::option::Option::None
                    },
                    quant: if let ::core::option::Option::Some(quant) = value.quant()? {
                        ::core::option::Option::Some(::planus::alloc::boxed::Box::new(
                            ::core::convert::TryInto::try_into(quant)?,
                        ))
                    } else {
                        ::core::option::Option::None
                    },
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for TensorMetaRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for TensorMetaRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[TensorMetaRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<TensorMeta>> for TensorMeta {
            type Value = ::planus::Offset<TensorMeta>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<TensorMeta>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for TensorMetaRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[TensorMetaRef]", "read_as_root", 0))
            }
        }

        /// The table `TensorValue` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `TensorValue` in the file `schema/native_graph.fbs:106`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct TensorValue {
            /// The field `name` in the table `TensorValue`
            pub name: ::planus::alloc::string::String,
            /// The field `meta` in the table `TensorValue`
            pub meta: ::planus::alloc::boxed::Box<self::TensorMeta>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for TensorValue {
            fn default() -> Self {
                Self { name: ::core::default::Default::default(), meta: ::core::default::Default::default() }
            }
        }

        impl TensorValue {
            /// Creates a [TensorValueBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> TensorValueBuilder<()> {
                TensorValueBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_name: impl ::planus::WriteAs<::planus::Offset<str>>,
                field_meta: impl ::planus::WriteAs<::planus::Offset<self::TensorMeta>>,
            ) -> ::planus::Offset<Self> {
                let prepared_name = field_name.prepare(builder);
                let prepared_meta = field_meta.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                table_writer.write_entry::<::planus::Offset<str>>(0);
                table_writer.write_entry::<::planus::Offset<self::TensorMeta>>(1);

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        object_writer.write::<_, _, 4>(&prepared_name);
                        object_writer.write::<_, _, 4>(&prepared_meta);
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<TensorValue>> for TensorValue {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorValue> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<TensorValue>> for TensorValue {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<TensorValue>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<TensorValue> for TensorValue {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorValue> {
                TensorValue::create(builder, &self.name, &self.meta)
            }
        }

        /// Builder for serializing an instance of the [TensorValue] type.
        ///
        /// Can be created using the [TensorValue::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct TensorValueBuilder<State>(State);

        impl TensorValueBuilder<()> {
            /// Setter for the [`name` field](TensorValue#structfield.name).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn name<T0>(self, value: T0) -> TensorValueBuilder<(T0,)>
            where
                T0: ::planus::WriteAs<::planus::Offset<str>>,
            {
                TensorValueBuilder((value,))
            }
        }

        impl<T0> TensorValueBuilder<(T0,)> {
            /// Setter for the [`meta` field](TensorValue#structfield.meta).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn meta<T1>(self, value: T1) -> TensorValueBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAs<::planus::Offset<self::TensorMeta>>,
            {
                let (v0,) = self.0;
                TensorValueBuilder((v0, value))
            }
        }

        impl<T0, T1> TensorValueBuilder<(T0, T1)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [TensorValue].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorValue>
            where
                Self: ::planus::WriteAsOffset<TensorValue>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<str>>,
                T1: ::planus::WriteAs<::planus::Offset<self::TensorMeta>>,
            > ::planus::WriteAs<::planus::Offset<TensorValue>> for TensorValueBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<TensorValue>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorValue> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<str>>,
                T1: ::planus::WriteAs<::planus::Offset<self::TensorMeta>>,
            > ::planus::WriteAsOptional<::planus::Offset<TensorValue>> for TensorValueBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<TensorValue>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<TensorValue>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<str>>,
                T1: ::planus::WriteAs<::planus::Offset<self::TensorMeta>>,
            > ::planus::WriteAsOffset<TensorValue> for TensorValueBuilder<(T0, T1)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorValue> {
                let (v0, v1) = &self.0;
                TensorValue::create(builder, v0, v1)
            }
        }

        /// Reference to a deserialized [TensorValue].
        #[derive(Copy, Clone)]
        pub struct TensorValueRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> TensorValueRef<'a> {
            /// Getter for the [`name` field](TensorValue#structfield.name).
            #[inline]
            pub fn name(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                self.0.access_required(0, "TensorValue", "name")
            }

            /// Getter for the [`meta` field](TensorValue#structfield.meta).
            #[inline]
            pub fn meta(&self) -> ::planus::Result<self::TensorMetaRef<'a>> {
                self.0.access_required(1, "TensorValue", "meta")
            }
        }

        impl<'a> ::core::fmt::Debug for TensorValueRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("TensorValueRef");
                f.field("name", &self.name());
                f.field("meta", &self.meta());
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<TensorValueRef<'a>> for TensorValue {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: TensorValueRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    name: ::core::convert::Into::into(value.name()?),
                    meta: ::planus::alloc::boxed::Box::new(::core::convert::TryInto::try_into(value.meta()?)?),
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for TensorValueRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for TensorValueRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[TensorValueRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<TensorValue>> for TensorValue {
            type Value = ::planus::Offset<TensorValue>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<TensorValue>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for TensorValueRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[TensorValueRef]", "read_as_root", 0))
            }
        }

        /// The table `TensorArg` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `TensorArg` in the file `schema/native_graph.fbs:111`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct TensorArg {
            /// The field `name` in the table `TensorArg`
            pub name: ::planus::alloc::string::String,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for TensorArg {
            fn default() -> Self {
                Self { name: ::core::default::Default::default() }
            }
        }

        impl TensorArg {
            /// Creates a [TensorArgBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> TensorArgBuilder<()> {
                TensorArgBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_name: impl ::planus::WriteAs<::planus::Offset<str>>,
            ) -> ::planus::Offset<Self> {
                let prepared_name = field_name.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<6> = ::core::default::Default::default();
                table_writer.write_entry::<::planus::Offset<str>>(0);

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        object_writer.write::<_, _, 4>(&prepared_name);
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<TensorArg>> for TensorArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<TensorArg>> for TensorArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<TensorArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<TensorArg> for TensorArg {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorArg> {
                TensorArg::create(builder, &self.name)
            }
        }

        /// Builder for serializing an instance of the [TensorArg] type.
        ///
        /// Can be created using the [TensorArg::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct TensorArgBuilder<State>(State);

        impl TensorArgBuilder<()> {
            /// Setter for the [`name` field](TensorArg#structfield.name).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn name<T0>(self, value: T0) -> TensorArgBuilder<(T0,)>
            where
                T0: ::planus::WriteAs<::planus::Offset<str>>,
            {
                TensorArgBuilder((value,))
            }
        }

        impl<T0> TensorArgBuilder<(T0,)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [TensorArg].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorArg>
            where
                Self: ::planus::WriteAsOffset<TensorArg>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<str>>> ::planus::WriteAs<::planus::Offset<TensorArg>>
            for TensorArgBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<TensorArg>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<str>>> ::planus::WriteAsOptional<::planus::Offset<TensorArg>>
            for TensorArgBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<TensorArg>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<TensorArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<str>>> ::planus::WriteAsOffset<TensorArg> for TensorArgBuilder<(T0,)> {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorArg> {
                let (v0,) = &self.0;
                TensorArg::create(builder, v0)
            }
        }

        /// Reference to a deserialized [TensorArg].
        #[derive(Copy, Clone)]
        pub struct TensorArgRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> TensorArgRef<'a> {
            /// Getter for the [`name` field](TensorArg#structfield.name).
            #[inline]
            pub fn name(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                self.0.access_required(0, "TensorArg", "name")
            }
        }

        impl<'a> ::core::fmt::Debug for TensorArgRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("TensorArgRef");
                f.field("name", &self.name());
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<TensorArgRef<'a>> for TensorArg {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: TensorArgRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self { name: ::core::convert::Into::into(value.name()?) })
            }
        }

        impl<'a> ::planus::TableRead<'a> for TensorArgRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for TensorArgRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[TensorArgRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<TensorArg>> for TensorArg {
            type Value = ::planus::Offset<TensorArg>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<TensorArg>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for TensorArgRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[TensorArgRef]", "read_as_root", 0))
            }
        }

        /// The table `NoneArg` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `NoneArg` in the file `schema/native_graph.fbs:115`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct NoneArg {}

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for NoneArg {
            fn default() -> Self {
                Self {}
            }
        }

        impl NoneArg {
            /// Creates a [NoneArgBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> NoneArgBuilder<()> {
                NoneArgBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(builder: &mut ::planus::Builder) -> ::planus::Offset<Self> {
                let table_writer: ::planus::table_writer::TableWriter<4> = ::core::default::Default::default();
                unsafe {
                    table_writer.finish(builder, |_table_writer| {});
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<NoneArg>> for NoneArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<NoneArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<NoneArg>> for NoneArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<NoneArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<NoneArg> for NoneArg {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<NoneArg> {
                NoneArg::create(builder)
            }
        }

        /// Builder for serializing an instance of the [NoneArg] type.
        ///
        /// Can be created using the [NoneArg::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct NoneArgBuilder<State>(State);

        impl NoneArgBuilder<()> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [NoneArg].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<NoneArg>
            where
                Self: ::planus::WriteAsOffset<NoneArg>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl ::planus::WriteAs<::planus::Offset<NoneArg>> for NoneArgBuilder<()> {
            type Prepared = ::planus::Offset<NoneArg>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<NoneArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<NoneArg>> for NoneArgBuilder<()> {
            type Prepared = ::planus::Offset<NoneArg>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<NoneArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<NoneArg> for NoneArgBuilder<()> {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<NoneArg> {
                NoneArg::create(builder)
            }
        }

        /// Reference to a deserialized [NoneArg].
        #[derive(Copy, Clone)]
        pub struct NoneArgRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> NoneArgRef<'a> {}

        impl<'a> ::core::fmt::Debug for NoneArgRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("NoneArgRef");

                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<NoneArgRef<'a>> for NoneArg {
            type Error = ::planus::Error;

            fn try_from(_value: NoneArgRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {})
            }
        }

        impl<'a> ::planus::TableRead<'a> for NoneArgRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for NoneArgRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[NoneArgRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<NoneArg>> for NoneArg {
            type Value = ::planus::Offset<NoneArg>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<NoneArg>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for NoneArgRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[NoneArgRef]", "read_as_root", 0))
            }
        }

        /// The table `IntArg` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `IntArg` in the file `schema/native_graph.fbs:118`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct IntArg {
            /// The field `value` in the table `IntArg`
            pub value: i64,
            /// The field `ref` in the table `IntArg`
            pub ref_: ::core::option::Option<::planus::alloc::string::String>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for IntArg {
            fn default() -> Self {
                Self { value: 0, ref_: ::core::default::Default::default() }
            }
        }

        impl IntArg {
            /// Creates a [IntArgBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> IntArgBuilder<()> {
                IntArgBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_value: impl ::planus::WriteAsDefault<i64, i64>,
                field_ref_: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            ) -> ::planus::Offset<Self> {
                let prepared_value = field_value.prepare(builder, &0);
                let prepared_ref_ = field_ref_.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                if prepared_value.is_some() {
                    table_writer.write_entry::<i64>(0);
                }
                if prepared_ref_.is_some() {
                    table_writer.write_entry::<::planus::Offset<str>>(1);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        if let ::core::option::Option::Some(prepared_value) = prepared_value {
                            object_writer.write::<_, _, 8>(&prepared_value);
                        }
                        if let ::core::option::Option::Some(prepared_ref_) = prepared_ref_ {
                            object_writer.write::<_, _, 4>(&prepared_ref_);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<IntArg>> for IntArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<IntArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<IntArg>> for IntArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<IntArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<IntArg> for IntArg {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<IntArg> {
                IntArg::create(builder, self.value, &self.ref_)
            }
        }

        /// Builder for serializing an instance of the [IntArg] type.
        ///
        /// Can be created using the [IntArg::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct IntArgBuilder<State>(State);

        impl IntArgBuilder<()> {
            /// Setter for the [`value` field](IntArg#structfield.value).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn value<T0>(self, value: T0) -> IntArgBuilder<(T0,)>
            where
                T0: ::planus::WriteAsDefault<i64, i64>,
            {
                IntArgBuilder((value,))
            }

            /// Sets the [`value` field](IntArg#structfield.value) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn value_as_default(self) -> IntArgBuilder<(::planus::DefaultValue,)> {
                self.value(::planus::DefaultValue)
            }
        }

        impl<T0> IntArgBuilder<(T0,)> {
            /// Setter for the [`ref` field](IntArg#structfield.ref_).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn ref_<T1>(self, value: T1) -> IntArgBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            {
                let (v0,) = self.0;
                IntArgBuilder((v0, value))
            }

            /// Sets the [`ref` field](IntArg#structfield.ref_) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn ref_as_null(self) -> IntArgBuilder<(T0, ())> {
                self.ref_(())
            }
        }

        impl<T0, T1> IntArgBuilder<(T0, T1)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [IntArg].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<IntArg>
            where
                Self: ::planus::WriteAsOffset<IntArg>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsDefault<i64, i64>,
                T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            > ::planus::WriteAs<::planus::Offset<IntArg>> for IntArgBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<IntArg>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<IntArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsDefault<i64, i64>,
                T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            > ::planus::WriteAsOptional<::planus::Offset<IntArg>> for IntArgBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<IntArg>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<IntArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAsDefault<i64, i64>,
                T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            > ::planus::WriteAsOffset<IntArg> for IntArgBuilder<(T0, T1)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<IntArg> {
                let (v0, v1) = &self.0;
                IntArg::create(builder, v0, v1)
            }
        }

        /// Reference to a deserialized [IntArg].
        #[derive(Copy, Clone)]
        pub struct IntArgRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> IntArgRef<'a> {
            /// Getter for the [`value` field](IntArg#structfield.value).
            #[inline]
            pub fn value(&self) -> ::planus::Result<i64> {
                ::core::result::Result::Ok(self.0.access(0, "IntArg", "value")?.unwrap_or(0))
            }

            /// Getter for the [`ref` field](IntArg#structfield.ref_).
            #[inline]
            pub fn ref_(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                self.0.access(1, "IntArg", "ref_")
            }
        }

        impl<'a> ::core::fmt::Debug for IntArgRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("IntArgRef");
                f.field("value", &self.value());
                if let ::core::option::Option::Some(field_ref_) = self.ref_().transpose() {
                    f.field("ref_", &field_ref_);
                }
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<IntArgRef<'a>> for IntArg {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: IntArgRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    value: ::core::convert::TryInto::try_into(value.value()?)?,
                    ref_: value.ref_()?.map(::core::convert::Into::into),
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for IntArgRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for IntArgRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[IntArgRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<IntArg>> for IntArg {
            type Value = ::planus::Offset<IntArg>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<IntArg>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for IntArgRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[IntArgRef]", "read_as_root", 0))
            }
        }

        /// The table `FloatArg` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `FloatArg` in the file `schema/native_graph.fbs:123`
        #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
        pub struct FloatArg {
            /// The field `value` in the table `FloatArg`
            pub value: f64,
            /// The field `ref` in the table `FloatArg`
            pub ref_: ::core::option::Option<::planus::alloc::string::String>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for FloatArg {
            fn default() -> Self {
                Self { value: 0.0, ref_: ::core::default::Default::default() }
            }
        }

        impl FloatArg {
            /// Creates a [FloatArgBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> FloatArgBuilder<()> {
                FloatArgBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_value: impl ::planus::WriteAsDefault<f64, f64>,
                field_ref_: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            ) -> ::planus::Offset<Self> {
                let prepared_value = field_value.prepare(builder, &0.0);
                let prepared_ref_ = field_ref_.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                if prepared_value.is_some() {
                    table_writer.write_entry::<f64>(0);
                }
                if prepared_ref_.is_some() {
                    table_writer.write_entry::<::planus::Offset<str>>(1);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        if let ::core::option::Option::Some(prepared_value) = prepared_value {
                            object_writer.write::<_, _, 8>(&prepared_value);
                        }
                        if let ::core::option::Option::Some(prepared_ref_) = prepared_ref_ {
                            object_writer.write::<_, _, 4>(&prepared_ref_);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<FloatArg>> for FloatArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<FloatArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<FloatArg>> for FloatArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<FloatArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<FloatArg> for FloatArg {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<FloatArg> {
                FloatArg::create(builder, self.value, &self.ref_)
            }
        }

        /// Builder for serializing an instance of the [FloatArg] type.
        ///
        /// Can be created using the [FloatArg::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct FloatArgBuilder<State>(State);

        impl FloatArgBuilder<()> {
            /// Setter for the [`value` field](FloatArg#structfield.value).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn value<T0>(self, value: T0) -> FloatArgBuilder<(T0,)>
            where
                T0: ::planus::WriteAsDefault<f64, f64>,
            {
                FloatArgBuilder((value,))
            }

            /// Sets the [`value` field](FloatArg#structfield.value) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn value_as_default(self) -> FloatArgBuilder<(::planus::DefaultValue,)> {
                self.value(::planus::DefaultValue)
            }
        }

        impl<T0> FloatArgBuilder<(T0,)> {
            /// Setter for the [`ref` field](FloatArg#structfield.ref_).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn ref_<T1>(self, value: T1) -> FloatArgBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            {
                let (v0,) = self.0;
                FloatArgBuilder((v0, value))
            }

            /// Sets the [`ref` field](FloatArg#structfield.ref_) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn ref_as_null(self) -> FloatArgBuilder<(T0, ())> {
                self.ref_(())
            }
        }

        impl<T0, T1> FloatArgBuilder<(T0, T1)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [FloatArg].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<FloatArg>
            where
                Self: ::planus::WriteAsOffset<FloatArg>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsDefault<f64, f64>,
                T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            > ::planus::WriteAs<::planus::Offset<FloatArg>> for FloatArgBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<FloatArg>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<FloatArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsDefault<f64, f64>,
                T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            > ::planus::WriteAsOptional<::planus::Offset<FloatArg>> for FloatArgBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<FloatArg>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<FloatArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAsDefault<f64, f64>,
                T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            > ::planus::WriteAsOffset<FloatArg> for FloatArgBuilder<(T0, T1)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<FloatArg> {
                let (v0, v1) = &self.0;
                FloatArg::create(builder, v0, v1)
            }
        }

        /// Reference to a deserialized [FloatArg].
        #[derive(Copy, Clone)]
        pub struct FloatArgRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> FloatArgRef<'a> {
            /// Getter for the [`value` field](FloatArg#structfield.value).
            #[inline]
            pub fn value(&self) -> ::planus::Result<f64> {
                ::core::result::Result::Ok(self.0.access(0, "FloatArg", "value")?.unwrap_or(0.0))
            }

            /// Getter for the [`ref` field](FloatArg#structfield.ref_).
            #[inline]
            pub fn ref_(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                self.0.access(1, "FloatArg", "ref_")
            }
        }

        impl<'a> ::core::fmt::Debug for FloatArgRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("FloatArgRef");
                f.field("value", &self.value());
                if let ::core::option::Option::Some(field_ref_) = self.ref_().transpose() {
                    f.field("ref_", &field_ref_);
                }
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<FloatArgRef<'a>> for FloatArg {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: FloatArgRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    value: ::core::convert::TryInto::try_into(value.value()?)?,
                    ref_: value.ref_()?.map(::core::convert::Into::into),
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for FloatArgRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for FloatArgRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[FloatArgRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<FloatArg>> for FloatArg {
            type Value = ::planus::Offset<FloatArg>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<FloatArg>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for FloatArgRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[FloatArgRef]", "read_as_root", 0))
            }
        }

        /// The table `BoolArg` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `BoolArg` in the file `schema/native_graph.fbs:128`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct BoolArg {
            /// The field `value` in the table `BoolArg`
            pub value: bool,
            /// The field `ref` in the table `BoolArg`
            pub ref_: ::core::option::Option<::planus::alloc::string::String>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for BoolArg {
            fn default() -> Self {
                Self { value: false, ref_: ::core::default::Default::default() }
            }
        }

        impl BoolArg {
            /// Creates a [BoolArgBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> BoolArgBuilder<()> {
                BoolArgBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_value: impl ::planus::WriteAsDefault<bool, bool>,
                field_ref_: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            ) -> ::planus::Offset<Self> {
                let prepared_value = field_value.prepare(builder, &false);
                let prepared_ref_ = field_ref_.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                if prepared_ref_.is_some() {
                    table_writer.write_entry::<::planus::Offset<str>>(1);
                }
                if prepared_value.is_some() {
                    table_writer.write_entry::<bool>(0);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        if let ::core::option::Option::Some(prepared_ref_) = prepared_ref_ {
                            object_writer.write::<_, _, 4>(&prepared_ref_);
                        }
                        if let ::core::option::Option::Some(prepared_value) = prepared_value {
                            object_writer.write::<_, _, 1>(&prepared_value);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<BoolArg>> for BoolArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BoolArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<BoolArg>> for BoolArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<BoolArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<BoolArg> for BoolArg {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BoolArg> {
                BoolArg::create(builder, self.value, &self.ref_)
            }
        }

        /// Builder for serializing an instance of the [BoolArg] type.
        ///
        /// Can be created using the [BoolArg::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct BoolArgBuilder<State>(State);

        impl BoolArgBuilder<()> {
            /// Setter for the [`value` field](BoolArg#structfield.value).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn value<T0>(self, value: T0) -> BoolArgBuilder<(T0,)>
            where
                T0: ::planus::WriteAsDefault<bool, bool>,
            {
                BoolArgBuilder((value,))
            }

            /// Sets the [`value` field](BoolArg#structfield.value) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn value_as_default(self) -> BoolArgBuilder<(::planus::DefaultValue,)> {
                self.value(::planus::DefaultValue)
            }
        }

        impl<T0> BoolArgBuilder<(T0,)> {
            /// Setter for the [`ref` field](BoolArg#structfield.ref_).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn ref_<T1>(self, value: T1) -> BoolArgBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            {
                let (v0,) = self.0;
                BoolArgBuilder((v0, value))
            }

            /// Sets the [`ref` field](BoolArg#structfield.ref_) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn ref_as_null(self) -> BoolArgBuilder<(T0, ())> {
                self.ref_(())
            }
        }

        impl<T0, T1> BoolArgBuilder<(T0, T1)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [BoolArg].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<BoolArg>
            where
                Self: ::planus::WriteAsOffset<BoolArg>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsDefault<bool, bool>,
                T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            > ::planus::WriteAs<::planus::Offset<BoolArg>> for BoolArgBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<BoolArg>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BoolArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsDefault<bool, bool>,
                T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            > ::planus::WriteAsOptional<::planus::Offset<BoolArg>> for BoolArgBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<BoolArg>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<BoolArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAsDefault<bool, bool>,
                T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            > ::planus::WriteAsOffset<BoolArg> for BoolArgBuilder<(T0, T1)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BoolArg> {
                let (v0, v1) = &self.0;
                BoolArg::create(builder, v0, v1)
            }
        }

        /// Reference to a deserialized [BoolArg].
        #[derive(Copy, Clone)]
        pub struct BoolArgRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> BoolArgRef<'a> {
            /// Getter for the [`value` field](BoolArg#structfield.value).
            #[inline]
            pub fn value(&self) -> ::planus::Result<bool> {
                ::core::result::Result::Ok(self.0.access(0, "BoolArg", "value")?.unwrap_or(false))
            }

            /// Getter for the [`ref` field](BoolArg#structfield.ref_).
            #[inline]
            pub fn ref_(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                self.0.access(1, "BoolArg", "ref_")
            }
        }

        impl<'a> ::core::fmt::Debug for BoolArgRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("BoolArgRef");
                f.field("value", &self.value());
                if let ::core::option::Option::Some(field_ref_) = self.ref_().transpose() {
                    f.field("ref_", &field_ref_);
                }
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<BoolArgRef<'a>> for BoolArg {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: BoolArgRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    value: ::core::convert::TryInto::try_into(value.value()?)?,
                    ref_: value.ref_()?.map(::core::convert::Into::into),
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for BoolArgRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for BoolArgRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[BoolArgRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<BoolArg>> for BoolArg {
            type Value = ::planus::Offset<BoolArg>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<BoolArg>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for BoolArgRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[BoolArgRef]", "read_as_root", 0))
            }
        }

        /// The table `StringArg` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `StringArg` in the file `schema/native_graph.fbs:133`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct StringArg {
            /// The field `value` in the table `StringArg`
            pub value: ::planus::alloc::string::String,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for StringArg {
            fn default() -> Self {
                Self { value: ::core::default::Default::default() }
            }
        }

        impl StringArg {
            /// Creates a [StringArgBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> StringArgBuilder<()> {
                StringArgBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_value: impl ::planus::WriteAs<::planus::Offset<str>>,
            ) -> ::planus::Offset<Self> {
                let prepared_value = field_value.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<6> = ::core::default::Default::default();
                table_writer.write_entry::<::planus::Offset<str>>(0);

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        object_writer.write::<_, _, 4>(&prepared_value);
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<StringArg>> for StringArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<StringArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<StringArg>> for StringArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<StringArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<StringArg> for StringArg {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<StringArg> {
                StringArg::create(builder, &self.value)
            }
        }

        /// Builder for serializing an instance of the [StringArg] type.
        ///
        /// Can be created using the [StringArg::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct StringArgBuilder<State>(State);

        impl StringArgBuilder<()> {
            /// Setter for the [`value` field](StringArg#structfield.value).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn value<T0>(self, value: T0) -> StringArgBuilder<(T0,)>
            where
                T0: ::planus::WriteAs<::planus::Offset<str>>,
            {
                StringArgBuilder((value,))
            }
        }

        impl<T0> StringArgBuilder<(T0,)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [StringArg].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<StringArg>
            where
                Self: ::planus::WriteAsOffset<StringArg>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<str>>> ::planus::WriteAs<::planus::Offset<StringArg>>
            for StringArgBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<StringArg>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<StringArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<str>>> ::planus::WriteAsOptional<::planus::Offset<StringArg>>
            for StringArgBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<StringArg>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<StringArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<str>>> ::planus::WriteAsOffset<StringArg> for StringArgBuilder<(T0,)> {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<StringArg> {
                let (v0,) = &self.0;
                StringArg::create(builder, v0)
            }
        }

        /// Reference to a deserialized [StringArg].
        #[derive(Copy, Clone)]
        pub struct StringArgRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> StringArgRef<'a> {
            /// Getter for the [`value` field](StringArg#structfield.value).
            #[inline]
            pub fn value(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                self.0.access_required(0, "StringArg", "value")
            }
        }

        impl<'a> ::core::fmt::Debug for StringArgRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("StringArgRef");
                f.field("value", &self.value());
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<StringArgRef<'a>> for StringArg {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: StringArgRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self { value: ::core::convert::Into::into(value.value()?) })
            }
        }

        impl<'a> ::planus::TableRead<'a> for StringArgRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for StringArgRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[StringArgRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<StringArg>> for StringArg {
            type Value = ::planus::Offset<StringArg>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<StringArg>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for StringArgRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[StringArgRef]", "read_as_root", 0))
            }
        }

        /// The table `ScalarTypeArg` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `ScalarTypeArg` in the file `schema/native_graph.fbs:137`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct ScalarTypeArg {
            /// The field `value` in the table `ScalarTypeArg`
            pub value: self::ScalarType,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for ScalarTypeArg {
            fn default() -> Self {
                Self { value: self::ScalarType::Byte }
            }
        }

        impl ScalarTypeArg {
            /// Creates a [ScalarTypeArgBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> ScalarTypeArgBuilder<()> {
                ScalarTypeArgBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_value: impl ::planus::WriteAsDefault<self::ScalarType, self::ScalarType>,
            ) -> ::planus::Offset<Self> {
                let prepared_value = field_value.prepare(builder, &self::ScalarType::Byte);

                let mut table_writer: ::planus::table_writer::TableWriter<6> = ::core::default::Default::default();
                if prepared_value.is_some() {
                    table_writer.write_entry::<self::ScalarType>(0);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        if let ::core::option::Option::Some(prepared_value) = prepared_value {
                            object_writer.write::<_, _, 1>(&prepared_value);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<ScalarTypeArg>> for ScalarTypeArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ScalarTypeArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<ScalarTypeArg>> for ScalarTypeArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<ScalarTypeArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<ScalarTypeArg> for ScalarTypeArg {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ScalarTypeArg> {
                ScalarTypeArg::create(builder, self.value)
            }
        }

        /// Builder for serializing an instance of the [ScalarTypeArg] type.
        ///
        /// Can be created using the [ScalarTypeArg::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct ScalarTypeArgBuilder<State>(State);

        impl ScalarTypeArgBuilder<()> {
            /// Setter for the [`value` field](ScalarTypeArg#structfield.value).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn value<T0>(self, value: T0) -> ScalarTypeArgBuilder<(T0,)>
            where
                T0: ::planus::WriteAsDefault<self::ScalarType, self::ScalarType>,
            {
                ScalarTypeArgBuilder((value,))
            }

            /// Sets the [`value` field](ScalarTypeArg#structfield.value) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn value_as_default(self) -> ScalarTypeArgBuilder<(::planus::DefaultValue,)> {
                self.value(::planus::DefaultValue)
            }
        }

        impl<T0> ScalarTypeArgBuilder<(T0,)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [ScalarTypeArg].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<ScalarTypeArg>
            where
                Self: ::planus::WriteAsOffset<ScalarTypeArg>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<T0: ::planus::WriteAsDefault<self::ScalarType, self::ScalarType>>
            ::planus::WriteAs<::planus::Offset<ScalarTypeArg>> for ScalarTypeArgBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<ScalarTypeArg>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ScalarTypeArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<T0: ::planus::WriteAsDefault<self::ScalarType, self::ScalarType>>
            ::planus::WriteAsOptional<::planus::Offset<ScalarTypeArg>> for ScalarTypeArgBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<ScalarTypeArg>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<ScalarTypeArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<T0: ::planus::WriteAsDefault<self::ScalarType, self::ScalarType>> ::planus::WriteAsOffset<ScalarTypeArg>
            for ScalarTypeArgBuilder<(T0,)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<ScalarTypeArg> {
                let (v0,) = &self.0;
                ScalarTypeArg::create(builder, v0)
            }
        }

        /// Reference to a deserialized [ScalarTypeArg].
        #[derive(Copy, Clone)]
        pub struct ScalarTypeArgRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> ScalarTypeArgRef<'a> {
            /// Getter for the [`value` field](ScalarTypeArg#structfield.value).
            #[inline]
            pub fn value(&self) -> ::planus::Result<self::ScalarType> {
                ::core::result::Result::Ok(
                    self.0.access(0, "ScalarTypeArg", "value")?.unwrap_or(self::ScalarType::Byte),
                )
            }
        }

        impl<'a> ::core::fmt::Debug for ScalarTypeArgRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("ScalarTypeArgRef");
                f.field("value", &self.value());
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<ScalarTypeArgRef<'a>> for ScalarTypeArg {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: ScalarTypeArgRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self { value: ::core::convert::TryInto::try_into(value.value()?)? })
            }
        }

        impl<'a> ::planus::TableRead<'a> for ScalarTypeArgRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for ScalarTypeArgRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[ScalarTypeArgRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<ScalarTypeArg>> for ScalarTypeArg {
            type Value = ::planus::Offset<ScalarTypeArg>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<ScalarTypeArg>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for ScalarTypeArgRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[ScalarTypeArgRef]", "read_as_root", 0))
            }
        }

        /// The table `IntListArg` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `IntListArg` in the file `schema/native_graph.fbs:142`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct IntListArg {
            /// The field `values` in the table `IntListArg`
            pub values: ::planus::alloc::vec::Vec<i64>,
            /// The field `refs` in the table `IntListArg`
            pub refs: ::core::option::Option<::planus::alloc::vec::Vec<::planus::alloc::string::String>>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for IntListArg {
            fn default() -> Self {
                Self { values: ::core::default::Default::default(), refs: ::core::default::Default::default() }
            }
        }

        impl IntListArg {
            /// Creates a [IntListArgBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> IntListArgBuilder<()> {
                IntListArgBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_values: impl ::planus::WriteAs<::planus::Offset<[i64]>>,
                field_refs: impl ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<str>]>>,
            ) -> ::planus::Offset<Self> {
                let prepared_values = field_values.prepare(builder);
                let prepared_refs = field_refs.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                table_writer.write_entry::<::planus::Offset<[i64]>>(0);
                if prepared_refs.is_some() {
                    table_writer.write_entry::<::planus::Offset<[::planus::Offset<str>]>>(1);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        object_writer.write::<_, _, 4>(&prepared_values);
                        if let ::core::option::Option::Some(prepared_refs) = prepared_refs {
                            object_writer.write::<_, _, 4>(&prepared_refs);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<IntListArg>> for IntListArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<IntListArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<IntListArg>> for IntListArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<IntListArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<IntListArg> for IntListArg {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<IntListArg> {
                IntListArg::create(builder, &self.values, &self.refs)
            }
        }

        /// Builder for serializing an instance of the [IntListArg] type.
        ///
        /// Can be created using the [IntListArg::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct IntListArgBuilder<State>(State);

        impl IntListArgBuilder<()> {
            /// Setter for the [`values` field](IntListArg#structfield.values).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn values<T0>(self, value: T0) -> IntListArgBuilder<(T0,)>
            where
                T0: ::planus::WriteAs<::planus::Offset<[i64]>>,
            {
                IntListArgBuilder((value,))
            }
        }

        impl<T0> IntListArgBuilder<(T0,)> {
            /// Setter for the [`refs` field](IntListArg#structfield.refs).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn refs<T1>(self, value: T1) -> IntListArgBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<str>]>>,
            {
                let (v0,) = self.0;
                IntListArgBuilder((v0, value))
            }

            /// Sets the [`refs` field](IntListArg#structfield.refs) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn refs_as_null(self) -> IntListArgBuilder<(T0, ())> {
                self.refs(())
            }
        }

        impl<T0, T1> IntListArgBuilder<(T0, T1)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [IntListArg].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<IntListArg>
            where
                Self: ::planus::WriteAsOffset<IntListArg>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<[i64]>>,
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<str>]>>,
            > ::planus::WriteAs<::planus::Offset<IntListArg>> for IntListArgBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<IntListArg>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<IntListArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<[i64]>>,
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<str>]>>,
            > ::planus::WriteAsOptional<::planus::Offset<IntListArg>> for IntListArgBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<IntListArg>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<IntListArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<[i64]>>,
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<str>]>>,
            > ::planus::WriteAsOffset<IntListArg> for IntListArgBuilder<(T0, T1)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<IntListArg> {
                let (v0, v1) = &self.0;
                IntListArg::create(builder, v0, v1)
            }
        }

        /// Reference to a deserialized [IntListArg].
        #[derive(Copy, Clone)]
        pub struct IntListArgRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> IntListArgRef<'a> {
            /// Getter for the [`values` field](IntListArg#structfield.values).
            #[inline]
            pub fn values(&self) -> ::planus::Result<::planus::Vector<'a, i64>> {
                self.0.access_required(0, "IntListArg", "values")
            }

            /// Getter for the [`refs` field](IntListArg#structfield.refs).
            #[inline]
            pub fn refs(
                &self,
            ) -> ::planus::Result<
                ::core::option::Option<::planus::Vector<'a, ::planus::Result<&'a ::core::primitive::str>>>,
            > {
                self.0.access(1, "IntListArg", "refs")
            }
        }

        impl<'a> ::core::fmt::Debug for IntListArgRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("IntListArgRef");
                f.field("values", &self.values());
                if let ::core::option::Option::Some(field_refs) = self.refs().transpose() {
                    f.field("refs", &field_refs);
                }
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<IntListArgRef<'a>> for IntListArg {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: IntListArgRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    values: value.values()?.to_vec()?,
                    refs: if let ::core::option::Option::Some(refs) = value.refs()? {
                        ::core::option::Option::Some(refs.to_vec_result()?)
                    } else {
                        ::core::option::Option::None
                    },
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for IntListArgRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for IntListArgRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[IntListArgRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<IntListArg>> for IntListArg {
            type Value = ::planus::Offset<IntListArg>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<IntListArg>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for IntListArgRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[IntListArgRef]", "read_as_root", 0))
            }
        }

        /// The table `FloatListArg` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `FloatListArg` in the file `schema/native_graph.fbs:147`
        #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
        pub struct FloatListArg {
            /// The field `values` in the table `FloatListArg`
            pub values: ::planus::alloc::vec::Vec<f64>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for FloatListArg {
            fn default() -> Self {
                Self { values: ::core::default::Default::default() }
            }
        }

        impl FloatListArg {
            /// Creates a [FloatListArgBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> FloatListArgBuilder<()> {
                FloatListArgBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_values: impl ::planus::WriteAs<::planus::Offset<[f64]>>,
            ) -> ::planus::Offset<Self> {
                let prepared_values = field_values.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<6> = ::core::default::Default::default();
                table_writer.write_entry::<::planus::Offset<[f64]>>(0);

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        object_writer.write::<_, _, 4>(&prepared_values);
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<FloatListArg>> for FloatListArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<FloatListArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<FloatListArg>> for FloatListArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<FloatListArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<FloatListArg> for FloatListArg {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<FloatListArg> {
                FloatListArg::create(builder, &self.values)
            }
        }

        /// Builder for serializing an instance of the [FloatListArg] type.
        ///
        /// Can be created using the [FloatListArg::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct FloatListArgBuilder<State>(State);

        impl FloatListArgBuilder<()> {
            /// Setter for the [`values` field](FloatListArg#structfield.values).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn values<T0>(self, value: T0) -> FloatListArgBuilder<(T0,)>
            where
                T0: ::planus::WriteAs<::planus::Offset<[f64]>>,
            {
                FloatListArgBuilder((value,))
            }
        }

        impl<T0> FloatListArgBuilder<(T0,)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [FloatListArg].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<FloatListArg>
            where
                Self: ::planus::WriteAsOffset<FloatListArg>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<[f64]>>> ::planus::WriteAs<::planus::Offset<FloatListArg>>
            for FloatListArgBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<FloatListArg>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<FloatListArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<[f64]>>> ::planus::WriteAsOptional<::planus::Offset<FloatListArg>>
            for FloatListArgBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<FloatListArg>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<FloatListArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<[f64]>>> ::planus::WriteAsOffset<FloatListArg>
            for FloatListArgBuilder<(T0,)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<FloatListArg> {
                let (v0,) = &self.0;
                FloatListArg::create(builder, v0)
            }
        }

        /// Reference to a deserialized [FloatListArg].
        #[derive(Copy, Clone)]
        pub struct FloatListArgRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> FloatListArgRef<'a> {
            /// Getter for the [`values` field](FloatListArg#structfield.values).
            #[inline]
            pub fn values(&self) -> ::planus::Result<::planus::Vector<'a, f64>> {
                self.0.access_required(0, "FloatListArg", "values")
            }
        }

        impl<'a> ::core::fmt::Debug for FloatListArgRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("FloatListArgRef");
                f.field("values", &self.values());
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<FloatListArgRef<'a>> for FloatListArg {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: FloatListArgRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self { values: value.values()?.to_vec()? })
            }
        }

        impl<'a> ::planus::TableRead<'a> for FloatListArgRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for FloatListArgRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[FloatListArgRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<FloatListArg>> for FloatListArg {
            type Value = ::planus::Offset<FloatListArg>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<FloatListArg>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for FloatListArgRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[FloatListArgRef]", "read_as_root", 0))
            }
        }

        /// The table `BoolListArg` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `BoolListArg` in the file `schema/native_graph.fbs:151`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct BoolListArg {
            /// The field `values` in the table `BoolListArg`
            pub values: ::planus::alloc::vec::Vec<bool>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for BoolListArg {
            fn default() -> Self {
                Self { values: ::core::default::Default::default() }
            }
        }

        impl BoolListArg {
            /// Creates a [BoolListArgBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> BoolListArgBuilder<()> {
                BoolListArgBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_values: impl ::planus::WriteAs<::planus::Offset<[bool]>>,
            ) -> ::planus::Offset<Self> {
                let prepared_values = field_values.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<6> = ::core::default::Default::default();
                table_writer.write_entry::<::planus::Offset<[bool]>>(0);

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        object_writer.write::<_, _, 4>(&prepared_values);
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<BoolListArg>> for BoolListArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BoolListArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<BoolListArg>> for BoolListArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<BoolListArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<BoolListArg> for BoolListArg {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BoolListArg> {
                BoolListArg::create(builder, &self.values)
            }
        }

        /// Builder for serializing an instance of the [BoolListArg] type.
        ///
        /// Can be created using the [BoolListArg::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct BoolListArgBuilder<State>(State);

        impl BoolListArgBuilder<()> {
            /// Setter for the [`values` field](BoolListArg#structfield.values).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn values<T0>(self, value: T0) -> BoolListArgBuilder<(T0,)>
            where
                T0: ::planus::WriteAs<::planus::Offset<[bool]>>,
            {
                BoolListArgBuilder((value,))
            }
        }

        impl<T0> BoolListArgBuilder<(T0,)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [BoolListArg].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<BoolListArg>
            where
                Self: ::planus::WriteAsOffset<BoolListArg>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<[bool]>>> ::planus::WriteAs<::planus::Offset<BoolListArg>>
            for BoolListArgBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<BoolListArg>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BoolListArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<[bool]>>> ::planus::WriteAsOptional<::planus::Offset<BoolListArg>>
            for BoolListArgBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<BoolListArg>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<BoolListArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<[bool]>>> ::planus::WriteAsOffset<BoolListArg>
            for BoolListArgBuilder<(T0,)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BoolListArg> {
                let (v0,) = &self.0;
                BoolListArg::create(builder, v0)
            }
        }

        /// Reference to a deserialized [BoolListArg].
        #[derive(Copy, Clone)]
        pub struct BoolListArgRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> BoolListArgRef<'a> {
            /// Getter for the [`values` field](BoolListArg#structfield.values).
            #[inline]
            pub fn values(&self) -> ::planus::Result<::planus::Vector<'a, bool>> {
                self.0.access_required(0, "BoolListArg", "values")
            }
        }

        impl<'a> ::core::fmt::Debug for BoolListArgRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("BoolListArgRef");
                f.field("values", &self.values());
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<BoolListArgRef<'a>> for BoolListArg {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: BoolListArgRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self { values: value.values()?.to_vec()? })
            }
        }

        impl<'a> ::planus::TableRead<'a> for BoolListArgRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for BoolListArgRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[BoolListArgRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<BoolListArg>> for BoolListArg {
            type Value = ::planus::Offset<BoolListArg>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<BoolListArg>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for BoolListArgRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[BoolListArgRef]", "read_as_root", 0))
            }
        }

        /// The table `TensorListArg` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `TensorListArg` in the file `schema/native_graph.fbs:155`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct TensorListArg {
            /// The field `names` in the table `TensorListArg`
            pub names: ::planus::alloc::vec::Vec<::planus::alloc::string::String>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for TensorListArg {
            fn default() -> Self {
                Self { names: ::core::default::Default::default() }
            }
        }

        impl TensorListArg {
            /// Creates a [TensorListArgBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> TensorListArgBuilder<()> {
                TensorListArgBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_names: impl ::planus::WriteAs<::planus::Offset<[::planus::Offset<str>]>>,
            ) -> ::planus::Offset<Self> {
                let prepared_names = field_names.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<6> = ::core::default::Default::default();
                table_writer.write_entry::<::planus::Offset<[::planus::Offset<str>]>>(0);

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        object_writer.write::<_, _, 4>(&prepared_names);
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<TensorListArg>> for TensorListArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorListArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<TensorListArg>> for TensorListArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<TensorListArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<TensorListArg> for TensorListArg {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorListArg> {
                TensorListArg::create(builder, &self.names)
            }
        }

        /// Builder for serializing an instance of the [TensorListArg] type.
        ///
        /// Can be created using the [TensorListArg::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct TensorListArgBuilder<State>(State);

        impl TensorListArgBuilder<()> {
            /// Setter for the [`names` field](TensorListArg#structfield.names).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn names<T0>(self, value: T0) -> TensorListArgBuilder<(T0,)>
            where
                T0: ::planus::WriteAs<::planus::Offset<[::planus::Offset<str>]>>,
            {
                TensorListArgBuilder((value,))
            }
        }

        impl<T0> TensorListArgBuilder<(T0,)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [TensorListArg].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorListArg>
            where
                Self: ::planus::WriteAsOffset<TensorListArg>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<[::planus::Offset<str>]>>>
            ::planus::WriteAs<::planus::Offset<TensorListArg>> for TensorListArgBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<TensorListArg>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorListArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<[::planus::Offset<str>]>>>
            ::planus::WriteAsOptional<::planus::Offset<TensorListArg>> for TensorListArgBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<TensorListArg>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<TensorListArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<[::planus::Offset<str>]>>> ::planus::WriteAsOffset<TensorListArg>
            for TensorListArgBuilder<(T0,)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorListArg> {
                let (v0,) = &self.0;
                TensorListArg::create(builder, v0)
            }
        }

        /// Reference to a deserialized [TensorListArg].
        #[derive(Copy, Clone)]
        pub struct TensorListArgRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> TensorListArgRef<'a> {
            /// Getter for the [`names` field](TensorListArg#structfield.names).
            #[inline]
            pub fn names(
                &self,
            ) -> ::planus::Result<::planus::Vector<'a, ::planus::Result<&'a ::core::primitive::str>>> {
                self.0.access_required(0, "TensorListArg", "names")
            }
        }

        impl<'a> ::core::fmt::Debug for TensorListArgRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("TensorListArgRef");
                f.field("names", &self.names());
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<TensorListArgRef<'a>> for TensorListArg {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: TensorListArgRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self { names: value.names()?.to_vec_result()? })
            }
        }

        impl<'a> ::planus::TableRead<'a> for TensorListArgRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for TensorListArgRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[TensorListArgRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<TensorListArg>> for TensorListArg {
            type Value = ::planus::Offset<TensorListArg>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<TensorListArg>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for TensorListArgRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[TensorListArgRef]", "read_as_root", 0))
            }
        }

        /// The table `OptionalTensorListArg` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `OptionalTensorListArg` in the file `schema/native_graph.fbs:160`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct OptionalTensorListArg {
            /// The field `names` in the table `OptionalTensorListArg`
            pub names: ::planus::alloc::vec::Vec<::planus::alloc::string::String>,
            /// The field `has_value` in the table `OptionalTensorListArg`
            pub has_value: ::planus::alloc::vec::Vec<bool>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for OptionalTensorListArg {
            fn default() -> Self {
                Self { names: ::core::default::Default::default(), has_value: ::core::default::Default::default() }
            }
        }

        impl OptionalTensorListArg {
            /// Creates a [OptionalTensorListArgBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> OptionalTensorListArgBuilder<()> {
                OptionalTensorListArgBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_names: impl ::planus::WriteAs<::planus::Offset<[::planus::Offset<str>]>>,
                field_has_value: impl ::planus::WriteAs<::planus::Offset<[bool]>>,
            ) -> ::planus::Offset<Self> {
                let prepared_names = field_names.prepare(builder);
                let prepared_has_value = field_has_value.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                table_writer.write_entry::<::planus::Offset<[::planus::Offset<str>]>>(0);
                table_writer.write_entry::<::planus::Offset<[bool]>>(1);

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        object_writer.write::<_, _, 4>(&prepared_names);
                        object_writer.write::<_, _, 4>(&prepared_has_value);
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<OptionalTensorListArg>> for OptionalTensorListArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<OptionalTensorListArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<OptionalTensorListArg>> for OptionalTensorListArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<OptionalTensorListArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<OptionalTensorListArg> for OptionalTensorListArg {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<OptionalTensorListArg> {
                OptionalTensorListArg::create(builder, &self.names, &self.has_value)
            }
        }

        /// Builder for serializing an instance of the [OptionalTensorListArg] type.
        ///
        /// Can be created using the [OptionalTensorListArg::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct OptionalTensorListArgBuilder<State>(State);

        impl OptionalTensorListArgBuilder<()> {
            /// Setter for the [`names` field](OptionalTensorListArg#structfield.names).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn names<T0>(self, value: T0) -> OptionalTensorListArgBuilder<(T0,)>
            where
                T0: ::planus::WriteAs<::planus::Offset<[::planus::Offset<str>]>>,
            {
                OptionalTensorListArgBuilder((value,))
            }
        }

        impl<T0> OptionalTensorListArgBuilder<(T0,)> {
            /// Setter for the [`has_value` field](OptionalTensorListArg#structfield.has_value).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn has_value<T1>(self, value: T1) -> OptionalTensorListArgBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAs<::planus::Offset<[bool]>>,
            {
                let (v0,) = self.0;
                OptionalTensorListArgBuilder((v0, value))
            }
        }

        impl<T0, T1> OptionalTensorListArgBuilder<(T0, T1)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [OptionalTensorListArg].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<OptionalTensorListArg>
            where
                Self: ::planus::WriteAsOffset<OptionalTensorListArg>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<[::planus::Offset<str>]>>,
                T1: ::planus::WriteAs<::planus::Offset<[bool]>>,
            > ::planus::WriteAs<::planus::Offset<OptionalTensorListArg>> for OptionalTensorListArgBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<OptionalTensorListArg>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<OptionalTensorListArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<[::planus::Offset<str>]>>,
                T1: ::planus::WriteAs<::planus::Offset<[bool]>>,
            > ::planus::WriteAsOptional<::planus::Offset<OptionalTensorListArg>>
            for OptionalTensorListArgBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<OptionalTensorListArg>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<OptionalTensorListArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<[::planus::Offset<str>]>>,
                T1: ::planus::WriteAs<::planus::Offset<[bool]>>,
            > ::planus::WriteAsOffset<OptionalTensorListArg> for OptionalTensorListArgBuilder<(T0, T1)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<OptionalTensorListArg> {
                let (v0, v1) = &self.0;
                OptionalTensorListArg::create(builder, v0, v1)
            }
        }

        /// Reference to a deserialized [OptionalTensorListArg].
        #[derive(Copy, Clone)]
        pub struct OptionalTensorListArgRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> OptionalTensorListArgRef<'a> {
            /// Getter for the [`names` field](OptionalTensorListArg#structfield.names).
            #[inline]
            pub fn names(
                &self,
            ) -> ::planus::Result<::planus::Vector<'a, ::planus::Result<&'a ::core::primitive::str>>> {
                self.0.access_required(0, "OptionalTensorListArg", "names")
            }

            /// Getter for the [`has_value` field](OptionalTensorListArg#structfield.has_value).
            #[inline]
            pub fn has_value(&self) -> ::planus::Result<::planus::Vector<'a, bool>> {
                self.0.access_required(1, "OptionalTensorListArg", "has_value")
            }
        }

        impl<'a> ::core::fmt::Debug for OptionalTensorListArgRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("OptionalTensorListArgRef");
                f.field("names", &self.names());
                f.field("has_value", &self.has_value());
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<OptionalTensorListArgRef<'a>> for OptionalTensorListArg {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: OptionalTensorListArgRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    names: value.names()?.to_vec_result()?,
                    has_value: value.has_value()?.to_vec()?,
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for OptionalTensorListArgRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for OptionalTensorListArgRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[OptionalTensorListArgRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<OptionalTensorListArg>> for OptionalTensorListArg {
            type Value = ::planus::Offset<OptionalTensorListArg>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<OptionalTensorListArg>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for OptionalTensorListArgRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[OptionalTensorListArgRef]", "read_as_root", 0))
            }
        }

        /// The table `GraphArg` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `GraphArg` in the file `schema/native_graph.fbs:166`
        #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
        pub struct GraphArg {
            /// The field `name` in the table `GraphArg`
            pub name: ::planus::alloc::string::String,
            /// The field `graph` in the table `GraphArg`
            pub graph: ::planus::alloc::boxed::Box<self::Graph>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for GraphArg {
            fn default() -> Self {
                Self { name: ::core::default::Default::default(), graph: ::core::default::Default::default() }
            }
        }

        impl GraphArg {
            /// Creates a [GraphArgBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> GraphArgBuilder<()> {
                GraphArgBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_name: impl ::planus::WriteAs<::planus::Offset<str>>,
                field_graph: impl ::planus::WriteAs<::planus::Offset<self::Graph>>,
            ) -> ::planus::Offset<Self> {
                let prepared_name = field_name.prepare(builder);
                let prepared_graph = field_graph.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                table_writer.write_entry::<::planus::Offset<str>>(0);
                table_writer.write_entry::<::planus::Offset<self::Graph>>(1);

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        object_writer.write::<_, _, 4>(&prepared_name);
                        object_writer.write::<_, _, 4>(&prepared_graph);
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<GraphArg>> for GraphArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<GraphArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<GraphArg>> for GraphArg {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<GraphArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<GraphArg> for GraphArg {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<GraphArg> {
                GraphArg::create(builder, &self.name, &self.graph)
            }
        }

        /// Builder for serializing an instance of the [GraphArg] type.
        ///
        /// Can be created using the [GraphArg::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct GraphArgBuilder<State>(State);

        impl GraphArgBuilder<()> {
            /// Setter for the [`name` field](GraphArg#structfield.name).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn name<T0>(self, value: T0) -> GraphArgBuilder<(T0,)>
            where
                T0: ::planus::WriteAs<::planus::Offset<str>>,
            {
                GraphArgBuilder((value,))
            }
        }

        impl<T0> GraphArgBuilder<(T0,)> {
            /// Setter for the [`graph` field](GraphArg#structfield.graph).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn graph<T1>(self, value: T1) -> GraphArgBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAs<::planus::Offset<self::Graph>>,
            {
                let (v0,) = self.0;
                GraphArgBuilder((v0, value))
            }
        }

        impl<T0, T1> GraphArgBuilder<(T0, T1)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [GraphArg].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<GraphArg>
            where
                Self: ::planus::WriteAsOffset<GraphArg>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<str>>, T1: ::planus::WriteAs<::planus::Offset<self::Graph>>>
            ::planus::WriteAs<::planus::Offset<GraphArg>> for GraphArgBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<GraphArg>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<GraphArg> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<str>>, T1: ::planus::WriteAs<::planus::Offset<self::Graph>>>
            ::planus::WriteAsOptional<::planus::Offset<GraphArg>> for GraphArgBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<GraphArg>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<GraphArg>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<str>>, T1: ::planus::WriteAs<::planus::Offset<self::Graph>>>
            ::planus::WriteAsOffset<GraphArg> for GraphArgBuilder<(T0, T1)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<GraphArg> {
                let (v0, v1) = &self.0;
                GraphArg::create(builder, v0, v1)
            }
        }

        /// Reference to a deserialized [GraphArg].
        #[derive(Copy, Clone)]
        pub struct GraphArgRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> GraphArgRef<'a> {
            /// Getter for the [`name` field](GraphArg#structfield.name).
            #[inline]
            pub fn name(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                self.0.access_required(0, "GraphArg", "name")
            }

            /// Getter for the [`graph` field](GraphArg#structfield.graph).
            #[inline]
            pub fn graph(&self) -> ::planus::Result<self::GraphRef<'a>> {
                self.0.access_required(1, "GraphArg", "graph")
            }
        }

        impl<'a> ::core::fmt::Debug for GraphArgRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("GraphArgRef");
                f.field("name", &self.name());
                f.field("graph", &self.graph());
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<GraphArgRef<'a>> for GraphArg {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: GraphArgRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    name: ::core::convert::Into::into(value.name()?),
                    graph: ::planus::alloc::boxed::Box::new(::core::convert::TryInto::try_into(value.graph()?)?),
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for GraphArgRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for GraphArgRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[GraphArgRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<GraphArg>> for GraphArg {
            type Value = ::planus::Offset<GraphArg>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<GraphArg>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for GraphArgRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[GraphArgRef]", "read_as_root", 0))
            }
        }

        /// The union `ArgumentValue` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Union `ArgumentValue` in the file `schema/native_graph.fbs:171`
        #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
        pub enum ArgumentValue {
            /// The variant of type `TensorArg` in the union `ArgumentValue`
            TensorArg(::planus::alloc::boxed::Box<self::TensorArg>),

            /// The variant of type `NoneArg` in the union `ArgumentValue`
            NoneArg(::planus::alloc::boxed::Box<self::NoneArg>),

            /// The variant of type `IntArg` in the union `ArgumentValue`
            IntArg(::planus::alloc::boxed::Box<self::IntArg>),

            /// The variant of type `FloatArg` in the union `ArgumentValue`
            FloatArg(::planus::alloc::boxed::Box<self::FloatArg>),

            /// The variant of type `BoolArg` in the union `ArgumentValue`
            BoolArg(::planus::alloc::boxed::Box<self::BoolArg>),

            /// The variant of type `StringArg` in the union `ArgumentValue`
            StringArg(::planus::alloc::boxed::Box<self::StringArg>),

            /// The variant of type `ScalarTypeArg` in the union `ArgumentValue`
            ScalarTypeArg(::planus::alloc::boxed::Box<self::ScalarTypeArg>),

            /// The variant of type `IntListArg` in the union `ArgumentValue`
            IntListArg(::planus::alloc::boxed::Box<self::IntListArg>),

            /// The variant of type `FloatListArg` in the union `ArgumentValue`
            FloatListArg(::planus::alloc::boxed::Box<self::FloatListArg>),

            /// The variant of type `BoolListArg` in the union `ArgumentValue`
            BoolListArg(::planus::alloc::boxed::Box<self::BoolListArg>),

            /// The variant of type `TensorListArg` in the union `ArgumentValue`
            TensorListArg(::planus::alloc::boxed::Box<self::TensorListArg>),

            /// The variant of type `OptionalTensorListArg` in the union `ArgumentValue`
            OptionalTensorListArg(::planus::alloc::boxed::Box<self::OptionalTensorListArg>),

            /// The variant of type `GraphArg` in the union `ArgumentValue`
            GraphArg(::planus::alloc::boxed::Box<self::GraphArg>),
        }

        impl ArgumentValue {
            /// Creates a [ArgumentValueBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> ArgumentValueBuilder<::planus::Uninitialized> {
                ArgumentValueBuilder(::planus::Uninitialized)
            }

            #[inline]
            pub fn create_tensor_arg(
                builder: &mut ::planus::Builder,
                value: impl ::planus::WriteAsOffset<self::TensorArg>,
            ) -> ::planus::UnionOffset<Self> {
                ::planus::UnionOffset::new(1, value.prepare(builder).downcast())
            }

            #[inline]
            pub fn create_none_arg(
                builder: &mut ::planus::Builder,
                value: impl ::planus::WriteAsOffset<self::NoneArg>,
            ) -> ::planus::UnionOffset<Self> {
                ::planus::UnionOffset::new(2, value.prepare(builder).downcast())
            }

            #[inline]
            pub fn create_int_arg(
                builder: &mut ::planus::Builder,
                value: impl ::planus::WriteAsOffset<self::IntArg>,
            ) -> ::planus::UnionOffset<Self> {
                ::planus::UnionOffset::new(3, value.prepare(builder).downcast())
            }

            #[inline]
            pub fn create_float_arg(
                builder: &mut ::planus::Builder,
                value: impl ::planus::WriteAsOffset<self::FloatArg>,
            ) -> ::planus::UnionOffset<Self> {
                ::planus::UnionOffset::new(4, value.prepare(builder).downcast())
            }

            #[inline]
            pub fn create_bool_arg(
                builder: &mut ::planus::Builder,
                value: impl ::planus::WriteAsOffset<self::BoolArg>,
            ) -> ::planus::UnionOffset<Self> {
                ::planus::UnionOffset::new(5, value.prepare(builder).downcast())
            }

            #[inline]
            pub fn create_string_arg(
                builder: &mut ::planus::Builder,
                value: impl ::planus::WriteAsOffset<self::StringArg>,
            ) -> ::planus::UnionOffset<Self> {
                ::planus::UnionOffset::new(6, value.prepare(builder).downcast())
            }

            #[inline]
            pub fn create_scalar_type_arg(
                builder: &mut ::planus::Builder,
                value: impl ::planus::WriteAsOffset<self::ScalarTypeArg>,
            ) -> ::planus::UnionOffset<Self> {
                ::planus::UnionOffset::new(7, value.prepare(builder).downcast())
            }

            #[inline]
            pub fn create_int_list_arg(
                builder: &mut ::planus::Builder,
                value: impl ::planus::WriteAsOffset<self::IntListArg>,
            ) -> ::planus::UnionOffset<Self> {
                ::planus::UnionOffset::new(8, value.prepare(builder).downcast())
            }

            #[inline]
            pub fn create_float_list_arg(
                builder: &mut ::planus::Builder,
                value: impl ::planus::WriteAsOffset<self::FloatListArg>,
            ) -> ::planus::UnionOffset<Self> {
                ::planus::UnionOffset::new(9, value.prepare(builder).downcast())
            }

            #[inline]
            pub fn create_bool_list_arg(
                builder: &mut ::planus::Builder,
                value: impl ::planus::WriteAsOffset<self::BoolListArg>,
            ) -> ::planus::UnionOffset<Self> {
                ::planus::UnionOffset::new(10, value.prepare(builder).downcast())
            }

            #[inline]
            pub fn create_tensor_list_arg(
                builder: &mut ::planus::Builder,
                value: impl ::planus::WriteAsOffset<self::TensorListArg>,
            ) -> ::planus::UnionOffset<Self> {
                ::planus::UnionOffset::new(11, value.prepare(builder).downcast())
            }

            #[inline]
            pub fn create_optional_tensor_list_arg(
                builder: &mut ::planus::Builder,
                value: impl ::planus::WriteAsOffset<self::OptionalTensorListArg>,
            ) -> ::planus::UnionOffset<Self> {
                ::planus::UnionOffset::new(12, value.prepare(builder).downcast())
            }

            #[inline]
            pub fn create_graph_arg(
                builder: &mut ::planus::Builder,
                value: impl ::planus::WriteAsOffset<self::GraphArg>,
            ) -> ::planus::UnionOffset<Self> {
                ::planus::UnionOffset::new(13, value.prepare(builder).downcast())
            }
        }

        impl ::planus::WriteAsUnion<ArgumentValue> for ArgumentValue {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<Self> {
                match self {
                    Self::TensorArg(value) => Self::create_tensor_arg(builder, value),
                    Self::NoneArg(value) => Self::create_none_arg(builder, value),
                    Self::IntArg(value) => Self::create_int_arg(builder, value),
                    Self::FloatArg(value) => Self::create_float_arg(builder, value),
                    Self::BoolArg(value) => Self::create_bool_arg(builder, value),
                    Self::StringArg(value) => Self::create_string_arg(builder, value),
                    Self::ScalarTypeArg(value) => Self::create_scalar_type_arg(builder, value),
                    Self::IntListArg(value) => Self::create_int_list_arg(builder, value),
                    Self::FloatListArg(value) => Self::create_float_list_arg(builder, value),
                    Self::BoolListArg(value) => Self::create_bool_list_arg(builder, value),
                    Self::TensorListArg(value) => Self::create_tensor_list_arg(builder, value),
                    Self::OptionalTensorListArg(value) => Self::create_optional_tensor_list_arg(builder, value),
                    Self::GraphArg(value) => Self::create_graph_arg(builder, value),
                }
            }
        }

        impl ::planus::WriteAsOptionalUnion<ArgumentValue> for ArgumentValue {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::UnionOffset<Self>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }

        /// Builder for serializing an instance of the [ArgumentValue] type.
        ///
        /// Can be created using the [ArgumentValue::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct ArgumentValueBuilder<T>(T);

        impl ArgumentValueBuilder<::planus::Uninitialized> {
            /// Creates an instance of the [`TensorArg` variant](ArgumentValue#variant.TensorArg).
            #[inline]
            pub fn tensor_arg<T>(self, value: T) -> ArgumentValueBuilder<::planus::Initialized<1, T>>
            where
                T: ::planus::WriteAsOffset<self::TensorArg>,
            {
                ArgumentValueBuilder(::planus::Initialized(value))
            }

            /// Creates an instance of the [`NoneArg` variant](ArgumentValue#variant.NoneArg).
            #[inline]
            pub fn none_arg<T>(self, value: T) -> ArgumentValueBuilder<::planus::Initialized<2, T>>
            where
                T: ::planus::WriteAsOffset<self::NoneArg>,
            {
                ArgumentValueBuilder(::planus::Initialized(value))
            }

            /// Creates an instance of the [`IntArg` variant](ArgumentValue#variant.IntArg).
            #[inline]
            pub fn int_arg<T>(self, value: T) -> ArgumentValueBuilder<::planus::Initialized<3, T>>
            where
                T: ::planus::WriteAsOffset<self::IntArg>,
            {
                ArgumentValueBuilder(::planus::Initialized(value))
            }

            /// Creates an instance of the [`FloatArg` variant](ArgumentValue#variant.FloatArg).
            #[inline]
            pub fn float_arg<T>(self, value: T) -> ArgumentValueBuilder<::planus::Initialized<4, T>>
            where
                T: ::planus::WriteAsOffset<self::FloatArg>,
            {
                ArgumentValueBuilder(::planus::Initialized(value))
            }

            /// Creates an instance of the [`BoolArg` variant](ArgumentValue#variant.BoolArg).
            #[inline]
            pub fn bool_arg<T>(self, value: T) -> ArgumentValueBuilder<::planus::Initialized<5, T>>
            where
                T: ::planus::WriteAsOffset<self::BoolArg>,
            {
                ArgumentValueBuilder(::planus::Initialized(value))
            }

            /// Creates an instance of the [`StringArg` variant](ArgumentValue#variant.StringArg).
            #[inline]
            pub fn string_arg<T>(self, value: T) -> ArgumentValueBuilder<::planus::Initialized<6, T>>
            where
                T: ::planus::WriteAsOffset<self::StringArg>,
            {
                ArgumentValueBuilder(::planus::Initialized(value))
            }

            /// Creates an instance of the [`ScalarTypeArg` variant](ArgumentValue#variant.ScalarTypeArg).
            #[inline]
            pub fn scalar_type_arg<T>(self, value: T) -> ArgumentValueBuilder<::planus::Initialized<7, T>>
            where
                T: ::planus::WriteAsOffset<self::ScalarTypeArg>,
            {
                ArgumentValueBuilder(::planus::Initialized(value))
            }

            /// Creates an instance of the [`IntListArg` variant](ArgumentValue#variant.IntListArg).
            #[inline]
            pub fn int_list_arg<T>(self, value: T) -> ArgumentValueBuilder<::planus::Initialized<8, T>>
            where
                T: ::planus::WriteAsOffset<self::IntListArg>,
            {
                ArgumentValueBuilder(::planus::Initialized(value))
            }

            /// Creates an instance of the [`FloatListArg` variant](ArgumentValue#variant.FloatListArg).
            #[inline]
            pub fn float_list_arg<T>(self, value: T) -> ArgumentValueBuilder<::planus::Initialized<9, T>>
            where
                T: ::planus::WriteAsOffset<self::FloatListArg>,
            {
                ArgumentValueBuilder(::planus::Initialized(value))
            }

            /// Creates an instance of the [`BoolListArg` variant](ArgumentValue#variant.BoolListArg).
            #[inline]
            pub fn bool_list_arg<T>(self, value: T) -> ArgumentValueBuilder<::planus::Initialized<10, T>>
            where
                T: ::planus::WriteAsOffset<self::BoolListArg>,
            {
                ArgumentValueBuilder(::planus::Initialized(value))
            }

            /// Creates an instance of the [`TensorListArg` variant](ArgumentValue#variant.TensorListArg).
            #[inline]
            pub fn tensor_list_arg<T>(self, value: T) -> ArgumentValueBuilder<::planus::Initialized<11, T>>
            where
                T: ::planus::WriteAsOffset<self::TensorListArg>,
            {
                ArgumentValueBuilder(::planus::Initialized(value))
            }

            /// Creates an instance of the [`OptionalTensorListArg` variant](ArgumentValue#variant.OptionalTensorListArg).
            #[inline]
            pub fn optional_tensor_list_arg<T>(self, value: T) -> ArgumentValueBuilder<::planus::Initialized<12, T>>
            where
                T: ::planus::WriteAsOffset<self::OptionalTensorListArg>,
            {
                ArgumentValueBuilder(::planus::Initialized(value))
            }

            /// Creates an instance of the [`GraphArg` variant](ArgumentValue#variant.GraphArg).
            #[inline]
            pub fn graph_arg<T>(self, value: T) -> ArgumentValueBuilder<::planus::Initialized<13, T>>
            where
                T: ::planus::WriteAsOffset<self::GraphArg>,
            {
                ArgumentValueBuilder(::planus::Initialized(value))
            }
        }

        impl<const N: u8, T> ArgumentValueBuilder<::planus::Initialized<N, T>> {
            /// Finish writing the builder to get an [UnionOffset](::planus::UnionOffset) to a serialized [ArgumentValue].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ArgumentValue>
            where
                Self: ::planus::WriteAsUnion<ArgumentValue>,
            {
                ::planus::WriteAsUnion::prepare(&self, builder)
            }
        }

        impl<T> ::planus::WriteAsUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<1, T>>
        where
            T: ::planus::WriteAsOffset<self::TensorArg>,
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ArgumentValue> {
                ::planus::UnionOffset::new(1, (self.0).0.prepare(builder).downcast())
            }
        }

        impl<T> ::planus::WriteAsOptionalUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<1, T>>
        where
            T: ::planus::WriteAsOffset<self::TensorArg>,
        {
            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::UnionOffset<ArgumentValue>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }
        impl<T> ::planus::WriteAsUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<2, T>>
        where
            T: ::planus::WriteAsOffset<self::NoneArg>,
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ArgumentValue> {
                ::planus::UnionOffset::new(2, (self.0).0.prepare(builder).downcast())
            }
        }

        impl<T> ::planus::WriteAsOptionalUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<2, T>>
        where
            T: ::planus::WriteAsOffset<self::NoneArg>,
        {
            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::UnionOffset<ArgumentValue>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }
        impl<T> ::planus::WriteAsUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<3, T>>
        where
            T: ::planus::WriteAsOffset<self::IntArg>,
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ArgumentValue> {
                ::planus::UnionOffset::new(3, (self.0).0.prepare(builder).downcast())
            }
        }

        impl<T> ::planus::WriteAsOptionalUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<3, T>>
        where
            T: ::planus::WriteAsOffset<self::IntArg>,
        {
            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::UnionOffset<ArgumentValue>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }
        impl<T> ::planus::WriteAsUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<4, T>>
        where
            T: ::planus::WriteAsOffset<self::FloatArg>,
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ArgumentValue> {
                ::planus::UnionOffset::new(4, (self.0).0.prepare(builder).downcast())
            }
        }

        impl<T> ::planus::WriteAsOptionalUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<4, T>>
        where
            T: ::planus::WriteAsOffset<self::FloatArg>,
        {
            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::UnionOffset<ArgumentValue>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }
        impl<T> ::planus::WriteAsUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<5, T>>
        where
            T: ::planus::WriteAsOffset<self::BoolArg>,
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ArgumentValue> {
                ::planus::UnionOffset::new(5, (self.0).0.prepare(builder).downcast())
            }
        }

        impl<T> ::planus::WriteAsOptionalUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<5, T>>
        where
            T: ::planus::WriteAsOffset<self::BoolArg>,
        {
            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::UnionOffset<ArgumentValue>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }
        impl<T> ::planus::WriteAsUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<6, T>>
        where
            T: ::planus::WriteAsOffset<self::StringArg>,
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ArgumentValue> {
                ::planus::UnionOffset::new(6, (self.0).0.prepare(builder).downcast())
            }
        }

        impl<T> ::planus::WriteAsOptionalUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<6, T>>
        where
            T: ::planus::WriteAsOffset<self::StringArg>,
        {
            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::UnionOffset<ArgumentValue>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }
        impl<T> ::planus::WriteAsUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<7, T>>
        where
            T: ::planus::WriteAsOffset<self::ScalarTypeArg>,
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ArgumentValue> {
                ::planus::UnionOffset::new(7, (self.0).0.prepare(builder).downcast())
            }
        }

        impl<T> ::planus::WriteAsOptionalUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<7, T>>
        where
            T: ::planus::WriteAsOffset<self::ScalarTypeArg>,
        {
            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::UnionOffset<ArgumentValue>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }
        impl<T> ::planus::WriteAsUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<8, T>>
        where
            T: ::planus::WriteAsOffset<self::IntListArg>,
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ArgumentValue> {
                ::planus::UnionOffset::new(8, (self.0).0.prepare(builder).downcast())
            }
        }

        impl<T> ::planus::WriteAsOptionalUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<8, T>>
        where
            T: ::planus::WriteAsOffset<self::IntListArg>,
        {
            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::UnionOffset<ArgumentValue>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }
        impl<T> ::planus::WriteAsUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<9, T>>
        where
            T: ::planus::WriteAsOffset<self::FloatListArg>,
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ArgumentValue> {
                ::planus::UnionOffset::new(9, (self.0).0.prepare(builder).downcast())
            }
        }

        impl<T> ::planus::WriteAsOptionalUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<9, T>>
        where
            T: ::planus::WriteAsOffset<self::FloatListArg>,
        {
            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::UnionOffset<ArgumentValue>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }
        impl<T> ::planus::WriteAsUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<10, T>>
        where
            T: ::planus::WriteAsOffset<self::BoolListArg>,
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ArgumentValue> {
                ::planus::UnionOffset::new(10, (self.0).0.prepare(builder).downcast())
            }
        }

        impl<T> ::planus::WriteAsOptionalUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<10, T>>
        where
            T: ::planus::WriteAsOffset<self::BoolListArg>,
        {
            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::UnionOffset<ArgumentValue>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }
        impl<T> ::planus::WriteAsUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<11, T>>
        where
            T: ::planus::WriteAsOffset<self::TensorListArg>,
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ArgumentValue> {
                ::planus::UnionOffset::new(11, (self.0).0.prepare(builder).downcast())
            }
        }

        impl<T> ::planus::WriteAsOptionalUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<11, T>>
        where
            T: ::planus::WriteAsOffset<self::TensorListArg>,
        {
            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::UnionOffset<ArgumentValue>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }
        impl<T> ::planus::WriteAsUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<12, T>>
        where
            T: ::planus::WriteAsOffset<self::OptionalTensorListArg>,
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ArgumentValue> {
                ::planus::UnionOffset::new(12, (self.0).0.prepare(builder).downcast())
            }
        }

        impl<T> ::planus::WriteAsOptionalUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<12, T>>
        where
            T: ::planus::WriteAsOffset<self::OptionalTensorListArg>,
        {
            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::UnionOffset<ArgumentValue>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }
        impl<T> ::planus::WriteAsUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<13, T>>
        where
            T: ::planus::WriteAsOffset<self::GraphArg>,
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ArgumentValue> {
                ::planus::UnionOffset::new(13, (self.0).0.prepare(builder).downcast())
            }
        }

        impl<T> ::planus::WriteAsOptionalUnion<ArgumentValue> for ArgumentValueBuilder<::planus::Initialized<13, T>>
        where
            T: ::planus::WriteAsOffset<self::GraphArg>,
        {
            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::UnionOffset<ArgumentValue>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }

        /// Reference to a deserialized [ArgumentValue].
        #[derive(Copy, Clone, Debug)]
        pub enum ArgumentValueRef<'a> {
            TensorArg(self::TensorArgRef<'a>),
            NoneArg(self::NoneArgRef<'a>),
            IntArg(self::IntArgRef<'a>),
            FloatArg(self::FloatArgRef<'a>),
            BoolArg(self::BoolArgRef<'a>),
            StringArg(self::StringArgRef<'a>),
            ScalarTypeArg(self::ScalarTypeArgRef<'a>),
            IntListArg(self::IntListArgRef<'a>),
            FloatListArg(self::FloatListArgRef<'a>),
            BoolListArg(self::BoolListArgRef<'a>),
            TensorListArg(self::TensorListArgRef<'a>),
            OptionalTensorListArg(self::OptionalTensorListArgRef<'a>),
            GraphArg(self::GraphArgRef<'a>),
        }

        impl<'a> ::core::convert::TryFrom<ArgumentValueRef<'a>> for ArgumentValue {
            type Error = ::planus::Error;

            fn try_from(value: ArgumentValueRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(match value {
                    ArgumentValueRef::TensorArg(value) => {
                        Self::TensorArg(::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?))
                    }

                    ArgumentValueRef::NoneArg(value) => {
                        Self::NoneArg(::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?))
                    }

                    ArgumentValueRef::IntArg(value) => {
                        Self::IntArg(::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?))
                    }

                    ArgumentValueRef::FloatArg(value) => {
                        Self::FloatArg(::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?))
                    }

                    ArgumentValueRef::BoolArg(value) => {
                        Self::BoolArg(::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?))
                    }

                    ArgumentValueRef::StringArg(value) => {
                        Self::StringArg(::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?))
                    }

                    ArgumentValueRef::ScalarTypeArg(value) => Self::ScalarTypeArg(::planus::alloc::boxed::Box::new(
                        ::core::convert::TryFrom::try_from(value)?,
                    )),

                    ArgumentValueRef::IntListArg(value) => {
                        Self::IntListArg(::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?))
                    }

                    ArgumentValueRef::FloatListArg(value) => {
                        Self::FloatListArg(::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?))
                    }

                    ArgumentValueRef::BoolListArg(value) => {
                        Self::BoolListArg(::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?))
                    }

                    ArgumentValueRef::TensorListArg(value) => Self::TensorListArg(::planus::alloc::boxed::Box::new(
                        ::core::convert::TryFrom::try_from(value)?,
                    )),

                    ArgumentValueRef::OptionalTensorListArg(value) => Self::OptionalTensorListArg(
                        ::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?),
                    ),

                    ArgumentValueRef::GraphArg(value) => {
                        Self::GraphArg(::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?))
                    }
                })
            }
        }

        impl<'a> ::planus::TableReadUnion<'a> for ArgumentValueRef<'a> {
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                tag: u8,
                field_offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                match tag {
                    1 => ::core::result::Result::Ok(Self::TensorArg(::planus::TableRead::from_buffer(
                        buffer,
                        field_offset,
                    )?)),
                    2 => ::core::result::Result::Ok(Self::NoneArg(::planus::TableRead::from_buffer(
                        buffer,
                        field_offset,
                    )?)),
                    3 => ::core::result::Result::Ok(Self::IntArg(::planus::TableRead::from_buffer(
                        buffer,
                        field_offset,
                    )?)),
                    4 => ::core::result::Result::Ok(Self::FloatArg(::planus::TableRead::from_buffer(
                        buffer,
                        field_offset,
                    )?)),
                    5 => ::core::result::Result::Ok(Self::BoolArg(::planus::TableRead::from_buffer(
                        buffer,
                        field_offset,
                    )?)),
                    6 => ::core::result::Result::Ok(Self::StringArg(::planus::TableRead::from_buffer(
                        buffer,
                        field_offset,
                    )?)),
                    7 => ::core::result::Result::Ok(Self::ScalarTypeArg(::planus::TableRead::from_buffer(
                        buffer,
                        field_offset,
                    )?)),
                    8 => ::core::result::Result::Ok(Self::IntListArg(::planus::TableRead::from_buffer(
                        buffer,
                        field_offset,
                    )?)),
                    9 => ::core::result::Result::Ok(Self::FloatListArg(::planus::TableRead::from_buffer(
                        buffer,
                        field_offset,
                    )?)),
                    10 => ::core::result::Result::Ok(Self::BoolListArg(::planus::TableRead::from_buffer(
                        buffer,
                        field_offset,
                    )?)),
                    11 => ::core::result::Result::Ok(Self::TensorListArg(::planus::TableRead::from_buffer(
                        buffer,
                        field_offset,
                    )?)),
                    12 => ::core::result::Result::Ok(Self::OptionalTensorListArg(::planus::TableRead::from_buffer(
                        buffer,
                        field_offset,
                    )?)),
                    13 => ::core::result::Result::Ok(Self::GraphArg(::planus::TableRead::from_buffer(
                        buffer,
                        field_offset,
                    )?)),
                    _ => ::core::result::Result::Err(::planus::errors::ErrorKind::UnknownUnionTag { tag }),
                }
            }
        }

        impl<'a> ::planus::VectorReadUnion<'a> for ArgumentValueRef<'a> {
            const VECTOR_NAME: &'static str = "[ArgumentValueRef]";
        }

        /// The table `Argument` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `Argument` in the file `schema/native_graph.fbs:187`
        #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
        pub struct Argument {
            /// The field `value` in the table `Argument`
            pub value: ::core::option::Option<self::ArgumentValue>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for Argument {
            fn default() -> Self {
                Self { value: ::core::default::Default::default() }
            }
        }

        impl Argument {
            /// Creates a [ArgumentBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> ArgumentBuilder<()> {
                ArgumentBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_value: impl ::planus::WriteAsOptionalUnion<self::ArgumentValue>,
            ) -> ::planus::Offset<Self> {
                let prepared_value = field_value.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                if prepared_value.is_some() {
                    table_writer.write_entry::<::planus::Offset<self::ArgumentValue>>(1);
                }
                if prepared_value.is_some() {
                    table_writer.write_entry::<u8>(0);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        if let ::core::option::Option::Some(prepared_value) = prepared_value {
                            object_writer.write::<_, _, 4>(&prepared_value.offset());
                        }
                        if let ::core::option::Option::Some(prepared_value) = prepared_value {
                            object_writer.write::<_, _, 1>(&prepared_value.tag());
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<Argument>> for Argument {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Argument> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<Argument>> for Argument {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Argument>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<Argument> for Argument {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Argument> {
                Argument::create(builder, &self.value)
            }
        }

        /// Builder for serializing an instance of the [Argument] type.
        ///
        /// Can be created using the [Argument::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct ArgumentBuilder<State>(State);

        impl ArgumentBuilder<()> {
            /// Setter for the [`value` field](Argument#structfield.value).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn value<T0>(self, value: T0) -> ArgumentBuilder<(T0,)>
            where
                T0: ::planus::WriteAsOptionalUnion<self::ArgumentValue>,
            {
                ArgumentBuilder((value,))
            }

            /// Sets the [`value` field](Argument#structfield.value) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn value_as_null(self) -> ArgumentBuilder<((),)> {
                self.value(())
            }
        }

        impl<T0> ArgumentBuilder<(T0,)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Argument].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Argument>
            where
                Self: ::planus::WriteAsOffset<Argument>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<T0: ::planus::WriteAsOptionalUnion<self::ArgumentValue>> ::planus::WriteAs<::planus::Offset<Argument>>
            for ArgumentBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<Argument>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Argument> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<T0: ::planus::WriteAsOptionalUnion<self::ArgumentValue>>
            ::planus::WriteAsOptional<::planus::Offset<Argument>> for ArgumentBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<Argument>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Argument>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<T0: ::planus::WriteAsOptionalUnion<self::ArgumentValue>> ::planus::WriteAsOffset<Argument>
            for ArgumentBuilder<(T0,)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Argument> {
                let (v0,) = &self.0;
                Argument::create(builder, v0)
            }
        }

        /// Reference to a deserialized [Argument].
        #[derive(Copy, Clone)]
        pub struct ArgumentRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> ArgumentRef<'a> {
            /// Getter for the [`value` field](Argument#structfield.value).
            #[inline]
            pub fn value(&self) -> ::planus::Result<::core::option::Option<self::ArgumentValueRef<'a>>> {
                self.0.access_union(0, "Argument", "value")
            }
        }

        impl<'a> ::core::fmt::Debug for ArgumentRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("ArgumentRef");
                if let ::core::option::Option::Some(field_value) = self.value().transpose() {
                    f.field("value", &field_value);
                }
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<ArgumentRef<'a>> for Argument {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: ArgumentRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    value: if let ::core::option::Option::Some(value) = value.value()? {
                        ::core::option::Option::Some(::core::convert::TryInto::try_into(value)?)
                    } else {
                        ::core::option::Option::None
                    },
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for ArgumentRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for ArgumentRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[ArgumentRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<Argument>> for Argument {
            type Value = ::planus::Offset<Argument>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<Argument>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for ArgumentRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[ArgumentRef]", "read_as_root", 0))
            }
        }

        /// The table `NamedArgument` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `NamedArgument` in the file `schema/native_graph.fbs:192`
        #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
        pub struct NamedArgument {
            /// The field `name` in the table `NamedArgument`
            pub name: ::core::option::Option<::planus::alloc::string::String>,
            /// The field `arg` in the table `NamedArgument`
            pub arg: ::planus::alloc::boxed::Box<self::Argument>,
            /// The field `mutated` in the table `NamedArgument`
            pub mutated: bool,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for NamedArgument {
            fn default() -> Self {
                Self {
                    name: ::core::default::Default::default(),
                    arg: ::core::default::Default::default(),
                    mutated: false,
                }
            }
        }

        impl NamedArgument {
            /// Creates a [NamedArgumentBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> NamedArgumentBuilder<()> {
                NamedArgumentBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_name: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                field_arg: impl ::planus::WriteAs<::planus::Offset<self::Argument>>,
                field_mutated: impl ::planus::WriteAsDefault<bool, bool>,
            ) -> ::planus::Offset<Self> {
                let prepared_name = field_name.prepare(builder);
                let prepared_arg = field_arg.prepare(builder);
                let prepared_mutated = field_mutated.prepare(builder, &false);

                let mut table_writer: ::planus::table_writer::TableWriter<10> = ::core::default::Default::default();
                if prepared_name.is_some() {
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                }
                table_writer.write_entry::<::planus::Offset<self::Argument>>(1);
                if prepared_mutated.is_some() {
                    table_writer.write_entry::<bool>(2);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        if let ::core::option::Option::Some(prepared_name) = prepared_name {
                            object_writer.write::<_, _, 4>(&prepared_name);
                        }
                        object_writer.write::<_, _, 4>(&prepared_arg);
                        if let ::core::option::Option::Some(prepared_mutated) = prepared_mutated {
                            object_writer.write::<_, _, 1>(&prepared_mutated);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<NamedArgument>> for NamedArgument {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<NamedArgument> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<NamedArgument>> for NamedArgument {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<NamedArgument>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<NamedArgument> for NamedArgument {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<NamedArgument> {
                NamedArgument::create(builder, &self.name, &self.arg, self.mutated)
            }
        }

        /// Builder for serializing an instance of the [NamedArgument] type.
        ///
        /// Can be created using the [NamedArgument::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct NamedArgumentBuilder<State>(State);

        impl NamedArgumentBuilder<()> {
            /// Setter for the [`name` field](NamedArgument#structfield.name).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn name<T0>(self, value: T0) -> NamedArgumentBuilder<(T0,)>
            where
                T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            {
                NamedArgumentBuilder((value,))
            }

            /// Sets the [`name` field](NamedArgument#structfield.name) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn name_as_null(self) -> NamedArgumentBuilder<((),)> {
                self.name(())
            }
        }

        impl<T0> NamedArgumentBuilder<(T0,)> {
            /// Setter for the [`arg` field](NamedArgument#structfield.arg).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn arg<T1>(self, value: T1) -> NamedArgumentBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAs<::planus::Offset<self::Argument>>,
            {
                let (v0,) = self.0;
                NamedArgumentBuilder((v0, value))
            }
        }

        impl<T0, T1> NamedArgumentBuilder<(T0, T1)> {
            /// Setter for the [`mutated` field](NamedArgument#structfield.mutated).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn mutated<T2>(self, value: T2) -> NamedArgumentBuilder<(T0, T1, T2)>
            where
                T2: ::planus::WriteAsDefault<bool, bool>,
            {
                let (v0, v1) = self.0;
                NamedArgumentBuilder((v0, v1, value))
            }

            /// Sets the [`mutated` field](NamedArgument#structfield.mutated) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn mutated_as_default(self) -> NamedArgumentBuilder<(T0, T1, ::planus::DefaultValue)> {
                self.mutated(::planus::DefaultValue)
            }
        }

        impl<T0, T1, T2> NamedArgumentBuilder<(T0, T1, T2)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [NamedArgument].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<NamedArgument>
            where
                Self: ::planus::WriteAsOffset<NamedArgument>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                T1: ::planus::WriteAs<::planus::Offset<self::Argument>>,
                T2: ::planus::WriteAsDefault<bool, bool>,
            > ::planus::WriteAs<::planus::Offset<NamedArgument>> for NamedArgumentBuilder<(T0, T1, T2)>
        {
            type Prepared = ::planus::Offset<NamedArgument>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<NamedArgument> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                T1: ::planus::WriteAs<::planus::Offset<self::Argument>>,
                T2: ::planus::WriteAsDefault<bool, bool>,
            > ::planus::WriteAsOptional<::planus::Offset<NamedArgument>> for NamedArgumentBuilder<(T0, T1, T2)>
        {
            type Prepared = ::planus::Offset<NamedArgument>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<NamedArgument>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                T1: ::planus::WriteAs<::planus::Offset<self::Argument>>,
                T2: ::planus::WriteAsDefault<bool, bool>,
            > ::planus::WriteAsOffset<NamedArgument> for NamedArgumentBuilder<(T0, T1, T2)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<NamedArgument> {
                let (v0, v1, v2) = &self.0;
                NamedArgument::create(builder, v0, v1, v2)
            }
        }

        /// Reference to a deserialized [NamedArgument].
        #[derive(Copy, Clone)]
        pub struct NamedArgumentRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> NamedArgumentRef<'a> {
            /// Getter for the [`name` field](NamedArgument#structfield.name).
            #[inline]
            pub fn name(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                self.0.access(0, "NamedArgument", "name")
            }

            /// Getter for the [`arg` field](NamedArgument#structfield.arg).
            #[inline]
            pub fn arg(&self) -> ::planus::Result<self::ArgumentRef<'a>> {
                self.0.access_required(1, "NamedArgument", "arg")
            }

            /// Getter for the [`mutated` field](NamedArgument#structfield.mutated).
            #[inline]
            pub fn mutated(&self) -> ::planus::Result<bool> {
                ::core::result::Result::Ok(self.0.access(2, "NamedArgument", "mutated")?.unwrap_or(false))
            }
        }

        impl<'a> ::core::fmt::Debug for NamedArgumentRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("NamedArgumentRef");
                if let ::core::option::Option::Some(field_name) = self.name().transpose() {
                    f.field("name", &field_name);
                }
                f.field("arg", &self.arg());
                f.field("mutated", &self.mutated());
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<NamedArgumentRef<'a>> for NamedArgument {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: NamedArgumentRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    name: value.name()?.map(::core::convert::Into::into),
                    arg: ::planus::alloc::boxed::Box::new(::core::convert::TryInto::try_into(value.arg()?)?),
                    mutated: ::core::convert::TryInto::try_into(value.mutated()?)?,
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for NamedArgumentRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for NamedArgumentRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[NamedArgumentRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<NamedArgument>> for NamedArgument {
            type Value = ::planus::Offset<NamedArgument>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<NamedArgument>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for NamedArgumentRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[NamedArgumentRef]", "read_as_root", 0))
            }
        }

        /// The table `KeyValue` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `KeyValue` in the file `schema/native_graph.fbs:198`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct KeyValue {
            /// The field `key` in the table `KeyValue`
            pub key: ::planus::alloc::string::String,
            /// The field `value` in the table `KeyValue`
            pub value: ::planus::alloc::string::String,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for KeyValue {
            fn default() -> Self {
                Self { key: ::core::default::Default::default(), value: ::core::default::Default::default() }
            }
        }

        impl KeyValue {
            /// Creates a [KeyValueBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> KeyValueBuilder<()> {
                KeyValueBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_key: impl ::planus::WriteAs<::planus::Offset<str>>,
                field_value: impl ::planus::WriteAs<::planus::Offset<str>>,
            ) -> ::planus::Offset<Self> {
                let prepared_key = field_key.prepare(builder);
                let prepared_value = field_value.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                table_writer.write_entry::<::planus::Offset<str>>(0);
                table_writer.write_entry::<::planus::Offset<str>>(1);

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        object_writer.write::<_, _, 4>(&prepared_key);
                        object_writer.write::<_, _, 4>(&prepared_value);
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<KeyValue>> for KeyValue {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<KeyValue> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<KeyValue>> for KeyValue {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<KeyValue>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<KeyValue> for KeyValue {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<KeyValue> {
                KeyValue::create(builder, &self.key, &self.value)
            }
        }

        /// Builder for serializing an instance of the [KeyValue] type.
        ///
        /// Can be created using the [KeyValue::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct KeyValueBuilder<State>(State);

        impl KeyValueBuilder<()> {
            /// Setter for the [`key` field](KeyValue#structfield.key).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn key<T0>(self, value: T0) -> KeyValueBuilder<(T0,)>
            where
                T0: ::planus::WriteAs<::planus::Offset<str>>,
            {
                KeyValueBuilder((value,))
            }
        }

        impl<T0> KeyValueBuilder<(T0,)> {
            /// Setter for the [`value` field](KeyValue#structfield.value).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn value<T1>(self, value: T1) -> KeyValueBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAs<::planus::Offset<str>>,
            {
                let (v0,) = self.0;
                KeyValueBuilder((v0, value))
            }
        }

        impl<T0, T1> KeyValueBuilder<(T0, T1)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [KeyValue].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<KeyValue>
            where
                Self: ::planus::WriteAsOffset<KeyValue>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<str>>, T1: ::planus::WriteAs<::planus::Offset<str>>>
            ::planus::WriteAs<::planus::Offset<KeyValue>> for KeyValueBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<KeyValue>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<KeyValue> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<str>>, T1: ::planus::WriteAs<::planus::Offset<str>>>
            ::planus::WriteAsOptional<::planus::Offset<KeyValue>> for KeyValueBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<KeyValue>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<KeyValue>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<str>>, T1: ::planus::WriteAs<::planus::Offset<str>>>
            ::planus::WriteAsOffset<KeyValue> for KeyValueBuilder<(T0, T1)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<KeyValue> {
                let (v0, v1) = &self.0;
                KeyValue::create(builder, v0, v1)
            }
        }

        /// Reference to a deserialized [KeyValue].
        #[derive(Copy, Clone)]
        pub struct KeyValueRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> KeyValueRef<'a> {
            /// Getter for the [`key` field](KeyValue#structfield.key).
            #[inline]
            pub fn key(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                self.0.access_required(0, "KeyValue", "key")
            }

            /// Getter for the [`value` field](KeyValue#structfield.value).
            #[inline]
            pub fn value(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                self.0.access_required(1, "KeyValue", "value")
            }
        }

        impl<'a> ::core::fmt::Debug for KeyValueRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("KeyValueRef");
                f.field("key", &self.key());
                f.field("value", &self.value());
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<KeyValueRef<'a>> for KeyValue {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: KeyValueRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    key: ::core::convert::Into::into(value.key()?),
                    value: ::core::convert::Into::into(value.value()?),
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for KeyValueRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for KeyValueRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[KeyValueRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<KeyValue>> for KeyValue {
            type Value = ::planus::Offset<KeyValue>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<KeyValue>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for KeyValueRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[KeyValueRef]", "read_as_root", 0))
            }
        }

        /// The table `Output` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `Output` in the file `schema/native_graph.fbs:203`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct Output {
            /// The field `name` in the table `Output`
            pub name: ::planus::alloc::string::String,
            /// The field `alias_of` in the table `Output`
            pub alias_of: ::core::option::Option<::planus::alloc::string::String>,
            /// The field `kind` in the table `Output`
            pub kind: self::OutputValueKind,
            /// The field `names` in the table `Output`
            pub names: ::core::option::Option<::planus::alloc::vec::Vec<::planus::alloc::string::String>>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for Output {
            fn default() -> Self {
                Self {
                    name: ::core::default::Default::default(),
                    alias_of: ::core::default::Default::default(),
                    kind: self::OutputValueKind::Tensor,
                    names: ::core::default::Default::default(),
                }
            }
        }

        impl Output {
            /// Creates a [OutputBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> OutputBuilder<()> {
                OutputBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_name: impl ::planus::WriteAs<::planus::Offset<str>>,
                field_alias_of: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                field_kind: impl ::planus::WriteAsDefault<self::OutputValueKind, self::OutputValueKind>,
                field_names: impl ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<str>]>>,
            ) -> ::planus::Offset<Self> {
                let prepared_name = field_name.prepare(builder);
                let prepared_alias_of = field_alias_of.prepare(builder);
                let prepared_kind = field_kind.prepare(builder, &self::OutputValueKind::Tensor);
                let prepared_names = field_names.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<12> = ::core::default::Default::default();
                table_writer.write_entry::<::planus::Offset<str>>(0);
                if prepared_alias_of.is_some() {
                    table_writer.write_entry::<::planus::Offset<str>>(1);
                }
                if prepared_names.is_some() {
                    table_writer.write_entry::<::planus::Offset<[::planus::Offset<str>]>>(3);
                }
                if prepared_kind.is_some() {
                    table_writer.write_entry::<self::OutputValueKind>(2);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        object_writer.write::<_, _, 4>(&prepared_name);
                        if let ::core::option::Option::Some(prepared_alias_of) = prepared_alias_of {
                            object_writer.write::<_, _, 4>(&prepared_alias_of);
                        }
                        if let ::core::option::Option::Some(prepared_names) = prepared_names {
                            object_writer.write::<_, _, 4>(&prepared_names);
                        }
                        if let ::core::option::Option::Some(prepared_kind) = prepared_kind {
                            object_writer.write::<_, _, 1>(&prepared_kind);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<Output>> for Output {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Output> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<Output>> for Output {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Output>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<Output> for Output {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Output> {
                Output::create(builder, &self.name, &self.alias_of, self.kind, &self.names)
            }
        }

        /// Builder for serializing an instance of the [Output] type.
        ///
        /// Can be created using the [Output::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct OutputBuilder<State>(State);

        impl OutputBuilder<()> {
            /// Setter for the [`name` field](Output#structfield.name).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn name<T0>(self, value: T0) -> OutputBuilder<(T0,)>
            where
                T0: ::planus::WriteAs<::planus::Offset<str>>,
            {
                OutputBuilder((value,))
            }
        }

        impl<T0> OutputBuilder<(T0,)> {
            /// Setter for the [`alias_of` field](Output#structfield.alias_of).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn alias_of<T1>(self, value: T1) -> OutputBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            {
                let (v0,) = self.0;
                OutputBuilder((v0, value))
            }

            /// Sets the [`alias_of` field](Output#structfield.alias_of) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn alias_of_as_null(self) -> OutputBuilder<(T0, ())> {
                self.alias_of(())
            }
        }

        impl<T0, T1> OutputBuilder<(T0, T1)> {
            /// Setter for the [`kind` field](Output#structfield.kind).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn kind<T2>(self, value: T2) -> OutputBuilder<(T0, T1, T2)>
            where
                T2: ::planus::WriteAsDefault<self::OutputValueKind, self::OutputValueKind>,
            {
                let (v0, v1) = self.0;
                OutputBuilder((v0, v1, value))
            }

            /// Sets the [`kind` field](Output#structfield.kind) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn kind_as_default(self) -> OutputBuilder<(T0, T1, ::planus::DefaultValue)> {
                self.kind(::planus::DefaultValue)
            }
        }

        impl<T0, T1, T2> OutputBuilder<(T0, T1, T2)> {
            /// Setter for the [`names` field](Output#structfield.names).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn names<T3>(self, value: T3) -> OutputBuilder<(T0, T1, T2, T3)>
            where
                T3: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<str>]>>,
            {
                let (v0, v1, v2) = self.0;
                OutputBuilder((v0, v1, v2, value))
            }

            /// Sets the [`names` field](Output#structfield.names) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn names_as_null(self) -> OutputBuilder<(T0, T1, T2, ())> {
                self.names(())
            }
        }

        impl<T0, T1, T2, T3> OutputBuilder<(T0, T1, T2, T3)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Output].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Output>
            where
                Self: ::planus::WriteAsOffset<Output>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<str>>,
                T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                T2: ::planus::WriteAsDefault<self::OutputValueKind, self::OutputValueKind>,
                T3: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<str>]>>,
            > ::planus::WriteAs<::planus::Offset<Output>> for OutputBuilder<(T0, T1, T2, T3)>
        {
            type Prepared = ::planus::Offset<Output>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Output> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<str>>,
                T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                T2: ::planus::WriteAsDefault<self::OutputValueKind, self::OutputValueKind>,
                T3: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<str>]>>,
            > ::planus::WriteAsOptional<::planus::Offset<Output>> for OutputBuilder<(T0, T1, T2, T3)>
        {
            type Prepared = ::planus::Offset<Output>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Output>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<str>>,
                T1: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                T2: ::planus::WriteAsDefault<self::OutputValueKind, self::OutputValueKind>,
                T3: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<str>]>>,
            > ::planus::WriteAsOffset<Output> for OutputBuilder<(T0, T1, T2, T3)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Output> {
                let (v0, v1, v2, v3) = &self.0;
                Output::create(builder, v0, v1, v2, v3)
            }
        }

        /// Reference to a deserialized [Output].
        #[derive(Copy, Clone)]
        pub struct OutputRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> OutputRef<'a> {
            /// Getter for the [`name` field](Output#structfield.name).
            #[inline]
            pub fn name(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                self.0.access_required(0, "Output", "name")
            }

            /// Getter for the [`alias_of` field](Output#structfield.alias_of).
            #[inline]
            pub fn alias_of(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                self.0.access(1, "Output", "alias_of")
            }

            /// Getter for the [`kind` field](Output#structfield.kind).
            #[inline]
            pub fn kind(&self) -> ::planus::Result<self::OutputValueKind> {
                ::core::result::Result::Ok(self.0.access(2, "Output", "kind")?.unwrap_or(self::OutputValueKind::Tensor))
            }

            /// Getter for the [`names` field](Output#structfield.names).
            #[inline]
            pub fn names(
                &self,
            ) -> ::planus::Result<
                ::core::option::Option<::planus::Vector<'a, ::planus::Result<&'a ::core::primitive::str>>>,
            > {
                self.0.access(3, "Output", "names")
            }
        }

        impl<'a> ::core::fmt::Debug for OutputRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("OutputRef");
                f.field("name", &self.name());
                if let ::core::option::Option::Some(field_alias_of) = self.alias_of().transpose() {
                    f.field("alias_of", &field_alias_of);
                }
                f.field("kind", &self.kind());
                if let ::core::option::Option::Some(field_names) = self.names().transpose() {
                    f.field("names", &field_names);
                }
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<OutputRef<'a>> for Output {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: OutputRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    name: ::core::convert::Into::into(value.name()?),
                    alias_of: value.alias_of()?.map(::core::convert::Into::into),
                    kind: ::core::convert::TryInto::try_into(value.kind()?)?,
                    names: if let ::core::option::Option::Some(names) = value.names()? {
                        ::core::option::Option::Some(names.to_vec_result()?)
                    } else {
                        ::core::option::Option::None
                    },
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for OutputRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for OutputRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[OutputRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<Output>> for Output {
            type Value = ::planus::Offset<Output>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<Output>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for OutputRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[OutputRef]", "read_as_root", 0))
            }
        }

        /// The table `Node` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `Node` in the file `schema/native_graph.fbs:210`
        #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
        pub struct Node {
            /// The field `name` in the table `Node`
            pub name: ::planus::alloc::string::String,
            /// The field `op_kind` in the table `Node`
            pub op_kind: self::OpKind,
            /// The field `target` in the table `Node`
            pub target: ::core::option::Option<::planus::alloc::string::String>,
            /// The field `inputs` in the table `Node`
            pub inputs: ::core::option::Option<::planus::alloc::vec::Vec<self::NamedArgument>>,
            /// The field `outputs` in the table `Node`
            pub outputs: ::core::option::Option<::planus::alloc::vec::Vec<self::Output>>,
            /// The field `metadata` in the table `Node`
            pub metadata: ::core::option::Option<::planus::alloc::vec::Vec<self::KeyValue>>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for Node {
            fn default() -> Self {
                Self {
                    name: ::core::default::Default::default(),
                    op_kind: self::OpKind::CallFunction,
                    target: ::core::default::Default::default(),
                    inputs: ::core::default::Default::default(),
                    outputs: ::core::default::Default::default(),
                    metadata: ::core::default::Default::default(),
                }
            }
        }

        impl Node {
            /// Creates a [NodeBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> NodeBuilder<()> {
                NodeBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_name: impl ::planus::WriteAs<::planus::Offset<str>>,
                field_op_kind: impl ::planus::WriteAsDefault<self::OpKind, self::OpKind>,
                field_target: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                field_inputs: impl ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::NamedArgument>]>>,
                field_outputs: impl ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Output>]>>,
                field_metadata: impl ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::KeyValue>]>>,
            ) -> ::planus::Offset<Self> {
                let prepared_name = field_name.prepare(builder);
                let prepared_op_kind = field_op_kind.prepare(builder, &self::OpKind::CallFunction);
                let prepared_target = field_target.prepare(builder);
                let prepared_inputs = field_inputs.prepare(builder);
                let prepared_outputs = field_outputs.prepare(builder);
                let prepared_metadata = field_metadata.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<16> = ::core::default::Default::default();
                table_writer.write_entry::<::planus::Offset<str>>(0);
                if prepared_target.is_some() {
                    table_writer.write_entry::<::planus::Offset<str>>(2);
                }
                if prepared_inputs.is_some() {
                    table_writer.write_entry::<::planus::Offset<[::planus::Offset<self::NamedArgument>]>>(3);
                }
                if prepared_outputs.is_some() {
                    table_writer.write_entry::<::planus::Offset<[::planus::Offset<self::Output>]>>(4);
                }
                if prepared_metadata.is_some() {
                    table_writer.write_entry::<::planus::Offset<[::planus::Offset<self::KeyValue>]>>(5);
                }
                if prepared_op_kind.is_some() {
                    table_writer.write_entry::<self::OpKind>(1);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        object_writer.write::<_, _, 4>(&prepared_name);
                        if let ::core::option::Option::Some(prepared_target) = prepared_target {
                            object_writer.write::<_, _, 4>(&prepared_target);
                        }
                        if let ::core::option::Option::Some(prepared_inputs) = prepared_inputs {
                            object_writer.write::<_, _, 4>(&prepared_inputs);
                        }
                        if let ::core::option::Option::Some(prepared_outputs) = prepared_outputs {
                            object_writer.write::<_, _, 4>(&prepared_outputs);
                        }
                        if let ::core::option::Option::Some(prepared_metadata) = prepared_metadata {
                            object_writer.write::<_, _, 4>(&prepared_metadata);
                        }
                        if let ::core::option::Option::Some(prepared_op_kind) = prepared_op_kind {
                            object_writer.write::<_, _, 1>(&prepared_op_kind);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<Node>> for Node {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Node> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<Node>> for Node {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Node>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<Node> for Node {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Node> {
                Node::create(
                    builder,
                    &self.name,
                    self.op_kind,
                    &self.target,
                    &self.inputs,
                    &self.outputs,
                    &self.metadata,
                )
            }
        }

        /// Builder for serializing an instance of the [Node] type.
        ///
        /// Can be created using the [Node::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct NodeBuilder<State>(State);

        impl NodeBuilder<()> {
            /// Setter for the [`name` field](Node#structfield.name).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn name<T0>(self, value: T0) -> NodeBuilder<(T0,)>
            where
                T0: ::planus::WriteAs<::planus::Offset<str>>,
            {
                NodeBuilder((value,))
            }
        }

        impl<T0> NodeBuilder<(T0,)> {
            /// Setter for the [`op_kind` field](Node#structfield.op_kind).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn op_kind<T1>(self, value: T1) -> NodeBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAsDefault<self::OpKind, self::OpKind>,
            {
                let (v0,) = self.0;
                NodeBuilder((v0, value))
            }

            /// Sets the [`op_kind` field](Node#structfield.op_kind) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn op_kind_as_default(self) -> NodeBuilder<(T0, ::planus::DefaultValue)> {
                self.op_kind(::planus::DefaultValue)
            }
        }

        impl<T0, T1> NodeBuilder<(T0, T1)> {
            /// Setter for the [`target` field](Node#structfield.target).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn target<T2>(self, value: T2) -> NodeBuilder<(T0, T1, T2)>
            where
                T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            {
                let (v0, v1) = self.0;
                NodeBuilder((v0, v1, value))
            }

            /// Sets the [`target` field](Node#structfield.target) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn target_as_null(self) -> NodeBuilder<(T0, T1, ())> {
                self.target(())
            }
        }

        impl<T0, T1, T2> NodeBuilder<(T0, T1, T2)> {
            /// Setter for the [`inputs` field](Node#structfield.inputs).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn inputs<T3>(self, value: T3) -> NodeBuilder<(T0, T1, T2, T3)>
            where
                T3: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::NamedArgument>]>>,
            {
                let (v0, v1, v2) = self.0;
                NodeBuilder((v0, v1, v2, value))
            }

            /// Sets the [`inputs` field](Node#structfield.inputs) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn inputs_as_null(self) -> NodeBuilder<(T0, T1, T2, ())> {
                self.inputs(())
            }
        }

        impl<T0, T1, T2, T3> NodeBuilder<(T0, T1, T2, T3)> {
            /// Setter for the [`outputs` field](Node#structfield.outputs).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn outputs<T4>(self, value: T4) -> NodeBuilder<(T0, T1, T2, T3, T4)>
            where
                T4: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Output>]>>,
            {
                let (v0, v1, v2, v3) = self.0;
                NodeBuilder((v0, v1, v2, v3, value))
            }

            /// Sets the [`outputs` field](Node#structfield.outputs) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn outputs_as_null(self) -> NodeBuilder<(T0, T1, T2, T3, ())> {
                self.outputs(())
            }
        }

        impl<T0, T1, T2, T3, T4> NodeBuilder<(T0, T1, T2, T3, T4)> {
            /// Setter for the [`metadata` field](Node#structfield.metadata).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn metadata<T5>(self, value: T5) -> NodeBuilder<(T0, T1, T2, T3, T4, T5)>
            where
                T5: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::KeyValue>]>>,
            {
                let (v0, v1, v2, v3, v4) = self.0;
                NodeBuilder((v0, v1, v2, v3, v4, value))
            }

            /// Sets the [`metadata` field](Node#structfield.metadata) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn metadata_as_null(self) -> NodeBuilder<(T0, T1, T2, T3, T4, ())> {
                self.metadata(())
            }
        }

        impl<T0, T1, T2, T3, T4, T5> NodeBuilder<(T0, T1, T2, T3, T4, T5)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Node].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Node>
            where
                Self: ::planus::WriteAsOffset<Node>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<str>>,
                T1: ::planus::WriteAsDefault<self::OpKind, self::OpKind>,
                T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                T3: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::NamedArgument>]>>,
                T4: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Output>]>>,
                T5: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::KeyValue>]>>,
            > ::planus::WriteAs<::planus::Offset<Node>> for NodeBuilder<(T0, T1, T2, T3, T4, T5)>
        {
            type Prepared = ::planus::Offset<Node>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Node> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<str>>,
                T1: ::planus::WriteAsDefault<self::OpKind, self::OpKind>,
                T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                T3: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::NamedArgument>]>>,
                T4: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Output>]>>,
                T5: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::KeyValue>]>>,
            > ::planus::WriteAsOptional<::planus::Offset<Node>> for NodeBuilder<(T0, T1, T2, T3, T4, T5)>
        {
            type Prepared = ::planus::Offset<Node>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Node>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<str>>,
                T1: ::planus::WriteAsDefault<self::OpKind, self::OpKind>,
                T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                T3: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::NamedArgument>]>>,
                T4: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Output>]>>,
                T5: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::KeyValue>]>>,
            > ::planus::WriteAsOffset<Node> for NodeBuilder<(T0, T1, T2, T3, T4, T5)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Node> {
                let (v0, v1, v2, v3, v4, v5) = &self.0;
                Node::create(builder, v0, v1, v2, v3, v4, v5)
            }
        }

        /// Reference to a deserialized [Node].
        #[derive(Copy, Clone)]
        pub struct NodeRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> NodeRef<'a> {
            /// Getter for the [`name` field](Node#structfield.name).
            #[inline]
            pub fn name(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                self.0.access_required(0, "Node", "name")
            }

            /// Getter for the [`op_kind` field](Node#structfield.op_kind).
            #[inline]
            pub fn op_kind(&self) -> ::planus::Result<self::OpKind> {
                ::core::result::Result::Ok(self.0.access(1, "Node", "op_kind")?.unwrap_or(self::OpKind::CallFunction))
            }

            /// Getter for the [`target` field](Node#structfield.target).
            #[inline]
            pub fn target(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                self.0.access(2, "Node", "target")
            }

            /// Getter for the [`inputs` field](Node#structfield.inputs).
            #[inline]
            pub fn inputs(
                &self,
            ) -> ::planus::Result<
                ::core::option::Option<::planus::Vector<'a, ::planus::Result<self::NamedArgumentRef<'a>>>>,
            > {
                self.0.access(3, "Node", "inputs")
            }

            /// Getter for the [`outputs` field](Node#structfield.outputs).
            #[inline]
            pub fn outputs(
                &self,
            ) -> ::planus::Result<::core::option::Option<::planus::Vector<'a, ::planus::Result<self::OutputRef<'a>>>>>
            {
                self.0.access(4, "Node", "outputs")
            }

            /// Getter for the [`metadata` field](Node#structfield.metadata).
            #[inline]
            pub fn metadata(
                &self,
            ) -> ::planus::Result<::core::option::Option<::planus::Vector<'a, ::planus::Result<self::KeyValueRef<'a>>>>>
            {
                self.0.access(5, "Node", "metadata")
            }
        }

        impl<'a> ::core::fmt::Debug for NodeRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("NodeRef");
                f.field("name", &self.name());
                f.field("op_kind", &self.op_kind());
                if let ::core::option::Option::Some(field_target) = self.target().transpose() {
                    f.field("target", &field_target);
                }
                if let ::core::option::Option::Some(field_inputs) = self.inputs().transpose() {
                    f.field("inputs", &field_inputs);
                }
                if let ::core::option::Option::Some(field_outputs) = self.outputs().transpose() {
                    f.field("outputs", &field_outputs);
                }
                if let ::core::option::Option::Some(field_metadata) = self.metadata().transpose() {
                    f.field("metadata", &field_metadata);
                }
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<NodeRef<'a>> for Node {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: NodeRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    name: ::core::convert::Into::into(value.name()?),
                    op_kind: ::core::convert::TryInto::try_into(value.op_kind()?)?,
                    target: value.target()?.map(::core::convert::Into::into),
                    inputs: if let ::core::option::Option::Some(inputs) = value.inputs()? {
                        ::core::option::Option::Some(inputs.to_vec_result()?)
                    } else {
                        ::core::option::Option::None
                    },
                    outputs: if let ::core::option::Option::Some(outputs) = value.outputs()? {
                        ::core::option::Option::Some(outputs.to_vec_result()?)
                    } else {
                        ::core::option::Option::None
                    },
                    metadata: if let ::core::option::Option::Some(metadata) = value.metadata()? {
                        ::core::option::Option::Some(metadata.to_vec_result()?)
                    } else {
                        ::core::option::Option::None
                    },
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for NodeRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for NodeRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset)
                    .map_err(|error_kind| error_kind.with_error_location("[NodeRef]", "get", buffer.offset_from_start))
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<Node>> for Node {
            type Value = ::planus::Offset<Node>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<Node>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for NodeRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[NodeRef]", "read_as_root", 0))
            }
        }

        /// The table `NamedTensorRef` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `NamedTensorRef` in the file `schema/native_graph.fbs:220`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct NamedTensorRef {
            /// The field `name` in the table `NamedTensorRef`
            pub name: ::planus::alloc::string::String,
            /// The field `data_key` in the table `NamedTensorRef`
            pub data_key: ::planus::alloc::string::String,
            /// The field `meta` in the table `NamedTensorRef`
            pub meta: ::planus::alloc::boxed::Box<self::TensorMeta>,
            /// The field `kind` in the table `NamedTensorRef`
            pub kind: self::InputKind,
            /// The field `mutated` in the table `NamedTensorRef`
            pub mutated: bool,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for NamedTensorRef {
            fn default() -> Self {
                Self {
                    name: ::core::default::Default::default(),
                    data_key: ::core::default::Default::default(),
                    meta: ::core::default::Default::default(),
                    kind: self::InputKind::UserInput,
                    mutated: false,
                }
            }
        }

        impl NamedTensorRef {
            /// Creates a [NamedTensorRefBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> NamedTensorRefBuilder<()> {
                NamedTensorRefBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_name: impl ::planus::WriteAs<::planus::Offset<str>>,
                field_data_key: impl ::planus::WriteAs<::planus::Offset<str>>,
                field_meta: impl ::planus::WriteAs<::planus::Offset<self::TensorMeta>>,
                field_kind: impl ::planus::WriteAsDefault<self::InputKind, self::InputKind>,
                field_mutated: impl ::planus::WriteAsDefault<bool, bool>,
            ) -> ::planus::Offset<Self> {
                let prepared_name = field_name.prepare(builder);
                let prepared_data_key = field_data_key.prepare(builder);
                let prepared_meta = field_meta.prepare(builder);
                let prepared_kind = field_kind.prepare(builder, &self::InputKind::UserInput);
                let prepared_mutated = field_mutated.prepare(builder, &false);

                let mut table_writer: ::planus::table_writer::TableWriter<14> = ::core::default::Default::default();
                table_writer.write_entry::<::planus::Offset<str>>(0);
                table_writer.write_entry::<::planus::Offset<str>>(1);
                table_writer.write_entry::<::planus::Offset<self::TensorMeta>>(2);
                if prepared_kind.is_some() {
                    table_writer.write_entry::<self::InputKind>(3);
                }
                if prepared_mutated.is_some() {
                    table_writer.write_entry::<bool>(4);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        object_writer.write::<_, _, 4>(&prepared_name);
                        object_writer.write::<_, _, 4>(&prepared_data_key);
                        object_writer.write::<_, _, 4>(&prepared_meta);
                        if let ::core::option::Option::Some(prepared_kind) = prepared_kind {
                            object_writer.write::<_, _, 1>(&prepared_kind);
                        }
                        if let ::core::option::Option::Some(prepared_mutated) = prepared_mutated {
                            object_writer.write::<_, _, 1>(&prepared_mutated);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<NamedTensorRef>> for NamedTensorRef {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<NamedTensorRef> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<NamedTensorRef>> for NamedTensorRef {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<NamedTensorRef>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<NamedTensorRef> for NamedTensorRef {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<NamedTensorRef> {
                NamedTensorRef::create(builder, &self.name, &self.data_key, &self.meta, self.kind, self.mutated)
            }
        }

        /// Builder for serializing an instance of the [NamedTensorRef] type.
        ///
        /// Can be created using the [NamedTensorRef::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct NamedTensorRefBuilder<State>(State);

        impl NamedTensorRefBuilder<()> {
            /// Setter for the [`name` field](NamedTensorRef#structfield.name).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn name<T0>(self, value: T0) -> NamedTensorRefBuilder<(T0,)>
            where
                T0: ::planus::WriteAs<::planus::Offset<str>>,
            {
                NamedTensorRefBuilder((value,))
            }
        }

        impl<T0> NamedTensorRefBuilder<(T0,)> {
            /// Setter for the [`data_key` field](NamedTensorRef#structfield.data_key).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn data_key<T1>(self, value: T1) -> NamedTensorRefBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAs<::planus::Offset<str>>,
            {
                let (v0,) = self.0;
                NamedTensorRefBuilder((v0, value))
            }
        }

        impl<T0, T1> NamedTensorRefBuilder<(T0, T1)> {
            /// Setter for the [`meta` field](NamedTensorRef#structfield.meta).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn meta<T2>(self, value: T2) -> NamedTensorRefBuilder<(T0, T1, T2)>
            where
                T2: ::planus::WriteAs<::planus::Offset<self::TensorMeta>>,
            {
                let (v0, v1) = self.0;
                NamedTensorRefBuilder((v0, v1, value))
            }
        }

        impl<T0, T1, T2> NamedTensorRefBuilder<(T0, T1, T2)> {
            /// Setter for the [`kind` field](NamedTensorRef#structfield.kind).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn kind<T3>(self, value: T3) -> NamedTensorRefBuilder<(T0, T1, T2, T3)>
            where
                T3: ::planus::WriteAsDefault<self::InputKind, self::InputKind>,
            {
                let (v0, v1, v2) = self.0;
                NamedTensorRefBuilder((v0, v1, v2, value))
            }

            /// Sets the [`kind` field](NamedTensorRef#structfield.kind) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn kind_as_default(self) -> NamedTensorRefBuilder<(T0, T1, T2, ::planus::DefaultValue)> {
                self.kind(::planus::DefaultValue)
            }
        }

        impl<T0, T1, T2, T3> NamedTensorRefBuilder<(T0, T1, T2, T3)> {
            /// Setter for the [`mutated` field](NamedTensorRef#structfield.mutated).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn mutated<T4>(self, value: T4) -> NamedTensorRefBuilder<(T0, T1, T2, T3, T4)>
            where
                T4: ::planus::WriteAsDefault<bool, bool>,
            {
                let (v0, v1, v2, v3) = self.0;
                NamedTensorRefBuilder((v0, v1, v2, v3, value))
            }

            /// Sets the [`mutated` field](NamedTensorRef#structfield.mutated) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn mutated_as_default(self) -> NamedTensorRefBuilder<(T0, T1, T2, T3, ::planus::DefaultValue)> {
                self.mutated(::planus::DefaultValue)
            }
        }

        impl<T0, T1, T2, T3, T4> NamedTensorRefBuilder<(T0, T1, T2, T3, T4)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [NamedTensorRef].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<NamedTensorRef>
            where
                Self: ::planus::WriteAsOffset<NamedTensorRef>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<str>>,
                T1: ::planus::WriteAs<::planus::Offset<str>>,
                T2: ::planus::WriteAs<::planus::Offset<self::TensorMeta>>,
                T3: ::planus::WriteAsDefault<self::InputKind, self::InputKind>,
                T4: ::planus::WriteAsDefault<bool, bool>,
            > ::planus::WriteAs<::planus::Offset<NamedTensorRef>> for NamedTensorRefBuilder<(T0, T1, T2, T3, T4)>
        {
            type Prepared = ::planus::Offset<NamedTensorRef>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<NamedTensorRef> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<str>>,
                T1: ::planus::WriteAs<::planus::Offset<str>>,
                T2: ::planus::WriteAs<::planus::Offset<self::TensorMeta>>,
                T3: ::planus::WriteAsDefault<self::InputKind, self::InputKind>,
                T4: ::planus::WriteAsDefault<bool, bool>,
            > ::planus::WriteAsOptional<::planus::Offset<NamedTensorRef>>
            for NamedTensorRefBuilder<(T0, T1, T2, T3, T4)>
        {
            type Prepared = ::planus::Offset<NamedTensorRef>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<NamedTensorRef>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<str>>,
                T1: ::planus::WriteAs<::planus::Offset<str>>,
                T2: ::planus::WriteAs<::planus::Offset<self::TensorMeta>>,
                T3: ::planus::WriteAsDefault<self::InputKind, self::InputKind>,
                T4: ::planus::WriteAsDefault<bool, bool>,
            > ::planus::WriteAsOffset<NamedTensorRef> for NamedTensorRefBuilder<(T0, T1, T2, T3, T4)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<NamedTensorRef> {
                let (v0, v1, v2, v3, v4) = &self.0;
                NamedTensorRef::create(builder, v0, v1, v2, v3, v4)
            }
        }

        /// Reference to a deserialized [NamedTensorRef].
        #[derive(Copy, Clone)]
        pub struct NamedTensorRefRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> NamedTensorRefRef<'a> {
            /// Getter for the [`name` field](NamedTensorRef#structfield.name).
            #[inline]
            pub fn name(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                self.0.access_required(0, "NamedTensorRef", "name")
            }

            /// Getter for the [`data_key` field](NamedTensorRef#structfield.data_key).
            #[inline]
            pub fn data_key(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                self.0.access_required(1, "NamedTensorRef", "data_key")
            }

            /// Getter for the [`meta` field](NamedTensorRef#structfield.meta).
            #[inline]
            pub fn meta(&self) -> ::planus::Result<self::TensorMetaRef<'a>> {
                self.0.access_required(2, "NamedTensorRef", "meta")
            }

            /// Getter for the [`kind` field](NamedTensorRef#structfield.kind).
            #[inline]
            pub fn kind(&self) -> ::planus::Result<self::InputKind> {
                ::core::result::Result::Ok(
                    self.0.access(3, "NamedTensorRef", "kind")?.unwrap_or(self::InputKind::UserInput),
                )
            }

            /// Getter for the [`mutated` field](NamedTensorRef#structfield.mutated).
            #[inline]
            pub fn mutated(&self) -> ::planus::Result<bool> {
                ::core::result::Result::Ok(self.0.access(4, "NamedTensorRef", "mutated")?.unwrap_or(false))
            }
        }

        impl<'a> ::core::fmt::Debug for NamedTensorRefRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("NamedTensorRefRef");
                f.field("name", &self.name());
                f.field("data_key", &self.data_key());
                f.field("meta", &self.meta());
                f.field("kind", &self.kind());
                f.field("mutated", &self.mutated());
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<NamedTensorRefRef<'a>> for NamedTensorRef {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: NamedTensorRefRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    name: ::core::convert::Into::into(value.name()?),
                    data_key: ::core::convert::Into::into(value.data_key()?),
                    meta: ::planus::alloc::boxed::Box::new(::core::convert::TryInto::try_into(value.meta()?)?),
                    kind: ::core::convert::TryInto::try_into(value.kind()?)?,
                    mutated: ::core::convert::TryInto::try_into(value.mutated()?)?,
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for NamedTensorRefRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for NamedTensorRefRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[NamedTensorRefRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<NamedTensorRef>> for NamedTensorRef {
            type Value = ::planus::Offset<NamedTensorRef>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<NamedTensorRef>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for NamedTensorRefRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[NamedTensorRefRef]", "read_as_root", 0))
            }
        }

        /// The table `OutputSpec` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `OutputSpec` in the file `schema/native_graph.fbs:228`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct OutputSpec {
            /// The field `name` in the table `OutputSpec`
            pub name: ::planus::alloc::string::String,
            /// The field `kind` in the table `OutputSpec`
            pub kind: self::OutputKind,
            /// The field `target` in the table `OutputSpec`
            pub target: ::core::option::Option<::planus::alloc::string::String>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for OutputSpec {
            fn default() -> Self {
                Self {
                    name: ::core::default::Default::default(),
                    kind: self::OutputKind::UserOutput,
                    target: ::core::default::Default::default(),
                }
            }
        }

        impl OutputSpec {
            /// Creates a [OutputSpecBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> OutputSpecBuilder<()> {
                OutputSpecBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_name: impl ::planus::WriteAs<::planus::Offset<str>>,
                field_kind: impl ::planus::WriteAsDefault<self::OutputKind, self::OutputKind>,
                field_target: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            ) -> ::planus::Offset<Self> {
                let prepared_name = field_name.prepare(builder);
                let prepared_kind = field_kind.prepare(builder, &self::OutputKind::UserOutput);
                let prepared_target = field_target.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<10> = ::core::default::Default::default();
                table_writer.write_entry::<::planus::Offset<str>>(0);
                if prepared_target.is_some() {
                    table_writer.write_entry::<::planus::Offset<str>>(2);
                }
                if prepared_kind.is_some() {
                    table_writer.write_entry::<self::OutputKind>(1);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        object_writer.write::<_, _, 4>(&prepared_name);
                        if let ::core::option::Option::Some(prepared_target) = prepared_target {
                            object_writer.write::<_, _, 4>(&prepared_target);
                        }
                        if let ::core::option::Option::Some(prepared_kind) = prepared_kind {
                            object_writer.write::<_, _, 1>(&prepared_kind);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<OutputSpec>> for OutputSpec {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<OutputSpec> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<OutputSpec>> for OutputSpec {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<OutputSpec>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<OutputSpec> for OutputSpec {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<OutputSpec> {
                OutputSpec::create(builder, &self.name, self.kind, &self.target)
            }
        }

        /// Builder for serializing an instance of the [OutputSpec] type.
        ///
        /// Can be created using the [OutputSpec::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct OutputSpecBuilder<State>(State);

        impl OutputSpecBuilder<()> {
            /// Setter for the [`name` field](OutputSpec#structfield.name).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn name<T0>(self, value: T0) -> OutputSpecBuilder<(T0,)>
            where
                T0: ::planus::WriteAs<::planus::Offset<str>>,
            {
                OutputSpecBuilder((value,))
            }
        }

        impl<T0> OutputSpecBuilder<(T0,)> {
            /// Setter for the [`kind` field](OutputSpec#structfield.kind).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn kind<T1>(self, value: T1) -> OutputSpecBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAsDefault<self::OutputKind, self::OutputKind>,
            {
                let (v0,) = self.0;
                OutputSpecBuilder((v0, value))
            }

            /// Sets the [`kind` field](OutputSpec#structfield.kind) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn kind_as_default(self) -> OutputSpecBuilder<(T0, ::planus::DefaultValue)> {
                self.kind(::planus::DefaultValue)
            }
        }

        impl<T0, T1> OutputSpecBuilder<(T0, T1)> {
            /// Setter for the [`target` field](OutputSpec#structfield.target).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn target<T2>(self, value: T2) -> OutputSpecBuilder<(T0, T1, T2)>
            where
                T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            {
                let (v0, v1) = self.0;
                OutputSpecBuilder((v0, v1, value))
            }

            /// Sets the [`target` field](OutputSpec#structfield.target) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn target_as_null(self) -> OutputSpecBuilder<(T0, T1, ())> {
                self.target(())
            }
        }

        impl<T0, T1, T2> OutputSpecBuilder<(T0, T1, T2)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [OutputSpec].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<OutputSpec>
            where
                Self: ::planus::WriteAsOffset<OutputSpec>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<str>>,
                T1: ::planus::WriteAsDefault<self::OutputKind, self::OutputKind>,
                T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            > ::planus::WriteAs<::planus::Offset<OutputSpec>> for OutputSpecBuilder<(T0, T1, T2)>
        {
            type Prepared = ::planus::Offset<OutputSpec>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<OutputSpec> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<str>>,
                T1: ::planus::WriteAsDefault<self::OutputKind, self::OutputKind>,
                T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            > ::planus::WriteAsOptional<::planus::Offset<OutputSpec>> for OutputSpecBuilder<(T0, T1, T2)>
        {
            type Prepared = ::planus::Offset<OutputSpec>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<OutputSpec>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<str>>,
                T1: ::planus::WriteAsDefault<self::OutputKind, self::OutputKind>,
                T2: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            > ::planus::WriteAsOffset<OutputSpec> for OutputSpecBuilder<(T0, T1, T2)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<OutputSpec> {
                let (v0, v1, v2) = &self.0;
                OutputSpec::create(builder, v0, v1, v2)
            }
        }

        /// Reference to a deserialized [OutputSpec].
        #[derive(Copy, Clone)]
        pub struct OutputSpecRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> OutputSpecRef<'a> {
            /// Getter for the [`name` field](OutputSpec#structfield.name).
            #[inline]
            pub fn name(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                self.0.access_required(0, "OutputSpec", "name")
            }

            /// Getter for the [`kind` field](OutputSpec#structfield.kind).
            #[inline]
            pub fn kind(&self) -> ::planus::Result<self::OutputKind> {
                ::core::result::Result::Ok(
                    self.0.access(1, "OutputSpec", "kind")?.unwrap_or(self::OutputKind::UserOutput),
                )
            }

            /// Getter for the [`target` field](OutputSpec#structfield.target).
            #[inline]
            pub fn target(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                self.0.access(2, "OutputSpec", "target")
            }
        }

        impl<'a> ::core::fmt::Debug for OutputSpecRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("OutputSpecRef");
                f.field("name", &self.name());
                f.field("kind", &self.kind());
                if let ::core::option::Option::Some(field_target) = self.target().transpose() {
                    f.field("target", &field_target);
                }
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<OutputSpecRef<'a>> for OutputSpec {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: OutputSpecRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    name: ::core::convert::Into::into(value.name()?),
                    kind: ::core::convert::TryInto::try_into(value.kind()?)?,
                    target: value.target()?.map(::core::convert::Into::into),
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for OutputSpecRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for OutputSpecRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[OutputSpecRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<OutputSpec>> for OutputSpec {
            type Value = ::planus::Offset<OutputSpec>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<OutputSpec>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for OutputSpecRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[OutputSpecRef]", "read_as_root", 0))
            }
        }

        /// The table `MutableBufferSpec` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `MutableBufferSpec` in the file `schema/native_graph.fbs:235`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct MutableBufferSpec {
            /// The field `name` in the table `MutableBufferSpec`
            pub name: ::planus::alloc::string::String,
            /// The field `fqn` in the table `MutableBufferSpec`
            pub fqn: ::planus::alloc::string::String,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for MutableBufferSpec {
            fn default() -> Self {
                Self { name: ::core::default::Default::default(), fqn: ::core::default::Default::default() }
            }
        }

        impl MutableBufferSpec {
            /// Creates a [MutableBufferSpecBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> MutableBufferSpecBuilder<()> {
                MutableBufferSpecBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_name: impl ::planus::WriteAs<::planus::Offset<str>>,
                field_fqn: impl ::planus::WriteAs<::planus::Offset<str>>,
            ) -> ::planus::Offset<Self> {
                let prepared_name = field_name.prepare(builder);
                let prepared_fqn = field_fqn.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                table_writer.write_entry::<::planus::Offset<str>>(0);
                table_writer.write_entry::<::planus::Offset<str>>(1);

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        object_writer.write::<_, _, 4>(&prepared_name);
                        object_writer.write::<_, _, 4>(&prepared_fqn);
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<MutableBufferSpec>> for MutableBufferSpec {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<MutableBufferSpec> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<MutableBufferSpec>> for MutableBufferSpec {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<MutableBufferSpec>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<MutableBufferSpec> for MutableBufferSpec {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<MutableBufferSpec> {
                MutableBufferSpec::create(builder, &self.name, &self.fqn)
            }
        }

        /// Builder for serializing an instance of the [MutableBufferSpec] type.
        ///
        /// Can be created using the [MutableBufferSpec::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct MutableBufferSpecBuilder<State>(State);

        impl MutableBufferSpecBuilder<()> {
            /// Setter for the [`name` field](MutableBufferSpec#structfield.name).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn name<T0>(self, value: T0) -> MutableBufferSpecBuilder<(T0,)>
            where
                T0: ::planus::WriteAs<::planus::Offset<str>>,
            {
                MutableBufferSpecBuilder((value,))
            }
        }

        impl<T0> MutableBufferSpecBuilder<(T0,)> {
            /// Setter for the [`fqn` field](MutableBufferSpec#structfield.fqn).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn fqn<T1>(self, value: T1) -> MutableBufferSpecBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAs<::planus::Offset<str>>,
            {
                let (v0,) = self.0;
                MutableBufferSpecBuilder((v0, value))
            }
        }

        impl<T0, T1> MutableBufferSpecBuilder<(T0, T1)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [MutableBufferSpec].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<MutableBufferSpec>
            where
                Self: ::planus::WriteAsOffset<MutableBufferSpec>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<str>>, T1: ::planus::WriteAs<::planus::Offset<str>>>
            ::planus::WriteAs<::planus::Offset<MutableBufferSpec>> for MutableBufferSpecBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<MutableBufferSpec>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<MutableBufferSpec> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<str>>, T1: ::planus::WriteAs<::planus::Offset<str>>>
            ::planus::WriteAsOptional<::planus::Offset<MutableBufferSpec>> for MutableBufferSpecBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<MutableBufferSpec>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<MutableBufferSpec>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<T0: ::planus::WriteAs<::planus::Offset<str>>, T1: ::planus::WriteAs<::planus::Offset<str>>>
            ::planus::WriteAsOffset<MutableBufferSpec> for MutableBufferSpecBuilder<(T0, T1)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<MutableBufferSpec> {
                let (v0, v1) = &self.0;
                MutableBufferSpec::create(builder, v0, v1)
            }
        }

        /// Reference to a deserialized [MutableBufferSpec].
        #[derive(Copy, Clone)]
        pub struct MutableBufferSpecRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> MutableBufferSpecRef<'a> {
            /// Getter for the [`name` field](MutableBufferSpec#structfield.name).
            #[inline]
            pub fn name(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                self.0.access_required(0, "MutableBufferSpec", "name")
            }

            /// Getter for the [`fqn` field](MutableBufferSpec#structfield.fqn).
            #[inline]
            pub fn fqn(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                self.0.access_required(1, "MutableBufferSpec", "fqn")
            }
        }

        impl<'a> ::core::fmt::Debug for MutableBufferSpecRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("MutableBufferSpecRef");
                f.field("name", &self.name());
                f.field("fqn", &self.fqn());
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<MutableBufferSpecRef<'a>> for MutableBufferSpec {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: MutableBufferSpecRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    name: ::core::convert::Into::into(value.name()?),
                    fqn: ::core::convert::Into::into(value.fqn()?),
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for MutableBufferSpecRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for MutableBufferSpecRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[MutableBufferSpecRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<MutableBufferSpec>> for MutableBufferSpec {
            type Value = ::planus::Offset<MutableBufferSpec>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<MutableBufferSpec>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for MutableBufferSpecRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[MutableBufferSpecRef]", "read_as_root", 0))
            }
        }

        /// The table `Graph` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `Graph` in the file `schema/native_graph.fbs:240`
        #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
        pub struct Graph {
            /// The field `nodes` in the table `Graph`
            pub nodes: ::planus::alloc::vec::Vec<self::Node>,
            /// The field `inputs` in the table `Graph`
            pub inputs: ::core::option::Option<::planus::alloc::vec::Vec<::planus::alloc::string::String>>,
            /// The field `outputs` in the table `Graph`
            pub outputs: ::core::option::Option<::planus::alloc::vec::Vec<::planus::alloc::string::String>>,
            /// The field `tensor_values` in the table `Graph`
            pub tensor_values: ::core::option::Option<::planus::alloc::vec::Vec<self::TensorValue>>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for Graph {
            fn default() -> Self {
                Self {
                    nodes: ::core::default::Default::default(),
                    inputs: ::core::default::Default::default(),
                    outputs: ::core::default::Default::default(),
                    tensor_values: ::core::default::Default::default(),
                }
            }
        }

        impl Graph {
            /// Creates a [GraphBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> GraphBuilder<()> {
                GraphBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_nodes: impl ::planus::WriteAs<::planus::Offset<[::planus::Offset<self::Node>]>>,
                field_inputs: impl ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<str>]>>,
                field_outputs: impl ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<str>]>>,
                field_tensor_values: impl ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::TensorValue>]>>,
            ) -> ::planus::Offset<Self> {
                let prepared_nodes = field_nodes.prepare(builder);
                let prepared_inputs = field_inputs.prepare(builder);
                let prepared_outputs = field_outputs.prepare(builder);
                let prepared_tensor_values = field_tensor_values.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<12> = ::core::default::Default::default();
                table_writer.write_entry::<::planus::Offset<[::planus::Offset<self::Node>]>>(0);
                if prepared_inputs.is_some() {
                    table_writer.write_entry::<::planus::Offset<[::planus::Offset<str>]>>(1);
                }
                if prepared_outputs.is_some() {
                    table_writer.write_entry::<::planus::Offset<[::planus::Offset<str>]>>(2);
                }
                if prepared_tensor_values.is_some() {
                    table_writer.write_entry::<::planus::Offset<[::planus::Offset<self::TensorValue>]>>(3);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        object_writer.write::<_, _, 4>(&prepared_nodes);
                        if let ::core::option::Option::Some(prepared_inputs) = prepared_inputs {
                            object_writer.write::<_, _, 4>(&prepared_inputs);
                        }
                        if let ::core::option::Option::Some(prepared_outputs) = prepared_outputs {
                            object_writer.write::<_, _, 4>(&prepared_outputs);
                        }
                        if let ::core::option::Option::Some(prepared_tensor_values) = prepared_tensor_values {
                            object_writer.write::<_, _, 4>(&prepared_tensor_values);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<Graph>> for Graph {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Graph> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<Graph>> for Graph {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Graph>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<Graph> for Graph {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Graph> {
                Graph::create(builder, &self.nodes, &self.inputs, &self.outputs, &self.tensor_values)
            }
        }

        /// Builder for serializing an instance of the [Graph] type.
        ///
        /// Can be created using the [Graph::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct GraphBuilder<State>(State);

        impl GraphBuilder<()> {
            /// Setter for the [`nodes` field](Graph#structfield.nodes).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn nodes<T0>(self, value: T0) -> GraphBuilder<(T0,)>
            where
                T0: ::planus::WriteAs<::planus::Offset<[::planus::Offset<self::Node>]>>,
            {
                GraphBuilder((value,))
            }
        }

        impl<T0> GraphBuilder<(T0,)> {
            /// Setter for the [`inputs` field](Graph#structfield.inputs).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn inputs<T1>(self, value: T1) -> GraphBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<str>]>>,
            {
                let (v0,) = self.0;
                GraphBuilder((v0, value))
            }

            /// Sets the [`inputs` field](Graph#structfield.inputs) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn inputs_as_null(self) -> GraphBuilder<(T0, ())> {
                self.inputs(())
            }
        }

        impl<T0, T1> GraphBuilder<(T0, T1)> {
            /// Setter for the [`outputs` field](Graph#structfield.outputs).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn outputs<T2>(self, value: T2) -> GraphBuilder<(T0, T1, T2)>
            where
                T2: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<str>]>>,
            {
                let (v0, v1) = self.0;
                GraphBuilder((v0, v1, value))
            }

            /// Sets the [`outputs` field](Graph#structfield.outputs) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn outputs_as_null(self) -> GraphBuilder<(T0, T1, ())> {
                self.outputs(())
            }
        }

        impl<T0, T1, T2> GraphBuilder<(T0, T1, T2)> {
            /// Setter for the [`tensor_values` field](Graph#structfield.tensor_values).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn tensor_values<T3>(self, value: T3) -> GraphBuilder<(T0, T1, T2, T3)>
            where
                T3: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::TensorValue>]>>,
            {
                let (v0, v1, v2) = self.0;
                GraphBuilder((v0, v1, v2, value))
            }

            /// Sets the [`tensor_values` field](Graph#structfield.tensor_values) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn tensor_values_as_null(self) -> GraphBuilder<(T0, T1, T2, ())> {
                self.tensor_values(())
            }
        }

        impl<T0, T1, T2, T3> GraphBuilder<(T0, T1, T2, T3)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Graph].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Graph>
            where
                Self: ::planus::WriteAsOffset<Graph>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<[::planus::Offset<self::Node>]>>,
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<str>]>>,
                T2: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<str>]>>,
                T3: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::TensorValue>]>>,
            > ::planus::WriteAs<::planus::Offset<Graph>> for GraphBuilder<(T0, T1, T2, T3)>
        {
            type Prepared = ::planus::Offset<Graph>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Graph> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<[::planus::Offset<self::Node>]>>,
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<str>]>>,
                T2: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<str>]>>,
                T3: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::TensorValue>]>>,
            > ::planus::WriteAsOptional<::planus::Offset<Graph>> for GraphBuilder<(T0, T1, T2, T3)>
        {
            type Prepared = ::planus::Offset<Graph>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Graph>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<[::planus::Offset<self::Node>]>>,
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<str>]>>,
                T2: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<str>]>>,
                T3: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::TensorValue>]>>,
            > ::planus::WriteAsOffset<Graph> for GraphBuilder<(T0, T1, T2, T3)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Graph> {
                let (v0, v1, v2, v3) = &self.0;
                Graph::create(builder, v0, v1, v2, v3)
            }
        }

        /// Reference to a deserialized [Graph].
        #[derive(Copy, Clone)]
        pub struct GraphRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> GraphRef<'a> {
            /// Getter for the [`nodes` field](Graph#structfield.nodes).
            #[inline]
            pub fn nodes(&self) -> ::planus::Result<::planus::Vector<'a, ::planus::Result<self::NodeRef<'a>>>> {
                self.0.access_required(0, "Graph", "nodes")
            }

            /// Getter for the [`inputs` field](Graph#structfield.inputs).
            #[inline]
            pub fn inputs(
                &self,
            ) -> ::planus::Result<
                ::core::option::Option<::planus::Vector<'a, ::planus::Result<&'a ::core::primitive::str>>>,
            > {
                self.0.access(1, "Graph", "inputs")
            }

            /// Getter for the [`outputs` field](Graph#structfield.outputs).
            #[inline]
            pub fn outputs(
                &self,
            ) -> ::planus::Result<
                ::core::option::Option<::planus::Vector<'a, ::planus::Result<&'a ::core::primitive::str>>>,
            > {
                self.0.access(2, "Graph", "outputs")
            }

            /// Getter for the [`tensor_values` field](Graph#structfield.tensor_values).
            #[inline]
            pub fn tensor_values(
                &self,
            ) -> ::planus::Result<
                ::core::option::Option<::planus::Vector<'a, ::planus::Result<self::TensorValueRef<'a>>>>,
            > {
                self.0.access(3, "Graph", "tensor_values")
            }
        }

        impl<'a> ::core::fmt::Debug for GraphRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("GraphRef");
                f.field("nodes", &self.nodes());
                if let ::core::option::Option::Some(field_inputs) = self.inputs().transpose() {
                    f.field("inputs", &field_inputs);
                }
                if let ::core::option::Option::Some(field_outputs) = self.outputs().transpose() {
                    f.field("outputs", &field_outputs);
                }
                if let ::core::option::Option::Some(field_tensor_values) = self.tensor_values().transpose() {
                    f.field("tensor_values", &field_tensor_values);
                }
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<GraphRef<'a>> for Graph {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: GraphRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    nodes: value.nodes()?.to_vec_result()?,
                    inputs: if let ::core::option::Option::Some(inputs) = value.inputs()? {
                        ::core::option::Option::Some(inputs.to_vec_result()?)
                    } else {
                        ::core::option::Option::None
                    },
                    outputs: if let ::core::option::Option::Some(outputs) = value.outputs()? {
                        ::core::option::Option::Some(outputs.to_vec_result()?)
                    } else {
                        ::core::option::Option::None
                    },
                    tensor_values: if let ::core::option::Option::Some(tensor_values) = value.tensor_values()? {
                        ::core::option::Option::Some(tensor_values.to_vec_result()?)
                    } else {
                        ::core::option::Option::None
                    },
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for GraphRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for GraphRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset)
                    .map_err(|error_kind| error_kind.with_error_location("[GraphRef]", "get", buffer.offset_from_start))
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<Graph>> for Graph {
            type Value = ::planus::Offset<Graph>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<Graph>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for GraphRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[GraphRef]", "read_as_root", 0))
            }
        }

        /// The table `Method` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `Method` in the file `schema/native_graph.fbs:247`
        #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
        pub struct Method {
            /// The field `name` in the table `Method`
            pub name: ::planus::alloc::string::String,
            /// The field `graph` in the table `Method`
            pub graph: ::planus::alloc::boxed::Box<self::Graph>,
            /// The field `constants` in the table `Method`
            pub constants: ::core::option::Option<::planus::alloc::vec::Vec<self::NamedTensorRef>>,
            /// The field `output_specs` in the table `Method`
            pub output_specs: ::core::option::Option<::planus::alloc::vec::Vec<self::OutputSpec>>,
            /// The field `mutable_buffers` in the table `Method`
            pub mutable_buffers: ::core::option::Option<::planus::alloc::vec::Vec<self::MutableBufferSpec>>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for Method {
            fn default() -> Self {
                Self {
                    name: ::core::default::Default::default(),
                    graph: ::core::default::Default::default(),
                    constants: ::core::default::Default::default(),
                    output_specs: ::core::default::Default::default(),
                    mutable_buffers: ::core::default::Default::default(),
                }
            }
        }

        impl Method {
            /// Creates a [MethodBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> MethodBuilder<()> {
                MethodBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_name: impl ::planus::WriteAs<::planus::Offset<str>>,
                field_graph: impl ::planus::WriteAs<::planus::Offset<self::Graph>>,
                field_constants: impl ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::NamedTensorRef>]>>,
                field_output_specs: impl ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::OutputSpec>]>>,
                field_mutable_buffers: impl ::planus::WriteAsOptional<
                    ::planus::Offset<[::planus::Offset<self::MutableBufferSpec>]>,
                >,
            ) -> ::planus::Offset<Self> {
                let prepared_name = field_name.prepare(builder);
                let prepared_graph = field_graph.prepare(builder);
                let prepared_constants = field_constants.prepare(builder);
                let prepared_output_specs = field_output_specs.prepare(builder);
                let prepared_mutable_buffers = field_mutable_buffers.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<14> = ::core::default::Default::default();
                table_writer.write_entry::<::planus::Offset<str>>(0);
                table_writer.write_entry::<::planus::Offset<self::Graph>>(1);
                if prepared_constants.is_some() {
                    table_writer.write_entry::<::planus::Offset<[::planus::Offset<self::NamedTensorRef>]>>(2);
                }
                if prepared_output_specs.is_some() {
                    table_writer.write_entry::<::planus::Offset<[::planus::Offset<self::OutputSpec>]>>(3);
                }
                if prepared_mutable_buffers.is_some() {
                    table_writer.write_entry::<::planus::Offset<[::planus::Offset<self::MutableBufferSpec>]>>(4);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        object_writer.write::<_, _, 4>(&prepared_name);
                        object_writer.write::<_, _, 4>(&prepared_graph);
                        if let ::core::option::Option::Some(prepared_constants) = prepared_constants {
                            object_writer.write::<_, _, 4>(&prepared_constants);
                        }
                        if let ::core::option::Option::Some(prepared_output_specs) = prepared_output_specs {
                            object_writer.write::<_, _, 4>(&prepared_output_specs);
                        }
                        if let ::core::option::Option::Some(prepared_mutable_buffers) = prepared_mutable_buffers {
                            object_writer.write::<_, _, 4>(&prepared_mutable_buffers);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<Method>> for Method {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Method> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<Method>> for Method {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Method>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<Method> for Method {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Method> {
                Method::create(
                    builder,
                    &self.name,
                    &self.graph,
                    &self.constants,
                    &self.output_specs,
                    &self.mutable_buffers,
                )
            }
        }

        /// Builder for serializing an instance of the [Method] type.
        ///
        /// Can be created using the [Method::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct MethodBuilder<State>(State);

        impl MethodBuilder<()> {
            /// Setter for the [`name` field](Method#structfield.name).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn name<T0>(self, value: T0) -> MethodBuilder<(T0,)>
            where
                T0: ::planus::WriteAs<::planus::Offset<str>>,
            {
                MethodBuilder((value,))
            }
        }

        impl<T0> MethodBuilder<(T0,)> {
            /// Setter for the [`graph` field](Method#structfield.graph).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn graph<T1>(self, value: T1) -> MethodBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAs<::planus::Offset<self::Graph>>,
            {
                let (v0,) = self.0;
                MethodBuilder((v0, value))
            }
        }

        impl<T0, T1> MethodBuilder<(T0, T1)> {
            /// Setter for the [`constants` field](Method#structfield.constants).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn constants<T2>(self, value: T2) -> MethodBuilder<(T0, T1, T2)>
            where
                T2: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::NamedTensorRef>]>>,
            {
                let (v0, v1) = self.0;
                MethodBuilder((v0, v1, value))
            }

            /// Sets the [`constants` field](Method#structfield.constants) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn constants_as_null(self) -> MethodBuilder<(T0, T1, ())> {
                self.constants(())
            }
        }

        impl<T0, T1, T2> MethodBuilder<(T0, T1, T2)> {
            /// Setter for the [`output_specs` field](Method#structfield.output_specs).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn output_specs<T3>(self, value: T3) -> MethodBuilder<(T0, T1, T2, T3)>
            where
                T3: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::OutputSpec>]>>,
            {
                let (v0, v1, v2) = self.0;
                MethodBuilder((v0, v1, v2, value))
            }

            /// Sets the [`output_specs` field](Method#structfield.output_specs) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn output_specs_as_null(self) -> MethodBuilder<(T0, T1, T2, ())> {
                self.output_specs(())
            }
        }

        impl<T0, T1, T2, T3> MethodBuilder<(T0, T1, T2, T3)> {
            /// Setter for the [`mutable_buffers` field](Method#structfield.mutable_buffers).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn mutable_buffers<T4>(self, value: T4) -> MethodBuilder<(T0, T1, T2, T3, T4)>
            where
                T4: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::MutableBufferSpec>]>>,
            {
                let (v0, v1, v2, v3) = self.0;
                MethodBuilder((v0, v1, v2, v3, value))
            }

            /// Sets the [`mutable_buffers` field](Method#structfield.mutable_buffers) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn mutable_buffers_as_null(self) -> MethodBuilder<(T0, T1, T2, T3, ())> {
                self.mutable_buffers(())
            }
        }

        impl<T0, T1, T2, T3, T4> MethodBuilder<(T0, T1, T2, T3, T4)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Method].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Method>
            where
                Self: ::planus::WriteAsOffset<Method>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<str>>,
                T1: ::planus::WriteAs<::planus::Offset<self::Graph>>,
                T2: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::NamedTensorRef>]>>,
                T3: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::OutputSpec>]>>,
                T4: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::MutableBufferSpec>]>>,
            > ::planus::WriteAs<::planus::Offset<Method>> for MethodBuilder<(T0, T1, T2, T3, T4)>
        {
            type Prepared = ::planus::Offset<Method>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Method> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<str>>,
                T1: ::planus::WriteAs<::planus::Offset<self::Graph>>,
                T2: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::NamedTensorRef>]>>,
                T3: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::OutputSpec>]>>,
                T4: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::MutableBufferSpec>]>>,
            > ::planus::WriteAsOptional<::planus::Offset<Method>> for MethodBuilder<(T0, T1, T2, T3, T4)>
        {
            type Prepared = ::planus::Offset<Method>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Method>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAs<::planus::Offset<str>>,
                T1: ::planus::WriteAs<::planus::Offset<self::Graph>>,
                T2: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::NamedTensorRef>]>>,
                T3: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::OutputSpec>]>>,
                T4: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::MutableBufferSpec>]>>,
            > ::planus::WriteAsOffset<Method> for MethodBuilder<(T0, T1, T2, T3, T4)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Method> {
                let (v0, v1, v2, v3, v4) = &self.0;
                Method::create(builder, v0, v1, v2, v3, v4)
            }
        }

        /// Reference to a deserialized [Method].
        #[derive(Copy, Clone)]
        pub struct MethodRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> MethodRef<'a> {
            /// Getter for the [`name` field](Method#structfield.name).
            #[inline]
            pub fn name(&self) -> ::planus::Result<&'a ::core::primitive::str> {
                self.0.access_required(0, "Method", "name")
            }

            /// Getter for the [`graph` field](Method#structfield.graph).
            #[inline]
            pub fn graph(&self) -> ::planus::Result<self::GraphRef<'a>> {
                self.0.access_required(1, "Method", "graph")
            }

            /// Getter for the [`constants` field](Method#structfield.constants).
            #[inline]
            pub fn constants(
                &self,
            ) -> ::planus::Result<
                ::core::option::Option<::planus::Vector<'a, ::planus::Result<self::NamedTensorRefRef<'a>>>>,
            > {
                self.0.access(2, "Method", "constants")
            }

            /// Getter for the [`output_specs` field](Method#structfield.output_specs).
            #[inline]
            pub fn output_specs(
                &self,
            ) -> ::planus::Result<::core::option::Option<::planus::Vector<'a, ::planus::Result<self::OutputSpecRef<'a>>>>>
            {
                self.0.access(3, "Method", "output_specs")
            }

            /// Getter for the [`mutable_buffers` field](Method#structfield.mutable_buffers).
            #[inline]
            pub fn mutable_buffers(
                &self,
            ) -> ::planus::Result<
                ::core::option::Option<::planus::Vector<'a, ::planus::Result<self::MutableBufferSpecRef<'a>>>>,
            > {
                self.0.access(4, "Method", "mutable_buffers")
            }
        }

        impl<'a> ::core::fmt::Debug for MethodRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("MethodRef");
                f.field("name", &self.name());
                f.field("graph", &self.graph());
                if let ::core::option::Option::Some(field_constants) = self.constants().transpose() {
                    f.field("constants", &field_constants);
                }
                if let ::core::option::Option::Some(field_output_specs) = self.output_specs().transpose() {
                    f.field("output_specs", &field_output_specs);
                }
                if let ::core::option::Option::Some(field_mutable_buffers) = self.mutable_buffers().transpose() {
                    f.field("mutable_buffers", &field_mutable_buffers);
                }
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<MethodRef<'a>> for Method {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: MethodRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    name: ::core::convert::Into::into(value.name()?),
                    graph: ::planus::alloc::boxed::Box::new(::core::convert::TryInto::try_into(value.graph()?)?),
                    constants: if let ::core::option::Option::Some(constants) = value.constants()? {
                        ::core::option::Option::Some(constants.to_vec_result()?)
                    } else {
                        ::core::option::Option::None
                    },
                    output_specs: if let ::core::option::Option::Some(output_specs) = value.output_specs()? {
                        ::core::option::Option::Some(output_specs.to_vec_result()?)
                    } else {
                        ::core::option::Option::None
                    },
                    mutable_buffers: if let ::core::option::Option::Some(mutable_buffers) = value.mutable_buffers()? {
                        ::core::option::Option::Some(mutable_buffers.to_vec_result()?)
                    } else {
                        ::core::option::Option::None
                    },
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for MethodRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for MethodRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[MethodRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<Method>> for Method {
            type Value = ::planus::Offset<Method>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<Method>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for MethodRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[MethodRef]", "read_as_root", 0))
            }
        }

        /// The table `Program` in the namespace `native_backend`
        ///
        /// Generated from these locations:
        /// * Table `Program` in the file `schema/native_graph.fbs:255`
        #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
        pub struct Program {
            /// The field `version` in the table `Program`
            pub version: ::core::option::Option<::planus::alloc::string::String>,
            /// The field `methods` in the table `Program`
            pub methods: ::planus::alloc::vec::Vec<self::Method>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for Program {
            fn default() -> Self {
                Self { version: ::core::default::Default::default(), methods: ::core::default::Default::default() }
            }
        }

        impl Program {
            /// Creates a [ProgramBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> ProgramBuilder<()> {
                ProgramBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_version: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                field_methods: impl ::planus::WriteAs<::planus::Offset<[::planus::Offset<self::Method>]>>,
            ) -> ::planus::Offset<Self> {
                let prepared_version = field_version.prepare(builder);
                let prepared_methods = field_methods.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                if prepared_version.is_some() {
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                }
                table_writer.write_entry::<::planus::Offset<[::planus::Offset<self::Method>]>>(1);

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        if let ::core::option::Option::Some(prepared_version) = prepared_version {
                            object_writer.write::<_, _, 4>(&prepared_version);
                        }
                        object_writer.write::<_, _, 4>(&prepared_methods);
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<Program>> for Program {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Program> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<Program>> for Program {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Program>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<Program> for Program {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Program> {
                Program::create(builder, &self.version, &self.methods)
            }
        }

        /// Builder for serializing an instance of the [Program] type.
        ///
        /// Can be created using the [Program::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct ProgramBuilder<State>(State);

        impl ProgramBuilder<()> {
            /// Setter for the [`version` field](Program#structfield.version).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn version<T0>(self, value: T0) -> ProgramBuilder<(T0,)>
            where
                T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            {
                ProgramBuilder((value,))
            }

            /// Sets the [`version` field](Program#structfield.version) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn version_as_null(self) -> ProgramBuilder<((),)> {
                self.version(())
            }
        }

        impl<T0> ProgramBuilder<(T0,)> {
            /// Setter for the [`methods` field](Program#structfield.methods).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn methods<T1>(self, value: T1) -> ProgramBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAs<::planus::Offset<[::planus::Offset<self::Method>]>>,
            {
                let (v0,) = self.0;
                ProgramBuilder((v0, value))
            }
        }

        impl<T0, T1> ProgramBuilder<(T0, T1)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Program].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Program>
            where
                Self: ::planus::WriteAsOffset<Program>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                T1: ::planus::WriteAs<::planus::Offset<[::planus::Offset<self::Method>]>>,
            > ::planus::WriteAs<::planus::Offset<Program>> for ProgramBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<Program>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Program> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                T1: ::planus::WriteAs<::planus::Offset<[::planus::Offset<self::Method>]>>,
            > ::planus::WriteAsOptional<::planus::Offset<Program>> for ProgramBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<Program>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Program>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                T1: ::planus::WriteAs<::planus::Offset<[::planus::Offset<self::Method>]>>,
            > ::planus::WriteAsOffset<Program> for ProgramBuilder<(T0, T1)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Program> {
                let (v0, v1) = &self.0;
                Program::create(builder, v0, v1)
            }
        }

        /// Reference to a deserialized [Program].
        #[derive(Copy, Clone)]
        pub struct ProgramRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> ProgramRef<'a> {
            /// Getter for the [`version` field](Program#structfield.version).
            #[inline]
            pub fn version(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                self.0.access(0, "Program", "version")
            }

            /// Getter for the [`methods` field](Program#structfield.methods).
            #[inline]
            pub fn methods(&self) -> ::planus::Result<::planus::Vector<'a, ::planus::Result<self::MethodRef<'a>>>> {
                self.0.access_required(1, "Program", "methods")
            }
        }

        impl<'a> ::core::fmt::Debug for ProgramRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("ProgramRef");
                if let ::core::option::Option::Some(field_version) = self.version().transpose() {
                    f.field("version", &field_version);
                }
                f.field("methods", &self.methods());
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<ProgramRef<'a>> for Program {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: ProgramRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    version: value.version()?.map(::core::convert::Into::into),
                    methods: value.methods()?.to_vec_result()?,
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for ProgramRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for ProgramRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[ProgramRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<Program>> for Program {
            type Value = ::planus::Offset<Program>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<Program>],
                bytes: *mut ::core::mem::MaybeUninit<u8>,
                buffer_position: u32,
            ) {
                let bytes = bytes as *mut [::core::mem::MaybeUninit<u8>; 4];
                for (i, v) in ::core::iter::Iterator::enumerate(values.iter()) {
                    ::planus::WriteAsPrimitive::write(
                        v,
                        ::planus::Cursor::new(unsafe { &mut *bytes.add(i) }),
                        buffer_position - (Self::STRIDE * i) as u32,
                    );
                }
            }
        }

        impl<'a> ::planus::ReadAsRoot<'a> for ProgramRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[ProgramRef]", "read_as_root", 0))
            }
        }
    }
}
