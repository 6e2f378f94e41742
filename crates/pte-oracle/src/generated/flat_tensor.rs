pub use root::*;

const _: () = ::planus::check_version_compatibility("planus-1.3.0");

/// The root namespace
///
/// Generated from these locations:
/// * File `schema/flat_tensor.fbs`
#[no_implicit_prelude]
#[allow(clippy::needless_lifetimes)]
mod root {
    /// The namespace `flat_tensor_flatbuffer`
    ///
    /// Generated from these locations:
    /// * File `schema/flat_tensor.fbs`
    pub mod flat_tensor_flatbuffer {
        /// The table `TensorLayout` in the namespace `flat_tensor_flatbuffer`
        ///
        /// Generated from these locations:
        /// * Table `TensorLayout` in the file `schema/flat_tensor.fbs:15`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct TensorLayout {
            /// The field `scalar_type` in the table `TensorLayout`
            pub scalar_type: super::executorch_flatbuffer::ScalarType,
            /// The field `sizes` in the table `TensorLayout`
            pub sizes: ::core::option::Option<::planus::alloc::vec::Vec<i32>>,
            /// The field `dim_order` in the table `TensorLayout`
            pub dim_order: ::core::option::Option<::planus::alloc::vec::Vec<u8>>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for TensorLayout {
            fn default() -> Self {
                Self {
                    scalar_type: super::executorch_flatbuffer::ScalarType::Byte,
                    sizes: ::core::default::Default::default(),
                    dim_order: ::core::default::Default::default(),
                }
            }
        }

