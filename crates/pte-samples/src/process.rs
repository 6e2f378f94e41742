//! An [`Engine`] served by a child process over the `pte-runner` protocol:
//! one process for a whole check, a fresh state per sample on request, every
//! reply awaited at most the per-call timeout, and the process (with what it
//! started, on Unix) stopped however the check ends.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{self, BufRead, IoSlice, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::model::Value;
use crate::protocol::{decode_values, encode_values, header_line, read_frame, FrameError, Header};
use crate::protocol::{PROTOCOL, PROTOCOL_VERSION};
use crate::verify::{Engine, RunError, RunResult};
use crate::wire::escaped;
use crate::wire::Frame;

/// How many of the runner's last stderr lines errors quote.
pub const STDERR_TAIL_LINES: usize = 20;
/// How much of one stderr line is kept (the rest is counted).
pub const STDERR_LINE_MAX: usize = 500;
/// How long a runner may take to exit after `bye` before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(5);
/// How often a wait looks at the child and at stop signals.
const POLL: Duration = Duration::from_millis(50);
/// How much of the runner's output one read takes.
const READ_CHUNK: usize = 64 << 10;
/// No expectation set: replies are bounded by their own declarations only.
const NO_BUDGET: u64 = u64::MAX;

/// The end of the runner's stderr: the last lines, each cut at
/// [`STDERR_LINE_MAX`] bytes, and the line still being written.
#[derive(Default)]
struct StderrTail {
    lines: VecDeque<String>,
    /// How many lines ended so far.
    ended: u64,
    /// The start of the unfinished line, and its length so far.
    current: Vec<u8>,
    current_len: u64,
}

impl StderrTail {
    fn take(&mut self, bytes: &[u8]) {
        let mut rest = bytes;
        while !rest.is_empty() {
            let (piece, newline) = match rest.iter().position(|&b| b == b'\n') {
                Some(i) => (rest.get(..i).unwrap_or(&[]), true),
                None => (rest, false),
            };
            let room = (STDERR_LINE_MAX.saturating_add(4)).saturating_sub(self.current.len());
            self.current.extend_from_slice(piece.get(..room.min(piece.len())).unwrap_or(&[]));
            self.current_len = self.current_len.saturating_add(u64::try_from(piece.len()).unwrap_or(u64::MAX));
            rest = rest.get(piece.len().saturating_add(usize::from(newline))..).unwrap_or(&[]);
            if newline {
                self.end_line();
            }
        }
    }

    fn end_line(&mut self) {
        let text = self.current_text();
        if self.lines.len() == STDERR_TAIL_LINES {
            self.lines.pop_front();
        }
        self.lines.push_back(text);
        self.ended = self.ended.saturating_add(1);
        self.current.clear();
        self.current_len = 0;
    }

    fn current_text(&self) -> String {
        let kept = String::from_utf8_lossy(&self.current);
        let kept = kept.trim_end();
        let all = usize::try_from(self.current_len).unwrap_or(usize::MAX);
        if all > kept.len() && all > STDERR_LINE_MAX {
            let cut = (0..=STDERR_LINE_MAX.min(kept.len())).rev().find(|&i| kept.is_char_boundary(i)).unwrap_or(0);
            format!("{}... ({all} bytes in all)", escaped(kept.get(..cut).unwrap_or(""), STDERR_LINE_MAX))
        } else {
            escaped(kept, STDERR_LINE_MAX)
        }
    }

    /// The quoted tail, or that there was none.
    fn quoted(&self) -> String {
        let mut lines: Vec<String> = self.lines.iter().cloned().collect();
        if self.current_len > 0 {
            lines.push(format!("{} (no newline yet)", self.current_text()));
        }
        if lines.is_empty() {
            return " (the runner wrote nothing on stderr)".to_string();
        }
        let of = if self.ended > u64::try_from(self.lines.len()).unwrap_or(u64::MAX) {
            format!(" (of {})", self.ended)
        } else {
            String::new()
        };
        format!("; the runner's last stderr lines{of}:\n  | {}", lines.join("\n  | "))
    }
}

