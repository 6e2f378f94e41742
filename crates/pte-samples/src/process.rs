//! An [`Engine`] served by a child process over the `pte-runner` protocol:
//! one process for a whole check, a fresh state per sample on request, every
//! reply awaited at most the per-call timeout, and the process (with what it
//! started, on Unix) stopped however the check ends.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};

use crate::model::Value;
use crate::protocol::{decode_values, encode_values, escaped, read_frame, write_frame, FrameError, Header};
use crate::protocol::{PROTOCOL, PROTOCOL_VERSION};
use crate::verify::{Engine, RunError, RunResult};
use crate::wire::Frame;

/// How many of the runner's last stderr lines errors quote.
pub const STDERR_TAIL_LINES: usize = 20;
/// How much of one stderr line is kept (the rest is counted).
pub const STDERR_LINE_MAX: usize = 500;
/// How long a runner may take to exit after `bye` before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(5);
/// How often a wait looks at the child and at stop signals.
const POLL: Duration = Duration::from_millis(50);
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
    requests: Option<Sender<(Header, Vec<u8>)>>,
    replies: Receiver<Result<(Frame, Vec<u8>), FrameError>>,
    stderr: Arc<Mutex<StderrTail>>,
    stderr_done: Receiver<()>,
    /// The bytes of tensors the next reply may declare ([`NO_BUDGET`]: any).
    budget: Arc<AtomicU64>,
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
        let requests = spawn_writer(stdin);
        let (reply_tx, replies) = mpsc::channel();
        let budget = Arc::new(AtomicU64::new(NO_BUDGET));
        let reader_budget = Arc::clone(&budget);
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let budget = || Some(reader_budget.load(Ordering::SeqCst)).filter(|&b| b != NO_BUDGET);
            loop {
                let frame = read_frame(&mut reader, &budget);
                let last = frame.is_err();
                if reply_tx.send(frame).is_err() || last {
                    break;
                }
            }
        });
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
            requests: Some(requests),
            replies,
            stderr,
            stderr_done,
            budget,
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
        let (reply, _) = self.request(
            json!({"op": "hello", "protocol": PROTOCOL, "version": PROTOCOL_VERSION}),
            Vec::new(),
            "hello",
        )?;
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
    /// `"ok": false` and for anything that makes the process unusable.
    fn request(&mut self, header: Json, payload: Vec<u8>, what: &str) -> RunResult<(Frame, Vec<u8>)> {
        if let Some(why) = &self.broken {
            return Err(why.clone().into());
        }
        if let Some(sig) = pte_core::interrupted() {
            return Err(self.fail(format!("interrupted by signal {sig} before {what}; the runner was stopped")));
        }
        let Json::Object(header) = header else { return Err("internal: a header must be an object".into()) };
        let sent = self.requests.as_ref().is_some_and(|tx| tx.send((header, payload)).is_ok());
        if !sent {
            return Err(self.gone(what));
        }
        let reply = match self.await_reply(what)? {
            Ok(frame) => frame,
            Err(FrameError::Eof) => return Err(self.gone(what)),
            Err(FrameError::Io(e)) => return Err(self.fail(format!("reading the runner's {what} reply failed: {e}"))),
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

    /// Waits for the next reply: at most the timeout, and no longer than the
    /// runner lives (whoever else holds its pipes) or a stop signal allows.
    fn await_reply(&mut self, what: &str) -> RunResult<Result<(Frame, Vec<u8>), FrameError>> {
        let deadline = Instant::now().checked_add(self.timeout);
        loop {
            match self.replies.recv_timeout(POLL) {
                Ok(frame) => return Ok(frame),
                Err(RecvTimeoutError::Disconnected) => return Err(self.gone(what)),
                Err(RecvTimeoutError::Timeout) => {}
            }
            if let Some(sig) = pte_core::interrupted() {
                return Err(self.fail(format!("interrupted by signal {sig} during {what}; the runner was stopped")));
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                // a reply written just before exiting may still be on its way
                return match self.replies.recv_timeout(Duration::from_millis(200)) {
                    Ok(frame) => Ok(frame),
                    Err(_) => Err(self.fail(format!("the runner exited ({}) during {what}", describe(status)))),
                };
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                let secs = self.timeout.as_secs_f64();
                return Err(self.fail(format!("the runner did not answer {what} within {secs} s")));
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
        self.requests = None;
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
        let bye = self.request(json!({"op": "bye"}), Vec::new(), "bye");
        self.requests = None;
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
            let _ = self.request(json!({"op": "bye"}), Vec::new(), "bye");
            self.requests = None;
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

/// Writes requests on their own thread, so a runner that stops reading its
/// input cannot block the check past the timeout.
fn spawn_writer(mut stdin: ChildStdin) -> Sender<(Header, Vec<u8>)> {
    let (tx, rx) = mpsc::channel::<(Header, Vec<u8>)>();
    thread::spawn(move || {
        for (header, payload) in rx {
            if write_frame(&mut stdin, header, &payload).is_err() {
                break;
            }
        }
        let _ = stdin.flush();
    });
    tx
}

impl Engine for ProcessRunner {
    fn fresh(&mut self) -> RunResult<()> {
        self.request(json!({"op": "fresh"}), Vec::new(), "fresh").map(|_| ())
    }

    fn execute(&mut self, method: &str, inputs: &[Value<'_>]) -> RunResult<Vec<Value<'static>>> {
        let (docs, payload) = encode_values(inputs, "in")?;
        let what = format!("call of {method:?}");
        let reply = self.request(json!({"op": "call", "method": method, "inputs": docs}), payload, &what);
        self.budget.store(NO_BUDGET, Ordering::SeqCst);
        let (reply, data) = reply?;
        match decode_values(reply.outputs, "outputs", &data) {
            Ok(values) => Ok(values.into_iter().map(Value::into_owned).collect()),
            Err(why) => Err(self.fail(format!("the runner's outputs do not read: {why}"))),
        }
    }

    fn expect_outputs(&mut self, recorded: &[Value<'_>]) {
        self.budget.store(output_budget(recorded), Ordering::SeqCst);
    }

    fn methods(&mut self) -> RunResult<Option<Vec<String>>> {
        Ok(self.methods.clone())
    }

    fn name(&self) -> Option<String> {
        self.name.clone()
    }
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
