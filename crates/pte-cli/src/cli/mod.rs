//! The command line as clap sees it: every command, its arguments and help.

mod diff;
mod pack;
mod shrink;

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

pub(crate) use diff::DiffArgs;
pub(crate) use pack::PackArgs;
pub(crate) use shrink::ShrinkArgs;

#[derive(Parser)]
#[command(
    name = "pte",
    version,
    about = "Read, write, verify and transform ExecuTorch files",
    after_help = "Exit status: 0 success; 1 the file was read and found wanting (verify violations, a difference, a failed samples check); 2 bad input, usage or I/O."
)]
pub(crate) struct Cli {
    /// Fail at once, instead of waiting, when another process is editing the same file.
    // Accepted before or after any command, as always, but hidden: the
    // commands that take the edit lock declare it themselves ([`EditLock`]),
    // so only their help shows it.
    #[arg(long, global = true, hide = true)]
    pub(crate) no_wait: bool,
    #[command(subcommand)]
    pub(crate) command: Command,
}

impl Cli {
    /// Whether an in-place edit fails at once when the file is being edited,
    /// `--no-wait` given before the command or after it.
    pub(crate) fn no_wait(&self) -> bool {
        let own = match &self.command {
            Command::Rewrite { lock, .. } | Command::Internalize { lock, .. } => Some(lock),
            Command::Samples(SamplesCommand::Add { lock, .. } | SamplesCommand::Remove { lock, .. }) => Some(lock),
            _ => None,
        };
        self.no_wait || own.is_some_and(|l| l.no_wait)
    }
}

/// The option of the commands that lock the file they edit in place.
#[derive(clap::Args)]
pub(crate) struct EditLock {
    /// Fail at once, instead of waiting, when another process is editing the same file.
    #[arg(long)]
    pub(crate) no_wait: bool,
}

/// How `pte size` groups the parts.
#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum SizeBy {
    /// One row per kind (constant, padding, header, ...).
    Kind,
    /// One row per tensor or blob; everything else by kind.
    Tensor,
    /// One row per operator (or delegate) consuming the bytes; the rest by kind.
    Operator,
    /// One row per delegate: its blob, its constants and the named data it reads; the rest by kind.
    Delegate,
}