/// A runner process started for one check.
///
/// ```no_run
/// use pte_samples::*;
/// let command = ["python3", "-m", "pte_rs.runner", "model.pte"].map(std::ffi::OsString::from);
/// let mut runner = ProcessRunner::start(&command, std::time::Duration::from_secs(60))?;
/// let report = with_source_sets("model.ptn".as_ref(), &Selection::default(), |sets| check(sets, &mut runner))?;
/// runner.finish()?;
/// println!("{report}");
/// # Ok::<(), pte_samples::RunError>(())
/// ```
pub struct ProcessRunner {
    child: Child,
    /// Requests are written on the calling thread (never blocking: the pipe
    /// is non-blocking and a full one is waited for like a reply); `None`
    /// once closed.
    stdin: Option<ChildStdin>,
    /// Replies are read on the calling thread, every wait a `poll` with the
    /// reply's deadline: no thread hands them over.
    stdout: Incoming,
    stderr: Arc<Mutex<StderrTail>>,
    stderr_done: Receiver<()>,
    /// The bytes of tensors the next reply may declare ([`NO_BUDGET`]: any).
    budget: u64,
    /// Ctrl-C and `SIGTERM` wait while the runner lives, so it is stopped first.
    _held: pte_core::StopSignalsHeld,
    timeout: Duration,
    name: Option<String>,
    methods: Option<Vec<String>>,
    /// Set once the process proved unusable: every later request fails with it.
    broken: Option<String>,
}

