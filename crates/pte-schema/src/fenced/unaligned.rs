//! Vectors of 8-byte scalars, verified as the runtime verifies them.

/// Stands for a `T` inside a vector when the generated verifiers check it:
/// the same size, alignment 1.
///
/// The runtime's C++ verifier (`Verifier::VerifyVectorOrString`) checks a
/// vector's length word for alignment and its `len * size` bytes for bounds,
/// never where its elements start; ExecuTorch's own writer leaves empty and
/// non-empty `[long]`/`[double]` vectors 4 bytes off an 8-byte boundary, and
/// the runtime loads them. The flatbuffers crate's verifier checks elements
/// against `align_of::<T>()`, so `scripts/dev/regen-schema.sh` rewrites the
/// generated verifiers' 8-byte vector elements to `Unaligned<T>`, which
/// passes exactly that check and no other. Reading stays sound: the
/// generated accessors read vector scalars by copying their bytes
/// (`flatbuffers::read_scalar`), never through a `&T` into the buffer, and
/// nothing in this crate views them as a typed slice.
///
/// Never constructed; only its size and alignment matter.
#[repr(C, packed)]
#[allow(dead_code)]
pub(crate) struct Unaligned<T>(T);

impl<T: flatbuffers::SimpleToVerifyInSlice> flatbuffers::SimpleToVerifyInSlice for Unaligned<T> {}

#[cfg(test)]
mod tests {
    use super::Unaligned;

    #[test]
    fn it_keeps_the_size_and_drops_the_alignment() {
        assert_eq!(std::mem::size_of::<Unaligned<i64>>(), 8);
        assert_eq!(std::mem::size_of::<Unaligned<f64>>(), 8);
        assert_eq!(std::mem::align_of::<Unaligned<u64>>(), 1);
    }
}
