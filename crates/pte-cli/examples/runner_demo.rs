//! `pte-runner-demo`: a runner of the `pte-runner` protocol
//! (`docs/samples.md`, "Runners") for a tiny stateful model, built on
//! `pte_samples::serve`. Method `forward` takes an `F32` tensor `x` and
//! returns `(state, calls)`: `state` is the running sum of every `x` since
//! the last fresh state, `calls` how many calls that state has seen. Method
//! `scale` takes `(x, factor)` and returns `x * factor` with no state.
//!
//! Switches make it misbehave the ways a real runner can, for the tests;
//! `--help` lists them ([`USAGE`]).
//!
//! An example of the pte-cli package, so `cargo install` leaves it out:
//!
//! ```text
//! cargo build -p pte-cli --example pte-runner-demo
//! pte samples check sums/ -- target/debug/examples/pte-runner-demo
//! ```

#![allow(clippy::print_stderr)]

use std::io::{BufReader, Write};
use std::process::ExitCode;

use pte_ptn::{Dtype, PtnTensor};
use pte_samples::{serve, Engine, RunResult, Value};

/// What `--help` prints.
const USAGE: &str = "\
pte-runner-demo: a runner of the pte-runner protocol (docs/samples.md) for a toy model,
speaking on stdin and stdout: `pte samples check SOURCE -- pte-runner-demo [SWITCH]...`.
Method forward(x F32[n]) returns (running sum of x, calls since fresh); scale(x, factor)
returns x * factor.

Switches (they make it misbehave as a real runner can; N counts calls from 1):
  --forget              reload before every call (state is lost)
  --ignore-fresh        keep state across a fresh request
  --offset X            add X to every output element
  --nan-at N            make the first output element NaN in call N
  --crash-at N          exit with status 3 in call N
  --hang-at N           never answer call N
  --garbage-at N        write a line that is not a reply in call N
  --wrong-dtype-at N    answer call N with a float64 tensor
  --wrong-count-at N    answer call N with one output too many
  --refuse-hello        refuse the handshake
  --exit-early          exit before the handshake
  --chatty              write to stdout before serving (a protocol error)
  --spawn-sleeper       start a child process that would outlive it

Hostile switches (what pte must survive in bounded memory and time):
  --huge-data-at N          claim a 2^40-byte payload in call N, then send zeros
  --huge-shape-at N         declare a 2^40-byte output in call N, then send zeros
  --many-outputs-at N       answer call N with a 16 MB header of a million outputs
  --stderr-flood-at N       write stderr without a newline, forever, in call N
  --ugly-error-at N         refuse call N with a 100 KB error of newlines and escapes
  --exit-leaving-child-at N exit in call N while a child holds stdout and stderr
  --many-methods N          list N methods in hello, none of them forward
  --tag TEXT                ignored: names the process for a test that looks for it
  -h, --help            print this
";

#[derive(Default)]
struct Faults {
    forget: bool,
    ignore_fresh: bool,
    offset: f32,
    nan_at: Option<u64>,
    crash_at: Option<u64>,
    hang_at: Option<u64>,
    garbage_at: Option<u64>,
    wrong_dtype_at: Option<u64>,
    wrong_count_at: Option<u64>,
    huge_data_at: Option<u64>,
    huge_shape_at: Option<u64>,
    many_outputs_at: Option<u64>,
    stderr_flood_at: Option<u64>,
    ugly_error_at: Option<u64>,
    exit_leaving_child_at: Option<u64>,
    many_methods: Option<u64>,
}

#[derive(Default)]
struct Demo {
    faults: Faults,
    state: Vec<f32>,
    calls_in_state: i64,
    calls: u64,
}

fn f32s(v: &[f32]) -> RunResult<PtnTensor<'static>> {
    let shape = vec![u64::try_from(v.len())?];
    Ok(PtnTensor::new(Dtype::F32, shape, v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>())?)
}

fn read_f32s(v: Option<&Value<'_>>) -> RunResult<Vec<f32>> {
    match v {
        Some(Value::Tensor(t)) if t.dtype == Dtype::F32 && t.shape.len() == 1 => {
            Ok(t.data.chunks_exact(4).filter_map(|b| b.try_into().ok().map(f32::from_le_bytes)).collect())
        }
        _ => Err("input 0 must be a 1-d F32 tensor".into()),
    }
}