impl ProcessRunner {
    /// Starts `command` (program then arguments) and greets it; `timeout`
    /// bounds the wait for each reply, the greeting's included.
    ///
    /// ```
    /// let err = pte_samples::ProcessRunner::start(&["/nonexistent/runner".into()], std::time::Duration::from_secs(1));
    /// assert!(err.err().unwrap().to_string().contains("/nonexistent/runner"));
    /// ```
    pub fn start(command: &[OsString], timeout: Duration) -> RunResult<ProcessRunner> {
        let (program, args) = command.split_first().ok_or("no runner command was given")?;
        let mut cmd = Command::new(program);
        cmd.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        // held before the child exists, so no signal can leave it behind
        let held = pte_core::hold_stop_signals();
        let shown = command.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" ");
        let mut child = cmd.spawn().map_err(|e| format!("could not start the runner `{shown}`: {e}"))?;
        let (stdin, stdout, stderr_pipe) = match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
            (Some(i), Some(o), Some(e)) => (i, o, e),
            _ => return Err("the runner's standard streams could not be connected".into()),
        };
        #[cfg(unix)]
        rustix::io::ioctl_fionbio(&stdin, true)
            .map_err(|e| format!("the runner's standard input could not be made non-blocking: {e}"))?;
        let stderr = Arc::new(Mutex::new(StderrTail::default()));
        let (done_tx, stderr_done) = mpsc::channel();
        let tail = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut pipe = stderr_pipe;
            let mut chunk = vec![0u8; 8192];
            while let Ok(n @ 1..) = pipe.read(&mut chunk) {
                if let Ok(mut t) = tail.lock() {
                    t.take(chunk.get(..n).unwrap_or(&[]));
                }
            }
            let _ = done_tx.send(());
        });
        let mut runner = ProcessRunner {
            child,
            stdin: Some(stdin),
            stdout: Incoming::new(stdout),
            stderr,
            stderr_done,
            budget: NO_BUDGET,
            _held: held,
            timeout,
            name: None,
            methods: None,
            broken: None,
        };
        runner.hello()?;
        Ok(runner)
    }

    fn hello(&mut self) -> RunResult<()> {
        let hello = Header {
            op: Some("hello"),
            protocol: Some(PROTOCOL),
            version: Some(PROTOCOL_VERSION),
            ..Header::default()
        };
        let (reply, _) = self.request(hello, &[], "hello")?;
        if reply.protocol.as_deref() != Some(PROTOCOL) || reply.version != Some(PROTOCOL_VERSION) {
            let protocol = reply.protocol.as_deref().map_or_else(|| "none".to_string(), |p| escaped(p, 100));
            let version = reply.version.map_or_else(|| "none".to_string(), |v| v.to_string());
            return Err(self.fail(format!(
                "the runner does not speak {PROTOCOL} version {PROTOCOL_VERSION} (it answered protocol {protocol}, version {version})"
            )));
        }
        self.name = reply.runner;
        self.methods = reply.methods;
        Ok(())
    }

    /// Sends one request and waits for its reply; `Err` for a reply with
    /// `"ok": false` and for anything that makes the process unusable. The
    /// timeout bounds the whole exchange: writing the request (a runner that
    /// stops reading fills the pipe) and reading the reply.
    fn request(&mut self, header: Header<'_>, payload: &[u8], what: &str) -> RunResult<(Frame, Vec<u8>)> {
        if let Some(why) = &self.broken {
            return Err(why.clone().into());
        }
        if let Some(sig) = pte_core::interrupted() {
            return Err(self.fail(format!("interrupted by signal {sig} before {what}; the runner was stopped")));
        }
        let line = header_line(header, payload.len()).map_err(|e| format!("internal: a header did not encode: {e}"))?;
        let deadline = Instant::now().checked_add(self.timeout);
        let sent = self.send(&line, payload, deadline);
        if let Some(stop) = sent.as_ref().err().and_then(Stop::of) {
            return Err(self.stopped(stop, what));
        }
        // a runner that stopped reading may still have answered (a refusal
        // written before it exits): its reply is read either way
        let budget = Some(self.budget).filter(|&b| b != NO_BUDGET);
        let mut waiting = Waiting { incoming: &mut self.stdout, child: &mut self.child, deadline };
        let read = read_frame(&mut waiting, &|| budget);
        if sent.is_err() && read.is_err() {
            return Err(self.gone(what));
        }
        let reply = match read {
            Ok(frame) => frame,
            Err(FrameError::Eof) => return Err(self.gone(what)),
            Err(FrameError::Io(e)) => {
                return Err(match Stop::of(&e) {
                    Some(stop) => self.stopped(stop, what),
                    None => self.fail(format!("reading the runner's {what} reply failed: {e}")),
                })
            }
            Err(FrameError::Garbage(why)) => {
                return Err(self.fail(format!("the runner answered {what} with garbage: {why}")))
            }
        };
        match reply.0.ok {
            Some(true) => Ok(reply),
            Some(false) => {
                let error = reply.0.error.as_deref().unwrap_or("(no error message)");
                Err(self.fail(format!("the runner refused {what}: {error}")))
            }
            None => Err(self.fail(format!("the runner's {what} reply has no \"ok\": true or false"))),
        }
    }

    /// Writes a request (header line and payload in one `writev` when the
    /// pipe has room) on the calling thread; a full pipe is waited for in
    /// `poll` slices, as a reply is.
    fn send(&mut self, line: &[u8], payload: &[u8], deadline: Option<Instant>) -> io::Result<()> {
        let stdin = self.stdin.as_mut().ok_or_else(|| io::Error::from(io::ErrorKind::BrokenPipe))?;
        let (mut line, mut payload) = (line, payload);
        while !line.is_empty() || !payload.is_empty() {
            match stdin.write_vectored(&[IoSlice::new(line), IoSlice::new(payload)]) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => {
                    let in_line = n.min(line.len());
                    line = line.get(in_line..).unwrap_or(&[]);
                    payload = payload.get(n.saturating_sub(in_line)..).unwrap_or(&[]);
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    wait_ready(&*stdin, Direction::Write, &mut self.child, deadline)?
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// The wait for the runner ended without a reply.
    fn stopped(&mut self, stop: Stop, what: &str) -> RunError {
        match stop {
            Stop::Signal(sig) => {
                self.fail(format!("interrupted by signal {sig} during {what}; the runner was stopped"))
            }
            Stop::Exited(status) => self.fail(format!("the runner exited ({}) during {what}", describe(status))),
            Stop::Late => {
                let secs = self.timeout.as_secs_f64();
                self.fail(format!("the runner did not answer {what} within {secs} s"))
            }
        }
    }

    /// The process ended or closed its streams.
    fn gone(&mut self, what: &str) -> RunError {
        let deadline = Instant::now().checked_add(Duration::from_secs(1));
        let status = self.wait_until(deadline);
        let how = match status {
            Some(s) => format!("the runner exited ({}) during {what}", describe(s)),
            None => format!("the runner closed its output during {what}"),
        };
        self.fail(how)
    }

    /// Marks the runner unusable, stops it, and returns the error with the
    /// runner's last stderr lines.
    fn fail(&mut self, why: String) -> RunError {
        self.kill();
        // the stderr reader sees the end once the process is gone
        let _ = self.stderr_done.recv_timeout(Duration::from_millis(500));
        let mut text = why;
        if let Ok(tail) = self.stderr.lock() {
            text.push_str(&tail.quoted());
        }
        self.broken = Some(text.clone());
        text.into()
    }

    fn wait_until(&mut self, deadline: Option<Instant>) -> Option<ExitStatus> {
        loop {
            match self.child.try_wait() {
                Ok(Some(s)) => return Some(s),
                Ok(None) if deadline.is_some_and(|d| Instant::now() < d) && pte_core::interrupted().is_none() => {
                    thread::sleep(Duration::from_millis(10));
                }
                _ => return None,
            }
        }
    }

    /// Stops the runner's process group (the process alone elsewhere):
    /// `SIGTERM`, then `SIGKILL` for whatever is left after a short grace;
    /// and reaps it.
    fn kill(&mut self) {
        self.stdin = None;
        let child = &mut self.child;
        pte_core::process::stop_group(child.id(), || child.try_wait().ok().flatten().is_some());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Says `bye`, waits a moment for the runner to exit, and stops it if it
    /// does not. `Err` when the runner was already unusable or did not exit
    /// cleanly by itself.
    ///
    /// ```no_run
    /// let runner = pte_samples::ProcessRunner::start(&["my-runner".into()], std::time::Duration::from_secs(5))?;
    /// runner.finish()?;
    /// # Ok::<(), pte_samples::RunError>(())
    /// ```
    pub fn finish(mut self) -> RunResult<()> {
        if let Some(why) = self.broken.take() {
            return Err(why.into());
        }
        let bye = self.request(Header { op: Some("bye"), ..Header::default() }, &[], "bye");
        self.stdin = None;
        let status = self.wait_until(Instant::now().checked_add(EXIT_GRACE));
        bye?;
        match status {
            Some(s) if s.success() => Ok(()),
            Some(s) => Err(format!("the runner exited ({}) after bye", describe(s)).into()),
            None => Err(format!("the runner did not exit within {} s of bye", EXIT_GRACE.as_secs()).into()),
        }
    }
}

impl Drop for ProcessRunner {
    fn drop(&mut self) {
        if self.broken.is_none() && self.child.try_wait().ok().flatten().is_none() {
            let _ = self.request(Header { op: Some("bye"), ..Header::default() }, &[], "bye");
            self.stdin = None;
            let _ = self.wait_until(Instant::now().checked_add(EXIT_GRACE));
        }
        self.kill();
    }
}

fn describe(s: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = s.signal() {
            return format!("killed by signal {sig}");
        }
    }
    s.code().map_or_else(|| "no status".to_string(), |c| format!("status {c}"))
}

/// Why a wait for the runner ended early; carried through `io::Error` from
/// the reads of [`read_frame`].
#[derive(Debug)]
enum Stop {
    /// The deadline passed.
    Late,
    /// The runner exited (whoever else still holds its pipes).
    Exited(ExitStatus),
    /// A stop signal arrived.
    Signal(i32),
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for Stop {}

impl Stop {
    fn of(e: &io::Error) -> Option<Stop> {
        match e.get_ref()?.downcast_ref::<Stop>()? {
            Stop::Late => Some(Stop::Late),
            Stop::Exited(s) => Some(Stop::Exited(*s)),
            Stop::Signal(sig) => Some(Stop::Signal(*sig)),
        }
    }
}

#[derive(Clone, Copy)]
enum Direction {
    Read,
    Write,
}

/// Waits until `fd` can be read or written, in [`POLL`] slices: between
/// them a stop signal, the runner's exit or the deadline ends the wait
/// (as an `io::Error` holding a [`Stop`]).
#[cfg(unix)]
fn wait_ready(
    fd: &impl std::os::fd::AsFd,
    direction: Direction,
    child: &mut Child,
    deadline: Option<Instant>,
) -> io::Result<()> {
    use rustix::event::{poll, PollFd, PollFlags, Timespec};
    let flags = match direction {
        Direction::Read => PollFlags::IN,
        Direction::Write => PollFlags::OUT,
    };
    loop {
        let slice = deadline.map_or(POLL, |d| d.saturating_duration_since(Instant::now()).min(POLL));
        let timeout = Timespec::try_from(slice).map_err(io::Error::other)?;
        let mut fds = [PollFd::new(fd, flags)];
        match poll(&mut fds, Some(&timeout)) {
            Ok(n) if n > 0 => return Ok(()),
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
        if let Some(sig) = pte_core::interrupted() {
            return Err(io::Error::other(Stop::Signal(sig)));
        }
        if let Ok(Some(status)) = child.try_wait() {
            // a reply written just before exiting is read first
            let mut fds = [PollFd::new(fd, flags)];
            if matches!(poll(&mut fds, Some(&Timespec { tv_sec: 0, tv_nsec: 0 })), Ok(n) if n > 0) {
                return Ok(());
            }
            return Err(io::Error::other(Stop::Exited(status)));
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(io::Error::other(Stop::Late));
        }
    }
}

/// Elsewhere reads and writes block: no deadline, no signal check.
#[cfg(not(unix))]
fn wait_ready<T>(_: &T, _: Direction, _: &mut Child, _: Option<Instant>) -> io::Result<()> {
    Ok(())
}

/// The runner's stdout and what was read of it but not yet parsed
/// (`buf[pos..end]`).
struct Incoming {
    pipe: ChildStdout,
    buf: Box<[u8]>,
    pos: usize,
    end: usize,
}

impl Incoming {
    fn new(pipe: ChildStdout) -> Incoming {
        Incoming { pipe, buf: vec![0; READ_CHUNK].into_boxed_slice(), pos: 0, end: 0 }
    }
}

/// [`Incoming`] read within one reply's deadline.
struct Waiting<'a> {
    incoming: &'a mut Incoming,
    child: &'a mut Child,
    deadline: Option<Instant>,
}

impl Waiting<'_> {
    /// One read from the pipe into `out`, once the pipe is ready.
    fn read_pipe(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            wait_ready(&self.incoming.pipe, Direction::Read, self.child, self.deadline)?;
            match self.incoming.pipe.read(out) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                other => return other,
            }
        }
    }
}

