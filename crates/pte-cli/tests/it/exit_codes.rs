//! One exit-code contract for every command: 0 success, 1 the file was read
//! and found wanting, 2 bad input, usage or I/O. Every subcommand clap knows
//! must have an entry in [`COMMANDS`]; each is run on a text file, a
//! `.safetensors` file, a missing file, a FIFO, a directory and `/dev/null`,
//! which must all end at once with exit 2 (the last three named for what
//! they are), and on a valid file, which must succeed.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

use crate::support::{copy_inputs, corpus, stderr};

/// Runs `pte args` in `dir`; a command still running after a minute is
/// killed and fails the test (a FIFO must never block a command).
fn pte_in(dir: &Path, args: &[&str]) -> Output {
    crate::support::pte_bounded(dir, args)
}

/// Where the input under test goes in a command line.
const IN: &str = "{in}";

/// A command line with [`IN`] for the input under test, the valid input that
/// makes it succeed, and the files it would write.
struct Case {
    args: &'static [&'static str],
    valid: &'static str,
    writes: &'static [&'static str],
    /// Bad inputs that are valid here.
    skip: &'static [&'static str],
}

/// Every subcommand (`bpte unbundle` for nested ones) and its cases; a
/// subcommand missing here fails [`every_subcommand_has_an_entry`].
const COMMANDS: &[(&str, &[Case])] = &[
    // A folder is info's batch form too; one with no ExecuTorch file in it
    // (folder.pte is empty) is a usage error, not "0 files" and success.
    ("info", &[Case { args: &["info", IN], valid: "in.pte", writes: &[], skip: &[] }]),
    // A folder is ops's batch form too, refused as info refuses it when empty.
    (
        "ops",
        &[
            Case { args: &["ops", IN], valid: "in.pte", writes: &[], skip: &[] },
            Case { args: &["ops", "--yaml", IN], valid: "in.pte", writes: &[], skip: &[] },
        ],
    ),
    ("dump", &[Case { args: &["dump", IN], valid: "in.pte", writes: &[], skip: &[] }]),
    (
        "verify",
        &[
            // A folder is verify's batch form; an empty one is refused.
            Case { args: &["verify", IN], valid: "in.pte", writes: &[], skip: &[] },
            Case { args: &["verify", "e.pte", "--ptd", IN], valid: "e.ptd", writes: &[], skip: &[] },
        ],
    ),
    ("rewrite", &[Case { args: &["rewrite", IN, "o.pte"], valid: "in.pte", writes: &["o.pte"], skip: &[] }]),
    (
        "externalize",
        &[Case {
            args: &["externalize", IN, "o.pte", "o.ptd"],
            valid: "x.pte",
            writes: &["o.pte", "o.ptd"],
            skip: &[],
        }],
    ),
    (
        "internalize",
        &[
            Case { args: &["internalize", IN, "e.ptd", "o.pte"], valid: "e.pte", writes: &["o.pte"], skip: &[] },
            Case { args: &["internalize", "e.pte", IN, "o.pte"], valid: "e.ptd", writes: &["o.pte"], skip: &[] },
        ],
    ),
    (
        "mutate",
        &[Case {
            args: &["mutate", "--rule", "pte.bad-identifier", IN, "o.pte"],
            valid: "in.pte",
            writes: &["o.pte"],
            skip: &[],
        }],
    ),
    // gen reads nothing: its output goes below the path under test, which
    // only a directory can hold.
    ("gen", &[]),
    // the suite is built in; run reads only what its command reads
    ("conformance list", &[]),
    ("conformance export", &[]),
    ("conformance run", &[]),
    (
        "shrink",
        &[Case {
            args: &["shrink", IN, "-o", "o.pte", "--", "true"],
            valid: "in.pte",
            writes: &["o.pte"],
            // any bytes shrink (a crash input need not be an ExecuTorch file)
            skip: &["text.pte", "weights.safetensors"],
        }],
    ),
    // completions and man read no file; nor does explain (tested in cli.rs).
    ("completions", &[]),
    ("explain", &[]),
    ("man", &[]),
    ("graph", &[Case { args: &["graph", IN], valid: "in.pte", writes: &[], skip: &[] }]),
    ("memory", &[Case { args: &["memory", IN], valid: "in.pte", writes: &[], skip: &[] }]),
    (
        "report",
        &[
            Case { args: &["report", IN, "-o", "r.html"], valid: "in.pte", writes: &["r.html"], skip: &[] },
            Case {
                args: &["report", "e.pte", "--ptd", IN, "-o", "r.html"],
                valid: "e.ptd",
                writes: &["r.html"],
                skip: &[],
            },
        ],
    ),
    ("size", &[Case { args: &["size", IN], valid: "in.pte", writes: &[], skip: &[] }]),
    ("extract", &[Case { args: &["extract", IN, "xo"], valid: "in.pte", writes: &["xo"], skip: &[] }]),
    (
        "pack",
        &[Case {
            args: &["pack", IN, "packed.pte", "--segment", "seg0.bin"],
            valid: "prog.json",
            writes: &["packed.pte"],
            // A folder is pack's other input form (an extract folder).
            skip: &["folder.pte"],
        }],
    ),
    (
        "diff",
        &[
            Case { args: &["diff", IN, "in.pte"], valid: "in.pte", writes: &[], skip: &[] },
            Case { args: &["diff", "in.pte", IN], valid: "in.pte", writes: &[], skip: &[] },
        ],
    ),
    (
        "bpte unbundle",
        &[Case { args: &["bpte", "unbundle", IN, "u.pte"], valid: "b.bpte", writes: &["u.pte"], skip: &[] }],
    ),
    (
        "bpte export-samples",
        &[Case { args: &["bpte", "export-samples", IN, "es"], valid: "b.bpte", writes: &["es"], skip: &[] }],
    ),
    (
        "bpte bundle",
        &[Case { args: &["bpte", "bundle", IN, "sdir", "o.bpte"], valid: "p.pte", writes: &["o.bpte"], skip: &[] }],
    ),
    ("samples list", &[Case { args: &["samples", "list", IN], valid: "pkg.ptn", writes: &[], skip: &[] }]),
    (
        "samples show",
        &[Case { args: &["samples", "show", IN, "forward", "smoke"], valid: "pkg.ptn", writes: &[], skip: &[] }],
    ),
    (
        "samples check",
        &[
            Case {
                args: &["samples", "check", IN, "--actual", "actual.safetensors"],
                valid: "b.bpte",
                writes: &[],
                skip: &[],
            },
            Case {
                args: &["samples", "check", "b.bpte", "--actual", IN],
                valid: "actual.safetensors",
                writes: &[],
                // Any safetensors file is a valid --actual.
                skip: &["weights.safetensors"],
            },
        ],
    ),
    ("samples add", &[Case { args: &["samples", "add", IN, "set2"], valid: "pkg.ptn", writes: &[], skip: &[] }]),
    (
        "samples remove",
        &[Case { args: &["samples", "remove", IN, "forward", "smoke"], valid: "pkg.ptn", writes: &[], skip: &[] }],
    ),
    (
        "samples import-io",
        &[Case {
            args: &["samples", "import-io", IN, "forward", "s", "si"],
            valid: "io.safetensors",
            writes: &["si"],
            skip: &[],
        }],
    ),
    (
        "samples export",
        &[Case {
            args: &["samples", "export", IN, "forward", "smoke", "se"],
            valid: "pkg.ptn",
            writes: &["se"],
            skip: &[],
        }],
    ),
];