impl Engine for Demo {
    fn fresh(&mut self) -> RunResult<()> {
        if !self.faults.ignore_fresh {
            self.state.clear();
            self.calls_in_state = 0;
        }
        Ok(())
    }

    fn execute(&mut self, method: &str, inputs: &[Value<'_>]) -> RunResult<Vec<Value<'static>>> {
        self.calls = self.calls.saturating_add(1);
        let n = Some(self.calls);
        let f = &self.faults;
        if f.crash_at == n {
            eprintln!("demo runner: crashing in call {}", self.calls);
            std::process::exit(3);
        }
        if f.hang_at == n {
            eprintln!("demo runner: hanging in call {}", self.calls);
            loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            }
        }
        if f.garbage_at == n {
            let mut out = std::io::stdout();
            out.write_all(b"this is not a reply\n")?;
            out.flush()?;
        }
        hostile(f, n)?;
        let x = read_f32s(inputs.first())?;
        let mut out = match method {
            "forward" => {
                if f.forget {
                    self.state.clear();
                    self.calls_in_state = 0;
                }
                if self.state.len() != x.len() {
                    self.state = vec![0.0; x.len()];
                }
                for (s, v) in self.state.iter_mut().zip(&x) {
                    *s += v;
                }
                self.calls_in_state = self.calls_in_state.saturating_add(1);
                vec![self.state.clone()]
            }
            "scale" => {
                let Some(Value::Float(k)) = inputs.get(1) else { return Err("input 1 must be a float".into()) };
                #[allow(clippy::cast_possible_truncation)]
                let k = *k as f32;
                vec![x.iter().map(|v| v * k).collect()]
            }
            other => return Err(format!("no method {other:?}").into()),
        };
        for v in out.iter_mut().flatten() {
            *v += f.offset;
        }
        if f.nan_at == n
            && let Some(first) = out.first_mut().and_then(|o| o.first_mut())
        {
            *first = f32::NAN;
        }
        let mut values: Vec<Value<'static>> =
            out.iter().map(|o| f32s(o).map(Value::Tensor)).collect::<RunResult<_>>()?;
        if method == "forward" {
            values.push(Value::Int(self.calls_in_state));
        }
        if f.wrong_dtype_at == n
            && let Some(Value::Tensor(t)) = values.first_mut()
        {
            let wide: Vec<u8> = t
                .data
                .chunks_exact(4)
                .filter_map(|b| b.try_into().ok().map(f32::from_le_bytes))
                .flat_map(|v| f64::from(v).to_le_bytes())
                .collect();
            *t = PtnTensor::new(Dtype::F64, t.shape.clone(), wide)?;
        }
        if f.wrong_count_at == n {
            values.push(Value::None);
        }
        Ok(values)
    }

    fn methods(&mut self) -> RunResult<Option<Vec<String>>> {
        if let Some(count) = self.faults.many_methods {
            return Ok(Some((0..count).map(|i| format!("m{i}")).collect()));
        }
        Ok(Some(vec!["forward".into(), "scale".into()]))
    }

    fn name(&self) -> Option<String> {
        Some(format!("pte-runner-demo {}", env!("CARGO_PKG_VERSION")))
    }
}

/// Writes `header` as a reply, then zeros until the reader goes away.
fn reply_then_zeros(header: &str) -> RunResult<()> {
    let mut out = std::io::stdout();
    out.write_all(header.as_bytes())?;
    out.write_all(b"\n")?;
    let zeros = vec![0u8; 1 << 16];
    while out.write_all(&zeros).is_ok() {}
    std::process::exit(0)
}

/// The hostile switches that fire in call `n`.
fn hostile(f: &Faults, n: Option<u64>) -> RunResult<()> {
    let honest = r#"[{"type":"tensor","key":"out.0","dtype":"F32","shape":[2]},{"type":"int","value":1}]"#;
    if f.huge_data_at == n {
        reply_then_zeros(&format!(r#"{{"ok":true,"outputs":{honest},"data":1099511627776}}"#))?;
    }
    if f.huge_shape_at == n {
        let huge = r#"[{"type":"tensor","key":"out.0","dtype":"F32","shape":[274877906944]},{"type":"int","value":1}]"#;
        reply_then_zeros(&format!(r#"{{"ok":true,"outputs":{huge},"data":1099511628032}}"#))?;
    }
    if f.many_outputs_at == n {
        let many = vec![r#"{"type":"none"}"#; 1_000_000].join(",");
        reply_then_zeros(&format!(r#"{{"ok":true,"outputs":[{many}]}}"#))?;
    }
    if f.stderr_flood_at == n {
        let xs = vec![b'x'; 1 << 16];
        let mut err = std::io::stderr();
        while err.write_all(&xs).is_ok() {}
        std::process::exit(0);
    }
    if f.ugly_error_at == n {
        return Err(format!("line one\nline two \x1b[31mred\x1b[0m\r{}", "y".repeat(100_000)).into());
    }
    if f.exit_leaving_child_at == n {
        // the child inherits stdout and stderr and keeps them open
        std::process::Command::new("sleep").arg("601").spawn()?;
        eprintln!("demo runner: leaving in call {}", n.unwrap_or(0));
        std::process::exit(5);
    }
    Ok(())
}

fn parse(args: &[String]) -> Result<(Faults, Vec<&str>), String> {
    let mut f = Faults::default();
    let mut flags = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut number = || -> Result<u64, String> {
            it.next().and_then(|v| v.parse().ok()).ok_or_else(|| format!("{a} takes a call number"))
        };
        match a.as_str() {
            "--forget" => f.forget = true,
            "--ignore-fresh" => f.ignore_fresh = true,
            "--nan-at" => f.nan_at = Some(number()?),
            "--crash-at" => f.crash_at = Some(number()?),
            "--hang-at" => f.hang_at = Some(number()?),
            "--garbage-at" => f.garbage_at = Some(number()?),
            "--wrong-dtype-at" => f.wrong_dtype_at = Some(number()?),
            "--wrong-count-at" => f.wrong_count_at = Some(number()?),
            "--huge-data-at" => f.huge_data_at = Some(number()?),
            "--huge-shape-at" => f.huge_shape_at = Some(number()?),
            "--many-outputs-at" => f.many_outputs_at = Some(number()?),
            "--stderr-flood-at" => f.stderr_flood_at = Some(number()?),
            "--ugly-error-at" => f.ugly_error_at = Some(number()?),
            "--exit-leaving-child-at" => f.exit_leaving_child_at = Some(number()?),
            "--many-methods" => f.many_methods = Some(number()?),
            "--tag" => {
                it.next().ok_or("--tag takes a text")?;
            }
            "--offset" => {
                f.offset = it.next().and_then(|v| v.parse().ok()).ok_or("--offset takes a number")?;
            }
            "--refuse-hello" | "--exit-early" | "--chatty" | "--spawn-sleeper" => flags.push(a.as_str()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok((f, flags))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let (faults, flags) = match parse(&args) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("pte-runner-demo: {e}");
            return ExitCode::from(2);
        }
    };
    eprintln!("demo runner: started");
    if flags.contains(&"--exit-early") {
        eprintln!("demo runner: giving up before hello");
        return ExitCode::from(4);
    }
    if flags.contains(&"--spawn-sleeper") {
        // A grandchild in the runner's process group, which pte must stop too.
        if let Err(e) = std::process::Command::new("sleep").arg("600").spawn() {
            eprintln!("demo runner: could not start sleep: {e}");
        }
    }
    let mut stdout = std::io::stdout().lock();
    if flags.contains(&"--chatty") {
        let _ = writeln!(stdout, "Loading model...");
    }
    if flags.contains(&"--refuse-hello") {
        let _ = writeln!(stdout, "{{\"ok\":false,\"error\":\"this runner is switched off\"}}");
        let _ = stdout.flush();
        return ExitCode::from(1);
    }
    let mut engine = Demo { faults, ..Demo::default() };
    let mut stdin = BufReader::new(std::io::stdin().lock());
    match serve(&mut engine, &mut stdin, &mut stdout) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("demo runner: {e}");
            ExitCode::from(1)
        }
    }
}
