//! The conformance suite: files another implementation runs its parser over
//! to learn whether it accepts and refuses what the format says.
//!
//! Generated, never stored: valid files of every kind and feature (the
//! reference corpus built into this crate and a few [`crate::generate`]d
//! programs), then one invalid file per corruption class ([`crate::classes`]:
//! the catalogue and one class per verifier rule), each made from the first
//! valid file of its kind the class applies to. Every case carries the
//! verdict `pte verify` gives it ([`crate::judge`] decides, so the suite can
//! never disagree with the verifier it documents), the rule it is about and,
//! for a `.pte` whose rule the stock runtime enforces, what the runtime
//! answers ([`pte_core::Rule::refusal`]).
//!
//! Deterministic: the same [`SUITE_VERSION`] gives the same cases with the
//! same bytes, so a result table names files others can reproduce.
//!
//! ```
//! let suite = pte_gen::suite::suite();
//! assert_eq!(suite.version, pte_gen::suite::SUITE_VERSION);
//! let case = suite.cases.iter().find(|c| c.class == Some("pte.bad-identifier")).unwrap();
//! assert_eq!(case.expect, pte_gen::suite::Verdict::Refuse);
//! assert_eq!(case.runtime.map(|r| r.to_string()).as_deref(), Some("refuses: InvalidProgram (0x23) at Program::load"));
//! ```

use std::fmt;

use pte_core::{FileKind, Refusal, Rule};
use serde_json::{json, Value as Json};

use crate::{classes, judge, Corruption};

/// The suite's version: raised whenever a case is added, removed, renamed
/// or changes bytes or verdict.
pub const SUITE_VERSION: u32 = 1;

/// Seeds of the generated programs among the valid cases.
const GENERATED_SEEDS: std::ops::Range<u64> = 0..8;

/// What a conforming parser does with a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The file is valid: it must be accepted.
    Accept,
    /// The file breaks a rule: it must be refused.
    Refuse,
}

impl Verdict {
    /// `accept` or `refuse`, as the manifest spells it.
    ///
    /// ```
    /// assert_eq!(pte_gen::suite::Verdict::Refuse.name(), "refuse");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Accept => "accept",
            Verdict::Refuse => "refuse",
        }
    }
}

/// What the stock ExecuTorch runtime answers a `.pte` case
/// (`Program::load`, then `load_method` of every method).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuntimeAnswer {
    /// It loads the program and every method.
    Loads,
    /// It refuses with this error at this stage.
    Refuses(Refusal),
}

impl fmt::Display for RuntimeAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuntimeAnswer::Loads => f.write_str("loads"),
            RuntimeAnswer::Refuses(r) => write!(f, "refuses: {r}"),
        }
    }
}

/// One file of the suite.
#[derive(Clone, Debug)]
pub struct Case {
    /// Stable name (`valid.pte.add`, `invalid.pte.bad-identifier`).
    pub name: String,
    /// The kind of file.
    pub kind: FileKind,
    /// What a conforming parser does with it.
    pub expect: Verdict,
    /// The rule the case is about (`None` for a valid file).
    pub rule: Option<Rule>,
    /// Every rule `pte verify` reports as a violation, in its order.
    pub violations: Vec<Rule>,
    /// The corruption class that made it (`None` for a valid file).
    pub class: Option<&'static str>,
    /// The valid case it was made from, or how it was made.
    pub source: String,
    /// What is special about it, in a line.
    pub what: String,
    /// The stock runtime's answer, where known (`.pte` only).
    pub runtime: Option<RuntimeAnswer>,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

impl Case {
    /// The file name the case is exported under: its name and its kind's
    /// extension.
    ///
    /// ```
    /// let suite = pte_gen::suite::suite();
    /// assert_eq!(suite.cases[0].file_name(), format!("{}.pte", suite.cases[0].name));
    /// ```
    pub fn file_name(&self) -> String {
        format!("{}.{}", self.name, self.kind.extension().unwrap_or("bin"))
    }

