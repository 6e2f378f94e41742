//! Writing never damages a file: every command that writes keeps the mode of
//! an existing target and gives a new one the umask's default, follows
//! symlinks, refuses aliased paths before writing, keeps both of two
//! concurrent in-place edits, survives SIGKILL and a file-size limit with the
//! target old or new and no temporary file left behind.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::os::unix::fs::{symlink, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use pte_file::{PteParts, WriteOptions};
use pte_samples::{encode_set, Call, Sample, SampleLimits, SampleSet, Value, DATA_FILE, INDEX_FILE};
use pte_schema::*;

const PTE: &str = env!("CARGO_BIN_EXE_pte");

fn corpus(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(rel)
}

/// Runs `pte args` in `dir`.
fn pte_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(PTE).current_dir(dir).args(args).output().unwrap()
}

/// Runs `pte args` in `dir` from a shell that first runs `prefix` (`umask 022`, `ulimit -f 64`).
fn pte_sh(dir: &Path, prefix: &str, args: &[&str]) -> Output {
    Command::new("sh")
        .current_dir(dir)
        .arg("-c")
        .arg(format!("{prefix}; exec \"$0\" \"$@\""))
        .arg(PTE)
        .args(args)
        .output()
        .unwrap()
}

fn ok(o: &Output, what: &str) {
    assert!(
        o.status.success(),
        "{what}: {:?}\nstdout: {}\nstderr: {}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o7777
}

fn set_mode(p: &Path, m: u32) {
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
}

fn ino(p: &Path) -> u64 {
    std::fs::metadata(p).unwrap().ino()
}

/// A file's inode, kept open so that its number cannot be reused by the
/// file that replaces it (a new inode then proves the file was replaced).
struct Held {
    ino: u64,
    _file: std::fs::File,
}

impl Held {
    fn new(p: &Path) -> Held {
        let file = std::fs::File::open(p).unwrap();
        Held { ino: file.metadata().unwrap().ino(), _file: file }
    }
}

/// Temporary files of saves anywhere under `dir`.
fn temps(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    for e in walk(dir) {
        if e.file_name().unwrap().to_string_lossy().contains(pte_core::TEMP_MARKER) {
            out.push(e);
        }
    }
    out
}

/// Every path under `dir` (not following links), sorted.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if std::fs::symlink_metadata(&p).unwrap().is_dir() {
                stack.push(p.clone());
            }
            out.push(p);
        }
    }
    out.sort();
    out
}

/// Regular files named by `outputs`: a file, or every regular file below a directory.
fn output_files(dir: &Path, outputs: &[&str]) -> Vec<PathBuf> {
    let mut v = vec![];
    for o in outputs {
        let p = dir.join(o);
        if p.is_dir() {
            v.extend(walk(&p).into_iter().filter(|f| std::fs::symlink_metadata(f).unwrap().is_file()));
        } else {
            v.push(p);
        }
    }
    assert!(!v.is_empty(), "no outputs under {outputs:?}");
    v
}

// ---------------------------------------------------------------- fixtures

fn f32s(shape: Vec<u64>, v: &[f32]) -> pte_ptn::PtnTensor<'static> {
    pte_ptn::PtnTensor::new(pte_ptn::Dtype::F32, shape, v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>())
        .unwrap()
}

/// A `forward` set for the corpus package (input [2,16], output [2,8]) with `calls` calls.
fn set(name: &str, calls: usize) -> SampleSet<'static> {
    let x: Vec<f32> = (0..32).map(|i| i as f32).collect();
    let y: Vec<f32> = (0..16).map(|i| i as f32 * 0.5).collect();
    let mut s = SampleSet::new("forward", name);
    s.samples.push(Sample {
        name: None,
        tolerance: None,
        calls: (0..calls)
            .map(|_| Call {
                inputs: vec![Value::Tensor(f32s(vec![2, 16], &x))],
                outputs: vec![Value::Tensor(f32s(vec![2, 8], &y))],
                tolerance: None,
            })
            .collect(),
    });
    s
}

fn write_set_dir(dir: &Path, set: &SampleSet<'_>) {
    std::fs::create_dir_all(dir).unwrap();
    let enc = encode_set(set, &SampleLimits::default()).unwrap();
    std::fs::write(dir.join(INDEX_FILE), &enc.index).unwrap();
    std::fs::write(dir.join(DATA_FILE), &enc.data).unwrap();
}