/// Syntax of `pte graph`.
#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum GraphFormat {
    /// Graphviz DOT.
    Dot,
    /// Mermaid flowchart.
    Mermaid,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Summarize a file: methods, operators, delegates, segments, constants, named data.
    ///
    /// Given several files or a folder (walked recursively, files chosen by
    /// content), reads them on parallel workers: each summary under a
    /// `==> FILE <==` header (one JSON object per line with --json, holding
    /// "file"), then a summary; exit 2 when any file could not be read.
    Info {
        /// The files or folders (.pte, .ptd, .ptn or .bpte).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print stable JSON (documented in docs/cli.md) instead of text.
        #[arg(long)]
        json: bool,
        /// List every tensor: name, storage, dtype, shape, dim order, bytes and byte range.
        #[arg(long)]
        tensors: bool,
    },
    /// The operators (with overloads) and delegates each method calls, and their union over the files.
    ///
    /// A .bpte is read through its embedded program, a .ptn through its native
    /// graph; folders are walked as `info` walks them. --yaml prints the union as
    /// the selected-operators file of ExecuTorch's selective build (what
    /// gen_oplist.py writes); exit 2 when any file could not be read.
    Ops {
        /// The files or folders (.pte, .bpte or .ptn).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print one JSON object (documented in docs/cli.md) instead of text.
        #[arg(long, conflicts_with = "yaml")]
        json: bool,
        /// Print the selected-operators YAML of the union (.pte and .bpte files).
        #[arg(long)]
        yaml: bool,
        /// List the operators each program calls that the stock runtime of this
        /// ExecuTorch release does not register (exit 1 when there are any).
        #[arg(long, value_name = "VERSION", conflicts_with = "yaml")]
        runtime: Option<String>,
    },
    /// Where the bytes go: every byte of the file attributed once (headers, program,
    /// padding, segments, constants, named data, delegate blobs and their constants).
    Size {
        /// The file (.pte, .ptd, .ptn or .bpte).
        file: PathBuf,
        /// Print stable JSON (documented in docs/cli.md) instead of a table.
        #[arg(long)]
        json: bool,
        /// Only the N largest parts, then one `other` row holding the rest.
        #[arg(long, value_name = "N")]
        top: Option<usize>,
        /// Group the parts (bytes outside every group are grouped by kind).
        #[arg(long, value_enum)]
        by: Option<SizeBy>,
    },
    /// Print the stored program as flatc-compatible JSON.
    Dump {
        /// The file.
        file: PathBuf,
        /// Print the program as exir's deserialize_pte_binary returns it (segments folded back).
        #[arg(long)]
        exir: bool,
        /// Print delegate N's payload instead (counted across methods, as `info` lists them).
        #[arg(long)]
        delegate: Option<usize>,
    },
    /// Check every load rule; exit 0 when valid, 1 with every violation otherwise.
    ///
    /// Given several files or a folder (walked recursively, files chosen by
    /// content), checks them on parallel workers: one line per file (a JSON
    /// object per line with --json), then a summary; the exit status is the worst.
    Verify {
        /// The files or folders (.pte, .ptd, .ptn or .bpte).
        #[arg(required = true)]
        files: Vec<PathBuf>,
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
        #[command(flatten)]
        layout: crate::layout_args::LayoutArgs,
        #[command(flatten)]
        lock: EditLock,
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
        #[command(flatten)]
        lock: EditLock,
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
    /// What a runtime error code (0x23, 35, InvalidProgram) means and which verifier
    /// rules detect a file the runtime would refuse with it; or what a rule checks.
    Explain {
        /// A code (hex or decimal), an error name, or a verifier rule name.
        what: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Generate valid programs that reach the format's corners (pte_gen::generate): the same seed gives the same bytes.
    Gen {
        /// The first seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// How many programs; above 1, OUT is a directory that receives gen-SEED.pte files.
        #[arg(long, default_value_t = 1)]
        count: u64,
        /// Output file, or directory with --count (created if missing; must be empty unless --force).
        output: PathBuf,
        /// With --count: write into a directory that is not empty (links and special files already there are replaced, never written through).
        #[arg(long)]
        force: bool,
    },
    /// Draw a method's dataflow: instructions and delegate calls as nodes, tensor values as edges labelled with dtype and shape.
    Graph {
        /// The program.
        file: PathBuf,
        /// The method (default: the first).
        #[arg(long)]
        method: Option<String>,
        /// Output syntax.
        #[arg(long, value_enum, default_value = "dot")]
        format: GraphFormat,
        /// Draw an SVG file instead, laid out as `pte report` does (no Graphviz needed).
        #[arg(long)]
        svg: bool,
        /// Write here (atomically) instead of standard output.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Write one self-contained HTML page of the files: summary, findings, graphs, sizes, memory, tensors (docs/report.md).
    ///
    /// The page loads nothing from elsewhere and opens from disk in any
    /// browser. Exit 0 when every file was read whole and is valid, 1 when
    /// the page was written but a file has violations or parts that could
    /// not be read (the page says which), 2 when an input cannot be opened.
    Report {
        /// The files (.pte, .ptd, .ptn or .bpte); several get a comparison.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write the page here (atomically); `-` writes it to standard output.
        #[arg(short, long, default_value = "report.html")]
        output: PathBuf,
        /// Tensor data that the programs' EXTERNAL tensors resolve against (repeatable).
        #[arg(long = "ptd")]
        ptd: Vec<PathBuf>,
        /// The JSON of `pte samples check --json` (one runner or a matrix of them), shown as a samples section (repeatable).
        #[arg(long = "samples-check", value_name = "CHECK.json")]
        samples_check: Vec<PathBuf>,
    },
    /// Show a program's memory plan: planned buffers, each planned tensor's place and lifetime, peaks, overlaps.
    ///
    /// Exit 1 when part of the plan cannot be attributed (it is listed).
    Memory {
        /// The program (.pte), or a bundle (.bpte) for the program it holds.
        file: PathBuf,
        /// Only this method.
        #[arg(long)]
        method: Option<String>,
        /// Print stable JSON (documented in docs/cli.md) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print a completion script for SHELL (bash, zsh, fish, elvish, powershell).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) of `pte`, or of one of its commands.
    Man {
        /// The command whose page to print (`pte man info`, `pte man bpte unbundle`); none: `pte`'s own.
        #[arg(value_name = "COMMAND")]
        command: Vec<String>,
    },
    /// Bundled programs: extract the program, export the test cases as samples, bundle a program with samples.
    #[command(subcommand)]
    Bpte(BpteCommand),
    /// List, show, check, add, remove and export the recorded calls of a .ptn package (docs/samples.md).
    #[command(subcommand)]
    Samples(SamplesCommand),
    /// The conformance suite (docs/conformance.md): list it, export it, or run another parser over it.
    #[command(subcommand)]
    Conformance(ConformanceCommand),
    /// Compare two files of one kind: layout, program, tensor data element-wise (exit 1 when they differ).
    Diff(DiffArgs),
    /// Write a .pte or .ptd from an extract folder, or from a JSON program plus segment files.
    Pack(PackArgs),
    /// Write every segment, constant, mutable buffer, named blob and delegate blob as files, plus manifest.json.
    Extract {
        /// The file.
        file: PathBuf,
        /// Output directory (created if missing; must be empty unless --force).
        dir: PathBuf,
        /// Write into a directory that is not empty (files the new manifest does not name stay; links and special files are replaced, never written through).
        #[arg(long)]
        force: bool,
        /// Refuse to write more files than this.
        #[arg(long, default_value_t = pte::DEFAULT_MAX_FILES)]
        max_files: usize,
    },
    /// Shrink a file while a command still finds it interesting (exits 0): structure first
    /// (methods, instructions, values, segments, payloads), then bytes. `{}` in the command
    /// is the candidate's path.
    #[command(override_usage = "pte shrink INPUT -o OUTPUT [OPTIONS] -- CMD [ARG]...")]
    Shrink(ShrinkArgs),
}

#[derive(Subcommand)]
pub(crate) enum BpteCommand {
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
        /// Output directory (created if missing; must be empty unless --force).
        dir: PathBuf,
        /// Write into a directory that is not empty (links and special files already there are replaced, never written through).
        #[arg(long)]
        force: bool,
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

/// `pte samples check`.
#[derive(clap::Args)]
pub(crate) struct CheckArgs {
    /// The samples: a .ptn (its sidecar), a .bpte (each test case a one-call sample),
    /// or a folder of sets (<method>/<set>/index.json + data.safetensors, or one set).
    pub(crate) file: PathBuf,
    /// Safetensors file of actual outputs stored under the recorded keys
    /// (`<method>/<set>/<key>` or `<key>`), instead of a runner.
    #[arg(long, conflicts_with = "runner")]
    pub(crate) actual: Option<PathBuf>,
    /// Only the sets of this method.
    #[arg(long)]
    pub(crate) method: Option<String>,
    /// Only the sets of this name.
    #[arg(long)]
    pub(crate) set: Option<String>,
    /// Seconds to wait for each of the runner's replies.
    #[arg(long, default_value_t = 120.0, value_name = "SECONDS")]
    pub(crate) timeout: f64,
    /// Print the report as JSON.
    #[arg(long)]
    pub(crate) json: bool,
    /// The runner's command line, after `--`.
    #[arg(last = true, value_name = "CMD")]
    pub(crate) runner: Vec<std::ffi::OsString>,
    /// A named runner, NAME=COMMAND (COMMAND split at spaces; quotes group, a backslash escapes);
    /// repeat it to check every set through every runner in one table.
    #[arg(long = "runner", value_name = "NAME=COMMAND", conflicts_with_all = ["actual", "runner"])]
    pub(crate) named_runners: Vec<String>,
}

#[derive(Subcommand)]
pub(crate) enum SamplesCommand {
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
    /// Replay the recorded calls through a runner (`-- CMD [ARG]...`, speaking the
    /// pte-runner protocol of docs/samples.md) or several (`--runner NAME=COMMAND`,
    /// repeated: one table runner x set), or compare them with actual outputs
    /// another runtime stored (`--actual`). Exit 0 all match, 1 a mismatch, 2 a
    /// runner failed or bad input.
    #[command(
        override_usage = "pte samples check SOURCE [OPTIONS] -- CMD [ARG]...\n       pte samples check SOURCE [OPTIONS] --runner NAME=COMMAND [--runner NAME=COMMAND]...\n       pte samples check SOURCE [OPTIONS] --actual ACTUAL.safetensors"
    )]
    Check(CheckArgs),
    /// Add the set in DIR (index.json + data.safetensors) to the package, atomically.
    Add {
        /// The package (changed in place).
        file: PathBuf,
        /// Directory holding index.json and data.safetensors.
        dir: PathBuf,
        /// Overwrite a set of the same method and name.
        #[arg(long)]
        replace: bool,
        #[command(flatten)]
        lock: EditLock,
    },
    /// Remove one set from the package, atomically.
    Remove {
        /// The package (changed in place).
        file: PathBuf,
        /// Method name.
        method: String,
        /// Set name.
        set: String,
        #[command(flatten)]
        lock: EditLock,
    },
    /// Make a one-sample, one-call set from recorded I/O (input.<i> and output.<i> tensors).
    ImportIo {
        /// Safetensors file with input.0, input.1, ... and output.0, ...
        io: PathBuf,
        /// Method name.
        method: String,
        /// Set name.
        set: String,
        /// Output directory for index.json + data.safetensors (created if missing; must be empty unless --force).
        dir: PathBuf,
        /// Write into a directory that is not empty (links and special files already there are replaced, never written through).
        #[arg(long)]
        force: bool,
    },
    /// Write one set as index.json + data.safetensors into DIR.
    Export {
        /// The package.
        file: PathBuf,
        /// Method name.
        method: String,
        /// Set name.
        set: String,
        /// Output directory (created if missing; must be empty unless --force).
        dir: PathBuf,
        /// Write into a directory that is not empty (links and special files already there are replaced, never written through).
        #[arg(long)]
        force: bool,
    },
}

/// `pte conformance ...`.
#[derive(Subcommand)]
pub(crate) enum ConformanceCommand {
    /// List every case: name, kind, what a parser must do (accept or refuse), the rule, the stock runtime's answer.
    List {
        /// Print the manifest (JSON) instead.
        #[arg(long)]
        json: bool,
    },
    /// Write every case's file and manifest.json (verdicts, rules, runtime answers) into DIR.
    Export {
        /// Output directory (created if missing; must be empty unless --force).
        dir: PathBuf,
        /// Write into a directory that is not empty (links and special files already there are replaced, never written through).
        #[arg(long)]
        force: bool,
    },
    /// Run a parser over every case and list where it disagrees with the suite.
    ///
    /// `{}` in the command is replaced by the case's path (appended when
    /// absent). Exit status 0 of the command accepts the file, any other
    /// refuses it, a signal is a crash, still running after --timeout a
    /// hang (its process group is stopped). Exit 0 only when every case
    /// agrees, 1 when one does not.
    Run {
        /// Print JSON (cases, invalid, disagreements with each disagreeing case).
        #[arg(long)]
        json: bool,
        /// Seconds one run of the parser may take before it counts as a hang.
        #[arg(long, default_value_t = 10.0)]
        timeout: f64,
        /// How many cases run at once.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Only the cases of this kind (pte, ptd, ptn, bpte; repeatable), for a parser of some kinds only.
        #[arg(long, value_parser = ["pte", "ptd", "ptn", "bpte"])]
        kind: Vec<String>,
        /// The parser's command line, after `--`.
        #[arg(last = true, required = true, value_name = "CMD")]
        command: Vec<std::ffi::OsString>,
    },
}
