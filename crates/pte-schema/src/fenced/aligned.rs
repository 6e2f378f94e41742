//! Byte vectors whose payload starts at a chosen power-of-two alignment.

use flatbuffers::{FlatBufferBuilder, PushAlignment, Vector, WIPOffset};

/// One byte that asks the builder for `N`-byte alignment of the vector data.
#[repr(transparent)]
#[derive(Clone, Copy)]
struct AlignedByte<const N: usize>(u8);

impl<const N: usize> flatbuffers::Push for AlignedByte<N> {
    type Output = u8;

    #[allow(unsafe_code)]
    unsafe fn push(&self, dst: &mut [u8], _written_len: usize) {
        if let Some(d) = dst.first_mut() {
            *d = self.0;
        }
    }

    fn size() -> usize {
        1
    }

    fn alignment() -> PushAlignment {
        PushAlignment::new(N)
    }
}

fn create_with<'fbb, const N: usize>(fbb: &mut FlatBufferBuilder<'fbb>, data: &[u8]) -> WIPOffset<Vector<'fbb, u8>> {
    // SAFETY: AlignedByte<N> is repr(transparent) over u8, so a byte slice
    // has exactly the layout of a slice of AlignedByte<N> of the same length.
    #[allow(unsafe_code)]
    let items: &[AlignedByte<N>] =
        unsafe { core::slice::from_raw_parts(data.as_ptr().cast::<AlignedByte<N>>(), data.len()) };
    fbb.create_vector(items)
}

/// Writes `data` as a `[ubyte]` vector whose first data byte sits at a
/// multiple of `align` from the end of the finished buffer's start.
///
/// `align` must be a power of two between 1 and 65536; the caller validates
/// it (write options reject anything else before building starts).
pub(crate) fn create_aligned_bytes<'fbb>(
    fbb: &mut FlatBufferBuilder<'fbb>,
    data: &[u8],
    align: u32,
) -> WIPOffset<Vector<'fbb, u8>> {
    match align {
        0..=4 => create_with::<4>(fbb, data),
        8 => create_with::<8>(fbb, data),
        16 => create_with::<16>(fbb, data),
        32 => create_with::<32>(fbb, data),
        64 => create_with::<64>(fbb, data),
        128 => create_with::<128>(fbb, data),
        256 => create_with::<256>(fbb, data),
        512 => create_with::<512>(fbb, data),
        1024 => create_with::<1024>(fbb, data),
        2048 => create_with::<2048>(fbb, data),
        4096 => create_with::<4096>(fbb, data),
        8192 => create_with::<8192>(fbb, data),
        16384 => create_with::<16384>(fbb, data),
        32768 => create_with::<32768>(fbb, data),
        _ => create_with::<65536>(fbb, data),
    }
}
