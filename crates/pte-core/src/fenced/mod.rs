//! The only code of this crate allowed to use `unsafe`: the memory map, the
//! one libc call that keeps a file-size limit from killing a save, and the
//! one that starts a save's write-out early.

mod mapped;
pub use mapped::MappedFile;

mod signals;
pub use signals::ignore_file_size_signal;

mod writeback;
pub use writeback::start_writeback;
