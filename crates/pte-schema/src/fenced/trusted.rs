//! Unchecked roots for buffers the structural verifier has accepted.

use super::et;
use crate::fenced::structure::CheckedProgram;

/// The root table of a program buffer proven well formed.
pub(crate) fn program_root(checked: CheckedProgram<'_>) -> et::Program<'_> {
    // SAFETY: `CheckedProgram` is only made by `structure::check_program`,
    // which accepts exactly the buffers the generated verifier accepts for
    // `Program` (held to it by the differential tests), so every accessor
    // reads inside the buffer as after `root_as_program`. Neither holds
    // 8-byte vector elements to their alignment (see `Unaligned`): the
    // accessors copy those scalars out byte-wise, so none is read in place.
    #[allow(unsafe_code)]
    unsafe {
        et::root_as_program_unchecked(checked.bytes())
    }
}