/// Every input the write commands below take, in `dir`.
fn inputs(dir: &Path) {
    let copy = |from: &str, to: &str| {
        std::fs::copy(corpus(from), dir.join(to)).unwrap();
    };
    copy("add/model.pte", "in.pte");
    copy("xnnpack_mlp/model.pte", "x.pte");
    copy("external/model.pte", "e.pte");
    copy("external/_default_external_constant.ptd", "e.ptd");
    copy("bundled/model.bpte", "b.bpte");
    copy("bundled/model.pte", "p.pte");
    copy("native_ptn/model.ptn", "pkg.ptn");
    copy("add/io.safetensors", "io.safetensors");
    write_set_dir(&dir.join("set"), &set("smoke", 2));
    ok(&pte_in(dir, &["bpte", "export-samples", "b.bpte", "sdir"]), "export-samples");
    ok(&pte_in(dir, &["samples", "add", "pkg.ptn", "set"]), "samples add");
}

/// A command that writes, run in a directory prepared by [`inputs`]:
/// `setup` runs first each time; `outputs` are files or directories (`x/`).
struct Writer {
    name: &'static str,
    setup: &'static [&'static [&'static str]],
    args: &'static [&'static str],
    outputs: &'static [&'static str],
}

const WRITERS: &[Writer] = &[
    Writer { name: "rewrite", setup: &[], args: &["rewrite", "in.pte", "o.pte"], outputs: &["o.pte"] },
    Writer {
        name: "rewrite in place",
        setup: &[],
        args: &["rewrite", "in.pte", "in.pte", "--segment-alignment", "4096"],
        outputs: &["in.pte"],
    },
    Writer { name: "rewrite .ptn", setup: &[], args: &["rewrite", "pkg.ptn", "o.ptn"], outputs: &["o.ptn"] },
    Writer {
        name: "rewrite .ptn in place",
        setup: &[],
        args: &["rewrite", "pkg.ptn", "pkg.ptn"],
        outputs: &["pkg.ptn"],
    },
    Writer { name: "extract", setup: &[], args: &["extract", "x.pte", "xo"], outputs: &["xo/"] },
    Writer { name: "extract .ptn", setup: &[], args: &["extract", "pkg.ptn", "po"], outputs: &["po/"] },
    Writer {
        name: "externalize",
        setup: &[],
        args: &["externalize", "x.pte", "xe.pte", "xe.ptd"],
        outputs: &["xe.pte", "xe.ptd"],
    },
    Writer {
        name: "internalize",
        setup: &[],
        args: &["internalize", "e.pte", "e.ptd", "ei.pte"],
        outputs: &["ei.pte"],
    },
    Writer {
        name: "internalize in place",
        setup: &[&["rewrite", "e.pte", "ee.pte"]],
        args: &["internalize", "ee.pte", "e.ptd", "ee.pte"],
        outputs: &["ee.pte"],
    },
    Writer { name: "bpte unbundle", setup: &[], args: &["bpte", "unbundle", "b.bpte", "u.pte"], outputs: &["u.pte"] },
    Writer {
        name: "bpte export-samples",
        setup: &[],
        args: &["bpte", "export-samples", "b.bpte", "es"],
        outputs: &["es/"],
    },
    Writer {
        name: "bpte bundle",
        setup: &[],
        args: &["bpte", "bundle", "p.pte", "sdir", "o.bpte"],
        outputs: &["o.bpte"],
    },
    Writer {
        name: "samples add",
        setup: &[],
        args: &["samples", "add", "pkg.ptn", "set", "--replace"],
        outputs: &["pkg.ptn"],
    },
    Writer {
        name: "samples remove",
        setup: &[&["samples", "add", "pkg.ptn", "set", "--replace"]],
        args: &["samples", "remove", "pkg.ptn", "forward", "smoke"],
        outputs: &["pkg.ptn"],
    },
    Writer {
        name: "samples export",
        setup: &[],
        args: &["samples", "export", "pkg.ptn", "forward", "smoke", "se"],
        outputs: &["se/"],
    },
    Writer {
        name: "samples import-io",
        setup: &[],
        args: &["samples", "import-io", "io.safetensors", "forward", "io", "si"],
        outputs: &["si/"],
    },
    Writer {
        name: "mutate",
        setup: &[],
        args: &["mutate", "--rule", "pte.bad-identifier", "in.pte", "m.pte"],
        outputs: &["m.pte"],
    },
    Writer { name: "gen", setup: &[], args: &["gen", "--seed", "3", "g.pte"], outputs: &["g.pte"] },
    Writer { name: "gen --count", setup: &[], args: &["gen", "--seed", "3", "--count", "2", "gd"], outputs: &["gd/"] },
];

