//! `pte`: inspect, dump, verify, rewrite and extract ExecuTorch files.
//!
//! Errors are one line on stderr and a non-zero exit status: 1 when a file
//! fails verification, 2 for unreadable or invalid input and bad arguments.

#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// Standard output that may be closed early (`pte info x | head`): writing
/// then ends the process quietly instead of panicking as `std::println!` does.
pub(crate) fn write_stdout(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if out.write_fmt(args).and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}

// These shadow the prelude's macros in every module below.
macro_rules! println {
    () => { $crate::write_stdout(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::write_stdout(format_args!("{}\n", format_args!($($arg)*))) };
}
macro_rules! print {
    ($($arg:tt)*) => { $crate::write_stdout(format_args!($($arg)*)) };
}

mod bpte;
mod detect;
mod extract;
mod extract_out;
mod info;
mod ptd;
mod ptn;
mod samples;

use pte_file::{DelegatePlacement, MappedFile, PteFile, WriteOptions};

#[derive(Parser)]
#[command(name = "pte", version, about = "Read, write, verify and transform ExecuTorch files")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum Delegates {
    Keep,
    Inline,
    Segment,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Constants {
    Keep,
    Segment,
}

#[derive(Subcommand)]
enum Command {
    /// Summarize a file: methods, operators, delegates, segments, constants, named data.
    Info {
        /// The file.
        file: PathBuf,
        /// Print stable JSON (documented in docs/cli.md) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print the stored program as flatc-compatible JSON.
    Dump {
        /// The file.
        file: PathBuf,
    },
    /// Check every load rule; exit 0 when valid, 1 with every violation otherwise.
    Verify {
        /// The file (.pte, .ptd, .ptn or .bpte).
        file: PathBuf,
        /// External tensor data the program's EXTERNAL tensors resolve against (repeatable).
        #[arg(long = "ptd")]
        ptd: Vec<PathBuf>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// Treat warnings (findings that break only some runtime builds) as failures.
        #[arg(long)]
        deny_warnings: bool,
    },
    /// Read a file into the aggregate and write it again.
    Rewrite {
        /// Input file.
        input: PathBuf,
        /// Output file (written atomically).
        output: PathBuf,
        /// Alignment of the segment base and every segment (repacks segments).
        #[arg(long)]
        segment_alignment: Option<u64>,
        /// Alignment of constant tensors in the constant segment (power of two).
        #[arg(long)]
        constant_alignment: Option<u64>,
        /// Alignment of inline delegate data (power of two).
        #[arg(long)]
        delegate_alignment: Option<u64>,
        /// Where delegate blobs go.
        #[arg(long, value_enum, default_value = "keep")]
        delegates: Delegates,
        /// Legacy inline constants (constant_buffer): keep them, or move them into a constant segment.
        #[arg(long, value_enum, default_value = "keep")]
        constants: Constants,
    },
    /// Move named constants and named-data blobs into a new .ptd (EXTERNAL tensors).
    Externalize {
        /// Input program.
        input: PathBuf,
        /// Output program.
        output: PathBuf,
        /// Output tensor data.
        data: PathBuf,
        /// Only keys matching this glob pattern (e.g. 'layers.*.weight'); default all.
        #[arg(long)]
        keys: Option<String>,
        /// First name every unnamed constant PREFIX<data_buffer_idx> (e.g. 'constant.'), so it can be moved.
        #[arg(long, value_name = "PREFIX")]
        name_constants: Option<String>,
    },
    /// Move EXTERNAL tensors and tensor-data blobs back into the program.
    Internalize {
        /// Input program, then one or more .ptd files, then the output program.
        #[arg(required = true, num_args = 3..)]
        files: Vec<PathBuf>,
    },
    /// Break exactly one thing in a valid file (a named corruption class; --list shows them).
    Mutate {
        /// A corruption class (pte.root-offset) or a verifier rule (tensor.dim_order): the first class breaking it that applies.
        #[arg(long, required_unless_present = "list")]
        rule: Option<String>,
        /// List every class: name, file kind, what it breaks, what `pte verify` reports.
        #[arg(long)]
        list: bool,
        /// A valid input file of the class's kind.
        #[arg(required_unless_present = "list")]
        input: Option<PathBuf>,
        /// Output file (written atomically).
        #[arg(required_unless_present = "list")]
        output: Option<PathBuf>,
    },
    /// Generate valid programs that reach the format's corners (pte_gen::generate): the same seed gives the same bytes.
    Gen {
        /// The first seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// How many programs; above 1, OUT is a directory that receives gen-SEED.pte files.
        #[arg(long, default_value_t = 1)]
        count: u64,
        /// Output file, or directory with --count.
        output: PathBuf,
    },
    /// Bundled programs: extract the program, export the test cases as samples, bundle a program with samples.
    #[command(subcommand)]
    Bpte(BpteCommand),
    /// List, show, check, add, remove and export the recorded calls of a .ptn package (docs/samples.md).
    #[command(subcommand)]
    Samples(SamplesCommand),
    /// Write every segment, constant, mutable buffer, named blob and delegate blob as files, plus manifest.json.
    Extract {
        /// The file.
        file: PathBuf,
        /// Output directory (created if missing; must be empty unless --force).
        dir: PathBuf,
        /// Write into a directory that is not empty (files the new manifest does not name stay).
        #[arg(long)]
        force: bool,
        /// Refuse to write more files than this.
        #[arg(long, default_value_t = extract_out::DEFAULT_MAX_FILES)]
        max_files: usize,
    },
}

#[derive(Subcommand)]
enum BpteCommand {
    /// Write the embedded program, byte for byte.
    Unbundle {
        /// The bundled program.
        file: PathBuf,
        /// Output .pte (written atomically).
        output: PathBuf,
    },
    /// Write every test suite in the samples sidecar form, as OUT_DIR/<method>/<set>/{index.json,data.safetensors}.
    ExportSamples {
        /// The bundled program.
        file: PathBuf,
        /// Output directory.
        dir: PathBuf,
        /// Set tolerance to record (default: the runtime's 1e-8).
        #[arg(long)]
        atol: Option<f64>,
        /// Set tolerance to record (default: the runtime's 1e-5).
        #[arg(long)]
        rtol: Option<f64>,
    },
    /// Bundle a program with single-call samples (a set directory, or a tree of <method>/<set>/ directories).
    Bundle {
        /// The program.
        program: PathBuf,
        /// Samples: a directory with index.json + data.safetensors, or <method>/<set>/ directories of them.
        samples: PathBuf,
        /// Output .bpte (written atomically).
        output: PathBuf,
    },
}

#[derive(Subcommand)]
enum SamplesCommand {
    /// One line per sample set: method/set, samples, calls, set tolerance.
    List {
        /// The package.
        file: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Every sample and call of one set, with values and resolved tolerances.
    Show {
        /// The package.
        file: PathBuf,
        /// Method name.
        method: String,
        /// Set name.
        set: String,
        /// Print the set's index.json instead.
        #[arg(long)]
        json: bool,
    },
    /// Compare recorded outputs with actual outputs another runtime stored under the
    /// same keys (`<method>/<set>/<key>` or `<key>`); exit 1 on any mismatch.
    Check {
        /// The package.
        file: PathBuf,
        /// Safetensors file of actual outputs.
        #[arg(long)]
        actual: PathBuf,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Add the set in DIR (index.json + data.safetensors) to the package, atomically.
    Add {
        /// The package (changed in place).
        file: PathBuf,
        /// Directory holding index.json and data.safetensors.
        dir: PathBuf,
        /// Overwrite a set of the same method and name.
        #[arg(long)]
        replace: bool,
    },
    /// Remove one set from the package, atomically.
    Remove {
        /// The package (changed in place).
        file: PathBuf,
        /// Method name.
        method: String,
        /// Set name.
        set: String,
    },
    /// Make a one-sample, one-call set from recorded I/O (input.<i> and output.<i> tensors).
    ImportIo {
        /// Safetensors file with input.0, input.1, ... and output.0, ...
        io: PathBuf,
        /// Method name.
        method: String,
        /// Set name.
        set: String,
        /// Output directory for index.json + data.safetensors.
        dir: PathBuf,
    },
    /// Write one set as index.json + data.safetensors into DIR.
    Export {
        /// The package.
        file: PathBuf,
        /// Method name.
        method: String,
        /// Set name.
        set: String,
        /// Output directory (created if missing).
        dir: PathBuf,
    },
}

/// A failure that ends the command: its message and exit code.
pub(crate) struct Failure {
    pub(crate) message: String,
    pub(crate) code: u8,
}

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure { message: e.to_string(), code: 2 }
    }
}

pub(crate) type CmdResult = Result<(), Failure>;

/// Turns an error about `path` into the one-line failure `PATH: error`.
pub(crate) fn at<E: std::fmt::Display>(path: &std::path::Path) -> impl Fn(E) -> Failure + '_ {
    move |e| Failure { message: format!("{}: {e}", path.display()), code: 2 }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            if !f.message.is_empty() {
                eprintln!("pte: {}", f.message);
            }
            ExitCode::from(f.code)
        }
    }
}

