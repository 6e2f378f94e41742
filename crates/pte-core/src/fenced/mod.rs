//! The only code of this crate allowed to use `unsafe`: the memory map, and
//! the one libc call that keeps a file-size limit from killing a save.

mod mapped;
pub use mapped::MappedFile;

mod signals;
pub use signals::ignore_file_size_signal;