/// Options a newer `extract` may need to write into a folder it filled before.
fn rerun_args(w: &Writer) -> Vec<&'static str> {
    let mut args = w.args.to_vec();
    if args[0] == "extract" {
        let help = pte_in(Path::new("."), &["extract", "--help"]);
        if String::from_utf8_lossy(&help.stdout).contains("--force") {
            args.push("--force");
        }
    }
    args
}

fn run_setup(dir: &Path, w: &Writer) {
    for s in w.setup {
        ok(&pte_in(dir, s), &format!("{}: setup {s:?}", w.name));
    }
}

fn run_writer(dir: &Path, w: &Writer, prefix: Option<&str>) {
    run_setup(dir, w);
    run_command(dir, w, prefix);
}

fn run_command(dir: &Path, w: &Writer, prefix: Option<&str>) {
    let args = rerun_args(w);
    let o = match prefix {
        Some(p) => pte_sh(dir, p, &args),
        None => pte_in(dir, &args),
    };
    ok(&o, w.name);
}

/// The names of every subcommand that writes must appear in [`WRITERS`].
#[test]
fn the_writer_table_covers_every_writing_command() {
    let names: Vec<&str> = WRITERS.iter().map(|w| w.name).collect();
    for cmd in [
        "rewrite",
        "extract",
        "externalize",
        "internalize",
        "bpte unbundle",
        "bpte export-samples",
        "bpte bundle",
        "samples add",
        "samples remove",
        "samples export",
        "samples import-io",
        "mutate",
        "gen",
    ] {
        assert!(names.contains(&cmd), "{cmd} has no entry");
    }
}

#[test]
fn every_writer_keeps_the_mode_of_an_existing_target() {
    for w in WRITERS {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        inputs(d);
        run_writer(d, w, None);
        for m in [0o644, 0o664, 0o444] {
            let files = output_files(d, w.outputs);
            let before: Vec<Held> = files.iter().map(|f| Held::new(f)).collect();
            for f in &files {
                set_mode(f, m);
            }
            run_writer(d, w, None);
            for (f, old) in files.iter().zip(before) {
                // extract fills its (forced) folder in place and syncs once at the end
                if !w.name.starts_with("extract") {
                    assert_ne!(ino(f), old.ino, "{}: {} was not replaced", w.name, f.display());
                }
                assert_eq!(mode(f), m, "{}: {} lost mode {m:o}", w.name, f.display());
            }
        }
        assert_eq!(temps(d), Vec::<PathBuf>::new(), "{}", w.name);
    }
}

#[test]
fn every_writer_gives_new_files_the_umask_default() {
    for w in WRITERS {
        for (umask, want) in [("022", 0o644), ("027", 0o640)] {
            let dir = tempfile::tempdir().unwrap();
            let d = dir.path();
            inputs(d);
            run_setup(d, w);
            // In-place edits replace an existing file, whose mode is kept (tested above).
            let fresh: Vec<PathBuf> = w.outputs.iter().map(|o| d.join(o)).filter(|p| !p.exists()).collect();
            if fresh.is_empty() {
                continue;
            }
            run_command(d, w, Some(&format!("umask {umask}")));
            let fresh_names: Vec<&str> = w.outputs.iter().copied().filter(|o| fresh.contains(&d.join(o))).collect();
            for f in output_files(d, &fresh_names) {
                assert_eq!(mode(&f), want, "{}: {} under umask {umask}", w.name, f.display());
            }
        }
    }
}

/// Single-file writers, whose output can be a symlink.
fn file_writers() -> impl Iterator<Item = &'static Writer> {
    WRITERS.iter().filter(|w| w.outputs.iter().all(|o| !o.ends_with('/')))
}

#[test]
fn a_symlinked_output_stays_a_link_and_its_target_is_replaced() {
    for w in file_writers() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        inputs(d);
        // What the command writes when nothing is a link.
        run_writer(d, w, None);
        run_writer(d, w, None);
        let expected: Vec<Vec<u8>> = w.outputs.iter().map(|o| std::fs::read(d.join(o)).unwrap()).collect();
        std::fs::create_dir(d.join("real")).unwrap();
        for o in w.outputs {
            let real = d.join("real").join(o);
            std::fs::rename(d.join(o), &real).unwrap();
            set_mode(&real, 0o664);
            symlink(Path::new("real").join(o), d.join(o)).unwrap();
        }
        let before: Vec<Held> = w.outputs.iter().map(|o| Held::new(&d.join("real").join(o))).collect();
        run_writer(d, w, None);
        for ((o, want), old) in w.outputs.iter().zip(&expected).zip(before) {
            let link = d.join(o);
            let real = d.join("real").join(o);
            assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "{}: {o}", w.name);
            assert_ne!(ino(&real), old.ino, "{}: the link's target was not replaced", w.name);
            assert_eq!(&std::fs::read(&real).unwrap(), want, "{}: {o}", w.name);
            assert_eq!(mode(&real), 0o664, "{}: {o}", w.name);
        }
        assert_eq!(temps(d), Vec::<PathBuf>::new(), "{}", w.name);
    }
}

