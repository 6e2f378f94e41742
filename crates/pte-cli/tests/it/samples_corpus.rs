//! The corpus package with samples, `decoder_samples/model.ptn`, which
//! docs/samples.md's quick start checks on the stock runtime: its sets are
//! listed, it verifies, and its two sets differ in exactly the one expected
//! element the quick start's failing check names (compared here without a
//! runtime, the good set's outputs standing in for the runtime's).

use crate::support::{corpus, pte, s, stderr as err, stdout as out};

const PACKAGE: &str = "decoder_samples/model.ptn";

#[test]
fn list_shows_both_sets() {
    let o = pte(&["samples", "list", s(&corpus(PACKAGE))]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        out(&o),
        "forward/teacher-forced: 2 samples, 20 calls, atol 0.00001 rtol 0.00001\n\
         forward/teacher-forced-wrong: 2 samples, 20 calls, atol 0.00001 rtol 0.00001\n"
    );
}

#[test]
fn package_with_samples_verifies() {
    let o = pte(&["verify", s(&corpus(PACKAGE))]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).ends_with("model.ptn: valid\n"), "{}", out(&o));
}

#[test]
fn wrong_set_differs_from_the_good_one_in_one_element() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good");
    let o = pte(&["samples", "export", s(&corpus(PACKAGE)), "forward", "teacher-forced", s(&good)]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    // the good set's recorded tensors as actual outputs, under their bare keys
    let actual = good.join("data.safetensors");
    let check = |set: &str| pte(&["samples", "check", s(&corpus(PACKAGE)), "--set", set, "--actual", s(&actual)]);

    let o = check("teacher-forced");
    assert_eq!(o.status.code(), Some(0), "{}{}", out(&o), err(&o));
    assert!(
        out(&o).ends_with("1 set, 2 samples, 20 calls, 20 outputs compared, 0 skipped: all passed\n"),
        "{}",
        out(&o)
    );

    let o = check("teacher-forced-wrong");
    assert_eq!(o.status.code(), Some(1), "{}{}", out(&o), err(&o));
    let text = out(&o);
    let fails: Vec<&str> = text.lines().filter(|l| l.starts_with("FAIL ")).collect();
    assert_eq!(fails.len(), 1, "{text}");
    assert!(
        fails[0].starts_with(
            "FAIL forward/teacher-forced-wrong sample 1 (\"e\") call 6: output 0: 1 element outside tolerance; \
             worst at index 13: expected 0.27702322602272034, got 0.2765466868877411,"
        ),
        "{text}"
    );
}
