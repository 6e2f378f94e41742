pub use root::*;

const _: () = ::planus::check_version_compatibility("planus-1.3.0");

/// The root namespace
///
/// Generated from these locations:
/// * File `schema/bundled_program_schema.fbs`
#[no_implicit_prelude]
#[allow(clippy::needless_lifetimes)]
mod root {
    /// The namespace `bundled_program_flatbuffer`
    ///
    /// Generated from these locations:
    /// * File `schema/bundled_program_schema.fbs`
    pub mod bundled_program_flatbuffer {
        /// The table `Int` in the namespace `bundled_program_flatbuffer`
        ///
        /// Generated from these locations:
        /// * Table `Int` in the file `schema/bundled_program_schema.fbs:16`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct Int {
            /// The field `int_val` in the table `Int`
            pub int_val: i64,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for Int {
            fn default() -> Self {
                Self { int_val: 0 }
            }
        }

        impl Int {
            /// Creates a [IntBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> IntBuilder<()> {
                IntBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_int_val: impl ::planus::WriteAsDefault<i64, i64>,
            ) -> ::planus::Offset<Self> {
                let prepared_int_val = field_int_val.prepare(builder, &0);

                let mut table_writer: ::planus::table_writer::TableWriter<6> = ::core::default::Default::default();
                if prepared_int_val.is_some() {
                    table_writer.write_entry::<i64>(0);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        if let ::core::option::Option::Some(prepared_int_val) = prepared_int_val {
                            object_writer.write::<_, _, 8>(&prepared_int_val);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<Int>> for Int {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Int> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<Int>> for Int {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Int>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<Int> for Int {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Int> {
                Int::create(builder, self.int_val)
            }
        }

        /// Builder for serializing an instance of the [Int] type.
        ///
        /// Can be created using the [Int::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct IntBuilder<State>(State);

        impl IntBuilder<()> {
            /// Setter for the [`int_val` field](Int#structfield.int_val).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn int_val<T0>(self, value: T0) -> IntBuilder<(T0,)>
            where
                T0: ::planus::WriteAsDefault<i64, i64>,
            {
                IntBuilder((value,))
            }

            /// Sets the [`int_val` field](Int#structfield.int_val) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn int_val_as_default(self) -> IntBuilder<(::planus::DefaultValue,)> {
                self.int_val(::planus::DefaultValue)
            }
        }

        impl<T0> IntBuilder<(T0,)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Int].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Int>
            where
                Self: ::planus::WriteAsOffset<Int>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<T0: ::planus::WriteAsDefault<i64, i64>> ::planus::WriteAs<::planus::Offset<Int>> for IntBuilder<(T0,)> {
            type Prepared = ::planus::Offset<Int>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Int> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<T0: ::planus::WriteAsDefault<i64, i64>> ::planus::WriteAsOptional<::planus::Offset<Int>> for IntBuilder<(T0,)> {
            type Prepared = ::planus::Offset<Int>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Int>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<T0: ::planus::WriteAsDefault<i64, i64>> ::planus::WriteAsOffset<Int> for IntBuilder<(T0,)> {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Int> {
                let (v0,) = &self.0;
                Int::create(builder, v0)
            }
        }

        /// Reference to a deserialized [Int].
        #[derive(Copy, Clone)]
        pub struct IntRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> IntRef<'a> {
            /// Getter for the [`int_val` field](Int#structfield.int_val).
            #[inline]
            pub fn int_val(&self) -> ::planus::Result<i64> {
                ::core::result::Result::Ok(self.0.access(0, "Int", "int_val")?.unwrap_or(0))
            }
        }

        impl<'a> ::core::fmt::Debug for IntRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("IntRef");
                f.field("int_val", &self.int_val());
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<IntRef<'a>> for Int {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: IntRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self { int_val: ::core::convert::TryInto::try_into(value.int_val()?)? })
            }
        }

        impl<'a> ::planus::TableRead<'a> for IntRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for IntRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset)
                    .map_err(|error_kind| error_kind.with_error_location("[IntRef]", "get", buffer.offset_from_start))
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<Int>> for Int {
            type Value = ::planus::Offset<Int>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<Int>],
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

        impl<'a> ::planus::ReadAsRoot<'a> for IntRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[IntRef]", "read_as_root", 0))
            }
        }

        /// The table `Bool` in the namespace `bundled_program_flatbuffer`
        ///
        /// Generated from these locations:
        /// * Table `Bool` in the file `schema/bundled_program_schema.fbs:20`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct Bool {
            /// The field `bool_val` in the table `Bool`
            pub bool_val: bool,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for Bool {
            fn default() -> Self {
                Self { bool_val: false }
            }
        }

        impl Bool {
            /// Creates a [BoolBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> BoolBuilder<()> {
                BoolBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_bool_val: impl ::planus::WriteAsDefault<bool, bool>,
            ) -> ::planus::Offset<Self> {
                let prepared_bool_val = field_bool_val.prepare(builder, &false);

                let mut table_writer: ::planus::table_writer::TableWriter<6> = ::core::default::Default::default();
                if prepared_bool_val.is_some() {
                    table_writer.write_entry::<bool>(0);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        if let ::core::option::Option::Some(prepared_bool_val) = prepared_bool_val {
                            object_writer.write::<_, _, 1>(&prepared_bool_val);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<Bool>> for Bool {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Bool> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<Bool>> for Bool {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Bool>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<Bool> for Bool {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Bool> {
                Bool::create(builder, self.bool_val)
            }
        }

        /// Builder for serializing an instance of the [Bool] type.
        ///
        /// Can be created using the [Bool::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct BoolBuilder<State>(State);

        impl BoolBuilder<()> {
            /// Setter for the [`bool_val` field](Bool#structfield.bool_val).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn bool_val<T0>(self, value: T0) -> BoolBuilder<(T0,)>
            where
                T0: ::planus::WriteAsDefault<bool, bool>,
            {
                BoolBuilder((value,))
            }

            /// Sets the [`bool_val` field](Bool#structfield.bool_val) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn bool_val_as_default(self) -> BoolBuilder<(::planus::DefaultValue,)> {
                self.bool_val(::planus::DefaultValue)
            }
        }

        impl<T0> BoolBuilder<(T0,)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Bool].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Bool>
            where
                Self: ::planus::WriteAsOffset<Bool>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<T0: ::planus::WriteAsDefault<bool, bool>> ::planus::WriteAs<::planus::Offset<Bool>> for BoolBuilder<(T0,)> {
            type Prepared = ::planus::Offset<Bool>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Bool> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<T0: ::planus::WriteAsDefault<bool, bool>> ::planus::WriteAsOptional<::planus::Offset<Bool>>
            for BoolBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<Bool>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Bool>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<T0: ::planus::WriteAsDefault<bool, bool>> ::planus::WriteAsOffset<Bool> for BoolBuilder<(T0,)> {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Bool> {
                let (v0,) = &self.0;
                Bool::create(builder, v0)
            }
        }

        /// Reference to a deserialized [Bool].
        #[derive(Copy, Clone)]
        pub struct BoolRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> BoolRef<'a> {
            /// Getter for the [`bool_val` field](Bool#structfield.bool_val).
            #[inline]
            pub fn bool_val(&self) -> ::planus::Result<bool> {
                ::core::result::Result::Ok(self.0.access(0, "Bool", "bool_val")?.unwrap_or(false))
            }
        }

        impl<'a> ::core::fmt::Debug for BoolRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("BoolRef");
                f.field("bool_val", &self.bool_val());
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<BoolRef<'a>> for Bool {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: BoolRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self { bool_val: ::core::convert::TryInto::try_into(value.bool_val()?)? })
            }
        }

        impl<'a> ::planus::TableRead<'a> for BoolRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for BoolRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset)
                    .map_err(|error_kind| error_kind.with_error_location("[BoolRef]", "get", buffer.offset_from_start))
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<Bool>> for Bool {
            type Value = ::planus::Offset<Bool>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<Bool>],
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