// ---------------------------------------------------------------- aliases

#[derive(Debug, PartialEq)]
enum Entry {
    File(Vec<u8>, u32, u64),
    Dir,
    Link(PathBuf),
}

/// Every entry under `dir`: content, mode and inode of files, link targets.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Entry> {
    walk(dir)
        .into_iter()
        .map(|p| {
            let m = std::fs::symlink_metadata(&p).unwrap();
            let e = if m.file_type().is_symlink() {
                Entry::Link(std::fs::read_link(&p).unwrap())
            } else if m.is_dir() {
                Entry::Dir
            } else {
                Entry::File(std::fs::read(&p).unwrap(), m.mode(), m.ino())
            };
            (p.strip_prefix(dir).unwrap().to_path_buf(), e)
        })
        .collect()
}

/// [`inputs`] plus aliases: a symlink and a hard link to `in.pte`, `e.ptd`,
/// `p.pte`, `b.bpte`, and a `sub/` directory for `sub/../name`.
fn aliased_inputs(d: &Path) {
    inputs(d);
    std::fs::create_dir(d.join("sub")).unwrap();
    for (f, sym, hard) in [
        ("in.pte", "sym.pte", "hard.pte"),
        ("x.pte", "xsym.pte", "xhard.pte"),
        ("e.ptd", "esym.ptd", "ehard.ptd"),
        ("p.pte", "psym.pte", "phard.pte"),
        ("b.bpte", "bsym.bpte", "bhard.bpte"),
    ] {
        symlink(f, d.join(sym)).unwrap();
        std::fs::hard_link(d.join(f), d.join(hard)).unwrap();
    }
}