/// The subcommands `pte [group] --help` lists.
fn subcommands(group: &[&str]) -> Vec<String> {
    let o = pte_in(Path::new("."), &[group, &["--help"]].concat());
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8(o.stdout).unwrap();
    let list = text.split("Commands:").nth(1).expect("a command list").split("\n\n").next().unwrap().to_string();
    list.lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .map(|n| if group.is_empty() { n.to_string() } else { format!("{} {n}", group.join(" ")) })
        .collect()
}

fn all_subcommands() -> Vec<String> {
    let mut out = vec![];
    for top in subcommands(&[]) {
        // A group (it has subcommands of its own) contributes those instead.
        let help = pte_in(Path::new("."), &[top.as_str(), "--help"]);
        if String::from_utf8_lossy(&help.stdout).contains("Commands:") {
            out.extend(subcommands(&[top.as_str()]));
        } else {
            out.push(top);
        }
    }
    out
}

#[test]
fn every_subcommand_has_an_entry() {
    let table: Vec<&str> = COMMANDS.iter().map(|(n, _)| *n).collect();
    let clap = all_subcommands();
    assert!(clap.len() >= 19, "{clap:?}");
    for c in &clap {
        assert!(table.contains(&c.as_str()), "`pte {c}` has no entry in COMMANDS: add one");
    }
    for t in &table {
        assert!(clap.iter().any(|c| c == t), "COMMANDS lists `{t}`, which pte no longer has");
    }
}

#[test]
fn help_states_the_contract() {
    let o = pte_in(Path::new("."), &["--help"]);
    let text = String::from_utf8(o.stdout).unwrap();
    for part in ["0 success", "1 the file was read and found wanting", "2 bad input, usage or I/O"] {
        assert!(text.contains(part), "--help does not say {part:?}:\n{text}");
    }
}

