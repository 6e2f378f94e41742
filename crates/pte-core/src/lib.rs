//! The base of the ExecuTorch file-format crates.
//!
//! It owns what every format shares and nothing format-specific:
//!
//! * [`Error`] and [`ErrorKind`]: what is wrong, at which field path and byte
//!   offset, with the I/O error behind it kept as the source;
//! * [`MappedFile`] and [`open_input`]: zero-copy reading of regular files
//!   only (a FIFO or directory is refused before it is read);
//! * [`write_atomically`] and [`EditLock`]: the one save path (temporary file
//!   beside the real target, mode and links kept, fsync, rename) and the lock
//!   that makes in-place edits safe against each other; [`start_writeback`]
//!   and [`copy_with_writeback`] let a save's disk write-out begin while it
//!   is still copying;
//! * [`folder`]: the one policy for a folder of many files, read or
//!   written (no link, FIFO or device inside it is read or written through);
//! * [`same_file`] and [`FileId`]: aliased paths (symlinks, hard links);
//! * [`Report`], [`Violation`] and [`Rule`]: what every verifier returns, and
//!   the typed rule catalogue each format declares;
//! * [`LeBytes`]: bounds-checked little-endian header fields;
//! * [`FileKind`]: the kinds, and each one's mark (which kind a file is,
//!   `pte::identify` decides);
//!
//! It knows nothing of flatbuffers or zip: the schemas live in `pte-schema`,
//! the segment layout in `pte-segments`, and each format in its own crate.
//!
//! ```
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("model.pte");
//! pte_core::write_atomically(&path, |w| Ok(w.write_all(b"\x1c\0\0\0ET12")?))?;
//! let map = pte_core::MappedFile::open(&path)?;
//! assert!(pte_core::FileKind::Pte.marks(map.bytes()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(unsafe_code)]

use std::borrow::Cow;

mod error;
mod fenced;
pub mod folder;
#[cfg(unix)]
mod folder_at;
mod input;
mod kind;
mod le;
mod lock;
pub mod process;
mod report;
mod rule;
mod runtime;
mod save;
pub mod style;

pub use error::{Error, ErrorKind, Result};
pub use fenced::{
    check_interrupted, hold_stop_signals, ignore_file_size_signal, interrupted, start_writeback, stop_saves_on_signals,
    MappedFile, StopSignalsHeld,
};
pub use input::{check_outputs, open_input, read_input, same_file, FileId};
pub use kind::FileKind;
pub use le::LeBytes;
pub use lock::{EditLock, LockWait};
pub use report::{Report, Violation};
pub use rule::{Catalogue, Rule};
pub use runtime::{errors, Refusal, RuntimeError, Stage};
pub use save::{copy_with_writeback, resolve_links, write_atomically, write_atomically_file, TEMP_MARKER};

/// Byte payloads: borrowed from the input when read, owned when built.
pub type Bytes<'a> = Cow<'a, [u8]>;