#[test]
fn aliased_paths_are_refused_before_anything_is_written() {
    let cases: &[&[&str]] = &[
        &["externalize", "x.pte", "x.pte", "x.pte"],
        &["externalize", "x.pte", "b.pte", "b.pte"],
        &["externalize", "x.pte", "x.pte", "d.ptd"],
        &["externalize", "x.pte", "b.pte", "x.pte"],
        &["externalize", "x.pte", "xsym.pte", "d.ptd"],
        &["externalize", "x.pte", "b.pte", "xhard.pte"],
        &["externalize", "x.pte", "sub/../x.pte", "d.ptd"],
        &["externalize", "x.pte", "b.pte", "sub/../b.pte"],
        &["externalize", "x.pte", "sym.pte", "hard.pte"],
        &["internalize", "e.pte", "e.ptd", "e.ptd"],
        &["internalize", "e.pte", "e.ptd", "esym.ptd"],
        &["internalize", "e.pte", "e.ptd", "ehard.ptd"],
        &["internalize", "e.pte", "e.ptd", "sub/../e.ptd"],
        &["bpte", "bundle", "p.pte", "sdir", "p.pte"],
        &["bpte", "bundle", "p.pte", "sdir", "psym.pte"],
        &["bpte", "bundle", "p.pte", "sdir", "phard.pte"],
        &["bpte", "unbundle", "b.bpte", "b.bpte"],
        &["bpte", "unbundle", "b.bpte", "bsym.bpte"],
        &["bpte", "unbundle", "b.bpte", "bhard.bpte"],
        &["mutate", "--rule", "pte.bad-identifier", "in.pte", "in.pte"],
        &["mutate", "--rule", "pte.bad-identifier", "in.pte", "sym.pte"],
        &["mutate", "--rule", "pte.bad-identifier", "in.pte", "hard.pte"],
        &["mutate", "--rule", "pte.bad-identifier", "in.pte", "sub/../in.pte"],
        // A directory output naming an input file.
        &["extract", "in.pte", "in.pte"],
        &["bpte", "export-samples", "b.bpte", "b.bpte"],
        &["samples", "export", "pkg.ptn", "forward", "smoke", "pkg.ptn"],
        &["samples", "import-io", "io.safetensors", "forward", "io", "io.safetensors"],
    ];
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    aliased_inputs(d);
    let before = snapshot(d);
    for args in cases {
        let o = pte_in(d, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
        assert_eq!(snapshot(d), before, "{args:?} changed a file");
    }
}

#[test]
fn in_place_edits_through_any_spelling_are_allowed_and_correct() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    aliased_inputs(d);
    // A program with segments, so realigning them changes the bytes (the
    // hard link sees the new content: it is the same file).
    std::fs::write(d.join("in.pte"), std::fs::read(corpus("linear/model.pte")).unwrap()).unwrap();
    let original = std::fs::read(d.join("in.pte")).unwrap();
    let realign = ["--segment-alignment", "4096"];
    ok(&pte_in(d, &[&["rewrite", "in.pte", "want.pte"][..], &realign].concat()), "reference");
    let want = std::fs::read(d.join("want.pte")).unwrap();
    assert_ne!(want, original, "the option must change the file for this test to mean anything");
    ok(&pte_in(d, &["rewrite", "in.pte", "plain.pte"]), "reference");
    let plain = std::fs::read(d.join("plain.pte")).unwrap();

    // in.pte, sym.pte and hard.pte are one file: each rewrite starts from the original.
    let reset = || {
        std::fs::write(d.join("in.pte"), &original).unwrap();
        let _ = std::fs::remove_file(d.join("hard.pte"));
        std::fs::hard_link(d.join("in.pte"), d.join("hard.pte")).unwrap();
    };
    for (input, output, opts, expect, written) in [
        ("in.pte", "in.pte", &[][..], &plain, "in.pte"),
        ("in.pte", "in.pte", &realign[..], &want, "in.pte"),
        ("in.pte", "./in.pte", &realign[..], &want, "in.pte"),
        ("in.pte", "sub/../in.pte", &realign[..], &want, "in.pte"),
        ("sym.pte", "in.pte", &realign[..], &want, "in.pte"),
        ("in.pte", "sym.pte", &realign[..], &want, "in.pte"),
        ("sym.pte", "sym.pte", &realign[..], &want, "in.pte"),
        // Through a hard link the named output is the file that gets the result.
        ("in.pte", "hard.pte", &realign[..], &want, "hard.pte"),
        ("hard.pte", "in.pte", &realign[..], &want, "in.pte"),
    ] {
        reset();
        let o = pte_in(d, &[&["rewrite", input, output][..], opts].concat());
        ok(&o, &format!("rewrite {input} {output} {opts:?}"));
        assert_eq!(&std::fs::read(d.join(written)).unwrap(), expect, "rewrite {input} {output} {opts:?}");
        assert!(std::fs::symlink_metadata(d.join("sym.pte")).unwrap().file_type().is_symlink());
    }
    // internalize onto its first input.
    ok(&pte_in(d, &["internalize", "e.pte", "e.ptd", "ei.pte"]), "reference");
    ok(&pte_in(d, &["internalize", "e.pte", "esym.ptd", "e.pte"]), "internalize in place");
    assert_eq!(std::fs::read(d.join("e.pte")).unwrap(), std::fs::read(d.join("ei.pte")).unwrap());
    assert_eq!(temps(d), Vec::<PathBuf>::new());
}

#[test]
fn in_place_edits_through_a_link_keep_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    inputs(d);
    std::fs::create_dir(d.join("real")).unwrap();
    std::fs::rename(d.join("pkg.ptn"), d.join("real/pkg.ptn")).unwrap();
    symlink("real/pkg.ptn", d.join("pkg.ptn")).unwrap();
    write_set_dir(&d.join("other"), &set("other", 1));
    ok(&pte_in(d, &["samples", "add", "pkg.ptn", "other"]), "add through a link");
    ok(&pte_in(d, &["samples", "remove", "pkg.ptn", "forward", "smoke"]), "remove through a link");
    ok(&pte_in(d, &["rewrite", "pkg.ptn", "pkg.ptn"]), "rewrite through a link");
    assert!(std::fs::symlink_metadata(d.join("pkg.ptn")).unwrap().file_type().is_symlink());
    assert_eq!(set_names(&d.join("real/pkg.ptn")), vec!["forward/other".to_string()]);
    assert_eq!(temps(d), Vec::<PathBuf>::new());
}

// ---------------------------------------------------------------- concurrent edits

/// The sets in a package (`method/set`), from its member names: cheaper
/// than parsing every sample, and enough to see which edits landed.
fn set_names(package: &Path) -> Vec<String> {
    let bytes = std::fs::read(package).unwrap();
    let ptn = pte_ptn::PtnFile::from_bytes(&bytes).unwrap();
    let mut names: Vec<String> = ptn
        .members
        .iter()
        .filter_map(|m| m.name.strip_prefix("samples/")?.strip_suffix("/index.json").map(str::to_string))
        .collect();
    names.sort();
    names
}