fn safetensors(path: &Path, key: &str) {
    let t = pte_ptn::PtnTensor::new(pte_ptn::Dtype::F32, vec![2], vec![0u8; 8]).unwrap();
    let map: BTreeMap<String, pte_ptn::PtnTensor<'static>> = [(key.to_string(), t)].into_iter().collect();
    std::fs::write(path, pte_ptn::safetensors_to_bytes(&map, &Default::default()).unwrap()).unwrap();
}

/// A directory holding every valid input and every bad one.
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_inputs(d);
    // Every corpus program, for the corruption classes.
    for case in CORPUS_PROGRAMS {
        std::fs::copy(corpus(&format!("{case}/model.pte")), d.join(format!("c-{case}.pte"))).unwrap();
    }
    let ok = |o: Output| assert!(o.status.success(), "{}", stderr(&o));
    ok(pte_in(d, &["bpte", "export-samples", "b.bpte", "sdir"]));
    let dump = pte_in(d, &["dump", "in.pte"]);
    assert!(dump.status.success(), "{}", stderr(&dump));
    std::fs::write(d.join("prog.json"), &dump.stdout).unwrap();
    // the program's one segment, for `pack`
    let pte_bytes = std::fs::read(d.join("in.pte")).unwrap();
    let pte = pte_file::PteFile::from_bytes(&pte_bytes).unwrap();
    std::fs::write(d.join("seg0.bin"), &pte.segments[0]).unwrap();
    // A set that fits the package's forward (one [2,16] input, one [2,8] output).
    let x = pte_ptn::PtnTensor::new(pte_ptn::Dtype::F32, vec![2, 16], vec![0u8; 128]).unwrap();
    let y = pte_ptn::PtnTensor::new(pte_ptn::Dtype::F32, vec![2, 8], vec![0u8; 64]).unwrap();
    let io: BTreeMap<String, pte_ptn::PtnTensor<'static>> =
        [("input.0".to_string(), x), ("output.0".to_string(), y)].into_iter().collect();
    std::fs::write(d.join("pkgio.safetensors"), pte_ptn::safetensors_to_bytes(&io, &Default::default()).unwrap())
        .unwrap();
    ok(pte_in(d, &["samples", "import-io", "pkgio.safetensors", "forward", "smoke", "set1"]));
    ok(pte_in(d, &["samples", "import-io", "pkgio.safetensors", "forward", "other", "set2"]));
    ok(pte_in(d, &["samples", "add", "pkg.ptn", "set1"]));
    safetensors(&d.join("actual.safetensors"), "unrelated");
    // The bad inputs.
    std::fs::write(d.join("text.pte"), "This is a text file, long enough to pass any length check.\n".repeat(8))
        .unwrap();
    safetensors(&d.join("weights.safetensors"), "weight");
    assert!(Command::new("mkfifo").arg(d.join("fifo.pte")).status().unwrap().success());
    std::fs::create_dir(d.join("folder.pte")).unwrap();
    dir
}

/// The bad inputs, and what the message must call the last three.
const BAD: &[(&str, Option<&str>)] = &[
    ("text.pte", None),
    ("weights.safetensors", None),
    ("missing.pte", None),
    ("fifo.pte", Some("named pipe")),
    ("folder.pte", Some("directory")),
    ("/dev/null", Some("character device")),
];

fn fill(args: &[&str], input: &str) -> Vec<String> {
    args.iter().map(|a| if *a == IN { input.to_string() } else { a.to_string() }).collect()
}

#[test]
fn bad_input_exits_2_for_every_command_and_valid_input_succeeds() {
    for (name, cases) in COMMANDS {
        for case in *cases {
            // A fresh directory per case: valid runs change the package.
            let dir = workspace();
            let d = dir.path();
            for (bad, what) in BAD.iter().filter(|(b, _)| !case.skip.contains(b)) {
                let args = fill(case.args, bad);
                let argv: Vec<&str> = args.iter().map(String::as_str).collect();
                let o = pte_in(d, &argv);
                let err = stderr(&o);
                assert_eq!(o.status.code(), Some(2), "pte {argv:?}: {err}");
                assert!(err.starts_with("pte: ") && err.lines().count() == 1, "pte {argv:?}: {err:?}");
                assert!(!err.contains("panicked"), "pte {argv:?}: {err}");
                if let Some(what) = what {
                    assert!(err.contains(what), "pte {argv:?} should call the input a {what}: {err}");
                }
                for w in case.writes {
                    assert!(!d.join(w).exists(), "pte {argv:?} wrote {w}");
                }
            }
            // The same line with a valid input succeeds, so the 2s above
            // were not usage errors.
            let args = fill(case.args, case.valid);
            let argv: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = pte_in(d, &argv);
            assert!(
                o.status.code() == Some(0) || (*name == "samples check" && o.status.code() == Some(1)),
                "{name}: pte {argv:?}: {:?} {}",
                o.status,
                stderr(&o)
            );
        }
    }
}

