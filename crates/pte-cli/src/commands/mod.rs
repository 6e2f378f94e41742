//! One module per command; `run` hands each parsed command to its module.

pub(crate) mod bpte;
pub(crate) mod completions;
pub(crate) mod conformance;
pub(crate) mod diff;
pub(crate) mod dump;
pub(crate) mod dump_exir;
pub(crate) mod explain;
pub(crate) mod externalize;
pub(crate) mod extract;
pub(crate) mod r#gen;
pub(crate) mod graph;
pub(crate) mod info;
pub(crate) mod info_many;
pub(crate) mod internalize;
pub(crate) mod memory;
pub(crate) mod mutate;
pub(crate) mod ops;
pub(crate) mod pack;
pub(crate) mod report;
pub(crate) mod rewrite;
pub(crate) mod samples;
pub(crate) mod shrink;
pub(crate) mod size;
pub(crate) mod verify;
pub(crate) mod verify_many;

use crate::cli::{BpteCommand, Command, ConformanceCommand, SamplesCommand};
use crate::failure::CmdResult;

pub(crate) fn run(cmd: Command) -> CmdResult {
    match cmd {
        Command::Info { files, json, tensors } => match files.as_slice() {
            [one] if !crate::batch::is_batch(&files) => info::run(one, json, tensors),
            _ => info_many::run(&files, json, tensors),
        },
        Command::Size { file, json, top, by } => size::run(&file, json, top, by),
        Command::Dump { file, delegate: Some(n), .. } => crate::formats::payload::dump(&file, n),
        Command::Dump { file, exir, delegate: None } => dump::run(&file, exir),
        Command::Memory { file, method, json } => memory::run(&file, method.as_deref(), json),
        Command::Completions { shell } => completions::completions(shell),
        Command::Man { command } => completions::man(&command),
        Command::Graph { file, method, format, svg, output } => {
            graph::run(&file, method.as_deref(), format, output.as_deref(), svg)
        }
        Command::Verify { files, ptd, json, deny_warnings } => match files.as_slice() {
            [one] if !crate::batch::is_batch(&files) => verify::run(one, &ptd, json, deny_warnings),
            _ => verify_many::run(&files, &ptd, json, deny_warnings),
        },
        Command::Rewrite { input, output, layout, .. } => rewrite::run(&input, &output, layout),
        Command::Extract { file, dir, force, max_files } => {
            extract::run(&file, pte::ExtractTarget { dir: &dir, force, max_files })
        }
        Command::Pack(a) => pack::run(a),
        Command::Diff(a) => diff::run(a),
        Command::Samples(cmd) => match cmd {
            SamplesCommand::List { file, json } => samples::list(&file, json),
            SamplesCommand::Show { file, method, set, json } => samples::show(&file, &method, &set, json),
            SamplesCommand::Check(args) => samples::check(&args),
            SamplesCommand::Add { file, dir, replace, .. } => samples::add(&file, &dir, replace),
            SamplesCommand::Remove { file, method, set, .. } => samples::remove(&file, &method, &set),
            SamplesCommand::Export { file, method, set, dir, force } => {
                samples::export(&file, &method, &set, &dir, force)
            }
            SamplesCommand::ImportIo { io, method, set, dir, force } => {
                samples::import_io(&io, &method, &set, &dir, force)
            }
        },
        Command::Mutate { rule, list, input, output } => {
            mutate::run(rule.as_deref(), list, input.as_deref(), output.as_deref())
        }
        Command::Explain { what, json } => explain::run(&what, json),
        Command::Gen { seed, count, output, force } => r#gen::run(seed, count, &output, force),
        Command::Bpte(cmd) => match cmd {
            BpteCommand::Unbundle { file, output } => bpte::unbundle(&file, &output),
            BpteCommand::ExportSamples { file, dir, force, atol, rtol } => {
                bpte::export_samples(&file, &dir, force, atol, rtol)
            }
            BpteCommand::Bundle { program, samples, output } => bpte::bundle(&program, &samples, &output),
        },
        Command::Externalize { input, output, data, keys, name_constants } => {
            externalize::run(&input, &output, &data, keys.as_deref(), name_constants.as_deref())
        }
        Command::Internalize { files, .. } => internalize::run(&files),
        Command::Report { files, output, ptd, samples_check } => report::run(&files, &ptd, &samples_check, &output),
        Command::Conformance(cmd) => match cmd {
            ConformanceCommand::List { json } => conformance::list(json),
            ConformanceCommand::Export { dir, force } => conformance::export(&dir, force),
            ConformanceCommand::Run { json, timeout, jobs, kind, command } => {
                conformance::run(&conformance::RunArgs { json, timeout, jobs, kinds: &kind, command: &command })
            }
        },
        Command::Ops { files, json, runtime: Some(version), .. } => ops::lacking(&files, &version, json),
        Command::Ops { files, json, yaml, .. } => ops::run(
            &files,
            match (json, yaml) {
                (true, _) => ops::Form::Json,
                (_, true) => ops::Form::Yaml,
                _ => ops::Form::Text,
            },
        ),
        Command::Shrink(a) => shrink::run(&a),
    }
}
