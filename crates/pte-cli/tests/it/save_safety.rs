//! Writing never damages a file: every command that writes keeps the mode of
//! an existing target and gives a new one the umask's default, follows
//! symlinks, and refuses aliased paths before writing. Concurrent edits,
//! kills and file-size limits are in `save_races.rs`.

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use crate::support::save::*;
use crate::support::*;

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

/// The option a writer of a folder needs to write into one it filled before.
fn rerun_args(w: &Writer) -> Vec<&'static str> {
    let mut args = w.args.to_vec();
    if w.outputs.iter().any(|o| o.ends_with('/')) {
        let sub: Vec<&str> = args.iter().copied().take_while(|a| !a.contains('.')).chain(["--help"]).collect();
        let help = pte_in(Path::new("."), &sub);
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
