//! A write past `RLIMIT_FSIZE` raises `SIGXFSZ`, whose default action kills
//! the process before the failed write can be reported and its temporary
//! file removed. Ignoring it turns the limit into an ordinary `EFBIG` error.
//! Likewise Ctrl-C or `SIGTERM` during a save would leave its temporary file
//! behind: a handler turns them into an error of the save while one is under
//! way.

use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};

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

/// The signal that asked the process to stop during a save (0: none).
static INTERRUPTED: AtomicI32 = AtomicI32::new(0);
/// Saves under way: a stop signal that finds none ends the process at once,
/// as it would without a handler.
static SAVING: AtomicUsize = AtomicUsize::new(0);

/// The signals that ask a process to stop: Ctrl-C, `kill`, a closed terminal.
#[cfg(unix)]
const STOP_SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// Makes Ctrl-C, `SIGTERM` and `SIGHUP` stop a save cleanly: a save under way
/// stops at its next write, removes its temporary file and fails with
/// [`ErrorKind::Interrupted`](crate::ErrorKind::Interrupted); outside a save
/// the signal ends the process as it would without this call. Signals the
/// process was started with ignored (`nohup`) stay ignored. Programs call it
/// once at start (the `pte` command does); it is process-wide, so a library
/// never calls it itself.
///
/// ```
/// pte_core::stop_saves_on_signals();
/// assert_eq!(pte_core::interrupted(), None);
/// ```
pub fn stop_saves_on_signals() {
    #[cfg(unix)]
    for sig in STOP_SIGNALS {
        // SAFETY: sigaction is given a zeroed, then filled, struct of this
        // process's own; the handler installed (`on_stop`) only touches
        // atomics and calls signal/raise, all async-signal-safe.
        #[allow(unsafe_code)]
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, std::ptr::null(), &mut old) != 0 || old.sa_sigaction == libc::SIG_IGN {
                continue;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_stop as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(sig, &action, std::ptr::null_mut());
        }
    }
}

#[cfg(unix)]
extern "C" fn on_stop(sig: libc::c_int) {
    if SAVING.load(Ordering::SeqCst) > 0 {
        INTERRUPTED.store(sig, Ordering::SeqCst);
        return;
    }
    // SAFETY: signal and raise are async-signal-safe; with the default
    // disposition back, the raised signal ends the process as it would have.
    #[allow(unsafe_code)]
    unsafe {
        libc::signal(sig, libc::SIG_DFL);
        libc::raise(sig);
    }
}

/// The stop signal that interrupted a save of this process, if one did
/// (only after [`stop_saves_on_signals`]).
///
/// ```
/// assert_eq!(pte_core::interrupted(), None);
/// ```
pub fn interrupted() -> Option<i32> {
    match INTERRUPTED.load(Ordering::SeqCst) {
        0 => None,
        sig => Some(sig),
    }
}

/// Fails with [`ErrorKind::Interrupted`](crate::ErrorKind::Interrupted) once a
/// stop signal arrived during a save; long writers call it between pieces.
///
/// ```
/// assert!(pte_core::check_interrupted().is_ok());
/// ```
pub fn check_interrupted() -> crate::Result<()> {
    match interrupted() {
        None => Ok(()),
        Some(sig) => Err(crate::Error::new(
            crate::ErrorKind::Interrupted,
            format!("interrupted by signal {sig}; nothing was saved"),
        )),
    }
}

/// Holds Ctrl-C, `SIGTERM` and `SIGHUP` back while it lives, as a save
/// does: after [`stop_saves_on_signals`], such a signal is recorded for
/// [`interrupted`] instead of ending the process, so the holder can clean up
/// first (stop the child process it started) and then end. Holders poll
/// [`interrupted`] while they wait.
///
/// ```
/// let held = pte_core::hold_stop_signals();
/// assert_eq!(pte_core::interrupted(), None);
/// drop(held);
/// ```
#[must_use = "signals are held back only while the guard lives"]
pub struct StopSignalsHeld(SaveUnderWay);

/// Starts holding stop signals back; see [`StopSignalsHeld`].
///
/// ```
/// let _held = pte_core::hold_stop_signals();
/// ```
pub fn hold_stop_signals() -> StopSignalsHeld {
    StopSignalsHeld(SaveUnderWay::begin())
}

/// Marks a save under way for as long as it lives.
pub(crate) struct SaveUnderWay(());

impl SaveUnderWay {
    pub(crate) fn begin() -> Self {
        SAVING.fetch_add(1, Ordering::SeqCst);
        SaveUnderWay(())
    }
}

impl Drop for SaveUnderWay {
    fn drop(&mut self) {
        SAVING.fetch_sub(1, Ordering::SeqCst);
    }
}