#[test]
fn gen_exits_2_when_it_cannot_write() {
    let dir = workspace();
    for out in ["missing/g.pte", "text.pte/g.pte", "fifo.pte/g.pte", "folder.pte"] {
        let o = pte_in(dir.path(), &["gen", "--seed", "1", out]);
        assert_eq!(o.status.code(), Some(2), "gen {out}: {}", stderr(&o));
    }
    let o = pte_in(dir.path(), &["gen", "--seed", "1", "folder.pte/g.pte"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn usage_errors_exit_2() {
    let dir = workspace();
    for args in [&["frobnicate"][..], &["info"], &["rewrite", "in.pte"], &["verify", "in.pte", "--bogus"], &[]] {
        let o = pte_in(dir.path(), args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}

const CORPUS_PROGRAMS: &[&str] = &[
    "add",
    "bundled",
    "dtypes",
    "dynamic",
    "external",
    "inline_delegate",
    "legacy_inline_constants",
    "linear",
    "multi_method",
    "mutable_buffer",
    "mutable_plain",
    "stacktrace",
    "xnnpack_mlp",
];

/// Valid inputs of each kind, for the corruption classes.
fn valid_inputs(kind: &str) -> Vec<String> {
    match kind {
        "pte" => CORPUS_PROGRAMS.iter().map(|c| format!("c-{c}.pte")).collect(),
        "ptd" => vec!["e.ptd".into()],
        "ptn" => vec!["pkg.ptn".into()],
        "bpte" => vec!["b.bpte".into()],
        _ => vec![],
    }
}

#[test]
fn verify_exits_1_on_every_broken_file() {
    let dir = workspace();
    let d = dir.path();
    let list = pte_in(d, &["mutate", "--list"]);
    let text = String::from_utf8(list.stdout).unwrap();
    let mut checked = 0;
    for line in text.lines() {
        let mut f = line.split_whitespace();
        let (Some(class), Some(kind)) = (f.next(), f.next()) else { continue };
        let out = format!("broken.{kind}");
        // link.* classes need the program that has a .ptd.
        let mut inputs = valid_inputs(kind);
        inputs.sort_by_key(|i| i != "c-external.pte");
        let applied = inputs.iter().any(|input| pte_in(d, &["mutate", "--rule", class, input, &out]).status.success());
        assert!(applied, "{class} applies to none of {inputs:?}");
        // A broken link shows only with both halves of the pair.
        let args = match (class.starts_with("link."), kind) {
            (true, "ptd") => vec!["verify", "c-external.pte", "--ptd", &out, "--deny-warnings"],
            (true, _) => vec!["verify", &out, "--ptd", "e.ptd", "--deny-warnings"],
            _ => vec!["verify", &out, "--deny-warnings"],
        };
        let o = pte_in(d, &args);
        assert_eq!(o.status.code(), Some(1), "{class}: {}", stderr(&o));
        checked += 1;
    }
    assert!(checked > 50, "only {checked} classes");
    // And a valid file is 0.
    assert_eq!(pte_in(d, &["verify", "x.pte"]).status.code(), Some(0));
}

#[test]
fn a_fifo_inside_a_set_directory_is_refused_without_blocking() {
    let dir = workspace();
    let d = dir.path();
    for name in ["index.json", "data.safetensors"] {
        let set = d.join(format!("fifo-{name}"));
        std::fs::create_dir(&set).unwrap();
        for f in ["index.json", "data.safetensors"] {
            if f == name {
                assert!(Command::new("mkfifo").arg(set.join(f)).status().unwrap().success());
            } else {
                std::fs::copy(d.join("set2").join(f), set.join(f)).unwrap();
            }
        }
        let set = set.file_name().unwrap().to_str().unwrap().to_string();
        let before = std::fs::read(d.join("pkg.ptn")).unwrap();
        for args in [vec!["samples", "add", "pkg.ptn", &set], vec!["bpte", "bundle", "p.pte", &set, "o.bpte"]] {
            let o = pte_in(d, &args);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            // bundle finds no regular index.json there; add names the pipe.
            if args[0] == "samples" || name == "data.safetensors" {
                assert!(stderr(&o).contains("named pipe"), "{args:?}: {}", stderr(&o));
            }
            assert!(!d.join("o.bpte").exists());
        }
        assert_eq!(std::fs::read(d.join("pkg.ptn")).unwrap(), before);
    }
}
