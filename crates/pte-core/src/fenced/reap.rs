//! Reaping a child with `wait4`, the one call that also says how much
//! memory the child used at its peak (`ru_maxrss`), which `std::process`
//! does not expose.

/// How a reaped child ended: its raw wait status and its peak resident
/// memory in KiB.
#[cfg(unix)]
pub(crate) struct Reaped {
    pub(crate) status: std::process::ExitStatus,
    pub(crate) max_rss_kib: u64,
}

/// Reaps `pid` if it has ended (`block`: waits until it does). `Ok(None)`:
/// still running.
#[cfg(unix)]
pub(crate) fn reap(pid: u32, block: bool) -> std::io::Result<Option<Reaped>> {
    use std::os::unix::process::ExitStatusExt;
    let pid = libc::pid_t::try_from(pid).map_err(|_| std::io::Error::other("process id out of range"))?;
    let mut status: libc::c_int = 0;
    let flags = if block { 0 } else { libc::WNOHANG };
    loop {
        // SAFETY: rusage is plain data, valid when zeroed; wait4 writes the
        // status and the usage into these two locals and keeps no pointer.
        #[allow(unsafe_code)]
        let (got, usage) = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            let got = libc::wait4(pid, &mut status, flags, &mut usage);
            (got, usage)
        };
        match got {
            0 => return Ok(None),
            p if p == pid => {
                // Linux reports ru_maxrss in KiB
                let max_rss_kib = u64::try_from(usage.ru_maxrss).unwrap_or(0);
                return Ok(Some(Reaped { status: std::process::ExitStatus::from_raw(status), max_rss_kib }));
            }
            _ => {
                let e = std::io::Error::last_os_error();
                if e.kind() != std::io::ErrorKind::Interrupted {
                    return Err(e);
                }
            }
        }
    }
}