fn spawn(dir: &Path, args: &[&str]) -> Child {
    Command::new(PTE).current_dir(dir).args(args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap()
}

/// Waits until some process holds a lock on the file with inode `ino`
/// (from /proc/locks on Linux), or `child` has ended.
fn wait_until_locked(child: &mut Child, ino: u64) {
    if !Path::new("/proc/locks").exists() {
        return;
    }
    let needle = format!(":{ino}");
    while child.try_wait().unwrap().is_none() {
        let locks = std::fs::read_to_string("/proc/locks").unwrap_or_default();
        let held = locks.lines().any(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            f.get(1) != Some(&"->") && f.get(5).is_some_and(|x| x.ends_with(&needle))
        });
        if held {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// Runs two edits of `package`, starting the second once the first holds
/// the package's edit lock, so that they really overlap; returns their outputs.
fn race(dir: &Path, package: &Path, first: &[&str], second: &[&str]) -> (Output, Output) {
    let lock_ino = ino(package);
    let mut a = spawn(dir, first);
    wait_until_locked(&mut a, lock_ino);
    let b = spawn(dir, second);
    (a.wait_with_output().unwrap(), b.wait_with_output().unwrap())
}

/// Checks the outcome of a race of two edits: both landed, or (only with
/// `--no-wait`) one failed with the busy message and only the other landed.
/// Returns whether one was refused.
fn judge(
    trial: usize,
    no_wait: bool,
    (a, b): (&Output, &Output),
    sets: &[String],
    a_set: Option<&str>,
    b_set: Option<&str>,
) -> bool {
    let has = |s: Option<&str>| s.is_none_or(|s| sets.iter().any(|x| x == s));
    match (a.status.success(), b.status.success()) {
        (true, true) => {
            assert!(has(a_set) && has(b_set), "trial {trial}: a change was lost: {sets:?}");
            false
        }
        (ok_a, ok_b) if no_wait && ok_a != ok_b => {
            let (failed, landed, lost) = if ok_a { (b, a_set, b_set) } else { (a, b_set, a_set) };
            assert_eq!(failed.status.code(), Some(2), "trial {trial}");
            assert!(stderr(failed).contains("being edited"), "trial {trial}: {}", stderr(failed));
            assert!(has(landed), "trial {trial}: the other change is missing: {sets:?}");
            if let Some(lost) = lost {
                assert!(!sets.iter().any(|x| x == lost), "trial {trial}: the failed change landed: {sets:?}");
            }
            true
        }
        _ => panic!("trial {trial} (no_wait {no_wait}): {}\n{}", stderr(a), stderr(b)),
    }
}

/// `args`, with `--no-wait` when asked.
fn maybe_no_wait<'a>(args: &[&'a str], no_wait: bool) -> Vec<&'a str> {
    let mut v = args.to_vec();
    if no_wait {
        v.push("--no-wait");
    }
    v
}

/// Calls in the large set: about 750 bytes each (index entry, safetensors
/// header entries and data), so some 15 MB.
const BIG_CALLS: usize = 20_000;

#[test]
fn concurrent_samples_adds_keep_both_sets_or_one_fails_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_set_dir(&d.join("big"), &set("big", BIG_CALLS));
    write_set_dir(&d.join("small"), &set("small", 1));
    let size: u64 =
        ["big/index.json", "big/data.safetensors"].iter().map(|f| d.join(f).metadata().unwrap().len()).sum();
    assert!(size > 10 << 20, "the big set is only {size} bytes");
    let pkg = d.join("pkg.ptn");
    let mut refused = 0;
    for trial in 0..20 {
        // Even trials wait for the lock, odd ones pass --no-wait.
        let no_wait = trial % 2 == 1;
        std::fs::copy(corpus("native_ptn/model.ptn"), &pkg).unwrap();
        // The small edit arrives while the large one holds the lock.
        let (a, b) = race(
            d,
            &pkg,
            &maybe_no_wait(&["samples", "add", "pkg.ptn", "big"], no_wait),
            &maybe_no_wait(&["samples", "add", "pkg.ptn", "small"], no_wait),
        );
        let sets = set_names(&pkg);
        refused += usize::from(judge(trial, no_wait, (&a, &b), &sets, Some("forward/big"), Some("forward/small")));
        assert_eq!(temps(d), Vec::<PathBuf>::new());
    }
    eprintln!("{refused} of 10 --no-wait races ended with one edit refused");
}