    /// The case's manifest entry (everything but the bytes).
    ///
    /// ```
    /// let suite = pte_gen::suite::suite();
    /// assert_eq!(suite.cases[0].to_json()["expect"], "accept");
    /// ```
    pub fn to_json(&self) -> Json {
        let runtime = self.runtime.map(|r| match r {
            RuntimeAnswer::Loads => json!({"answer": "loads"}),
            RuntimeAnswer::Refuses(f) => json!({
                "answer": "refuses",
                "code": f.error.code,
                "hex": format!("0x{:02x}", f.error.code),
                "name": f.error.name,
                "stage": f.stage.name(),
            }),
        });
        json!({
            "name": self.name,
            "file": self.file_name(),
            "kind": self.kind.extension(),
            "expect": self.expect.name(),
            "rule": self.rule.map(|r| r.name()),
            "violations": self.violations.iter().map(|r| r.name()).collect::<Vec<_>>(),
            "class": self.class,
            "source": self.source,
            "what": self.what,
            "runtime": runtime,
            "size": self.bytes.len(),
            "crc32": format!("{:08x}", crc32fast::hash(&self.bytes)),
        })
    }
}

/// The whole suite, and the classes it could not make a case of.
#[derive(Clone, Debug)]
pub struct Suite {
    /// [`SUITE_VERSION`].
    pub version: u32,
    /// Valid cases first, then one invalid case per class, in class order.
    pub cases: Vec<Case>,
    /// Classes left out, with why.
    pub left_out: Vec<(&'static str, String)>,
}

impl Suite {
    /// The manifest `pte conformance export` writes beside the files.
    ///
    /// ```
    /// let m = pte_gen::suite::suite().manifest();
    /// assert_eq!(m["version"], pte_gen::suite::SUITE_VERSION);
    /// assert!(m["cases"].as_array().unwrap().len() > 100);
    /// ```
    pub fn manifest(&self) -> Json {
        json!({
            "suite": "pte-rs conformance",
            "version": self.version,
            "convention": "run the parser on each file; exit status 0 accepts, non-zero refuses, a signal is a crash",
            "cases": self.cases.iter().map(Case::to_json).collect::<Vec<_>>(),
            "left_out": self.left_out.iter().map(|(c, why)| json!({"class": c, "why": why})).collect::<Vec<_>>(),
        })
    }

