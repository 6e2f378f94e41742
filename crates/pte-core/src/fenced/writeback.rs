//! Starting a file's write-out early. A save ends with `fsync`, which waits
//! for every dirty page of the temporary file to reach the disk; asking the
//! kernel to start writing each large piece as soon as it is in the page
//! cache lets that write-out run while the next piece is copied, so the
//! final `fsync` has little left to wait for.

use std::fs::File;

/// Asks the kernel to start writing `len` bytes of `file` at `offset` to
/// the disk, without waiting for them (Linux `sync_file_range` with
/// `SYNC_FILE_RANGE_WRITE`; nothing elsewhere). A hint only: its errors are
/// ignored, and durability still comes from the `fsync` that follows.
///
/// ```
/// use std::io::Write;
/// let mut f = tempfile::tempfile()?;
/// f.write_all(&[7; 4096])?;
/// pte_core::start_writeback(&f, 0, 4096);
/// f.sync_all()?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn start_writeback(file: &File, offset: u64, len: u64) {
    // Miri cannot run the foreign call; the hint changes no result
    #[cfg(all(target_os = "linux", not(miri)))]
    {
        use std::os::fd::AsRawFd;
        let (Ok(offset), Ok(len)) = (i64::try_from(offset), i64::try_from(len)) else { return };
        // SAFETY: a plain system call on a descriptor `file` keeps open for
        // the call's duration; it reads no memory of this process.
        #[allow(unsafe_code)]
        unsafe {
            libc::sync_file_range(file.as_raw_fd(), offset, len, libc::SYNC_FILE_RANGE_WRITE);
        }
    }
    #[cfg(any(not(target_os = "linux"), miri))]
    let _ = (file, offset, len);
}