#[test]
fn a_concurrent_rewrite_onto_itself_never_drops_a_samples_add() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A large package, so that each edit holds the lock for a while.
    std::fs::copy(corpus("native_ptn/model.ptn"), d.join("base.ptn")).unwrap();
    write_set_dir(&d.join("big"), &set("big", BIG_CALLS));
    write_set_dir(&d.join("small"), &set("small", 1));
    ok(&pte_in(d, &["samples", "add", "base.ptn", "big"]), "base package");
    let pkg = d.join("pkg.ptn");
    for trial in 0..20 {
        let no_wait = trial % 2 == 1;
        std::fs::copy(d.join("base.ptn"), &pkg).unwrap();
        let rewrite = maybe_no_wait(&["rewrite", "pkg.ptn", "pkg.ptn"], no_wait);
        let add = maybe_no_wait(&["samples", "add", "pkg.ptn", "small"], no_wait);
        let add_first = trial % 4 < 2;
        let (add_out, rewrite_out) = if add_first {
            race(d, &pkg, &add, &rewrite)
        } else {
            let (r, a) = race(d, &pkg, &rewrite, &add);
            (a, r)
        };
        let sets = set_names(&pkg);
        judge(trial, no_wait, (&add_out, &rewrite_out), &sets, Some("forward/small"), None);
        let want: &[&str] = if add_out.status.success() { &["forward/big", "forward/small"] } else { &["forward/big"] };
        assert_eq!(sets, want, "trial {trial}");
        assert_eq!(temps(d), Vec::<PathBuf>::new());
    }
    ok(&pte_in(d, &["verify", "pkg.ptn"]), "the package stays valid");
}

// ---------------------------------------------------------------- kills and limits

fn tensor(idx: u32, sizes: Vec<i32>) -> EValue {
    let rank = sizes.len();
    EValue {
        val: Some(KernelTypes::Tensor(Tensor {
            scalar_type: ScalarType::FLOAT,
            sizes: Some(sizes),
            dim_order: Some((0..rank as u8).collect()),
            data_buffer_idx: idx,
            ..Default::default()
        })),
    }
}

/// A valid program whose one constant is `bytes` long (a multiple of 4).
fn big_program(path: &Path, bytes: usize) {
    let plan = ExecutionPlan {
        name: Some("forward".into()),
        container_meta_type: None,
        values: Some(vec![tensor(1, vec![(bytes / 4) as i32])]),
        inputs: Some(vec![]),
        outputs: Some(vec![0]),
        chains: Some(vec![Chain {
            inputs: Some(vec![]),
            outputs: Some(vec![]),
            instructions: Some(vec![]),
            stacktrace: None,
        }]),
        operators: Some(vec![]),
        delegates: Some(vec![]),
        non_const_buffer_sizes: Some(vec![0]),
        non_const_buffer_device: None,
    };
    let data: Vec<u8> = (0..bytes).map(|i| (i % 251) as u8).collect();
    let parts = PteParts {
        program: Program { execution_plan: Some(vec![plan]), ..Default::default() },
        constants: vec![Cow::Owned(vec![]), Cow::Owned(data)],
        ..Default::default()
    };
    let opts = WriteOptions::default();
    parts.build(&opts).unwrap().save(path, &opts).unwrap();
}

/// Whether two files hold the same bytes (compared in chunks, so 100 MiB
/// files cost no more than two buffers).
fn same_bytes(a: &Path, b: &Path) -> bool {
    use std::io::Read;
    let (mut fa, mut fb) = (std::fs::File::open(a).unwrap(), std::fs::File::open(b).unwrap());
    if fa.metadata().unwrap().len() != fb.metadata().unwrap().len() {
        return false;
    }
    let (mut ba, mut bb) = (vec![0u8; 1 << 20], vec![0u8; 1 << 20]);
    loop {
        let n = fa.read(&mut ba).unwrap();
        if n == 0 {
            return true;
        }
        fb.read_exact(&mut bb[..n]).unwrap();
        if ba[..n] != bb[..n] {
            return false;
        }
    }
}

/// A small deterministic generator for the kill points (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