impl Read for Waiting<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        // a payload goes from the pipe straight into its buffer: its one copy
        if self.incoming.pos == self.incoming.end && out.len() >= READ_CHUNK {
            return self.read_pipe(out);
        }
        let n = {
            let have = self.fill_buf()?;
            let n = have.len().min(out.len());
            out.get_mut(..n).unwrap_or_default().copy_from_slice(have.get(..n).unwrap_or_default());
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Waiting<'_> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.incoming.pos >= self.incoming.end {
            let mut buf = std::mem::take(&mut self.incoming.buf);
            let read = self.read_pipe(&mut buf);
            self.incoming.buf = buf;
            (self.incoming.pos, self.incoming.end) = (0, read?);
        }
        let inc = &*self.incoming;
        Ok(inc.buf.get(inc.pos..inc.end).unwrap_or_default())
    }

    fn consume(&mut self, n: usize) {
        self.incoming.pos = self.incoming.pos.saturating_add(n).min(self.incoming.end);
    }
}

impl Engine for ProcessRunner {
    fn fresh(&mut self) -> RunResult<()> {
        self.request(Header { op: Some("fresh"), ..Header::default() }, &[], "fresh").map(|_| ())
    }

    fn execute(&mut self, method: &str, inputs: &[Value<'_>]) -> RunResult<Vec<Value<'static>>> {
        let (docs, payload) = encode_values(inputs, "in")?;
        let what = format!("call of {method:?}");
        let header = Header { op: Some("call"), method: Some(method), inputs: Some(&docs), ..Header::default() };
        let reply = self.request(header, &payload, &what);
        self.budget = NO_BUDGET;
        let (reply, data) = reply?;
        owned_outputs(reply.outputs, data).map_err(|why| self.fail(format!("the runner's outputs do not read: {why}")))
    }

    fn expect_outputs(&mut self, recorded: &[Value<'_>]) {
        self.budget = output_budget(recorded);
    }

    fn methods(&mut self) -> RunResult<Option<Vec<String>>> {
        Ok(self.methods.clone())
    }

    fn name(&self) -> Option<String> {
        self.name.clone()
    }
}

/// A reply's outputs read against its payload and made owned, the largest
/// tensor keeping the payload's buffer (see [`keep_largest`]).
fn owned_outputs(docs: Option<Vec<crate::index::ValueDoc>>, mut data: Vec<u8>) -> Result<Vec<Value<'static>>, String> {
    let (mut values, kept) = {
        let mut values = decode_values(docs, "outputs", &data)?;
        let kept = keep_largest(&mut values, &data);
        (values.into_iter().map(Value::into_owned).collect::<Vec<_>>(), kept)
    };
    if let Some((slot, range)) = kept {
        let len = range.len();
        data.copy_within(range, 0);
        data.truncate(len);
        if let Some(Value::Tensor(t)) = values.get_mut(slot) {
            t.data = Cow::Owned(data);
        }
    }
    Ok(values)
}

/// The largest tensor of `values` read from `payload`, left empty: its
/// index and its bytes' range in `payload`, which then becomes its data, so
/// an honest reply (one big output, typically) is held once rather than
/// copied when it is made owned. The other values are small beside it.
fn keep_largest(values: &mut [Value<'_>], payload: &[u8]) -> Option<(usize, std::ops::Range<usize>)> {
    let range_of = |t: &[u8]| {
        let start = t.as_ptr().addr().checked_sub(payload.as_ptr().addr())?;
        let end = start.checked_add(t.len())?;
        (end <= payload.len()).then_some(start..end)
    };
    let (slot, range) = values
        .iter()
        .enumerate()
        .filter_map(|(i, v)| match v {
            Value::Tensor(t) if matches!(t.data, Cow::Borrowed(_)) => Some((i, range_of(&t.data)?)),
            _ => None,
        })
        .max_by_key(|(_, r)| r.len())?;
    if let Some(Value::Tensor(t)) = values.get_mut(slot) {
        t.data = Cow::Owned(Vec::new());
    }
    Some((slot, range))
}

/// The bytes of tensors a runner may return for `recorded`: the recorded
/// tensors' bytes, and 8 for each scalar (a runtime may return it as a 0-d
/// tensor).
fn output_budget(recorded: &[Value<'_>]) -> u64 {
    let bytes = |n: usize| u64::try_from(n).unwrap_or(u64::MAX);
    recorded
        .iter()
        .map(|v| match v {
            Value::Tensor(t) => bytes(t.data.len()),
            Value::TensorList(l) => l.iter().map(|t| bytes(t.data.len())).fold(0, u64::saturating_add),
            _ => 8,
        })
        .fold(0, u64::saturating_add)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use pte_ptn::{Dtype, PtnTensor};

    #[test]
    fn the_largest_tensor_of_a_reply_takes_the_payload_buffer() {
        let small = PtnTensor::new(Dtype::I64, vec![1], 7i64.to_le_bytes().to_vec()).unwrap();
        let big =
            PtnTensor::new(Dtype::U8, vec![1000], (0..1000u32).map(|i| (i % 251) as u8).collect::<Vec<u8>>()).unwrap();
        let sent = vec![Value::Tensor(small), Value::Int(3), Value::Tensor(big)];
        let (docs, payload) = encode_values(&sent, "out").unwrap();
        let kept = payload.as_ptr();
        let owned = owned_outputs(Some(docs), payload).unwrap();
        assert_eq!(owned, sent);
        // the payload's buffer, not a copy of it
        assert!(matches!(&owned[2], Value::Tensor(t) if t.data.as_ptr() == kept));
    }
}