        impl<'a> ::planus::ReadAsRoot<'a> for BoolRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[BoolRef]", "read_as_root", 0))
            }
        }

        /// The table `Double` in the namespace `bundled_program_flatbuffer`
        ///
        /// Generated from these locations:
        /// * Table `Double` in the file `schema/bundled_program_schema.fbs:24`
        #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
        pub struct Double {
            /// The field `double_val` in the table `Double`
            pub double_val: f64,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for Double {
            fn default() -> Self {
                Self { double_val: 0.0 }
            }
        }

        impl Double {
            /// Creates a [DoubleBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> DoubleBuilder<()> {
                DoubleBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_double_val: impl ::planus::WriteAsDefault<f64, f64>,
            ) -> ::planus::Offset<Self> {
                let prepared_double_val = field_double_val.prepare(builder, &0.0);

                let mut table_writer: ::planus::table_writer::TableWriter<6> = ::core::default::Default::default();
                if prepared_double_val.is_some() {
                    table_writer.write_entry::<f64>(0);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        if let ::core::option::Option::Some(prepared_double_val) = prepared_double_val {
                            object_writer.write::<_, _, 8>(&prepared_double_val);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<Double>> for Double {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Double> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<Double>> for Double {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Double>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<Double> for Double {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Double> {
                Double::create(builder, self.double_val)
            }
        }

        /// Builder for serializing an instance of the [Double] type.
        ///
        /// Can be created using the [Double::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct DoubleBuilder<State>(State);

        impl DoubleBuilder<()> {
            /// Setter for the [`double_val` field](Double#structfield.double_val).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn double_val<T0>(self, value: T0) -> DoubleBuilder<(T0,)>
            where
                T0: ::planus::WriteAsDefault<f64, f64>,
            {
                DoubleBuilder((value,))
            }

            /// Sets the [`double_val` field](Double#structfield.double_val) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn double_val_as_default(self) -> DoubleBuilder<(::planus::DefaultValue,)> {
                self.double_val(::planus::DefaultValue)
            }
        }

        impl<T0> DoubleBuilder<(T0,)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Double].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Double>
            where
                Self: ::planus::WriteAsOffset<Double>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<T0: ::planus::WriteAsDefault<f64, f64>> ::planus::WriteAs<::planus::Offset<Double>> for DoubleBuilder<(T0,)> {
            type Prepared = ::planus::Offset<Double>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Double> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<T0: ::planus::WriteAsDefault<f64, f64>> ::planus::WriteAsOptional<::planus::Offset<Double>>
            for DoubleBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<Double>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Double>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<T0: ::planus::WriteAsDefault<f64, f64>> ::planus::WriteAsOffset<Double> for DoubleBuilder<(T0,)> {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Double> {
                let (v0,) = &self.0;
                Double::create(builder, v0)
            }
        }

        /// Reference to a deserialized [Double].
        #[derive(Copy, Clone)]
        pub struct DoubleRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> DoubleRef<'a> {
            /// Getter for the [`double_val` field](Double#structfield.double_val).
            #[inline]
            pub fn double_val(&self) -> ::planus::Result<f64> {
                ::core::result::Result::Ok(self.0.access(0, "Double", "double_val")?.unwrap_or(0.0))
            }
        }

        impl<'a> ::core::fmt::Debug for DoubleRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("DoubleRef");
                f.field("double_val", &self.double_val());
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<DoubleRef<'a>> for Double {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: DoubleRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    double_val: ::core::convert::TryInto::try_into(value.double_val()?)?,
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for DoubleRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for DoubleRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[DoubleRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<Double>> for Double {
            type Value = ::planus::Offset<Double>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<Double>],
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

        impl<'a> ::planus::ReadAsRoot<'a> for DoubleRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[DoubleRef]", "read_as_root", 0))
            }
        }

        /// The table `Tensor` in the namespace `bundled_program_flatbuffer`
        ///
        /// Generated from these locations:
        /// * Table `Tensor` in the file `schema/bundled_program_schema.fbs:29`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct Tensor {
            /// The field `scalar_type` in the table `Tensor`
            pub scalar_type: super::executorch_flatbuffer::ScalarType,
            /// The field `sizes` in the table `Tensor`
            pub sizes: ::core::option::Option<::planus::alloc::vec::Vec<i32>>,
            /// The field `data` in the table `Tensor`
            pub data: ::core::option::Option<::planus::alloc::vec::Vec<u8>>,
            /// The field `dim_order` in the table `Tensor`
            pub dim_order: ::core::option::Option<::planus::alloc::vec::Vec<u8>>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for Tensor {
            fn default() -> Self {
                Self {
                    scalar_type: super::executorch_flatbuffer::ScalarType::Byte,
                    sizes: ::core::default::Default::default(),
                    data: ::core::default::Default::default(),
                    dim_order: ::core::default::Default::default(),
                }
            }
        }

        impl Tensor {
            /// Creates a [TensorBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> TensorBuilder<()> {
                TensorBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_scalar_type: impl ::planus::WriteAsDefault<
                    super::executorch_flatbuffer::ScalarType,
                    super::executorch_flatbuffer::ScalarType,
                >,
                field_sizes: impl ::planus::WriteAsOptional<::planus::Offset<[i32]>>,
                field_data: impl ::planus::WriteAsOptional<::planus::Offset<[u8]>>,
                field_dim_order: impl ::planus::WriteAsOptional<::planus::Offset<[u8]>>,
            ) -> ::planus::Offset<Self> {
                let prepared_scalar_type =
                    field_scalar_type.prepare(builder, &super::executorch_flatbuffer::ScalarType::Byte);
                let prepared_sizes = field_sizes.prepare(builder);
                let prepared_data = field_data.prepare(builder);
                let prepared_dim_order = field_dim_order.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<12> = ::core::default::Default::default();
                if prepared_data.is_some() {
                    table_writer.write_entry::<::planus::Offset<[u8]>>(2);
                }
                if prepared_sizes.is_some() {
                    table_writer.write_entry::<::planus::Offset<[i32]>>(1);
                }
                if prepared_dim_order.is_some() {
                    table_writer.write_entry::<::planus::Offset<[u8]>>(3);
                }
                if prepared_scalar_type.is_some() {
                    table_writer.write_entry::<super::executorch_flatbuffer::ScalarType>(0);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        if let ::core::option::Option::Some(prepared_data) = prepared_data {
                            object_writer.write::<_, _, 4>(&prepared_data);
                        }
                        if let ::core::option::Option::Some(prepared_sizes) = prepared_sizes {
                            object_writer.write::<_, _, 4>(&prepared_sizes);
                        }
                        if let ::core::option::Option::Some(prepared_dim_order) = prepared_dim_order {
                            object_writer.write::<_, _, 4>(&prepared_dim_order);
                        }
                        if let ::core::option::Option::Some(prepared_scalar_type) = prepared_scalar_type {
                            object_writer.write::<_, _, 1>(&prepared_scalar_type);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<Tensor>> for Tensor {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Tensor> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<Tensor>> for Tensor {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Tensor>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<Tensor> for Tensor {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Tensor> {
                Tensor::create(builder, self.scalar_type, &self.sizes, &self.data, &self.dim_order)
            }
        }

        /// Builder for serializing an instance of the [Tensor] type.
        ///
        /// Can be created using the [Tensor::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct TensorBuilder<State>(State);

        impl TensorBuilder<()> {
            /// Setter for the [`scalar_type` field](Tensor#structfield.scalar_type).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn scalar_type<T0>(self, value: T0) -> TensorBuilder<(T0,)>
            where
                T0: ::planus::WriteAsDefault<
                    super::executorch_flatbuffer::ScalarType,
                    super::executorch_flatbuffer::ScalarType,
                >,
            {
                TensorBuilder((value,))
            }

            /// Sets the [`scalar_type` field](Tensor#structfield.scalar_type) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn scalar_type_as_default(self) -> TensorBuilder<(::planus::DefaultValue,)> {
                self.scalar_type(::planus::DefaultValue)
            }
        }

        impl<T0> TensorBuilder<(T0,)> {
            /// Setter for the [`sizes` field](Tensor#structfield.sizes).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn sizes<T1>(self, value: T1) -> TensorBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAsOptional<::planus::Offset<[i32]>>,
            {
                let (v0,) = self.0;
                TensorBuilder((v0, value))
            }

            /// Sets the [`sizes` field](Tensor#structfield.sizes) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn sizes_as_null(self) -> TensorBuilder<(T0, ())> {
                self.sizes(())
            }
        }

        impl<T0, T1> TensorBuilder<(T0, T1)> {
            /// Setter for the [`data` field](Tensor#structfield.data).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn data<T2>(self, value: T2) -> TensorBuilder<(T0, T1, T2)>
            where
                T2: ::planus::WriteAsOptional<::planus::Offset<[u8]>>,
            {
                let (v0, v1) = self.0;
                TensorBuilder((v0, v1, value))
            }

            /// Sets the [`data` field](Tensor#structfield.data) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn data_as_null(self) -> TensorBuilder<(T0, T1, ())> {
                self.data(())
            }
        }

        impl<T0, T1, T2> TensorBuilder<(T0, T1, T2)> {
            /// Setter for the [`dim_order` field](Tensor#structfield.dim_order).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn dim_order<T3>(self, value: T3) -> TensorBuilder<(T0, T1, T2, T3)>
            where
                T3: ::planus::WriteAsOptional<::planus::Offset<[u8]>>,
            {
                let (v0, v1, v2) = self.0;
                TensorBuilder((v0, v1, v2, value))
            }

            /// Sets the [`dim_order` field](Tensor#structfield.dim_order) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn dim_order_as_null(self) -> TensorBuilder<(T0, T1, T2, ())> {
                self.dim_order(())
            }
        }

        impl<T0, T1, T2, T3> TensorBuilder<(T0, T1, T2, T3)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Tensor].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Tensor>
            where
                Self: ::planus::WriteAsOffset<Tensor>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsDefault<
                    super::executorch_flatbuffer::ScalarType,
                    super::executorch_flatbuffer::ScalarType,
                >,
                T1: ::planus::WriteAsOptional<::planus::Offset<[i32]>>,
                T2: ::planus::WriteAsOptional<::planus::Offset<[u8]>>,
                T3: ::planus::WriteAsOptional<::planus::Offset<[u8]>>,
            > ::planus::WriteAs<::planus::Offset<Tensor>> for TensorBuilder<(T0, T1, T2, T3)>
        {
            type Prepared = ::planus::Offset<Tensor>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Tensor> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsDefault<
                    super::executorch_flatbuffer::ScalarType,
                    super::executorch_flatbuffer::ScalarType,
                >,
                T1: ::planus::WriteAsOptional<::planus::Offset<[i32]>>,
                T2: ::planus::WriteAsOptional<::planus::Offset<[u8]>>,
                T3: ::planus::WriteAsOptional<::planus::Offset<[u8]>>,
            > ::planus::WriteAsOptional<::planus::Offset<Tensor>> for TensorBuilder<(T0, T1, T2, T3)>
        {
            type Prepared = ::planus::Offset<Tensor>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Tensor>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAsDefault<
                    super::executorch_flatbuffer::ScalarType,
                    super::executorch_flatbuffer::ScalarType,
                >,
                T1: ::planus::WriteAsOptional<::planus::Offset<[i32]>>,
                T2: ::planus::WriteAsOptional<::planus::Offset<[u8]>>,
                T3: ::planus::WriteAsOptional<::planus::Offset<[u8]>>,
            > ::planus::WriteAsOffset<Tensor> for TensorBuilder<(T0, T1, T2, T3)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Tensor> {
                let (v0, v1, v2, v3) = &self.0;
                Tensor::create(builder, v0, v1, v2, v3)
            }
        }

        /// Reference to a deserialized [Tensor].
        #[derive(Copy, Clone)]
        pub struct TensorRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> TensorRef<'a> {
            /// Getter for the [`scalar_type` field](Tensor#structfield.scalar_type).
            #[inline]
            pub fn scalar_type(&self) -> ::planus::Result<super::executorch_flatbuffer::ScalarType> {
                ::core::result::Result::Ok(
                    self.0
                        .access(0, "Tensor", "scalar_type")?
                        .unwrap_or(super::executorch_flatbuffer::ScalarType::Byte),
                )
            }

            /// Getter for the [`sizes` field](Tensor#structfield.sizes).
            #[inline]
            pub fn sizes(&self) -> ::planus::Result<::core::option::Option<::planus::Vector<'a, i32>>> {
                self.0.access(1, "Tensor", "sizes")
            }

            /// Getter for the [`data` field](Tensor#structfield.data).
            #[inline]
            pub fn data(&self) -> ::planus::Result<::core::option::Option<&'a [u8]>> {
                self.0.access(2, "Tensor", "data")
            }

            /// Getter for the [`dim_order` field](Tensor#structfield.dim_order).
            #[inline]
            pub fn dim_order(&self) -> ::planus::Result<::core::option::Option<&'a [u8]>> {
                self.0.access(3, "Tensor", "dim_order")
            }
        }

        impl<'a> ::core::fmt::Debug for TensorRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("TensorRef");
                f.field("scalar_type", &self.scalar_type());
                if let ::core::option::Option::Some(field_sizes) = self.sizes().transpose() {
                    f.field("sizes", &field_sizes);
                }
                if let ::core::option::Option::Some(field_data) = self.data().transpose() {
                    f.field("data", &field_data);
                }
                if let ::core::option::Option::Some(field_dim_order) = self.dim_order().transpose() {
                    f.field("dim_order", &field_dim_order);
                }
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<TensorRef<'a>> for Tensor {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: TensorRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    scalar_type: ::core::convert::TryInto::try_into(value.scalar_type()?)?,
                    sizes: if let ::core::option::Option::Some(sizes) = value.sizes()? {
                        ::core::option::Option::Some(sizes.to_vec()?)
                    } else {
                        ::core::option::Option::None
                    },
                    data: value.data()?.map(|v| v.to_vec()),
                    dim_order: value.dim_order()?.map(|v| v.to_vec()),
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for TensorRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for TensorRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[TensorRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<Tensor>> for Tensor {
            type Value = ::planus::Offset<Tensor>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<Tensor>],
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

        impl<'a> ::planus::ReadAsRoot<'a> for TensorRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[TensorRef]", "read_as_root", 0))
            }
        }

        /// The union `ValueUnion` in the namespace `bundled_program_flatbuffer`
        ///
        /// Generated from these locations:
        /// * Union `ValueUnion` in the file `schema/bundled_program_schema.fbs:36`
        #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
        pub enum ValueUnion {
            /// The variant of type `Tensor` in the union `ValueUnion`
            Tensor(::planus::alloc::boxed::Box<self::Tensor>),

            /// The variant of type `Int` in the union `ValueUnion`
            Int(::planus::alloc::boxed::Box<self::Int>),

            /// The variant of type `Bool` in the union `ValueUnion`
            Bool(::planus::alloc::boxed::Box<self::Bool>),

            /// The variant of type `Double` in the union `ValueUnion`
            Double(::planus::alloc::boxed::Box<self::Double>),
        }

        impl ValueUnion {
            /// Creates a [ValueUnionBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> ValueUnionBuilder<::planus::Uninitialized> {
                ValueUnionBuilder(::planus::Uninitialized)
            }

            #[inline]
            pub fn create_tensor(
                builder: &mut ::planus::Builder,
                value: impl ::planus::WriteAsOffset<self::Tensor>,
            ) -> ::planus::UnionOffset<Self> {
                ::planus::UnionOffset::new(1, value.prepare(builder).downcast())
            }

            #[inline]
            pub fn create_int(
                builder: &mut ::planus::Builder,
                value: impl ::planus::WriteAsOffset<self::Int>,
            ) -> ::planus::UnionOffset<Self> {
                ::planus::UnionOffset::new(2, value.prepare(builder).downcast())
            }

            #[inline]
            pub fn create_bool(
                builder: &mut ::planus::Builder,
                value: impl ::planus::WriteAsOffset<self::Bool>,
            ) -> ::planus::UnionOffset<Self> {
                ::planus::UnionOffset::new(3, value.prepare(builder).downcast())
            }

            #[inline]
            pub fn create_double(
                builder: &mut ::planus::Builder,
                value: impl ::planus::WriteAsOffset<self::Double>,
            ) -> ::planus::UnionOffset<Self> {
                ::planus::UnionOffset::new(4, value.prepare(builder).downcast())
            }
        }

        impl ::planus::WriteAsUnion<ValueUnion> for ValueUnion {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<Self> {
                match self {
                    Self::Tensor(value) => Self::create_tensor(builder, value),
                    Self::Int(value) => Self::create_int(builder, value),
                    Self::Bool(value) => Self::create_bool(builder, value),
                    Self::Double(value) => Self::create_double(builder, value),
                }
            }
        }

        impl ::planus::WriteAsOptionalUnion<ValueUnion> for ValueUnion {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::UnionOffset<Self>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }

        /// Builder for serializing an instance of the [ValueUnion] type.
        ///
        /// Can be created using the [ValueUnion::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct ValueUnionBuilder<T>(T);

        impl ValueUnionBuilder<::planus::Uninitialized> {
            /// Creates an instance of the [`Tensor` variant](ValueUnion#variant.Tensor).
            #[inline]
            pub fn tensor<T>(self, value: T) -> ValueUnionBuilder<::planus::Initialized<1, T>>
            where
                T: ::planus::WriteAsOffset<self::Tensor>,
            {
                ValueUnionBuilder(::planus::Initialized(value))
            }

            /// Creates an instance of the [`Int` variant](ValueUnion#variant.Int).
            #[inline]
            pub fn int<T>(self, value: T) -> ValueUnionBuilder<::planus::Initialized<2, T>>
            where
                T: ::planus::WriteAsOffset<self::Int>,
            {
                ValueUnionBuilder(::planus::Initialized(value))
            }

            /// Creates an instance of the [`Bool` variant](ValueUnion#variant.Bool).
            #[inline]
            pub fn bool<T>(self, value: T) -> ValueUnionBuilder<::planus::Initialized<3, T>>
            where
                T: ::planus::WriteAsOffset<self::Bool>,
            {
                ValueUnionBuilder(::planus::Initialized(value))
            }

            /// Creates an instance of the [`Double` variant](ValueUnion#variant.Double).
            #[inline]
            pub fn double<T>(self, value: T) -> ValueUnionBuilder<::planus::Initialized<4, T>>
            where
                T: ::planus::WriteAsOffset<self::Double>,
            {
                ValueUnionBuilder(::planus::Initialized(value))
            }
        }

        impl<const N: u8, T> ValueUnionBuilder<::planus::Initialized<N, T>> {
            /// Finish writing the builder to get an [UnionOffset](::planus::UnionOffset) to a serialized [ValueUnion].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ValueUnion>
            where
                Self: ::planus::WriteAsUnion<ValueUnion>,
            {
                ::planus::WriteAsUnion::prepare(&self, builder)
            }
        }

        impl<T> ::planus::WriteAsUnion<ValueUnion> for ValueUnionBuilder<::planus::Initialized<1, T>>
        where
            T: ::planus::WriteAsOffset<self::Tensor>,
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ValueUnion> {
                ::planus::UnionOffset::new(1, (self.0).0.prepare(builder).downcast())
            }
        }

        impl<T> ::planus::WriteAsOptionalUnion<ValueUnion> for ValueUnionBuilder<::planus::Initialized<1, T>>
        where
            T: ::planus::WriteAsOffset<self::Tensor>,
        {
            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::UnionOffset<ValueUnion>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }
        impl<T> ::planus::WriteAsUnion<ValueUnion> for ValueUnionBuilder<::planus::Initialized<2, T>>
        where
            T: ::planus::WriteAsOffset<self::Int>,
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ValueUnion> {
                ::planus::UnionOffset::new(2, (self.0).0.prepare(builder).downcast())
            }
        }

        impl<T> ::planus::WriteAsOptionalUnion<ValueUnion> for ValueUnionBuilder<::planus::Initialized<2, T>>
        where
            T: ::planus::WriteAsOffset<self::Int>,
        {
            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::UnionOffset<ValueUnion>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }
        impl<T> ::planus::WriteAsUnion<ValueUnion> for ValueUnionBuilder<::planus::Initialized<3, T>>
        where
            T: ::planus::WriteAsOffset<self::Bool>,
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ValueUnion> {
                ::planus::UnionOffset::new(3, (self.0).0.prepare(builder).downcast())
            }
        }

        impl<T> ::planus::WriteAsOptionalUnion<ValueUnion> for ValueUnionBuilder<::planus::Initialized<3, T>>
        where
            T: ::planus::WriteAsOffset<self::Bool>,
        {
            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::UnionOffset<ValueUnion>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }
        impl<T> ::planus::WriteAsUnion<ValueUnion> for ValueUnionBuilder<::planus::Initialized<4, T>>
        where
            T: ::planus::WriteAsOffset<self::Double>,
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::UnionOffset<ValueUnion> {
                ::planus::UnionOffset::new(4, (self.0).0.prepare(builder).downcast())
            }
        }

        impl<T> ::planus::WriteAsOptionalUnion<ValueUnion> for ValueUnionBuilder<::planus::Initialized<4, T>>
        where
            T: ::planus::WriteAsOffset<self::Double>,
        {
            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::UnionOffset<ValueUnion>> {
                ::core::option::Option::Some(::planus::WriteAsUnion::prepare(self, builder))
            }
        }

        /// Reference to a deserialized [ValueUnion].
        #[derive(Copy, Clone, Debug)]
        pub enum ValueUnionRef<'a> {
            Tensor(self::TensorRef<'a>),
            Int(self::IntRef<'a>),
            Bool(self::BoolRef<'a>),
            Double(self::DoubleRef<'a>),
        }

        impl<'a> ::core::convert::TryFrom<ValueUnionRef<'a>> for ValueUnion {
            type Error = ::planus::Error;

            fn try_from(value: ValueUnionRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(match value {
                    ValueUnionRef::Tensor(value) => {
                        Self::Tensor(::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?))
                    }

                    ValueUnionRef::Int(value) => {
                        Self::Int(::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?))
                    }

                    ValueUnionRef::Bool(value) => {
                        Self::Bool(::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?))
                    }

                    ValueUnionRef::Double(value) => {
                        Self::Double(::planus::alloc::boxed::Box::new(::core::convert::TryFrom::try_from(value)?))
                    }
                })
            }
        }

        impl<'a> ::planus::TableReadUnion<'a> for ValueUnionRef<'a> {
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                tag: u8,
                field_offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                match tag {
                    1 => ::core::result::Result::Ok(Self::Tensor(::planus::TableRead::from_buffer(
                        buffer,
                        field_offset,
                    )?)),
                    2 => ::core::result::Result::Ok(Self::Int(::planus::TableRead::from_buffer(buffer, field_offset)?)),
                    3 => {
                        ::core::result::Result::Ok(Self::Bool(::planus::TableRead::from_buffer(buffer, field_offset)?))
                    }
                    4 => ::core::result::Result::Ok(Self::Double(::planus::TableRead::from_buffer(
                        buffer,
                        field_offset,
                    )?)),
                    _ => ::core::result::Result::Err(::planus::errors::ErrorKind::UnknownUnionTag { tag }),
                }
            }
        }

        impl<'a> ::planus::VectorReadUnion<'a> for ValueUnionRef<'a> {
            const VECTOR_NAME: &'static str = "[ValueUnionRef]";
        }

        /// The table `Value` in the namespace `bundled_program_flatbuffer`
        ///
        /// Generated from these locations:
        /// * Table `Value` in the file `schema/bundled_program_schema.fbs:43`
        #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
        pub struct Value {
            /// The field `val` in the table `Value`
            pub val: ::core::option::Option<self::ValueUnion>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for Value {
            fn default() -> Self {
                Self { val: ::core::default::Default::default() }
            }
        }

        impl Value {
            /// Creates a [ValueBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> ValueBuilder<()> {
                ValueBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_val: impl ::planus::WriteAsOptionalUnion<self::ValueUnion>,
            ) -> ::planus::Offset<Self> {
                let prepared_val = field_val.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                if prepared_val.is_some() {
                    table_writer.write_entry::<::planus::Offset<self::ValueUnion>>(1);
                }
                if prepared_val.is_some() {
                    table_writer.write_entry::<u8>(0);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        if let ::core::option::Option::Some(prepared_val) = prepared_val {
                            object_writer.write::<_, _, 4>(&prepared_val.offset());
                        }
                        if let ::core::option::Option::Some(prepared_val) = prepared_val {
                            object_writer.write::<_, _, 1>(&prepared_val.tag());
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<Value>> for Value {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Value> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<Value>> for Value {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Value>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<Value> for Value {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Value> {
                Value::create(builder, &self.val)
            }
        }

        /// Builder for serializing an instance of the [Value] type.
        ///
        /// Can be created using the [Value::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct ValueBuilder<State>(State);

        impl ValueBuilder<()> {
            /// Setter for the [`val` field](Value#structfield.val).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn val<T0>(self, value: T0) -> ValueBuilder<(T0,)>
            where
                T0: ::planus::WriteAsOptionalUnion<self::ValueUnion>,
            {
                ValueBuilder((value,))
            }

            /// Sets the [`val` field](Value#structfield.val) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn val_as_null(self) -> ValueBuilder<((),)> {
                self.val(())
            }
        }

        impl<T0> ValueBuilder<(T0,)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [Value].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<Value>
            where
                Self: ::planus::WriteAsOffset<Value>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<T0: ::planus::WriteAsOptionalUnion<self::ValueUnion>> ::planus::WriteAs<::planus::Offset<Value>>
            for ValueBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<Value>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Value> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<T0: ::planus::WriteAsOptionalUnion<self::ValueUnion>> ::planus::WriteAsOptional<::planus::Offset<Value>>
            for ValueBuilder<(T0,)>
        {
            type Prepared = ::planus::Offset<Value>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<Value>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<T0: ::planus::WriteAsOptionalUnion<self::ValueUnion>> ::planus::WriteAsOffset<Value> for ValueBuilder<(T0,)> {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<Value> {
                let (v0,) = &self.0;
                Value::create(builder, v0)
            }
        }

        /// Reference to a deserialized [Value].
        #[derive(Copy, Clone)]
        pub struct ValueRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> ValueRef<'a> {
            /// Getter for the [`val` field](Value#structfield.val).
            #[inline]
            pub fn val(&self) -> ::planus::Result<::core::option::Option<self::ValueUnionRef<'a>>> {
                self.0.access_union(0, "Value", "val")
            }
        }

        impl<'a> ::core::fmt::Debug for ValueRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("ValueRef");
                if let ::core::option::Option::Some(field_val) = self.val().transpose() {
                    f.field("val", &field_val);
                }
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<ValueRef<'a>> for Value {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: ValueRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    val: if let ::core::option::Option::Some(val) = value.val()? {
                        ::core::option::Option::Some(::core::convert::TryInto::try_into(val)?)
                    } else {
                        ::core::option::Option::None
                    },
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for ValueRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for ValueRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset)
                    .map_err(|error_kind| error_kind.with_error_location("[ValueRef]", "get", buffer.offset_from_start))
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<Value>> for Value {
            type Value = ::planus::Offset<Value>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<Value>],
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

        impl<'a> ::planus::ReadAsRoot<'a> for ValueRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[ValueRef]", "read_as_root", 0))
            }
        }

        /// The table `BundledMethodTestCase` in the namespace `bundled_program_flatbuffer`
        ///
        /// Generated from these locations:
        /// * Table `BundledMethodTestCase` in the file `schema/bundled_program_schema.fbs:48`
        #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
        pub struct BundledMethodTestCase {
            /// The field `inputs` in the table `BundledMethodTestCase`
            pub inputs: ::core::option::Option<::planus::alloc::vec::Vec<self::Value>>,
            /// The field `expected_outputs` in the table `BundledMethodTestCase`
            pub expected_outputs: ::core::option::Option<::planus::alloc::vec::Vec<self::Value>>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for BundledMethodTestCase {
            fn default() -> Self {
                Self {
                    inputs: ::core::default::Default::default(),
                    expected_outputs: ::core::default::Default::default(),
                }
            }
        }

        impl BundledMethodTestCase {
            /// Creates a [BundledMethodTestCaseBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> BundledMethodTestCaseBuilder<()> {
                BundledMethodTestCaseBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_inputs: impl ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Value>]>>,
                field_expected_outputs: impl ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Value>]>>,
            ) -> ::planus::Offset<Self> {
                let prepared_inputs = field_inputs.prepare(builder);
                let prepared_expected_outputs = field_expected_outputs.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                if prepared_inputs.is_some() {
                    table_writer.write_entry::<::planus::Offset<[::planus::Offset<self::Value>]>>(0);
                }
                if prepared_expected_outputs.is_some() {
                    table_writer.write_entry::<::planus::Offset<[::planus::Offset<self::Value>]>>(1);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        if let ::core::option::Option::Some(prepared_inputs) = prepared_inputs {
                            object_writer.write::<_, _, 4>(&prepared_inputs);
                        }
                        if let ::core::option::Option::Some(prepared_expected_outputs) = prepared_expected_outputs {
                            object_writer.write::<_, _, 4>(&prepared_expected_outputs);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<BundledMethodTestCase>> for BundledMethodTestCase {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BundledMethodTestCase> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<BundledMethodTestCase>> for BundledMethodTestCase {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<BundledMethodTestCase>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<BundledMethodTestCase> for BundledMethodTestCase {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BundledMethodTestCase> {
                BundledMethodTestCase::create(builder, &self.inputs, &self.expected_outputs)
            }
        }

        /// Builder for serializing an instance of the [BundledMethodTestCase] type.
        ///
        /// Can be created using the [BundledMethodTestCase::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct BundledMethodTestCaseBuilder<State>(State);

        impl BundledMethodTestCaseBuilder<()> {
            /// Setter for the [`inputs` field](BundledMethodTestCase#structfield.inputs).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn inputs<T0>(self, value: T0) -> BundledMethodTestCaseBuilder<(T0,)>
            where
                T0: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Value>]>>,
            {
                BundledMethodTestCaseBuilder((value,))
            }

            /// Sets the [`inputs` field](BundledMethodTestCase#structfield.inputs) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn inputs_as_null(self) -> BundledMethodTestCaseBuilder<((),)> {
                self.inputs(())
            }
        }

        impl<T0> BundledMethodTestCaseBuilder<(T0,)> {
            /// Setter for the [`expected_outputs` field](BundledMethodTestCase#structfield.expected_outputs).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn expected_outputs<T1>(self, value: T1) -> BundledMethodTestCaseBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Value>]>>,
            {
                let (v0,) = self.0;
                BundledMethodTestCaseBuilder((v0, value))
            }

            /// Sets the [`expected_outputs` field](BundledMethodTestCase#structfield.expected_outputs) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn expected_outputs_as_null(self) -> BundledMethodTestCaseBuilder<(T0, ())> {
                self.expected_outputs(())
            }
        }

        impl<T0, T1> BundledMethodTestCaseBuilder<(T0, T1)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [BundledMethodTestCase].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<BundledMethodTestCase>
            where
                Self: ::planus::WriteAsOffset<BundledMethodTestCase>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Value>]>>,
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Value>]>>,
            > ::planus::WriteAs<::planus::Offset<BundledMethodTestCase>> for BundledMethodTestCaseBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<BundledMethodTestCase>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BundledMethodTestCase> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Value>]>>,
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Value>]>>,
            > ::planus::WriteAsOptional<::planus::Offset<BundledMethodTestCase>>
            for BundledMethodTestCaseBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<BundledMethodTestCase>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<BundledMethodTestCase>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Value>]>>,
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::Value>]>>,
            > ::planus::WriteAsOffset<BundledMethodTestCase> for BundledMethodTestCaseBuilder<(T0, T1)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BundledMethodTestCase> {
                let (v0, v1) = &self.0;
                BundledMethodTestCase::create(builder, v0, v1)
            }
        }

        /// Reference to a deserialized [BundledMethodTestCase].
        #[derive(Copy, Clone)]
        pub struct BundledMethodTestCaseRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> BundledMethodTestCaseRef<'a> {
            /// Getter for the [`inputs` field](BundledMethodTestCase#structfield.inputs).
            #[inline]
            pub fn inputs(
                &self,
            ) -> ::planus::Result<::core::option::Option<::planus::Vector<'a, ::planus::Result<self::ValueRef<'a>>>>>
            {
                self.0.access(0, "BundledMethodTestCase", "inputs")
            }

            /// Getter for the [`expected_outputs` field](BundledMethodTestCase#structfield.expected_outputs).
            #[inline]
            pub fn expected_outputs(
                &self,
            ) -> ::planus::Result<::core::option::Option<::planus::Vector<'a, ::planus::Result<self::ValueRef<'a>>>>>
            {
                self.0.access(1, "BundledMethodTestCase", "expected_outputs")
            }
        }

        impl<'a> ::core::fmt::Debug for BundledMethodTestCaseRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("BundledMethodTestCaseRef");
                if let ::core::option::Option::Some(field_inputs) = self.inputs().transpose() {
                    f.field("inputs", &field_inputs);
                }
                if let ::core::option::Option::Some(field_expected_outputs) = self.expected_outputs().transpose() {
                    f.field("expected_outputs", &field_expected_outputs);
                }
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<BundledMethodTestCaseRef<'a>> for BundledMethodTestCase {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: BundledMethodTestCaseRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    inputs: if let ::core::option::Option::Some(inputs) = value.inputs()? {
                        ::core::option::Option::Some(inputs.to_vec_result()?)
                    } else {
                        ::core::option::Option::None
                    },
                    expected_outputs: if let ::core::option::Option::Some(expected_outputs) =
                        value.expected_outputs()?
                    {
                        ::core::option::Option::Some(expected_outputs.to_vec_result()?)
                    } else {
                        ::core::option::Option::None
                    },
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for BundledMethodTestCaseRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for BundledMethodTestCaseRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[BundledMethodTestCaseRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<BundledMethodTestCase>> for BundledMethodTestCase {
            type Value = ::planus::Offset<BundledMethodTestCase>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<BundledMethodTestCase>],
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

        impl<'a> ::planus::ReadAsRoot<'a> for BundledMethodTestCaseRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[BundledMethodTestCaseRef]", "read_as_root", 0))
            }
        }

        /// The table `BundledMethodTestSuite` in the namespace `bundled_program_flatbuffer`
        ///
        /// Generated from these locations:
        /// * Table `BundledMethodTestSuite` in the file `schema/bundled_program_schema.fbs:54`
        #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
        pub struct BundledMethodTestSuite {
            /// The field `method_name` in the table `BundledMethodTestSuite`
            pub method_name: ::core::option::Option<::planus::alloc::string::String>,
            /// The field `test_cases` in the table `BundledMethodTestSuite`
            pub test_cases: ::core::option::Option<::planus::alloc::vec::Vec<self::BundledMethodTestCase>>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for BundledMethodTestSuite {
            fn default() -> Self {
                Self {
                    method_name: ::core::default::Default::default(),
                    test_cases: ::core::default::Default::default(),
                }
            }
        }

        impl BundledMethodTestSuite {
            /// Creates a [BundledMethodTestSuiteBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> BundledMethodTestSuiteBuilder<()> {
                BundledMethodTestSuiteBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_method_name: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                field_test_cases: impl ::planus::WriteAsOptional<
                    ::planus::Offset<[::planus::Offset<self::BundledMethodTestCase>]>,
                >,
            ) -> ::planus::Offset<Self> {
                let prepared_method_name = field_method_name.prepare(builder);
                let prepared_test_cases = field_test_cases.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                if prepared_method_name.is_some() {
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                }
                if prepared_test_cases.is_some() {
                    table_writer.write_entry::<::planus::Offset<[::planus::Offset<self::BundledMethodTestCase>]>>(1);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        if let ::core::option::Option::Some(prepared_method_name) = prepared_method_name {
                            object_writer.write::<_, _, 4>(&prepared_method_name);
                        }
                        if let ::core::option::Option::Some(prepared_test_cases) = prepared_test_cases {
                            object_writer.write::<_, _, 4>(&prepared_test_cases);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<BundledMethodTestSuite>> for BundledMethodTestSuite {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BundledMethodTestSuite> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<BundledMethodTestSuite>> for BundledMethodTestSuite {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<BundledMethodTestSuite>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<BundledMethodTestSuite> for BundledMethodTestSuite {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BundledMethodTestSuite> {
                BundledMethodTestSuite::create(builder, &self.method_name, &self.test_cases)
            }
        }

        /// Builder for serializing an instance of the [BundledMethodTestSuite] type.
        ///
        /// Can be created using the [BundledMethodTestSuite::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct BundledMethodTestSuiteBuilder<State>(State);

        impl BundledMethodTestSuiteBuilder<()> {
            /// Setter for the [`method_name` field](BundledMethodTestSuite#structfield.method_name).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn method_name<T0>(self, value: T0) -> BundledMethodTestSuiteBuilder<(T0,)>
            where
                T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            {
                BundledMethodTestSuiteBuilder((value,))
            }

            /// Sets the [`method_name` field](BundledMethodTestSuite#structfield.method_name) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn method_name_as_null(self) -> BundledMethodTestSuiteBuilder<((),)> {
                self.method_name(())
            }
        }

        impl<T0> BundledMethodTestSuiteBuilder<(T0,)> {
            /// Setter for the [`test_cases` field](BundledMethodTestSuite#structfield.test_cases).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn test_cases<T1>(self, value: T1) -> BundledMethodTestSuiteBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::BundledMethodTestCase>]>>,
            {
                let (v0,) = self.0;
                BundledMethodTestSuiteBuilder((v0, value))
            }

            /// Sets the [`test_cases` field](BundledMethodTestSuite#structfield.test_cases) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn test_cases_as_null(self) -> BundledMethodTestSuiteBuilder<(T0, ())> {
                self.test_cases(())
            }
        }

        impl<T0, T1> BundledMethodTestSuiteBuilder<(T0, T1)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [BundledMethodTestSuite].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<BundledMethodTestSuite>
            where
                Self: ::planus::WriteAsOffset<BundledMethodTestSuite>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::BundledMethodTestCase>]>>,
            > ::planus::WriteAs<::planus::Offset<BundledMethodTestSuite>> for BundledMethodTestSuiteBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<BundledMethodTestSuite>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BundledMethodTestSuite> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::BundledMethodTestCase>]>>,
            > ::planus::WriteAsOptional<::planus::Offset<BundledMethodTestSuite>>
            for BundledMethodTestSuiteBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<BundledMethodTestSuite>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<BundledMethodTestSuite>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::BundledMethodTestCase>]>>,
            > ::planus::WriteAsOffset<BundledMethodTestSuite> for BundledMethodTestSuiteBuilder<(T0, T1)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BundledMethodTestSuite> {
                let (v0, v1) = &self.0;
                BundledMethodTestSuite::create(builder, v0, v1)
            }
        }

        /// Reference to a deserialized [BundledMethodTestSuite].
        #[derive(Copy, Clone)]
        pub struct BundledMethodTestSuiteRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> BundledMethodTestSuiteRef<'a> {
            /// Getter for the [`method_name` field](BundledMethodTestSuite#structfield.method_name).
            #[inline]
            pub fn method_name(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                self.0.access(0, "BundledMethodTestSuite", "method_name")
            }

            /// Getter for the [`test_cases` field](BundledMethodTestSuite#structfield.test_cases).
            #[inline]
            pub fn test_cases(
                &self,
            ) -> ::planus::Result<
                ::core::option::Option<::planus::Vector<'a, ::planus::Result<self::BundledMethodTestCaseRef<'a>>>>,
            > {
                self.0.access(1, "BundledMethodTestSuite", "test_cases")
            }
        }

        impl<'a> ::core::fmt::Debug for BundledMethodTestSuiteRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("BundledMethodTestSuiteRef");
                if let ::core::option::Option::Some(field_method_name) = self.method_name().transpose() {
                    f.field("method_name", &field_method_name);
                }
                if let ::core::option::Option::Some(field_test_cases) = self.test_cases().transpose() {
                    f.field("test_cases", &field_test_cases);
                }
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<BundledMethodTestSuiteRef<'a>> for BundledMethodTestSuite {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: BundledMethodTestSuiteRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    method_name: value.method_name()?.map(::core::convert::Into::into),
                    test_cases: if let ::core::option::Option::Some(test_cases) = value.test_cases()? {
                        ::core::option::Option::Some(test_cases.to_vec_result()?)
                    } else {
                        ::core::option::Option::None
                    },
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for BundledMethodTestSuiteRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for BundledMethodTestSuiteRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[BundledMethodTestSuiteRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<BundledMethodTestSuite>> for BundledMethodTestSuite {
            type Value = ::planus::Offset<BundledMethodTestSuite>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<BundledMethodTestSuite>],
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

        impl<'a> ::planus::ReadAsRoot<'a> for BundledMethodTestSuiteRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[BundledMethodTestSuiteRef]", "read_as_root", 0))
            }
        }

        /// The table `BundledProgram` in the namespace `bundled_program_flatbuffer`
        ///
        /// Generated from these locations:
        /// * Table `BundledProgram` in the file `schema/bundled_program_schema.fbs:59`
        #[derive(Clone, Debug, PartialEq, PartialOrd, ::serde::Serialize, ::serde::Deserialize)]
        pub struct BundledProgram {
            /// The field `version` in the table `BundledProgram`
            pub version: u32,
            /// The field `method_test_suites` in the table `BundledProgram`
            pub method_test_suites: ::core::option::Option<::planus::alloc::vec::Vec<self::BundledMethodTestSuite>>,
            /// The field `program` in the table `BundledProgram`
            pub program: ::core::option::Option<::planus::alloc::vec::Vec<u8>>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for BundledProgram {
            fn default() -> Self {
                Self {
                    version: 0,
                    method_test_suites: ::core::default::Default::default(),
                    program: ::core::default::Default::default(),
                }
            }
        }

        impl BundledProgram {
            /// Creates a [BundledProgramBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> BundledProgramBuilder<()> {
                BundledProgramBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_version: impl ::planus::WriteAsDefault<u32, u32>,
                field_method_test_suites: impl ::planus::WriteAsOptional<
                    ::planus::Offset<[::planus::Offset<self::BundledMethodTestSuite>]>,
                >,
                field_program: impl ::planus::WriteAsOptional<::planus::Offset<[u8]>>,
            ) -> ::planus::Offset<Self> {
                let prepared_version = field_version.prepare(builder, &0);
                let prepared_method_test_suites = field_method_test_suites.prepare(builder);
                let prepared_program = field_program.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<10> = ::core::default::Default::default();
                if prepared_program.is_some() {
                    table_writer.write_entry::<::planus::Offset<[u8]>>(2);
                }
                if prepared_version.is_some() {
                    table_writer.write_entry::<u32>(0);
                }
                if prepared_method_test_suites.is_some() {
                    table_writer.write_entry::<::planus::Offset<[::planus::Offset<self::BundledMethodTestSuite>]>>(1);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        if let ::core::option::Option::Some(prepared_program) = prepared_program {
                            object_writer.write::<_, _, 4>(&prepared_program);
                        }
                        if let ::core::option::Option::Some(prepared_version) = prepared_version {
                            object_writer.write::<_, _, 4>(&prepared_version);
                        }
                        if let ::core::option::Option::Some(prepared_method_test_suites) = prepared_method_test_suites {
                            object_writer.write::<_, _, 4>(&prepared_method_test_suites);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<BundledProgram>> for BundledProgram {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BundledProgram> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<BundledProgram>> for BundledProgram {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<BundledProgram>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<BundledProgram> for BundledProgram {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BundledProgram> {
                BundledProgram::create(builder, self.version, &self.method_test_suites, &self.program)
            }
        }

        /// Builder for serializing an instance of the [BundledProgram] type.
        ///
        /// Can be created using the [BundledProgram::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct BundledProgramBuilder<State>(State);

        impl BundledProgramBuilder<()> {
            /// Setter for the [`version` field](BundledProgram#structfield.version).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn version<T0>(self, value: T0) -> BundledProgramBuilder<(T0,)>
            where
                T0: ::planus::WriteAsDefault<u32, u32>,
            {
                BundledProgramBuilder((value,))
            }

            /// Sets the [`version` field](BundledProgram#structfield.version) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn version_as_default(self) -> BundledProgramBuilder<(::planus::DefaultValue,)> {
                self.version(::planus::DefaultValue)
            }
        }

        impl<T0> BundledProgramBuilder<(T0,)> {
            /// Setter for the [`method_test_suites` field](BundledProgram#structfield.method_test_suites).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn method_test_suites<T1>(self, value: T1) -> BundledProgramBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::BundledMethodTestSuite>]>>,
            {
                let (v0,) = self.0;
                BundledProgramBuilder((v0, value))
            }

            /// Sets the [`method_test_suites` field](BundledProgram#structfield.method_test_suites) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn method_test_suites_as_null(self) -> BundledProgramBuilder<(T0, ())> {
                self.method_test_suites(())
            }
        }

        impl<T0, T1> BundledProgramBuilder<(T0, T1)> {
            /// Setter for the [`program` field](BundledProgram#structfield.program).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn program<T2>(self, value: T2) -> BundledProgramBuilder<(T0, T1, T2)>
            where
                T2: ::planus::WriteAsOptional<::planus::Offset<[u8]>>,
            {
                let (v0, v1) = self.0;
                BundledProgramBuilder((v0, v1, value))
            }

            /// Sets the [`program` field](BundledProgram#structfield.program) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn program_as_null(self) -> BundledProgramBuilder<(T0, T1, ())> {
                self.program(())
            }
        }

        impl<T0, T1, T2> BundledProgramBuilder<(T0, T1, T2)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [BundledProgram].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<BundledProgram>
            where
                Self: ::planus::WriteAsOffset<BundledProgram>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsDefault<u32, u32>,
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::BundledMethodTestSuite>]>>,
                T2: ::planus::WriteAsOptional<::planus::Offset<[u8]>>,
            > ::planus::WriteAs<::planus::Offset<BundledProgram>> for BundledProgramBuilder<(T0, T1, T2)>
        {
            type Prepared = ::planus::Offset<BundledProgram>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BundledProgram> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsDefault<u32, u32>,
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::BundledMethodTestSuite>]>>,
                T2: ::planus::WriteAsOptional<::planus::Offset<[u8]>>,
            > ::planus::WriteAsOptional<::planus::Offset<BundledProgram>> for BundledProgramBuilder<(T0, T1, T2)>
        {
            type Prepared = ::planus::Offset<BundledProgram>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<BundledProgram>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAsDefault<u32, u32>,
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::BundledMethodTestSuite>]>>,
                T2: ::planus::WriteAsOptional<::planus::Offset<[u8]>>,
            > ::planus::WriteAsOffset<BundledProgram> for BundledProgramBuilder<(T0, T1, T2)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<BundledProgram> {
                let (v0, v1, v2) = &self.0;
                BundledProgram::create(builder, v0, v1, v2)
            }
        }

        /// Reference to a deserialized [BundledProgram].
        #[derive(Copy, Clone)]
        pub struct BundledProgramRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> BundledProgramRef<'a> {
            /// Getter for the [`version` field](BundledProgram#structfield.version).
            #[inline]
            pub fn version(&self) -> ::planus::Result<u32> {
                ::core::result::Result::Ok(self.0.access(0, "BundledProgram", "version")?.unwrap_or(0))
            }

            /// Getter for the [`method_test_suites` field](BundledProgram#structfield.method_test_suites).
            #[inline]
            pub fn method_test_suites(
                &self,
            ) -> ::planus::Result<
                ::core::option::Option<::planus::Vector<'a, ::planus::Result<self::BundledMethodTestSuiteRef<'a>>>>,
            > {
                self.0.access(1, "BundledProgram", "method_test_suites")
            }

            /// Getter for the [`program` field](BundledProgram#structfield.program).
            #[inline]
            pub fn program(&self) -> ::planus::Result<::core::option::Option<&'a [u8]>> {
                self.0.access(2, "BundledProgram", "program")
            }
        }

        impl<'a> ::core::fmt::Debug for BundledProgramRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("BundledProgramRef");
                f.field("version", &self.version());
                if let ::core::option::Option::Some(field_method_test_suites) = self.method_test_suites().transpose() {
                    f.field("method_test_suites", &field_method_test_suites);
                }
                if let ::core::option::Option::Some(field_program) = self.program().transpose() {
                    f.field("program", &field_program);
                }
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<BundledProgramRef<'a>> for BundledProgram {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: BundledProgramRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    version: ::core::convert::TryInto::try_into(value.version()?)?,
                    method_test_suites: if let ::core::option::Option::Some(method_test_suites) =
                        value.method_test_suites()?
                    {
                        ::core::option::Option::Some(method_test_suites.to_vec_result()?)
                    } else {
                        ::core::option::Option::None
                    },
                    program: value.program()?.map(|v| v.to_vec()),
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for BundledProgramRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for BundledProgramRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[BundledProgramRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<BundledProgram>> for BundledProgram {
            type Value = ::planus::Offset<BundledProgram>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<BundledProgram>],
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

        impl<'a> ::planus::ReadAsRoot<'a> for BundledProgramRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[BundledProgramRef]", "read_as_root", 0))
            }
        }
    }
    /// The namespace `executorch_flatbuffer`
    ///
    /// Generated from these locations:
    /// * File `schema/scalar_type.fbs`
    pub mod executorch_flatbuffer {
        /// The enum `ScalarType` in the namespace `executorch_flatbuffer`
        ///
        /// Generated from these locations:
        /// * Enum `ScalarType` in the file `schema/scalar_type.fbs:7`
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

            /// The variant `QINT8` in the enum `ScalarType`
            Qint8 = 12,

            /// The variant `QUINT8` in the enum `ScalarType`
            Quint8 = 13,

            /// The variant `QINT32` in the enum `ScalarType`
            Qint32 = 14,

            /// The variant `BFLOAT16` in the enum `ScalarType`
            Bfloat16 = 15,

            /// The variant `QUINT4X2` in the enum `ScalarType`
            Quint4x2 = 16,

            /// The variant `QUINT2X4` in the enum `ScalarType`
            Quint2x4 = 17,

            /// The variant `BITS16` in the enum `ScalarType`
            Bits16 = 22,

            /// The variant `FLOAT8E5M2` in the enum `ScalarType`
            Float8e5m2 = 23,

            /// The variant `FLOAT8E4M3FN` in the enum `ScalarType`
            Float8e4m3fn = 24,

            /// The variant `FLOAT8E5M2FNUZ` in the enum `ScalarType`
            Float8e5m2fnuz = 25,

            /// The variant `FLOAT8E4M3FNUZ` in the enum `ScalarType`
            Float8e4m3fnuz = 26,

            /// The variant `UINT16` in the enum `ScalarType`
            Uint16 = 27,

            /// The variant `UINT32` in the enum `ScalarType`
            Uint32 = 28,

            /// The variant `UINT64` in the enum `ScalarType`
            Uint64 = 29,
        }

        impl ScalarType {
            /// Array containing all valid variants of ScalarType
            pub const ENUM_VALUES: [Self; 23] = [
                Self::Byte,
                Self::Char,
                Self::Short,
                Self::Int,
                Self::Long,
                Self::Half,
                Self::Float,
                Self::Double,
                Self::Bool,
                Self::Qint8,
                Self::Quint8,
                Self::Qint32,
                Self::Bfloat16,
                Self::Quint4x2,
                Self::Quint2x4,
                Self::Bits16,
                Self::Float8e5m2,
                Self::Float8e4m3fn,
                Self::Float8e5m2fnuz,
                Self::Float8e4m3fnuz,
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
                    12 => ::core::result::Result::Ok(ScalarType::Qint8),
                    13 => ::core::result::Result::Ok(ScalarType::Quint8),
                    14 => ::core::result::Result::Ok(ScalarType::Qint32),
                    15 => ::core::result::Result::Ok(ScalarType::Bfloat16),
                    16 => ::core::result::Result::Ok(ScalarType::Quint4x2),
                    17 => ::core::result::Result::Ok(ScalarType::Quint2x4),
                    22 => ::core::result::Result::Ok(ScalarType::Bits16),
                    23 => ::core::result::Result::Ok(ScalarType::Float8e5m2),
                    24 => ::core::result::Result::Ok(ScalarType::Float8e4m3fn),
                    25 => ::core::result::Result::Ok(ScalarType::Float8e5m2fnuz),
                    26 => ::core::result::Result::Ok(ScalarType::Float8e4m3fnuz),
                    27 => ::core::result::Result::Ok(ScalarType::Uint16),
                    28 => ::core::result::Result::Ok(ScalarType::Uint32),
                    29 => ::core::result::Result::Ok(ScalarType::Uint64),

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
    }
}