        impl TensorLayout {
            /// Creates a [TensorLayoutBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> TensorLayoutBuilder<()> {
                TensorLayoutBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_scalar_type: impl ::planus::WriteAsDefault<
                    super::executorch_flatbuffer::ScalarType,
                    super::executorch_flatbuffer::ScalarType,
                >,
                field_sizes: impl ::planus::WriteAsOptional<::planus::Offset<[i32]>>,
                field_dim_order: impl ::planus::WriteAsOptional<::planus::Offset<[u8]>>,
            ) -> ::planus::Offset<Self> {
                let prepared_scalar_type =
                    field_scalar_type.prepare(builder, &super::executorch_flatbuffer::ScalarType::Byte);
                let prepared_sizes = field_sizes.prepare(builder);
                let prepared_dim_order = field_dim_order.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<10> = ::core::default::Default::default();
                if prepared_sizes.is_some() {
                    table_writer.write_entry::<::planus::Offset<[i32]>>(1);
                }
                if prepared_dim_order.is_some() {
                    table_writer.write_entry::<::planus::Offset<[u8]>>(2);
                }
                if prepared_scalar_type.is_some() {
                    table_writer.write_entry::<super::executorch_flatbuffer::ScalarType>(0);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
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

        impl ::planus::WriteAs<::planus::Offset<TensorLayout>> for TensorLayout {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorLayout> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<TensorLayout>> for TensorLayout {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<TensorLayout>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<TensorLayout> for TensorLayout {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorLayout> {
                TensorLayout::create(builder, self.scalar_type, &self.sizes, &self.dim_order)
            }
        }

        /// Builder for serializing an instance of the [TensorLayout] type.
        ///
        /// Can be created using the [TensorLayout::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct TensorLayoutBuilder<State>(State);

        impl TensorLayoutBuilder<()> {
            /// Setter for the [`scalar_type` field](TensorLayout#structfield.scalar_type).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn scalar_type<T0>(self, value: T0) -> TensorLayoutBuilder<(T0,)>
            where
                T0: ::planus::WriteAsDefault<
                    super::executorch_flatbuffer::ScalarType,
                    super::executorch_flatbuffer::ScalarType,
                >,
            {
                TensorLayoutBuilder((value,))
            }

            /// Sets the [`scalar_type` field](TensorLayout#structfield.scalar_type) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn scalar_type_as_default(self) -> TensorLayoutBuilder<(::planus::DefaultValue,)> {
                self.scalar_type(::planus::DefaultValue)
            }
        }

        impl<T0> TensorLayoutBuilder<(T0,)> {
            /// Setter for the [`sizes` field](TensorLayout#structfield.sizes).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn sizes<T1>(self, value: T1) -> TensorLayoutBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAsOptional<::planus::Offset<[i32]>>,
            {
                let (v0,) = self.0;
                TensorLayoutBuilder((v0, value))
            }

            /// Sets the [`sizes` field](TensorLayout#structfield.sizes) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn sizes_as_null(self) -> TensorLayoutBuilder<(T0, ())> {
                self.sizes(())
            }
        }

        impl<T0, T1> TensorLayoutBuilder<(T0, T1)> {
            /// Setter for the [`dim_order` field](TensorLayout#structfield.dim_order).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn dim_order<T2>(self, value: T2) -> TensorLayoutBuilder<(T0, T1, T2)>
            where
                T2: ::planus::WriteAsOptional<::planus::Offset<[u8]>>,
            {
                let (v0, v1) = self.0;
                TensorLayoutBuilder((v0, v1, value))
            }

            /// Sets the [`dim_order` field](TensorLayout#structfield.dim_order) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn dim_order_as_null(self) -> TensorLayoutBuilder<(T0, T1, ())> {
                self.dim_order(())
            }
        }

        impl<T0, T1, T2> TensorLayoutBuilder<(T0, T1, T2)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [TensorLayout].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorLayout>
            where
                Self: ::planus::WriteAsOffset<TensorLayout>,
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
            > ::planus::WriteAs<::planus::Offset<TensorLayout>> for TensorLayoutBuilder<(T0, T1, T2)>
        {
            type Prepared = ::planus::Offset<TensorLayout>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorLayout> {
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
            > ::planus::WriteAsOptional<::planus::Offset<TensorLayout>> for TensorLayoutBuilder<(T0, T1, T2)>
        {
            type Prepared = ::planus::Offset<TensorLayout>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<TensorLayout>> {
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
            > ::planus::WriteAsOffset<TensorLayout> for TensorLayoutBuilder<(T0, T1, T2)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<TensorLayout> {
                let (v0, v1, v2) = &self.0;
                TensorLayout::create(builder, v0, v1, v2)
            }
        }

        /// Reference to a deserialized [TensorLayout].
        #[derive(Copy, Clone)]
        pub struct TensorLayoutRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> TensorLayoutRef<'a> {
            /// Getter for the [`scalar_type` field](TensorLayout#structfield.scalar_type).
            #[inline]
            pub fn scalar_type(&self) -> ::planus::Result<super::executorch_flatbuffer::ScalarType> {
                ::core::result::Result::Ok(
                    self.0
                        .access(0, "TensorLayout", "scalar_type")?
                        .unwrap_or(super::executorch_flatbuffer::ScalarType::Byte),
                )
            }

            /// Getter for the [`sizes` field](TensorLayout#structfield.sizes).
            #[inline]
            pub fn sizes(&self) -> ::planus::Result<::core::option::Option<::planus::Vector<'a, i32>>> {
                self.0.access(1, "TensorLayout", "sizes")
            }

            /// Getter for the [`dim_order` field](TensorLayout#structfield.dim_order).
            #[inline]
            pub fn dim_order(&self) -> ::planus::Result<::core::option::Option<&'a [u8]>> {
                self.0.access(2, "TensorLayout", "dim_order")
            }
        }

        impl<'a> ::core::fmt::Debug for TensorLayoutRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("TensorLayoutRef");
                f.field("scalar_type", &self.scalar_type());
                if let ::core::option::Option::Some(field_sizes) = self.sizes().transpose() {
                    f.field("sizes", &field_sizes);
                }
                if let ::core::option::Option::Some(field_dim_order) = self.dim_order().transpose() {
                    f.field("dim_order", &field_dim_order);
                }
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<TensorLayoutRef<'a>> for TensorLayout {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: TensorLayoutRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    scalar_type: ::core::convert::TryInto::try_into(value.scalar_type()?)?,
                    sizes: if let ::core::option::Option::Some(sizes) = value.sizes()? {
                        ::core::option::Option::Some(sizes.to_vec()?)
                    } else {
                        ::core::option::Option::None
                    },
                    dim_order: value.dim_order()?.map(|v| v.to_vec()),
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for TensorLayoutRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for TensorLayoutRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[TensorLayoutRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<TensorLayout>> for TensorLayout {
            type Value = ::planus::Offset<TensorLayout>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<TensorLayout>],
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

        impl<'a> ::planus::ReadAsRoot<'a> for TensorLayoutRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[TensorLayoutRef]", "read_as_root", 0))
            }
        }

