//! Verdicts, findings, summaries and dumps agree with the library's.

use std::ptr::{null, null_mut};

use pte_c::*;

use crate::support::{last_error, open, open_bytes, take, text};

fn corpus_files() -> Vec<std::path::PathBuf> {
    pte_testkit::corpus_files(&["pte", "ptd", "ptn", "bpte"])
}

fn verdict_of(h: *const PteHandle, data: &[*const PteHandle]) -> (String, Vec<PteFinding>, *mut PteReport) {
    let mut r = null_mut();
    let s = unsafe { pte_verify(h, data.as_ptr(), data.len(), &mut r) };
    assert_eq!(s, PteStatus::Ok, "{}", last_error());
    let mut json = null_mut();
    assert_eq!(unsafe { pte_report_json(r, &mut json) }, PteStatus::Ok);
    let mut n = 0;
    assert_eq!(unsafe { pte_report_len(r, &mut n) }, PteStatus::Ok);
    let findings = (0..n)
        .map(|i| {
            let mut f = std::mem::MaybeUninit::uninit();
            assert_eq!(unsafe { pte_report_finding(r, i, f.as_mut_ptr()) }, PteStatus::Ok);
            unsafe { f.assume_init() }
        })
        .collect();
    (take(json), findings, r)
}

#[test]
fn verdicts_match_the_library() {
    let files = corpus_files();
    assert!(files.len() >= 15);
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let want = pte::Verdict::from(&pte::verify(&bytes, &[]).unwrap());
        for h in [open(&path), open_bytes(&bytes).unwrap()] {
            let (json, findings, mut r) = verdict_of(h.0, &[]);
            assert_eq!(json, serde_json::to_string_pretty(&want).unwrap(), "{}", path.display());
            let mut valid = false;
            assert_eq!(unsafe { pte_report_valid(r, &mut valid) }, PteStatus::Ok);
            assert_eq!(valid, want.valid);
            assert_eq!(findings.len(), want.violations.len() + want.warnings.len());
            for (f, w) in findings.iter().zip(want.violations.iter().chain(&want.warnings)) {
                assert_eq!(text(f.rule), w.rule);
                assert_eq!(text(f.path), w.path);
                assert_eq!(text(f.message), w.message);
                assert_eq!(f.has_offset.then_some(f.offset), w.offset);
                assert_eq!(
                    f.has_runtime_error.then_some(f.runtime_error_code),
                    w.runtime_error.as_ref().map(|e| e.code)
                );
            }
            unsafe { pte_report_free(&mut r) };
        }
    }
}

#[test]
fn damaged_findings_carry_rule_offset_and_runtime_code() {
    let path = pte_testkit::regressions_dir().join("out-of-bounds/pte-segment-data-past-end.pte");
    let h = open(&path);
    let (_, findings, mut r) = verdict_of(h.0, &[]);
    let f = findings.first().expect("a violation");
    assert_eq!(f.severity, PteSeverity::Violation);
    assert!(!text(f.rule).is_empty() && !text(f.message).is_empty());
    assert!(findings
        .iter()
        .any(|f| f.has_runtime_error && f.runtime_error_code != 0 && !f.runtime_error_name.is_null()));
    assert!(findings.iter().any(|f| f.has_offset));
    unsafe { pte_report_free(&mut r) };
}

/// `pte_report_count` of each severity.
fn counts(r: *const PteReport) -> (usize, usize) {
    let (mut violations, mut warnings) = (usize::MAX, usize::MAX);
    assert_eq!(unsafe { pte_report_count(r, PteSeverity::Violation as u32, &mut violations) }, PteStatus::Ok);
    assert_eq!(unsafe { pte_report_count(r, PteSeverity::Warning as u32, &mut warnings) }, PteStatus::Ok);
    (violations, warnings)
}