pub(crate) fn open(path: &std::path::Path) -> Result<MappedFile, Failure> {
    MappedFile::open(path).map_err(|e| Failure { message: e.to_string(), code: 2 })
}

pub(crate) fn read_pte<'a>(path: &std::path::Path, bytes: &'a [u8]) -> Result<PteFile<'a>, Failure> {
    detect::require_pte(path, bytes)?;
    PteFile::from_bytes(bytes).map_err(at(path))
}

fn run(cmd: Command) -> CmdResult {
    match cmd {
        Command::Info { file, json } => info::info(&file, json),
        Command::Dump { file } => {
            let map = open(&file)?;
            if detect::kind(map.bytes()) == detect::Kind::Ptd {
                let ptd = ptd::read_ptd(&file, map.bytes())?;
                let v = pte_schema::ptd::flat_tensor_to_json(&ptd.flat_tensor);
                println!("{}", serde_json::to_string_pretty(&v)?);
                return Ok(());
            }
            if detect::kind(map.bytes()) == detect::Kind::Ptn {
                return ptn::dump(&file, map.bytes());
            }
            if detect::kind(map.bytes()) == detect::Kind::Bpte {
                return bpte::dump(&file, map.bytes());
            }
            detect::require_pte(&file, map.bytes())?;
            // the stored program only: segment problems must not hide it
            let fail = at::<pte_file::Error>(&file);
            let (_, region) = pte_file::verify::program_region(map.bytes()).map_err(&fail)?;
            let program = pte_schema::decode_program(region, &Default::default()).map_err(&fail)?;
            let v = pte_schema::program_to_json(&program, pte_schema::JsonBytes::Integers);
            println!("{}", serde_json::to_string_pretty(&v)?);
            Ok(())
        }
        Command::Verify { file, ptd, json, deny_warnings } => verify(&file, &ptd, json, deny_warnings),
        Command::Rewrite {
            input,
            output,
            segment_alignment,
            constant_alignment,
            delegate_alignment,
            delegates,
            constants,
        } => {
            let map = open(&input)?;
            if detect::kind(map.bytes()) == detect::Kind::Ptn {
                if segment_alignment.is_some()
                    || constant_alignment.is_some()
                    || delegate_alignment.is_some()
                    || constants != Constants::Keep
                {
                    return Err(Failure { message: "alignment options apply to .pte programs only".into(), code: 2 });
                }
                return ptn::rewrite(&input, map.bytes(), &output);
            }
            let pte = read_pte(&input, map.bytes())?;
            // without options, keep the alignments the input shows
            let mut o = WriteOptions::matching(&pte, map.bytes());
            if constants == Constants::Segment {
                o = o.with_constants(pte_file::ConstantPlacement::Segment);
            }
            if let Some(a) = segment_alignment {
                o = o.with_segment_alignment(a)?;
            }
            if let Some(a) = constant_alignment {
                o = o.with_constant_repack(a)?;
            }
            if let Some(a) = delegate_alignment {
                o = o.with_delegate_alignment(a)?;
            }
            o = o.with_delegates(match delegates {
                Delegates::Keep => DelegatePlacement::Keep,
                Delegates::Inline => DelegatePlacement::Inline,
                Delegates::Segment => DelegatePlacement::Segment,
            });
            let source = std::fs::File::open(&input).map_err(at(&input))?;
            let n = pte.save_copying_from(&output, &o, &source, map.bytes()).map_err(at(&output))?;
            println!("wrote {} ({n} bytes)", output.display());
            Ok(())
        }
        Command::Extract { file, dir, force, max_files } => {
            extract::extract(&file, extract::Target { dir: &dir, force, max_files })
        }
        Command::Samples(cmd) => match cmd {
            SamplesCommand::List { file, json } => samples::list(&file, json),
            SamplesCommand::Show { file, method, set, json } => samples::show(&file, &method, &set, json),
            SamplesCommand::Check { file, actual, json } => samples::check(&file, &actual, json),
            SamplesCommand::Add { file, dir, replace } => samples::add(&file, &dir, replace),
            SamplesCommand::Remove { file, method, set } => samples::remove(&file, &method, &set),
            SamplesCommand::Export { file, method, set, dir } => samples::export(&file, &method, &set, &dir),
            SamplesCommand::ImportIo { io, method, set, dir } => samples::import_io(&io, &method, &set, &dir),
        },
        Command::Mutate { rule, list, input, output } => {
            mutate(rule.as_deref(), list, input.as_deref(), output.as_deref())
        }
        Command::Gen { seed, count, output } => gen(seed, count, &output),
        Command::Bpte(cmd) => match cmd {
            BpteCommand::Unbundle { file, output } => bpte::unbundle(&file, &output),
            BpteCommand::ExportSamples { file, dir, atol, rtol } => bpte::export_samples(&file, &dir, atol, rtol),
            BpteCommand::Bundle { program, samples, output } => bpte::bundle(&program, &samples, &output),
        },
        Command::Externalize { input, output, data, keys, name_constants } => {
            ptd::externalize(&input, &output, &data, keys.as_deref(), name_constants.as_deref())
        }
        Command::Internalize { files } => ptd::internalize(&files),
    }
}