        /// The table `DataSegment` in the namespace `flat_tensor_flatbuffer`
        ///
        /// Generated from these locations:
        /// * Table `DataSegment` in the file `schema/flat_tensor.fbs:22`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct DataSegment {
            /// The field `offset` in the table `DataSegment`
            pub offset: u64,
            /// The field `size` in the table `DataSegment`
            pub size: u64,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for DataSegment {
            fn default() -> Self {
                Self { offset: 0, size: 0 }
            }
        }

        impl DataSegment {
            /// Creates a [DataSegmentBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> DataSegmentBuilder<()> {
                DataSegmentBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_offset: impl ::planus::WriteAsDefault<u64, u64>,
                field_size: impl ::planus::WriteAsDefault<u64, u64>,
            ) -> ::planus::Offset<Self> {
                let prepared_offset = field_offset.prepare(builder, &0);
                let prepared_size = field_size.prepare(builder, &0);

                let mut table_writer: ::planus::table_writer::TableWriter<8> = ::core::default::Default::default();
                if prepared_offset.is_some() {
                    table_writer.write_entry::<u64>(0);
                }
                if prepared_size.is_some() {
                    table_writer.write_entry::<u64>(1);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        if let ::core::option::Option::Some(prepared_offset) = prepared_offset {
                            object_writer.write::<_, _, 8>(&prepared_offset);
                        }
                        if let ::core::option::Option::Some(prepared_size) = prepared_size {
                            object_writer.write::<_, _, 8>(&prepared_size);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<DataSegment>> for DataSegment {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<DataSegment> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<DataSegment>> for DataSegment {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<DataSegment>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<DataSegment> for DataSegment {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<DataSegment> {
                DataSegment::create(builder, self.offset, self.size)
            }
        }

        /// Builder for serializing an instance of the [DataSegment] type.
        ///
        /// Can be created using the [DataSegment::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct DataSegmentBuilder<State>(State);

        impl DataSegmentBuilder<()> {
            /// Setter for the [`offset` field](DataSegment#structfield.offset).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn offset<T0>(self, value: T0) -> DataSegmentBuilder<(T0,)>
            where
                T0: ::planus::WriteAsDefault<u64, u64>,
            {
                DataSegmentBuilder((value,))
            }

            /// Sets the [`offset` field](DataSegment#structfield.offset) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn offset_as_default(self) -> DataSegmentBuilder<(::planus::DefaultValue,)> {
                self.offset(::planus::DefaultValue)
            }
        }

        impl<T0> DataSegmentBuilder<(T0,)> {
            /// Setter for the [`size` field](DataSegment#structfield.size).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn size<T1>(self, value: T1) -> DataSegmentBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAsDefault<u64, u64>,
            {
                let (v0,) = self.0;
                DataSegmentBuilder((v0, value))
            }

            /// Sets the [`size` field](DataSegment#structfield.size) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn size_as_default(self) -> DataSegmentBuilder<(T0, ::planus::DefaultValue)> {
                self.size(::planus::DefaultValue)
            }
        }

        impl<T0, T1> DataSegmentBuilder<(T0, T1)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [DataSegment].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<DataSegment>
            where
                Self: ::planus::WriteAsOffset<DataSegment>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<T0: ::planus::WriteAsDefault<u64, u64>, T1: ::planus::WriteAsDefault<u64, u64>>
            ::planus::WriteAs<::planus::Offset<DataSegment>> for DataSegmentBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<DataSegment>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<DataSegment> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<T0: ::planus::WriteAsDefault<u64, u64>, T1: ::planus::WriteAsDefault<u64, u64>>
            ::planus::WriteAsOptional<::planus::Offset<DataSegment>> for DataSegmentBuilder<(T0, T1)>
        {
            type Prepared = ::planus::Offset<DataSegment>;

            #[inline]
            fn prepare(
                &self,
                builder: &mut ::planus::Builder,
            ) -> ::core::option::Option<::planus::Offset<DataSegment>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<T0: ::planus::WriteAsDefault<u64, u64>, T1: ::planus::WriteAsDefault<u64, u64>>
            ::planus::WriteAsOffset<DataSegment> for DataSegmentBuilder<(T0, T1)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<DataSegment> {
                let (v0, v1) = &self.0;
                DataSegment::create(builder, v0, v1)
            }
        }

        /// Reference to a deserialized [DataSegment].
        #[derive(Copy, Clone)]
        pub struct DataSegmentRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> DataSegmentRef<'a> {
            /// Getter for the [`offset` field](DataSegment#structfield.offset).
            #[inline]
            pub fn offset(&self) -> ::planus::Result<u64> {
                ::core::result::Result::Ok(self.0.access(0, "DataSegment", "offset")?.unwrap_or(0))
            }

            /// Getter for the [`size` field](DataSegment#structfield.size).
            #[inline]
            pub fn size(&self) -> ::planus::Result<u64> {
                ::core::result::Result::Ok(self.0.access(1, "DataSegment", "size")?.unwrap_or(0))
            }
        }

        impl<'a> ::core::fmt::Debug for DataSegmentRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("DataSegmentRef");
                f.field("offset", &self.offset());
                f.field("size", &self.size());
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<DataSegmentRef<'a>> for DataSegment {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: DataSegmentRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    offset: ::core::convert::TryInto::try_into(value.offset()?)?,
                    size: ::core::convert::TryInto::try_into(value.size()?)?,
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for DataSegmentRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for DataSegmentRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[DataSegmentRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<DataSegment>> for DataSegment {
            type Value = ::planus::Offset<DataSegment>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<DataSegment>],
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

        impl<'a> ::planus::ReadAsRoot<'a> for DataSegmentRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[DataSegmentRef]", "read_as_root", 0))
            }
        }

        /// The table `NamedData` in the namespace `flat_tensor_flatbuffer`
        ///
        /// Generated from these locations:
        /// * Table `NamedData` in the file `schema/flat_tensor.fbs:28`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct NamedData {
            /// The field `key` in the table `NamedData`
            pub key: ::core::option::Option<::planus::alloc::string::String>,
            /// The field `segment_index` in the table `NamedData`
            pub segment_index: u32,
            /// The field `tensor_layout` in the table `NamedData`
            pub tensor_layout: ::core::option::Option<::planus::alloc::boxed::Box<self::TensorLayout>>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for NamedData {
            fn default() -> Self {
                Self {
                    key: ::core::default::Default::default(),
                    segment_index: 0,
                    tensor_layout: ::core::default::Default::default(),
                }
            }
        }

        impl NamedData {
            /// Creates a [NamedDataBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> NamedDataBuilder<()> {
                NamedDataBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_key: impl ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                field_segment_index: impl ::planus::WriteAsDefault<u32, u32>,
                field_tensor_layout: impl ::planus::WriteAsOptional<::planus::Offset<self::TensorLayout>>,
            ) -> ::planus::Offset<Self> {
                let prepared_key = field_key.prepare(builder);
                let prepared_segment_index = field_segment_index.prepare(builder, &0);
                let prepared_tensor_layout = field_tensor_layout.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<10> = ::core::default::Default::default();
                if prepared_key.is_some() {
                    table_writer.write_entry::<::planus::Offset<str>>(0);
                }
                if prepared_segment_index.is_some() {
                    table_writer.write_entry::<u32>(1);
                }
                if prepared_tensor_layout.is_some() {
                    table_writer.write_entry::<::planus::Offset<self::TensorLayout>>(2);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        if let ::core::option::Option::Some(prepared_key) = prepared_key {
                            object_writer.write::<_, _, 4>(&prepared_key);
                        }
                        if let ::core::option::Option::Some(prepared_segment_index) = prepared_segment_index {
                            object_writer.write::<_, _, 4>(&prepared_segment_index);
                        }
                        if let ::core::option::Option::Some(prepared_tensor_layout) = prepared_tensor_layout {
                            object_writer.write::<_, _, 4>(&prepared_tensor_layout);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<NamedData>> for NamedData {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<NamedData> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<NamedData>> for NamedData {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<NamedData>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<NamedData> for NamedData {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<NamedData> {
                NamedData::create(builder, &self.key, self.segment_index, &self.tensor_layout)
            }
        }

        /// Builder for serializing an instance of the [NamedData] type.
        ///
        /// Can be created using the [NamedData::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct NamedDataBuilder<State>(State);

        impl NamedDataBuilder<()> {
            /// Setter for the [`key` field](NamedData#structfield.key).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn key<T0>(self, value: T0) -> NamedDataBuilder<(T0,)>
            where
                T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
            {
                NamedDataBuilder((value,))
            }

            /// Sets the [`key` field](NamedData#structfield.key) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn key_as_null(self) -> NamedDataBuilder<((),)> {
                self.key(())
            }
        }

        impl<T0> NamedDataBuilder<(T0,)> {
            /// Setter for the [`segment_index` field](NamedData#structfield.segment_index).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn segment_index<T1>(self, value: T1) -> NamedDataBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAsDefault<u32, u32>,
            {
                let (v0,) = self.0;
                NamedDataBuilder((v0, value))
            }

            /// Sets the [`segment_index` field](NamedData#structfield.segment_index) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn segment_index_as_default(self) -> NamedDataBuilder<(T0, ::planus::DefaultValue)> {
                self.segment_index(::planus::DefaultValue)
            }
        }

        impl<T0, T1> NamedDataBuilder<(T0, T1)> {
            /// Setter for the [`tensor_layout` field](NamedData#structfield.tensor_layout).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn tensor_layout<T2>(self, value: T2) -> NamedDataBuilder<(T0, T1, T2)>
            where
                T2: ::planus::WriteAsOptional<::planus::Offset<self::TensorLayout>>,
            {
                let (v0, v1) = self.0;
                NamedDataBuilder((v0, v1, value))
            }

            /// Sets the [`tensor_layout` field](NamedData#structfield.tensor_layout) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn tensor_layout_as_null(self) -> NamedDataBuilder<(T0, T1, ())> {
                self.tensor_layout(())
            }
        }

        impl<T0, T1, T2> NamedDataBuilder<(T0, T1, T2)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [NamedData].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<NamedData>
            where
                Self: ::planus::WriteAsOffset<NamedData>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                T1: ::planus::WriteAsDefault<u32, u32>,
                T2: ::planus::WriteAsOptional<::planus::Offset<self::TensorLayout>>,
            > ::planus::WriteAs<::planus::Offset<NamedData>> for NamedDataBuilder<(T0, T1, T2)>
        {
            type Prepared = ::planus::Offset<NamedData>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<NamedData> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                T1: ::planus::WriteAsDefault<u32, u32>,
                T2: ::planus::WriteAsOptional<::planus::Offset<self::TensorLayout>>,
            > ::planus::WriteAsOptional<::planus::Offset<NamedData>> for NamedDataBuilder<(T0, T1, T2)>
        {
            type Prepared = ::planus::Offset<NamedData>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<NamedData>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAsOptional<::planus::Offset<::core::primitive::str>>,
                T1: ::planus::WriteAsDefault<u32, u32>,
                T2: ::planus::WriteAsOptional<::planus::Offset<self::TensorLayout>>,
            > ::planus::WriteAsOffset<NamedData> for NamedDataBuilder<(T0, T1, T2)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<NamedData> {
                let (v0, v1, v2) = &self.0;
                NamedData::create(builder, v0, v1, v2)
            }
        }

        /// Reference to a deserialized [NamedData].
        #[derive(Copy, Clone)]
        pub struct NamedDataRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> NamedDataRef<'a> {
            /// Getter for the [`key` field](NamedData#structfield.key).
            #[inline]
            pub fn key(&self) -> ::planus::Result<::core::option::Option<&'a ::core::primitive::str>> {
                self.0.access(0, "NamedData", "key")
            }

            /// Getter for the [`segment_index` field](NamedData#structfield.segment_index).
            #[inline]
            pub fn segment_index(&self) -> ::planus::Result<u32> {
                ::core::result::Result::Ok(self.0.access(1, "NamedData", "segment_index")?.unwrap_or(0))
            }

            /// Getter for the [`tensor_layout` field](NamedData#structfield.tensor_layout).
            #[inline]
            pub fn tensor_layout(&self) -> ::planus::Result<::core::option::Option<self::TensorLayoutRef<'a>>> {
                self.0.access(2, "NamedData", "tensor_layout")
            }
        }

        impl<'a> ::core::fmt::Debug for NamedDataRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("NamedDataRef");
                if let ::core::option::Option::Some(field_key) = self.key().transpose() {
                    f.field("key", &field_key);
                }
                f.field("segment_index", &self.segment_index());
                if let ::core::option::Option::Some(field_tensor_layout) = self.tensor_layout().transpose() {
                    f.field("tensor_layout", &field_tensor_layout);
                }
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<NamedDataRef<'a>> for NamedData {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: NamedDataRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    key: value.key()?.map(::core::convert::Into::into),
                    segment_index: ::core::convert::TryInto::try_into(value.segment_index()?)?,
                    tensor_layout: if let ::core::option::Option::Some(tensor_layout) = value.tensor_layout()? {
                        ::core::option::Option::Some(::planus::alloc::boxed::Box::new(
                            ::core::convert::TryInto::try_into(tensor_layout)?,
                        ))
                    } else {
                        ::core::option::Option::None
                    },
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for NamedDataRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for NamedDataRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[NamedDataRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<NamedData>> for NamedData {
            type Value = ::planus::Offset<NamedData>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<NamedData>],
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

        impl<'a> ::planus::ReadAsRoot<'a> for NamedDataRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[NamedDataRef]", "read_as_root", 0))
            }
        }