#[test]
fn counts_match_the_library_on_damaged_and_sound_files() {
    let mut damaged = 0;
    for path in pte_testkit::regressions().into_iter().chain(corpus_files()) {
        let bytes = std::fs::read(&path).unwrap();
        // what does not open is no ExecuTorch file: the library refuses it too
        let Ok(h) = open_bytes(&bytes) else {
            assert!(pte::verify(&bytes, &[]).is_err(), "{}", path.display());
            continue;
        };
        let want = pte::verify(&bytes, &[]).unwrap();
        let (_, findings, mut r) = verdict_of(h.0, &[]);
        let (violations, warnings) = counts(r);
        assert_eq!((violations, warnings), (want.violations.len(), want.warnings.len()), "{}", path.display());
        // the violations come first: the first warning sits at the violation count
        assert!(findings.iter().take(violations).all(|f| f.severity == PteSeverity::Violation));
        assert!(findings.iter().skip(violations).all(|f| f.severity == PteSeverity::Warning));
        damaged += usize::from(violations > 0);
        unsafe { pte_report_free(&mut r) };
    }
    assert!(damaged >= 5, "only {damaged} damaged files opened and verified");
    // the external program alone: no violation, its EXTERNAL constants warned about
    let h = open(&pte_testkit::model("external"));
    let (_, _, mut r) = verdict_of(h.0, &[]);
    let (violations, warnings) = counts(r);
    assert!(violations == 0 && warnings > 0);
    let mut n = 7;
    assert_eq!(unsafe { pte_report_count(r, 2, &mut n) }, PteStatus::InvalidArgument);
    assert!(last_error().contains("no PteSeverity"), "{}", last_error());
    assert_eq!(n, 7);
    assert_eq!(unsafe { pte_report_count(r, 0, null_mut()) }, PteStatus::NullPointer);
    assert_eq!(unsafe { pte_report_count(null(), 0, &mut n) }, PteStatus::NullPointer);
    unsafe { pte_report_free(&mut r) };
}

#[test]
fn data_files_link_and_silence_the_external_warning() {
    let pte = open(&pte_testkit::model("external"));
    let ptd = open(&pte_testkit::corpus("external/_default_external_constant.ptd"));
    let (_, alone, mut r) = verdict_of(pte.0, &[]);
    assert!(alone.iter().any(|f| f.severity == PteSeverity::Warning));
    unsafe { pte_report_free(&mut r) };
    let (json, linked, mut r) = verdict_of(pte.0, &[ptd.0]);
    assert!(linked.is_empty(), "{json}");
    unsafe { pte_report_free(&mut r) };
    // a data file that does not read fails the verification itself
    let junk = open(&pte_testkit::model("add"));
    let mut r2 = null_mut();
    let data = [junk.0 as *const PteHandle];
    assert_ne!(unsafe { pte_verify(pte.0, data.as_ptr(), 1, &mut r2) }, PteStatus::Ok);
    assert!(r2.is_null());
}

