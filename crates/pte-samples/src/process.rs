//! An [`Engine`] served by a child process over the `pte-runner` protocol:
//! one process for a whole check, a fresh state per sample on request, every
//! reply awaited at most the per-call timeout, and the process (with what it
//! started, on Unix) stopped however the check ends.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};

use crate::model::Value;
use crate::protocol::{decode_values, encode_values, read_frame, write_frame, FrameError, Header};
use crate::protocol::{PROTOCOL, PROTOCOL_VERSION};
use crate::verify::{Engine, RunError, RunResult};

/// How many of the runner's last stderr lines errors quote.
pub const STDERR_TAIL_LINES: usize = 20;
const STDERR_LINE_MAX: usize = 500;
/// How long a runner may take to exit after `bye` before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(5);

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
    replies: Receiver<Result<(Header, Vec<u8>), FrameError>>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    stderr_done: Receiver<()>,
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
        let shown = command.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" ");
        let mut child = cmd.spawn().map_err(|e| format!("could not start the runner `{shown}`: {e}"))?;
        let (stdin, stdout, stderr_pipe) = match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
            (Some(i), Some(o), Some(e)) => (i, o, e),
            _ => return Err("the runner's standard streams could not be connected".into()),
        };
        let requests = spawn_writer(stdin);
        let (reply_tx, replies) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let frame = read_frame(&mut reader);
                let last = frame.is_err();
                if reply_tx.send(frame).is_err() || last {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let (done_tx, stderr_done) = mpsc::channel();
        let tail = Arc::clone(&stderr);
        thread::spawn(move || {
            let reader = BufReader::new(stderr_pipe);
            for line in reader.split(b'\n').map_while(Result::ok) {
                let mut text = String::from_utf8_lossy(&line).trim_end().to_string();
                if text.len() > STDERR_LINE_MAX {
                    let cut = (0..=STDERR_LINE_MAX).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
                    text.truncate(cut);
                    text.push_str("...");
                }
                if let Ok(mut t) = tail.lock() {
                    if t.len() == STDERR_TAIL_LINES {
                        t.pop_front();
                    }
                    t.push_back(text);
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
        let version = reply.get("version").and_then(Json::as_u64);
        if reply.get("protocol").and_then(Json::as_str) != Some(PROTOCOL) || version != Some(PROTOCOL_VERSION) {
            return Err(self.fail(format!(
                "the runner does not speak {PROTOCOL} version {PROTOCOL_VERSION} (it answered {})",
                crate::protocol::preview(&serde_json::to_vec(&reply).unwrap_or_default())
            )));
        }
        self.name = reply.get("runner").and_then(Json::as_str).map(str::to_string);
        self.methods = match reply.get("methods") {
            None | Some(Json::Null) => None,
            Some(Json::Array(a)) => Some(
                a.iter()
                    .map(|m| m.as_str().map(str::to_string))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| self.fail("\"methods\" in the hello reply is not a list of names".to_string()))?,
            ),
            Some(_) => return Err(self.fail("\"methods\" in the hello reply is not a list of names".to_string())),
        };
        Ok(())
    }

    /// Sends one request and waits for its reply; `Err` for a reply with
    /// `"ok": false` and for anything that makes the process unusable.
    fn request(&mut self, header: Json, payload: Vec<u8>, what: &str) -> RunResult<(Header, Vec<u8>)> {
        if let Some(why) = &self.broken {
            return Err(why.clone().into());
        }
        let Json::Object(header) = header else { return Err("internal: a header must be an object".into()) };
        let sent = self.requests.as_ref().is_some_and(|tx| tx.send((header, payload)).is_ok());
        if !sent {
            return Err(self.gone(what));
        }
        let reply = match self.replies.recv_timeout(self.timeout) {
            Ok(Ok(frame)) => frame,
            Ok(Err(FrameError::Eof)) | Err(RecvTimeoutError::Disconnected) => return Err(self.gone(what)),
            Ok(Err(FrameError::Io(e))) => {
                return Err(self.fail(format!("reading the runner's {what} reply failed: {e}")))
            }
            Ok(Err(FrameError::Garbage(why))) => {
                return Err(self.fail(format!("the runner answered {what} with garbage: {why}")))
            }
            Err(RecvTimeoutError::Timeout) => {
                return Err(
                    self.fail(format!("the runner did not answer {what} within {} s", self.timeout.as_secs_f64()))
                )
            }
        };
        match reply.0.get("ok") {
            Some(Json::Bool(true)) => Ok(reply),
            Some(Json::Bool(false)) => {
                let error = reply.0.get("error").and_then(Json::as_str).unwrap_or("(no error message)");
                Err(self.fail(format!("the runner refused {what}: {error}")))
            }
            _ => Err(self.fail(format!("the runner's {what} reply has no \"ok\": true or false"))),
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
            if tail.is_empty() {
                text.push_str(" (the runner wrote nothing on stderr)");
            } else {
                text.push_str(&format!(
                    "; the runner's last stderr lines:\n  | {}",
                    tail.iter().cloned().collect::<Vec<_>>().join("\n  | ")
                ));
            }
        }
        self.broken = Some(text.clone());
        text.into()
    }

    fn wait_until(&mut self, deadline: Option<Instant>) -> Option<ExitStatus> {
        loop {
            match self.child.try_wait() {
                Ok(Some(s)) => return Some(s),
                Ok(None) if deadline.is_some_and(|d| Instant::now() < d) => thread::sleep(Duration::from_millis(10)),
                _ => return None,
            }
        }
    }

    /// Stops the runner's process group (the process alone elsewhere) and reaps it.
    fn kill(&mut self) {
        self.requests = None;
        #[cfg(unix)]
        {
            let pid = rustix::process::Pid::from_child(&self.child);
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
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
        let (reply, data) = self.request(json!({"op": "call", "method": method, "inputs": docs}), payload, &what)?;
        match decode_values(&reply, "outputs", &data) {
            Ok(values) => Ok(values.into_iter().map(Value::into_owned).collect()),
            Err(why) => Err(self.fail(format!("the runner's outputs do not read: {why}"))),
        }
    }

    fn methods(&mut self) -> RunResult<Option<Vec<String>>> {
        Ok(self.methods.clone())
    }

    fn name(&self) -> Option<String> {
        self.name.clone()
    }
}
