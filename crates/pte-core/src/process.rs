//! Running another program under a deadline: the one place that starts a
//! child in a process group of its own, stops the whole group (what the
//! child started included) when it overstays, and reaps it with its peak
//! memory. `pte conformance run` runs parsers through it; the samples
//! runner stops its runner with [`stop_group`].

use std::process::Command;
use std::thread;
use std::time::{Duration, Instant};

use crate::error::{Error, ErrorKind, Result};

/// How long a process group has between `SIGTERM` and `SIGKILL`.
pub const KILL_GRACE: Duration = Duration::from_millis(500);

/// How often a wait looks at the child and at stop signals.
const POLL: Duration = Duration::from_millis(5);

/// How a bounded run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The program exited with this status.
    Exited(i32),
    /// A signal ended it (a crash: `SIGSEGV`, `SIGABRT`, ...).
    Signaled(i32),
    /// It was still running at the deadline and was stopped.
    TimedOut,
}

/// A finished run: how it ended, how long it took and its peak memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finished {
    /// How it ended.
    pub ending: Ending,
    /// Its peak resident memory, in KiB (0 where the system does not say).
    pub max_rss_kib: u64,
    /// From start to end.
    pub elapsed: Duration,
}

/// Stops the process group `pid` leads: `SIGTERM`, then, once `ended` says
/// the leader is gone or [`KILL_GRACE`] has passed, `SIGKILL` for whatever
/// of the group is left (the group outlives its leader while anything it
/// started runs). Does nothing elsewhere than on Unix.
///
/// ```
/// # #[cfg(unix)] {
/// use std::os::unix::process::CommandExt;
/// let mut child = std::process::Command::new("sleep").arg("30").process_group(0).spawn()?;
/// pte_core::process::stop_group(child.id(), || child.try_wait().ok().flatten().is_some());
/// assert!(child.wait()?.code().is_none());
/// # }
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn stop_group(pid: u32, mut ended: impl FnMut() -> bool) {
    #[cfg(unix)]
    {
        use rustix::process::{kill_process_group, Pid, Signal};
        let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) else { return };
        if !ended() {
            let _ = kill_process_group(pid, Signal::TERM);
            let deadline = Instant::now().checked_add(KILL_GRACE);
            while !ended() && deadline.is_some_and(|d| Instant::now() < d) {
                thread::sleep(Duration::from_millis(10));
            }
        }
        let _ = kill_process_group(pid, Signal::KILL);
    }
    #[cfg(not(unix))]
    let _ = (pid, ended());
}

/// Runs `cmd` in a process group of its own and waits at most `timeout`;
/// past it, the group is stopped ([`stop_group`]) and the run counts as
/// [`Ending::TimedOut`]. A stop signal (Ctrl-C) stops the group too and
/// fails with [`ErrorKind::Interrupted`]. The caller sets up the streams.
///
/// ```
/// # #[cfg(unix)] {
/// use pte_core::process::{run_bounded, Ending};
/// use std::process::Command;
/// use std::time::Duration;
/// let t = Duration::from_secs(10);
/// assert_eq!(run_bounded(&mut Command::new("true"), t)?.ending, Ending::Exited(0));
/// assert_eq!(run_bounded(Command::new("sh").args(["-c", "exit 3"]), t)?.ending, Ending::Exited(3));
/// assert_eq!(run_bounded(Command::new("sh").args(["-c", "kill -SEGV $$"]), t)?.ending, Ending::Signaled(11));
/// let slow = run_bounded(Command::new("sleep").arg("30"), Duration::from_millis(100))?;
/// assert_eq!(slow.ending, Ending::TimedOut);
/// # }
/// # Ok::<(), pte_core::Error>(())
/// ```
pub fn run_bounded(cmd: &mut Command, timeout: Duration) -> Result<Finished> {
    #[cfg(unix)]
    {
        use std::os::unix::process::{CommandExt, ExitStatusExt};
        cmd.process_group(0);
        // held before the child exists, so no signal can leave it behind
        let _held = crate::hold_stop_signals();
        let started = Instant::now();
        let shown = cmd.get_program().to_string_lossy().into_owned();
        let child =
            cmd.spawn().map_err(|e| Error::new(ErrorKind::InvalidUse, format!("could not start `{shown}`: {e}")))?;
        let pid = child.id();
        let io = |e: std::io::Error| Error::new(ErrorKind::Io, format!("waiting for `{shown}`: {e}"));
        let deadline = started.checked_add(timeout);
        let mut reaped = None;
        let mut stopped = None;
        while reaped.is_none() {
            reaped = crate::fenced::reap(pid, false).map_err(io)?;
            if reaped.is_some() {
                break;
            }
            let interrupted = crate::interrupted();
            if interrupted.is_some() || deadline.is_some_and(|d| Instant::now() >= d) {
                stopped = Some(interrupted);
                let mut error = None;
                stop_group(pid, || match crate::fenced::reap(pid, false) {
                    Ok(Some(r)) => {
                        reaped = Some(r);
                        true
                    }
                    Ok(None) => false,
                    Err(e) => {
                        error = Some(e);
                        true
                    }
                });
                if let Some(e) = error {
                    return Err(io(e));
                }
                if reaped.is_none() {
                    reaped = crate::fenced::reap(pid, true).map_err(io)?;
                }
                break;
            }
            thread::sleep(POLL);
        }
        let elapsed = started.elapsed();
        if let Some(Some(sig)) = stopped {
            return Err(Error::new(
                ErrorKind::Interrupted,
                format!("interrupted by signal {sig}; `{shown}` was stopped"),
            ));
        }
        // whatever the leader started and left behind goes with it
        stop_group(pid, || true);
        let max_rss_kib = reaped.as_ref().map_or(0, |r| r.max_rss_kib);
        let ending = match (stopped, reaped.map(|r| r.status)) {
            (Some(_), _) => Ending::TimedOut,
            (None, Some(s)) => match (s.code(), s.signal()) {
                (Some(code), _) => Ending::Exited(code),
                (None, Some(sig)) => Ending::Signaled(sig),
                (None, None) => Ending::Exited(-1),
            },
            (None, None) => Ending::TimedOut,
        };
        drop(child);
        Ok(Finished { ending, max_rss_kib, elapsed })
    }
    #[cfg(not(unix))]
    {
        let _ = (cmd, timeout);
        Err(Error::new(ErrorKind::Unsupported, "bounded runs need a Unix system"))
    }
}