#[test]
fn summaries_and_dumps_match_the_library() {
    for path in corpus_files() {
        let h = open(&path);
        let bytes = std::fs::read(&path).unwrap();
        let mut kind = PteKind::Unknown;
        assert_eq!(unsafe { pte_kind(h.0, &mut kind) }, PteStatus::Ok);
        let mut s = null_mut();
        // every kind: the door's summary, as `pte info --json` prints it
        let status = unsafe { pte_summary_json(h.0, &mut s) };
        assert_eq!(status, PteStatus::Ok, "{}: {}", path.display(), last_error());
        let options = pte::SummaryOptions { path: Some(&path), ..Default::default() };
        let file = pte::File::from_bytes(&bytes).unwrap();
        let want = serde_json::to_string_pretty(&file.summary(&options).unwrap()).unwrap();
        assert_eq!(take(s), want, "{}", path.display());
        // size, memory and operators: the door's answers, refusals included
        let mut j = null_mut();
        let status = unsafe { pte_size_json(h.0, &mut j) };
        let want = file.size().map(|r| serde_json::to_string_pretty(&r).unwrap());
        assert_eq!(status == PteStatus::Ok, want.is_ok(), "{}", path.display());
        if let Ok(want) = want {
            assert_eq!(take(j), want, "{}", path.display());
        }
        let mut j = null_mut();
        let status = unsafe { pte_memory_json(h.0, null(), &mut j) };
        let want = file.memory(None).map(|p| serde_json::to_string_pretty(&p).unwrap());
        assert_eq!(status == PteStatus::Ok, want.is_ok(), "{}", path.display());
        match want {
            Ok(want) => assert_eq!(take(j), want, "{}", path.display()),
            Err(_) => assert_eq!(status, PteStatus::InvalidArgument, "{}", path.display()),
        }
        let mut j = null_mut();
        let status = unsafe { pte_ops_json(h.0, &mut j) };
        let want = file.operators().map(|o| serde_json::to_value(&o).unwrap().to_string());
        assert_eq!(status == PteStatus::Ok, want.is_ok(), "{}", path.display());
        if let Ok(want) = want {
            assert_eq!(take(j), want, "{}", path.display());
        }
        let mut d = null_mut();
        assert_eq!(unsafe { pte_dump_json(h.0, &mut d) }, PteStatus::Ok, "{}: {}", path.display(), last_error());
        let dump: serde_json::Value = serde_json::from_str(&take(d)).unwrap();
        assert!(dump.is_object(), "{}", path.display());
    }
}

#[test]
fn identify_reads_the_kind() {
    for (rel, want) in [
        ("add/model.pte", PteKind::Pte),
        ("external/_default_external_constant.ptd", PteKind::Ptd),
        ("native_ptn/model.ptn", PteKind::Ptn),
        ("bundled/model.bpte", PteKind::Bpte),
        ("add/io.safetensors", PteKind::Unknown),
    ] {
        let bytes = pte_testkit::corpus_bytes(rel);
        let mut kind = PteKind::Unknown;
        assert_eq!(unsafe { pte_identify(bytes.as_ptr(), bytes.len(), &mut kind) }, PteStatus::Ok);
        assert_eq!(kind, want, "{rel}");
        let name = text(pte_kind_name(kind as u32));
        assert!(rel.ends_with(&name) || (name == "unknown" && kind == PteKind::Unknown), "{rel}: {name}");
    }
    assert_eq!(text(pte_kind_name(99)), "unknown");
    let _ = null::<u8>();
}

#[test]
fn versions() {
    assert_eq!(pte_abi_version(), PTE_ABI_VERSION);
    assert_eq!(text(pte_version()), env!("CARGO_PKG_VERSION"));
}

#[test]
fn errors_are_per_thread() {
    let mut h = null_mut();
    assert_eq!(unsafe { pte_open(c"/nonexistent/a.pte".as_ptr(), &mut h) }, PteStatus::Io);
    std::thread::spawn(|| {
        assert!(last_error().is_empty());
        assert_eq!(pte_last_status(), PteStatus::Ok);
    })
    .join()
    .unwrap();
    assert!(last_error().contains("a.pte"));
}

#[test]
fn handles_and_reports_are_shareable() {
    fn shareable<T: Send + Sync>() {}
    shareable::<PteHandle>();
    shareable::<PteReport>();
}

#[test]
fn one_handle_serves_many_threads() {
    let h = open(&pte_testkit::model("xnnpack_mlp"));
    let addr = h.0 as usize;
    let lens: Vec<usize> = (0..4)
        .map(|_| {
            std::thread::spawn(move || {
                let mut d = std::mem::MaybeUninit::uninit();
                assert_eq!(unsafe { pte_delegate(addr as *const PteHandle, 0, d.as_mut_ptr()) }, PteStatus::Ok);
                unsafe { d.assume_init() }.len
            })
        })
        .map(|t| t.join().unwrap())
        .collect();
    assert!(lens.iter().all(|&n| n == lens[0] && n > 0));
}