        /// The table `FlatTensor` in the namespace `flat_tensor_flatbuffer`
        ///
        /// Generated from these locations:
        /// * Table `FlatTensor` in the file `schema/flat_tensor.fbs:34`
        #[derive(Clone, Debug, PartialEq, PartialOrd, Eq, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub struct FlatTensor {
            /// The field `version` in the table `FlatTensor`
            pub version: u32,
            /// The field `segments` in the table `FlatTensor`
            pub segments: ::core::option::Option<::planus::alloc::vec::Vec<self::DataSegment>>,
            /// The field `named_data` in the table `FlatTensor`
            pub named_data: ::core::option::Option<::planus::alloc::vec::Vec<self::NamedData>>,
        }

        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for FlatTensor {
            fn default() -> Self {
                Self {
                    version: 0,
                    segments: ::core::default::Default::default(),
                    named_data: ::core::default::Default::default(),
                }
            }
        }

        impl FlatTensor {
            /// Creates a [FlatTensorBuilder] for serializing an instance of this table.
            #[inline]
            pub fn builder() -> FlatTensorBuilder<()> {
                FlatTensorBuilder(())
            }

            #[allow(clippy::too_many_arguments)]
            pub fn create(
                builder: &mut ::planus::Builder,
                field_version: impl ::planus::WriteAsDefault<u32, u32>,
                field_segments: impl ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::DataSegment>]>>,
                field_named_data: impl ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::NamedData>]>>,
            ) -> ::planus::Offset<Self> {
                let prepared_version = field_version.prepare(builder, &0);
                let prepared_segments = field_segments.prepare(builder);
                let prepared_named_data = field_named_data.prepare(builder);

                let mut table_writer: ::planus::table_writer::TableWriter<10> = ::core::default::Default::default();
                if prepared_version.is_some() {
                    table_writer.write_entry::<u32>(0);
                }
                if prepared_segments.is_some() {
                    table_writer.write_entry::<::planus::Offset<[::planus::Offset<self::DataSegment>]>>(1);
                }
                if prepared_named_data.is_some() {
                    table_writer.write_entry::<::planus::Offset<[::planus::Offset<self::NamedData>]>>(2);
                }

                unsafe {
                    table_writer.finish(builder, |object_writer| {
                        if let ::core::option::Option::Some(prepared_version) = prepared_version {
                            object_writer.write::<_, _, 4>(&prepared_version);
                        }
                        if let ::core::option::Option::Some(prepared_segments) = prepared_segments {
                            object_writer.write::<_, _, 4>(&prepared_segments);
                        }
                        if let ::core::option::Option::Some(prepared_named_data) = prepared_named_data {
                            object_writer.write::<_, _, 4>(&prepared_named_data);
                        }
                    });
                }
                builder.current_offset()
            }
        }

        impl ::planus::WriteAs<::planus::Offset<FlatTensor>> for FlatTensor {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<FlatTensor> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl ::planus::WriteAsOptional<::planus::Offset<FlatTensor>> for FlatTensor {
            type Prepared = ::planus::Offset<Self>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<FlatTensor>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl ::planus::WriteAsOffset<FlatTensor> for FlatTensor {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<FlatTensor> {
                FlatTensor::create(builder, self.version, &self.segments, &self.named_data)
            }
        }

        /// Builder for serializing an instance of the [FlatTensor] type.
        ///
        /// Can be created using the [FlatTensor::builder] method.
        #[derive(Debug)]
        #[must_use]
        pub struct FlatTensorBuilder<State>(State);

        impl FlatTensorBuilder<()> {
            /// Setter for the [`version` field](FlatTensor#structfield.version).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn version<T0>(self, value: T0) -> FlatTensorBuilder<(T0,)>
            where
                T0: ::planus::WriteAsDefault<u32, u32>,
            {
                FlatTensorBuilder((value,))
            }

            /// Sets the [`version` field](FlatTensor#structfield.version) to the default value.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn version_as_default(self) -> FlatTensorBuilder<(::planus::DefaultValue,)> {
                self.version(::planus::DefaultValue)
            }
        }

        impl<T0> FlatTensorBuilder<(T0,)> {
            /// Setter for the [`segments` field](FlatTensor#structfield.segments).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn segments<T1>(self, value: T1) -> FlatTensorBuilder<(T0, T1)>
            where
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::DataSegment>]>>,
            {
                let (v0,) = self.0;
                FlatTensorBuilder((v0, value))
            }

            /// Sets the [`segments` field](FlatTensor#structfield.segments) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn segments_as_null(self) -> FlatTensorBuilder<(T0, ())> {
                self.segments(())
            }
        }

        impl<T0, T1> FlatTensorBuilder<(T0, T1)> {
            /// Setter for the [`named_data` field](FlatTensor#structfield.named_data).
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn named_data<T2>(self, value: T2) -> FlatTensorBuilder<(T0, T1, T2)>
            where
                T2: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::NamedData>]>>,
            {
                let (v0, v1) = self.0;
                FlatTensorBuilder((v0, v1, value))
            }

            /// Sets the [`named_data` field](FlatTensor#structfield.named_data) to null.
            #[inline]
            #[allow(clippy::type_complexity)]
            pub fn named_data_as_null(self) -> FlatTensorBuilder<(T0, T1, ())> {
                self.named_data(())
            }
        }

        impl<T0, T1, T2> FlatTensorBuilder<(T0, T1, T2)> {
            /// Finish writing the builder to get an [Offset](::planus::Offset) to a serialized [FlatTensor].
            #[inline]
            pub fn finish(self, builder: &mut ::planus::Builder) -> ::planus::Offset<FlatTensor>
            where
                Self: ::planus::WriteAsOffset<FlatTensor>,
            {
                ::planus::WriteAsOffset::prepare(&self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsDefault<u32, u32>,
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::DataSegment>]>>,
                T2: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::NamedData>]>>,
            > ::planus::WriteAs<::planus::Offset<FlatTensor>> for FlatTensorBuilder<(T0, T1, T2)>
        {
            type Prepared = ::planus::Offset<FlatTensor>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<FlatTensor> {
                ::planus::WriteAsOffset::prepare(self, builder)
            }
        }

        impl<
                T0: ::planus::WriteAsDefault<u32, u32>,
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::DataSegment>]>>,
                T2: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::NamedData>]>>,
            > ::planus::WriteAsOptional<::planus::Offset<FlatTensor>> for FlatTensorBuilder<(T0, T1, T2)>
        {
            type Prepared = ::planus::Offset<FlatTensor>;

            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::core::option::Option<::planus::Offset<FlatTensor>> {
                ::core::option::Option::Some(::planus::WriteAsOffset::prepare(self, builder))
            }
        }

        impl<
                T0: ::planus::WriteAsDefault<u32, u32>,
                T1: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::DataSegment>]>>,
                T2: ::planus::WriteAsOptional<::planus::Offset<[::planus::Offset<self::NamedData>]>>,
            > ::planus::WriteAsOffset<FlatTensor> for FlatTensorBuilder<(T0, T1, T2)>
        {
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> ::planus::Offset<FlatTensor> {
                let (v0, v1, v2) = &self.0;
                FlatTensor::create(builder, v0, v1, v2)
            }
        }

        /// Reference to a deserialized [FlatTensor].
        #[derive(Copy, Clone)]
        pub struct FlatTensorRef<'a>(#[allow(dead_code)] ::planus::table_reader::Table<'a>);

        impl<'a> FlatTensorRef<'a> {
            /// Getter for the [`version` field](FlatTensor#structfield.version).
            #[inline]
            pub fn version(&self) -> ::planus::Result<u32> {
                ::core::result::Result::Ok(self.0.access(0, "FlatTensor", "version")?.unwrap_or(0))
            }

            /// Getter for the [`segments` field](FlatTensor#structfield.segments).
            #[inline]
            pub fn segments(
                &self,
            ) -> ::planus::Result<
                ::core::option::Option<::planus::Vector<'a, ::planus::Result<self::DataSegmentRef<'a>>>>,
            > {
                self.0.access(1, "FlatTensor", "segments")
            }

            /// Getter for the [`named_data` field](FlatTensor#structfield.named_data).
            #[inline]
            pub fn named_data(
                &self,
            ) -> ::planus::Result<::core::option::Option<::planus::Vector<'a, ::planus::Result<self::NamedDataRef<'a>>>>>
            {
                self.0.access(2, "FlatTensor", "named_data")
            }
        }

        impl<'a> ::core::fmt::Debug for FlatTensorRef<'a> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut f = f.debug_struct("FlatTensorRef");
                f.field("version", &self.version());
                if let ::core::option::Option::Some(field_segments) = self.segments().transpose() {
                    f.field("segments", &field_segments);
                }
                if let ::core::option::Option::Some(field_named_data) = self.named_data().transpose() {
                    f.field("named_data", &field_named_data);
                }
                f.finish()
            }
        }

        impl<'a> ::core::convert::TryFrom<FlatTensorRef<'a>> for FlatTensor {
            type Error = ::planus::Error;

            #[allow(unreachable_code)]
            fn try_from(value: FlatTensorRef<'a>) -> ::planus::Result<Self> {
                ::core::result::Result::Ok(Self {
                    version: ::core::convert::TryInto::try_into(value.version()?)?,
                    segments: if let ::core::option::Option::Some(segments) = value.segments()? {
                        ::core::option::Option::Some(segments.to_vec_result()?)
                    } else {
                        ::core::option::Option::None
                    },
                    named_data: if let ::core::option::Option::Some(named_data) = value.named_data()? {
                        ::core::option::Option::Some(named_data.to_vec_result()?)
                    } else {
                        ::core::option::Option::None
                    },
                })
            }
        }

        impl<'a> ::planus::TableRead<'a> for FlatTensorRef<'a> {
            #[inline]
            fn from_buffer(
                buffer: ::planus::SliceWithStartOffset<'a>,
                offset: usize,
            ) -> ::core::result::Result<Self, ::planus::errors::ErrorKind> {
                ::core::result::Result::Ok(Self(::planus::table_reader::Table::from_buffer(buffer, offset)?))
            }
        }

        impl<'a> ::planus::VectorReadInner<'a> for FlatTensorRef<'a> {
            type Error = ::planus::Error;
            const STRIDE: usize = 4;

            unsafe fn from_buffer(buffer: ::planus::SliceWithStartOffset<'a>, offset: usize) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(buffer, offset).map_err(|error_kind| {
                    error_kind.with_error_location("[FlatTensorRef]", "get", buffer.offset_from_start)
                })
            }
        }

        /// # Safety
        /// The planus compiler generates implementations that initialize
        /// the bytes in `write_values`.
        unsafe impl ::planus::VectorWrite<::planus::Offset<FlatTensor>> for FlatTensor {
            type Value = ::planus::Offset<FlatTensor>;
            const STRIDE: usize = 4;
            #[inline]
            fn prepare(&self, builder: &mut ::planus::Builder) -> Self::Value {
                ::planus::WriteAs::prepare(self, builder)
            }

            #[inline]
            unsafe fn write_values(
                values: &[::planus::Offset<FlatTensor>],
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

        impl<'a> ::planus::ReadAsRoot<'a> for FlatTensorRef<'a> {
            fn read_as_root(slice: &'a [u8]) -> ::planus::Result<Self> {
                ::planus::TableRead::from_buffer(
                    ::planus::SliceWithStartOffset { buffer: slice, offset_from_start: 0 },
                    0,
                )
                .map_err(|error_kind| error_kind.with_error_location("[FlatTensorRef]", "read_as_root", 0))
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