#[test]
fn sigkill_during_a_100_mib_save_leaves_the_target_old_or_new() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    big_program(&d.join("seed.pte"), 100 << 20);
    assert!(d.join("seed.pte").metadata().unwrap().len() >= 100 << 20);
    // Independent copies to compare against: `seed.pte` itself would change
    // too if a save wrote into the target's inode.
    std::fs::copy(d.join("seed.pte"), d.join("old.ref")).unwrap();
    let args = ["rewrite", "target.pte", "target.pte", "--segment-alignment", "65536"];
    std::fs::hard_link(d.join("seed.pte"), d.join("target.pte")).unwrap();
    let started = std::time::Instant::now();
    ok(&pte_in(d, &args), "an uninterrupted save");
    // Only to spread the kill points over a whole save; nothing asserts on it.
    let full = started.elapsed().as_micros() as u64;
    std::fs::rename(d.join("target.pte"), d.join("new.ref")).unwrap();
    assert!(!same_bytes(&d.join("old.ref"), &d.join("new.ref")), "the rewrite must change the file");

    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut old, mut new) = (0, 0);
    for trial in 0..20 {
        // Each trial starts from the old file; the save replaces the name only.
        let _ = std::fs::remove_file(d.join("target.pte"));
        std::fs::hard_link(d.join("seed.pte"), d.join("target.pte")).unwrap();
        let mut child =
            Command::new(PTE).current_dir(d).args(args).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
        std::thread::sleep(std::time::Duration::from_micros(rng.below(full + full / 5)));
        let _ = child.kill(); // SIGKILL; the save may have finished already
        child.wait().unwrap();
        let target = d.join("target.pte");
        if same_bytes(&target, &d.join("old.ref")) {
            old += 1;
        } else if same_bytes(&target, &d.join("new.ref")) {
            new += 1;
        } else {
            panic!("trial {trial}: the target is neither the old nor the new file");
        }
        let left = temps(d);
        // A save removes stale temporary files before it makes its own.
        assert!(left.len() <= 1, "trial {trial}: temporary files pile up: {left:?}");
    }
    eprintln!("20 kills: {old} left the old file, {new} the new one");
    // The next save removes whatever a killed save left behind.
    ok(&pte_in(d, &args), "the next save");
    assert_eq!(temps(d), Vec::<PathBuf>::new());
    assert!(
        same_bytes(&d.join("target.pte"), &d.join("new.ref")) || same_bytes(&d.join("target.pte"), &d.join("old.ref"))
    );
    assert!(same_bytes(&d.join("seed.pte"), &d.join("old.ref")), "a save wrote into the old file");
}

#[test]
fn a_save_killed_while_its_temporary_file_exists_is_cleaned_up_by_the_next_save() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    big_program(&d.join("a.pte"), 32 << 20);
    let before = std::fs::read(d.join("a.pte")).unwrap();
    let args = ["rewrite", "a.pte", "a.pte", "--segment-alignment", "65536"];
    // Kill as soon as the temporary file shows up; retry if the save won the race.
    let mut caught = false;
    for _ in 0..50 {
        let mut child =
            Command::new(PTE).current_dir(d).args(args).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
        while temps(d).is_empty() && child.try_wait().unwrap().is_none() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        let _ = child.kill();
        child.wait().unwrap();
        if std::fs::read(d.join("a.pte")).unwrap() != before {
            std::fs::write(d.join("a.pte"), &before).unwrap();
            continue;
        }
        if !temps(d).is_empty() {
            caught = true;
            break;
        }
    }
    assert!(caught, "never caught a save with its temporary file in place");
    assert_eq!(std::fs::read(d.join("a.pte")).unwrap(), before);
    ok(&pte_in(d, &args), "the next save");
    assert_eq!(temps(d), Vec::<PathBuf>::new());
}

#[test]
fn a_write_past_the_file_size_limit_fails_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    big_program(&d.join("big.pte"), 1 << 20);
    std::fs::copy(corpus("add/model.pte"), d.join("out.pte")).unwrap();
    set_mode(&d.join("out.pte"), 0o644);
    std::fs::copy(corpus("native_ptn/model.ptn"), d.join("pkg.ptn")).unwrap();
    write_set_dir(&d.join("big"), &set("big", 2_000));
    // `ulimit -f` counts blocks of 512 or 1024 bytes: 64 is at most 64 KiB.
    let cases: &[&[&str]] = &[
        &["rewrite", "big.pte", "out.pte"],
        &["rewrite", "big.pte", "new.pte"],
        &["rewrite", "big.pte", "big.pte", "--segment-alignment", "65536"],
        &["samples", "add", "pkg.ptn", "big"],
    ];
    let before = snapshot(d);
    for args in cases {
        let o = pte_sh(d, "ulimit -f 64", args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {:?} {}", o.status, stderr(&o));
        assert!(stderr(&o).contains("File too large"), "{args:?}: {}", stderr(&o));
        assert_eq!(snapshot(d), before, "{args:?} changed a file or left one behind");
    }
}