fn mutate(
    rule: Option<&str>,
    list: bool,
    input: Option<&std::path::Path>,
    output: Option<&std::path::Path>,
) -> CmdResult {
    if list {
        for c in pte_gen::classes() {
            let expect = match c.expect {
                pte_gen::Expect::Kind(k) => format!("reader error {k:?}"),
                pte_gen::Expect::Rule(r) => format!("rule {r}"),
            };
            println!(
                "{:<36} {:<5} {:<28} {} ({expect})",
                c.name,
                format!("{:?}", c.input).to_lowercase(),
                c.rule,
                c.what
            );
        }
        return Ok(());
    }
    let (Some(rule), Some(input), Some(output)) = (rule, input, output) else {
        return Err(Failure { message: "mutate needs --rule NAME IN OUT (or --list)".into(), code: 2 });
    };
    let map = open(input)?;
    // A class name picks that class; a verifier rule name picks the first
    // class breaking that rule that applies to this input.
    let candidates: Vec<&pte_gen::Corruption> = match pte_gen::find(rule) {
        Some(c) => vec![c],
        None => pte_gen::breaking(rule).collect(),
    };
    if candidates.is_empty() {
        return Err(Failure {
            message: format!("no corruption class or verifier rule {rule:?} (pte mutate --list shows them)"),
            code: 2,
        });
    }
    let mut reasons = vec![];
    let mut chosen = None;
    for c in candidates {
        match c.apply(map.bytes()) {
            Ok(out) => {
                chosen = Some((c, out));
                break;
            }
            Err(e) => reasons.push(e.to_string()),
        }
    }
    let Some((class, out)) = chosen else {
        return Err(Failure { message: format!("{}: {}", input.display(), reasons.join("; ")), code: 2 });
    };
    pte_file::write_atomically(output, |w| {
        w.write_all(&out)?;
        Ok(())
    })
    .map_err(at(output))?;
    println!(
        "wrote {} ({} bytes, class {}, breaks {}): {}",
        output.display(),
        out.len(),
        class.name,
        class.rule,
        class.what
    );
    Ok(())
}

