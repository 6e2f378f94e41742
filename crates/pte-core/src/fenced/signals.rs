//! A write past `RLIMIT_FSIZE` raises `SIGXFSZ`, whose default action kills
//! the process before the failed write can be reported and its temporary
//! file removed. Ignoring it turns the limit into an ordinary `EFBIG` error.

/// Makes writes past the file-size limit fail with an I/O error instead of
/// killing the process. Programs that save files (the `pte` command) call it
/// once at start; it is process-wide, so a library never calls it itself.
///
/// ```
/// pte_core::ignore_file_size_signal();
/// ```
pub fn ignore_file_size_signal() {
    #[cfg(unix)]
    // SAFETY: installs the SIG_IGN disposition, which runs no handler code.
    #[allow(unsafe_code)]
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}