    /// How many cases must be refused.
    ///
    /// ```
    /// let s = pte_gen::suite::suite();
    /// assert!(s.invalid() > 0 && s.invalid() < s.cases.len());
    /// ```
    pub fn invalid(&self) -> usize {
        self.cases.iter().filter(|c| c.expect == Verdict::Refuse).count()
    }
}

/// One valid file the suite starts from.
struct Base {
    name: &'static str,
    kind: FileKind,
    what: &'static str,
    runtime: Option<RuntimeAnswer>,
    bytes: &'static [u8],
}

/// A base from the corpus: at `$path`, or where a case named `$name` keeps
/// its file (`$name/model.pte`, `.ptn`, `.bpte` by its kind).
macro_rules! base {
    ($name:literal, $kind:ident, $runtime:expr, $what:literal) => {
        base!($name, $kind, concat!($name, "/model.", ext!($kind)), $runtime, $what)
    };
    ($name:literal, $kind:ident, $path:expr, $runtime:expr, $what:literal) => {
        Base {
            name: $name,
            kind: FileKind::$kind,
            what: $what,
            runtime: $runtime,
            bytes: include_bytes!(concat!("../corpus/", $path)),
        }
    };
}

/// A corpus file's extension for its kind.
macro_rules! ext {
    (Pte) => {
        "pte"
    };
    (Ptn) => {
        "ptn"
    };
    (Bpte) => {
        "bpte"
    };
}

const LOADS: Option<RuntimeAnswer> = Some(RuntimeAnswer::Loads);

/// The reference corpus files built in (every one but the 11 MB
/// `deep_program`), in the order classes try them.
static BASES: &[Base] = &[
    base!("add", Pte, LOADS, "no constants; a zero-size segment without an extended header"),
    base!("linear", Pte, LOADS, "a constant segment with one padded tensor"),
    base!("multi_method", Pte, LOADS, "two methods sharing one constant segment"),
    base!("xnnpack_mlp", Pte, LOADS, "an XNNPACK delegate in a segment, weights as named data"),
    base!("inline_delegate", Pte, LOADS, "a delegate payload stored inline"),
    base!("mutable_buffer", Pte, LOADS, "a mutable data segment with a buffer's initial state"),
    base!("mutable_plain", Pte, LOADS, "a mutated buffer with no initial state"),
    base!("dtypes", Pte, LOADS, "constants of float16, bfloat16, int8, int64, bool, float64"),
    base!("dynamic", Pte, LOADS, "a dynamic batch dimension"),
    base!("stacktrace", Pte, LOADS, "a stack trace per instruction"),
    base!("bundled_program", Pte, "bundled/model.pte", LOADS, "the program of the bundled case"),
    // loads only with its .ptd beside it, which a one-file run cannot give
    base!("external", Pte, None, "constants in an external .ptd (EXTERNAL tensors)"),
    // the stock 1.5.1 runtime compiles the deprecated constant_buffer path out
    base!("legacy_inline_constants", Pte, None, "constants inline in constant_buffer"),
    base!("external", Ptd, "external/_default_external_constant.ptd", None, "the external constants of `external`"),
    base!("bundled", Bpte, None, "a bundled program with three test cases"),
    base!("native_ptn", Ptn, None, "a native package from to_native"),
    base!("decoder_samples", Ptn, None, "a package with a samples sidecar"),
];

/// Why a class makes no case: its rule shows only when a program and its
/// data file are verified together, which a one-file run cannot do.
const LINK_ONLY: &str = "its rule is a link.* rule: it shows only when a program and its .ptd are verified together";

/// Builds the suite (deterministic: the same bytes on every call).
///
/// ```
/// let a = pte_gen::suite::suite();
/// let b = pte_gen::suite::suite();
/// assert_eq!(a.cases.len(), b.cases.len());
/// assert!(a.cases.iter().zip(&b.cases).all(|(x, y)| x.name == y.name && x.bytes == y.bytes));
/// ```
pub fn suite() -> Suite {
    let mut cases = Vec::new();
    for b in BASES {
        cases.push(case(
            format!("valid.{}.{}", ext(b.kind), b.name),
            b.kind,
            b.bytes.to_vec(),
            None,
            "corpus",
            b.what,
            b.runtime,
        ));
    }
    for seed in GENERATED_SEEDS {
        // generation is infallible for these seeds (its own tests say so);
        // a seed that failed would only make the suite one case shorter
        if let Ok(bytes) = crate::generate(seed).and_then(|g| g.to_bytes()) {
            let what = "a generated program reaching the format's corners";
            cases.push(case(
                format!("valid.pte.gen-{seed}"),
                FileKind::Pte,
                bytes,
                None,
                &format!("pte gen --seed {seed}"),
                what,
                LOADS,
            ));
        }
    }
    let mut left_out = Vec::new();
    for class in classes() {
        if class.rule.name().starts_with("link.") {
            left_out.push((class.name, LINK_ONLY.to_string()));
            continue;
        }
        let made = BASES.iter().filter(|b| b.kind == class.input).find_map(|b| Some((b, class.apply(b.bytes).ok()?)));
        let Some((base, bytes)) = made else {
            left_out.push((class.name, "it applies to no built-in corpus file".to_string()));
            continue;
        };
        let runtime = class.input.is_pte().then(|| class.rule.refusal().map(RuntimeAnswer::Refuses)).flatten();
        let name = format!("invalid.{}", class.name);
        let source = format!("valid.{}.{}", ext(base.kind), base.name);
        cases.push(case(name, class.input, bytes, Some(class), &source, class.what, runtime));
    }
    Suite { version: SUITE_VERSION, cases, left_out }
}

fn ext(kind: FileKind) -> &'static str {
    kind.extension().unwrap_or("bin")
}

/// A case, its verdict decided by the workspace's own reader and verifier.
fn case(
    name: String,
    kind: FileKind,
    bytes: Vec<u8>,
    class: Option<&Corruption>,
    source: &str,
    what: &str,
    runtime: Option<RuntimeAnswer>,
) -> Case {
    let verdict = judge(kind, &bytes);
    let expect = if verdict.error.is_some() || !verdict.rules.is_empty() { Verdict::Refuse } else { Verdict::Accept };
    Case {
        name,
        kind,
        expect,
        rule: class.map(|c| c.rule),
        violations: verdict.rules,
        class: class.map(|c| c.name),
        source: source.to_string(),
        what: what.to_string(),
        runtime,
        bytes,
    }
}