fn gen(seed: u64, count: u64, output: &std::path::Path) -> CmdResult {
    if count > 1 {
        std::fs::create_dir_all(output)
            .map_err(|e| Failure { message: format!("{}: {e}", output.display()), code: 1 })?;
    }
    for s in (0..count).map(|i| seed.wrapping_add(i)) {
        let path = if count > 1 { output.join(format!("gen-{s}.pte")) } else { output.to_path_buf() };
        let g = pte_gen::generate(s).map_err(at(&path))?;
        let n = g.file.save(&path, &g.options).map_err(at(&path))?;
        if count == 1 {
            println!("wrote {} ({n} bytes, seed {s})", path.display());
        }
    }
    if count > 1 {
        println!("wrote {count} programs (seeds {seed}..{}) to {}", seed.wrapping_add(count), output.display());
    }
    Ok(())
}

fn verify(file: &std::path::Path, ptds: &[PathBuf], json: bool, deny_warnings: bool) -> CmdResult {
    let map = open(file)?;
    let mut report = if detect::kind(map.bytes()) == detect::Kind::Ptd {
        pte_file::verify::verify_ptd_bytes(map.bytes(), &Default::default())
    } else if detect::kind(map.bytes()) == detect::Kind::Bpte {
        if !ptds.is_empty() {
            return Err(Failure { message: "--ptd applies to .pte programs only".into(), code: 2 });
        }
        pte_file::verify::verify_bpte_bytes(map.bytes(), &Default::default())
    } else if detect::kind(map.bytes()) == detect::Kind::Ptn {
        if !ptds.is_empty() {
            return Err(Failure { message: "--ptd applies to .pte programs only".into(), code: 2 });
        }
        let mut report = pte_ptn::verify::verify_ptn_bytes(map.bytes(), &Default::default());
        if let Ok(ptn) = pte_ptn::PtnFile::from_bytes(map.bytes()) {
            report.violations.extend(pte_samples::check_sidecar(&ptn).into_iter().map(|e| {
                pte_file::verify::Violation {
                    rule: e.rule().verifier_rule(),
                    path: e.path().to_string(),
                    offset: e.offset(),
                    message: e.message().to_string(),
                }
            }));
        }
        report
    } else {
        // anything not recognised as another kind is judged as a program, so
        // a damaged identifier is reported as a violation, not refused
        if !matches!(detect::kind(map.bytes()), detect::Kind::Unknown) {
            detect::require_pte(file, map.bytes())?;
        }
        pte_file::verify::verify_bytes(map.bytes(), &Default::default())
    };
    if !ptds.is_empty() {
        let pte = read_pte(file, map.bytes())?;
        let maps = ptds.iter().map(|p| open(p)).collect::<Result<Vec<_>, _>>()?;
        let mut files = vec![];
        for (p, m) in ptds.iter().zip(&maps) {
            let r = pte_file::verify::verify_ptd_bytes(m.bytes(), &Default::default());
            report.violations.extend(r.violations.into_iter().map(|mut v| {
                v.path = format!("{}:{}", p.display(), v.path);
                v
            }));
            files.push((p.display().to_string(), ptd::read_ptd(p, m.bytes())?));
        }
        let named: Vec<(&str, &pte_file::ptd::PtdFile<'_>)> = files.iter().map(|(n, f)| (n.as_str(), f)).collect();
        report.violations.extend(pte_file::verify::verify_link(&pte.program, &named).violations);
    }
    let entry = |v: &pte_file::verify::Violation| serde_json::json!({"rule": v.rule, "path": v.path, "offset": v.offset, "message": v.message});
    let failed = !report.is_ok() || (deny_warnings && !report.warnings.is_empty());
    if json {
        let v: Vec<_> = report.violations.iter().map(entry).collect();
        let w: Vec<_> = report.warnings.iter().map(entry).collect();
        println!(
            "{}",
            serde_json::to_string_pretty(
                &serde_json::json!({"valid": report.is_ok(), "violations": v, "warnings": w})
            )?
        );
    } else {
        for v in &report.violations {
            println!("{}: {v}", file.display());
        }
        for w in &report.warnings {
            println!("{}: warning: {w}", file.display());
        }
        if report.is_ok() {
            println!("{}: valid", file.display());
        }
    }
    if !failed {
        return Ok(());
    }
    Err(Failure {
        message: if json {
            String::new()
        } else {
            format!(
                "{}: {} violation(s), {} warning(s)",
                file.display(),
                report.violations.len(),
                report.warnings.len()
            )
        },
        code: 1,
    })
}
